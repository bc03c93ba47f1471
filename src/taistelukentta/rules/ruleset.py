"""Rulesets: the rule modules a game plays with, their order handlers and hooks.

A :class:`Ruleset` is an immutable value built from a declared list of
:class:`RuleModule` values, in order. Each module brings

- ``orders``: handlers of order kinds no earlier module handles;
- ``extends``: per kind, a function that gets the handler built so far (the engine's, or
  an earlier module's extension of it) and returns the one that replaces it — the chain is
  the module order, never an import order;
- ``hooks``: functions added to the ruleset's :class:`~taistelukentta.rules.registry.Hooks`,
  called in module order.

A game references its ruleset (:attr:`GameState.ruleset`; None means
:func:`default_ruleset`). The per-scenario caches a ruleset's rules use
(:class:`~taistelukentta.rules.context.ScenarioCache`) belong to the ruleset and the
scenario object together (:meth:`Ruleset.context`), so games of different rulesets and
scenarios in one process never share a cache or a handler table.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from taistelukentta.rules.orders import Order, OrderKind, OrderSyntax, Vocabulary
from taistelukentta.rules.registry import HOOK_NAMES, Hooks, OrderHandler, takes_unit
from taistelukentta.rules.sections import ViewSection
from taistelukentta.rules.state import GameState, Phase, Side

if TYPE_CHECKING:
    from taistelukentta.content.scenario import Scenario
    from taistelukentta.rules.context import ScenarioCache

_T = TypeVar("_T")

Extension = Callable[[OrderHandler], OrderHandler]
"""Gets the handler of a kind as built so far and returns the one that replaces it."""


@dataclass(frozen=True)
class RuleModule:
    """One rule module as a ruleset uses it (see the module docstring)."""

    name: str
    orders: tuple[OrderHandler, ...] = ()
    extends: tuple[tuple[OrderKind, Extension], ...] = ()
    hooks: tuple[tuple[str, Callable[..., Any]], ...] = ()
    provides: tuple[object, ...] = ()
    """What the module offers other modules (typed values of
    :mod:`taistelukentta.rules.services`), found with :meth:`Ruleset.api`."""
    syntax: tuple[OrderSyntax, ...] = ()
    """The grammar of the order kinds the module adds (keyword, Finnish keywords, usage,
    parser): the ruleset's :attr:`Ruleset.vocabulary` is every module's, in order."""
    view: ViewSection | None = None
    """The module's section of the views (its key, models and builder): the ruleset's
    :attr:`Ruleset.view_sections`, which ``views.view_for`` shows."""


class Ruleset:
    """The modules in play, their handlers (a declared chain per kind) and their hooks.

    Immutable once built; compare by identity. :meth:`context` hands out the per-scenario
    caches of this ruleset."""

    def __init__(self, modules: Sequence[RuleModule]) -> None:
        names = [m.name for m in modules]
        if len(set(names)) != len(names):
            raise ValueError(f"a rule module is listed twice: {names}")
        handlers: dict[OrderKind, OrderHandler] = {}
        hooks: dict[str, list[Callable[..., Any]]] = {n: [] for n in HOOK_NAMES}
        apis: dict[type, object] = {}
        for m in modules:
            for api in m.provides:
                if type(api) in apis:
                    raise ValueError(
                        f"module {m.name!r} provides a {type(api).__name__}, which an earlier "
                        "module already provides"
                    )
                apis[type(api)] = api
            for h in m.orders:
                old = handlers.get(h.kind)
                if old is not None:
                    raise ValueError(
                        f"order kind {h.kind.value!r} of module {m.name!r} already has a "
                        f"handler (module {old.module!r}); extend it instead"
                    )
                handlers[h.kind] = h
            for kind, extend in m.extends:
                chained = handlers.get(kind)
                if chained is None:
                    raise ValueError(
                        f"module {m.name!r} extends order kind {kind.value!r}, which no "
                        "earlier module handles"
                    )
                handlers[kind] = extend(chained)
            for name, fn in m.hooks:
                if name not in hooks:
                    raise ValueError(
                        f"module {m.name!r}: unknown hook {name!r} (hooks: {', '.join(HOOK_NAMES)})"
                    )
                hooks[name].append(fn)
        sections: dict[str, ViewSection] = {}
        for m in modules:
            if m.view is None:
                continue
            if m.view.key in sections:
                raise ValueError(
                    f"module {m.name!r}: view section {m.view.key!r} is already another module's"
                )
            sections[m.view.key] = m.view
        self.view_sections: tuple[ViewSection, ...] = tuple(sections.values())
        """Every module's view section, in module order (one per key)."""
        self.memo: dict[str, Any] = {}
        """Per-ruleset values the layers above build once (the view models of a ruleset
        with sections of its own modules, ``views.view``); never rule state."""
        self.vocabulary = Vocabulary(syn for m in modules for syn in m.syntax)
        """The orders of this ruleset's modules: parsing, formatting, keywords."""
        self.modules: tuple[RuleModule, ...] = tuple(modules)
        self.module_names: tuple[str, ...] = tuple(names)
        self.handlers: Mapping[OrderKind, OrderHandler] = handlers
        self.hooks = Hooks(**{n: tuple(fns) for n, fns in hooks.items()})
        self._apis = apis
        self.listing: tuple[OrderHandler, ...] = tuple(
            h for h in handlers.values() if h.legal is not None or h.legal_moves is not None
        )
        """Handlers whose own legal orders ``legal_orders`` adds (table order)."""
        self.unit_listing: Mapping[Phase, tuple[OrderHandler, ...]] = {
            phase: tuple(
                h for h in handlers.values() if h.legal_unit is not None and phase in h.phases
            )
            for phase in (Phase.COMMAND, Phase.FIRE)
        }
        """Per phase, the handlers that list per unit (``legal_unit``), in handler order."""
        self._takes_unit: dict[Callable[..., Any], bool] = {
            fn: takes_unit(fn)
            for h in self.listing
            for fn in (h.legal, h.legal_moves)
            if fn is not None
        }
        self.fire_phase_kinds: tuple[str, ...] = (
            *(
                k.value
                for k in dict.fromkeys([*self.vocabulary.kinds, *handlers])
                if (fh := handlers.get(k)) is not None and Phase.FIRE in fh.phases
            ),
            "done",
        )
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Ruleset({', '.join(self.module_names)})"

    def handler(self, kind: OrderKind) -> OrderHandler | None:
        """The handler of ``kind``, or None if no module of this ruleset handles it."""
        return self.handlers.get(kind)

    def api(self, kind: type[_T]) -> _T | None:
        """What a module of this ruleset offers as ``kind`` (a type of
        :mod:`taistelukentta.rules.services`), or None when no module provides it."""
        found = self._apis.get(kind)
        return found if isinstance(found, kind) else None

    def has(self, module: str) -> bool:
        """Whether module ``module`` is in play."""
        return module in self.module_names

    def call_legal(
        self,
        fn: Callable[..., Iterable[Order]],
        state: GameState,
        seat: str,
        side: Side,
        unit: str | None,
    ) -> Iterable[Order]:
        """``fn(state, seat, side)``, with ``unit=unit`` when a unit is asked for and ``fn``
        takes it (see :class:`OrderHandler`); the caller still filters by unit."""
        if unit is not None and self._takes_unit.get(fn, False):
            return fn(state, seat, side, unit=unit)
        return fn(state, seat, side)

    def without(self, *kinds: OrderKind) -> Ruleset:
        """This ruleset with the handlers of ``kinds`` taken out of every module (a
        version in which nothing handles them)."""
        gone = frozenset(kinds)
        mods = [
            replace(
                m,
                orders=tuple(h for h in m.orders if h.kind not in gone),
                extends=tuple((k, e) for k, e in m.extends if k not in gone),
            )
            for m in self.modules
        ]
        return Ruleset(mods)

    def with_modules(self, *modules: RuleModule) -> Ruleset:
        """This ruleset with ``modules`` added after its own."""
        return Ruleset([*self.modules, *modules])

    def context(self, scenario: Scenario) -> ScenarioCache:
        """The caches of this ruleset for ``scenario``: kept on the scenario object (they
        live and die with it), one per ruleset."""
        found: ScenarioCache | None = scenario.rule_caches.get(self)
        if found is not None and found.scenario is scenario:
            return found
        return self._new_context(scenario)

    def _new_context(self, scenario: Scenario) -> ScenarioCache:
        from taistelukentta.rules.context import ScenarioCache

        store = scenario.rule_caches
        with self._lock:
            found = store.get(self)
            if found is None or found.scenario is not scenario:
                found = ScenarioCache(scenario, self)
                store[self] = found
        return found


DEFAULT_MODULES: tuple[str, ...] = (
    "engine",
    "company",
    "fire_support",
    "mines",
    "abilities",
    "veteran",
)
"""The rule modules of the default ruleset, in order (the order of their hook calls and of
the handler chains: company's ``attack`` extends the engine's, abilities' extends
company's)."""


def load_module(name: str) -> RuleModule:
    """The rule module named ``name``: a bundled one's file name (``"mines"`` is
    ``taistelukentta.rules.mines``) or the dotted path of any importable module (a rule
    module outside the package); the module's ``rule_module()``. ValueError naming it when
    there is no such module or it has no ``rule_module()``."""
    path = name if "." in name else f"taistelukentta.rules.{name}"
    try:
        mod = importlib.import_module(path)
    except ModuleNotFoundError as exc:
        if exc.name is not None and path.startswith(exc.name):
            raise ValueError(f"no rule module {name!r} (no module {path!r})") from None
        raise
    factory = getattr(mod, "rule_module", None)
    found = factory() if callable(factory) else None
    if not isinstance(found, RuleModule):
        raise ValueError(f"module {path!r} has no rule_module() giving a RuleModule")
    return found


def ruleset_from_names(names: Iterable[str]) -> Ruleset:
    """The ruleset of the rule modules named ``names``, in order (:func:`load_module`)."""
    return Ruleset([load_module(name) for name in names])


@cache
def default_ruleset() -> Ruleset:
    """The ruleset of :data:`DEFAULT_MODULES` (built once; immutable): each name is a file
    of ``taistelukentta.rules`` with a ``rule_module()`` — adding a bundled module to every
    game is its file plus its name there."""
    return ruleset_from_names(DEFAULT_MODULES)
