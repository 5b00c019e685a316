"""Events a running dialogue emits. The TUI renders them, the CLI prints them, tests assert on
them: nothing about a dialogue lives only in a view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..types.calls import CallUsage

if TYPE_CHECKING:  # importing the metrics pulls in the LLM client; the TUI's first frame needs none
    from ..types.judgments import Judgment

Role = Literal["user", "bot", "judge"]
# done: the customer wrote DONE (satisfied); gave_up: the persona's patience ran out;
# handed_over: the bot transferred the customer to a person; replay_end: a replay's recording
# ran out and the simulator was not asked to take over.
StopReason = Literal["done", "max_turns", "error", "cancelled", "gave_up", "handed_over", "replay_end"]


@dataclass(frozen=True)
class DialogueStarted:
    session_id: int
    scenario_id: str
    persona: str


@dataclass(frozen=True)
class TextDelta:
    """A fragment of text as a role streams it."""

    session_id: int
    turn: int
    role: Role
    text: str


@dataclass(frozen=True)
class MessageDone:
    """A customer or bot message is complete and stored."""

    session_id: int
    turn: int
    role: Role
    text: str
    message_id: int
    source: str  # scenario | simulator | operator | bot
    finish_reason: str | None = None  # "length": kept, but the token limit cut it
    usage: CallUsage | None = None  # the call that wrote it; None: typed, replayed, the scenario's


@dataclass(frozen=True)
class StreamRestarted:
    """A role's reply is asked for again — its stream broke, or it came back whole but could not
    be read (``reason`` says which): drop the text streamed so far."""

    session_id: int
    turn: int
    role: Role
    attempt: int
    reason: str


@dataclass(frozen=True)
class VerdictReady:
    """A metric judged the bot's answer of ``turn``; stored as ``version``."""

    session_id: int
    turn: int
    judgment: Judgment
    judgment_id: int
    version: int


@dataclass(frozen=True)
class SimulatorRetry:
    """The simulated customer's message failed a check (``problem``: answered_as_agent,
    left_persona, premature_done) and is being asked again once; its streamed text so far is void."""

    session_id: int
    turn: int
    problem: str
    why: str
    rejected: str


@dataclass(frozen=True)
class SimulatorChecked:
    """The model checks of a simulated customer message and, when one failed, the message asked
    again with its check: a step of their own in the accounting (``usage``: ``call_usage``'s
    calls, prompt_tokens, completion_tokens, cached_tokens). Emitted before the message's
    ``MessageDone``; only when a model check or a retry made calls."""

    session_id: int
    turn: int
    usage: dict[str, int | None]
    seconds: float
    retried: bool = False


@dataclass(frozen=True)
class DialogueVerdictStarted:
    """A dialogue metric (resolution, retention, repetition) starts judging the whole
    conversation, after its last turn: a step of its own for progress displays, which can take a
    minute on a small local model. ``DialogueVerdictReady`` is the same step finished. ``turn``
    is the dialogue's last turn (the judge's streamed text carries it); ``label`` names the
    dialogue (scenario × persona) for a log line read without the run's table."""

    session_id: int
    turn: int
    metric: str
    label: str
    index: int = 1  # this metric's place among the dialogue metrics being run, 1-based
    total: int = 1


@dataclass(frozen=True)
class DialogueVerdictReady:
    """A dialogue metric judged the whole conversation; stored as ``version``."""

    session_id: int
    judgment: Judgment
    judgment_id: int
    version: int


@dataclass(frozen=True)
class TurnDone:
    session_id: int
    turn: int
    score: float | None  # None: unscored, never 0
    below_threshold: bool
    dialogue_score: float | None


@dataclass(frozen=True)
class Failure:
    """A role failed; ``message`` names what and where. The dialogue then ends with ``error``,
    or, when it pauses on failures (the TUI), waits for the step to be retried."""

    session_id: int
    turn: int
    role: Role
    message: str
    record: bool = False  # the database could not be written: the run reports it once, not per dialogue


@dataclass(frozen=True)
class DialogueDone:
    session_id: int
    stop_reason: StopReason
    score: float | None
    turns: int
    unscored_turns: int
    error: str | None = None


Event = (
    DialogueStarted
    | TextDelta
    | StreamRestarted
    | MessageDone
    | SimulatorRetry
    | SimulatorChecked
    | VerdictReady
    | TurnDone
    | DialogueVerdictStarted
    | DialogueVerdictReady
    | Failure
    | DialogueDone
)
