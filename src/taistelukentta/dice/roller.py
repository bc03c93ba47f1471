"""The game's seeded dice roller and its roll log (R-DICE-2, R-DICE-4, R-DICE-6).

One :class:`Roller` per game; nothing else in the rules draws random numbers. Every roll
becomes a :class:`RollRecord` in :attr:`Roller.log` (purpose, raw dice, kept dice, modifier,
total, secret flag), so the same seed and the same orders replay the same game.
:meth:`Roller.getstate` gives a JSON-serialisable snapshot a game state can carry;
:meth:`Roller.from_state` continues from it with exactly the same rolls.

Two dice schemes (the game record names its scheme, so every saved game replays exactly):

- :data:`HMAC_SCHEME` (``"hmac-sha256"``, every new game): the seed is 32 secret bytes
  (:func:`fresh_seed`, from :mod:`secrets`); the dice are read from the byte stream
  ``HMAC-SHA-256(seed, b"dice" || counter)`` for counter 0, 1, 2 … (32 bytes per block),
  one byte per die with rejection sampling (a byte ``b`` is used only when
  ``b < 256 - 256 % sides``; the die is ``b % sides + 1``), so every face is exactly equally
  likely. HMAC-SHA-256 is a pseudo-random function: any number of dice seen tells nothing
  about the others nor about the seed. :func:`seed_commitment` (SHA-256 of the seed) is
  published at game start so that the seed, revealed after the game, can be checked.
- :data:`LEGACY_SCHEME` (``"mt19937"``): an integer seed feeding Python's Mersenne Twister,
  as every game made before the HMAC scheme. Predictable from a few rolls; kept only so
  those games (and tests that fix a small integer seed) replay exactly.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.errors import ArgumentError, TkError

D20 = DiceExpr(1, 20)

#: Format tag of :meth:`Roller.getstate` for the Mersenne Twister scheme.
STATE_VERSION = 1
#: Format tag of :meth:`Roller.getstate` for the HMAC-SHA-256 scheme.
HMAC_STATE_VERSION = 2

LEGACY_SCHEME = "mt19937"
"""Integer seed, Python's Mersenne Twister (games made before the HMAC scheme)."""
HMAC_SCHEME = "hmac-sha256"
"""32-byte secret seed, HMAC-SHA-256 in counter mode, rejection sampling (new games)."""
SCHEMES = (LEGACY_SCHEME, HMAC_SCHEME)
LOGGED_SCHEME = "logged"
"""Not a game's scheme: dice read back from a game's roll log (:class:`LoggedRoller`, the
replay of a sealed export, whose seed is still secret)."""
#: Format tag of :meth:`LoggedRoller.getstate` (in memory only, never saved).
LOGGED_STATE_VERSION = 3

SEED_BYTES = 32
"""Length of an HMAC-scheme seed (256 bits)."""

Seed = int | bytes
"""A game seed: ``bytes`` (32) for the HMAC scheme, ``int`` for the Mersenne Twister one."""

_BLOCK = 32
_DICE_TAG = b"dice"


def fresh_seed() -> bytes:
    """A new secret 256-bit seed (HMAC scheme) from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def scheme_of(seed: Seed) -> str:
    """The dice scheme a seed selects: bytes → HMAC-SHA-256, int → Mersenne Twister."""
    return HMAC_SCHEME if isinstance(seed, bytes) else LEGACY_SCHEME


def seed_commitment(seed: Seed) -> str | None:
    """SHA-256 (hex) of an HMAC-scheme seed, published at game start; None for a legacy
    integer seed (its hash would not hide a 31-bit number)."""
    if isinstance(seed, bytes):
        return hashlib.sha256(seed).hexdigest()
    return None


def derive_int(seed: Seed, label: str) -> int:
    """A 64-bit number derived from ``seed`` for another purpose (e.g. a computer player's
    own random source): for an HMAC seed, ``HMAC-SHA-256(seed, b"derive\\0" + label)`` —
    one-way, so the number tells nothing of the seed or the dice; for a legacy integer seed
    the label's hash mixed with it (legacy dice are predictable anyway)."""
    if isinstance(seed, bytes):
        digest = hmac.new(seed, b"derive\0" + label.encode("utf-8"), hashlib.sha256).digest()
    else:
        text = f"{seed}\0{label}".encode()
        digest = hashlib.sha256(text).digest()
    return int.from_bytes(digest[:8], "big")


def seed_text(seed: Seed) -> str:
    """How a game record writes a seed: 64 hex digits (HMAC) or the decimal integer."""
    return seed.hex() if isinstance(seed, bytes) else str(seed)


def parse_seed(text: str) -> Seed:
    """Inverse of :func:`seed_text`: 64 hex digits → bytes, a decimal integer → int.
    ArgumentError naming the value otherwise."""
    t = text.strip()
    if len(t) == 2 * SEED_BYTES:
        try:
            return bytes.fromhex(t)
        except ValueError:
            pass
    try:
        value = int(t, 10)
    except ValueError:
        value = -1
    if value < 0:
        raise ArgumentError(
            f"seed {text!r}: expected {2 * SEED_BYTES} hex digits or a non-negative integer",
            f"siemen {text!r}: odotettiin {2 * SEED_BYTES} heksanumeroa tai ei-negatiivista "
            "kokonaislukua",
        )
    return value


class _HmacStream:
    """The HMAC-SHA-256 counter-mode byte stream of one seed, from byte ``pos`` on."""

    __slots__ = ("_block", "_buf", "_mac", "_off", "_skip")

    def __init__(self, key: bytes, pos: int = 0) -> None:
        self._mac = hmac.new(key, _DICE_TAG, hashlib.sha256)
        self.seek(pos)

    def seek(self, pos: int) -> None:
        """Continue from byte ``pos``. The block holding it is made when the first byte is
        read (a restored roller that rolls nothing costs no hashing)."""
        self._block = pos // _BLOCK - 1
        self._buf = b""
        self._off = _BLOCK
        self._skip = pos % _BLOCK

    def _make(self, n: int) -> bytes:
        m = self._mac.copy()
        m.update(n.to_bytes(8, "big"))
        return m.digest()

    @property
    def pos(self) -> int:
        """Bytes of the stream used so far."""
        return self._block * _BLOCK + self._off + self._skip

    def byte(self) -> int:
        if self._off == _BLOCK:
            self._block += 1
            self._buf = self._make(self._block)
            self._off = self._skip
            self._skip = 0
        b = self._buf[self._off]
        self._off += 1
        return b

    def die(self, sides: int) -> int:
        """1..sides, every face equally likely (rejection sampling)."""
        if sides <= 256:
            limit = 256 - 256 % sides
            while True:
                b = self.byte()
                if b < limit:
                    return b % sides + 1
        span = 1 << 32
        if sides > span:
            raise ValueError(f"a d{sides} is larger than the stream's 32-bit words")
        limit = span - span % sides
        while True:
            w = 0
            for _ in range(4):
                w = (w << 8) | self.byte()
            if w < limit:
                return w % sides + 1


class Advantage(StrEnum):
    """Advantage on a d20 roll (R-DICE-4)."""

    NONE = "none"
    ADVANTAGE = "advantage"
    """Roll 2d20, keep the higher."""
    DISADVANTAGE = "disadvantage"
    """Roll 2d20, keep the lower."""

    @classmethod
    def of(cls, advantage: bool, disadvantage: bool) -> Advantage:
        """Combine the sources: both at once cancel; several of one kind do not stack.

        Callers pass ``any(sources)`` for each kind, so stacking is impossible by design.
        """
        if advantage and not disadvantage:
            return cls.ADVANTAGE
        if disadvantage and not advantage:
            return cls.DISADVANTAGE
        return cls.NONE


@dataclass(frozen=True, slots=True)
class RollRecord:
    """One roll as the game log keeps it (R-DICE-2)."""

    seq: int
    """Position of the roll in the game, from 1; never reused, survives save/load."""
    purpose: str
    """What the roll was for, e.g. ``"attack"`` or ``"attack:damage"``."""
    expr: str
    """What was rolled: a dice expression (``"2d6"``) or ``"2d20kh1"``/``"2d20kl1"``."""
    dice: tuple[int, ...]
    """Every die as it fell."""
    kept: tuple[int, ...]
    """The dice that count (all of them, or the one kept under advantage/disadvantage)."""
    modifier: int
    """Everything added to the kept dice (the expression's own modifier included)."""
    total: int
    """``sum(kept) + modifier``."""
    secret: bool = False
    """A GM's roll shown only to the GM until the rule reveals it (R-DICE-6)."""

    @property
    def natural(self) -> int:
        """The single kept die ("natural 20/1" means the kept die, R-DICE-4)."""
        if len(self.kept) != 1:
            raise ValueError(f"roll {self.seq} ({self.expr}) has no single natural die")
        return self.kept[0]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (lists for the dice)."""
        return {
            "seq": self.seq,
            "purpose": self.purpose,
            "expr": self.expr,
            "dice": list(self.dice),
            "kept": list(self.kept),
            "modifier": self.modifier,
            "total": self.total,
            "secret": self.secret,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RollRecord:
        """Inverse of :meth:`to_dict`; a missing or mistyped key → ArgumentError naming it."""
        try:
            record = cls(
                seq=_int(data, "seq"),
                purpose=_str(data, "purpose"),
                expr=_str(data, "expr"),
                dice=tuple(_int_list(data, "dice")),
                kept=tuple(_int_list(data, "kept")),
                modifier=_int(data, "modifier"),
                total=_int(data, "total"),
                secret=bool(data.get("secret", False)),
            )
        except KeyError as exc:
            raise ArgumentError(
                f"roll record: missing key {exc.args[0]!r}",
                f"heittotietue: avain {exc.args[0]!r} puuttuu",
            ) from None
        if record.total != sum(record.kept) + record.modifier:
            raise ArgumentError(
                f"roll record {record.seq}: total {record.total} is not "
                f"sum(kept) + modifier = {sum(record.kept) + record.modifier}",
                f"heittotietue {record.seq}: summa {record.total} ei ole "
                f"sum(kept) + modifier = {sum(record.kept) + record.modifier}",
            )
        return record


class Roller:
    """The seeded random source of one game (R-DICE-2).

    ``seed`` fixes every roll: two rollers with the same seed asked the same things give
    the same records. A ``bytes`` seed (32 bytes) selects the HMAC-SHA-256 scheme, an
    ``int`` the legacy Mersenne Twister one. Subclasses may override :meth:`_die` (e.g. to
    script the dice in tests, :class:`taistelukentta.dice.scripted.ScriptedRoller`).
    """

    def __init__(self, seed: Seed) -> None:
        if isinstance(seed, bytes):
            if len(seed) != SEED_BYTES:
                raise ArgumentError(
                    f"roller seed must be {SEED_BYTES} bytes, got {len(seed)}",
                    f"heittäjän siemenen on oltava {SEED_BYTES} tavua, saatiin {len(seed)}",
                )
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise ArgumentError(
                f"roller seed must be an integer or {SEED_BYTES} bytes, got {seed!r}",
                f"heittäjän siemenen on oltava kokonaisluku tai {SEED_BYTES} tavua, "
                f"saatiin {seed!r}",
            )
        self.seed: Seed = seed
        self.scheme = scheme_of(seed)
        self._stream: _HmacStream | None = None
        if isinstance(seed, bytes):
            self._stream = _HmacStream(seed)
            self._rng = random.Random(0)  # unused by this scheme
        else:
            self._rng = random.Random(seed)
        self._seq = 0
        self.log: list[RollRecord] = []
        """Every roll made by this roller object, oldest first."""
        self._drained = 0

    # -- drawing --------------------------------------------------------------------------

    def _die(self, sides: int) -> int:
        """One die, 1..sides."""
        if self._stream is not None:
            return self._stream.die(sides)
        return self._rng.randrange(sides) + 1

    def _record(
        self,
        purpose: str,
        expr: str,
        dice: tuple[int, ...],
        kept: tuple[int, ...],
        modifier: int,
        secret: bool,
    ) -> RollRecord:
        self._seq += 1
        record = RollRecord(
            self._seq, purpose, expr, dice, kept, modifier, sum(kept) + modifier, secret
        )
        self.log.append(record)
        return record

    def roll(
        self, expr: DiceExpr | str, purpose: str, *, modifier: int = 0, secret: bool = False
    ) -> RollRecord:
        """Roll ``expr`` (all dice kept) and add ``modifier`` on top of its own one."""
        dice_expr = DiceExpr.of(expr)
        if dice_expr.count == 1:
            dice: tuple[int, ...] = (self._die(dice_expr.sides),)
        else:
            dice = tuple(self._die(dice_expr.sides) for _ in range(dice_expr.count))
        return self._record(
            purpose, dice_expr.dice_text, dice, dice, dice_expr.modifier + modifier, secret
        )

    def d20(
        self,
        purpose: str,
        *,
        advantage: Advantage = Advantage.NONE,
        modifier: int = 0,
        secret: bool = False,
    ) -> RollRecord:
        """A d20 roll; with advantage/disadvantage 2d20 keep the higher/lower (R-DICE-4)."""
        if advantage is Advantage.NONE:
            die = self._die(20)
            return self._record(purpose, "d20", (die,), (die,), modifier, secret)
        first, second = self._die(20), self._die(20)
        if advantage is Advantage.ADVANTAGE:
            return self._record(
                purpose, "2d20kh1", (first, second), (max(first, second),), modifier, secret
            )
        return self._record(
            purpose, "2d20kl1", (first, second), (min(first, second),), modifier, secret
        )

    # -- log --------------------------------------------------------------------------------

    def drain(self) -> list[RollRecord]:
        """The records made since the last call (all of them on the first call)."""
        fresh = self.log[self._drained :]
        self._drained = len(self.log)
        return fresh

    def clear_log(self) -> None:
        """Forget the log (e.g. in long simulations); the sequence numbers go on."""
        self.log.clear()
        self._drained = 0

    @property
    def rolls_made(self) -> int:
        """How many rolls this random source has made since the game began."""
        return self._seq

    # -- state ------------------------------------------------------------------------------

    def getstate(self) -> dict[str, Any]:
        """A JSON-serialisable snapshot: seed, roll counter and the generator state.

        The log is not part of it (the game log keeps the records).
        """
        if self._stream is not None:
            assert isinstance(self.seed, bytes)
            return {
                "version": HMAC_STATE_VERSION,
                "scheme": HMAC_SCHEME,
                "seed": self.seed.hex(),
                "seq": self._seq,
                "pos": self._stream.pos,
            }
        global _LAST_STATE
        version, internal, gauss = self._rng.getstate()
        listed = list(internal)
        _LAST_STATE = (listed, internal)
        return {
            "version": STATE_VERSION,
            "seed": self.seed,
            "seq": self._seq,
            "rng": [version, listed, gauss],
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Roller:
        """A roller that continues exactly where the one that gave ``state`` stood."""
        if state.get("scheme") == LOGGED_SCHEME:
            return LoggedRoller(state["rolls"], int(state["seq"]))
        try:
            if state["version"] == HMAC_STATE_VERSION:
                if state.get("scheme") != HMAC_SCHEME:
                    raise ValueError(f"unknown scheme {state.get('scheme')!r}")
                seed = bytes.fromhex(str(state["seed"]))
                pos = int(state["pos"])
                if pos < 0:
                    raise ValueError(f"negative stream position {pos}")
                roller = cls(seed)
                roller._seq = int(state["seq"])
                if pos and roller._stream is not None:
                    roller._stream.seek(pos)
                return roller
            if state["version"] != STATE_VERSION:
                raise ValueError(f"unknown version {state['version']!r}")
            roller = cls(int(state["seed"]))
            roller._seq = int(state["seq"])
            version, internal, gauss = state["rng"]
            listed, made = _LAST_STATE
            if internal is listed and tuple(internal) == made:
                # the list the last getstate gave, unchanged: its ints are ``made``
                words = made
            else:
                words = tuple(map(int, internal))
            roller._rng.setstate((int(version), words, None if gauss is None else gauss))
        except (KeyError, TypeError, ValueError) as exc:
            raise ArgumentError(
                f"roller state is broken: {exc}", f"heittäjän tila on virheellinen: {exc}"
            ) from None
        return roller


class LoggedDiceError(TkError):
    """A replay from a roll log asked for a roll the log does not have (another purpose,
    another expression, no more rolls) or got other dice than the log recorded."""


class LoggedRoller(Roller):
    """Dice read back from a game's roll log instead of drawn: the ``n``-th roll asked for
    gets the dice of the log's roll ``n``, which must be for the same purpose and the same
    expression and give the same record (:class:`LoggedDiceError` otherwise).

    How a game whose seed is still secret is replayed (a sealed export made before the
    end, ``tk20 replay``): the orders and the logged dice must give the logged events and
    the saved state; whether the logged dice are the seed's stream is checked once the
    seed is revealed (``tk20 verify --seed``). ``rolls``: the log's roll records as
    dictionaries (:meth:`RollRecord.to_dict`), oldest first; ``seq``: rolls already made."""

    def __init__(self, rolls: tuple[Mapping[str, Any], ...] | list[Any], seq: int = 0) -> None:
        super().__init__(bytes(SEED_BYTES))  # never drawn from
        self.scheme = LOGGED_SCHEME
        self._rolls = tuple(rolls)
        self._seq = seq
        self._dice: list[int] = []
        self._want: RollRecord | None = None

    def _next(self, purpose: str, expr: str) -> None:
        n = self._seq + 1
        if self._seq >= len(self._rolls):
            raise LoggedDiceError(
                f"roll {n} ({purpose}, {expr}): the log has no roll {n}",
                f"heitto {n} ({purpose}, {expr}): lokissa ei ole heittoa {n}",
            )
        want = RollRecord.from_dict(self._rolls[self._seq])
        if (want.seq, want.purpose, want.expr) != (n, purpose, expr):
            raise LoggedDiceError(
                f"roll {n}: the replay rolls {expr} for {purpose!r}, the log has roll "
                f"{want.seq}: {want.expr} for {want.purpose!r}",
                f"heitto {n}: uudelleenpeluu heittää {expr} ({purpose!r}), lokissa on heitto "
                f"{want.seq}: {want.expr} ({want.purpose!r})",
            )
        self._want = want
        self._dice = list(want.dice)

    def _check(self, made: RollRecord) -> RollRecord:
        want, self._want = self._want, None
        if made != want or self._dice:
            raise LoggedDiceError(
                f"roll {made.seq} ({made.purpose}): the replay gives {made.to_dict()}, the "
                f"log {want.to_dict() if want else None}",
                f"heitto {made.seq} ({made.purpose}): uudelleenpeluu antaa {made.to_dict()}, "
                f"loki {want.to_dict() if want else None}",
            )
        return made

    def _die(self, sides: int) -> int:
        if not self._dice or not 1 <= self._dice[0] <= sides:
            raise LoggedDiceError(
                f"roll {self._seq + 1}: the log has no d{sides} die here",
                f"heitto {self._seq + 1}: lokissa ei ole tässä d{sides}-noppaa",
            )
        return self._dice.pop(0)

    def roll(
        self, expr: DiceExpr | str, purpose: str, *, modifier: int = 0, secret: bool = False
    ) -> RollRecord:
        self._next(purpose, DiceExpr.of(expr).dice_text)
        return self._check(super().roll(expr, purpose, modifier=modifier, secret=secret))

    def d20(
        self,
        purpose: str,
        *,
        advantage: Advantage = Advantage.NONE,
        modifier: int = 0,
        secret: bool = False,
    ) -> RollRecord:
        expr = {
            Advantage.NONE: "d20",
            Advantage.ADVANTAGE: "2d20kh1",
            Advantage.DISADVANTAGE: "2d20kl1",
        }[advantage]
        self._next(purpose, expr)
        made = super().d20(purpose, advantage=advantage, modifier=modifier, secret=secret)
        return self._check(made)

    def getstate(self) -> dict[str, Any]:
        """In memory only: the log's rolls (shared, not copied) and the rolls made."""
        return {
            "version": LOGGED_STATE_VERSION,
            "scheme": LOGGED_SCHEME,
            "seq": self._seq,
            "rolls": self._rolls,
        }


_LAST_STATE: tuple[list[int], tuple[int, ...]] = ([], ())
"""The generator words of the last :meth:`Roller.getstate`: the list put in the snapshot
and the tuple it was copied from. :meth:`Roller.from_state` given that same list, still
equal to the tuple, restores the tuple without converting the 625 words one by one (an
``apply`` that rolls restores the snapshot the previous one made)."""


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(
            f"roll record: {key!r} must be an integer, got {value!r}",
            f"heittotietue: {key!r} on oltava kokonaisluku, saatiin {value!r}",
        )
    return value


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise ArgumentError(
            f"roll record: {key!r} must be text, got {value!r}",
            f"heittotietue: {key!r} on oltava tekstiä, saatiin {value!r}",
        )
    return value


def _int_list(data: Mapping[str, Any], key: str) -> list[int]:
    value = data[key]
    if not isinstance(value, list | tuple):
        raise ArgumentError(
            f"roll record: {key!r} must be a list of integers, got {value!r}",
            f"heittotietue: {key!r} on oltava kokonaislukulista, saatiin {value!r}",
        )
    return [_int({key: item}, key) for item in value]
