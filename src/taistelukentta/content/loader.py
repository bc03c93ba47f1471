"""Load TOML files into pydantic models, turning every failure into one :class:`DataError`.

A broken file never produces a traceback: the error names the file, each key path that is
wrong, the line where it can be found in the text, and what is wrong.
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from taistelukentta.errors import DataError

M = TypeVar("M", bound=BaseModel)


def data_path(*parts: str) -> Path:
    """Path of a bundled data file below ``taistelukentta/data``."""
    root = resources.files("taistelukentta") / "data"
    return Path(str(root.joinpath(*parts)))


def read_text(path: Path | str) -> str:
    """A UTF-8 text file's contents; a missing or unreadable file becomes a DataError
    naming the path (``file not found`` / ``cannot read file: …``)."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(str(p), ["file not found"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(p), [f"cannot read file: {exc}"]) from None


def read_toml(path: Path | str) -> dict[str, Any]:
    """Parse a TOML file; a missing file or a syntax error becomes a DataError."""
    p = Path(path)
    return parse_toml(read_text(p), str(p))


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """Parse TOML text; ``source`` names it in errors."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(source, [f"TOML syntax error: {exc}"]) from None


def find_line(text: str, loc: tuple[int | str, ...]) -> int | None:
    """Best-effort 1-based line of the deepest key of ``loc`` in TOML ``text``.

    String keys are searched in order; an integer index after a key that is an array of
    tables (``[[weapons]]``) moves to that entry's header, so ``weapons[1].damage`` finds the
    second weapon's ``damage`` line.
    """
    lines = text.splitlines()
    start = 0
    found: int | None = None
    for part in loc:
        if isinstance(part, int):
            if found is None:
                continue
            header = lines[found - 1].strip()
            if not header.startswith("[["):
                continue
            seen = 0
            for i in range(found - 1, len(lines)):
                if lines[i].strip() == header:
                    if seen == part:
                        found = i + 1
                        start = i
                        break
                    seen += 1
            continue
        pat = re.compile(
            r"^\s*(\[\[?\s*)?([\w\-.\"' ]*\.)?[\"']?" + re.escape(part) + r"[\"']?\s*(=|\]|\.)"
        )
        for i in range(start, len(lines)):
            if pat.search(lines[i]):
                found = i + 1
                start = i
                break
    return found


def format_loc(loc: tuple[int | str, ...]) -> str:
    """A pydantic location as a TOML-ish key path: ``units[2].stats.movement``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out or "(top level)"


def validation_problems(exc: ValidationError, text: str | None = None) -> list[str]:
    """Every problem of a pydantic ValidationError as one line each."""
    problems = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        where = format_loc(loc)
        line = find_line(text, loc) if text is not None else None
        at = f" (line {line})" if line is not None else ""
        problems.append(f"{where}{at}: {err['msg']}")
    return problems


def validate(model: type[M], data: Any, source: str, text: str | None = None) -> M:
    """Validate ``data`` as ``model``; errors become one DataError naming ``source``."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise DataError(source, validation_problems(exc, text)) from None


def load_model(path: Path | str, model: type[M]) -> M:
    """Read a TOML file and validate it as ``model``."""
    p = Path(path)
    text = read_text(p)
    return validate(model, parse_toml(text, str(p)), str(p), text)
