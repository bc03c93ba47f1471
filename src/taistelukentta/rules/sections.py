"""Typed view sections: the base of every view model and what a rule module declares to
show its state in the views (docs/extending.md).

A rule module contributes its part of a view as a :class:`ViewSection` in its
``RuleModule.view``: the key of the view it appears under, the pydantic models of a side's
copy and the game master's copy, and the builder that makes the viewer's copy from the
game state (a whitelist: build a side's copy with :func:`pick` from the model of what that
side may see). :func:`taistelukentta.views.view_for` asks every section of the game's
ruleset; the models are the module's own (defined in its file), so adding a module with a
section of its own changes no central file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

if TYPE_CHECKING:
    from taistelukentta.rules.state import GameState

M = TypeVar("M", bound="ViewModel")


class ViewModel(BaseModel):
    """Base of every view model: frozen, no unknown keys, optional fields left out of the
    JSON when they were not given."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    _optional: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._optional = frozenset(
            name for name, f in cls.model_fields.items() if not f.is_required()
        )

    @model_serializer(mode="wrap")
    def _leave_out_unset(self, handler: SerializerFunctionWrapHandler) -> Any:
        out = handler(self)
        if self._optional and isinstance(out, dict):
            given = self.model_fields_set
            for name in self._optional:
                if name not in given:
                    out.pop(name, None)
        return out


def _keys(model: type[BaseModel]) -> frozenset[str]:
    """The JSON keys ``model`` declares (a field's alias where it has one)."""
    return frozenset(f.alias or name for name, f in model.model_fields.items())


def pick(model: type[M], raw: Mapping[str, Any]) -> M:
    """``model`` built from the keys of ``raw`` it declares, and only those (a whitelist:
    any other key of ``raw`` is not copied)."""
    keys = _keys(model)
    return model.model_validate({k: v for k, v in raw.items() if k in keys})


def unpicked(model: type[BaseModel], raw: Mapping[str, Any]) -> set[str]:
    """The keys of ``raw`` :func:`pick` would leave out (for tests: a key the engine
    records that no model shows)."""
    return set(raw) - _keys(model)


class EmptySection(ViewModel):
    """A rule module's section when the viewer sees nothing of it (``{}``)."""


@dataclass(frozen=True, slots=True)
class ViewSection:
    """A rule module's section of the views.

    ``key`` is the view's key it is shown under (one per ruleset); ``side`` and ``gm`` the
    models of a side's and of the game master's copy (they type the view models and their
    JSON Schema); ``build(state, viewer)`` makes ``viewer``'s copy (``viewer`` is
    ``"blue"``, ``"red"`` or ``"gm"``) — an instance of ``side`` (or ``gm``), or None when
    the viewer sees nothing of it (shown as ``{}``). Use only what ``viewer`` may know."""

    key: str
    side: type[ViewModel]
    gm: type[ViewModel]
    build: Callable[[GameState, str], ViewModel | None]
