"""The endpoint's request slots, shared by the items being generated at once: a slot free goes to
the waiting item earliest in the plan, so items finish roughly in plan order and the progress
line moves as they do (a plain semaphore would let every item's first call go before any item's
second)."""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class Slots:
    def __init__(self, count: int) -> None:
        self._free = max(1, count)
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = 0  # ties (one item's two waits never overlap, but be safe): first come first

    @asynccontextmanager
    async def hold(self, priority: int) -> AsyncIterator[None]:
        await self._acquire(priority)
        try:
            yield
        finally:
            self._release()

    async def _acquire(self, priority: int) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._order += 1
        heapq.heappush(self._waiting, (priority, self._order, future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release()  # granted as it was cancelled: pass the slot on
            raise

    def _release(self) -> None:
        while self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                future.set_result(None)
                return
        self._free += 1
