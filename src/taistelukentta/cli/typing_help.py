"""Help for the typist: order text as a person types it, made into notation, and refusals
that say what would work ("did you mean", the legal orders of the same unit).

Only names the seat's side already knows are used: its own units, the enemy units it has
SPOTTED (their ids are in its view) and its contact labels — never an id it cannot see.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

from taistelukentta.errors import InvalidOrderError, TkError
from taistelukentta.rules import GameState, Order, legal_orders
from taistelukentta.rules.context import ruleset_of
from taistelukentta.rules.orders import Vocabulary, order_weapon
from taistelukentta.rules.recon import ContactLevel

_SPACED_CELL = re.compile(r"\b([0-9]{1,4})\s*,\s*([0-9]{1,4})\b")
_TOKEN_ID = re.compile(r"^[A-Za-z0-9_\-]{1,24}\Z")


def known_names(state: GameState, side: str) -> list[str]:
    """Ids and labels ``side`` may name: own units, SPOTTED enemies, contact labels."""
    own = [u.id for u in state.units.values() if u.side == side]
    contacts = state.contacts.get(side, {})  # type: ignore[call-overload]
    spotted = [uid for uid, c in contacts.items() if c.level >= ContactLevel.SPOTTED]
    labels = [c.label for c in contacts.values() if c.level < ContactLevel.SPOTTED]
    return own + spotted + labels


def vocabulary_of(state: GameState) -> Vocabulary:
    """The orders the game's ruleset understands (its modules' grammar)."""
    return ruleset_of(state).vocabulary


def verbs(vocabulary: Vocabulary | None = None) -> list[str]:
    """Every order word (English kinds and Finnish keywords) of ``vocabulary`` (None: the
    default ruleset's)."""
    if vocabulary is None:
        from taistelukentta.rules.ruleset import default_ruleset

        vocabulary = default_ruleset().vocabulary
    return vocabulary.keywords()


def normalise(
    text: str,
    names: Iterable[str],
    extra_words: Sequence[str] = (),
    vocabulary: Vocabulary | None = None,
) -> str:
    """``text`` as notation: ``12, 7`` → ``12,7``; the verb and unit ids in the case the
    game uses (``MOVE 1r1`` → ``move 1R1``). Raises InvalidOrderError with a "did you mean"
    for a verb no order has."""
    text = _SPACED_CELL.sub(r"\1,\2", text.strip())
    tokens = text.split()
    if not tokens:
        return text
    words = verbs(vocabulary)
    verb = tokens[0].lower()
    if verb not in words and verb not in extra_words:
        close = difflib.get_close_matches(verb, [*words, *extra_words], n=3, cutoff=0.6)
        hint_en = f"; did you mean {' / '.join(close)}?" if close else " (`help` lists them)"
        hint_fi = f"; tarkoititko {' / '.join(close)}?" if close else " (`apua` luettelee ne)"
        raise InvalidOrderError(
            f"unknown order {tokens[0]!r}{hint_en}", f"tuntematon käsky {tokens[0]!r}{hint_fi}"
        )
    by_lower = {n.lower(): n for n in names}
    out = [verb]
    for token in tokens[1:]:
        out.append(by_lower.get(token.lower(), token) if _TOKEN_ID.match(token) else token)
    return " ".join(out)


def unknown_name_hint(text: str, names: Sequence[str]) -> tuple[str, str] | None:
    """For an order whose unit (the first word after the verb: always one of the seat's
    own) nobody on this side knows: ("did you mean …" in English, in Finnish), else None.

    Targets get no suggestion: a hint that depends on how an unseen enemy's id is spelt
    would make answers for existing and made-up ids differ (R-REC-5)."""
    tokens = text.split()
    if len(tokens) < 2:
        return None
    token = tokens[1]
    if not _TOKEN_ID.match(token) or token.lower() in {n.lower() for n in names}:
        return None
    close = difflib.get_close_matches(token, list(names), n=3, cutoff=0.5)
    if not close:
        return None
    return (
        f"{token!r}: no such unit you know; did you mean {' / '.join(close)}?",
        f"{token!r}: ei tunnettua yksikköä; tarkoititko {' / '.join(close)}?",
    )


def alternatives(state: GameState, seat: str, order: Order, limit: int = 3) -> list[str]:
    """Legal orders close to a refused order at a target: the same kind for the same unit
    and target, e.g. the attack ``with`` the weapon that reaches (moves have too many)."""
    if order.unit is None or order.target is None or order.unit not in state.units:
        return []
    try:
        same = legal_orders(state, seat, unit=order.unit, kinds=(order.kind,))
    except TkError:
        return []
    same = [o for o in same if o.target == order.target]
    armed = [o for o in same if order_weapon(o) is not None]
    same = armed + [o for o in same if order_weapon(o) is None]
    return [str(o) for o in same[:limit]]
