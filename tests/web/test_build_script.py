"""``scripts/build-web --check`` / ``--if-stale``: the built client counts as stale when it
is missing or when one of the client's sources is newer than it (what ``scripts/serve``
uses to rebuild after a ``git pull``). Run on a small copy of the tree, never the real one."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "build-web"


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "scripts").mkdir(parents=True)
    shutil.copy2(SCRIPT, root / "scripts" / "build-web")
    web = root / "web"
    (web / "src").mkdir(parents=True)
    for name in ("src/main.ts", "index.html", "package.json", "package-lock.json"):
        (web / name).write_text("x\n", encoding="utf-8")
    return root


def _check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(root / "scripts" / "build-web"), "--check"],
        capture_output=True,
        text=True,
        timeout=30,
    )


def _age(path: Path, seconds: float) -> None:
    t = path.stat().st_mtime - seconds
    os.utime(path, (t, t))


def test_missing_build_is_stale(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    r = _check(root)
    assert r.returncode == 1
    assert "not built yet" in r.stderr


def test_build_newer_than_every_source_is_fresh_and_a_touched_source_makes_it_stale(
    tmp_path: Path,
) -> None:
    root = _tree(tmp_path)
    dist = root / "src" / "taistelukentta" / "web_dist" / "index.html"
    dist.parent.mkdir(parents=True)
    dist.write_text("<html></html>\n", encoding="utf-8")
    for p in (root / "web").rglob("*"):
        if p.is_file():
            _age(p, 3600)
    r = _check(root)
    assert r.returncode == 0, r.stderr
    # A source edited (or pulled) after the build: stale, and the file is named.
    src = root / "web" / "src" / "main.ts"
    t = dist.stat().st_mtime + 10
    os.utime(src, (t, t))
    r = _check(root)
    assert r.returncode == 1
    assert "web/src/main.ts is newer than the build" in r.stderr


def test_unknown_argument_is_refused_by_name(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    r = subprocess.run(
        ["bash", str(root / "scripts" / "build-web"), "--fast"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert r.returncode == 2
    assert "'--fast'" in r.stderr
