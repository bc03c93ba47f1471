"""Instant start (issue 7): ``tk20`` loads only what the command being run needs.

The figures are in ``benchmarks/bench_startup.py`` / ``docs/performance.md``; these tests
keep the structure that makes them possible: the command table of the lazy ``tk20`` group
is complete, and the player's commands do not import the bots, the exact-odds library
(icepool) or scipy, each of which costs more than the whole command should.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from taistelukentta.cli.app import COMMANDS, MODULES, app, fast_call, module_commands

HEAVY = ("icepool", "scipy", "taistelukentta.bots", "taistelukentta.odds", "prompt_toolkit")


def _heavy_modules_after(code: str, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    """The heavy modules in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    probe = (
        f"{code}\nimport json, sys\n"
        f"heavy = {heavy!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules "
        "if any(m == h or m.startswith(h + '.') for h in heavy))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    found: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_importing_the_cli_imports_no_command_and_nothing_heavy() -> None:
    found = _heavy_modules_after(
        "import sys, taistelukentta.cli.app\n"
        "assert not [m for m in sys.modules if m.endswith('_cmds')], 'a command module'"
    )
    assert found == []


def test_show_orders_and_order_import_no_bots_odds_or_scipy_on_their_way(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    new = CliRunner().invoke(app, ["new", "demo", "--seed", "3", "--out", str(game)])
    assert new.exit_code == 0, new.output
    fresh = tmp_path / "fresh.json"  # 1JJ defended in the other: a fresh game to move it
    new = CliRunner().invoke(app, ["new", "demo", "--seed", "3", "--out", str(fresh)])
    assert new.exit_code == 0, new.output
    shows = [["show", str(game), "--as", "pl1"], ["show", str(game), "--as", "gm", "--json"]]
    steps = [
        *shows,
        ["order", str(game), "--as", "pl1", "defend 1JJ"],
        ["orders", str(fresh), "--as", "pl1"],
        ["order", str(fresh), "--as", "pl1", "move 1JJ 0,3"],
    ]
    # one fresh interpreter runs the commands one after the other and reports the heavy
    # modules loaded after each (each command in a process of its own cost ~0.8 CPU-s more)
    code = (
        "import json, sys\n"
        "from typer.testing import CliRunner\n"
        "from taistelukentta.cli.app import app\n"
        f"heavy = {(*HEAVY, 'numpy')!r}\n"
        f"for argv in {steps!r}:\n"
        "    r = CliRunner().invoke(app, argv)\n"
        "    assert r.exit_code == 0, (argv, r.output)\n"
        "    print(json.dumps([r.output, sorted(m for m in sys.modules\n"
        "        if any(m == h or m.startswith(h + '.') for h in heavy))]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    outputs, loaded = zip(*(json.loads(line) for line in done.stdout.splitlines()), strict=True)
    assert len(loaded) == len(steps)
    # showing the game reads the map cell by cell: not even numpy (built on first search)
    assert loaded[0] == loaded[1] == []
    # ordering, listing orders and moving search the map (numpy), in plain Python: none of
    # them may load a heavy module
    assert [
        [m for m in found if m != "numpy" and not m.startswith("numpy.")] for found in loaded
    ] == [[]] * len(steps)
    assert "move 1JJ 0,3" in outputs[3]


def test_the_command_table_is_what_the_modules_register_in_help_order() -> None:
    registered: dict[str, str] = {}
    groups: list[str] = []
    assert set(COMMANDS.values()) <= set(MODULES)
    for module in MODULES:
        for name, cmd in module_commands(module).items():
            assert name not in registered, f"{name} registered twice"
            registered[name] = module
            if isinstance(cmd, typer.core.TyperGroup):
                groups.append(name)
    assert registered == COMMANDS  # every command listed, with its module
    # help lists the plain commands in registration order, then the groups (as typer does)
    plain = [n for n in registered if n not in groups]
    assert list(COMMANDS) == plain + groups


def test_a_mistyped_command_is_still_told_apart_with_a_suggestion() -> None:
    result = CliRunner().invoke(app, ["shwo"])
    assert result.exit_code == 2
    assert "show" in result.output


def test_fast_call_reads_the_player_commands_as_typer_does_and_leaves_the_rest() -> None:
    game = Path("g.json")
    assert fast_call(["show", "g.json", "--as", "pl1"]) == (
        "show",
        None,
        False,
        {"game": game, "who": "pl1"},
    )
    assert fast_call(
        ["--lang", "en", "--no-color", "show", "--as=gm", "g.json", "--events", "3", "--json"]
    ) == ("show", "en", True, {"game": game, "who": "gm", "events": 3, "json_out": True})
    assert fast_call(["order", "g.json", "move 1JJ 0,3", "--as", "pl1"]) == (
        "order",
        None,
        False,
        {"game": game, "text": "move 1JJ 0,3", "who": "pl1"},
    )
    # anything else goes to typer, which parses it and words its errors as always
    for argv in (
        [],
        ["--help"],
        ["show", "--help"],
        ["new", "demo"],
        ["show", "g.json"],  # --as missing
        ["show", "g.json", "--as", "pl1", "--as", "pl2"],
        ["show", "g.json", "--as", "-x"],
        ["show", "g.json", "--as"],
        ["show", "g.json", "--as", "pl1", "--events", "x"],
        ["show", "g.json", "--as", "pl1", "--bogus"],
        ["show", "g.json", "--as", "pl1", "--json=1"],
        ["order", "g.json", "--as", "pl1"],  # ORDER missing
        ["orders", "g.json", "extra", "--as", "pl1"],
        ["orders", "g.json", "--as", "pl1", "--", "x"],
        ["--lang", "sv", "show", "g.json", "--as", "pl1"],
        ["--version", "show", "g.json", "--as", "pl1"],
    ):
        assert fast_call(argv) is None, argv


FAST_PATH_CASES = [
    ["--lang", "en", "show", "{g}", "--as", "pl1", "--events", "2"],
    ["order", "{g}", "--as", "pl1", "move 1JJ 0,3", "--json"],
    ["order", "{g}", "--as", "pl1", "defend 1XX"],  # refused: exit 2, a message
]
FAST_PATH_MORE_CASES = [
    ["show", "{g}", "--as=blue", "--json"],
    ["orders", "{g}", "--as", "co"],
]


@pytest.mark.parametrize(
    "cases",
    [  # fresh interpreters (~0.8 CPU-s each): the slow tier; the fast tier compares the
        # parsing in-process (test_fast_call_reads_the_player_commands_as_typer_does)
        pytest.param(FAST_PATH_CASES, marks=pytest.mark.slow),
        pytest.param(FAST_PATH_MORE_CASES, marks=pytest.mark.slow),
    ],
    ids=["fast", "more"],
)
def test_the_fast_path_prints_what_typer_prints(tmp_path: Path, cases: list[list[str]]) -> None:
    """``tk20`` (the fast path) and the typer app give the same bytes and exit status (two
    fresh interpreters per case, ~0.8 CPU-s each: three cases in the fast tier, the others in
    the slow one; ``fast_call``'s reading of every form is checked in-process above)."""
    fresh = tmp_path / "fresh.json"
    new = CliRunner().invoke(app, ["new", "demo", "--seed", "5", "--out", str(fresh)])
    assert new.exit_code == 0, new.output
    typer_app = "import sys; from taistelukentta.cli.app import app; sys.argv[0] = 'tk20'; app()"
    for case in cases:
        outputs = []
        for prefix in ([sys.executable, "-m", "taistelukentta"], [sys.executable, "-c", typer_app]):
            game = tmp_path / "g.json"
            game.write_bytes(fresh.read_bytes())
            argv = [a.replace("{g}", str(game)) for a in case]
            assert fast_call(argv) is not None
            done = subprocess.run([*prefix, *argv], capture_output=True, check=False, timeout=120)
            outputs.append((done.returncode, done.stdout, done.stderr, game.read_bytes()))
        assert outputs[0] == outputs[1], case


def test_start_up_holds_the_garbage_collector_off_until_the_command_is_loaded(
    tmp_path: Path,
) -> None:
    """``main`` turns the cyclic collector off while a command's modules load (a fifth of a
    ``show``'s CPU went to collecting over freshly built model classes) and on again, with
    the loaded objects frozen, before the command runs — on the fast path and typer's."""
    game = tmp_path / "g.json"
    new = CliRunner().invoke(app, ["new", "demo", "--seed", "3", "--out", str(game)])
    assert new.exit_code == 0, new.output
    probe = (
        "import functools, gc, sys\n"
        "from taistelukentta.cli import app as tk\n"
        "seen = []\n"
        "def spying(real):\n"
        "    @functools.wraps(real)\n"
        "    def spy(*args, **kwargs):\n"
        "        seen.append((gc.isenabled(), gc.get_freeze_count() > 0))\n"
        "        return real(*args, **kwargs)\n"
        "    return spy\n"
        "if sys.argv[1] == 'show':\n"
        "    from taistelukentta.cli import game_cmds\n"
        "    game_cmds.show_cmd = spying(game_cmds.show_cmd)\n"
        "else:\n"
        "    from taistelukentta.cli import scenario_cmds\n"
        "    scenario_cmds.scenarios_cmd = spying(scenario_cmds.scenarios_cmd)\n"
        "try:\n"
        "    tk.main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(seen, gc.isenabled(), file=sys.stderr)\n"
    )
    for argv in (["show", str(game), "--as", "pl1"], ["scenarios"]):
        done = subprocess.run(
            [sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=120
        )
        assert done.stderr.strip().splitlines()[-1] == "[(True, True)] True", done.stderr
