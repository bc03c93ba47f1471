"""Unit cards as data (R-UNIT-1…4): data/units/<id>.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from taistelukentta.content.units import (
    DICE_RE,
    UnitCard,
    abilities_path,
    ability_info,
    hiding_abilities,
    load_abilities,
    load_unit_card,
    load_unit_cards,
    unit_card_from_data,
    units_dir,
)
from taistelukentta.errors import DataError

BLUE = (
    "komppanianpaallikko",
    "joukkueenjohtaja",
    "jaakariryhma",
    "kranaatinheitinryhma",
    "pioneeriryhma",
    "panssarintorjuntaryhma",
    "sissijaakarit",
    "erikoisjaakariosasto",
    "cv9030",
)
RED = (
    "motorisoitu_jalkavakiryhma",
    "komentoyksikko",
    "bmp2",
    "t72",
    "kranaatinheitinjaos",
    "tarkka_ampujat",
)

CARDS = load_unit_cards()


def _raw(card_id: str) -> dict[str, Any]:
    with (units_dir() / f"{card_id}.toml").open("rb") as fh:
        return tomllib.load(fh)


def _line_of(text: str, needle: str, occurrence: int = 0) -> int:
    seen = 0
    for i, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            if seen == occurrence:
                return i
            seen += 1
    raise AssertionError(f"{needle!r} not in text")


def test_r_unit_4_cards_are_data() -> None:
    assert set(CARDS) == set(BLUE) | set(RED)
    for card_id in BLUE:
        assert CARDS[card_id].side == "blue"
    for card_id in RED:
        assert CARDS[card_id].side == "red"
    for card_id, card in CARDS.items():
        assert card.id == card_id
        assert card.name.fi and card.name.en


def test_r_unit_4_known_values_of_the_rifle_squad() -> None:
    squad = CARDS["jaakariryhma"]
    assert squad.stats.movement == 7
    assert squad.stats.firepower == "d6"
    assert squad.cost_tp == 15
    assert squad.has_ability("tulenjohto") and squad.has_ability("drone")


def test_r_unit_4_bundled_cards_have_no_auras_and_are_marked_example() -> None:
    for card in CARDS.values():
        assert card.auras == []
        assert card.example_values is True


def test_r_unit_4_passive_abilities_cost_nothing() -> None:
    for card in CARDS.values():
        for ability in card.abilities:
            if ability.passive:
                assert ability.kp_cost == 0


def test_r_unit_1_stats_in_d20_scale() -> None:
    for card in CARDS.values():
        s = card.stats
        assert 10 <= s.protection <= 16, card.id
        assert 0 <= s.morale <= 4 and 0 <= s.training <= 3 and 0 <= s.stealth <= 4, card.id
        if card.type == "infantry":
            assert 8 <= s.strength <= 10 and 5 <= s.movement <= 8, card.id
        else:
            assert 12 <= s.strength <= 20 and 12 <= s.movement <= 20, card.id


@settings(max_examples=50, deadline=None)
@given(training=st.integers(-3, 6), xp=st.integers(0, 200))
def test_r_unit_1_skill_formula(training: int, xp: int) -> None:
    data = _raw("jaakariryhma")
    data["stats"] = {**data["stats"], "training": training, "xp": xp}
    card = unit_card_from_data(data, "jaakariryhma", "test")
    assert card.skill == training + xp // 10
    assert card.skill - training == len(range(10, xp + 1, 10))


def test_r_unit_2_vehicles_are_armoured_infantry_is_soft() -> None:
    for card in CARDS.values():
        assert card.armoured == (card.type == "vehicle"), card.id
        if card.light:
            assert card.type == "vehicle"
    assert {c.id for c in CARDS.values() if c.type == "vehicle"} == {"cv9030", "bmp2", "t72"}


def test_r_unit_2_unarmoured_vehicle_is_rejected() -> None:
    data = _raw("t72")
    data["armoured"] = False
    with pytest.raises(DataError, match="armoured must be true"):
        unit_card_from_data(data, "t72", "t72.toml")


def test_r_unit_3_exactly_one_basic_weapon_matching_firepower() -> None:
    for card in CARDS.values():
        assert sum(w.basic for w in card.weapons) == 1
        assert card.basic_weapon.damage == card.stats.firepower
        for w in card.weapons:
            assert not (w.basic and w.special)


def test_r_unit_3_two_basic_weapons_rejected() -> None:
    data = _raw("jaakariryhma")
    data["weapons"][1]["basic"] = True
    data["weapons"][1]["special"] = False
    with pytest.raises(DataError, match="exactly one weapon must have basic = true"):
        unit_card_from_data(data, "jaakariryhma", "j.toml")


def test_r_unit_3_at_weapons_list_at_damage() -> None:
    for card in CARDS.values():
        for w in card.weapons:
            if w.damage_type == "AT":
                assert w.at_damage is not None, (card.id, w.id)


def test_r_org_1_mortars_are_indirect_with_minimum_range_5() -> None:
    for card_id in ("kranaatinheitinryhma", "kranaatinheitinjaos"):
        card = CARDS[card_id]
        mortars = [w for w in card.weapons if w.indirect]
        assert len(mortars) == 1
        assert mortars[0].min_range == 5
        assert card.has_ability("organic_fire_support")


def test_r_ab_abilities_on_their_cards() -> None:
    assert CARDS["motorisoitu_jalkavakiryhma"].has_ability("aaltohyokkays")  # R-AB-1
    ability = CARDS["motorisoitu_jalkavakiryhma"].ability("aaltohyokkays")
    assert ability is not None and ability.passive and ability.kp_cost == 0
    for card_id in ("sissijaakarit", "erikoisjaakariosasto"):  # R-AB-2
        assert CARDS[card_id].has_ability("sniper_rifle")
    assert CARDS["pioneeriryhma"].has_ability("pioneeri")  # R-AB-5
    assert CARDS["pioneeriryhma"].has_ability("murtosulute")
    for card in CARDS.values():  # R-AB-3: Lamauttava tuli needs an area special weapon
        if card.has_ability("lamauttava_tuli"):
            assert any(w.area and w.special for w in card.weapons), card.id
    known = load_abilities()
    for card in CARDS.values():
        assert {a.id for a in card.abilities} <= set(known)
        for a in card.abilities:  # the card agrees with data/abilities.toml
            assert a.passive == known[a.id].passive, (card.id, a.id)


def test_roles() -> None:
    assert CARDS["komppanianpaallikko"].role == "company_commander"
    assert CARDS["joukkueenjohtaja"].role == "platoon_leader"
    assert CARDS["komentoyksikko"].role == "battle_group_command"


@settings(max_examples=80, deadline=None)
@given(
    count=st.integers(0, 12),
    sides=st.sampled_from([2, 4, 6, 8, 10, 12, 20]),
    mod=st.integers(-9, 9),
)
def test_r_dice_1_dice_expressions_accepted(count: int, sides: int, mod: int) -> None:
    text = f"{count if count > 1 else ''}d{sides}" + (f"{mod:+d}" if mod else "")
    assert DICE_RE.match(text)
    data = _raw("jaakariryhma")
    data["weapons"][1]["at_damage"] = text
    card = unit_card_from_data(data, "jaakariryhma", "t")
    assert card.weapons[1].at_damage == text


@pytest.mark.parametrize("bad", ["d3", "d0", "0d6", "d6+", "2d", "x", "d 6", "D6", "d6+1d4", ""])
def test_r_dice_1_bad_dice_rejected(bad: str) -> None:
    data = _raw("jaakariryhma")
    data["weapons"][1]["at_damage"] = bad
    with pytest.raises(DataError) as info:
        unit_card_from_data(data, "jaakariryhma", "j.toml")
    assert "weapons[1].at_damage" in info.value.problems[0]


BROKEN = """\
name = { fi = "Koe", en = "Test" }
side = "green"
type = "infantry"
role = "none"
armoured = false
light = false
cost_tp = 15
example_values = true
auras = []
colour = "red"

[stats]
strength = "ten"
morale = 2
training = 2
xp = 0
movement = 7
protection = 12
stealth = 2
firepower = "d6"

[[weapons]]
id = "a"
name = { fi = "A", en = "A" }
attack_bonus = 2
range = 8
damage_type = "FRAG"
damage = "d6"
area = false
basic = true
special = false
indirect = false

[[weapons]]
id = "b"
name = { fi = "B", en = "B" }
attack_bonus = 2
range = 8
damage_type = "FRAG"
damage = "d7"
area = false
basic = false
special = false
indirect = false

[[abilities]]
id = "flying"
name = { fi = "C", en = "C" }
kp_cost = 0
passive = true
description = { fi = "C", en = "C" }
"""


def test_broken_card_lists_every_problem_with_key_and_line(tmp_path: Path) -> None:
    path = tmp_path / "koe.toml"
    path.write_text(BROKEN, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_unit_card(path)
    err = info.value
    assert err.path == str(path)
    joined = "\n".join(err.problems)
    assert len(err.problems) == 6, joined
    assert f"side (line {_line_of(BROKEN, 'side =')})" in joined
    assert f"colour (line {_line_of(BROKEN, 'colour')})" in joined
    assert f"stats.strength (line {_line_of(BROKEN, 'strength =')})" in joined
    # the second weapon's damage, not the first one's
    assert f"weapons[1].damage (line {_line_of(BROKEN, 'damage = ', 1)})" in joined
    assert "'d7'" in joined
    assert "abilities[0].id" in joined and "tulenjohto" in joined
    assert "abilities[0].weakens_when_damaged" in joined and "Field required" in joined
    assert str(path) in str(err)


def test_card_id_must_match_file_stem(tmp_path: Path) -> None:
    text = (units_dir() / "t72.toml").read_text(encoding="utf-8")
    path = tmp_path / "t80.toml"
    path.write_text('id = "t72"\n' + text, encoding="utf-8")
    with pytest.raises(DataError, match="file stem 't80' is the id"):
        load_unit_card(path)
    same = tmp_path / "t72.toml"
    same.write_text('id = "t72"\n' + text, encoding="utf-8")
    assert load_unit_card(same).id == "t72"


def test_card_toml_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text('name = { fi = "x"\n', encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_unit_card(path)
    (problem,) = info.value.problems
    assert "TOML syntax error" in problem and "line 1" in problem


def test_card_directory_reports_every_broken_file(tmp_path: Path) -> None:
    (tmp_path / "koe.toml").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "rikki.toml").write_text("side = \n", encoding="utf-8")
    good = (units_dir() / "t72.toml").read_text(encoding="utf-8")
    (tmp_path / "t72.toml").write_text(good, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_unit_cards(tmp_path)
    joined = "\n".join(info.value.problems)
    assert "koe.toml" in joined and "rikki.toml" in joined
    assert "t72.toml" not in joined


def test_card_directory_missing_or_empty(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="not found"):
        load_unit_cards(tmp_path / "none")
    with pytest.raises(DataError, match="no unit cards"):
        load_unit_cards(tmp_path)


def test_cards_are_frozen() -> None:
    card = CARDS["t72"]
    with pytest.raises(ValidationError):
        card.cost_tp = 1  # type: ignore[misc]
    assert isinstance(card, UnitCard)


# --------------------------------------------------------------------------- abilities.toml


ABILITY = """[koira]
name = { fi = "Koira", en = "Dog" }
description = { fi = "Haistaa.", en = "Sniffs." }
activation = "passive"
grants_hidden = false
rule = "R-AB-9"
"""


def test_r_unit_4_bundled_abilities_are_data() -> None:
    known = load_abilities()
    assert set(known) == {
        "tulenjohto",
        "drone",
        "pioneeri",
        "murtosulute",
        "aaltohyokkays",
        "sniper_rifle",
        "lamauttava_tuli",
        "piiloutuminen",
        "mine_clearing_kit",
        "organic_fire_support",
        "parannettu_sisu",  # R-CAMP-3 veteran abilities
        "kaupunkisissi",
    }
    assert load_abilities(abilities_path()) == known
    assert hiding_abilities() == frozenset({"piiloutuminen"})  # R-MOR-3
    info = ability_info("sniper_rifle")
    assert info is not None and info.rule == "R-AB-2" and not info.passive
    assert ability_info("tulenjohto") is not None and ability_info("koira") is None
    assert all(a.name.fi and a.name.en and a.description.fi for a in known.values())


def test_r_unit_4_unknown_ability_on_a_card_names_file_key_line_and_known_ids(
    tmp_path: Path,
) -> None:
    text = (units_dir() / "jaakariryhma.toml").read_text(encoding="utf-8")
    bad = text.replace('id = "drone"', 'id = "koira"')
    assert bad != text
    path = tmp_path / "jaakariryhma.toml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_unit_card(path)
    (problem,) = info.value.problems
    assert info.value.path == str(path)
    line = _line_of(bad, 'id = "koira"')
    assert problem.startswith(f"abilities[1].id (line {line}): unknown ability 'koira'")
    assert "tulenjohto" in problem and "piiloutuminen" in problem
    assert "data/abilities.toml" in problem
    # … and with the new id in an ability list of its own, the card loads.
    extra = tmp_path / "abilities.toml"
    extra.write_text(
        abilities_path().read_text(encoding="utf-8") + "\n" + ABILITY, encoding="utf-8"
    )
    card = load_unit_card(path, load_abilities(extra))
    assert card.has_ability("koira")


def test_r_unit_4_card_passive_must_agree_with_the_ability_list(tmp_path: Path) -> None:
    text = (units_dir() / "sissijaakarit.toml").read_text(encoding="utf-8")
    block = text[text.index('id = "piiloutuminen"') :]
    end = block.index("passive = false") + len("passive = false")
    bad = text.replace(block[:end], block[:end].replace("passive = false", "passive = true"))
    bad = bad.replace("kp_cost = 1\npassive = true", "kp_cost = 0\npassive = true")
    path = tmp_path / "sissijaakarit.toml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_unit_card(path)
    joined = "\n".join(info.value.problems)
    assert "abilities[1].passive (line" in joined
    assert "piiloutuminen is activated" in joined


def test_r_unit_4_broken_ability_list_lists_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "abilities.toml"
    path.write_text(
        ABILITY.replace('"passive"', '"sometimes"').replace('"R-AB-9"', '"AB9"')
        + '\n[Iso]\nname = "x"\n\n[tyhja]\nname = { fi = "T", en = "T" }\n',
        encoding="utf-8",
    )
    with pytest.raises(DataError) as info:
        load_abilities(path)
    err = info.value
    joined = "\n".join(err.problems)
    assert err.path == str(path)
    assert "koira.activation (line 4)" in joined and "'passive' or 'activated'" in joined
    assert "koira.rule (line 6)" in joined
    assert "Iso (line 8): an ability id is lower case" in joined
    assert "tyhja.description" in joined and "tyhja.grants_hidden" in joined
    empty = tmp_path / "empty.toml"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(DataError, match="no abilities"):
        load_abilities(empty)
