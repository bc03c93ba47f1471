"""Whose order comes next (R-TURN-1): a fact of the game state, for every player and bot."""

from __future__ import annotations

from taistelukentta.rules.state import GameState


def next_seat(state: GameState) -> str | None:
    """The seat that gives the next order: the first seat of the side to move that has not
    ended the phase (``done``); None when the game is over."""
    if state.finished:
        return None
    return next((s for s in state.seats(state.active) if s not in state.done), None)
