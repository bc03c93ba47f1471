"""The hub's wake-ups (server/hub.py): a change another process announced is read into the
process's cache once, then every connection of the game is woken; an announcement of a
version already announced wakes nobody; a failed catch-up still wakes the connections (they
read the database themselves). The two-process behaviour end to end over real servers is in
test_multiprocess.py and test_versions.py."""

from __future__ import annotations

import asyncio
import threading

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
        hub = Hub()
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
        hub = Hub()
        hub.bind(asyncio.get_running_loop())
        hub.follow(cache.behind, cache.catch_up)
        ev = hub.subscribe("g")
        hub.wake("g", 7)
        await asyncio.sleep(0.05)
        return ev.is_set() and not cache.calls

    assert asyncio.run(main())
