"""The embedded server's request slots, kept per kind of call.

llama.cpp keeps each slot's last prompt in its KV cache and reuses the longest beginning a new
request shares with it. ragtui's kinds of call share none with each other (the customer's
mirrored chat, the simulator's check, the bot's passages and history, the judge's rubric), so on
slots chosen by the server they evict each other's prompts and every call reads its whole
prompt again. Pinned (``id_slot``, sent to the embedded server only: see ``llm.ChatClient``),
each kind's next call finds its own prompt still cached.
"""

from __future__ import annotations

from contextvars import ContextVar

slot_lane: ContextVar[tuple[int, int] | None] = ContextVar("slot_lane", default=None)
"""Set by the engine in each dialogue's task: (its lane, lanes in use), lanes being the dialogues
that run at once. With enough slots on the embedded server each lane's calls keep slots of their
own (``SLOT_PLAN`` per lane), so one dialogue's customer, check, bot and judge prompts stay in
the KV cache for their next call instead of evicting each other."""

SLOT_PLAN = {"user": 1, "check": 1, "bot": 1, "judge": 3}
"""Slots of the embedded server each kind of call keeps, per lane: customer, check and bot
prompts share no prefix with each other, and the judge's prompts come in a few families (the
rubric's checks, other metrics' steps) that would evict each other from one slot."""
SLOTS_PER_LANE = sum(SLOT_PLAN.values())
_SLOT_OFFSET = {kind: sum(list(SLOT_PLAN.values())[:i]) for i, kind in enumerate(SLOT_PLAN)}


class SlotBook:
    """Which prompt each pinned slot of one server last held, so a call goes to the slot of its
    kind whose prompt it shares the longest beginning with (what the server reuses), or to the
    kind's least recently used slot when none shares much: llama.cpp's own choice by prompt
    similarity, but among the slots of one kind only."""

    SIMILAR = 0.25  # share of the new prompt a slot's must begin with to count as its family

    def __init__(self) -> None:
        self._prompts: dict[int, str] = {}
        self._used: dict[int, int] = {}
        self._clock = 0

    def choose(self, kind: str, lane: int, prompt: str) -> int:
        first = lane * SLOTS_PER_LANE + _SLOT_OFFSET[kind]
        slots = range(first, first + SLOT_PLAN[kind])
        shared = {slot: _common_prefix(prompt, self._prompts.get(slot, "")) for slot in slots}
        best = max(slots, key=lambda slot: (shared[slot], -self._used.get(slot, -1)))
        if shared[best] < self.SIMILAR * len(prompt):
            best = min(slots, key=lambda slot: self._used.get(slot, -1))
        self._clock += 1
        self._prompts[best], self._used[best] = prompt, self._clock
        return best


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
