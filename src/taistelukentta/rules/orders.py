"""Orders and their text notation (R-KP-3, R-KP-4; docs/notation.md).

An :class:`Order` is a small frozen value; :func:`parse_order` and :func:`format_order` are a
round-tripping pair (``parse_order(format_order(o)) == o``), like ``Move.from_uci`` /
``Move.uci()`` in python-chess. The seat giving the order is not part of it: it is passed
to :func:`taistelukentta.rules.engine.apply` separately.

Notation (English keywords; the Finnish ones in brackets are accepted too)::

    move U X,Y                  (liiku)       free basic move (R-KP-3)
    defend U                    (puolusta)    free basic action, the default (R-KP-3)
    attack U T                  (hyökkää)     attack order, 1 KP: fires at T in the fire phase
    attack U T from X,Y                       … after moving to X,Y first (R-KP-4)
    disengage U X,Y             (irtaudu)     2 KP, leaves a ZoC without opportunity attacks
    withdraw U X,Y              (vetäydy)     1 KP, moves away from the enemy, cannot fire
    rally U                     (kohota)      2 KP, Moraalin kohotus: clears SUPPRESSED/RETREATING
    recon U X,Y                 (tiedustele)  1 KP, active recon around the cell (R-REC-4)
    fire U T                    (ammu)        fire phase: U fires at T
    done                        (valmis)      the seat ends its part of the phase

``U`` and ``T`` are unit ids (letters, digits, ``_`` and ``-``); ``X,Y`` is a cell, column
then row, from 0. Keywords are case-insensitive; ids are case-sensitive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from taistelukentta.errors import InvalidOrderError
from taistelukentta.grid.geometry import Cell


class OrderKind(StrEnum):
    """The kinds of order; values are the notation's keywords."""

    MOVE = "move"
    DEFEND = "defend"
    ATTACK = "attack"
    DISENGAGE = "disengage"
    WITHDRAW = "withdraw"
    RALLY = "rally"
    RECON = "recon"
    FIRE = "fire"
    DONE = "done"


FINNISH_KEYWORDS: dict[str, OrderKind] = {
    "liiku": OrderKind.MOVE,
    "puolusta": OrderKind.DEFEND,
    "hyökkää": OrderKind.ATTACK,
    "hyokkaa": OrderKind.ATTACK,
    "irtaudu": OrderKind.DISENGAGE,
    "vetäydy": OrderKind.WITHDRAW,
    "vetaydy": OrderKind.WITHDRAW,
    "kohota": OrderKind.RALLY,
    "tiedustele": OrderKind.RECON,
    "ammu": OrderKind.FIRE,
    "valmis": OrderKind.DONE,
}
"""Finnish keywords :func:`parse_order` accepts (formatting always uses English)."""

FROM_WORDS = ("from", "mistä", "paikasta")

#: What each kind needs: (unit, cell, target); ATTACK's cell is optional.
_SHAPE: dict[OrderKind, tuple[bool, bool, bool]] = {
    OrderKind.MOVE: (True, True, False),
    OrderKind.DEFEND: (True, False, False),
    OrderKind.ATTACK: (True, False, True),
    OrderKind.DISENGAGE: (True, True, False),
    OrderKind.WITHDRAW: (True, True, False),
    OrderKind.RALLY: (True, False, False),
    OrderKind.RECON: (True, True, False),
    OrderKind.FIRE: (True, False, True),
    OrderKind.DONE: (False, False, False),
}

UNIT_ID = re.compile(r"^[A-Za-z0-9_\-]{1,24}$")
_CELL = re.compile(r"^(\d{1,4}),(\d{1,4})$")


@dataclass(frozen=True, slots=True)
class Order:
    """One order. ``cell`` is the destination (move, disengage, withdraw, an attack's
    ``from``) or the recon cell; ``target`` the enemy unit of attack/fire."""

    kind: OrderKind
    unit: str | None = None
    cell: Cell | None = None
    target: str | None = None

    def __post_init__(self) -> None:
        needs_unit, needs_cell, needs_target = _SHAPE[self.kind]
        text = self.kind.value
        if needs_unit != (self.unit is not None):
            raise InvalidOrderError(
                f"order {text!r}: " + ("needs a unit" if needs_unit else "takes no unit"),
                f"käsky {text!r}: " + ("tarvitsee yksikön" if needs_unit else "ei ota yksikköä"),
            )
        cell_optional = self.kind == OrderKind.ATTACK
        if not cell_optional and needs_cell != (self.cell is not None):
            raise InvalidOrderError(
                f"order {text!r}: " + ("needs a cell X,Y" if needs_cell else "takes no cell"),
                f"käsky {text!r}: " + ("tarvitsee ruudun X,Y" if needs_cell else "ei ota ruutua"),
            )
        if needs_target != (self.target is not None):
            raise InvalidOrderError(
                f"order {text!r}: "
                + ("needs a target unit" if needs_target else "takes no target"),
                f"käsky {text!r}: "
                + ("tarvitsee kohdeyksikön" if needs_target else "ei ota kohdetta"),
            )
        for ident in (self.unit, self.target):
            if ident is not None and not UNIT_ID.match(ident):
                raise InvalidOrderError(
                    f"order {text!r}: {ident!r} is not a unit id",
                    f"käsky {text!r}: {ident!r} ei ole yksikön tunnus",
                )
        if self.cell is not None and (self.cell[0] < 0 or self.cell[1] < 0):
            raise InvalidOrderError(
                f"order {text!r}: cell {self.cell[0]},{self.cell[1]} is negative",
                f"käsky {text!r}: ruutu {self.cell[0]},{self.cell[1]} on negatiivinen",
            )

    def __str__(self) -> str:
        return format_order(self)

    # -- constructors -----------------------------------------------------------------------

    @classmethod
    def move(cls, unit: str, cell: Cell) -> Order:
        return cls(OrderKind.MOVE, unit, cell)

    @classmethod
    def defend(cls, unit: str) -> Order:
        return cls(OrderKind.DEFEND, unit)

    @classmethod
    def attack(cls, unit: str, target: str, cell: Cell | None = None) -> Order:
        return cls(OrderKind.ATTACK, unit, cell, target)

    @classmethod
    def disengage(cls, unit: str, cell: Cell) -> Order:
        return cls(OrderKind.DISENGAGE, unit, cell)

    @classmethod
    def withdraw(cls, unit: str, cell: Cell) -> Order:
        return cls(OrderKind.WITHDRAW, unit, cell)

    @classmethod
    def rally(cls, unit: str) -> Order:
        return cls(OrderKind.RALLY, unit)

    @classmethod
    def recon(cls, unit: str, cell: Cell) -> Order:
        return cls(OrderKind.RECON, unit, cell)

    @classmethod
    def fire(cls, unit: str, target: str) -> Order:
        return cls(OrderKind.FIRE, unit, None, target)

    @classmethod
    def done(cls) -> Order:
        return cls(OrderKind.DONE)


_new = object.__new__
_set = object.__setattr__


def trusted_order(
    kind: OrderKind, unit: str | None = None, cell: Cell | None = None, target: str | None = None
) -> Order:
    """An :class:`Order` built without validation, for orders the engine itself generated
    from valid ids and cells (``legal_orders`` builds thousands)."""
    order: Order = _new(Order)
    _set(order, "kind", kind)
    _set(order, "unit", unit)
    _set(order, "cell", cell)
    _set(order, "target", target)
    return order


def format_cell(cell: Cell) -> str:
    """``X,Y``."""
    return f"{cell[0]},{cell[1]}"


def format_order(order: Order) -> str:
    """The canonical text of ``order`` (English keywords, single spaces)."""
    kind = order.kind
    if kind == OrderKind.DONE:
        return "done"
    parts = [kind.value, str(order.unit)]
    if order.target is not None:
        parts.append(order.target)
    if order.cell is not None:
        if kind == OrderKind.ATTACK:
            parts.append("from")
        parts.append(format_cell(order.cell))
    return " ".join(parts)


def _parse_cell(token: str, text: str) -> Cell:
    m = _CELL.match(token)
    if m is None:
        raise InvalidOrderError(
            f"order {text!r}: {token!r} is not a cell (expected X,Y such as 12,7)",
            f"käsky {text!r}: {token!r} ei ole ruutu (odotettiin X,Y, esim. 12,7)",
        )
    return (int(m.group(1)), int(m.group(2)))


def _parse_id(token: str, text: str, what_en: str, what_fi: str) -> str:
    if not UNIT_ID.match(token):
        raise InvalidOrderError(
            f"order {text!r}: {token!r} is not a {what_en} id",
            f"käsky {text!r}: {token!r} ei ole {what_fi} tunnus",
        )
    return token


def parse_order(text: str) -> Order:
    """Parse the notation; bad text raises InvalidOrderError naming the bad token."""
    tokens = text.split()
    if not tokens:
        raise InvalidOrderError("empty order", "tyhjä käsky")
    word = tokens[0].lower()
    try:
        kind = OrderKind(word)
    except ValueError:
        found = FINNISH_KEYWORDS.get(word)
        if found is None:
            known = ", ".join(k.value for k in OrderKind)
            raise InvalidOrderError(
                f"order {text!r}: unknown order {tokens[0]!r} (known: {known})",
                f"käsky {text!r}: tuntematon käsky {tokens[0]!r} (tunnetut: {known}, "
                f"{', '.join(FINNISH_KEYWORDS)})",
            ) from None
        kind = found
    args = tokens[1:]
    needs_unit, needs_cell, needs_target = _SHAPE[kind]
    usage = _USAGE[kind]

    def wrong_count() -> InvalidOrderError:
        return InvalidOrderError(
            f"order {text!r}: expected `{usage}`",
            f"käsky {text!r}: odotettiin `{usage}`",
        )

    if kind == OrderKind.DONE:
        if args:
            raise InvalidOrderError(
                f"order {text!r}: unexpected {args[0]!r} (`done` takes nothing)",
                f"käsky {text!r}: ylimääräinen {args[0]!r} (`done` ei ota mitään)",
            )
        return Order(kind)
    if not args:
        raise wrong_count()
    unit = _parse_id(args[0], text, "unit", "yksikön")
    rest = args[1:]
    if kind == OrderKind.ATTACK:
        if not rest:
            raise wrong_count()
        target = _parse_id(rest[0], text, "target unit", "kohdeyksikön")
        rest = rest[1:]
        cell: Cell | None = None
        if rest:
            if rest[0].lower() not in FROM_WORDS:
                raise InvalidOrderError(
                    f"order {text!r}: unexpected {rest[0]!r} (expected `from X,Y`)",
                    f"käsky {text!r}: odottamaton {rest[0]!r} (odotettiin `from X,Y`)",
                )
            if len(rest) != 2:
                raise wrong_count()
            cell = _parse_cell(rest[1], text)
        return Order(kind, unit, cell, target)
    expected = int(needs_cell) + int(needs_target)
    if len(rest) != expected:
        if len(rest) > expected:
            raise InvalidOrderError(
                f"order {text!r}: unexpected {rest[expected]!r} (expected `{usage}`)",
                f"käsky {text!r}: ylimääräinen {rest[expected]!r} (odotettiin `{usage}`)",
            )
        raise wrong_count()
    if needs_cell:
        return Order(kind, unit, _parse_cell(rest[0], text))
    if needs_target:
        return Order(kind, unit, None, _parse_id(rest[0], text, "target unit", "kohdeyksikön"))
    assert needs_unit
    return Order(kind, unit)


_USAGE: dict[OrderKind, str] = {
    OrderKind.MOVE: "move UNIT X,Y",
    OrderKind.DEFEND: "defend UNIT",
    OrderKind.ATTACK: "attack UNIT TARGET [from X,Y]",
    OrderKind.DISENGAGE: "disengage UNIT X,Y",
    OrderKind.WITHDRAW: "withdraw UNIT X,Y",
    OrderKind.RALLY: "rally UNIT",
    OrderKind.RECON: "recon UNIT X,Y",
    OrderKind.FIRE: "fire UNIT TARGET",
    OrderKind.DONE: "done",
}
