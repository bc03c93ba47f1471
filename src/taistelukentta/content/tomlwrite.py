"""Writing scenario and map data back to TOML a game master can read and edit by hand.

A small writer for the shapes the data files use (tables, arrays of tables, inline arrays of
cells, inline ``{ fi = …, en = … }`` texts, multi-line strings for maps and briefings), laid
out like the bundled files: units one inline table per line, cells on one line. Any value it
writes parses back (``tomllib``) to exactly the data it was given; a test checks this on
every bundled scenario and on generated data.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+\Z")


def _key(k: str) -> str:
    return k if _BARE.match(k) else _one_line(k)


def _string(s: str) -> str:
    if "\n" in s:
        body = s.replace("\\", "\\\\").replace('"""', '""\\"')
        # Control characters other than newline and tab must be escaped in TOML.
        body = re.sub(
            r"[\x00-\x08\x0b-\x1f\x7f]", lambda m: f"\\u{ord(m.group()):04x}", body
        ).replace("\r", "\\r")
        if body.endswith('"'):
            body = body[:-1] + '\\"'
        return '"""\n' + body + '"""'
    return _one_line(s)


def _one_line(s: str) -> str:
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def inline(v: Any) -> str:
    """A value on one line (multi-line strings excepted)."""
    if isinstance(v, Mapping):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {inline(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(inline(x) for x in v) + "]"
    return _scalar(v)


def _is_table_list(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, Mapping) for x in v)


def _value(v: Any) -> str:
    """A value inside a table: a list of tables one per line, anything else inline."""
    if _is_table_list(v):
        return "[\n" + "".join(f"  {inline(x)},\n" for x in v) + "]"
    return inline(v)


def _emit(table: Mapping[str, Any], path: list[str], out: list[str]) -> None:
    """A (sub-)table: its plain keys, then its tables as ``[a.b]``, then its lists of
    tables as ``[[a.c]]`` whose elements are written inline (texts, units)."""
    tables = [(k, v) for k, v in table.items() if isinstance(v, Mapping)]
    arrays = [(k, v) for k, v in table.items() if _is_table_list(v)]
    for k, v in table.items():
        if not isinstance(v, Mapping) and not _is_table_list(v):
            out.append(f"{_key(k)} = {_value(v)}")
    for k, v in tables:
        sub = [*path, k]
        # A table of only tables is implied by their headers.
        if not v or any(not isinstance(x, Mapping) and not _is_table_list(x) for x in v.values()):
            out.append("")
            out.append("[" + ".".join(_key(p) for p in sub) + "]")
        _emit(v, sub, out)
    for k, v in arrays:
        sub = [*path, k]
        for item in v:
            out.append("")
            out.append("[[" + ".".join(_key(p) for p in sub) + "]]")
            _emit_element(item, out)


def _emit_element(table: Mapping[str, Any], out: list[str]) -> None:
    for k, v in table.items():
        out.append(f"{_key(k)} = {_value(v)}")


def dumps(data: Mapping[str, Any], header: str = "") -> str:
    """``data`` as TOML text (``header``: comment lines put first)."""
    out: list[str] = [f"# {line}".rstrip() for line in header.splitlines()]
    _emit(data, [], out)
    return "\n".join(out).lstrip("\n") + "\n"
