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

``attack`` and ``fire`` take an optional ``with W`` (a weapon id of the unit's card). The
orders of the rule modules (§11–13, §15) are listed in docs/notation.md. Each module owns
the grammar of its kinds (an :class:`OrderSyntax` per kind in its ``RuleModule.syntax``;
the base kinds' is :func:`base_syntax`, the engine module's): a ruleset's
:class:`Vocabulary` is every module's, and :func:`parse_order` reads the text with it (the
default ruleset's unless given). A module may add a kind of its own (:func:`order_kind`).

``U`` and ``T`` are unit ids (letters, digits, ``_`` and ``-``); ``X,Y`` is a cell, column
then row, from 0. Keywords are case-insensitive; ids are case-sensitive.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from taistelukentta.errors import InvalidOrderError
from taistelukentta.grid.geometry import Cell


class OrderKind(StrEnum):
    """The base engine's order kinds (RULES §3–10); values are the notation's keywords.

    A rule module's kinds are its own (:func:`order_kind`, declared in its file:
    ``company.TRANSFER``, ``fire_support.STRIKE``, ``mines.LAY``, ``abilities.USE`` …);
    they are used wherever an ``OrderKind`` is. Every kind a ruleset knows is in its
    vocabulary (``Ruleset.vocabulary.kinds``)."""

    MOVE = "move"
    DEFEND = "defend"
    ATTACK = "attack"
    DISENGAGE = "disengage"
    WITHDRAW = "withdraw"
    RALLY = "rally"
    RECON = "recon"
    FIRE = "fire"
    DONE = "done"


class ModuleKind(str):
    """The kind of an order a rule module adds beyond :class:`OrderKind` (the base
    kinds): its keyword, e.g. ``ModuleKind("lookout")``. Behaves like an ``OrderKind``
    member where the engine uses one (a string, hashed and compared as its keyword, with
    ``.value``). Make one with :func:`order_kind`."""

    __slots__ = ()

    @property
    def value(self) -> str:
        return str.__str__(self)

    def __str__(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"ModuleKind({str.__repr__(self)})"


def order_kind(word: str) -> OrderKind:
    """The kind named ``word``: the base :class:`OrderKind` member, or a
    :class:`ModuleKind` for a kind a rule module adds (typed as an ``OrderKind``: it is
    used wherever one is)."""
    try:
        return OrderKind(word)
    except ValueError:
        if not _WORD_RE.match(word):
            raise InvalidOrderError(
                f"{word!r} is not an order keyword", f"{word!r} ei ole käskyn avainsana"
            ) from None
        return cast(OrderKind, ModuleKind(word))


BASE_KINDS: frozenset[OrderKind] = frozenset(OrderKind)
"""The kinds of the base engine (RULES §3–10); the others belong to rule modules."""

WITH_WORDS = ("with", "aseella")
DISABLE_WORD = "disable"
DISABLE_WORDS = (DISABLE_WORD, "lamauta")
"""`… with W disable ABILITY`: the ability a sniper hit disables (R-AB-2)."""


FROM_WORDS = ("from", "mistä", "paikasta")

#: What each base kind needs: (unit, cell, target); ATTACK's cell is optional. A rule
#: module's kinds declare theirs (:class:`OrderShape` in their :class:`OrderSyntax`).
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

_WORD_RE = re.compile(r"^[a-z0-9_\-]{1,32}\Z")

UNIT_ID = re.compile(r"^[A-Za-z0-9_\-]{1,24}\Z")
_CELL = re.compile(r"^([0-9]{1,4}),([0-9]{1,4})\Z")
"""A cell: ASCII digits only (``int`` would read other scripts' digits too)."""


class OrderArgs:
    """The typed fields a rule module's own order kind carries beyond the common ones
    (``unit``, ``cell``, ``target``): subclass it as a frozen dataclass in the module's
    file, fill it in the module's parser (:attr:`OrderSyntax.parse`) and read it in its
    handler (``order.args``). :func:`format_order` writes an order as its keyword, its
    unit, ``head()``, its target, its cell, then ``words()``, so ``parse(format(o)) == o``
    holds without any central table (docs/extending.md). ``check(text)`` validates the
    fields whenever such an order is made (:func:`check_id`, :func:`check_name`)."""

    __slots__ = ()

    def head(self) -> list[str]:
        """The notation of the fields written right after the keyword and the unit (a
        tactic's name, a seat, the units of a list)."""
        return []

    def words(self) -> list[str]:
        """The notation of the fields, as words after the order's common ones."""
        return []

    def check(self, text: str) -> None:
        """Raise InvalidOrderError (:func:`bad_order`) when a field is malformed."""


@dataclass(frozen=True, slots=True)
class WeaponArgs(OrderArgs):
    """The fields of the base ``attack``/``fire … with W [disable ABILITY]``: the weapon
    id of the unit's card, and the ability a sniper hit disables (R-AB-2; the
    ``abilities`` module's extension of attack/fire reads it)."""

    weapon: str
    disable: str | None = None

    def words(self) -> list[str]:
        out = ["with", self.weapon]
        if self.disable is not None:
            out += [DISABLE_WORD, self.disable]
        return out

    def check(self, text: str) -> None:
        check_id(self.weapon, text)
        if self.disable is not None:
            check_name(self.disable, text)


@dataclass(frozen=True, slots=True)
class Order:
    """One order: what every order has. ``cell`` is the destination (move, disengage,
    withdraw, an attack's ``from``) or the aimed cell; ``target`` the enemy unit of
    attack/fire (or the unit a module's order names). Every other field belongs to the
    module that owns the kind: a typed :class:`OrderArgs` in ``args`` (the base
    ``attack``/``fire``'s weapon: :class:`WeaponArgs`, read with :func:`order_weapon`)."""

    kind: OrderKind
    unit: str | None = None
    cell: Cell | None = None
    target: str | None = None
    args: OrderArgs | None = None
    """The kind's own typed fields (:class:`OrderArgs`); None when it has none."""

    def __post_init__(self) -> None:
        text = self.kind.value
        shape = _SHAPE.get(self.kind)
        if shape is None:  # a rule module's kind: the shape its module declares
            syn = _default_syntax(self.kind)
            if syn is not None and syn.shape is not None:
                check_shape(self, text, syn.shape)
            else:  # a kind of a module outside the default ruleset: its grammar checked it
                _check_ids(self, text)
            return
        needs_unit, needs_cell, needs_target = shape
        if self.args is not None and not (
            isinstance(self.args, WeaponArgs) and self.kind in _WEAPON_KINDS
        ):
            raise _bad(text, "takes no module fields", "ei ota moduulin kenttiä")
        if needs_unit != (self.unit is not None):
            raise InvalidOrderError(
                f"order {text!r}: " + ("needs a unit" if needs_unit else "takes no unit"),
                f"käsky {text!r}: " + ("tarvitsee yksikön" if needs_unit else "ei ota yksikköä"),
            )
        if self.kind != OrderKind.ATTACK and needs_cell != (self.cell is not None):
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
        _check_ids(self, text)

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
    def attack(
        cls, unit: str, target: str, cell: Cell | None = None, weapon: str | None = None
    ) -> Order:
        return cls(
            OrderKind.ATTACK, unit, cell, target, None if weapon is None else WeaponArgs(weapon)
        )

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
    def fire(cls, unit: str, target: str, weapon: str | None = None) -> Order:
        return cls(
            OrderKind.FIRE, unit, None, target, None if weapon is None else WeaponArgs(weapon)
        )

    @classmethod
    def done(cls) -> Order:
        return cls(OrderKind.DONE)

    # -- rule-module orders -------------------------------------------------------------------


_WEAPON_KINDS = frozenset({OrderKind.ATTACK, OrderKind.FIRE})


def order_weapon(order: Order) -> str | None:
    """The weapon an ``attack``/``fire`` order names with ``with W`` (None: the basic
    weapon, or another kind of order)."""
    args = order.args
    return args.weapon if isinstance(args, WeaponArgs) else None


def order_disable(order: Order) -> str | None:
    """The ability an ``attack``/``fire … disable ABILITY`` names (R-AB-2), else None."""
    args = order.args
    return args.disable if isinstance(args, WeaponArgs) else None


def check_id(ident: str, text: str) -> None:
    """An id field of order ``text`` is an id (letters, digits, ``_``, ``-``)."""
    if not UNIT_ID.match(ident):
        raise InvalidOrderError(
            f"order {text!r}: {ident!r} is not a unit id",
            f"käsky {text!r}: {ident!r} ei ole yksikön tunnus",
        )


def check_name(name: str, text: str) -> None:
    """A name field of order ``text`` (a tactic, strike type or ability) is a name."""
    if not _WORD_RE.match(name):
        raise _bad(text, f"{name!r} is not a name", f"{name!r} ei ole nimi")


def _check_ids(o: Order, text: str) -> None:
    """Every id field an id, the cell not negative, the module's fields well formed."""
    for ident in (o.unit, o.target):
        if ident is not None and not UNIT_ID.match(ident):
            raise InvalidOrderError(
                f"order {text!r}: {ident!r} is not a unit id",
                f"käsky {text!r}: {ident!r} ei ole yksikön tunnus",
            )
    if o.cell is not None and (o.cell[0] < 0 or o.cell[1] < 0):
        raise InvalidOrderError(
            f"order {text!r}: cell {o.cell[0]},{o.cell[1]} is negative",
            f"käsky {text!r}: ruutu {o.cell[0]},{o.cell[1]} on negatiivinen",
        )
    if o.args is not None:
        o.args.check(text)


def _bad(text: str, en: str, fi: str) -> InvalidOrderError:
    return InvalidOrderError(f"order {text!r}: {en}", f"käsky {text!r}: {fi}")


@dataclass(frozen=True, slots=True)
class OrderShape:
    """Which of an order's fields a rule module's kind takes (its :class:`OrderSyntax`'s
    ``shape``; ``Order`` checks every order of the kind against it): True = needed,
    False = not taken, None = optional. ``args``: the type of the kind's own fields
    (:class:`OrderArgs`, ``order.args``; None: it has none), needed unless
    ``args_needed`` is False; ``check(order, text)``: the module's own rules on the fields
    (raise InvalidOrderError through :func:`bad_order`)."""

    unit: bool | None = False
    cell: bool | None = False
    target: bool | None = False
    args: type[OrderArgs] | None = None
    args_needed: bool = True
    check: Callable[[Order, str], None] | None = None


def bad_order(text: str, en: str, fi: str) -> InvalidOrderError:
    """The error of a badly formed order ``text`` (English and Finnish reason)."""
    return _bad(text, en, fi)


def check_shape(o: Order, text: str, shape: OrderShape) -> None:
    """Check ``o`` against its kind's :class:`OrderShape` (InvalidOrderError naming the
    problem)."""
    if shape.args is None:
        if o.args is not None:
            raise _bad(text, "takes no module fields", "ei ota moduulin kenttiä")
    elif o.args is None:
        if shape.args_needed:
            raise _bad(
                text,
                f"needs its fields ({shape.args.__name__})",
                f"tarvitsee kenttänsä ({shape.args.__name__})",
            )
    elif not isinstance(o.args, shape.args):
        raise _bad(
            text,
            f"its fields are a {shape.args.__name__}, not a {type(o.args).__name__}",
            f"sen kentät ovat {shape.args.__name__}, ei {type(o.args).__name__}",
        )
    if shape.check is not None:
        shape.check(o, text)
    if shape.unit is not None and shape.unit != (o.unit is not None):
        raise InvalidOrderError(
            f"order {text!r}: " + ("needs a unit" if shape.unit else "takes no unit"),
            f"käsky {text!r}: " + ("tarvitsee yksikön" if shape.unit else "ei ota yksikköä"),
        )
    if shape.cell is not None and shape.cell != (o.cell is not None):
        raise InvalidOrderError(
            f"order {text!r}: " + ("needs a cell X,Y" if shape.cell else "takes no cell"),
            f"käsky {text!r}: " + ("tarvitsee ruudun X,Y" if shape.cell else "ei ota ruutua"),
        )
    if shape.target is not None and shape.target != (o.target is not None):
        raise InvalidOrderError(
            f"order {text!r}: " + ("needs a target unit" if shape.target else "takes no target"),
            f"käsky {text!r}: " + ("tarvitsee kohdeyksikön" if shape.target else "ei ota kohdetta"),
        )
    _check_ids(o, text)


def _default_syntax(kind: OrderKind) -> OrderSyntax | None:
    """The grammar of ``kind`` in the default ruleset (None when no module of it adds the
    kind)."""
    from taistelukentta.rules.ruleset import default_ruleset

    return default_ruleset().vocabulary.syntax.get(kind)


_new = object.__new__
_set = object.__setattr__


def trusted_order(
    kind: OrderKind,
    unit: str | None = None,
    cell: Cell | None = None,
    target: str | None = None,
    *,
    weapon: str | None = None,
    args: OrderArgs | None = None,
) -> Order:
    """An :class:`Order` built without validation, for orders the engine (or the bot
    runner, or a module's listing) itself generated from valid ids, cells, weapon names
    and module fields (``legal_orders`` builds thousands)."""
    order: Order = _new(Order)
    _set(order, "kind", kind)
    _set(order, "unit", unit)
    _set(order, "cell", cell)
    _set(order, "target", target)
    _set(order, "args", args if weapon is None else WeaponArgs(weapon))
    return order


def format_cell(cell: Cell) -> str:
    """``X,Y``."""
    return f"{cell[0]},{cell[1]}"


def format_order(order: Order) -> str:
    """The canonical text of ``order`` (English keywords, single spaces)."""
    kind = order.kind
    if kind == OrderKind.DONE:
        return "done"
    parts = [kind.value]
    if order.unit is not None:
        parts.append(order.unit)
    args = order.args
    if args is not None:  # a name (tactic, strike type, ability), a seat, a unit list
        parts.extend(args.head())
    if order.target is not None:
        parts.append(order.target)
    if order.cell is not None:
        if kind == OrderKind.ATTACK:
            parts.append("from")
        parts.append(format_cell(order.cell))
    if args is not None:
        parts.extend(args.words())
    return " ".join(parts)


def _parse_cell(token: str, text: str) -> Cell:
    m = _CELL.match(token)
    if m is None and not token.isascii():
        raise InvalidOrderError(
            f"order {text!r}: {token!r} is not a cell: write coordinates with the digits "
            "0-9 (such as 12,7)",
            f"käsky {text!r}: {token!r} ei ole ruutu: kirjoita koordinaatit numeroilla 0-9 "
            "(esim. 12,7)",
        )
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


@dataclass(frozen=True, slots=True)
class OrderSyntax:
    """The grammar of one order kind, owned by the rule module that adds the kind (its
    ``RuleModule.syntax``): the keyword is ``kind``'s value, ``keywords_fi`` the Finnish
    ones :func:`parse_order` accepts too, ``usage`` the notation shown in errors and help,
    ``parse`` reads the words after the keyword (``(kind, words, whole text) → Order``,
    raising InvalidOrderError naming the bad word; :class:`OrderTokens` helps) and
    ``format`` writes the order back (None: :func:`format_order`'s generic layout)."""

    kind: OrderKind
    usage: str
    parse: Callable[[OrderKind, list[str], str], Order]
    keywords_fi: tuple[str, ...] = ()
    format: Callable[[Order], str] | None = None
    shape: OrderShape | None = None
    """Which fields the kind takes (checked whenever such an order is made)."""
    words_fi: tuple[tuple[str, str], ...] = ()
    """The kind's argument words (``by``, ``danger``…) with the Finnish spelling the
    parser reads too: the texts in Finnish write them so (views/text.py)."""


class Vocabulary:
    """The orders a ruleset understands: each module's :class:`OrderSyntax`, in module
    order (:attr:`Ruleset.vocabulary <taistelukentta.rules.ruleset.Ruleset>`). Parses and
    formats the notation; the CLI's keyword lists come from it."""

    def __init__(self, syntaxes: Iterable[OrderSyntax]) -> None:
        by_kind: dict[str, OrderSyntax] = {}
        finnish: dict[str, OrderKind] = {}
        for syn in syntaxes:
            if syn.kind in by_kind:
                raise ValueError(f"order kind {syn.kind.value!r} has two grammars")
            by_kind[syn.kind] = syn
            for word in syn.keywords_fi:
                if word in finnish or word in by_kind:
                    raise ValueError(f"order keyword {word!r} is used twice")
                finnish[word] = syn.kind
        self.syntax: Mapping[str, OrderSyntax] = by_kind
        """Grammar per kind (keyword), in module order."""
        self.kinds: tuple[OrderKind, ...] = tuple(syn.kind for syn in by_kind.values())
        self.finnish: Mapping[str, OrderKind] = finnish
        """Finnish keyword → kind."""

    def words_fi(self) -> dict[str, str]:
        """Every kind's argument words → their Finnish spelling (:attr:`OrderSyntax.words_fi`)."""
        return {en: fi for syn in self.syntax.values() for en, fi in syn.words_fi}

    def keywords(self) -> list[str]:
        """Every keyword: the kinds' (English) and the Finnish ones."""
        return [k.value for k in self.kinds] + list(self.finnish)

    def usage(self, kind: OrderKind) -> str:
        """The notation of ``kind`` (its keyword alone when this vocabulary lacks it)."""
        syn = self.syntax.get(kind)
        return kind.value if syn is None else syn.usage

    def parse(self, text: str) -> Order:
        """Parse the notation; bad text raises InvalidOrderError naming the bad token."""
        tokens = text.split()
        if not tokens:
            raise InvalidOrderError("empty order", "tyhjä käsky")
        word = tokens[0].lower()
        syn = self.syntax.get(word)
        if syn is None:
            found = self.finnish.get(word)
            if found is None:
                known = ", ".join(k.value for k in self.kinds)
                raise InvalidOrderError(
                    f"order {text!r}: unknown order {tokens[0]!r} (known: {known})",
                    f"käsky {text!r}: tuntematon käsky {tokens[0]!r} (tunnetut: {known}, "
                    f"{', '.join(self.finnish)})",
                )
            syn = self.syntax[found]
        return syn.parse(syn.kind, tokens[1:], text)

    def format(self, order: Order) -> str:
        """The canonical text of ``order``."""
        syn = self.syntax.get(order.kind)
        if syn is None or syn.format is None:
            return format_order(order)
        return syn.format(order)


class OrderTokens:
    """The words of an order after its keyword, read left to right by a module's
    :attr:`OrderSyntax.parse`; every error names the order text and its usage."""

    def __init__(self, words: list[str], text: str, usage: str) -> None:
        self.rest = list(words)
        self.text = text
        self.usage = usage

    def wrong(self) -> InvalidOrderError:
        """The order does not have the words its usage says."""
        return _bad(self.text, f"expected `{self.usage}`", f"odotettiin `{self.usage}`")

    def take(self) -> str:
        """The next word (error when there is none)."""
        if not self.rest:
            raise self.wrong()
        return self.rest.pop(0)

    def peek(self) -> str | None:
        """The next word, not taken (None at the end)."""
        return self.rest[0] if self.rest else None

    def take_if(self, words: Iterable[str]) -> bool:
        """Take the next word when it is one of ``words`` (case-insensitive)."""
        if self.rest and self.rest[0].lower() in words:
            self.rest.pop(0)
            return True
        return False

    def id(self, what_en: str = "unit", what_fi: str = "yksikön") -> str:
        """The next word as an id."""
        return _parse_id(self.take(), self.text, what_en, what_fi)

    def cell(self) -> Cell:
        """The next word as a cell ``X,Y``."""
        return _parse_cell(self.take(), self.text)

    def is_cell_next(self) -> bool:
        """Whether the next word is a cell."""
        return bool(self.rest) and _CELL.match(self.rest[0]) is not None

    def word(self, what_en: str = "a name", what_fi: str = "nimi") -> str:
        """The next word as a lower-case name (letters, digits, ``_``, ``-``)."""
        name = self.take().lower()
        if not _WORD_RE.match(name):
            raise _bad(self.text, f"{name!r} is not {what_en}", f"{name!r} ei ole {what_fi}")
        return name

    def end(self, order: Order) -> Order:
        """``order``, when no word is left (else: the first extra word is named)."""
        if self.rest:
            raise _bad(
                self.text,
                f"unexpected {self.rest[0]!r} (expected `{self.usage}`)",
                f"ylimääräinen {self.rest[0]!r} (odotettiin `{self.usage}`)",
            )
        return order


def parse_order(text: str, vocabulary: Vocabulary | None = None) -> Order:
    """Parse the notation with ``vocabulary`` (None: the default ruleset's); bad text
    raises InvalidOrderError naming the bad token."""
    if vocabulary is None:
        from taistelukentta.rules.ruleset import default_ruleset

        vocabulary = default_ruleset().vocabulary
    return vocabulary.parse(text)


def _weapon_args(weapon: str | None, disable: str | None) -> WeaponArgs | None:
    if weapon is None:
        return None
    return WeaponArgs(weapon, disable)


def parse_base(kind: OrderKind, args: list[str], text: str) -> Order:
    """The grammar of the base engine's kinds (RULES §3–10)."""
    weapon: str | None = None
    disable: str | None = None
    if (
        kind in (OrderKind.ATTACK, OrderKind.FIRE)
        and len(args) >= 4
        and args[-2].lower() in DISABLE_WORDS
        and args[-4].lower() in WITH_WORDS
    ):
        disable = args[-1]
        args = args[:-2]
    if (
        kind in (OrderKind.ATTACK, OrderKind.FIRE)
        and len(args) >= 2
        and args[-2].lower() in WITH_WORDS
    ):
        weapon = _parse_id(args[-1], text, "weapon", "aseen")
        args = args[:-2]
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
        return Order(kind, unit, cell, target, _weapon_args(weapon, disable))
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
        target = _parse_id(rest[0], text, "target unit", "kohdeyksikön")
        return Order(kind, unit, None, target, _weapon_args(weapon, disable))
    assert needs_unit
    return Order(kind, unit)


_USAGE: dict[OrderKind, str] = {
    OrderKind.MOVE: "move UNIT X,Y",
    OrderKind.DEFEND: "defend UNIT",
    OrderKind.ATTACK: "attack UNIT TARGET [from X,Y] [with WEAPON]",
    OrderKind.DISENGAGE: "disengage UNIT X,Y",
    OrderKind.WITHDRAW: "withdraw UNIT X,Y",
    OrderKind.RALLY: "rally UNIT",
    OrderKind.RECON: "recon UNIT X,Y",
    OrderKind.FIRE: "fire UNIT TARGET [with WEAPON]",
    OrderKind.DONE: "done",
}

BASE_KEYWORDS_FI: dict[OrderKind, tuple[str, ...]] = {
    OrderKind.MOVE: ("liiku",),
    OrderKind.DEFEND: ("puolusta",),
    OrderKind.ATTACK: ("hyökkää", "hyokkaa"),
    OrderKind.DISENGAGE: ("irtaudu",),
    OrderKind.WITHDRAW: ("vetäydy", "vetaydy"),
    OrderKind.RALLY: ("kohota",),
    OrderKind.RECON: ("tiedustele",),
    OrderKind.FIRE: ("ammu",),
    OrderKind.DONE: ("valmis",),
}


_BASE_WORDS_FI = (
    (FROM_WORDS[0], FROM_WORDS[-1]),
    (WITH_WORDS[0], WITH_WORDS[1]),
    (DISABLE_WORDS[0], DISABLE_WORDS[1]),
)


def base_syntax() -> tuple[OrderSyntax, ...]:
    """The base engine's order grammar (the engine module's ``syntax``)."""
    return tuple(
        OrderSyntax(kind, usage, parse_base, BASE_KEYWORDS_FI[kind], words_fi=_BASE_WORDS_FI)
        for kind, usage in _USAGE.items()
    )


def module_syntax(
    kind: OrderKind,
    usage: str,
    keywords_fi: tuple[str, ...],
    read: Callable[[OrderKind, OrderTokens], Order],
    shape: OrderShape | None = None,
    words_fi: tuple[tuple[str, str], ...] = (),
) -> OrderSyntax:
    """An :class:`OrderSyntax` whose parser reads the words with an :class:`OrderTokens`
    (``read(kind, tokens)`` returns the order; words left over are an error)."""

    def parse(k: OrderKind, args: list[str], text: str) -> Order:
        tokens = OrderTokens(args, text, usage)
        return tokens.end(read(k, tokens))

    return OrderSyntax(kind, usage, parse, keywords_fi, shape=shape, words_fi=words_fi)
