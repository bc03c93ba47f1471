"""The HMAC-SHA-256 dice scheme: determinism, version dispatch, uniformity, secrecy
(R-DICE-2, R-DICE-6)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.content.scenario import load_scenario
from taistelukentta.dice.roller import (
    HMAC_SCHEME,
    LEGACY_SCHEME,
    Roller,
    derive_int,
    fresh_seed,
    parse_seed,
    seed_commitment,
    seed_text,
)
from taistelukentta.errors import ArgumentError
from taistelukentta.rules import GameState, apply, legal_orders, new_game
from taistelukentta.storage.gamefile import GameRecord, OrderEntry, parse_game

SEED = bytes(range(32))


def _rolls(roller: Roller, n: int = 60) -> list[int]:
    out = []
    for i in range(n):
        out.append(roller.d20(f"a{i}").total)
        out.append(roller.roll("2d6+1", f"b{i}").total)
        out.append(roller.roll("d10", f"c{i}").total)
    return out


def test_r_dice_2_hmac_same_seed_same_rolls_other_seed_other_rolls() -> None:
    assert _rolls(Roller(SEED)) == _rolls(Roller(SEED))
    assert _rolls(Roller(SEED)) != _rolls(Roller(bytes(32)))
    assert Roller(SEED).scheme == HMAC_SCHEME and Roller(5).scheme == LEGACY_SCHEME


def test_r_dice_2_hmac_stream_is_the_documented_construction() -> None:
    # The first block of the stream is HMAC-SHA-256(seed, b"dice" || 0 as 8 bytes); a d2
    # accepts every byte, so its faces are the block's bytes mod 2, plus one.
    block = hmac.new(SEED, b"dice" + (0).to_bytes(8, "big"), hashlib.sha256).digest()
    roller = Roller(SEED)
    assert [roller.roll("d2", "x").total for _ in range(32)] == [b % 2 + 1 for b in block]
    # The next die comes from the second block.
    second = hmac.new(SEED, b"dice" + (1).to_bytes(8, "big"), hashlib.sha256).digest()
    assert roller.roll("d2", "x").total == second[0] % 2 + 1


def test_r_dice_2_hmac_rejection_sampling_skips_the_biased_tail() -> None:
    # For a d20 the bytes 240..255 would favour faces 1..16: they are skipped.
    block = hmac.new(SEED, b"dice" + (0).to_bytes(8, "big"), hashlib.sha256).digest()
    expected = [b % 20 + 1 for b in block if b < 240]
    roller = Roller(SEED)
    got = [roller.d20("x").total for _ in range(len(expected))]
    assert got == expected
    assert roller.getstate()["pos"] == 1 + max(i for i, b in enumerate(block) if b < 240)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    before=st.integers(0, 80),
    sides=st.sampled_from([2, 4, 6, 8, 10, 12, 20]),
)
def test_r_dice_2_hmac_state_round_trips_at_any_point(seed: bytes, before: int, sides: int) -> None:
    roller = Roller(seed)
    for _ in range(before):
        roller.roll(f"d{sides}", "warm-up")
    copy = Roller.from_state(json.loads(json.dumps(roller.getstate())))
    assert copy.getstate() == roller.getstate()
    assert [copy.roll("3d6", "x").total for _ in range(40)] == [
        roller.roll("3d6", "x").total for _ in range(40)
    ]
    assert copy.log[0].seq == before + 1


@pytest.mark.parametrize("sides", [2, 4, 6, 8, 10, 12, 20])
def test_r_dice_2_hmac_faces_are_uniform(sides: int) -> None:
    """Chi-square goodness of fit over 20 000 dice of one size: a fair die fails this at
    the 0.1 % level once in a thousand runs; the seed is fixed so the test is stable."""
    n = 20_000
    roller = Roller(hashlib.sha256(f"uniform-{sides}".encode()).digest())
    counts = Counter(roller.roll(f"d{sides}", "u").total for _ in range(n))
    assert set(counts) == set(range(1, sides + 1))
    expected = n / sides
    stat = sum((counts[f] - expected) ** 2 / expected for f in range(1, sides + 1))
    from scipy.stats import chi2  # here: scipy.stats costs each test process ~1 s to import

    assert stat < chi2.ppf(0.999, sides - 1)


def test_r_dice_2_hmac_consecutive_d20s_are_independent() -> None:
    """Chi-square test of independence of consecutive pairs of d20s (400 cells)."""
    n = 80_000
    roller = Roller(hashlib.sha256(b"pairs").digest())
    faces = [roller.d20("p").total for _ in range(2 * n)]
    pairs = Counter(zip(faces[::2], faces[1::2], strict=True))
    expected = n / 400
    cells = [(a, b) for a in range(1, 21) for b in range(1, 21)]
    stat = sum((pairs[c] - expected) ** 2 / expected for c in cells)
    from scipy.stats import chi2

    assert stat < chi2.ppf(0.999, 399)


def test_r_dice_2_legacy_scheme_rolls_as_before() -> None:
    """Games made before the HMAC scheme replay: an integer seed still feeds Python's
    Mersenne Twister exactly as the old roller did."""
    import random

    rng = random.Random(2026)
    roller = Roller(2026)
    assert [roller.roll("d6", "x").total for _ in range(50)] == [
        rng.randrange(6) + 1 for _ in range(50)
    ]
    assert roller.getstate()["version"] == 1


def test_r_dice_2_broken_hmac_states_are_argument_errors() -> None:
    good = Roller(SEED).getstate()
    for broken in (
        {**good, "scheme": "chacha"},
        {**good, "seed": "zz"},
        {**good, "pos": -1},
        {k: v for k, v in good.items() if k != "pos"},
    ):
        with pytest.raises(ArgumentError, match="roller state"):
            Roller.from_state(broken)
    with pytest.raises(ArgumentError, match="32 bytes"):
        Roller(b"short")


def test_fresh_seeds_are_256_bit_and_commitments_are_sha256() -> None:
    seeds = {fresh_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(len(s) == 32 for s in seeds)
    s = next(iter(seeds))
    assert seed_commitment(s) == hashlib.sha256(s).hexdigest()
    assert seed_commitment(12) is None
    assert parse_seed(seed_text(s)) == s and parse_seed(seed_text(12)) == 12
    with pytest.raises(ArgumentError, match="seed"):
        parse_seed("not-a-seed")


def test_derived_numbers_are_one_way_and_separate_from_the_dice() -> None:
    a, b = derive_int(SEED, "bot:blue"), derive_int(SEED, "bot:red")
    assert a != b and a == derive_int(SEED, "bot:blue")
    first_die_block = hmac.new(SEED, b"dice" + bytes(8), hashlib.sha256).digest()
    assert a != int.from_bytes(first_die_block[:8], "big")


def _play(state: GameState, n: int) -> tuple[GameState, list[tuple[str, str]]]:
    played: list[tuple[str, str]] = []
    for _ in range(n):
        if state.finished:
            break
        seat = next(s for s in state.seats(state.active) if s not in state.done)
        orders = legal_orders(state, seat)
        order = orders[len(played) * 7 % len(orders)]
        played.append((seat, str(order)))
        state, _ = apply(state, seat, order)
    return state, played


def test_r_dice_2_same_hmac_seed_and_orders_same_game_and_file_replays() -> None:
    from taistelukentta.storage.session import replay_record

    scenario = load_scenario("demo")
    seed = fresh_seed()
    state, played = _play(new_game(scenario, seed), 120)
    record = GameRecord(
        "demo",
        seed,
        [OrderEntry(s, o) for s, o in played],
        state.to_dict(),
        state.state_hash(),
    )
    text = record.to_json()
    doc = json.loads(text)
    assert doc["dice"] == "hmac-sha256" and doc["seed"] == seed.hex()
    parsed = parse_game(text, "x.json")
    assert parsed.seed == seed
    _, again = replay_record(parsed, "x.json")
    assert again.state_hash() == state.state_hash()
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict())), scenario).state_hash() == (
        state.state_hash()
    )
    # A legacy file (no "dice" key, integer seed) still means the Mersenne Twister.
    legacy = json.loads(text)
    del legacy["dice"]
    legacy["seed"] = 5
    assert parse_game(json.dumps(legacy), "old.json").seed == 5
