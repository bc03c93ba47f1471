"""The campaign rules (RULES.md §17, R-CAMP-1…5): exact numbers, and properties."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.content.options import load_options
from taistelukentta.rules.campaign import (
    BattleResult,
    Buy,
    CampaignError,
    CampaignRules,
    Choose,
    Restore,
    Roster,
    RosterUnit,
    UnitResult,
    apply_action,
    apply_battle,
    new_roster,
    parse_action,
    undo,
    undoable_entries,
)

RULES = CampaignRules.from_options(load_options())
CARDS = {"jaakariryhma": (10, 1, 0), "panssarintorjuntaryhma": (6, 1, 0)}
WHEN = "2026-12-01T18:00:00+00:00"


def unit(name: str, xp: int = 0, strength: int = 10, max_strength: int = 10) -> RosterUnit:
    return RosterUnit(name, "jaakariryhma", 1, xp, strength, max_strength)


def roster(*units: RosterUnit, tp: int = 0, rules: CampaignRules = RULES) -> Roster:
    return new_roster("Testi", units, rules, actor="gm", when=WHEN, tp=tp)


def battle(vp: int, *ends: UnitResult, kill_vp: int = 1) -> BattleResult:
    return BattleResult("g1", "demo", "blue", vp, kill_vp, tuple(ends))


def test_options_come_from_data() -> None:
    assert RULES.xp_per_vp == 1 and RULES.tp_per_vp == 1
    assert RULES.xp_share == "equal" and RULES.damaged_xp == "half"
    assert RULES.xp_per_tt == 10 and RULES.veteran_xp == 20 and RULES.veteran_max == 1
    assert RULES.veteran_abilities == ("parannettu_sisu", "kaupunkisissi")
    assert RULES.tk_per_tp == 2 and dict(RULES.unit_costs) == {"jaakariryhma": 15}
    changed = CampaignRules.from_options(
        load_options(overrides={"campaign_xp_share": "individual", "campaign_tk_per_tp": 3})
    )
    assert changed.xp_share == "individual" and changed.tk_per_tp == 3


def test_r_camp_1_vp_becomes_xp_and_tp_one_to_one() -> None:
    r = roster(unit("A"), tp=4)
    after = apply_battle(r, battle(7, UnitResult("A", 10)), when=WHEN)
    assert after.tp == 4 + 7
    assert after.units[0].xp == 7
    assert after.battles[0].tp == 7 and dict(after.battles[0].xp) == {"A": 7}


def test_r_camp_1_negative_vp_gives_nothing() -> None:
    r = roster(unit("A"), tp=4)
    after = apply_battle(r, battle(-3, UnitResult("A", 10)), when=WHEN)
    assert after.tp == 4 and after.units[0].xp == 0


def test_r_camp_2_equal_shares_rounded_down_damaged_half() -> None:
    r = roster(unit("A"), unit("B"), unit("C"), unit("D", xp=5))
    # 3 fought (D stayed out); 11 XP / 3 = 3 each; B ends at 4/10 TK (DAMAGED): 1.
    after = apply_battle(
        r, battle(11, UnitResult("A", 10), UnitResult("B", 4), UnitResult("C", 5)), when=WHEN
    )
    xp = {u.name: u.xp for u in after.units}
    assert xp == {"A": 3, "B": 1, "C": 3, "D": 5}
    assert {u.name: u.strength for u in after.units} == {"A": 10, "B": 4, "C": 5, "D": 10}
    assert [u.battles for u in after.units] == [(1,), (1,), (1,), ()]


def test_r_camp_2_destroyed_units_leave_the_roster_and_their_share_is_lost() -> None:
    r = roster(unit("A"), unit("B"))
    after = apply_battle(r, battle(9, UnitResult("A", 10), UnitResult("B", 0)), when=WHEN)
    assert [u.name for u in after.units] == ["A"]
    assert after.units[0].xp == 4  # 9 // 2
    assert [u.name for u in after.fallen] == ["B"]
    assert after.battles[0].destroyed == ("B",)
    assert "destroyed: B" in after.history[-1].what


def test_r_camp_2_individual_xp_from_own_deeds() -> None:
    rules = replace(RULES, xp_share="individual")
    r = roster(unit("A"), unit("B"), unit("C"), rules=rules)
    ends = (
        UnitResult("A", 10, kills=2, objective_vp=3),  # 2×2 + 3 = 7
        UnitResult("B", 3, kills=1),  # 2, DAMAGED: 1
        UnitResult("C", 10),  # nothing done: 0
    )
    after = apply_battle(r, battle(20, *ends, kill_vp=2), when=WHEN)
    assert {u.name: u.xp for u in after.units} == {"A": 7, "B": 1, "C": 0}
    assert after.tp == 20


def test_r_camp_2_damaged_full_option() -> None:
    rules = replace(RULES, damaged_xp="full")
    r = roster(unit("A"), unit("B"), rules=rules)
    after = apply_battle(r, battle(8, UnitResult("A", 10), UnitResult("B", 1)), when=WHEN)
    assert {u.name: u.xp for u in after.units} == {"A": 4, "B": 4}


def test_r_camp_3_every_full_ten_xp_is_one_tt() -> None:
    r = roster(unit("A", xp=8))
    assert r.units[0].tt(RULES) == 1
    after = apply_battle(r, battle(2, UnitResult("A", 10)), when=WHEN)
    assert after.units[0].xp == 10 and after.units[0].tt(RULES) == 2
    after = apply_battle(after, battle(9, UnitResult("A", 10)), when=WHEN)
    assert after.units[0].xp == 19 and after.units[0].tt(RULES) == 2
    assert after.units[0].view(RULES)["next_tt_at"] == 20


def test_r_camp_3_veteran_ability_at_twenty_xp() -> None:
    r = roster(unit("A", xp=19), unit("B", xp=20))
    with pytest.raises(CampaignError, match="19 XP"):
        apply_action(r, Choose("A", "parannettu_sisu"), actor="gm", when=WHEN, cards=CARDS)
    assert r.units[1].may_choose(RULES)
    after = apply_action(r, Choose("B", "kaupunkisissi"), actor="gm", when=WHEN, cards=CARDS)
    assert after.units[1].abilities == ("kaupunkisissi",)
    assert not after.units[1].may_choose(RULES)
    with pytest.raises(CampaignError, match="at most 1"):
        apply_action(after, Choose("B", "parannettu_sisu"), actor="gm", when=WHEN, cards=CARDS)
    with pytest.raises(CampaignError, match="not a veteran ability"):
        apply_action(r, Choose("B", "lennokki"), actor="gm", when=WHEN, cards=CARDS)


def test_r_camp_4_one_tp_restores_two_tk() -> None:
    r = roster(unit("A", strength=3), tp=5)
    after = apply_action(r, Restore("A", 4), actor="gm", when=WHEN, cards=CARDS)
    assert after.units[0].strength == 7 and after.tp == 3
    after = apply_action(after, Restore("A", 3), actor="gm", when=WHEN, cards=CARDS)
    assert after.units[0].strength == 10 and after.tp == 1  # 3 TK: 2 TP (rounded up)
    with pytest.raises(CampaignError, match="lost 0 TK"):
        apply_action(after, Restore("A", 1), actor="gm", when=WHEN, cards=CARDS)
    with pytest.raises(CampaignError, match="costs 3 TP; the company has 1"):
        apply_action(
            replace(after, units=(unit("A", strength=4),)),
            Restore("A", 6),
            actor="gm",
            when=WHEN,
            cards=CARDS,
        )


def test_r_camp_4_new_basic_unit_costs_fifteen_tp() -> None:
    r = roster(unit("A"), tp=16)
    after = apply_action(r, Buy("jaakariryhma", "1R4"), actor="gm", when=WHEN, cards=CARDS)
    assert after.tp == 1
    new = after.unit("1R4")
    assert new is not None and (new.strength, new.max_strength, new.xp) == (10, 10, 0)
    with pytest.raises(CampaignError, match="costs 15 TP; the company has 1"):
        apply_action(after, Buy("jaakariryhma", "1R5"), actor="gm", when=WHEN, cards=CARDS)
    with pytest.raises(CampaignError, match="cannot be bought"):
        apply_action(r, Buy("panssarintorjuntaryhma", "PST"), actor="gm", when=WHEN, cards=CARDS)
    with pytest.raises(CampaignError, match="already has a unit 'A'"):
        apply_action(r, Buy("jaakariryhma", "A"), actor="gm", when=WHEN, cards=CARDS)


def test_r_camp_5_roster_keeps_xp_tk_and_status_between_battles() -> None:
    r = roster(unit("A"), unit("B"))
    after = apply_battle(r, battle(6, UnitResult("A", 4), UnitResult("B", 10)), when=WHEN)
    again = Roster.from_dict(after.to_dict())
    assert again == after
    a = again.unit("A")
    assert a is not None and (a.xp, a.strength) == (1, 4)
    assert a.view(RULES)["statuses"] == ["DAMAGED"]


def test_parse_action() -> None:
    assert parse_action("restore 1R1 4") == Restore("1R1", 4)
    assert parse_action("buy jaakariryhma 1R4") == Buy("jaakariryhma", "1R4")
    assert parse_action("ability 1R1 parannettu_sisu") == Choose("1R1", "parannettu_sisu")
    for bad in ("restore 1R1", "restore 1R1 x", "restore 1R1 0", "sell 1R1 3", 'buy "x'):
        with pytest.raises(CampaignError):
            parse_action(bad)


def test_undo_until_the_next_battle() -> None:
    r = roster(unit("A", strength=2), tp=20)
    a = apply_action(r, Restore("A", 2), actor="gm", when=WHEN, cards=CARDS)
    b = apply_action(a, Buy("jaakariryhma", "N"), actor="gm", when=WHEN, cards=CARDS)
    with pytest.raises(CampaignError, match="newest change"):
        undo(b, actor="gm", when=WHEN, seq=a.history[-1].seq)
    c = undo(b, actor="gm", when=WHEN)
    assert (c.tp, [u.name for u in c.units]) == (a.tp, ["A"])
    d = undo(c, actor="gm", when=WHEN)
    assert (d.tp, d.units) == (r.tp, r.units)
    assert [h.kind for h in d.history] == ["created", "restore", "buy", "undo", "undo"]
    with pytest.raises(CampaignError, match="nothing to undo"):
        undo(d, actor="gm", when=WHEN)
    e = apply_action(d, Restore("A", 2), actor="gm", when=WHEN, cards=CARDS)
    f = apply_battle(e, battle(1, UnitResult("A", 4)), when=WHEN)
    assert undoable_entries(f) == []


def test_bad_roster_refused() -> None:
    with pytest.raises(CampaignError, match="twice"):
        roster(unit("A"), unit("A"))
    with pytest.raises(CampaignError, match="unit name"):
        roster(unit("bad name"))
    with pytest.raises(CampaignError, match="at least one"):
        roster()


@st.composite
def _battles(draw: st.DrawFn) -> tuple[Roster, BattleResult]:
    n = draw(st.integers(1, 8))
    units = [unit(f"U{i}", xp=draw(st.integers(0, 40))) for i in range(n)]
    fought = draw(st.lists(st.sampled_from(range(n)), unique=True, min_size=1))
    ends = tuple(
        UnitResult(
            f"U{i}", draw(st.integers(0, 10)), draw(st.integers(0, 3)), draw(st.integers(0, 5))
        )
        for i in fought
    )
    rules = draw(st.sampled_from([RULES, replace(RULES, xp_share="individual")]))
    return roster(*units, rules=rules), battle(draw(st.integers(-10, 40)), *ends)


@settings(max_examples=60, deadline=None)
@given(_battles())
def test_r_camp_2_property_shares(case: tuple[Roster, BattleResult]) -> None:
    r, result = case
    after = apply_battle(r, result, when=WHEN)
    gained = dict(after.battles[-1].xp)
    total = max(0, result.victory_points)
    if r.rules.xp_share == "equal":
        assert sum(gained.values()) <= total
        share = total // len(result.units)
        assert all(v in (share, share // 2) for v in gained.values())
    for e in result.units:
        if e.strength == 0:
            assert after.unit(e.name) is None and e.name not in gained
        else:
            before = r.unit(e.name)
            now = after.unit(e.name)
            assert before is not None and now is not None
            assert now.xp == before.xp + gained[e.name]
            assert now.tt(RULES) - before.tt(RULES) == now.xp // 10 - before.xp // 10
    assert len(after.units) + len(after.fallen) == len(r.units)
    assert after.tp == r.tp + total


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.builds(Restore, st.sampled_from(["A", "B", "X"]), st.integers(1, 12)),
            st.builds(Buy, st.sampled_from(["jaakariryhma", "t72"]), st.sampled_from(["N", "A"])),
            st.builds(
                Choose, st.sampled_from(["A", "B"]), st.sampled_from(RULES.veteran_abilities)
            ),
        ),
        max_size=8,
    ),
    st.integers(0, 40),
)
def test_r_camp_4_property_spending_never_overdraws_and_undo_restores(
    actions: list[Restore | Buy | Choose], tp: int
) -> None:
    start = roster(unit("A", xp=25, strength=3), unit("B", strength=9), tp=tp)
    states = [start]
    for action in actions:
        try:
            states.append(apply_action(states[-1], action, actor="gm", when=WHEN, cards=CARDS))
        except CampaignError:
            continue
        now = states[-1]
        assert now.tp >= 0
        assert all(0 < u.strength <= u.max_strength for u in now.units)
    now = states[-1]
    for previous in reversed(states[:-1]):
        now = undo(now, actor="gm", when=WHEN)
        assert (now.tp, now.units) == (previous.tp, previous.units)
