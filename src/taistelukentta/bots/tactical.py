"""The tactical computer player (``easy``, ``normal``, ``hard``): stronger than the baseline,
deciding from exactly the same inputs — its seat's typed view, its legal orders, the game's
rule options and public rules data (unit cards, the scenario's public map). It never sees a
``GameState``.

What it adds to the baseline (whose company tactics, fire support with its delay, mines,
rally and recon it keeps, ``bots.commander``):

- **belief** over enemies it cannot see now: every contact's last known place (the SPOTTED
  cell, else the centre of its KNOWN/SUSPECTED area) and type, kept when the contact is lost
  and trusted less with every side turn since (``BELIEF_DECAY``), forgotten after
  ``BELIEF_TURNS``;
- **threat**: for a cell and an own unit, the expected damage the believed enemies could do
  there next turn — each enemy's public card (weapon, training, movement), the cell's cover
  on the public map and the exact odds with the scenario's rule options
  (``rules.terms.attack_terms`` + ``odds.exact``);
- **cost fields** to the objectives over the public map (movement costs), objectives shared
  out between units by value and distance;
- **moves** scored over the listed destinations: progress towards the unit's objective,
  less threat (weighted up for a damaged unit, down in the last rounds, when only holding
  the objectives counts), plus cover and the shots the cell gives next fire phase — so a
  damaged unit under threat **withdraws** out of reach and leaders stay behind their men;
- **attacks** and **fire** by what they are worth: the share of the target's remaining
  strength the shot is expected to take (finishing a weak enemy first; a destroyed unit is
  a victory point), attacks from the listed origin with the least threat;
- **recon before advancing**: no unit walks into a believed contact's reach while the side
  has KP and a recon order towards it.

Levels differ in how much they search and how much noise they add, never in what they see:
``budget`` is the number of (unit, destination) evaluations per decision (a node count,
not a clock, so a game is the same for the same seed on any machine); ``noise`` is a random
term on each score from the bot's own seeded rng; ``lookahead`` makes the threat include
where enemies can move before firing (``easy`` counts only their range from where they are
believed to be).
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from taistelukentta.bots import commander
from taistelukentta.bots.baseline import LazyOrders, OrderSource, _ListedOrders, _recon_choice
from taistelukentta.bots.knowledge import (
    _rules,
    attack_reach,
    card,
    cheb,
    rule_odds,
    shot_value,
    special_shot_value,
    special_weapons,
    view_attack_terms,
)
from taistelukentta.content.options import RuleOptions
from taistelukentta.dice.expr import DiceExpr
from taistelukentta.grid.geometry import area
from taistelukentta.odds.exact import damage_distribution
from taistelukentta.odds.strike import terms_odds
from taistelukentta.rules.combat import Effect
from taistelukentta.rules.context import OPEN_FEATURES
from taistelukentta.rules.fire_support import STRIKE, danger_of, strike_type_of
from taistelukentta.rules.orders import Order, OrderKind, order_weapon
from taistelukentta.rules.terms import AttackSituation, attack_terms
from taistelukentta.views.models import OwnUnitView, SideView, UnitView

Cell = tuple[int, int]
Threat = Callable[[UnitView, Cell], float]
"""threat(unit, cell): expected damage the believed enemies could do to ``unit`` there."""

BELIEF_DECAY = 0.7
"""How much less a lost contact's last known place is trusted per side turn since."""
BELIEF_TURNS = 6
"""A lost contact is forgotten this many side turns after it was last seen."""
CONCENTRATE = 3
"""Units per objective a side needs to take the objectives one after the other."""
SLACK = 1.5
"""Turns to spare: a unit whose objective is no farther than the rounds left less this
heads for it whatever the threat (only the objectives held at the end score)."""
WAIT_ROUNDS = 1
"""A weak attacker's infantry (fewer than ``CONCENTRATE`` units per objective) stays out
of the fight in its first this many rounds: no advance, no attack order (measured on
``demo``: Red's lead squad walking onto the crossroads in round 1 was lost in nearly
every game)."""
ENDGAME_ROUNDS = 3
"""In an assault's last rounds (this many or fewer left after the current one) the
fighters are shared out over the objectives they can still reach, by value and distance,
instead of taking them one after the other (measured on ``terasvalli``: Blue stood on
the ridge at the end in 58 % of the games instead of 32 %)."""
GATHER = True
"""A weak attacker's waiting infantry gathers at its squads' centroid (measured on
``demo``: Red's squads survived 47 % of the games instead of 34 %; R15 no longer stands
alone on the northern open ground when the attack starts)."""
FINAL_PLAN = True
"""A weak attacker's last word is planned by the VP margin (:meth:`TacticalBot._final_plan`)."""
DODGE = True
"""A weak attacker facing an enemy with organic indirect fire leaves the cells its units
fired from in its last turn (its infantry: an attack order from another origin, else a
short step aside) and does not step onto them: the enemy saw them fire there (R-REC-7),
and an organic strike ordered on that cell lands in the enemy's next turn (R-ORG-1: delay
1, the one cell ordered). Measured on ``demo``: the baseline Blue's mortar killed 47 of
Red's 124 lost units over seeds 3001–3060, often two squads at a time on the firing line
(22,10)."""
SIDESTEP = 1
"""How far a unit that would stay and fire steps off a cell to leave (:data:`DODGE`): one
cell, so its way is only the cell it steps onto (measured on ``demo``: two cells took the
squads through fully open ground in Blue's sight, SPOTTED in 33 of 60 games)."""
SIDESTEP_OPEN = 1.0
"""What a fully open destination costs a sidestep (a unit moving there in an enemy's sight
is SPOTTED, R-REC-3, and then attacked)."""
DODGE_PENALTY = 1.0
"""What standing on (or stepping onto) such a cell costs in a move's score."""
FINAL_AREA = False
"""Whether a weak attacker's last word uses area fire (*Lamauttava tuli*, R-AB-3) before
its plan: off, the unit's direct fire is part of the plan (a kill is what counts at the
end; area fire's one roll against each unit in the area rarely destroys one)."""
SIGHT = True
"""In a weak attacker's last word a unit counts on firing at an enemy (staying to fire,
the plan's shots) only where it sees it on the public map (R-TER-4), not merely where
it is in range (measured on ``demo``: the plan left Red's squads in the thicket at
(22,11) "to fire" at a Blue unit on the crossroads that the village's buildings hid,
instead of sending them onto an objective)."""
MINE_PATHS = True
"""In an assault a unit's move (or attack origin) whose way, as the engine plans it over
the public map, crosses a found mined cell — or, for a unit the field's type affects, a
cell next to one (fields are boxes and strips, R-MINE-1) — is passed over
(:meth:`TacticalBot._crosses_mines`)."""
DANGER_POW = 0.0
"""In an assault a shot's (and an attack order's) worth is multiplied by the target's
danger to this power: the expected damage of its best weapon against a rifle squad in
the open (protection 12, no cover) over 3, about a rifle squad's — the T-72 counts 1.7,
a BMP 1.3, a command unit 0.8 (the T-72 was alive at the end of 44 of the 55
``terasvalli`` games Blue did not win). Off (0): +5 of 120 on the screen, but 118 / 200
against 121 on seeds 1–200 (docs/bots.md, seventh pass)."""
LAST_LOOK = False
"""A weak attacker that has the last word chooses how its units play its side turn before
the last word (a mode: its own turn, the infantry holding its ground or keeping out of
reach) by playing the rest of the game out in worlds built from its view
(:mod:`taistelukentta.bots.lastlook`). Off: +6 of 400 on the screen, 117 / 200 against 118
on seeds 1-200 (docs/bots.md, eighth pass)."""
LAST_LOOK_ROUNDS = 1
"""The side turns before the last word that :data:`LAST_LOOK` chooses a mode for."""
MINE_NEIGHBOURS = True
"""Whether the cells next to a found mined cell of a type that affects the unit count."""
KEEP_GROUND = True
"""A weak attacker's unit that stands on an objective in cover (the public map's cover at
least :data:`KEEP_GROUND_COVER`) keeps its ground until the last word: it is offered no
order that takes it off its cell (a move, an attack that moves first, a withdrawal or a
disengagement); it still fires, attacks from where it stands and uses its abilities.
Measured on ``demo`` (docs/bots.md, ninth pass): Red's BMP left the crossroads' building
(16,11) for an attack from the farthest origin (21,10) or a step aside, and the crossroads
was then Blue's or contested; Red won 239 / 400 instead of 229 (seeds 3001–3400), 250
instead of 241 (4001–4400), 237 instead of 227 (5001–5400)."""
KEEP_GROUND_COVER = 3
"""The least cover (forest 3, thicket and building 4) of a cell that :data:`KEEP_GROUND`
holds."""
FINAL_ORIGINS = True
"""In a weak attacker's last word an attack order may move the unit to any origin the
engine lists for it (:func:`_every_origin`), not only the origins farthest from the target
that the baseline player is offered (``runner.attack_candidates``): a unit can step onto
the crossroads *and* fire at the enemy unit standing on it. Measured on ``demo``
(docs/bots.md, ninth pass): 258 / 279 / 262 of 400 on seeds 3001 / 4001 / 5001 against
239 / 250 / 237; in the turns before the last word the nearer origins were a disaster
(130 of 400): the units that attacked from them were lost in Blue's reply."""
STAGE_LEADER = True
"""A weak attacker's leaders, in its last rounds before the last one (the last
:data:`STAGE_ROUNDS`), head for a staging cell one move from the objective its fighters
are not sent to (cost on the public map between ``movement - 2`` and ``movement - 0.5``,
the nearest such cell), so that in the last word a leader can step onto that objective
and contest it; on the way they keep out of reach as leaders do. Measured on ``demo``
(docs/bots.md, ninth pass): Red's command unit stood far east at the end (29,3), (27,12)
in most of the games Blue kept Kotkanmäki alone."""
STAGE_ROUNDS = 2
"""How many rounds before the last one :data:`STAGE_LEADER` starts."""
_OFF_CELL = frozenset({OrderKind.MOVE, OrderKind.ATTACK, OrderKind.WITHDRAW, OrderKind.DISENGAGE})
"""Order kinds that, given with a cell, take the unit off the cell it stands on."""
LEADERS_HOLD = True
"""A weak attacker's leaders and support weapons (:func:`_is_leader`) give no attack order
before the last word: they fire from where they stand, and their KP go to the squads' and
the armour's attacks. Measured on ``demo`` (docs/bots.md, tenth pass): Red's command unit
attacked in rounds 1–3, from the farthest origin, and was lost there (24 of its 28 losses
in 200 games came after an attack order); without those attacks Red won 288 / 307 / 311
of 400 on seeds 3001 / 4001 / 5001 instead of 276 / 293 / 292. From round 4 on only, it
gained nothing (274 / 293)."""
NO_AREA = True
"""A weak attacker gives no area fire (*Lamauttava tuli*, R-AB-3) before its last word either
(:data:`FINAL_AREA` is the last word's): its KP buy attack orders, and its armour fires
directly. Measured on ``demo`` (docs/bots.md, tenth pass): Red's BMP spent its KP and its
fire turn after turn on area fire at (14,10), where Blue's units stopped at its zone of
control, and rarely destroyed one; without it Red won 276 / 293 / 292 of 400 on seeds
3001 / 4001 / 5001 instead of 267 / 287 / 279."""
TANK_HUNT = True
"""In an assault, a shot with an AT weapon (an AT missile, a disposable AT weapon, an AT
round) at a SPOTTED heavy armoured enemy (armoured and not flagged light on its public card:
a main battle tank) is weighed by its exact odds over the public map (the cover on the line
of fire, elevation, advantage against a target in fully open terrain, R-ATK-7) and worth
:data:`TANK_WEIGHT` times a shot's usual worth (its share of the tank's strength plus its
kill chance); an attack order with such a shot needs only :data:`TANK_MIN_HIT` and goes to
the origin with the best odds (:meth:`TacticalBot._tank_odds`). Measured on
``terasvalli``: the T-72 was alive at the end of 44 of the 55 games Blue did not win, and
the AT team fired at the lighter BMPs instead."""
TANK_WEIGHT = 2.0
"""How much more a shot at a heavy armoured enemy is worth (:data:`TANK_HUNT`)."""
TANK_MIN_HIT = Fraction(35, 100)
"""The least hit chance for an attack order with an AT weapon at a heavy armoured enemy."""
TANK_STRIKE = True
"""In an assault the company commander requests an off-board K9 strike (R-OFF-1, 3 KP)
on the cell of a SPOTTED tank (:data:`TANK_HUNT`) while the strikes already on the way to
that cell do less than its strength (:meth:`TacticalBot._tank_strike`): with a SPOTTED
contact the aimed cell is always under the 2×2 area (R-OFF-4), and the K9 does 2d10 to an
armoured unit with no attack roll (R-OFF-3); the baseline's tank holds its cell while an
enemy is in its range, so the strike (a delay of 1–3 side turns, R-OFF-2) mostly finds it
there. Never where the strike's area or morale ring could reach an own unit."""
STRIKE_LIGHT = True
""":data:`TANK_STRIKE` also on SPOTTED light armour (the BMPs; after the tanks): the K9's
2d10 needs no attack roll against any armoured unit (measured on ``terasvalli``: 160 of
200 Blue wins instead of 155, docs/bots.md)."""
GRAB_FIRST = True
"""In an assault's last turn (an enemy turn still follows) the move onto the objectives
(:meth:`TacticalBot._last_grab`) comes before the company commander's standing orders:
Järjestäytynyt vetäytyminen had taken hurt units off an objective they could still
reach (:meth:`TacticalBot._assault_grab_first`)."""
STRANDED_SAFE = True
"""In an assault's last turn (an enemy turn still follows) a unit off the objectives that
no listed move takes onto one weighs the threat as a hurt unit does and no longer walks
towards its objective: it cannot stand on one at the end, and a loss there is a victory
point to the enemy for nothing (:meth:`TacticalBot._stranded`)."""
UNKNOWN_CARD = {"blue": "jaakariryhma", "red": "motorisoitu_jalkavakiryhma"}
"""The type assumed for a SUSPECTED enemy (type unknown), by the enemy's side."""


@dataclass(frozen=True)
class Level:
    """How hard the player tries: decisions evaluated, noise, lookahead."""

    name: str
    budget: int
    """(unit, destination) evaluations per decision."""
    noise: float
    """Spread of the random term added to each move score (0: none)."""
    lookahead: bool
    """Whether threat counts where enemies can move before they fire."""
    attack_min_hit: Fraction
    """The least hit chance for an attack order (1 KP)."""
    caution: float
    """How much a move's score weighs the threat at the destination (expected damage per
    point of the unit's strength) for a sound unit; tuned with ``tk20 balance``
    (docs/bots.md): cautious sound units lost more objectives than they saved men."""
    hurt_caution: float
    """The same for a unit at half strength or less (withdrawal out of reach)."""
    leader_caution: float
    """The least such weight (doubled) for a leader or a support weapon: they keep out of
    the believed enemies' reach whatever the unit's strength (measured: leaders walking
    with their men were a third of the tactical Blue's losses on ``terasvalli``)."""
    reply_caution: float = 0.3
    """How much a defender's attack order (a side holding every objective from the start)
    weighs the enemy's reply: its worth (share of the target's strength, kill bonus) less
    this times the threat at the attack's origin per point of the attacker's strength
    (doubled for a leader or a support weapon); none in the last side turn of the game (no
    reply comes). An attacker's units attack whatever the reply (measured on
    ``terasvalli``: Blue weighing it took far fewer objectives; Red weighing it lost fewer
    units, its command units above all)."""


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 120, 0.6, False, Fraction(1, 2), 0.3, 0.8, 0.3),
    "normal": Level("normal", 1500, 0.05, True, Fraction(1, 2), 0.3, 2.5, 2.5),
    "hard": Level("hard", 6000, 0.0, True, Fraction(45, 100), 0.3, 2.5, 2.5),
}
"""The levels: they differ in search (``budget``, ``lookahead``), noise and how readily
they spend KP on attacks — never in what they see."""


@dataclass
class Belief:
    """Where the side believes one enemy contact is."""

    cell: Cell
    card: str | None
    turn_no: int
    spotted: bool


# ------------------------------------------------------------------------------ public data


@lru_cache(maxsize=8)
def public_map(scenario_id: str) -> Any:
    """The public map of a bundled scenario (the terrain is on the table), or None for a
    scenario the bot cannot look up by id."""
    from taistelukentta.content.scenario import bundled_ids, load_scenario

    if scenario_id not in bundled_ids():
        return None
    return load_scenario(scenario_id).map


@lru_cache(maxsize=64)
def cost_field(scenario_id: str, goal: tuple[Cell, ...]) -> dict[Cell, float]:
    """Movement cost from every reachable cell to the nearest cell of ``goal`` over the
    public map (8 neighbours, the entered cell's cost); Chebyshev steps without a map."""
    gm = public_map(scenario_id)
    if gm is None:
        return {}
    w, h = gm.width, gm.height
    cost = gm.move_cost
    dist: dict[Cell, float] = {}
    heap: list[tuple[float, Cell]] = [(0.0, c) for c in goal]
    heapq.heapify(heap)
    while heap:
        d, c = heapq.heappop(heap)
        if c in dist:
            continue
        dist[c] = d
        x, y = c
        step = float(cost[y, x])
        if math.isinf(step):
            step = 1.0  # a goal cell on impassable ground: leave it at plain cost
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nx, ny = x + dx, y + dy
                if (dx or dy) and 0 <= nx < w and 0 <= ny < h and (nx, ny) not in dist:
                    c2 = float(cost[ny, nx])
                    if not math.isinf(c2):
                        heapq.heappush(heap, (d + max(step, c2) * 0.5 + 0.5 * c2, (nx, ny)))
    return dist


def _cover(gm: Any, cell: Cell) -> int:
    if gm is None:
        return 0
    return int(gm.cover[cell[1], cell[0]])


def _expected_damage(
    skill: int, weapon_bonus: int, damage: str, protection: int, cover: int, options: RuleOptions
) -> float:
    """Expected damage of one attack with these terms (exact odds, the scenario's
    options)."""
    terms = attack_terms(
        AttackSituation(skill=skill, weapon_bonus=weapon_bonus, protection=protection, cover=cover),
        options,
    )
    return float(
        rule_odds(
            terms.bonus, terms.defence, terms.advantage, damage, 1, _rules(options)
        ).expected_damage
    )


def _threat_of(
    enemy_card: str,
    protection: int,
    cover: int,
    armoured: bool,
    options: RuleOptions,
) -> float:
    """Expected damage one enemy of ``enemy_card`` does with its best weapon against a unit
    of that protection, in that cover (its basic weapon; also its AT weapons against
    armour)."""
    c = card(enemy_card)
    if c is None:
        return 0.0
    w = next((x for x in c.weapons if x.basic), None)
    if w is None or w.indirect:
        return 0.0
    skill = c.stats.training
    damage = w.at_damage if armoured and w.at_damage else w.damage
    best = _expected_damage(skill, w.attack_bonus, str(damage), protection, cover, options)
    if armoured:
        for sw in c.weapons:
            if sw.basic or sw.area or sw.indirect or not sw.at_damage:
                continue
            at = _expected_damage(
                skill, sw.attack_bonus, str(sw.at_damage), protection, cover, options
            )
            best = max(best, at)
        if not w.at_damage and w.damage_type == "FRAG":
            best = best / 2 if options.frag_vs_armour == "half" else best
    return best


@lru_cache(maxsize=256)
def _reach_of(enemy_card: str, lookahead: bool) -> int:
    c = card(enemy_card)
    if c is None:
        return 0
    w = next((x for x in c.weapons if x.basic), None)
    rng = max((x.range for x in c.weapons if not x.indirect), default=w.range if w else 0)
    move = int(c.stats.movement / 1.5) if lookahead else 0
    return rng + move


def _role(card_id: str) -> str:
    c = card(card_id)
    return c.role if c is not None else "none"


def _indirect(u: OwnUnitView) -> bool:
    return bool(u.weapon.indirect)


# ------------------------------------------------------------------------------ the player


class TacticalBot:
    """The tactical player at a :data:`LEVELS` level, with its own seeded rng and its memory
    of contacts (fed only from the views it is given)."""

    def __init__(
        self, seed: int, level: str = "normal", budget: int | None = None, look: bool = True
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (choices: {', '.join(LEVELS)})")
        base = LEVELS[level]
        self.level = base if budget is None else replace(base, budget=max(1, budget))
        self.rng = random.Random(seed)
        self.belief: dict[str, Belief] = {}
        self._settled: dict[str, tuple[int, int]] = {}
        self.nodes = 0
        """(unit, destination) evaluations of the last decision."""
        self._objective_cells: set[Cell] = set()
        self._threat_opts: RuleOptions | None = None
        self._threat_cache: dict[tuple[str, int, int, bool], float] = {}
        self._decision_goals: dict[str, Cell | None] = {}
        """Each own unit's objective cell in the decision being made (:meth:`_goals`)."""
        self._fired_from: dict[str, tuple[int, Cell]] = {}
        """Each own unit's last side turn of firing and the cell it fired from (fed from
        the views' ``fired`` flags)."""
        self._objective_sets: tuple[SideView, tuple[tuple[frozenset[Cell], int], ...]] | None = None
        """The objectives' cells and VP of the view being decided on (a memo)."""
        self._careful: set[str] = set()
        """Units that keep out of reach in the decision being made (the look-ahead's mode)."""
        self._avoid: set[Cell] = set()
        """Cells the units leave and keep off in the decision being made (:data:`DODGE`)."""
        self.look = look
        """Whether the player may look ahead (:data:`LAST_LOOK`; off in its own rollouts)."""
        self._mode: tuple[int, str] | None = None
        """The side turn and the mode chosen for it (:mod:`bots.lastlook`)."""
        self._seen: dict[str, tuple[Cell, str]] = {}
        """Every enemy unit a SPOTTED contact showed: its last cell and card."""
        self.look_scores: dict[str, float] = {}
        """The mean margin per mode of the last look-ahead."""
        self.look_turns = 0
        """Side turns simulated by the last look-ahead."""

    # -------------------------------------------------------------- belief

    def _update_belief(self, view: SideView) -> None:
        now = view.turn_no
        for c in view.contacts:
            if c.cell is not None:
                cell: Cell = (int(c.cell[0]), int(c.cell[1]))
                self.belief[c.label] = Belief(cell, c.card, now, True)
            elif c.area is not None:
                x0, y0, size = c.area
                centre = (x0 + size // 2, y0 + size // 2)
                old = self.belief.get(c.label)
                kind = c.card or (old.card if old is not None else None)
                self.belief[c.label] = Belief(centre, kind, now, False)
        present = {c.label for c in view.contacts}
        for label in list(self.belief):
            b = self.belief[label]
            if label not in present and now - b.turn_no > BELIEF_TURNS:
                del self.belief[label]

    def _believed(self, view: SideView, enemy_side: str) -> list[tuple[Cell, str, float]]:
        """(cell, card, weight) of every believed enemy; a SPOTTED one counts fully."""
        now = view.turn_no
        present = {c.label for c in view.contacts}
        out = []
        for label in sorted(self.belief):
            b = self.belief[label]
            age = now - b.turn_no
            weight = 1.0 if label in present and b.spotted else 0.8 * BELIEF_DECAY**age
            if label not in present:
                weight *= 0.6
            out.append((b.cell, b.card or UNKNOWN_CARD[enemy_side], weight))
        return out

    # -------------------------------------------------------------- deciding

    def choose(
        self,
        view: SideView,
        legal_orders: Sequence[Order] | LazyOrders,
        options: RuleOptions | None = None,
    ) -> Order:
        """The next order of the seat whose view and legal orders these are."""
        src = legal_orders if isinstance(legal_orders, LazyOrders) else _ListedOrders(legal_orders)
        self._update_belief(view)
        for u in view.own_units():
            if u.fired:
                self._fired_from[u.id] = (view.turn_no, _as_cell(u.cell))
        for e in view.enemy_units():
            self._seen[e.id] = (_as_cell(e.cell), e.card)
        self.nodes = 0
        self._objective_cells = {_as_cell(c) for o in view.objectives for c in o.cells}
        s = commander.seen(view, options)
        rng = self.rng
        weak = _weak_attacker(s)
        if view.phase == "command" and weak:
            if not _last_word(view):
                held = self._ground_kept(s) if KEEP_GROUND else frozenset()
                if held:
                    src = _keep_ground(src, held)
                if LEADERS_HOLD:
                    leaders = frozenset(uid for uid, u in s.own.items() if _is_leader(u))
                    if leaders:
                        src = _no_attacks(src, leaders)
            elif FINAL_ORIGINS:
                src = _every_origin(src)
        if (
            LAST_LOOK
            and self.look
            and view.phase == "command"
            and (self._mode is None or self._mode[0] != view.turn_no)
            and view.rounds - LAST_LOOK_ROUNDS <= view.turn < view.rounds
            and view.turn_no == 2 * view.turn
            and weak
        ):
            # the side turn before a weak attacker's last word: its mode by look-ahead
            from taistelukentta.bots import lastlook

            if lastlook.FORCE:
                self._mode = (view.turn_no, lastlook.FORCE)
            else:
                mode, self.look_scores, self.look_turns = lastlook.choose_mode(
                    self, view, self._seen, options
                )
                self._mode = (view.turn_no, mode)
        if view.phase == "fire":
            return commander.area_fire(s, src, rng) or self._fire(s, src) or src.done
        if TANK_STRIKE and TANK_HUNT:
            got = self._tank_strike(s, src)
            if got is not None:
                return got
        if FINAL_PLAN and _last_word(view) and weak:
            # a weak attacker's last word: no rally (2 KP for a unit that has nothing
            # left to do; the KP buy attack orders)
            return self._final_standing(s, src) or self._manoeuvre(s, src)
        if GRAB_FIRST:
            grab = self._assault_grab_first(s, src)
            if grab is not None:
                return grab
        area = not (NO_AREA and weak)
        return commander.standing_orders(s, src, rng, area=area) or self._manoeuvre(s, src)

    def _ground_kept(self, s: commander.Seen) -> frozenset[str]:
        """The own units that keep their ground (:data:`KEEP_GROUND`): standing on an
        objective cell with at least :data:`KEEP_GROUND_COVER` cover on the public map."""
        gm = public_map(s.view.scenario)
        if gm is None:
            return frozenset()
        return frozenset(
            uid
            for uid, u in s.own.items()
            if _as_cell(u.cell) in self._objective_cells
            and _cover(gm, _as_cell(u.cell)) >= KEEP_GROUND_COVER
        )

    def force_mode(self, turn_no: int, mode: str) -> None:
        """Play side turn ``turn_no`` in ``mode`` (:mod:`bots.lastlook`)."""
        self._mode = (turn_no, mode)

    def remember(self, other: TacticalBot) -> None:
        """Start from ``other``'s memory of earlier views (its belief, where its units
        fired from, the enemy units it saw): a rollout's player plays on as ``other``."""
        self.belief = dict(other.belief)
        self._fired_from = dict(other._fired_from)
        self._seen = dict(other._seen)

    def _turn_mode(self, view: SideView) -> str:
        """This side turn's mode (``default`` unless one was chosen for it)."""
        if self._mode is not None and self._mode[0] == view.turn_no:
            return self._mode[1]
        return "default"

    def _assault_grab_first(self, s: commander.Seen, src: OrderSource) -> Order | None:
        """In an assault's last turn with an enemy turn to follow (:data:`GRAB_FIRST`): after
        the first orders (promotion, recon report) and rallies, the move onto the
        objectives (:meth:`_last_grab`) before the company commander's orders, so a
        tactic's withdrawal does not take a unit away from an objective it could reach."""
        view = s.view
        if not (_assault(s) and view.turn >= view.rounds and not _last_word(view)):
            return None
        if commander.first_orders(s, src, self.rng) is not None:
            return None
        if src.of_kind(OrderKind.RALLY):
            return None
        free = sorted(
            {
                o.unit
                for o in src.of_kind(OrderKind.DEFEND)
                if o.unit is not None and o.unit in s.own
            }
        )
        if not free:
            return None
        return self._last_grab(s, src, free)

    def _final_standing(self, s: commander.Seen, src: OrderSource) -> Order | None:
        """:func:`commander.standing_orders` with a rally only for a unit that could then
        still reach an objective (2 KP that otherwise buy attack orders)."""
        rng = self.rng
        first = commander.first_orders(s, src, rng)
        if first is not None:
            return first
        goal = tuple(sorted(self._objective_cells))
        field = cost_field(s.view.scenario, goal) if goal else {}
        for o in src.of_kind(OrderKind.RALLY):
            u = s.own.get(o.unit or "")
            if u is None:
                continue
            here = _as_cell(u.cell)
            if here in self._objective_cells:
                continue
            if field.get(here, 999.0) <= float(u.movement):
                return o
        return commander.support_orders(s, src, rng, area=FINAL_AREA)

    # -------------------------------------------------------------- fire

    def _shot_worth(
        self, s: commander.Seen, u: OwnUnitView, e: UnitView, weapon: str | None
    ) -> tuple[float, float]:
        """(worth, hit chance): the expected share of the target's remaining strength the
        shot takes, a bonus for a likely kill (a victory point)."""
        if TANK_HUNT and _tank_target(s, e) and _at_weapon(u, weapon):
            return self._tank_worth(s, u, e, weapon, None)
        if weapon is None:
            hit, dmg = shot_value(u, e, s.opts)
        else:
            sv = special_shot_value(u, e, weapon, s.opts)
            if sv is None:
                return (0.0, 0.0)
            hit, dmg = sv
        strength = max(1, e.strength)
        share = min(float(dmg), strength) / strength
        kill = 0.5 if float(dmg) >= strength * 0.8 else 0.0
        on_objective = 0.3 if _as_cell(e.cell) in self._objective_cells else 0.0
        worth = share + kill * float(hit) + on_objective * share
        if DANGER_POW and _assault(s) and e.card:
            key = (e.card, 12, 0, False)
            if self._threat_opts is not s.opts:
                self._threat_opts, self._threat_cache = s.opts, {}
            danger = self._threat_cache.get(key)
            if danger is None:
                danger = self._threat_cache[key] = _threat_of(e.card, 12, 0, False, s.opts)
            worth *= (danger / 3.0) ** DANGER_POW
        return (worth, float(hit))

    def _tank_worth(
        self,
        s: commander.Seen,
        u: OwnUnitView,
        e: UnitView,
        weapon: str | None,
        origin: Cell | None,
    ) -> tuple[float, float]:
        """(worth, hit chance) of an AT shot at a heavy armoured enemy (:data:`TANK_HUNT`)
        from ``origin`` (None: the cell's own terms, the line of fire unknown)."""
        hit, dmg, pk = _tank_odds(s, u, e, weapon, origin)
        strength = max(1, e.strength)
        share = min(dmg, float(strength)) / strength
        return (TANK_WEIGHT * (share + pk), hit)

    def _tank_strike(self, s: commander.Seen, src: OrderSource) -> Order | None:
        """The company commander's K9 request on a SPOTTED tank's cell
        (:data:`TANK_STRIKE`): the first listed one with no own unit under its area or
        morale ring, while the K9 strikes on the way to the cell (2d10, about 11 each) do
        less than the tank's strength."""
        fs = s.fire
        if not (s.co and fs is not None and (fs.requests_left or 0) > 0):
            return None
        if s.kp < s.opts.kp_fire_support_request or s.view.phase == "fire":
            return None
        heavy = sorted(tid for tid, e in s.enemies.items() if _tank_target(s, e))
        light = sorted(
            tid
            for tid, e in s.enemies.items()
            if STRIKE_LIGHT and e.armoured and tid not in heavy and _assault(s)
        )
        for tid in heavy + light:
            e = s.enemies[tid]
            cell = _as_cell(e.cell)
            on_way = sum(
                1 for p in fs.pending if p.kind == "off_board" and _as_cell(p.cell) == cell
            )
            if on_way * 11 >= e.strength:
                continue  # the strikes on the way do about its strength (2d10 each)
            for o in src.of_kind(STRIKE):
                if o.cell is None or _as_cell(o.cell) != cell or strike_type_of(o) != "k9":
                    continue
                if danger_of(o):
                    continue
                terms = commander.strike_view_terms(s, o)
                if terms is None:
                    continue
                odds = commander._footprint_at(terms_odds(terms).cells, cell)
                if any(
                    (c := odds.get(_as_cell(u.cell))) is not None and c.p_morale_test > 0
                    for u in s.own.values()
                ):
                    break  # an own unit in the area or its morale ring
                return o
        return None

    def _fire(self, s: commander.Seen, src: OrderSource) -> Order | None:
        best: tuple[float, float] | None = None
        best_order: Order | None = None
        final = FINAL_PLAN and _last_word(s.view) and _weak_attacker(s)
        cells = [_as_cell(u.cell) for u in s.own.values()]
        for o in src.of_kind(OrderKind.FIRE):
            if o.unit not in s.own or o.target not in s.units:
                continue
            worth, hit = self._shot_worth(s, s.own[o.unit], s.units[o.target], order_weapon(o))
            if hit < 0.08:
                continue
            if final and o.target in s.enemies:
                # the last word: what the shot adds to the margin at the end
                worth = self._final_shot(s, s.own[o.unit], o.target, order_weapon(o), cells)
            key = (worth, self.rng.random())
            if best is None or key > best:
                best, best_order = key, o
        return best_order

    # -------------------------------------------------------------- manoeuvre

    def _manoeuvre(self, s: commander.Seen, src: OrderSource) -> Order:
        view = s.view
        level = self.level
        gm = public_map(view.scenario)
        enemy_side = "red" if s.side == "blue" else "blue"
        believed = self._believed(view, enemy_side)
        rounds_left = view.rounds - view.turn
        late = rounds_left <= 0
        free = sorted(
            {
                o.unit
                for o in src.of_kind(OrderKind.DEFEND)
                if o.unit is not None and o.unit in s.own
            }
        )
        if not free:
            return commander.hide(s, src, self.rng) or src.done
        opts = s.opts

        threat_memo: dict[tuple[Cell, int, bool], float] = {}
        if self._threat_opts is not opts:
            self._threat_opts, self._threat_cache = opts, {}
        per_card = self._threat_cache

        def enemy_damage(bcard: str, protection: int, cov: int, armoured: bool) -> float:
            k = (bcard, protection, cov, armoured)
            v = per_card.get(k)
            if v is None:
                v = per_card[k] = _threat_of(bcard, protection, cov, armoured, opts)
            return v

        def threat(u: UnitView, cell: Cell) -> float:
            key = (cell, u.protection, u.armoured)
            got = threat_memo.get(key)
            if got is None:
                cov = _cover(gm, cell)
                got = 0.0
                for bcell, bcard, weight in believed:
                    if cheb(bcell, cell) <= _reach_of(bcard, level.lookahead):
                        got += weight * enemy_damage(bcard, u.protection, cov, u.armoured)
                threat_memo[key] = got
            return got

        goals = self._goals(s, gm)
        weak = _weak_attacker(s)
        waiting: set[str] = set()
        if weak and view.turn <= WAIT_ROUNDS:
            # a weak attacker's infantry waits: it keeps its ground (out of the enemy's
            # reach if it can) and gives no attack order
            for uid, u in s.own.items():
                if not u.armoured and not _is_leader(u):
                    goals[uid] = _as_cell(u.cell)
                    waiting.add(uid)
            if GATHER and waiting:
                # the squads gather where they stand together (off the open ground)
                cx = round(sum(s.own[w].cell[0] for w in waiting) / len(waiting))
                cy = round(sum(s.own[w].cell[1] for w in waiting) / len(waiting))
                for w in waiting:
                    goals[w] = (int(cx), int(cy))
        mode = self._turn_mode(view)
        self._careful = set()
        if mode != "default":
            # the look-ahead's mode for this turn: the infantry gives no attack order;
            # ``hold`` keeps its ground, ``cover`` keeps out of reach like a hurt unit
            for uid, u in s.own.items():
                if u.armoured or _is_leader(u):
                    continue
                waiting.add(uid)
                if mode == "hold":
                    goals[uid] = _as_cell(u.cell)
                if mode in ("hold", "cover"):
                    self._careful.add(uid)
        self._decision_goals = goals
        self._avoid = set()
        if DODGE and weak and not _last_word(view) and _enemy_indirect(view.scenario, s.side):
            # the cells the units fired from in the side's last turn: the enemy saw them
            # there, and a strike ordered on one lands in its next turn (R-ORG-1)
            now = view.turn_no
            self._avoid = {c for t, c in self._fired_from.values() if now - 2 <= t < now}
        # units already in reach of a SPOTTED enemy stay and fire for free, unless hurt or
        # a leader or support weapon (which keep out of reach) — or, in an assault, due on
        # their objective (only the objectives held at the end score); a weak attacker's
        # unit on a cell to leave (:data:`DODGE`) does not stay
        movers = [
            uid
            for uid in free
            if not self._stays_to_fire(s, s.own[uid])
            or self._due(s, uid)
            or self._exposed(s, uid)
            or (mode == "cover" and uid in self._careful)
        ]

        if view.turn >= view.rounds and not _last_word(view):
            # the side's last turn, an enemy turn to follow: onto the objectives first,
            # then fire (with the last word the threat-free moves after the attacks do it)
            grab = self._last_grab(s, src, free)
            if grab is not None:
                return grab
        elif weak and _last_word(view) and FINAL_PLAN:
            got = self._final_plan(s, src, free)
            if got is not None:
                return got
        elif weak and _last_word(view):
            # a weak attacker's last word: onto every objective it does not stand on — an
            # attack whose origin is on one first (it moves there and fires), then a move;
            # an enemy's objective contested is worth as much as one taken
            open_cells = {
                _as_cell(c) for o in view.objectives if not o.own_present for c in o.cells
            }
            self._decision_goals = {}  # any objective, not only the unit's own
            if view.kp_of(s.seat) > 0 and s.enemies and open_cells:
                attack = self._attack(s, src, movers, threat, onto=open_cells)
                if attack is not None:
                    return attack
            self._decision_goals = goals
            grab = self._last_grab(s, src, free)
            if grab is not None:
                return grab

        # attack orders worth their KP
        if view.kp_of(s.seat) > 0 and s.enemies:
            attack = self._attack(s, src, [m for m in movers if m not in waiting], threat)
            if attack is not None:
                return attack

        mined = commander.known_mined(s)
        if mined:
            goals = commander.pioneer_goals(s, goals, mined)
            got = commander.breach(s, src, self.rng, goals)
            if got is not None:
                return got

        # recon before advancing: nothing SPOTTED, a believed contact or the goal ahead
        recon = _recon_choice(view, s.mine, s.enemies, src, self.rng)
        if recon is not None:
            return recon

        if self._avoid:
            # a unit that would stay and fire on a cell to leave steps aside instead
            for uid in movers:
                if self._stays_to_fire(s, s.own[uid]) and self._exposed(s, uid):
                    step = self._sidestep(s, src, uid, threat, mined, gm)
                    if step is not None:
                        return step
        sig = len(s.enemies)
        for uid in movers:
            if self._settled.get(uid) == (view.turn_no, sig):
                continue
            order = self._move(s, src, uid, goals.get(uid), threat, mined, late, gm)
            if order is not None:
                search = (
                    commander.search_ahead(s, uid, goals.get(uid) or s.own[uid].cell, src, self.rng)
                    if mined
                    else None
                )
                return search or order
            self._settled[uid] = (view.turn_no, sig)
            if self.nodes >= level.budget:
                break
        return commander.hide(s, src, self.rng) or src.done

    def _objective_margin(
        self, s: commander.Seen, own_cells: Sequence[Cell], enemy_cells: Sequence[Cell]
    ) -> int:
        """The objectives' part of the VP margin (own less the enemy's) with own units at
        ``own_cells`` and the enemy's SPOTTED ones at ``enemy_cells`` (R-TURN-2: an
        objective scores for the side alone on it)."""
        memo = self._objective_sets
        if memo is None or memo[0] is not s.view:
            sets = tuple(
                (frozenset(_as_cell(c) for c in o.cells), int(o.vp)) for o in s.view.objectives
            )
            memo = self._objective_sets = (s.view, sets)
        total = 0
        for cells, vp in memo[1]:
            mine = any(c in cells for c in own_cells)
            theirs = any(c in cells for c in enemy_cells)
            if mine and not theirs:
                total += vp
            elif theirs and not mine:
                total -= vp
        return total

    def _kill_worth(self, s: commander.Seen, tid: str, own_cells: Sequence[Cell]) -> float:
        """What destroying enemy ``tid`` is worth to the VP margin at the end: the unit (a
        victory point to each side), and the objectives it alone stood on."""
        everyone = [_as_cell(e.cell) for e in s.enemies.values()]
        others = [_as_cell(e.cell) for k, e in s.enemies.items() if k != tid]
        before = self._objective_margin(s, own_cells, everyone)
        after = self._objective_margin(s, own_cells, others)
        return 2.0 + float(after - before)

    def _final_shot(
        self,
        s: commander.Seen,
        u: OwnUnitView,
        tid: str,
        weapon: str | None,
        own_cells: Sequence[Cell],
    ) -> float:
        """A last-word shot's worth to the margin: the kill's worth times its chance, plus
        a little for the damage (a later shot may finish the target)."""
        e = s.enemies[tid]
        pk = _kill_chance(u, e, weapon, s.opts)
        share, _hit = self._shot_worth(s, u, e, weapon)
        return pk * self._kill_worth(s, tid, own_cells) + 0.1 * share

    def _final_plan(self, s: commander.Seen, src: OrderSource, free: Sequence[str]) -> Order | None:
        """A weak attacker's last word (no enemy turn follows): where each unit ends the
        game, chosen for the expected VP margin at the end. A plan gives every unit without
        an order yet one of: stay (and fire in the fire phase), a basic move onto an
        objective cell (no fire), or an attack order (1 KP: it moves to the origin, then
        fires); it is worth the objectives as held with the units where the plan puts them
        (R-TURN-2: an objective scores for the side alone on it) plus, for every enemy the
        firing units can reach, its chance of being destroyed (each firer's kill chance
        from the view's figures) times what that is worth (a victory point each way, and
        the objectives it alone stood on). The plan is improved one unit at a time; its
        first order is given (the next decision plans again from the new view)."""
        view = s.view
        kp = view.kp_of(s.seat)
        mined = commander.known_mined(s)
        enemies = s.enemies
        enemy_cells = {tid: _as_cell(e.cell) for tid, e in enemies.items()}
        kill: dict[tuple[str, str], float] = {}

        def pk(uid: str, tid: str) -> float:
            got = kill.get((uid, tid))
            if got is None:
                got = kill[(uid, tid)] = _kill_chance(s.own[uid], enemies[tid], None, s.opts)
            return got

        # (cell, fires, kp, order) per option; fixed units: where they stand, whether they fire
        fixed: dict[str, tuple[Cell, bool]] = {}
        fixed_aims: dict[str, str] = {}
        seen_cells = set(enemy_cells.values())
        unseen = [
            c
            for c, _card, _w in self._believed(view, "red" if s.side == "blue" else "blue")
            if c not in seen_cells
        ]
        risky: set[tuple[str, int]] = set()

        def zoc_risk(a: Cell, b: Cell) -> int:
            """Cells on the straight way from ``a`` to ``b`` (not ``b``) within an unseen
            believed enemy's zone of control (radius 2, R-ZOC-1)."""
            n = cheb(a, b)
            hits = 0
            for k in range(1, n):
                c = (a[0] + round((b[0] - a[0]) * k / n), a[1] + round((b[1] - a[1]) * k / n))
                hits += any(cheb(c, e) <= 2 for e in unseen)
            return hits

        options: dict[str, list[tuple[Cell, bool, int, Order | None]]] = {}
        for uid, u in s.own.items():
            here = _as_cell(u.cell)
            if uid not in free:
                fires = not u.fired and u.action in (None, "defend", "attack")
                fixed[uid] = (here, fires and not u.weapon.indirect)
                continue
            opts: list[tuple[Cell, bool, int, Order | None]] = [
                (here, not u.weapon.indirect, 0, None)
            ]
            if not u.weapon.indirect:
                for mv in src.of_unit(OrderKind.MOVE, uid):
                    if mv.cell is None:
                        continue
                    c = _as_cell(mv.cell)
                    if c in self._objective_cells and c not in mined:
                        opts.append((c, False, 0, mv))
                if kp > 0 and enemies:
                    reach = attack_reach(u)
                    aimed = frozenset(
                        tid for tid, e in enemies.items() if cheb(here, e.cell) <= reach
                    )
                    if aimed:
                        for o in src.of_unit_at(OrderKind.ATTACK, uid, aimed):
                            if o.cell is None or order_weapon(o) is not None:
                                continue
                            c = _as_cell(o.cell)
                            if c != here and c not in mined:
                                opts.append((c, True, 1, o))

            # a move stops short on entering an enemy's zone of control (R-ZOC-2): the
            # listed moves keep out of the SPOTTED enemies' zones; those of enemies believed
            # where they were last seen weigh against a destination (ties go to the first)
            def preference(
                t: tuple[Cell, bool, int, Order | None], h: Cell = here
            ) -> tuple[int, int, Cell, int]:
                c = t[0]
                return (zoc_risk(h, c), (c[0] - h[0]) ** 2 + (c[1] - h[1]) ** 2, c, t[2])

            opts[1:] = sorted(opts[1:], key=preference)
            risky.update((uid, i) for i, t in enumerate(opts) if i and zoc_risk(here, t[0]))
            options[uid] = opts

        memo: dict[tuple[tuple[str, int], ...], float] = {}
        enemy_order = sorted(enemies)

        def value(choice: dict[str, int]) -> float:
            key = tuple(sorted(choice.items()))
            got = memo.get(key)
            if got is None:
                got = memo[key] = plan_value(choice)
            return got

        def plan_value(choice: dict[str, int]) -> float:
            where: dict[str, tuple[Cell, bool]] = dict(fixed)
            aims = dict(fixed_aims)
            spent = 0
            for uid, i in choice.items():
                c, fires, cost, o = options[uid][i]
                where[uid] = (c, fires)
                spent += cost
                if o is not None and o.kind is OrderKind.ATTACK and o.target in enemies:
                    aims[uid] = o.target  # the attack order's target is the one it fires at
            if spent > kp:
                return -1e9
            doubt = 0.3 * sum(1 for uid, i in choice.items() if (uid, i) in risky)
            own_cells = [c for c, _f in where.values()]
            held = self._objective_margin(s, own_cells, list(enemy_cells.values()))
            # each firer's best target; an enemy's chance to be destroyed by all its firers
            miss: dict[str, float] = {}
            for uid, (c, fires) in sorted(where.items()):
                if not fires:
                    continue
                u = s.own[uid]
                best: tuple[float, str] | None = None
                aim = aims.get(uid)
                for tid in enemy_order if aim is None else [aim]:
                    if not self._fires_at(s, u, c, enemy_cells[tid]):
                        continue
                    p = pk(uid, tid)
                    if best is None or p > best[0]:
                        best = (p, tid)
                if best is not None and best[0] > 0:
                    miss[best[1]] = miss.get(best[1], 1.0) * (1.0 - best[0])
            total = float(held) - doubt
            for tid, m in miss.items():
                others = [enemy_cells[k] for k in enemies if k != tid]
                worth = 2.0 + float(self._objective_margin(s, own_cells, others) - held)
                total += (1.0 - m) * worth
            return total

        choice = dict.fromkeys(options, 0)
        current = value(choice)
        for _round in range(3):
            improved = False
            for uid in sorted(options):
                pick: tuple[float, dict[str, int]] | None = None
                for i in range(len(options[uid])):
                    if i == choice[uid]:
                        continue
                    trial = dict(choice)
                    trial[uid] = i
                    v = value(trial)
                    if v > current + 0.05 and (pick is None or v > pick[0] + 1e-9):
                        pick = (v, trial)
                if pick is not None:
                    current, choice = pick
                    improved = True
            if not improved:
                break
        for uid in sorted(choice):
            order = options[uid][choice[uid]][3]
            if order is not None:
                return order
        return None

    def _rear(self, s: commander.Seen, u: OwnUnitView) -> bool:
        """Whether ``u`` keeps out of the believed enemies' reach like a leader: a leader
        or support weapon; in an assault also a mortar squad and, before the last two
        rounds, an armoured unit (the company's fire base, a victory point when lost)."""
        if _is_leader(u):
            return True
        if not _assault(s):
            return False
        return _mortar(u) or (u.armoured and s.view.rounds - s.view.turn > 1)

    def _due(self, s: commander.Seen, uid: str) -> bool:
        """Whether ``uid``, in an assault, must head for its objective now to stand on it
        at the end: its goal no nearer than the rounds left less
        ``SLACK`` (in its moves over the public map), and not standing on it already."""
        if not _assault(s):
            return False
        goal = self._decision_goals.get(uid)
        u = s.own[uid]
        here = _as_cell(u.cell)
        if goal is None or here == goal or here in self._objective_cells:
            return False
        field = cost_field(s.view.scenario, (goal,))
        to_go = field.get(here, float(cheb(here, goal)) * 1.5)
        return to_go / max(1.0, float(u.movement)) >= (s.view.rounds - s.view.turn) - SLACK

    def _exposed(self, s: commander.Seen, uid: str, cell: Cell | None = None) -> bool:
        """Whether ``uid`` standing in ``cell`` (where it stands) would be on a cell to
        leave (:data:`DODGE`): one an own unit fired from in the side's last turn."""
        here = _as_cell(s.own[uid].cell) if cell is None else cell
        return here in self._avoid

    def _sidestep(
        self,
        s: commander.Seen,
        src: OrderSource,
        uid: str,
        threat: Threat,
        mined: set[Cell],
        gm: Any,
    ) -> Order | None:
        """A short move (at most :data:`SIDESTEP` cells) of ``uid`` off a cell to leave
        (:data:`DODGE`) onto one that is not, the least threatened (cover, then staying in
        range of a SPOTTED enemy for the next turn)."""
        u = s.own[uid]
        here = _as_cell(u.cell)
        strength = max(1, u.strength)
        best: tuple[float, str, Order] | None = None
        for o in src.of_unit(OrderKind.MOVE, uid):
            if o.cell is None:
                continue
            c = _as_cell(o.cell)
            if c in mined or cheb(c, here) > SIDESTEP or self._exposed(s, uid, c):
                continue
            sc = -threat(u, c) / strength + 0.04 * _cover(gm, c)
            if _cover(gm, c) == 0:
                sc -= SIDESTEP_OPEN  # moving in fully open ground in sight is SPOTTED (R-REC-3)
            if any(self._fires_at(s, u, c, _as_cell(e.cell)) for e in s.enemies.values()):
                sc += 0.2
            key = (sc, str(o), o)
            if best is None or key[:2] > best[:2]:
                best = key
        return best[2] if best is not None else None

    def _fires_at(self, s: commander.Seen, u: OwnUnitView, cell: Cell, target: Cell) -> bool:
        """Whether ``u`` standing in ``cell`` could fire at an enemy in ``target``: its
        basic weapon's range, and (:data:`SIGHT`, a weak attacker) the line of sight over
        the public map (R-TER-4: a unit fires only at what it sees)."""
        if not _in_range(u, cheb(cell, target)):
            return False
        if not (SIGHT and _last_word(s.view) and _weak_attacker(s)):
            return True
        return _sees(s.view.scenario, cell, target, int(s.opts.sight_max))

    def _stays_to_fire(self, s: commander.Seen, u: OwnUnitView) -> bool:
        """Whether ``u`` stays where it is to fire for free in the fire phase: a sound unit,
        neither a leader nor a support weapon, already in reach of a SPOTTED enemy (a hook
        the look-ahead player's plans override)."""
        hurt = u.strength * 2 <= u.max_strength
        return (
            not hurt
            and not _is_leader(u)
            and any(
                self._fires_at(s, u, _as_cell(u.cell), _as_cell(e.cell)) for e in s.enemies.values()
            )
        )

    def _last_grab(self, s: commander.Seen, src: OrderSource, free: Sequence[str]) -> Order | None:
        """In the side's last turn: a move onto an objective the side does not stand on —
        an enemy's is contested (it scores for nobody), an empty one taken — by a unit that
        can reach it now and is not the only one holding an objective of its own. The most
        valuable objective first, the strongest unit that can get there."""
        view = s.view
        enemy_side = "red" if s.side == "blue" else "blue"
        mined = commander.known_mined(s)
        cells_of = {o.id: {_as_cell(c) for c in o.cells} for o in view.objectives}
        on: dict[str, list[str]] = {o.id: [] for o in view.objectives}
        for u in s.own.values():
            for oid, cells in cells_of.items():
                if _as_cell(u.cell) in cells:
                    on[oid].append(u.id)

        def worth(o: Any) -> int:
            return int(o.vp) * (2 if o.enemy_seen or o.holder_at_start == enemy_side else 1)

        targets = sorted(
            (o for o in view.objectives if not o.own_present), key=lambda o: (-worth(o), o.id)
        )
        assault = _assault(s)
        for o in targets:
            best: tuple[int, str, Order] | None = None
            for uid in free:
                u = s.own[uid]
                if any(len(ids) == 1 and uid in ids for ids in on.values()):
                    continue  # the only one holding an objective: it stays
                onto = _onto(src, uid, OrderKind.MOVE, cells_of[o.id], mined)
                if not onto and assault:
                    # a unit whose turn began in an enemy's zone of control has no basic
                    # move (R-ZOC-2): it steps onto the objective by withdrawing or
                    # disengaging (R-ZOC-3)
                    onto = _onto(src, uid, OrderKind.WITHDRAW, cells_of[o.id], mined) or _onto(
                        src, uid, OrderKind.DISENGAGE, cells_of[o.id], mined
                    )
                if onto and assault:
                    onto = [
                        mv
                        for mv in onto
                        if mv.cell is None or not self._crosses_mines(s, u, mv.cell)
                    ]
                if onto and assault:
                    # the cell whose zone of control covers most of the objective: an
                    # enemy coming onto it stops in the zone first (R-ZOC-2)
                    onto = [max(onto, key=lambda mv: _covers(mv.cell, cells_of[o.id]))]
                if onto and (best is None or (u.strength, uid) > best[:2]):
                    best = (u.strength, uid, onto[0])
            if best is not None:
                return best[2]
        return None

    def _goals(self, s: commander.Seen, gm: Any) -> dict[str, Cell | None]:
        """Each own unit's objective cell.

        A side that must take objectives (not all of them its own from the start) and is
        strong enough for it (``CONCENTRATE`` units per objective) concentrates: every unit
        heads for the nearest cell of the nearest objective the side does not stand on yet,
        one objective after the other (the baseline's march). A side too weak for that
        takes the most valuable objective with all its fighters; a defender shares its
        fighters out over the objectives by value and distance. Leaders and support
        weapons follow their group's fighters (keeping out of reach, :meth:`_move`)."""
        view = s.view
        objectives = list(view.objectives)
        goals: dict[str, Cell | None] = {}
        if not objectives:
            return {uid: None for uid in s.own}
        own_from_start = all(o.holder_at_start == s.side for o in objectives)
        assault = _assault(s)
        endgame = assault and view.rounds - view.turn <= ENDGAME_ROUNDS
        if not own_from_start and len(s.own) >= CONCENTRATE * len(objectives) and not endgame:
            goals = {uid: _nearest_open_goal(view, u) for uid, u in s.own.items()}
            if _assault(s):
                # an assault on a defender's ground: the armour (until the last two
                # rounds) follows the fighters; a mortar stays where it stands (its range
                # covers the battlefield; measured: it was lost in 85 % of the games when
                # it walked and attacked with the squads)
                rear = [u for u in s.own.values() if self._rear(s, u) and not _is_leader(u)]
                front = [u for u in s.own.values() if not self._rear(s, u)]
                for u in rear:
                    if _mortar(u):
                        goals[u.id] = _as_cell(u.cell)
                        continue
                    mates = [f for f in front if f.group == u.group] or front
                    if mates:
                        cx = round(sum(f.cell[0] for f in mates) / len(mates))
                        cy = round(sum(f.cell[1] for f in mates) / len(mates))
                        goals[u.id] = (int(cx), int(cy))
            return goals
        fighters = [
            u
            for u in s.own.values()
            if _role(u.card) == "none" and not u.weapon.indirect and not (assault and _mortar(u))
        ]
        if not own_from_start and not endgame:
            # an attacker too weak to take them one by one takes the most valuable one
            # (measured on ``demo``: Red split over both lost both; together it holds
            # or contests the crossroads)
            top = max(o.vp for o in objectives)
            objectives = [next(o for o in objectives if o.vp == top)]
        fields = {
            o.id: cost_field(view.scenario, tuple(_as_cell(c) for c in o.cells)) for o in objectives
        }

        def dist(o: Any, cell: Cell) -> float:
            f = fields[o.id]
            if f:
                return f.get(cell, 999.0)
            return float(min(cheb(cell, c) for c in o.cells))

        rounds_left = max(0, view.rounds - view.turn)

        def turns_to(o: Any, u: OwnUnitView) -> float:
            return dist(o, _as_cell(u.cell)) / max(1.0, float(u.movement))

        # objectives no fighter can reach before the end are not worth walking to
        reach_slack = 0.0 if endgame else 1.0
        reachable = [
            o
            for o in objectives
            if any(turns_to(o, u) <= rounds_left + reach_slack for u in fighters)
        ]
        if reachable:
            objectives = reachable
        total_vp = sum(max(1, o.vp) for o in objectives)
        want = {o.id: max(1, round(len(fighters) * max(1, o.vp) / total_vp)) for o in objectives}

        pairs = sorted(
            (dist(o, (int(u.cell[0]), int(u.cell[1]))), u.id, i)
            for u in fighters
            for i, o in enumerate(objectives)
        )
        assigned: dict[str, int] = {}
        count = dict.fromkeys(want, 0)
        for _d, uid, i in pairs:
            o = objectives[i]
            if uid in assigned or count[o.id] >= want[o.id]:
                continue
            assigned[uid] = i
            count[o.id] += 1
        for _d, uid, i in pairs:
            if uid not in assigned:
                assigned[uid] = i
        for uid, i in assigned.items():
            o = objectives[i]
            u = s.own[uid]
            here = (int(u.cell[0]), int(u.cell[1]))
            cells = [(int(c[0]), int(c[1])) for c in o.cells]
            goals[uid] = here if here in cells else min(cells, key=lambda c: (cheb(here, c), c))
        # leaders and support: behind their group's fighters
        for u in s.own.values():
            if u.id in goals:
                continue
            if assault and _mortar(u):
                goals[u.id] = _as_cell(u.cell)
                continue
            mates = [f for f in fighters if f.group == u.group] or fighters
            if not mates:
                goals[u.id] = None
                continue
            cx = round(sum(f.cell[0] for f in mates) / len(mates))
            cy = round(sum(f.cell[1] for f in mates) / len(mates))
            goals[u.id] = (int(cx), int(cy))
        if STAGE_LEADER and not own_from_start and 0 < rounds_left <= STAGE_ROUNDS:
            self._stage_leaders(s, goals, {objectives[i].id for i in assigned.values()})
        return goals

    def _stage_leaders(
        self, s: commander.Seen, goals: dict[str, Cell | None], sent: set[str]
    ) -> None:
        """:data:`STAGE_LEADER`: a weak attacker's leaders' goals become the staging cell
        nearest to each, one move from the most valuable objective no fighter is sent to."""
        if not _weak_attacker(s):
            return
        rest = [o for o in s.view.objectives if o.id not in sent]
        if not rest:
            return
        target = max(rest, key=lambda o: (o.vp, o.id))
        field = cost_field(s.view.scenario, tuple(_as_cell(c) for c in target.cells))
        if not field:
            return
        for u in s.own.values():
            if _role(u.card) == "none" or u.weapon.indirect:
                continue
            move = float(u.movement)
            ring = [c for c, d in field.items() if move - 2.0 <= d <= move - 0.5]
            if ring:
                here = _as_cell(u.cell)
                goals[u.id] = min(ring, key=lambda c: (cheb(here, c), c))

    def _move(
        self,
        s: commander.Seen,
        src: OrderSource,
        uid: str,
        goal: Cell | None,
        threat: Threat,
        mined: set[Cell],
        late: bool,
        gm: Any,
    ) -> Order | None:
        """The listed move of ``uid`` with the best score, if better than staying."""
        view = s.view
        u = s.own[uid]
        level = self.level
        here: Cell = (int(u.cell[0]), int(u.cell[1]))
        leader = _is_leader(u) or self._rear(s, u)
        hurt = u.strength * 2 <= u.max_strength
        objective_cells = {(int(c[0]), int(c[1])) for o in view.objectives for c in o.cells}
        field: dict[Cell, float] = {}
        if goal is not None:
            field = cost_field(view.scenario, (goal,))
        speed = max(1.0, float(u.movement))
        rounds_left = max(0, view.rounds - view.turn)
        to_go = field.get(here, float(cheb(here, goal)) * 1.5) if goal is not None else 0.0
        urgent = late or (goal is not None and to_go / speed >= rounds_left - SLACK)
        careful = uid in self._careful
        if careful:
            urgent = False  # the look-ahead's mode: out of reach whatever the objective
        w_threat = 0.1 if urgent else level.hurt_caution if hurt or careful else level.caution
        if leader:
            w_threat = 2.0 * max(w_threat, level.leader_caution)
        if _last_word(view):
            w_threat = 0.0  # no enemy turn left: only where the units stand counts
        strength = max(1, u.strength)
        dodge = bool(self._avoid) and not leader and not u.armoured
        moves = [o for o in src.of_unit(OrderKind.MOVE, uid) if o.cell is not None]
        if self._stranded(s, u, moves, objective_cells):
            # it cannot stand on an objective at the end: keep it out of reach
            w_threat = max(w_threat, level.hurt_caution)
            goal, field = None, {}

        def score(cell: Cell) -> float:
            self.nodes += 1
            sc = 0.0
            if goal is not None:
                d = field.get(cell) if field else None
                if d is None:
                    d = float(cheb(cell, goal)) * 1.5
                sc -= d / speed
            sc -= w_threat * threat(u, cell) / strength
            if dodge and self._exposed(s, uid, cell):
                sc -= DODGE_PENALTY
            sc += 0.04 * _cover(gm, cell)
            if cell in objective_cells and not leader:
                sc += 1.0 if urgent else 0.3
            if s.enemies and not u.weapon.indirect:
                best = 0.0
                for e in s.enemies.values():
                    if self._fires_at(s, u, cell, _as_cell(e.cell)):
                        best = max(best, float(shot_value(u, e, s.opts)[1]) / max(1, e.strength))
                sc += 0.3 * best
            if level.noise:
                sc += self.rng.gauss(0.0, level.noise) * 0.1
            return sc

        stay = score(here)
        scored: list[tuple[float, int, Order]] = []
        for o in moves:
            if o.cell is None or o.cell in mined:
                continue
            if self.nodes >= level.budget:
                break
            scored.append((score((int(o.cell[0]), int(o.cell[1]))), len(scored), o))
        # the best first (ties: the first listed); one whose way crosses a found
        # minefield is passed over
        for sc, _i, o in sorted(scored, key=lambda t: (-t[0], t[1])):
            if sc <= stay + 0.05:
                break
            if o.cell is not None and self._crosses_mines(s, u, o.cell):
                continue
            return o
        return None

    def _stranded(
        self,
        s: commander.Seen,
        u: OwnUnitView,
        moves: Sequence[Order],
        objective_cells: set[Cell],
    ) -> bool:
        """Whether ``u`` is stranded in an assault's last turn with an enemy turn to follow
        (:data:`STRANDED_SAFE`): off the objectives, and none of its listed ``moves`` ends
        on one."""
        view = s.view
        if not (STRANDED_SAFE and _assault(s)):
            return False
        if view.turn < view.rounds or _last_word(view):
            return False
        if _as_cell(u.cell) in objective_cells:
            return False
        return not any(o.cell is not None and _as_cell(o.cell) in objective_cells for o in moves)

    def _crosses_mines(self, s: commander.Seen, u: OwnUnitView, dest: Sequence[int]) -> bool:
        """Whether ``u``'s move to ``dest`` (in an assault) would cross a found mined cell
        — or, for a unit of the type the field affects (AT: armour, AP: the rest), a cell
        next to one, as minefields are boxes and strips (R-MINE-1): entering one ends the
        move (R-MINE-2), and an armoured vehicle rushing an AT field is immobilised for
        the rest of the battle (R-MINE-4). The way is the engine's cheapest path over the
        public map around the SPOTTED enemies and their zones of control, as the move is
        planned from the side's knowledge (``rules.movement``)."""
        if not (MINE_PATHS and _assault(s)) or s.mines is None or not s.mines.known:
            return False
        cleared = {_as_cell(c) for c in s.mines.clear}
        c_u = card(u.card)
        heavy = bool(u.armoured) and not (c_u is not None and c_u.light)
        avoid: set[Cell] = set()
        for m in s.mines.known:
            c = _as_cell(m.cell)
            avoid.add(c)
            if MINE_NEIGHBOURS and (m.type is None or (m.type == "AT") == heavy):
                avoid.update(area(c, 1))
        avoid -= cleared
        here = _as_cell(u.cell)
        avoid.discard(here)
        goal = _as_cell(dest)
        if goal in avoid:
            return True
        reach = cheb(here, goal)
        if not any(cheb(here, c) <= reach for c in avoid):
            return False
        gm = public_map(s.view.scenario)
        if gm is None or float(u.movement) <= 0:
            return False
        from taistelukentta.grid.movement import path_to  # numpy: only when needed

        blocked = frozenset(_as_cell(e.cell) for e in s.enemies.values())
        r = s.opts.zoc_radius
        stop: set[Cell] = set()
        for b in blocked:  # each SPOTTED enemy's zone of control (R-ZOC-1), on the map
            zone = {(x, y) for x, y in area(b, r) if 0 <= x < gm.width and 0 <= y < gm.height}
            if here not in zone:
                stop |= zone
        try:
            path = path_to(
                gm,
                here,
                goal,
                float(u.movement),
                blocked=blocked,
                stop_cells=frozenset(stop - blocked),
                allow_squeeze=s.opts.diagonal_squeeze,
            )
        except ValueError:
            return False
        return path is not None and any(c in avoid for c in path)

    def _attack(
        self,
        s: commander.Seen,
        src: OrderSource,
        movers: Sequence[str],
        threat: Threat,
        onto: set[Cell] | None = None,
    ) -> Order | None:
        """The attack order (1 KP) worth the most: target worth (share of its strength,
        kill bonus) with at least the level's hit chance, from the listed origin with the
        least threat; with ``onto``, only from an origin in those cells."""
        level = self.level
        wanted: list[tuple[float, str, str, str | None]] = []
        from taistelukentta.bots.knowledge import attack_reach

        for uid in movers:
            u = s.own[uid]
            if u.weapon.indirect or (_mortar(u) and _assault(s)):
                continue
            reach = attack_reach(u)
            for tid, e in s.enemies.items():
                if cheb(u.cell, e.cell) > reach:
                    continue
                worth, hit = self._shot_worth(s, u, e, None)
                if hit >= level.attack_min_hit and worth > 0.15:
                    wanted.append((worth, uid, tid, None))
                if e.armoured:
                    for w in special_weapons(u.card):
                        worth, hit = self._shot_worth(s, u, e, w.id)
                        need = level.attack_min_hit
                        if TANK_HUNT and _tank_target(s, e) and w.at_damage:
                            need = min(need, TANK_MIN_HIT)
                        if hit >= need and worth > 0.15:
                            wanted.append((worth, uid, tid, w.id))
        wanted.sort(key=lambda t: (-t[0], t[1], t[2], t[3] or ""))
        last_word = _last_word(s.view)
        last_turn = s.view.turn >= s.view.rounds
        defending = all(o.holder_at_start == s.side for o in s.view.objectives)
        weak = _weak_attacker(s)
        for worth, uid, tid, wid in wanted:
            u = s.own[uid]
            orders = [
                o
                for o in src.of_unit_at(OrderKind.ATTACK, uid, frozenset({tid}))
                if order_weapon(o) == wid or (wid is not None and order_weapon(o) is not None)
            ]
            goal = self._decision_goals.get(uid)
            if goal is not None and not defending and s.view.rounds - s.view.turn <= 1:
                # an attacker's last rounds: no attack takes the unit away from its objective
                near = cheb(u.cell, goal)
                orders = [o for o in orders if o.cell is None or cheb(o.cell, goal) <= near]
            if goal is not None and self._due(s, uid):
                # due on its objective: an attack only from an origin on the way
                field = cost_field(s.view.scenario, (goal,))
                here_d = field.get(_as_cell(u.cell), 999.0)
                step = 0.5 * max(1, u.movement)
                orders = [
                    o
                    for o in orders
                    if o.cell is not None
                    and (
                        field.get(_as_cell(o.cell), 999.0) <= here_d - step
                        or _as_cell(o.cell) in self._objective_cells
                    )
                ]
            if onto is not None:
                orders = [o for o in orders if o.cell is not None and _as_cell(o.cell) in onto]
            if last_turn and _as_cell(u.cell) in self._objective_cells:
                # the last turn: a unit on an objective keeps standing on one
                orders = [
                    o for o in orders if o.cell is None or _as_cell(o.cell) in self._objective_cells
                ]
            orders = [o for o in orders if o.cell is None or not self._crosses_mines(s, u, o.cell)]
            if not orders:
                continue
            if self._avoid and not u.armoured and not _is_leader(u):
                # never from a cell fired from last turn: the unit steps aside instead
                orders = [
                    o
                    for o in orders
                    if (_as_cell(o.cell) if o.cell else _as_cell(u.cell)) not in self._avoid
                ]
                if not orders:
                    continue
            tank = s.enemies[tid]
            if TANK_HUNT and _tank_target(s, tank) and _at_weapon(u, wid):
                # at a tank: the origin with the best odds over the public map, then the
                # least threat
                def odds_first(
                    o: Order, u: OwnUnitView = u, tank: UnitView = tank, wid: str | None = wid
                ) -> tuple[float, float, str]:
                    at = _as_cell(o.cell) if o.cell else None
                    worth = self._tank_worth(s, u, tank, wid, at)[0]
                    return (-round(worth, 2), threat(u, at or _as_cell(u.cell)), str(o))

                best = min(orders, key=odds_first)
            else:
                best = min(
                    orders,
                    key=lambda o: (
                        threat(u, _as_cell(o.cell) if o.cell else _as_cell(u.cell)),
                        str(o),
                    ),
                )
            if last_word or not (defending or (weak and _is_leader(u))):
                return best
            # a defender (and a weak attacker's leader) weighs the reply: what the attack is
            # worth less what the attacker is expected to lose where it ends up (a loss is
            # a victory point to the enemy)
            weight = level.reply_caution * (2.0 if _is_leader(u) else 1.0)
            cell = _as_cell(best.cell) if best.cell else _as_cell(u.cell)
            exposed = min(1.5, threat(u, cell) / max(1, u.strength))
            if worth - weight * exposed > 0.15:
                return best
        return None


def _filtered(src: OrderSource, keep: Callable[[Order], bool]) -> LazyOrders:
    """``src`` without the orders ``keep`` rejects."""

    def fetch(kind: OrderKind, unit: str | None) -> list[Order]:
        return [o for o in src.of_unit(kind, unit) if keep(o)]

    def fetch_targets(kind: OrderKind, unit: str, targets: frozenset[str]) -> list[Order]:
        return [o for o in src.of_unit_at(kind, unit, targets) if keep(o)]

    return LazyOrders(fetch, src.done, fetch_targets)


def _keep_ground(src: OrderSource, held: frozenset[str]) -> LazyOrders:
    """``src`` without the orders that take a unit of ``held`` off its cell."""
    return _filtered(
        src, lambda o: not (o.unit in held and o.cell is not None and o.kind in _OFF_CELL)
    )


def _no_attacks(src: OrderSource, units: frozenset[str]) -> LazyOrders:
    """``src`` without the attack orders of ``units``."""
    return _filtered(src, lambda o: not (o.kind is OrderKind.ATTACK and o.unit in units))


def _every_origin(src: OrderSource) -> LazyOrders:
    """``src`` whose attack orders asked for per unit (and target) are every attack order
    the seat's whole attack list holds for it — every origin the engine lists — rather
    than the baseline's farthest origins (``runner.attack_candidates``). The whole list is
    fetched once, at the first such question."""
    whole: list[Sequence[Order]] = []

    def attacks() -> Sequence[Order]:
        if not whole:
            whole.append(src.of_kind(OrderKind.ATTACK))
        return whole[0]

    def fetch(kind: OrderKind, unit: str | None) -> list[Order]:
        if kind is OrderKind.ATTACK and unit is not None:
            return [o for o in attacks() if o.unit == unit]
        return list(src.of_unit(kind, unit))

    def fetch_targets(kind: OrderKind, unit: str, targets: frozenset[str]) -> list[Order]:
        if kind is OrderKind.ATTACK:
            return [o for o in attacks() if o.unit == unit and o.target in targets]
        return list(src.of_unit_at(kind, unit, targets))

    return LazyOrders(fetch, src.done, fetch_targets)


def _onto(
    src: OrderSource, uid: str, kind: OrderKind, cells: set[Cell], mined: set[Cell]
) -> list[Order]:
    """``uid``'s listed orders of ``kind`` whose destination is one of ``cells`` (not a
    known mined one)."""
    return [
        mv
        for mv in src.of_unit(kind, uid)
        if mv.cell is not None and _as_cell(mv.cell) in cells and _as_cell(mv.cell) not in mined
    ]


@lru_cache(maxsize=4096)
def _kill_odds(
    bonus: int,
    defence: int,
    advantage: Any,
    damage: str,
    divisor: int,
    halve: bool,
    strength: int,
    rules: tuple[str, str, int, int],
) -> float:
    """The chance that one attack with these terms does at least ``strength`` damage."""
    o = rule_odds(bonus, defence, advantage, damage, divisor, rules)
    heavy = rules[0]
    expr = DiceExpr.of(damage)
    out = Fraction(0)
    for effect, p in ((Effect.HIT, o.hit), (Effect.HEAVY_HIT, o.heavy_hit)):
        if not p:
            continue
        dist = damage_distribution(expr, effect, heavy_hit_extra=heavy, damage_divisor=divisor)
        out += p * sum((q for d, q in dist if (d // 2 if halve else d) >= strength), Fraction(0))
    return float(out)


def _kill_chance(u: OwnUnitView, e: UnitView, weapon: str | None, opts: RuleOptions) -> float:
    """The chance that ``u`` firing at ``e`` (its basic weapon, or the card's ``weapon``)
    destroys it with one shot, from the view's figures (as :func:`knowledge.shot_value`)."""
    c = card(u.card)
    if c is None:
        return 0.0
    armoured = e.armoured
    if weapon is None:
        wv = u.weapon
        damage, at_damage, dtype, divisor = (
            wv.damage,
            wv.at_damage,
            wv.damage_type,
            wv.damage_divisor,
        )
        special = None
    else:
        special = next((w for w in c.weapons if w.id == weapon), None)
        if special is None:
            return 0.0
        damage, at_damage = str(special.damage), special.at_damage
        dtype, divisor = special.damage_type, 1
    halve = False
    if armoured and at_damage:
        damage, divisor = str(at_damage), 1
    elif armoured and dtype == "FRAG":
        if opts.frag_vs_armour != "half":
            return 0.0
        halve = True
    terms = view_attack_terms(u, e, special, opts)
    return _kill_odds(
        terms.bonus,
        terms.defence,
        terms.advantage,
        str(damage),
        int(divisor),
        halve,
        max(1, e.strength),
        _rules(opts),
    )


def _tank_target(s: commander.Seen, e: UnitView) -> bool:
    """Whether ``e`` is a heavy armoured enemy (armoured, not flagged light on its public
    card: a main battle tank) that an assault hunts (:data:`TANK_HUNT`)."""
    if not e.armoured or not e.card or e.side == s.side:
        return False
    c = card(e.card)
    return c is not None and not c.light and _assault(s)


def _at_weapon(u: OwnUnitView, weapon: str | None) -> bool:
    """Whether ``u``'s shot with ``weapon`` (None: its basic weapon) does AT damage."""
    if weapon is None:
        return bool(u.weapon.at_damage)
    c = card(u.card)
    w = next((x for x in c.weapons if x.id == weapon), None) if c is not None else None
    return w is not None and bool(w.at_damage)


def _tank_odds(
    s: commander.Seen,
    u: OwnUnitView,
    e: UnitView,
    weapon: str | None,
    origin: Cell | None,
) -> tuple[float, float, float]:
    """(hit chance, expected damage, kill chance) of ``u`` firing ``weapon`` (None: its
    basic weapon) with AT damage at the armoured ``e`` from ``origin``, with the terms
    the public map gives: the cover on the line of fire and elevation from ``origin``
    (None: the target cell's cover, no elevation), and advantage against a target in fully
    open terrain with no cover (R-ATK-7). Zero from an origin that does not see it."""
    c = card(u.card)
    if c is None:
        return (0.0, 0.0, 0.0)
    basic = next((w for w in c.weapons if w.id == u.weapon.id), None) or next(
        (w for w in c.weapons if w.basic), None
    )
    w = basic if weapon is None else next((x for x in c.weapons if x.id == weapon), None)
    if w is None or basic is None or not w.at_damage:
        return (0.0, 0.0, 0.0)
    opts = s.opts
    gm = public_map(s.view.scenario)
    target = _as_cell(e.cell)
    cover, elevation, fully_open = int(e.cover), 0, False
    if gm is not None:
        fully_open = set(gm.features_at(target)) <= OPEN_FEATURES
        if origin is not None:
            # numpy: only when needed
            from taistelukentta.grid.sight import elevation_modifier, line_of_sight

            sight = line_of_sight(gm, origin, target, max_range=opts.sight_max)
            if not sight.visible:
                return (0.0, 0.0, 0.0)
            cover = sight.cover
            elevation = elevation_modifier(
                gm,
                origin,
                target,
                contours=opts.elevation_advantage_contours,
                bonus=opts.elevation_bonus,
            )
    situation = AttackSituation(
        skill=u.weapon.bonus - basic.attack_bonus,
        weapon_bonus=w.attack_bonus,
        elevation=elevation,
        protection=e.protection,
        cover=cover,
        suppressed="SUPPRESSED" in e.statuses,
        fully_open=fully_open,
    )
    terms = attack_terms(situation, opts)
    damage = str(w.at_damage)
    o = rule_odds(terms.bonus, terms.defence, terms.advantage, damage, 1, _rules(opts))
    pk = _kill_odds(
        terms.bonus,
        terms.defence,
        terms.advantage,
        damage,
        1,
        False,
        max(1, e.strength),
        _rules(opts),
    )
    return (float(o.hit + o.heavy_hit), float(o.expected_damage), pk)


@lru_cache(maxsize=4096)
def _visible(scenario_id: str, cell: Cell, radius: int) -> frozenset[Cell]:
    """The cells a unit in ``cell`` sees on the scenario's public map (R-TER-4), or an
    empty set without a map."""
    gm = public_map(scenario_id)
    if gm is None:
        return frozenset()
    from taistelukentta.grid.sight import visible_cells  # numpy: only when needed

    return frozenset(visible_cells(gm, cell, radius))


def _sees(scenario_id: str, a: Cell, b: Cell, radius: int) -> bool:
    """Whether units in ``a`` and ``b`` see each other on the public map (True without
    a map: the bot cannot tell)."""
    if public_map(scenario_id) is None:
        return True
    return cheb(a, b) <= radius and b in _visible(scenario_id, a, radius)


def _nearest_open_goal(view: SideView, unit: UnitView) -> Cell | None:
    """The nearest cell of the nearest objective the side does not stand on (the cell
    the unit stands on if it is on one)."""
    cell = _as_cell(unit.cell)
    best: tuple[int, int, int] | None = None
    for obj in view.objectives:
        cells = [_as_cell(c) for c in obj.cells]
        if cell in cells:
            return cell
        if obj.own_present:
            continue
        for c in cells:
            key = (cheb(cell, c), c[0], c[1])
            if best is None or key < best:
                best = key
    return None if best is None else (best[1], best[2])


def _assault(s: commander.Seen) -> bool:
    """Whether the side attacks a defender's ground: every objective the enemy's from the
    start (Blue on ``terasvalli``; not ``demo``, whose objectives nobody holds at the
    start), and the side strong enough to take them one by one."""
    objectives = s.view.objectives
    enemy = "red" if s.side == "blue" else "blue"
    if not objectives or any(o.holder_at_start != enemy for o in objectives):
        return False
    return len(s.own) + len(s.view.destroyed.own) >= CONCENTRATE * len(objectives)


def _weak_attacker(s: commander.Seen) -> bool:
    """Whether the side must take objectives (not all its own from the start) and came to
    the battle with fewer than ``CONCENTRATE`` units per objective (its units and its
    losses: a side does not become weak by losing units)."""
    objectives = s.view.objectives
    if not objectives or all(o.holder_at_start == s.side for o in objectives):
        return False
    return len(s.own) + len(s.view.destroyed.own) < CONCENTRATE * len(objectives)


@lru_cache(maxsize=16)
def _enemy_indirect(scenario_id: str, side: str) -> bool:
    """Whether the enemy of ``side`` has a unit with an indirect-fire weapon (a mortar
    squad) in the bundled scenario's public order of battle (Blue's company is public;
    Red's battle groups are the game master's: unknown, so False)."""
    if side != "red":
        return False
    from taistelukentta.content.scenario import bundled_ids, load_scenario

    if scenario_id not in bundled_ids():
        return False
    sc = load_scenario(scenario_id)
    for s, _g, p in sc.placements():
        c = card(p.card) if s == "blue" else None
        if c is not None and any(w.indirect for w in c.weapons):
            return True
    return False


def _last_word(view: SideView) -> bool:
    """Whether this is the last side turn of the game: the last round, and the side moves
    second in it (the enemy has no turn left to reply)."""
    return view.turn >= view.rounds and view.turn_no >= 2 * view.turn


def _covers(cell: Sequence[int] | None, cells: set[Cell]) -> int:
    """How many of ``cells`` lie within one cell of ``cell``."""
    if cell is None:
        return 0
    return sum(1 for c in cells if cheb(c, cell) <= 1)


def _mortar(u: OwnUnitView) -> bool:
    """Whether the unit's card has an indirect-fire weapon (a mortar squad)."""
    c = card(u.card)
    return c is not None and any(w.indirect for w in c.weapons)


def _is_leader(u: OwnUnitView) -> bool:
    """A leader or a support weapon: a victory point to the enemy like any unit when lost,
    but not the one to stand in the enemy's reach."""
    return _role(u.card) != "none" or bool(u.weapon.indirect)


def _in_range(u: OwnUnitView, dist: int) -> bool:
    w = u.weapon
    if dist > w.range:
        return False
    return w.min_range is None or dist >= w.min_range


def _as_cell(c: Sequence[int]) -> Cell:
    return (int(c[0]), int(c[1]))


__all__ = ["LEVELS", "Belief", "Level", "TacticalBot", "public_map"]
