"""One language at a time (issue 9): the Finnish outputs of played games hold no English
word from a list, no engine code (card ids, setback or reason codes) and only decimal
commas; the English outputs only decimal points. Orders are echoed in the language's
notation, which the parser reads back."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taistelukentta.cli.app import app
from taistelukentta.cli.game_cmds import _odds_lines, strike_odds_lines
from taistelukentta.content.scenario import load_scenario
from taistelukentta.i18n import num, pct, set_language
from taistelukentta.rules import GameState, OrderKind, apply, legal_orders, new_game, parse_order
from taistelukentta.rules.fire_support import ORGANIC, STRIKE
from taistelukentta.storage.gamefile import load_game
from taistelukentta.views import redact
from taistelukentta.views.text import describe, order_text, set_card_names

runner = CliRunner()

_WORDS = """
    the and of with from by to stopped hook skill weapon elevation shaken pinned flanked
    damage moved fires attack attacks unit units cell cells cover protection advantage
    disadvantage none true false null opportunity destroyed jammed reason setback support
    enemy own round rounds turn phase blue red strike contact known spotted suspected score
    objective objectives losses seat orders order move defend recon rally withdraw disengage
    fire done left hit miss heavy confusion comms break revealed position minefield mine
    cleared failed succeeded lost game over draw winner window map legend open field forest
    road water swamp building thicket yes no request requests observer link linked company
    platoon commander immobilised hidden suppressed retreating damaged passed status
    statuses transfer restore tactic confirm promote report organic boost clear rush search
    breach lay hide use when lands landed visible distance limited reachable movement
    """
ENGLISH = frozenset(_WORDS.split())
"""English words that must not appear in a Finnish output (compared lower-cased)."""

RULE_ID = re.compile(r"\bR-[A-Z]+-\d+\b")
CODE = re.compile(r"\b[A-Z]+_[A-Z_]+\b|\b[a-z]+_[a-z]+(?:_[a-z]+)*\b")
"""Engine codes: ``WEAPON_JAM``, ``support_destroyed`` … (ability ids checked apart)."""


@lru_cache(maxsize=1)
def _games(tmp: str) -> tuple[Path, ...]:
    out = []
    for scenario, seed in (("demo", 3), ("demo", 11), ("terasvalli", 3)):
        path = Path(tmp) / f"{scenario}-{seed}.json"
        result = runner.invoke(
            app, ["simulate", scenario, "--seed", str(seed), "--out", str(path), "--json"]
        )
        assert result.exit_code == 0, result.output
        out.append(path)
    return tuple(out)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ...]:
    return _games(str(tmp_path_factory.mktemp("lang")))


def _allowed(path: Path) -> set[str]:
    """Words of the game's own data the outputs may name: unit ids, seat ids, ability and
    weapon ids (notation), scenario and objective ids."""
    scen = load_scenario(load_game(path).scenario)
    words = {p.id for _, _, p in scen.placements()}
    words |= {"co", "gm"}
    for card in scen.cards.values():
        for w in card.weapons:
            words.add(w.id)
        words.update(a.id for a in card.abilities)
    words.add(scen.id)
    return {w.lower() for w in words}


def _outputs(path: Path, lang: str) -> list[str]:
    """Texts a player reads of a finished game: every viewer's event lines, ``show`` of
    each viewer, odds of the attacks and strikes legal along the way."""
    set_language(lang)
    record = load_game(path)
    scen = load_scenario(record.scenario)
    set_card_names({cid: (c.name.fi, c.name.en) for cid, c in scen.cards.items()})
    state: GameState = new_game(scen, record.seed)
    texts: list[str] = []
    events = []
    odds_checked = 0
    for i, o in enumerate(record.orders):
        order = parse_order(o.order)
        if odds_checked < 6 and i % 5 == 0:
            for seat in (o.seat,):
                side = state.side_of_seat(seat)
                assert side is not None
                for legal in legal_orders(state, seat):
                    if legal.kind in (OrderKind.ATTACK, OrderKind.FIRE):
                        texts.extend(_odds_lines(state, side, legal))
                        odds_checked += 1
                        break
                    if legal.kind in (STRIKE, ORGANIC):
                        texts.extend(strike_odds_lines(state, side, legal))
                        odds_checked += 1
                        break
        state, ev = apply(state, o.seat, order)
        events.extend(ev)
    for viewer in ("blue", "red", "gm"):
        texts.extend(line for e in redact(events, viewer, scen) if (line := describe(e)))
        args = ["--lang", lang, "show", str(path), "--as", viewer, "--events", "40"]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        texts.append(result.stdout)
    set_language("fi")
    return texts


def test_finnish_outputs_hold_no_english(games: tuple[Path, ...]) -> None:
    for path in games:
        allowed = _allowed(path)
        cards = {  # card ids that are not the card's own Finnish name
            cid.lower()
            for cid, card in load_scenario(load_game(path).scenario).cards.items()
            if cid.lower() != card.name.fi.lower()
        }
        for text in _outputs(path, "fi"):
            text = RULE_ID.sub("", text)  # rule IDs (R-TURN-2) are names, not English
            words = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z_]*", text)}
            english = (words & ENGLISH) - allowed
            assert not english, (sorted(english), text)
            codes = {c.lower() for c in CODE.findall(text)} - allowed
            assert not codes, (sorted(codes), text)
            assert not (words & cards) - allowed, (sorted(words & cards), text)
            assert not re.search(r"\d\.\d", text), text  # decimal comma only


def test_english_outputs_use_decimal_points(games: tuple[Path, ...]) -> None:
    texts = _outputs(games[0], "en")
    joined = "\n".join(texts)
    assert not re.search(r"\d,\d+ %", joined)
    assert re.search(r"\d\.\d %", joined)  # odds were shown


def test_one_decimal_style_per_language() -> None:
    set_language("fi")
    assert (num(0.5), pct(0.125), num(2, 2)) == ("0,5", "12,5 %", "2,00")
    set_language("en")
    assert (num(0.5), pct(0.125), num(2, 2)) == ("0.5", "12.5 %", "2.00")


@pytest.mark.parametrize(
    "text",
    [
        "move 1R1 12,7",
        "attack 2R1 R13 from 11,11 with kertasinko",
        "strike k9 19,11 by 1JJ danger",
        "lay 2PST 12,12 at",
        "fire S1 R1 with sniper_rifle disable drone",
        "tactic motti 20,4",
        "done",
    ],
)
def test_orders_echoed_in_finnish_notation_parse_back(text: str) -> None:
    set_language("fi")
    finnish = order_text(text)
    assert finnish.split()[0] != text.split()[0]
    assert not {w for w in finnish.split()} & {"from", "with", "by", "danger", "at", "disable"}
    assert parse_order(finnish) == parse_order(text)
    set_language("en")
    assert order_text(text) == text


def test_ability_and_card_names_not_ids() -> None:
    """Events name abilities and unit cards by their names in the current language."""
    from taistelukentta.content.units import load_abilities
    from taistelukentta.views.text import set_ability_names

    set_ability_names({aid: (a.name.fi, a.name.en) for aid, a in load_abilities().items()})
    set_card_names({"bmp2": ("BMP-2 rynnäkköpanssarivaunu", "BMP-2 infantry fighting vehicle")})
    set_language("fi")
    disabled = {"attacker": "S1", "target": "R11", "ability": "drone", "until_turn": 5}
    text = describe({"kind": "ability_disabled", "data": disabled})
    assert text is not None and "Lennokki" in text and "drone" not in text
    seen = {"unit": {"contact": "c2", "card": "bmp2", "area": [3, 3, 3]}, "level": "KNOWN"}
    text = describe({"kind": "contact", "data": seen})
    assert text is not None and "BMP-2 rynnäkköpanssarivaunu" in text and "bmp2" not in text
    set_language("en")
    text = describe({"kind": "ability_disabled", "data": disabled})
    assert text is not None and "Drone" in text
