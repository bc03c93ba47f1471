"""The server's fast JSON of a view model (``present.model_json``: pydantic's compiled
``exclude_unset`` instead of the view models' Python wrap serializer) is the models' own
JSON, for every seat's view along random games (with and without their logs)."""

from __future__ import annotations

import random

from taistelukentta.dice.roller import parse_seed
from taistelukentta.rules import GM_SEAT, apply, legal_orders, new_game, next_seat
from taistelukentta.server.games import scenario_for
from taistelukentta.server.present import model_json
from taistelukentta.views import view_for

SEED = parse_seed("29" * 32)


def test_model_json_equals_the_view_models_own_json_along_random_games() -> None:
    for scenario_id, seed in (("demo", 3), ("terasvalli", 4)):
        rng = random.Random(seed)
        state = new_game(scenario_for(scenario_id, {}), SEED)
        seats = [*state.seats("blue"), GM_SEAT, "blue", "red"]
        checked = 0
        for step in range(60):
            if step % 6 == 0:
                for seat in seats:
                    for limit in (0, None):
                        model = view_for(state, seat, log_limit=limit)
                        assert model_json(model) == model.model_dump_json(), (scenario_id, seat)
                        checked += 1
            seat_now = next_seat(state)
            if seat_now is None:
                break
            orders = legal_orders(state, seat_now)
            order = orders[-1] if rng.random() < 0.3 else rng.choice(orders)
            state, _ = apply(state, seat_now, order)
        assert checked > 40
