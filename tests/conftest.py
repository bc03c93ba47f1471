"""Test tiers: ``pytest -m "not slow"`` is the fast tier, plain ``pytest`` runs everything.

Every rule ID named by a slow test must also be named by a fast one, so the fast tier still
exercises every rule that has a test. The split is recorded here, before ``-m`` deselects
anything, and checked by ``tests/test_tiers.py``.
"""

from __future__ import annotations

import re

import pytest

RULE_ID = re.compile(r"(?<![a-z0-9])r_([a-z]+)_(\d+)")
"""A rule ID in a test's name: ``test_r_atk_4_...`` names R-ATK-4."""

TIERS = pytest.StashKey[tuple[frozenset[str], frozenset[str]]]()
"""(rule IDs named by fast tests, rule IDs named by slow tests) among the collected tests."""


def rule_ids(test_name: str) -> set[str]:
    """The rule IDs a test's function name names, as ``R-ATK-4``."""
    return {f"R-{kind.upper()}-{num}" for kind, num in RULE_ID.findall(test_name)}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    fast: set[str] = set()
    slow: set[str] = set()
    for item in items:
        name = getattr(item, "originalname", item.name)
        (slow if item.get_closest_marker("slow") else fast).update(rule_ids(name))
    config.stash[TIERS] = (frozenset(fast), frozenset(slow))
