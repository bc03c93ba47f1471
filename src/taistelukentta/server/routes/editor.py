"""The printed map of a game and the scenario editor's endpoints (issue 14).

- ``GET /api/games/{id}/print``: the game's map as it stands for the asking seat, as PDF,
  SVG or PNG at 1:10 000 (:mod:`taistelukentta.mapprint`). The print is built from the
  seat's side's view (:func:`taistelukentta.mapprint.content_for_view`): a Blue seat gets
  its units where they are now, the enemy as Blue knows it and the mine cells Blue knows;
  only the GM's seat the GM's print (everything).
- ``/api/editor/…``: the browser scenario editor. The editor works on the model of
  :mod:`taistelukentta.content.editing`; validation runs the same loader as ``tk20`` and
  answers its problems as file, key, line and problem. Nothing here reads a game: a
  scenario file is the GM's preparation, and publishing writes a new file into the server's
  scenario folder (``tk20 serve --scenarios DIR``), where the lobby finds it.

A scenario's set-up is Red's secret (issue 8): the editor model of a scenario from the
server's folder — every Red unit, the HIDDEN ones and the minefields included — is given
only with its **edit key** (header ``X-Edit-Key``), which its publishing answered to the GM
who published it (the server keeps its SHA-256 beside the file, ``.ID.editkey``). A file
the server's operator put into the folder by hand has no key: it is not given at all (its
GM has the file). Bundled scenarios ship in the public package and open without a key.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Response
from pydantic import BaseModel, Field

from taistelukentta.content.editing import (
    empty_model,
    load_model,
    model_toml,
    validate_model,
)
from taistelukentta.content.options import option_specs
from taistelukentta.content.scenario import bundled_ids
from taistelukentta.content.terrain import default_terrain
from taistelukentta.content.units import load_unit_cards
from taistelukentta.errors import TkError
from taistelukentta.rules import GM_SEAT
from taistelukentta.server.deps import GameId, Seat, Store
from taistelukentta.server.games import StoreError, scenario_ids
from taistelukentta.server.schemas import ErrorOut

router = APIRouter(prefix="/api")

_ERR: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "Missing or unknown token."},
    404: {"model": ErrorOut, "description": "No such game or scenario."},
    409: {"model": ErrorOut, "description": "Not possible on this server now."},
    422: {"model": ErrorOut, "description": "Bad input."},
}
PLAYTEST_MAX_GAMES = 10
"""Most computer games one play test runs (each takes seconds; the request waits)."""
_MEDIA = {"pdf": "application/pdf", "svg": "image/svg+xml", "png": "image/png"}


@router.get(
    "/games/{game_id}/print",
    responses={
        **_ERR,
        200: {
            "content": {m: {} for m in _MEDIA.values()},
            "description": "The print: a PDF of every page, or one page as SVG/PNG.",
        },
    },
    response_class=Response,
)
def print_map(
    game_id: GameId,
    auth: Seat,
    store: Store,
    format: Annotated[Literal["pdf", "svg", "png"], Query()] = "pdf",
    paper: Annotated[Literal["A4", "A3", "A2"], Query()] = "A4",
    lang: Annotated[Literal["fi", "en"], Query()] = "fi",
    page: Annotated[int, Query(ge=1, le=999)] = 1,
) -> Response:
    """The game's map at 1:10 000 as it stands, for the asking seat: a Blue seat gets
    Blue's knowledge (own units now, the enemy as last known), the GM everything."""
    from taistelukentta.mapprint import (
        game_print_content,
        render_pdf,
        render_png,
        render_svg_pages,
    )
    from taistelukentta.mapprint.layout import plan

    side: Literal["blue", "gm"] = "gm" if auth.seat == GM_SEAT else "blue"
    with store.reading(game_id) as game:
        state = game.state
    scenario = state.scenario
    content = game_print_content(state, side, lang)
    pages = len(plan(scenario.map.width, scenario.map.height, paper).tiles)
    if format != "pdf" and page > pages:
        raise StoreError(
            422, "bad_page", f"page {page}: the print has {pages}", f"sivu {page}: sivuja {pages}"
        )
    headers = {"X-Pages": str(pages), "Cache-Control": "private, no-store"}
    if format == "pdf":
        body = render_pdf(content, paper)
    elif format == "svg":
        body = render_svg_pages(content, paper)[page - 1]
    else:
        body = render_png(content, paper, page - 1, dpi=96)
    return Response(content=body, media_type=_MEDIA[format], headers=headers)


# --------------------------------------------------------------------------- editor


class EditorMap(BaseModel):
    name: str = Field(default="", max_length=200)
    rows: list[str]
    elevation: list[list[int]] | None = None
    legend: dict[str, list[str]] = Field(default_factory=dict)


class EditorOrigin(BaseModel):
    map_ref: str | None = None
    map_raw: dict[str, Any] | None = None


class EditorModel(BaseModel):
    """A scenario being edited (see :mod:`taistelukentta.content.editing`)."""

    id: str = Field(max_length=64)
    scenario: dict[str, Any]
    map: EditorMap
    origin: EditorOrigin = Field(default_factory=EditorOrigin)


class Problem(BaseModel):
    file: str
    key: str
    line: int | None
    problem: str


class ValidateOut(BaseModel):
    ok: bool
    problems: list[Problem]


class TomlOut(BaseModel):
    toml: str
    problems: list[Problem]


class PublishOut(BaseModel):
    id: str
    path: str
    edit_key: str
    """The key that opens the published scenario in the editor again (``X-Edit-Key``):
    the GM's to keep — it is shown once and the server keeps only its SHA-256."""


EDIT_KEY_HEADER = "X-Edit-Key"


def _key_path(folder: Path, sid: str) -> Path:
    return folder / f".{sid}.editkey"


def _key_digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _may_open(scenario_id: str, path: Path, key: str | None) -> bool:
    """Whether the editor model of ``scenario_id`` (its file ``path``, as
    :func:`scenario_ids` found it) may be given to a request with ``key``: a bundled
    scenario always; one of the server's folder only with its edit key."""
    if scenario_id in bundled_ids():
        return True
    if not key:
        return False
    try:
        kept = _key_path(path.parent, scenario_id).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False
    return hmac.compare_digest(kept, _key_digest(key))


class PlaytestIn(BaseModel):
    model: EditorModel
    games: int = Field(default=3, ge=1, le=PLAYTEST_MAX_GAMES)
    seed: int = Field(default=1, ge=0, le=2**31 - 1)


class CatalogTerrain(BaseModel):
    id: str
    fi: str
    en: str
    char: str


class CatalogCard(BaseModel):
    id: str
    fi: str
    en: str
    side: str
    role: str


class CatalogOption(BaseModel):
    name: str
    rule: str
    kind: str
    value: Any
    choices: list[Any] | None
    fi: str
    en: str


class CatalogScenario(BaseModel):
    id: str
    bundled: bool


class CatalogOut(BaseModel):
    terrain: list[CatalogTerrain]
    legend: dict[str, list[str]]
    cards: list[CatalogCard]
    options: list[CatalogOption]
    scenarios: list[CatalogScenario]
    playtest: bool
    """Whether the server can play test a scenario (``tk20 balance``'s runner)."""
    playtest_max_games: int
    publish: bool
    """Whether the server has a scenario folder to publish into."""


def _model_dict(model: EditorModel) -> dict[str, Any]:
    return model.model_dump(mode="json")


def _problems(model: EditorModel) -> list[Problem]:
    return [Problem(**p) for p in validate_model(_model_dict(model))]


@router.get("/editor/catalog", response_model=CatalogOut)
def catalog(store: Store) -> CatalogOut:
    """What the editor offers: terrain types, unit cards, rule options, scenarios."""
    table = default_terrain()
    cards = load_unit_cards()
    bundled = set(bundled_ids())
    return CatalogOut(
        terrain=[CatalogTerrain(id=t.id, fi=t.name_fi, en=t.name_en, char=t.char) for t in table],
        legend={k: list(v) for k, v in table.legend.items()},
        cards=[
            CatalogCard(id=c.id, fi=c.name.fi, en=c.name.en, side=c.side, role=c.role)
            for c in cards.values()
        ],
        options=[
            CatalogOption(
                name=s.name,
                rule=s.rule,
                kind=s.kind,
                value=s.value,
                choices=list(s.choices) if s.choices is not None else None,
                fi=s.fi,
                en=s.en,
            )
            for s in option_specs()
        ],
        scenarios=[
            CatalogScenario(id=sid, bundled=sid in bundled)
            for sid in scenario_ids(store.settings.scenario_dirs)
        ],
        playtest=True,
        playtest_max_games=PLAYTEST_MAX_GAMES,
        publish=bool(store.settings.scenario_dirs),
    )


@router.get(
    "/editor/scenarios/{scenario_id}",
    response_model=EditorModel,
    responses={**_ERR, 403: {"model": ErrorOut}},
)
def editor_scenario(
    scenario_id: str,
    store: Store,
    edit_key: Annotated[
        str | None,
        Header(
            alias=EDIT_KEY_HEADER,
            max_length=128,
            description="A published scenario's edit key (bundled ones need none).",
        ),
    ] = None,
) -> EditorModel:
    """A scenario the server has as the editor's model: a bundled one, or one of the
    server's folder with its edit key (its set-up is the GM's secret)."""
    path = scenario_ids(store.settings.scenario_dirs).get(scenario_id)
    if not re.fullmatch(r"[a-z0-9_-]{1,64}", scenario_id) or path is None:
        raise StoreError(404, "not_found", "no such scenario", "skenaariota ei ole")
    if not _may_open(scenario_id, path, edit_key):
        raise StoreError(
            403,
            "edit_key",
            f"scenario {scenario_id!r}: its set-up is the game master's — open it with the "
            "edit key its publishing gave",
            f"skenaario {scenario_id!r}: asetelma on pelinjohtajan — avaa se julkaisun "
            "antamalla muokkausavaimella",
        )
    try:
        model = load_model(scenario_id, store.settings.scenario_dirs)
    except TkError as exc:
        raise StoreError(422, "bad_scenario", exc.message("en"), exc.message("fi")) from None
    return EditorModel.model_validate(model)


@router.get("/editor/empty", response_model=EditorModel, responses=_ERR)
def editor_empty(
    width: Annotated[int, Query(ge=1, le=500)] = 30,
    height: Annotated[int, Query(ge=1, le=500)] = 20,
) -> EditorModel:
    """A new scenario on an open map of ``width`` × ``height`` cells."""
    try:
        return EditorModel.model_validate(empty_model(width, height))
    except TkError as exc:
        raise StoreError(422, "bad_size", exc.message("en"), exc.message("fi")) from None


@router.post("/editor/validate", response_model=ValidateOut, responses=_ERR)
def editor_validate(model: EditorModel) -> ValidateOut:
    """Every problem ``tk20`` would report for the file this model saves."""
    problems = _problems(model)
    return ValidateOut(ok=not problems, problems=problems)


@router.post("/editor/toml", response_model=TomlOut, responses=_ERR)
def editor_toml(model: EditorModel) -> TomlOut:
    """The scenario TOML the model saves (and its problems, if any)."""
    try:
        text = model_toml(_model_dict(model))
    except (TypeError, ValueError) as exc:
        raise StoreError(422, "bad_model", str(exc), str(exc)) from None
    return TomlOut(toml=text, problems=_problems(model))


@router.post("/editor/publish", response_model=PublishOut, status_code=201, responses=_ERR)
def editor_publish(model: EditorModel, store: Store) -> PublishOut:
    """Save the scenario as a game-ready file in the server's scenario folder: it must
    load without a problem, and its id must be new (a published file is never replaced,
    so a game started from it keeps its scenario)."""
    folders = store.settings.scenario_dirs
    if not folders:
        raise StoreError(
            409,
            "no_scenario_folder",
            "this server has no scenario folder (start it with tk20 serve --scenarios DIR)",
            "palvelimella ei ole skenaariokansiota (käynnistä: tk20 serve --scenarios KANSIO)",
        )
    sid = str(model.scenario.get("id") or model.id)
    if not re.fullmatch(r"[a-z0-9_-]{1,64}", sid):
        raise StoreError(
            422,
            "bad_id",
            f"id {sid!r}: lower-case letters, digits, - and _ only",
            f"tunnus {sid!r}: vain pienet kirjaimet, numerot, - ja _",
        )
    if sid in scenario_ids(folders):
        raise StoreError(
            409,
            "scenario_exists",
            f"a scenario {sid!r} exists already; give the new one another id",
            f"skenaario {sid!r} on jo olemassa; anna uudelle toinen tunnus",
        )
    problems = _problems(model)
    if problems:
        raise StoreError(
            422,
            "invalid_scenario",
            f"the scenario has {len(problems)} problem(s)",
            f"skenaariossa on {len(problems)} virhettä",
            extra={"problems": [p.model_dump() for p in problems]},
        )
    data = _model_dict(model)
    data["scenario"] = {**data["scenario"], "id": sid}
    path = folders[0] / f"{sid}.toml"
    key = secrets.token_urlsafe(24)
    fd = os.open(_key_path(folders[0], sid), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(_key_digest(key) + "\n")
    path.write_text(model_toml(data, inline_map=True), encoding="utf-8")
    return PublishOut(id=sid, path=path.name, edit_key=key)


@router.post("/editor/playtest", responses=_ERR)
def editor_playtest(body: PlaytestIn) -> dict[str, Any]:
    """Play ``games`` computer games of the scenario (baseline bots on both sides, seeds
    ``seed``…) and answer ``tk20 balance``'s summary: win rates with 95 % intervals, VP,
    rounds, survival per unit card, objective holders. The scenario must load first."""
    import tempfile
    from pathlib import Path

    from taistelukentta.bots.balance import GameSpec, run_games, summarise

    problems = _problems(body.model)
    if problems:
        raise StoreError(
            422,
            "invalid_scenario",
            f"the scenario has {len(problems)} problem(s)",
            f"skenaariossa on {len(problems)} virhettä",
            extra={"problems": [p.model_dump() for p in problems]},
        )
    data = _model_dict(body.model)
    with tempfile.TemporaryDirectory(prefix="tk20-playtest-") as folder:
        path = Path(folder) / f"{body.model.id or 'playtest'}.toml"
        path.write_text(model_toml(data, inline_map=True), encoding="utf-8")
        spec = GameSpec(scenario=str(path))
        try:
            results = run_games(spec, list(range(body.seed, body.seed + body.games)))
        except TkError as exc:
            raise StoreError(422, "playtest_failed", exc.message("en"), exc.message("fi")) from None
        summary = summarise(spec, results)
    summary["scenario"] = body.model.id
    return summary
