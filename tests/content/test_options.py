"""Rule options as data (RULES.md DEFAULTs, variants, amounts): data/options.toml."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.content.loader import data_path
from taistelukentta.content.options import (
    OPTION_NAMES,
    RuleOptions,
    check_overrides,
    load_options,
    option_specs,
    parse_option_specs,
)
from taistelukentta.errors import DataError

# Every rule ID whose RULES.md text fixes a DEFAULT or names a variant (000's older answer),
# plus §16 (R-TURN-*), which is DEFAULT as a whole. Hard-coded on purpose: the test must not
# read ../shared.
RULE_IDS_WITH_DEFAULT_OR_VARIANT = (
    "R-GEO-3",
    "R-GEO-4",
    "R-DICE-5",
    "R-ATK-4",
    "R-ATK-5",
    "R-ATK-7",
    "R-ATK-8",
    "R-ATK-9",
    "R-TK-1",
    "R-TK-2",
    "R-MOR-2",
    "R-MOR-3",
    "R-MOR-5",
    "R-TER-1",
    "R-TER-2",
    "R-TER-4",
    "R-REC-1",
    "R-REC-2",
    "R-REC-4",
    "R-REC-5",
    "R-REC-7",
    "R-KP-1",
    "R-KP-2",
    "R-KP-4",
    "R-CO-6",
    "R-LINK-1",
    "R-LINK-2",
    "R-LINK-3",
    "R-FD-1",
    "R-FD-3",
    "R-FD-5",
    "R-ORG-1",
    "R-OFF-2",
    "R-OFF-3",
    "R-OFF-4",
    "R-MINE-1",
    "R-MINE-2",
    "R-MINE-4",
)
# (Not here, since issue 9 removed options that changed nothing: R-UNIT-4 — auras are card
# data no rule applies yet, the bundled cards have none; R-ATK-10 — a destroyed unit is always
# removed; R-TURN-1/R-TURN-3 — the
# turn flow and the own-turn counting are fixed, the status timings have their own options
# under R-MOR-2/R-ATK-6 — and the campaign's R-CAMP-* until there is campaign play.)
# The rules whose text names a 000 variant: each needs an option of kind "variant".
# (R-KP-1's "CO or platoon leader, not both" is who plays which seats: the scenario's seats
# and the host's seat assignment decide it, not a rule of the engine.)
RULE_IDS_WITH_VARIANT = (
    "R-ATK-5",
    "R-ATK-8",
    "R-TK-1",
    "R-MOR-2",
    "R-MOR-3",
    "R-MOR-5",
    "R-TER-1",
    "R-TER-2",
    "R-REC-1",
    "R-REC-4",
    "R-KP-2",
    "R-FD-1",
    "R-FD-3",
    "R-OFF-2",
    "R-OFF-4",
    "R-MINE-2",
)


def _bundled_text() -> str:
    return data_path("options.toml").read_text(encoding="utf-8")


def _line_of(text: str, needle: str) -> int:
    for i, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in text")


def test_bundled_options_load_and_match_specs() -> None:
    options = load_options()
    specs = option_specs()
    assert [s.name for s in specs] == list(OPTION_NAMES)
    for s in specs:
        assert getattr(options, s.name) == s.value, s.name


def test_rule_options_have_no_defaults_in_code() -> None:
    for name, info in RuleOptions.model_fields.items():
        assert info.is_required(), f"{name} has a default in code"
    assert RuleOptions.model_config.get("extra") == "forbid"
    assert RuleOptions.model_config.get("frozen") is True


def test_every_default_and_variant_rule_id_has_an_option() -> None:
    rules = {s.rule for s in option_specs()}
    missing = [r for r in RULE_IDS_WITH_DEFAULT_OR_VARIANT if r not in rules]
    assert missing == []


def test_every_named_variant_is_switchable() -> None:
    variant_rules = {s.rule for s in option_specs() if s.kind == "variant"}
    assert [r for r in RULE_IDS_WITH_VARIANT if r not in variant_rules] == []


def test_every_variant_value_loads_as_an_override() -> None:
    for s in option_specs():
        if s.kind == "variant":
            options = load_options(overrides={s.name: s.variant})
            assert getattr(options, s.name) == s.variant


def test_spec_choices_equal_the_typed_field() -> None:
    for s in option_specs():
        annotation = RuleOptions.model_fields[s.name].annotation
        if typing.get_origin(annotation) is typing.Literal:
            assert s.choices is not None, f"{s.name}: field is a Literal but no choices"
            assert tuple(typing.get_args(annotation)) == s.choices, s.name


def test_every_option_names_a_rule_and_both_languages() -> None:
    for s in option_specs():
        assert re.fullmatch(r"R-[A-Z]+-\d+", s.rule)
        assert s.fi.strip() and s.en.strip()
        assert s.kind in ("default", "variant", "amount")


def test_r_atk_4_degree_defaults() -> None:
    o = load_options()
    assert (o.heavy_hit_margin, o.pinning_margin) == (5, -4)
    assert o.heavy_hit_extra == "dice_twice"
    assert o.pinning_penalty == 2


def test_r_atk_5_natural20_miss_variant() -> None:
    assert load_options().natural20_miss == "pinning"
    assert load_options(overrides={"natural20_miss": "morale_penalty"}).natural20_miss == (
        "morale_penalty"
    )


def test_r_atk_8_area_fire_defaults_and_variant() -> None:
    o = load_options()
    assert (o.area_fire_radius, o.area_fire_degrees, o.area_fire_hits_hidden) == (1, True, False)


def test_r_atk_9_frag_vs_armour_default_half() -> None:
    assert load_options().frag_vs_armour == "half"


def test_r_mor_2_and_r_mor_3_variants() -> None:
    o = load_options()
    assert (o.morale_suppressed_at, o.morale_retreat_at, o.hidden_radius) == (5, 10, 2)
    spec = {s.name: s for s in option_specs()}
    assert spec["morale_retreat_at"].variant == 5
    assert spec["hidden_radius"].variant == 5


def test_r_rec_1_recon_variant_is_d20_without_stealth() -> None:
    spec = {s.name: s for s in option_specs()}
    assert (spec["recon_defender_die"].value, spec["recon_defender_die"].variant) == ("d12", "d20")
    assert (spec["recon_use_stealth"].value, spec["recon_use_stealth"].variant) == (True, False)


def test_r_kp_1_r_kp_2_r_link_amounts() -> None:
    o = load_options()
    assert (o.kp_platoon_leader, o.kp_company_commander) == (3, 5)
    assert (o.kp_red_per_group, o.kp_red_group_cap, o.red_separate_pools) == (3, 4, False)
    assert (o.link_range, o.kp_out_of_link, o.kp_link_restore) == (30, 2, 1)
    assert (o.kp_promoted_company, o.kp_promoted_platoon) == (4, 3)


def test_r_zoc_1_and_r_ter_4_amounts() -> None:
    o = load_options()
    assert (o.zoc_radius, o.sight_max) == (2, 10)


def test_r_geo_4_stacking_default() -> None:
    o = load_options()
    assert (o.stacking_limit, o.stacking_mixed_sides) == (2, False)


# --- overrides (a scenario's [options] table) ------------------------------------------


def test_override_changes_only_that_option() -> None:
    base = load_options()
    changed = load_options(overrides={"hidden_radius": 5})
    assert changed.hidden_radius == 5
    assert base.hidden_radius == 2
    diff = {n for n in OPTION_NAMES if getattr(base, n) != getattr(changed, n)}
    assert diff == {"hidden_radius"}


def test_override_unknown_option_names_it_and_suggests() -> None:
    with pytest.raises(DataError) as info:
        load_options(overrides={"hiden_radius": 5}, source="s.toml")
    assert info.value.path == "s.toml"
    assert len(info.value.problems) == 1
    assert "hiden_radius" in info.value.problems[0]
    assert "hidden_radius" in info.value.problems[0]


def test_override_value_not_among_choices_lists_allowed_values() -> None:
    with pytest.raises(DataError) as info:
        load_options(overrides={"scatter": "random"})
    (problem,) = info.value.problems
    assert "scatter" in problem and "R-OFF-4" in problem
    for choice in ("corner", "corner_plus_d2", "2d4_d8_bullseye"):
        assert choice in problem


def test_override_problems_are_all_reported_with_lines() -> None:
    text = '[options]\nhidden_radius = "far"\nscatter = "x"\nnope = 1\nstacking_limit = -1\n'
    overrides = {"hidden_radius": "far", "scatter": "x", "nope": 1, "stacking_limit": -1}
    with pytest.raises(DataError) as info:
        load_options(overrides=overrides, source="sc.toml", source_text=text)
    problems = info.value.problems
    assert len(problems) == 4
    assert "options.hidden_radius (line 2)" in problems[0]
    assert "options.scatter (line 3)" in problems[1]
    assert "options.nope (line 4)" in problems[2]
    assert "options.stacking_limit (line 5)" in problems[3]


def test_override_bool_is_not_a_number() -> None:
    with pytest.raises(DataError):
        load_options(overrides={"hidden_radius": True})
    with pytest.raises(DataError):
        load_options(overrides={"diagonal_squeeze": 1})


_COUNT_OPTIONS = [
    s.name
    for s in option_specs()
    if type(s.value) is int and s.choices is None and s.name != "pinning_margin"
]

_AT_LEAST_ONE = {
    name
    for name, info in RuleOptions.model_fields.items()
    if any((getattr(m, "ge", None) or 0) >= 1 for m in info.metadata)
}
"""Count options whose typed field refuses 0 (read from RuleOptions, so a new one is seen)."""


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(_COUNT_OPTIONS), value=st.integers(min_value=0, max_value=99))
def test_count_options_accept_non_negative_ints(name: str, value: int) -> None:
    if name in ("damaged_threshold",) and not 1 <= value <= 99:
        return
    if name == "flank_min_angle" and value > 180:
        return
    if name in _AT_LEAST_ONE and value < 1:
        # e.g. a block of side 0 is no area (R-REC-5), 0 XP per TT step divides by zero
        # (R-CAMP-3): refused by their typed fields (Field(ge=1) in RuleOptions)
        with pytest.raises(DataError):
            load_options(overrides={name: value})
        return
    assert getattr(load_options(overrides={name: value}), name) == value


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(_COUNT_OPTIONS), value=st.integers(max_value=-1))
def test_count_options_reject_negative_ints(name: str, value: int) -> None:
    with pytest.raises(DataError) as info:
        check_overrides({name: value}, option_specs(), "x")
    assert name in info.value.problems[0]


_CHOICE_OPTIONS = [s for s in option_specs() if s.choices]


@settings(max_examples=60, deadline=None)
@given(index=st.integers(min_value=0, max_value=len(_CHOICE_OPTIONS) - 1), junk=st.text())
def test_values_outside_choices_are_rejected(index: int, junk: str) -> None:
    spec = _CHOICE_OPTIONS[index]
    assert spec.choices is not None
    if junk in spec.choices:
        return
    with pytest.raises(DataError) as info:
        load_options(overrides={spec.name: junk})
    assert spec.name in info.value.problems[0]


# --- broken options files ----------------------------------------------------------------


def test_broken_options_file_lists_every_problem_with_lines(tmp_path: Path) -> None:
    text = _bundled_text()
    text = text.replace(
        '[options.stacking_limit]\nrule = "R-GEO-4"\nkind = "default"\nvalue = 2',
        '[options.stacking_limit]\nrule = "R-GEO-4"\nkind = "default"\nvalue = "two"',
    )
    text = text.replace(
        '[options.opposed_tie]\nrule = "R-DICE-5"',
        '[options.opposed_tie]\nrule = "R-DICE-5"\ncolour = "red"',
    )
    text = text.replace('value = "corner"\n', 'value = "middle"\n')
    # drop one option entirely
    text = re.sub(r"\[options\.zoc_radius\].*?\n\n", "", text, flags=re.S)
    text += '\n[options.made_up]\nrule = "R-X-1"\nkind = "default"\nvalue = 1\nfi = "x"\nen = "x"\n'
    path = tmp_path / "options.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_options(path)
    err = info.value
    assert err.path == str(path)
    joined = "\n".join(err.problems)
    assert len(err.problems) == 5, joined
    line = _line_of(text, 'value = "two"')
    assert f"options.stacking_limit.value (line {line})" in joined
    assert f"options.opposed_tie.colour (line {_line_of(text, 'colour')})" in joined
    assert f"options.scatter (line {_line_of(text, '[options.scatter]')})" in joined
    assert "middle" in joined
    assert "options.zoc_radius: missing" in joined
    assert "made_up" in joined


def test_broken_spec_kind_and_variant(tmp_path: Path) -> None:
    text = _bundled_text()
    text = text.replace(
        'kind = "variant"\nvalue = 2\nvariant = 5', 'kind = "variant"\nvalue = 2'
    )  # hidden_radius without its variant value
    text = text.replace('rule = "R-ZOC-1"', 'rule = "ZOC-1"')
    with pytest.raises(DataError) as info:
        parse_option_specs(text, "o.toml")
    joined = "\n".join(info.value.problems)
    assert len(info.value.problems) == 2, joined
    assert "options.hidden_radius" in joined and "variant" in joined
    assert f"options.zoc_radius.rule (line {_line_of(text, 'ZOC-1')})" in joined


def test_options_toml_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[options.x\nvalue = 1\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_options(path)
    assert info.value.path == str(path)
    (problem,) = info.value.problems
    assert "TOML syntax error" in problem and "line 1" in problem


def test_options_file_missing(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="file not found"):
        load_options(tmp_path / "nothing.toml")


def test_options_file_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes("# ä\n".encode("latin-1"))
    with pytest.raises(DataError, match="cannot read file") as info:
        load_options(path)
    assert info.value.path == str(path)


# Options the engine supports in one way only: `tk20 rules` must not offer a switch.
SINGLE_BEHAVIOUR = ("heavy_hit_extra",)


def test_r_turn_1_single_behaviour_options_offer_one_choice_and_say_so() -> None:
    specs = {s.name: s for s in option_specs()}
    for name in SINGLE_BEHAVIOUR:
        s = specs[name]
        assert s.choices is not None and len(s.choices) == 1, name
        assert "vain tämä arvo on tuettu" in s.fi, name
        assert "only this value is supported" in s.en, name
    for s in specs.values():
        if "only this value is supported" in s.en:
            assert s.choices is not None and len(s.choices) == 1, s.name


def test_r_atk_4_unsupported_value_of_a_single_behaviour_option_is_refused() -> None:
    with pytest.raises(DataError, match="not allowed for heavy_hit_extra"):
        load_options(overrides={"heavy_hit_extra": "dice_once"})


def test_every_listed_option_is_read_by_the_rules() -> None:
    """`tk20 rules` lists only options that work (issue 9): each option of
    data/options.toml is read somewhere outside the option loader (``opts.NAME``,
    ``options.NAME`` …). An option no code reads changes no outcome: remove it or build
    its rule."""
    import re

    import taistelukentta

    root = Path(taistelukentta.__file__).parent
    texts = [
        p.read_text(encoding="utf-8")
        for p in root.rglob("*.py")
        if p != root / "content" / "options.py"
    ]
    unread = [
        s.name for s in option_specs() if not any(re.search(rf"\.{s.name}\b", t) for t in texts)
    ]
    assert unread == []


def test_removed_options_are_refused_by_name() -> None:
    """Options removed because they did nothing (issue 9) are unknown now: a scenario
    that still sets one is told so."""
    for name in ("auras_apply", "remove_destroyed", "turn_order", "status_counts_own_turn"):
        with pytest.raises(DataError, match=name):
            load_options(overrides={name: True})
