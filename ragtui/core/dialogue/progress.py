"""What a dialogue is doing right now, and how long the rest will take: measured from events.

``StepMeter`` follows the engine's event stream and knows, per dialogue, the step streaming now
(role, turn, tokens so far, tokens/s) and every finished step (tokens, seconds). After a
dialogue's last turn, each dialogue verdict (resolution, retention, repetition) is a step of
its own, from ``DialogueVerdictStarted`` to ``DialogueVerdictReady``. From the
finished steps it estimates the run's remaining time. The CLI's live view, its one line per
step without a terminal, and the TUI header all read it; nothing here is a view.

"Tokens" are the streamed pieces: llama.cpp and OpenAI send one token per piece, so for them
it is the token count; the judge's final figure is the endpoint's own usage when it gives one.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .events import (
    DialogueDone,
    DialogueStarted,
    DialogueVerdictReady,
    DialogueVerdictStarted,
    Event,
    Failure,
    MessageDone,
    Role,
    SimulatorChecked,
    StreamRestarted,
    TextDelta,
    TurnDone,
    VerdictReady,
)

ROLE_NAMES: dict[str, str] = {"user": "customer", "bot": "bot", "judge": "judge"}
ROLE_DOING: dict[str, str] = {"user": "customer typing", "bot": "bot answering", "judge": "judging"}
NEXT_ROLE: dict[str, Role] = {"user": "bot", "bot": "judge", "judge": "user"}
ROLES: tuple[Role, ...] = ("user", "bot", "judge")
LATER_IN_TURN: dict[str, tuple[Role, ...]] = {"user": ("bot", "judge"), "bot": ("judge",), "judge": ()}


@dataclass
class LiveStep:
    """The step a dialogue is in now."""

    turn: int
    role: Role
    started: float
    tokens: int = 0
    first_token: float | None = None
    usage_tokens: int = 0  # completion tokens reported by finished judge calls of this step
    verdict: str | None = None  # a dialogue verdict step: its metric
    verdict_of: str = ""  # "2/3": its place among the dialogue's verdicts
    prompt: PromptTokens = field(default_factory=lambda: PromptTokens(0, 0))  # of the calls finished so far

    def rate(self, now: float) -> float | None:
        """Tokens per second since the first token (None until there are two to measure)."""
        if self.first_token is None or self.tokens < 2 or now <= self.first_token:
            return None
        return (self.tokens - 1) / (now - self.first_token)

    def describe(self, now: float) -> str:
        """``bot answering · 57 tok · 9.8 tok/s``; ``judging the dialogue: resolution (1/3) · 12 tok``."""
        text = ROLE_DOING[self.role]
        if self.verdict:
            text = f"judging the dialogue: {self.verdict} ({self.verdict_of})"
        if self.tokens:
            text += f" · {self.tokens} tok"
            rate = self.rate(now)
            if rate is not None:
                text += f" · {rate:.1f} tok/s"
        return text


@dataclass(frozen=True)
class PromptTokens:
    """A step's prompt tokens: sent, and of them reused from the server's prompt cache (None:
    a call's server did not say, so how many were computed is not known either)."""

    sent: int | None
    reused: int | None

    @property
    def computed(self) -> int | None:
        return None if self.sent is None or self.reused is None else max(self.sent - self.reused, 0)

    def plus(self, sent: int | None, reused: int | None) -> PromptTokens:
        """With one more call's figures (a step of several calls: the judge's checks)."""
        total = None if self.sent is None and sent is None else (self.sent or 0) + (sent or 0)
        both = None if self.reused is None or reused is None else self.reused + reused
        return PromptTokens(total, both)

    def text(self) -> str:
        """``prompt 1,004 sent · 82 computed · 922 reused``; – where the server did not say."""
        if self.sent is None:
            return ""

        def shown(value: int | None) -> str:
            return "–" if value is None else f"{value:,}"

        return f"prompt {self.sent:,} sent · {shown(self.computed)} computed · {shown(self.reused)} reused"


NO_PROMPT = PromptTokens(None, None)  # a step that made no call (or whose server said nothing)


@dataclass(frozen=True)
class StepDone:
    session_id: int
    turn: int
    role: Role
    tokens: int
    seconds: float
    verdict: str | None = None  # a dialogue verdict step: its metric
    verdict_of: str = ""
    prompt: PromptTokens = NO_PROMPT
    check: bool = False  # the simulator's checks of the customer message (and its retry)

    def line(self, label: str = "", max_turns: int | None = None) -> str:
        """One log line: ``#12 id-linking × calm · turn 1/3 · bot · 143 tokens · 14.2 s``, or for a
        dialogue verdict ``#12 id-linking × calm · dialogue verdict 1/3 resolution · done · 30 tokens · 41.0 s``."""
        head = f"#{self.session_id} {label}".rstrip()
        rate = f" ({self.tokens / self.seconds:.1f} tok/s)" if self.seconds > 0 and self.tokens else ""
        prompt = self.prompt.text()
        tail = f" · {prompt}" if prompt else ""
        if self.verdict:
            what = f"dialogue verdict {self.verdict_of} {self.verdict} · done"
            return f"{head} · {what} · {self.tokens} tokens · {self.seconds:.1f} s{rate}{tail}"
        turn = f"turn {self.turn}/{max_turns}" if max_turns else f"turn {self.turn}"
        who = "customer check" if self.check else ROLE_NAMES[self.role]
        return f"{head} · {turn} · {who} · {self.tokens} tokens · {self.seconds:.1f} s{rate}{tail}"


def dialogue_label(scenario_id: str, persona_name: str, trial: int = 1, trials: int = 1) -> str:
    """``outage × calm``; in a run of K trials a pair (``ragtui run --repeat K``) also which
    one: ``outage × calm · trial 2/3``, since the K dialogues of a pair look alike in a log."""
    label = f"{scenario_id} × {persona_name}"
    return f"{label} · trial {trial}/{trials}" if trials > 1 else label


def verdict_started_line(event: DialogueVerdictStarted) -> str:
    """``#12 id-linking × calm · dialogue verdict 1/3 resolution · started``."""
    head = f"#{event.session_id} {event.label}".rstrip()
    return f"{head} · dialogue verdict {event.index}/{event.total} {event.metric} · started"


@dataclass
class _Mean:
    """A running mean: the ETA is asked after every step of runs with thousands of steps, so it
    must not re-add every measured duration each time."""

    total: float = 0.0
    count: int = 0

    def add(self, seconds: float) -> None:
        self.total += seconds
        self.count += 1

    @property
    def value(self) -> float | None:
        return self.total / self.count if self.count else None


@dataclass
class StepMeter:
    clock: Callable[[], float] = time.monotonic
    live: dict[int, LiveStep] = field(default_factory=dict)
    seconds: dict[str, _Mean] = field(default_factory=lambda: {role: _Mean() for role in ROLES})
    first_start: float | None = None
    busy_seconds: float = 0.0  # sum of finished steps' durations (≥ wall time when they overlap)
    verdict_seconds: dict[str, _Mean] = field(default_factory=dict)  # per dialogue metric
    verdicts_done: dict[int, set[str]] = field(default_factory=dict)  # per dialogue, those finished

    def observe(self, event: Event) -> StepDone | None:
        """Follow one event; returns the step it finished, if any."""
        now = self.clock()
        sid = event.session_id
        if isinstance(event, DialogueStarted):
            self._begin(sid, 1, "user", now)
        elif isinstance(event, TextDelta):
            step = self.live.get(sid)
            if step is None or step.role != event.role or step.turn != event.turn:
                step = self._begin(sid, event.turn, event.role, now)  # e.g. a resumed dialogue
            step.tokens += 1
            if step.first_token is None:
                step.first_token = now
        elif isinstance(event, StreamRestarted):
            step = self.live.get(sid)
            if step is not None:  # the text so far is dropped; the step's clock keeps running
                step.tokens, step.first_token = 0, None
        elif isinstance(event, VerdictReady):
            step = self.live.get(sid)
            if step is not None:
                judgment = event.judgment
                step.usage_tokens += judgment.completion_tokens or 0
                if judgment.prompt_tokens is not None:
                    step.prompt = step.prompt.plus(judgment.prompt_tokens, judgment.cached_tokens)
        elif isinstance(event, SimulatorChecked):
            # Reported as a step of its own; its time stays in the customer's step (the ETA's).
            checks = event.usage
            prompt = PromptTokens(checks.get("prompt_tokens"), checks.get("cached_tokens"))
            return StepDone(
                sid, event.turn, "user", checks.get("completion_tokens") or 0, event.seconds, prompt=prompt, check=True
            )
        elif isinstance(event, DialogueVerdictStarted):
            step = self._begin(sid, event.turn, "judge", now)
            step.verdict, step.verdict_of = event.metric, f"{event.index}/{event.total}"
        elif isinstance(event, DialogueVerdictReady):
            return self._finish_verdict(sid, event, now)
        elif isinstance(event, MessageDone):
            # Model-written steps are measured, off-role customer messages too (they took the
            # time); a scenario's opening question, a replayed or typed message is not a step.
            written = event.source in ("simulator", "simulator_off_role", "bot")
            finished = self._finish(sid, event.turn, event.role, now, counted=written)
            if finished is not None and event.usage is not None and event.usage.prompt_tokens is not None:
                usage = event.usage
                finished = dataclasses.replace(finished, prompt=PromptTokens(usage.prompt_tokens, usage.cached_tokens))
            self._begin(sid, event.turn, NEXT_ROLE[event.role], now)
            return finished
        elif isinstance(event, TurnDone):
            finished = self._finish(sid, event.turn, "judge", now, counted=True)
            self._begin(sid, event.turn + 1, "user", now)
            return finished
        elif isinstance(event, DialogueDone | Failure):
            self.live.pop(sid, None)
            if isinstance(event, DialogueDone):
                self.verdicts_done.pop(sid, None)
        return None

    def _begin(self, sid: int, turn: int, role: Role, now: float) -> LiveStep:
        step = LiveStep(turn, role, now)
        self.live[sid] = step
        if self.first_start is None:
            self.first_start = now
        return step

    def _finish(self, sid: int, turn: int, role: Role, now: float, *, counted: bool) -> StepDone | None:
        step = self.live.pop(sid, None)
        if step is None or not counted:
            return None  # the scenario's question or an operator's line: no model call
        seconds = now - step.started
        self.seconds[role].add(seconds)
        self.busy_seconds += seconds
        tokens = max(step.tokens, step.usage_tokens)
        prompt = step.prompt if step.prompt.sent else NO_PROMPT
        return StepDone(sid, turn, role, tokens, seconds, prompt=prompt)

    def _finish_verdict(self, sid: int, event: DialogueVerdictReady, now: float) -> StepDone | None:
        metric = event.judgment.metric
        self.verdicts_done.setdefault(sid, set()).add(metric)
        step = self.live.get(sid)
        if step is None or step.verdict != metric:
            return None  # e.g. a stored verdict drawn again: no step was measured
        del self.live[sid]
        seconds = now - step.started
        self.verdict_seconds.setdefault(metric, _Mean()).add(seconds)
        self.busy_seconds += seconds
        judgment = event.judgment
        tokens = max(step.tokens, step.usage_tokens + (judgment.completion_tokens or 0))
        prompt = (
            NO_PROMPT
            if judgment.prompt_tokens is None
            else PromptTokens(judgment.prompt_tokens, judgment.cached_tokens)
        )
        return StepDone(sid, step.turn, "judge", tokens, seconds, metric, step.verdict_of, prompt)

    def verdicts_mean(self, sid: int | None = None) -> float:
        """Seconds the dialogue verdicts measured so far take per dialogue (those of ``sid`` not
        finished yet, when given); 0 before any was measured."""
        done = self.verdicts_done.get(sid, set()) if sid is not None else set()
        return sum(m.value or 0.0 for metric, m in self.verdict_seconds.items() if metric not in done)

    def mean(self, role: str) -> float | None:
        measured = self.seconds.get(role)
        return measured.value if measured else None

    def verdict_mean(self, metric: str) -> float:
        measured = self.verdict_seconds.get(metric)
        return (measured.value or 0.0) if measured else 0.0

    def eta(self, max_turns: int, waiting: int, concurrency: int) -> float | None:
        """Seconds until every dialogue has run ``max_turns`` turns (an upper bound: a customer
        may say DONE early), from the mean measured time of each role's steps and the overlap
        measured so far. ``waiting``: dialogues not started yet. None until every role has
        been measured once."""
        means = {role: self.mean(role) for role in ROLES}
        if any(m is None for m in means.values()) or self.first_start is None:
            return None
        now = self.clock()
        full_turn = sum(means.values())  # type: ignore[arg-type]
        verdicts = self.verdicts_mean()  # the dialogue verdicts after each dialogue's last turn
        work = waiting * (means["bot"] + means["judge"] + (max_turns - 1) * full_turn + verdicts)  # type: ignore[operator]
        for sid, step in self.live.items():
            if step.verdict is not None:
                mean = self.verdict_mean(step.verdict)
                work += max(mean - (now - step.started), 0.0)
                work += self.verdicts_mean(sid) - mean
                continue
            if step.turn > max_turns:
                continue  # its last turn is done; it is finishing
            left = max((means[step.role] or 0.0) - (now - step.started), 0.0)
            left += sum(means[role] or 0.0 for role in LATER_IN_TURN[step.role])
            work += left + (max_turns - step.turn) * full_turn + self.verdicts_mean(sid)
        wall = now - self.first_start
        overlap = self.busy_seconds / wall if wall > 0 else 1.0
        overlap = min(max(overlap, 1.0), float(max(concurrency, 1)))
        return work / overlap
