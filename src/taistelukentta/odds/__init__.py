"""Exact odds (icepool / closed forms, ``fractions.Fraction``), never sampled."""

from taistelukentta.odds.exact import (
    AttackOdds,
    Distribution,
    MoraleOdds,
    ReconOdds,
    attack_damage_distribution,
    attack_odds,
    check_odds,
    d20_distribution,
    damage_distribution,
    mean,
    morale_odds,
    recon_odds,
)

__all__ = [
    "AttackOdds",
    "Distribution",
    "MoraleOdds",
    "ReconOdds",
    "attack_damage_distribution",
    "attack_odds",
    "check_odds",
    "d20_distribution",
    "damage_distribution",
    "mean",
    "morale_odds",
    "recon_odds",
]
