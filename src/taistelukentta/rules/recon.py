"""Recon rolls and contact levels (R-REC-1, R-REC-2).

Opposed (R-DICE-5): the scout rolls d20 + TT (+ elevation) against the target's d12 + H +
cover. A tie goes to the target by DEFAULT. How much the scout wins by sets the contact
level: 1–4 SUSPECTED, 5–9 KNOWN, 10+ SPOTTED (DEFAULT thresholds). 000 variant: the target
rolls d20 + cover without H (``defender_die="d20", use_stealth=False``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.opposed import Side, TieRule, opposed_winner
from taistelukentta.dice.roller import Advantage, Roller, RollRecord

DEFAULT_KNOWN_AT = 5
"""R-REC-2 DEFAULT: winning by 5–9 gives a KNOWN contact."""
DEFAULT_SPOTTED_AT = 10
"""R-REC-2 DEFAULT: winning by 10 or more gives SPOTTED."""


class ContactLevel(IntEnum):
    """How much a side knows of an enemy unit (R-REC-2, R-REC-5); ordered."""

    NONE = 0
    SUSPECTED = 1
    KNOWN = 2
    SPOTTED = 3

    @property
    def code(self) -> str:
        """The glossary code (``"SUSPECTED"`` …) for :func:`taistelukentta.i18n.term`."""
        return self.name


def contact_level(
    margin: int, *, known_at: int = DEFAULT_KNOWN_AT, spotted_at: int = DEFAULT_SPOTTED_AT
) -> ContactLevel:
    """The contact a scout winning by ``margin`` gains (R-REC-2); margin < 1 → NONE."""
    if not 1 <= known_at <= spotted_at:
        raise ValueError(f"need 1 <= known_at <= spotted_at, got {known_at}, {spotted_at}")
    if margin < 1:
        return ContactLevel.NONE
    if margin >= spotted_at:
        return ContactLevel.SPOTTED
    if margin >= known_at:
        return ContactLevel.KNOWN
    return ContactLevel.SUSPECTED


def recon_level(
    margin: int,
    *,
    tie: TieRule = "defender",
    known_at: int = DEFAULT_KNOWN_AT,
    spotted_at: int = DEFAULT_SPOTTED_AT,
) -> ContactLevel:
    """The contact level for an opposed margin, ties decided by ``tie`` (R-DICE-5).

    A tie won by the scout (``tie="active"``) counts as winning by the least amount
    (SUSPECTED).
    """
    if opposed_winner(margin, 0, tie=tie) is Side.DEFENDER:
        return ContactLevel.NONE
    return contact_level(max(margin, 1), known_at=known_at, spotted_at=spotted_at)


def recon_target_modifier(stealth: int, cover: int, *, use_stealth: bool = True) -> int:
    """What the target adds to its die (R-REC-1): H + cover, or cover alone when
    ``use_stealth`` is False (000 variant)."""
    return (stealth if use_stealth else 0) + cover


@dataclass(frozen=True, slots=True)
class ReconResult:
    """One recon roll."""

    scout_total: int
    target_total: int
    margin: int
    """``scout_total - target_total``."""
    level: ContactLevel
    rolls: tuple[RollRecord, ...]
    """The scout's roll, then the target's."""


def resolve_recon(
    roller: Roller,
    *,
    bonus: int,
    stealth: int,
    cover: int,
    defender_die: DiceExpr | str = "d12",
    use_stealth: bool = True,
    tie: TieRule = "defender",
    known_at: int = DEFAULT_KNOWN_AT,
    spotted_at: int = DEFAULT_SPOTTED_AT,
    advantage: Advantage = Advantage.NONE,
    purpose: str = "recon",
    secret: bool = False,
) -> ReconResult:
    """Roll a recon attempt (R-REC-1, R-REC-2).

    ``bonus`` is the scout's TT plus any modifiers (elevation, R-TER-5); ``stealth`` the
    target's H (ignored when ``use_stealth`` is False); ``cover`` its cover bonus.
    ``advantage`` applies to the scout's d20 (no rule grants it yet; kept for abilities).
    """
    die = DiceExpr.of(defender_die)
    scout = roller.d20(f"{purpose}:scout", advantage=advantage, modifier=bonus, secret=secret)
    target = roller.roll(
        die,
        f"{purpose}:target",
        modifier=recon_target_modifier(stealth, cover, use_stealth=use_stealth),
        secret=secret,
    )
    margin = scout.total - target.total
    level = recon_level(margin, tie=tie, known_at=known_at, spotted_at=spotted_at)
    return ReconResult(scout.total, target.total, margin, level, (scout, target))
