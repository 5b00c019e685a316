"""The blind test: can the judge tell the real customer from the simulated one?

For each pair (``pairing``) the judge — the ``judge`` role's model — is shown the two customer
messages as A and B and asked which one the real customer typed (``prompts/<lang>/realism_blind``),
with a one-token answer read from its probabilities (``metrics.level_question``): P(A).

**Position bias.** Every pair is asked in both orders; which order goes first is drawn from the
seeded RNG and recorded. The pair's outcome:
- ``right``: both orders picked the real message;
- ``wrong``: both picked the simulated one;
- ``split``: both picked the same *position* (A both times, or B both times) — the judge chose by
  where a message stood, not by what it said, and the pair counts half;
- ``unanswered``: an order's reply named neither letter (or put equal probability on both), or the
  call failed. Shown with its reason, and left out of the accuracy — never guessed.

Accuracy = (right + split / 2) / answered pairs, with a Wilson 95% interval over the answered
pairs. A judge that always answers "A" scores exactly 50%: near 50% means the judge could not tell
the two apart — on these pairs, for this judge — and ``first_share`` shows how often it picked the
first-shown message, so a judge that reads position only is seen for what it is.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ...content.prompts import PromptTemplate
from ...metrics.dialogue.base import load_bundled_fallback
from ...metrics.level_question import ask_level
from ...models.llm import ChatClient, Message
from ...types.errors import EndpointError
from .pairing import Pair
from .stats import Estimate, share, wilson

KIND = "realism_blind"
# The letters the judge may answer with; a Japanese judge may write them full-width.
LEVELS: dict[str, float] = {"a": 1.0, "b": 0.0, "ａ": 1.0, "ｂ": 0.0}


@dataclass(frozen=True)
class Asked:
    """One question: the pair shown in one order, and how the judge answered."""

    real_first: bool  # the real customer's message was shown as A
    p_first: float | None  # P(the judge names A), None: unanswered
    read: str  # "probability" | "sampled" | "none" | "error"
    reply: str  # the judge's raw reply (the retry's when it was asked twice)
    error: str | None = None  # the call failed (read "error")
    note: str | None = None  # why its probabilities name no letter, when they were read

    @property
    def picked_first(self) -> bool | None:
        """Which position the judge named; None when unanswered or exactly undecided."""
        if self.p_first is None or self.p_first == 0.5:
            return None
        return self.p_first > 0.5

    @property
    def picked_real(self) -> bool | None:
        first = self.picked_first
        return None if first is None else first == self.real_first

    @property
    def p_real(self) -> float | None:
        """P(the judge names the real customer's message)."""
        if self.p_first is None:
            return None
        return self.p_first if self.real_first else 1 - self.p_first

    @property
    def why_unanswered(self) -> str:
        if self.error:
            return self.error
        if self.note:
            return self.note
        if self.p_first == 0.5:
            return "the judge put equal probability on A and B"
        return f"the reply names neither A nor B: {self.reply[:60]!r}"


@dataclass(frozen=True)
class PairResult:
    pair: Pair
    asked: tuple[Asked, ...]  # in the order asked

    @property
    def outcome(self) -> str:
        picks = [a.picked_real for a in self.asked]
        if any(p is None for p in picks):
            return "unanswered"
        if all(picks):
            return "right"
        if not any(picks):
            return "wrong"
        return "split"

    @property
    def p_real(self) -> float | None:
        """The judge's P(real) averaged over both orders: its belief with position taken out."""
        values = [a.p_real for a in self.asked]
        if any(v is None for v in values):
            return None
        return sum(v for v in values if v is not None) / len(values)


@dataclass(frozen=True)
class BlindTest:
    model: str
    language: str
    results: list[PairResult]
    seed: int

    def count(self, outcome: str) -> int:
        return sum(1 for r in self.results if r.outcome == outcome)

    @property
    def answered(self) -> int:
        return len(self.results) - self.count("unanswered")

    @property
    def accuracy(self) -> Estimate:
        n = self.answered
        hits = self.count("right") + self.count("split") / 2
        found = wilson(hits, n)
        if found is None:
            return Estimate(None, None, None, 0, 0)
        return Estimate(hits / n, found[0], found[1], n, n)

    @property
    def first_share(self) -> Estimate:
        """How often a readable answer named the message shown first (A)."""
        picks = [a.picked_first for r in self.results for a in r.asked if a.picked_first is not None]
        return share(sum(1 for p in picks if p), len(picks))

    @property
    def mean_p_real(self) -> float | None:
        values = [r.p_real for r in self.results if r.outcome != "unanswered" and r.p_real is not None]
        return sum(values) / len(values) if values else None

    @property
    def unanswered_reasons(self) -> list[str]:
        return [a.why_unanswered for r in self.results for a in r.asked if a.picked_first is None]

    @property
    def reading(self) -> str:
        """What the accuracy says, in one sentence."""
        acc = self.accuracy
        if acc.value is None or acc.low is None or acc.high is None:
            return "no pair was answered: the test says nothing"
        if self.count("split") * 2 >= self.answered:
            return (
                "the judge chose by position on most pairs (the same letter in both orders): "
                "the accuracy says little about the customers"
            )
        if acc.low > 0.5:
            return "the judge told the real customer from the simulated one more often than chance"
        if acc.high < 0.5:
            return "the judge took the simulated customer for the real one more often than chance"
        return "the judge could not tell them apart on these pairs (the interval includes 50%)"


@dataclass
class BlindJudge:
    """Asks the judge about pairs; ``on_asked`` is told after every question (progress)."""

    client: ChatClient
    template: PromptTemplate
    concurrency: int = 4
    on_asked: Callable[[Asked], None] | None = None
    _gate: asyncio.Semaphore | None = field(default=None, repr=False)

    @classmethod
    def load(cls, client: ChatClient, prompts_dir: Path | None, language: str, concurrency: int = 4) -> BlindJudge:
        return cls(client, load_bundled_fallback(prompts_dir, language, KIND), max(1, concurrency))

    def messages(self, first: str, second: str) -> list[Message]:
        return [
            {"role": "system", "content": self.template.parts["system"].strip()},
            {"role": "user", "content": self.template.render("pair", first=first, second=second).strip()},
        ]

    async def ask(self, first: str, second: str, real_first: bool) -> Asked:
        assert self._gate is not None
        async with self._gate:
            try:
                answer = await ask_level(
                    self.client,
                    self.messages(first, second),
                    LEVELS,
                    retry=self.template.parts["retry"].strip(),
                )
            except EndpointError as exc:
                asked = Asked(real_first, None, "error", "", error=str(exc))
            else:
                g = answer.graded
                # With probabilities, their reading says why none was read (the mass on A and B);
                # a plain reply naming neither letter is said so by ``why_unanswered``.
                note = g.error if g.value is None and g.mass is not None else None
                asked = Asked(real_first, g.value, g.source, answer.reply, note=note)
        if self.on_asked is not None:
            self.on_asked(asked)
        return asked

    async def judge_pair(self, pair: Pair, real_first_first: bool) -> PairResult:
        real, sim = pair.real_message.text, pair.sim_message.text
        orders = [real_first_first, not real_first_first]
        asked = [await self.ask(*((real, sim) if rf else (sim, real)), rf) for rf in orders]
        return PairResult(pair, tuple(asked))

    async def run(self, pairs: list[Pair], *, seed: int) -> BlindTest:
        """Every pair in both orders; which order is asked first drawn from ``seed``."""
        self._gate = asyncio.Semaphore(self.concurrency)
        rng = random.Random(seed)
        firsts = [rng.random() < 0.5 for _ in pairs]
        results = await asyncio.gather(*(self.judge_pair(p, f) for p, f in zip(pairs, firsts, strict=True)))
        return BlindTest(self.client.endpoint.model or "", self.template.language, list(results), seed)
