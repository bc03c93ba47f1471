"""The fast tier keeps every rule: a rule ID tested only by slow tests is an error."""

from __future__ import annotations

import pytest

from tests.conftest import TIERS, rule_ids


def test_rule_ids_are_read_from_test_names() -> None:
    assert rule_ids("test_r_co_1_r_co_2_random_company_play") == {"R-CO-1", "R-CO-2"}
    assert rule_ids("test_r_atk_10_heavy") == {"R-ATK-10"}
    assert rule_ids("test_our_3_players_for_2_turns") == set()


def test_every_rule_id_of_a_slow_test_is_also_in_the_fast_tier(
    request: pytest.FixtureRequest,
) -> None:
    fast, slow = request.config.stash[TIERS]
    if not slow:
        pytest.skip("no slow test was collected in this run")
    only_slow = sorted(slow - fast)
    assert not only_slow, f"rule IDs tested only by slow tests: {only_slow}"
