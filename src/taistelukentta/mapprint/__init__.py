"""The printable 1:10 000 map (issue 14): ``tk20 map`` and the table's print endpoint.

- :mod:`.layout`: paper sizes, tiles with overlap, registration marks (pure arithmetic);
- :mod:`.content`: what one side's print may show (a whitelist, the fog boundary);
- :mod:`.draw`: the drawing with matplotlib, written as PDF, SVG or PNG.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from taistelukentta.content.loader import data_path, read_toml
from taistelukentta.content.maps import load_map
from taistelukentta.content.scenario import bundled_ids, load_scenario, load_scenario_file
from taistelukentta.errors import ArgumentError
from taistelukentta.mapprint.content import (
    PRINT_SIDES,
    PrintContent,
    PrintSide,
    content_for_map,
    content_for_scenario,
    content_for_view,
)
from taistelukentta.mapprint.draw import render_pdf, render_png, render_svg_pages, write

if TYPE_CHECKING:
    from taistelukentta.rules.state import GameState

__all__ = [
    "PRINT_SIDES",
    "PrintContent",
    "PrintSide",
    "content_for_map",
    "content_for_scenario",
    "content_for_view",
    "game_print_content",
    "load_print_content",
    "render_pdf",
    "render_png",
    "render_svg_pages",
    "write",
]


def game_print_content(state: GameState, side: PrintSide, lang: str) -> PrintContent:
    """The print of a game as it stands, for ``side`` (``gm``: the game master's): built
    from that viewer's view (:func:`content_for_view`)."""
    from taistelukentta.views import view_for

    view = view_for(state, side, log_limit=0)
    return content_for_view(view, state.scenario, lang)


def _is_game_file(path: Path) -> bool:
    if path.suffix.lower() == ".json":
        return True
    with path.open("rb") as fh:
        return fh.read(64).lstrip().startswith(b"{")


def load_print_content(subject: str, side: PrintSide, lang: str) -> PrintContent:
    """The print of ``subject``: a bundled scenario id, a scenario file, a map file, a
    bundled map's name (``maps/NAME.toml``) or a game file (JSON: the game as it stands,
    as ``side`` knows it). A file with a top-level ``terrain`` is a map."""
    if subject in bundled_ids():
        return content_for_scenario(load_scenario(subject), side, lang)
    path = Path(subject)
    if path.is_file():
        if _is_game_file(path):
            from taistelukentta.storage.session import open_game

            return game_print_content(open_game(path).state, side, lang)
        data = read_toml(path)
        if "terrain" in data:
            return content_for_map(load_map(path), side, lang)
        return content_for_scenario(load_scenario_file(path), side, lang)
    bundled_map = data_path("maps", f"{subject}.toml")
    if bundled_map.is_file():
        return content_for_map(load_map(bundled_map), side, lang)
    known = ", ".join(bundled_ids()) or "-"
    raise ArgumentError(
        f"unknown scenario or map {subject!r}: neither a bundled scenario ({known}), a bundled "
        "map nor a file",
        f"tuntematon skenaario tai kartta {subject!r}: ei valmis skenaario ({known}), valmis "
        "kartta eikä tiedosto",
    )
