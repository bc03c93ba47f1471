"""Per-side views: the only way game state reaches a player (R-REC-5, R-DICE-6)."""

from taistelukentta.views.estimate import (
    AttackEstimate,
    StrikeEstimate,
    StrikeExposure,
    attack_estimate,
    strike_estimate,
)
from taistelukentta.views.view import VIEW_FORMAT, redact, resolve_viewer, view_for

__all__ = [
    "VIEW_FORMAT",
    "AttackEstimate",
    "StrikeEstimate",
    "StrikeExposure",
    "attack_estimate",
    "redact",
    "resolve_viewer",
    "strike_estimate",
    "view_for",
]
