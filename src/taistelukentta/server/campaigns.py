"""Campaigns in the game server's database (issue 12, RULES.md §17).

A campaign row holds its roster (:class:`taistelukentta.rules.campaign.Roster`, as JSON),
a version (+1 per accepted write; a write may name the version it was made at: 409 if the
campaign has moved on) and the idempotency keys of recent writes (a repeated key changes
nothing). Its seats (``gm``, ``co``, the platoon seats …) have tokens stored hashed, like a
game's. A battle is a game of the store whose Blue slots hold the roster's units (the
game row's ``blue_overlay``); when that game is over the campaign rules apply by
themselves (:meth:`CampaignStore.settle`, called on every read and write of the campaign).

What a campaign answer holds is the company only: its units, its own VP, XP, TP, losses and
history — nothing of Red (no Red unit, no Red VP, no Red losses by name).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from taistelukentta.content.loader import parse_toml
from taistelukentta.content.options import RuleOptions, load_options
from taistelukentta.content.units import load_unit_cards
from taistelukentta.errors import TkError
from taistelukentta.rules.campaign import (
    CAMPAIGN_OPTIONS,
    CampaignError,
    CampaignRules,
    CardInfo,
    Roster,
    RosterUnit,
    apply_action,
    apply_battle,
    battle_started,
    new_roster,
    parse_action,
    undo,
)
from taistelukentta.rules.campaign_battle import (
    battle_overlay,
    battle_result,
    kills_from_events,
    roster_units,
)
from taistelukentta.rules.state import Phase
from taistelukentta.server.games import Created, GameStore, StoreError, scenario_for, token_hash
from taistelukentta.server.models import CampaignRow, CampaignSeatRow

GM = "gm"
IDEM_KEEP = 100
"""How many recent idempotency keys a campaign remembers."""


def _now() -> datetime:
    return datetime.now(UTC)


def _bad(exc: TkError) -> StoreError:
    return StoreError(422, "bad_campaign_input", exc.message("en"), exc.message("fi"))


def not_found() -> StoreError:
    """404: no such campaign (or a token of another one)."""
    return StoreError(404, "not_found", "no such campaign", "kampanjaa ei ole")


def forbidden(what: str, who: str) -> StoreError:
    """403: the seat may not do that."""
    return StoreError(
        403,
        "forbidden",
        f"only {who} may {what}",
        f"vain {'pelinjohtaja' if who == 'the GM' else 'pelinjohtaja tai päällikkö'} voi: {what}",
    )


def card_info() -> CardInfo:
    """Every bundled card as (max TK, K, card XP)."""
    return {
        cid: (c.stats.strength, c.stats.training, c.stats.xp)
        for cid, c in load_unit_cards().items()
    }


def campaign_rules(base: RuleOptions, overrides: Mapping[str, Any]) -> CampaignRules:
    """The campaign figures: ``base`` options changed by ``overrides`` (only the campaign's
    own options, R-CAMP-1…4). StoreError 422 naming a bad one."""
    unknown = sorted(set(overrides) - set(CAMPAIGN_OPTIONS))
    if unknown:
        raise StoreError(
            422,
            "bad_options",
            f"options: {unknown[0]!r} is not a campaign option ({', '.join(CAMPAIGN_OPTIONS)})",
            f"options: {unknown[0]!r} ei ole kampanjan sääntövalinta",
        )
    if not overrides:
        return CampaignRules.from_options(base)
    values = {name: getattr(base, name) for name in CAMPAIGN_OPTIONS}
    try:
        opts = load_options(overrides={**values, **overrides}, source="options")
    except TkError as exc:
        raise StoreError(422, "bad_options", exc.message("en"), exc.message("fi")) from None
    return CampaignRules.from_options(opts)


def roster_file_units(data: Mapping[str, Any], cards: CardInfo) -> list[RosterUnit]:
    """The units of a roster file (``units = [{name, card, xp?, strength?, label?,
    abilities?}]``). StoreError 422 naming the unit and key at fault."""
    units = data.get("units")
    if not isinstance(units, list) or not units:
        raise StoreError(
            422,
            "bad_roster",
            "roster: 'units' must be a non-empty list of {name, card, …}",
            "vahvuusluettelo: 'units' on oltava luettelo yksiköistä {name, card, …}",
        )
    out: list[RosterUnit] = []
    for i, u in enumerate(units):
        where = f"roster.units[{i}]"
        if not isinstance(u, Mapping):
            raise StoreError(422, "bad_roster", f"{where}: not a table", f"{where}: ei taulu")
        extra = sorted(set(u) - {"name", "card", "xp", "strength", "label", "abilities"})
        if extra:
            raise StoreError(
                422, "bad_roster", f"{where}: unknown key {extra[0]!r}", f"{where}: {extra[0]!r}?"
            )
        card = u.get("card")
        if not isinstance(card, str) or card not in cards:
            known = ", ".join(sorted(cards))
            raise StoreError(
                422,
                "bad_roster",
                f"{where}.card: unknown unit card {card!r} (cards: {known})",
                f"{where}.card: tuntematon yksikkökortti {card!r} (kortit: {known})",
            )
        max_tk, training, card_xp = cards[card]
        xp, strength, name = u.get("xp", card_xp), u.get("strength", max_tk), u.get("name")
        abilities = u.get("abilities", [])
        label = u.get("label")
        if isinstance(label, str):
            label = {"fi": label, "en": label}
        ok = (
            isinstance(name, str)
            and isinstance(xp, int)
            and not isinstance(xp, bool)
            and isinstance(strength, int)
            and not isinstance(strength, bool)
            and isinstance(abilities, list)
            and all(isinstance(a, str) for a in abilities)
            and (
                label is None
                or (isinstance(label, Mapping) and all(isinstance(v, str) for v in label.values()))
            )
        )
        if not ok:
            raise StoreError(
                422,
                "bad_roster",
                f"{where}: name (text), xp and strength (whole numbers), abilities (list of "
                "ids), label (text)",
                f"{where}: name (teksti), xp ja strength (kokonaislukuja), abilities "
                "(luettelo), label (teksti)",
            )
        assert isinstance(name, str) and isinstance(xp, int) and isinstance(strength, int)
        out.append(
            RosterUnit(
                name=name,
                card=card,
                training=training,
                xp=xp,
                strength=strength,
                max_strength=max_tk,
                label=dict(label) if label else None,
                abilities=tuple(abilities),
            )
        )
    return out


def parse_roster_text(text: str, source: str) -> dict[str, Any]:
    """A roster file's data: JSON (``{…}``) or TOML. StoreError 422 when unreadable."""
    try:
        data = json.loads(text) if text.lstrip().startswith("{") else parse_toml(text, source)
    except (TkError, ValueError) as exc:
        msg = exc.message("en") if isinstance(exc, TkError) else str(exc)
        raise StoreError(
            422, "bad_roster", f"{source}: {msg}", f"{source}: ei luettavissa: {msg}"
        ) from None
    if not isinstance(data, dict):
        raise StoreError(422, "bad_roster", f"{source}: not a table", f"{source}: ei taulu")
    return data


@dataclass(frozen=True)
class CampaignCreated:
    """A new campaign: its view and a token for every seat (shown once)."""

    id: str
    view: dict[str, Any]
    tokens: dict[str, str]


class CampaignStore:
    """Campaigns beside the games of ``games`` (the same database). Blocking; thread-safe
    (every write takes the campaign row's lock)."""

    def __init__(self, games: GameStore) -> None:
        self.games = games
        self._read = sessionmaker(games.engine, expire_on_commit=False)
        self._write = sessionmaker(
            games.engine.execution_options(tk20_write=True), expire_on_commit=False
        )
        self._cards: CardInfo | None = None

    @property
    def cards(self) -> CardInfo:
        if self._cards is None:
            self._cards = card_info()
        return self._cards

    # -- seats -------------------------------------------------------------------------

    def authenticate(self, campaign_id: str, token: str | None) -> str:
        """The seat of ``token`` in ``campaign_id``: 401 without a known token, 404 for a
        token of another campaign (nothing tells whether ``campaign_id`` exists)."""
        if not token or len(token) > 200 or not token.isascii():
            raise _unauthorized()
        with self._read() as s:
            row = s.get(CampaignSeatRow, token_hash(token))
            if row is None:
                raise _unauthorized()
            if row.campaign_id != campaign_id:
                raise not_found()
            return row.seat

    # -- create ------------------------------------------------------------------------

    def create(
        self,
        name: str,
        *,
        scenario: str | None = None,
        roster: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
        co_spends: bool = False,
        actor: str = GM,
    ) -> CampaignCreated:
        """A campaign of ``scenario``'s Blue forces or of a roster file's units."""
        if (scenario is None) == (roster is None):
            raise StoreError(
                422,
                "bad_campaign_input",
                "give exactly one of 'scenario' (its Blue forces) or 'roster' (a roster file)",
                "anna joko 'scenario' (sen siniset joukot) tai 'roster' (vahvuusluettelo)",
            )
        when = _now().isoformat(timespec="seconds")
        seats: list[str]
        if scenario is not None:
            sc = scenario_for(scenario, {}, self.games.settings.scenario_dirs)
            rules = campaign_rules(sc.options, options or {})
            units = roster_units(sc)
            seats = [s.id for s in sc.blue.seats]
            why = f"company of scenario {scenario}"
            tp = 0
        else:
            assert roster is not None
            rules = campaign_rules(load_options(), options or {})
            units = roster_file_units(roster, self.cards)
            listed = roster.get("seats", ["co"])
            if not isinstance(listed, list) or not all(
                isinstance(x, str) and x.isidentifier() and len(x) <= 32 and x != GM for x in listed
            ):
                raise StoreError(
                    422,
                    "bad_roster",
                    "roster.seats: a list of seat ids (letters, digits, '_'; not 'gm')",
                    "roster.seats: luettelo paikkojen tunnuksista",
                )
            seats = list(dict.fromkeys(["co", *listed]))
            tp = roster.get("tp", 0)
            if not isinstance(tp, int) or isinstance(tp, bool) or tp < 0:
                raise StoreError(
                    422, "bad_roster", "roster.tp: a whole number ≥ 0", "roster.tp: luku ≥ 0"
                )
            why = "roster file"
        try:
            state = new_roster(name, units, rules, actor=actor, when=when, tp=tp, why=why)
            for u in state.units:
                _check_unit_against_card(u, self.cards)
        except CampaignError as exc:
            raise _bad(exc) from None
        campaign_id = secrets.token_hex(8)
        tokens = {seat: secrets.token_urlsafe(24) for seat in [GM, *seats]}
        with self._write.begin() as s:
            s.add(
                CampaignRow(
                    id=campaign_id,
                    name=state.name,
                    state=state.to_dict(),
                    version=1,
                    co_spends=co_spends,
                    game_id=None,
                    battle=None,
                    idem={},
                    created_at=_now(),
                )
            )
            s.flush()
            for seat, token in tokens.items():
                s.add(
                    CampaignSeatRow(
                        token_hash=token_hash(token), campaign_id=campaign_id, seat=seat
                    )
                )
        return CampaignCreated(campaign_id, self.view(campaign_id, GM), tokens)

    # -- reading -----------------------------------------------------------------------

    def view(self, campaign_id: str, seat: str) -> dict[str, Any]:
        """What ``seat`` sees: the roster view, the battle under way, what it may do."""
        self.settle(campaign_id)
        with self._read() as s:
            row = s.get(CampaignRow, campaign_id)
            if row is None:
                raise not_found()
            return self._present(row, seat)

    def _present(self, row: CampaignRow, seat: str) -> dict[str, Any]:
        roster = Roster.from_dict(row.state)
        out = roster.view()
        out.update(
            id=row.id,
            version=row.version,
            seat=seat,
            co_spends=row.co_spends,
            may_spend=seat == GM or (row.co_spends and seat == "co"),
            may_undo=seat == GM,
            battle=(
                {
                    "game": row.game_id,
                    "scenario": (row.battle or {}).get("scenario"),
                    "left_out": (row.battle or {}).get("left_out", []),
                }
                if row.game_id is not None
                else None
            ),
            costs=dict(roster.rules.unit_costs),
            veteran_abilities=list(roster.rules.veteran_abilities),
            seats=self._seats(row.id),
        )
        return out

    def _seats(self, campaign_id: str) -> list[str]:
        with self._read() as s:
            return sorted(
                s.scalars(
                    select(CampaignSeatRow.seat).where(CampaignSeatRow.campaign_id == campaign_id)
                ).all()
            )

    def roster(self, campaign_id: str) -> Roster:
        """The campaign's roster now (after settling a finished battle)."""
        self.settle(campaign_id)
        with self._read() as s:
            row = s.get(CampaignRow, campaign_id)
            if row is None:
                raise not_found()
            return Roster.from_dict(row.state)

    # -- writing -----------------------------------------------------------------------

    def _locked_row(self, s: Session, campaign_id: str) -> CampaignRow:
        row = s.get(CampaignRow, campaign_id, with_for_update=True)
        if row is None:
            raise not_found()
        return row

    @staticmethod
    def _check_version(row: CampaignRow, version: int | None) -> None:
        if version is not None and version != row.version:
            raise StoreError(
                409,
                "stale_version",
                f"the campaign is at version {row.version}, not {version}; reload and retry",
                f"kampanja on versiossa {row.version}, ei {version}; lataa uudelleen",
                {"version": row.version},
            )

    def _write_state(
        self, row: CampaignRow, roster: Roster, key: str | None, **changes: Any
    ) -> None:
        row.state = roster.to_dict()
        row.version += 1
        for name, value in changes.items():
            setattr(row, name, value)
        if key is not None:
            idem = dict(row.idem)
            idem[key] = row.version
            if len(idem) > IDEM_KEEP:
                idem = dict(list(idem.items())[-IDEM_KEEP:])
            row.idem = idem

    def act(
        self,
        campaign_id: str,
        seat: str,
        action_text: str,
        *,
        why: str = "",
        version: int | None = None,
        key: str | None = None,
    ) -> dict[str, Any]:
        """One between-battle action (``restore NAME K``, ``buy CARD NAME``, ``ability NAME
        ABILITY``, ``rename NAME LABEL``) by ``seat``."""
        self.settle(campaign_id)
        with self._write.begin() as s:
            row = self._locked_row(s, campaign_id)
            if key is not None and key in row.idem:
                return self._present(row, seat)
            if not (seat == GM or (row.co_spends and seat == "co")):
                raise forbidden("spend", "the GM (or the CO, if the campaign allows it)")
            self._check_version(row, version)
            if row.game_id is not None:
                raise _battle_under_way(row.game_id)
            try:
                action = parse_action(action_text)
                roster = apply_action(
                    Roster.from_dict(row.state),
                    action,
                    actor=seat,
                    when=_now().isoformat(timespec="seconds"),
                    cards=self.cards,
                    why=why,
                )
            except CampaignError as exc:
                raise _bad(exc) from None
            self._write_state(row, roster, key)
            return self._present(row, seat)

    def undo(
        self,
        campaign_id: str,
        seat: str,
        *,
        seq: int | None = None,
        version: int | None = None,
        key: str | None = None,
    ) -> dict[str, Any]:
        """The GM takes back the newest change since the last battle."""
        self.settle(campaign_id)
        with self._write.begin() as s:
            row = self._locked_row(s, campaign_id)
            if key is not None and key in row.idem:
                return self._present(row, seat)
            if seat != GM:
                raise forbidden("undo", "the GM")
            self._check_version(row, version)
            try:
                roster = undo(
                    Roster.from_dict(row.state),
                    actor=seat,
                    when=_now().isoformat(timespec="seconds"),
                    seq=seq,
                )
            except CampaignError as exc:
                raise _bad(exc) from None
            self._write_state(row, roster, key)
            return self._present(row, seat)

    def start_battle(
        self,
        campaign_id: str,
        seat: str,
        scenario: str,
        *,
        leave_out: Sequence[str] = (),
        computer: Sequence[str] = (),
        version: int | None = None,
        seed: int | None = None,
    ) -> Created:
        """The next battle: a game of ``scenario`` whose Blue slots hold the roster's units
        (GM only; one battle at a time). Ends the undo window of the changes before it."""
        from taistelukentta.content.loader import read_text
        from taistelukentta.server.games import scenario_ids

        self.settle(campaign_id)
        if seat != GM:
            raise forbidden("start a battle", "the GM")
        files = scenario_ids(self.games.settings.scenario_dirs)
        scenario_for(scenario, {}, self.games.settings.scenario_dirs)  # 422 if unknown
        path = files[scenario]
        data = parse_toml(read_text(path), str(path))
        with self._read() as s:
            row = s.get(CampaignRow, campaign_id)
            if row is None:
                raise not_found()
            self._check_version(row, version)
            if row.game_id is not None:
                raise _battle_under_way(row.game_id)
            seen = row.version
            roster = Roster.from_dict(row.state)
        try:
            overlay = battle_overlay(data, roster, list(leave_out))
        except CampaignError as exc:
            raise _bad(exc) from None
        # The game is made outside the campaign's write (SQLite has one writer at a time);
        # the campaign then takes it only if nothing changed meanwhile.
        chosen = None
        if seed is not None:  # a chosen seed (CLI runs): its 32 HMAC-scheme bytes
            chosen = hashlib.sha256(f"tk20-campaign-seed:{seed}".encode()).digest()
        created = self.games.create(scenario, {}, list(computer), overlay=overlay, seed=chosen)
        with self._write.begin() as s:
            row = self._locked_row(s, campaign_id)
            self._check_version(row, seen)
            if row.game_id is not None:
                raise _battle_under_way(row.game_id)
            fought = sorted(u["name"] for u in overlay["slots"].values())
            started = battle_started(
                roster,
                actor=seat,
                when=_now().isoformat(timespec="seconds"),
                what=f"battle {len(roster.battles) + 1} ({scenario}): {', '.join(fought)}",
            )
            self._write_state(
                row,
                started,
                None,
                game_id=created.game.id,
                battle={"scenario": scenario, "left_out": overlay["left_out"]},
            )
        return created

    def settle(self, campaign_id: str) -> bool:
        """Apply the campaign rules to a battle that has ended (R-CAMP-1…3); True if it
        did. Safe to call any time, from any process: the row lock makes it happen once."""
        with self._read() as s:
            row = s.get(CampaignRow, campaign_id)
            if row is None:
                raise not_found()
            game_id = row.game_id
        if game_id is None:
            return False
        game = self.games.game(game_id)
        state = game.state
        if state.phase != Phase.OVER or state.vp is None or state.winner is None:
            return False
        events = [e for entry in game.entries for e in entry.events]
        with self._write.begin() as s:
            row = self._locked_row(s, campaign_id)
            if row.game_id != game_id:
                return False
            roster = Roster.from_dict(row.state)
            result = battle_result(
                game=game_id,
                scenario=game.scenario,
                roster=roster,
                units=state.units,
                destroyed=state.destroyed["blue"],
                winner=state.winner,
                blue_vp=state.vp["blue"],
                kills=kills_from_events(events),
                left_out=(row.battle or {}).get("left_out", []),
            )
            after = apply_battle(roster, result, when=_now().isoformat(timespec="seconds"))
            self._write_state(row, after, None, game_id=None, battle=None)
        return True

    # -- export ------------------------------------------------------------------------

    def export(self, campaign_id: str, fmt: str, lang: str = "fi") -> tuple[str, bytes]:
        """The roster as ``csv``, printable ``html`` or ``pdf``: (media type, content)."""
        roster = self.roster(campaign_id)
        if fmt == "csv":
            return "text/csv; charset=utf-8", roster_csv(roster).encode("utf-8")
        if fmt == "html":
            return "text/html; charset=utf-8", roster_html(roster, lang).encode("utf-8")
        if fmt == "pdf":
            return "application/pdf", roster_pdf(roster, lang)
        raise StoreError(
            422,
            "bad_format",
            f"format {fmt!r}: csv, html or pdf",
            f"muoto {fmt!r}: csv, html tai pdf",
        )


def _check_unit_against_card(unit: RosterUnit, cards: CardInfo) -> None:
    if unit.card not in cards:
        raise CampaignError(
            f"unit {unit.name!r}: unknown card {unit.card!r}",
            f"yksikkö {unit.name!r}: tuntematon kortti {unit.card!r}",
        )


def _unauthorized() -> StoreError:
    return StoreError(
        401, "unauthorized", "missing or unknown token", "puuttuva tai tuntematon tunniste"
    )


def _battle_under_way(game_id: str) -> StoreError:
    return StoreError(
        409,
        "battle_under_way",
        f"battle {game_id} is under way; the roster changes when it ends",
        f"taistelu {game_id} on käynnissä; vahvuusluettelo muuttuu sen päätyttyä",
    )


# ------------------------------------------------------------------------------ exports

COLUMNS = ("name", "label", "card", "xp", "tt", "strength", "max_strength", "statuses",
           "abilities", "battles")  # fmt: skip


def _rows(roster: Roster, lang: str = "fi") -> list[dict[str, Any]]:
    out = []
    for u in roster.units:
        v = u.view(roster.rules)
        label = v["label"] or {}
        out.append(
            {
                "name": v["name"],
                "label": label.get(lang) or label.get("fi", ""),
                "card": v["card"],
                "xp": v["xp"],
                "tt": v["tt"],
                "strength": v["strength"],
                "max_strength": v["max_strength"],
                "statuses": " ".join(v["statuses"]),
                "abilities": " ".join(v["abilities"]),
                "battles": v["battles"],
            }
        )
    return out


def roster_csv(roster: Roster) -> str:
    """One row per unit of the roster (header: :data:`COLUMNS`)."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in _rows(roster):
        w.writerow(r)
    return buf.getvalue()


_HEAD = {
    "fi": (
        "Vahvuusluettelo",
        "Yksikkö",
        "Nimitys",
        "Kortti",
        "XP",
        "TT",
        "TK",
        "Tilat",
        "Veteraanikyvyt",
        "Taisteluja",
        "Täydennyspisteet (TP)",
        "Taistelut",
        "Voittaja",
        "VP",
        "Menetetyt",
        "Skenaario",
    ),
    "en": (
        "Roster",
        "Unit",
        "Name",
        "Card",
        "XP",
        "TT",
        "TK",
        "Statuses",
        "Veteran abilities",
        "Battles",
        "Replacement points (TP)",
        "Battles",
        "Winner",
        "VP",
        "Lost",
        "Scenario",
    ),
}


def roster_html(roster: Roster, lang: str = "fi") -> str:
    """A printable HTML page of the roster and its battles."""
    h = _HEAD["en" if lang == "en" else "fi"]
    rows = "".join(
        "<tr>"
        + "".join(f"<td>{escape(str(r[k]))}</td>" for k in ("name", "label", "card", "xp", "tt"))
        + f"<td>{r['strength']}/{r['max_strength']}</td>"
        + f"<td>{escape(r['statuses'])}</td><td>{escape(r['abilities'])}</td>"
        + f"<td>{r['battles']}</td></tr>"
        for r in _rows(roster, lang)
    )
    battles = "".join(
        f"<tr><td>{b.number}</td><td>{escape(b.scenario)}</td><td>{escape(b.winner)}</td>"
        f"<td>{b.victory_points}</td><td>{b.tp}</td>"
        f"<td>{escape(', '.join(b.destroyed))}</td></tr>"
        for b in roster.battles
    )
    title = escape(f"{h[0]}: {roster.name}")
    return (
        f'<!doctype html><html lang="{"en" if lang == "en" else "fi"}"><head>'
        f'<meta charset="utf-8"><title>{title}</title>'
        "<style>body{font-family:sans-serif}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #444;padding:2px 6px}@media print{a{display:none}}</style>"
        f"</head><body><h1>{title}</h1><p>{h[10]}: {roster.tp}</p>"
        f"<table><thead><tr><th>{h[1]}</th><th>{h[2]}</th><th>{h[3]}</th><th>{h[4]}</th>"
        f"<th>{h[5]}</th><th>{h[6]}</th><th>{h[7]}</th><th>{h[8]}</th><th>{h[9]}</th></tr>"
        f"</thead><tbody>{rows}</tbody></table>"
        f"<h2>{h[11]}</h2><table><thead><tr><th>#</th><th>{h[15]}</th><th>{h[12]}</th>"
        f"<th>{h[13]}</th><th>TP</th><th>{h[14]}</th></tr></thead><tbody>{battles}</tbody>"
        "</table></body></html>"
    )


def roster_pdf(roster: Roster, lang: str = "fi") -> bytes:
    """The roster and its battles as a printable PDF (A4 landscape; matplotlib, like the
    printed map: :mod:`taistelukentta.server.tables_pdf`)."""
    from taistelukentta.server.tables_pdf import Column, Table, tables_pdf

    h = _HEAD["en" if lang == "en" else "fi"]
    units = Table(
        heading="",
        columns=(
            Column(h[1], 22),
            Column(h[2], 40),
            Column(h[3], 44),
            Column(h[4], 13, "right"),
            Column(h[5], 13, "right"),
            Column(h[6], 17, "right"),
            Column(h[7], 26),
            Column(h[8], 68),
            Column(h[9], 22, "right"),
        ),
        rows=tuple(
            (
                r["name"],
                r["label"],
                r["card"],
                str(r["xp"]),
                f"{r['tt']:+d}",
                f"{r['strength']}/{r['max_strength']}",
                r["statuses"],
                r["abilities"],
                str(r["battles"]),
            )
            for r in _rows(roster, lang)
        ),
    )
    battles = Table(
        heading=h[11],
        columns=(
            Column("#", 10, "right"),
            Column(h[15], 50),
            Column(h[12], 28),
            Column(h[13], 14, "right"),
            Column("TP", 14, "right"),
            Column(h[14], 149),
        ),
        rows=tuple(
            (
                str(b.number),
                b.scenario,
                b.winner,
                str(b.victory_points),
                str(b.tp),
                ", ".join(b.destroyed),
            )
            for b in roster.battles
        ),
    )
    tables = [units, battles] if roster.battles else [units]
    return tables_pdf(f"{h[0]}: {roster.name}", f"{h[10]}: {roster.tp}", tables, footer="tk20")
