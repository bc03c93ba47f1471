"""schemathesis against the server's own OpenAPI: generated and broken requests to every
endpoint, as a seat of a real game; not one answer may be a server error (5xx)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.live import Server, create

CONFIG = """\
headers = { Authorization = "Bearer ${TK20_ST_TOKEN}" }

[parameters]
"path.game_id" = "${TK20_ST_GAME}"
"""


@pytest.mark.slow
@pytest.mark.parametrize("seat", ["gm", "pl1"])
def test_schemathesis_finds_no_server_error(server: Server, tmp_path: Path, seat: str) -> None:
    created = create(server)
    config = tmp_path / "schemathesis.toml"
    config.write_text(CONFIG, encoding="utf-8")
    env = {
        **os.environ,
        "TK20_ST_TOKEN": created["seats"][seat]["token"],
        "TK20_ST_GAME": created["id"],
    }
    run = subprocess.run(
        [
            str(Path(sys.executable).with_name("schemathesis")),
            "--config-file",
            str(config),
            "run",
            f"{server.base}/openapi.json",
            "--checks",
            "not_a_server_error",
            "--max-examples",
            "15",
            "--seed",
            "1",
            # a request's read timeout: the default 10 s is shorter than a PDF print of
            # the whole map takes on a loaded 2-core machine (3.5-6 s alone at load 8, more
            # with the fuzzer's other requests); a slow answer is not what this test checks
            "--request-timeout",
            "120",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
