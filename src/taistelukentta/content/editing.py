"""The scenario editor's model (issue 14): a scenario as the browser edits it, back to TOML.

The model is plain JSON::

    {"id": "demo",
     "scenario": {...the scenario file's tables, without "map"...},
     "map": {"name": "...", "rows": ["..==", ...], "elevation": [[0, 1, ...], ...] | null,
             "legend": {"R": ["forest", "road"]}},
     "origin": {"map_ref": "maps/demo.toml" | null, "map_raw": {...} | null}}

``origin`` remembers where the map came from: when the map is saved unedited, the scenario
keeps its ``map = "maps/demo.toml"`` reference (or its inline ``[map]`` exactly as it was), so
load → save with no edit gives the same data (tested on every bundled scenario). An edited
map is written inline as ``[map]``. Validation is the loader's own
(:func:`~taistelukentta.content.scenario.scenario_from_data`) on the TOML that would be
saved, so the editor shows exactly ``tk20``'s errors: file, key (with line) and problem.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from taistelukentta.content.loader import data_path, parse_toml, read_text
from taistelukentta.content.maps import _split_rows
from taistelukentta.content.scenario import bundled_ids, scenario_from_data, scenarios_dir
from taistelukentta.content.tomlwrite import dumps
from taistelukentta.errors import ArgumentError, DataError

MAX_EDITOR_CELLS = 250_000
"""Largest empty map the editor starts (500 × 500)."""


def map_model(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A map file's data (or a scenario's inline ``[map]``) as rows and a height matrix."""
    terrain = raw.get("terrain", "")
    rows = [r for _, r in _split_rows(terrain)] if isinstance(terrain, str) else []
    elevation: list[list[int]] | None = None
    raw_elev = raw.get("elevation")
    if isinstance(raw_elev, str):
        elevation = [
            [int(tok) for tok in r.split() if re.fullmatch(r"-?[0-9]+", tok)]
            for _, r in _split_rows(raw_elev)
        ]
    legend = raw.get("legend", {})
    return {
        "name": raw.get("name", "") if isinstance(raw.get("name", ""), str) else "",
        "rows": rows,
        "elevation": elevation,
        "legend": {k: list(v) for k, v in legend.items()} if isinstance(legend, Mapping) else {},
    }


def map_raw(model: Mapping[str, Any]) -> dict[str, Any]:
    """The model's map as map-file data (``terrain`` and ``elevation`` multi-line)."""
    out: dict[str, Any] = {}
    if model.get("name"):
        out["name"] = model["name"]
    out["terrain"] = "\n".join(model["rows"]) + "\n"
    elevation = model.get("elevation")
    if elevation is not None and any(v != 0 for row in elevation for v in row):
        width = max((len(str(v)) for row in elevation for v in row), default=1)
        out["elevation"] = (
            "\n".join(" ".join(str(v).rjust(width) for v in row) for row in elevation) + "\n"
        )
    if model.get("legend"):
        out["legend"] = {k: list(v) for k, v in model["legend"].items()}
    return out


def _same_map(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    def norm(m: Mapping[str, Any]) -> tuple[Any, ...]:
        elev = m.get("elevation")
        if elev is not None and all(v == 0 for row in elev for v in row):
            elev = None
        return (m.get("name", ""), list(m["rows"]), elev, dict(m.get("legend") or {}))

    return norm(a) == norm(b)


def _map_file(ref: str, base_dir: Path | None) -> Path | None:
    """The map file a scenario's ``map = "…"`` names: a relative path below the scenario's
    folder or the bundled data (never an absolute path or one leading out with ``..``: the
    server's editor reads no other file)."""
    rel = Path(ref)
    if rel.is_absolute() or ".." in rel.parts or not ref.endswith(".toml"):
        return None
    candidates = [] if base_dir is None else [base_dir / rel]
    candidates.append(data_path(*rel.parts))
    return next((c for c in candidates if c.is_file()), None)


def model_from_data(data: Mapping[str, Any], sid: str, base_dir: Path | None) -> dict[str, Any]:
    """The editor's model of scenario ``data`` (a parsed file)."""
    scenario = {k: copy.deepcopy(v) for k, v in data.items() if k != "map"}
    raw_map = data.get("map")
    origin: dict[str, Any] = {"map_ref": None, "map_raw": None}
    if isinstance(raw_map, str):
        path = _map_file(raw_map, base_dir)
        if path is None:
            raise DataError(sid, [f"map: map file {raw_map!r} not found"])
        game_map = map_model(parse_toml(read_text(path), str(path)))
        origin["map_ref"] = raw_map
    elif isinstance(raw_map, Mapping):
        game_map = map_model(raw_map)
        origin["map_raw"] = copy.deepcopy(dict(raw_map))
    else:
        raise DataError(sid, ["map: missing (a map file name or a [map] table)"])
    return {
        "id": str(data.get("id") or sid),
        "scenario": scenario,
        "map": game_map,
        "origin": origin,
    }


def load_model(ref: str, extra: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The model of a bundled scenario (``demo``), one in an ``extra`` folder, or a file."""
    if ref in bundled_ids():
        path = scenarios_dir() / f"{ref}.toml"
    else:
        found = [d / f"{ref}.toml" for d in extra if (d / f"{ref}.toml").is_file()]
        path = found[0] if found else Path(ref)
        if not path.is_file():
            raise ArgumentError(f"unknown scenario {ref!r}", f"tuntematon skenaario {ref!r}")
    data = parse_toml(read_text(path), str(path))
    return model_from_data(data, path.stem, path.parent)


def empty_model(width: int, height: int, sid: str = "uusi") -> dict[str, Any]:
    """A new scenario on an open ``width`` × ``height`` map: every required table present,
    no units yet (validation then lists what is still missing)."""
    if not (1 <= width <= 500 and 1 <= height <= 500) or width * height > MAX_EDITOR_CELLS:
        raise ArgumentError(
            f"map size {width}×{height}: 1…500 cells each way",
            f"kartan koko {width}×{height}: 1…500 ruutua kumpaankin suuntaan",
        )
    return {
        "id": sid,
        "scenario": {
            "id": sid,
            "rounds": 6,
            "first_side": "blue",
            "title": {"fi": "Uusi skenaario", "en": "New scenario"},
            "briefing": {"fi": "Tehtävä: …", "en": "Mission: …"},
            "options": {},
            "victory": {"destroyed_enemy_vp": 1, "own_loss_vp": -1},
            "objectives": [],
            "blue": {
                "seats": [
                    {
                        "id": "co",
                        "role": "company_commander",
                        "name": {"fi": "Komppanianpäällikkö", "en": "Company commander"},
                        "units": [],
                    }
                ]
            },
            "red": {
                "battle_groups": [
                    {
                        "id": "bg1",
                        "name": {"fi": "Taisteluosasto", "en": "Battle group"},
                        "units": [],
                    }
                ]
            },
        },
        "map": {
            "name": "",
            "rows": ["." * width for _ in range(height)],
            "elevation": None,
            "legend": {},
        },
        "origin": {"map_ref": None, "map_raw": None},
    }


def model_data(model: Mapping[str, Any], *, inline_map: bool = False) -> dict[str, Any]:
    """The scenario data the model saves: the map by its original reference (or original
    inline table) when unedited, else inline. ``inline_map`` always inlines it (a
    self-contained file for the server)."""
    scenario = {k: v for k, v in model["scenario"].items() if k != "map"}
    origin = model.get("origin") or {}
    ref, raw = origin.get("map_ref"), origin.get("map_raw")
    game_map = model["map"]
    map_value: Any = None
    if isinstance(ref, str):
        path = _map_file(ref, scenarios_dir())
        file_data = parse_toml(read_text(path), str(path)) if path is not None else None
        if file_data is not None and _same_map(map_model(file_data), game_map):
            map_value = file_data if inline_map else ref
    if map_value is None and isinstance(raw, Mapping) and _same_map(map_model(raw), game_map):
        map_value = dict(raw)
    if map_value is None:
        map_value = map_raw(game_map)
    # File order like the bundled files: id, title, briefing, map, rounds … then the rest.
    out: dict[str, Any] = {}
    for key in ("id", "title", "briefing"):
        if key in scenario:
            out[key] = scenario.pop(key)
    out["map"] = map_value
    out.update(scenario)
    return out


def model_toml(model: Mapping[str, Any], *, inline_map: bool = False) -> str:
    """The model as scenario TOML text."""
    header = "Scenario saved by the tk20 scenario editor (format: docs/scenarios.md)."
    return dumps(model_data(model, inline_map=inline_map), header=header)


_PROBLEM = re.compile(r"^(?P<key>[^\s:][^:]*?)(?: \(line (?P<line>\d+)\))?: (?P<text>.*)$", re.S)


def split_problem(problem: str) -> dict[str, Any]:
    """``"blue.seats[0].units[1].cell (line 40): off the map"`` → key, line, problem."""
    m = _PROBLEM.match(problem)
    if m is None:
        return {"key": "", "line": None, "problem": problem}
    line = m.group("line")
    return {"key": m.group("key"), "line": int(line) if line else None, "problem": m.group("text")}


def validate_model(model: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every problem ``tk20`` would report for the saved file: file, key, line, problem."""
    sid = str(model.get("id") or "scenario")
    source = f"{sid}.toml"
    try:
        text = model_toml(model)
        data = parse_toml(text, source)
        scenario_from_data(data, source=source, text=text, base_dir=scenarios_dir(), default_id=sid)
    except DataError as exc:
        return [{"file": exc.path, **split_problem(p)} for p in exc.problems]
    except (TypeError, KeyError, ValueError) as exc:
        return [{"file": source, "key": "", "line": None, "problem": f"not a scenario: {exc}"}]
    return []
