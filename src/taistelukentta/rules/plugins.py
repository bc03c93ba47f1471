"""The rule modules the engine loads (docs/extending.md).

Adding a rule module is a new file in ``taistelukentta/rules/`` plus one name here. A
module registers its order handlers and hook functions when it is imported; a module
named here that does not exist yet is skipped (an error *inside* an existing module is
not hidden).
"""

from __future__ import annotations

import importlib

PLUGINS: tuple[str, ...] = ("company", "fire_support", "mines", "abilities")
"""Module names under ``taistelukentta.rules``, imported in this order (the order of
their hook calls)."""

_loaded: list[str] = []


def load_plugins(names: tuple[str, ...] = PLUGINS) -> list[str]:
    """Import the rule modules of ``names`` that exist; returns the names loaded (each
    module is imported once, so calling this again is harmless)."""
    for name in names:
        full = f"taistelukentta.rules.{name}"
        try:
            importlib.import_module(full)
        except ModuleNotFoundError as exc:
            if exc.name == full:
                continue
            raise
        if name not in _loaded:
            _loaded.append(name)
    return list(_loaded)


def loaded_plugins() -> tuple[str, ...]:
    """The rule modules loaded so far."""
    return tuple(_loaded)
