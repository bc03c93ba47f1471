"""The hub's wake-ups (server/hub.py): a change another process announced is read into the
process's cache once, then every connection of the game is woken; an announcement of a
version already announced wakes nobody; a failed catch-up still wakes the connections (they
read the database themselves); a woken connection and a catch-up count as urgent work
(``Priority``) until done, and answer builds wait for them — a Blue seat's build never for
its game's work Blue may not know of (issue 8: no timing channel keyed on the GM's orders).
The two-process behaviour end to end over real servers is in test_multiprocess.py and
test_versions.py."""

from __future__ import annotations

import asyncio
import threading
import time

from taistelukentta.server.games import Priority
from taistelukentta.server.hub import Hub


class Cache:
    """What the hub asks of the store: how far the cached game is, and a catch-up."""

    def __init__(self, version: int, fail: bool = False) -> None:
        self.version = version
        self.fail = fail
        self.calls: list[str] = []
        self.gate = threading.Event()

    def behind(self, game_id: str, version: int) -> bool:
        return self.version < version

    def catch_up(self, game_id: str) -> None:
        self.calls.append(game_id)
        self.gate.wait(5)
        if self.fail:
            raise RuntimeError("database gone")
        self.version = 99


def _run(cache: Cache, steps: int) -> tuple[list[asyncio.Event], list[bool]]:
    async def main() -> tuple[list[asyncio.Event], list[bool]]:
        hub = Hub(Priority())
        hub.bind(asyncio.get_running_loop())
        hub.follow(cache.behind, cache.catch_up)
        events = [hub.subscribe("g") for _ in range(4)]
        seen: list[bool] = []
        hub.wake("g", 5)  # another process's change: the cache is at 3
        hub.wake("g", 5)  # the same announcement again
        await asyncio.sleep(0.05)
        seen.append(any(ev.is_set() for ev in events))  # not before the catch-up
        cache.gate.set()
        for _ in range(steps):
            await asyncio.sleep(0.02)
        seen.append(all(ev.is_set() for ev in events))
        for ev in events:
            ev.clear()
        hub.wake("g", 5)  # announced already: nobody is woken
        hub.wake("g", 4)
        await asyncio.sleep(0.05)
        seen.append(any(ev.is_set() for ev in events))
        return events, seen

    return asyncio.run(main())


def test_a_change_of_another_process_is_read_once_then_every_connection_is_woken() -> None:
    cache = Cache(version=3)
    _, seen = _run(cache, 10)
    assert cache.calls == ["g"]
    assert seen == [False, True, False]


def test_a_failed_catch_up_still_wakes_the_connections() -> None:
    cache = Cache(version=3, fail=True)
    _, seen = _run(cache, 10)
    assert cache.calls == ["g"]
    assert seen == [False, True, False]


def test_a_change_of_this_process_wakes_at_once_without_a_catch_up() -> None:
    async def main() -> bool:
        cache = Cache(version=7)
        hub = Hub(Priority())
        hub.bind(asyncio.get_running_loop())
        hub.follow(cache.behind, cache.catch_up)
        ev = hub.subscribe("g")
        hub.wake("g", 7)
        await asyncio.sleep(0.05)
        return ev.is_set() and not cache.calls

    assert asyncio.run(main())


def test_priority_wait_calm_waits_for_the_urgent_work_and_no_longer_than_its_patience() -> None:
    prio = Priority(patience=2.0)
    t0 = time.perf_counter()
    prio.wait_calm()  # nothing under way: at once
    assert time.perf_counter() - t0 < 0.5
    prio.begin()
    prio.begin()
    waited: list[float] = []

    def build() -> None:
        start = time.perf_counter()
        prio.wait_calm()
        waited.append(time.perf_counter() - start)

    worker = threading.Thread(target=build)
    worker.start()
    time.sleep(0.2)
    prio.end()
    time.sleep(0.1)
    assert not waited  # one piece still under way
    prio.end()
    worker.join(5)
    assert len(waited) == 1 and 0.25 <= waited[0] < 1.5
    assert prio.busy == 0
    prio.end()  # never below zero
    assert prio.busy == 0
    impatient = Priority(patience=0.1)
    impatient.begin()
    t0 = time.perf_counter()
    impatient.wait_calm()  # the work never ends: the build goes ahead after its patience
    assert 0.08 <= time.perf_counter() - t0 < 1.0


def test_a_woken_connection_is_urgent_until_it_has_sent_or_goes_away() -> None:
    async def main() -> list[int]:
        prio = Priority()
        hub = Hub(prio)
        hub.bind(asyncio.get_running_loop())
        a, b = hub.subscribe("g"), hub.subscribe("g")
        other = hub.subscribe("h")
        busy = [prio.busy]
        hub.wake("g", 1)
        hub.wake("g", 2)  # before anyone sent: each connection is woken (counted) once
        await asyncio.sleep(0.02)
        busy.append(prio.busy)
        assert hub.take(a) and not a.is_set()
        hub.sent("g")  # a has sent
        busy.append(prio.busy)
        hub.unsubscribe("g", b)  # b went away before it sent
        busy.append(prio.busy)
        assert not hub.take(other)  # never woken: nothing to count
        hub.wake("h", 1)
        hub.wake("g", 3)
        await asyncio.sleep(0.02)
        busy.append(prio.busy)
        hub.unsubscribe("h", other)
        assert hub.take(a)
        hub.sent("g")
        busy.append(prio.busy)
        return busy

    assert asyncio.run(main()) == [0, 2, 1, 0, 2, 0]


def test_a_catch_up_is_urgent_until_it_is_done() -> None:
    async def main() -> list[int]:
        prio = Priority()
        cache = Cache(version=3)
        hub = Hub(prio)
        hub.bind(asyncio.get_running_loop())
        hub.follow(cache.behind, cache.catch_up)
        ev = hub.subscribe("g")
        hub.wake("g", 5)
        await asyncio.sleep(0.05)
        busy = [prio.busy]  # reading the change in
        cache.gate.set()
        for _ in range(10):
            await asyncio.sleep(0.02)
        busy.append(prio.busy)  # caught up; the connection woken, not yet sent
        assert hub.take(ev)
        hub.sent("g")
        busy.append(prio.busy)
        return busy

    assert asyncio.run(main()) == [1, 1, 0]


def test_a_blue_build_never_waits_for_its_games_work_blue_may_not_know_of() -> None:
    """Issue 8, a timing channel: had a Blue seat's view build waited for the GM's order
    under way in its game, how long Blue's answer took would tell Blue that the GM is
    giving a (hidden) order now. The GM's build and other games' builds still wait."""
    prio = Priority(patience=30.0)
    prio.begin("g")  # the GM's order in game g (or an undo, a wake-up, a catch-up)
    assert prio.pending("g", blue=True) == 0
    assert prio.pending("g") == 1  # the GM knows everything: waits for it
    assert prio.pending("h", blue=True) == 1  # another game's secret is no secret of h's
    t0 = time.perf_counter()
    prio.wait_calm("g", blue=True)
    assert time.perf_counter() - t0 < 5.0  # at once, not after its 30 s patience
    prio.begin("g", blue_knows=True)  # a Blue seat's order in g: Blue's builds wait
    assert (prio.pending("g", blue=True), prio.pending("g"), prio.busy) == (1, 2, 2)

    done: dict[str, float] = {}

    def build(name: str, blue: bool) -> None:
        prio.wait_calm("g", blue=blue)
        done[name] = time.perf_counter()

    threads = [
        threading.Thread(target=build, args=(n, b)) for n, b in (("blue", True), ("gm", False))
    ]
    for t in threads:
        t.start()
    time.sleep(0.2)
    assert not done
    prio.end("g", blue_knows=True)  # the Blue order is done: Blue's build goes ahead
    threads[0].join(5)
    assert "blue" in done and "gm" not in done
    prio.end("g")  # the GM's order is done
    threads[1].join(5)
    assert "gm" in done
    assert prio.busy == 0 and prio.pending("g", blue=True) == 0
    prio.end("g")  # never below zero, the per-game count included
    assert (prio.busy, prio.pending("g"), prio.pending("g", blue=True)) == (0, 0, 0)


def test_a_wake_up_is_work_a_blue_build_of_its_game_does_not_wait_for() -> None:
    async def main() -> list[tuple[int, int, int]]:
        prio = Priority()
        hub = Hub(prio)
        hub.bind(asyncio.get_running_loop())
        ev = hub.subscribe("g")
        hub.wake("g", 1)  # the change may be the GM's hidden order
        await asyncio.sleep(0.02)
        seen = [(prio.busy, prio.pending("g", blue=True), prio.pending("h", blue=True))]
        assert hub.take(ev)
        hub.sent("g")
        seen.append((prio.busy, prio.pending("g", blue=True), prio.pending("h", blue=True)))
        hub.unsubscribe("g", ev)
        return seen

    assert asyncio.run(main()) == [(1, 0, 1), (0, 0, 0)]
