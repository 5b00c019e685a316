"""The record's rows as the rest of ragtui reads them: sessions, messages, partial replies and
versioned verdicts (of turns and of whole dialogues), and who runs a session. Plain data:
``record.rows`` decodes them from SQLite columns; nothing here reads or writes the database."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .calls import CUT_AT_REPLY_TIMEOUT, cut_words
from .judgments import Judgment
from .passages import Passage
from .personas import Persona
from .turns import Utterance
from .verdicts import SKIPPED, Verdict, read_verdict


class _Versioned(Protocol):
    @property
    def version(self) -> int: ...


V = TypeVar("V", bound=_Versioned)


@dataclass(frozen=True)
class Owner:
    pid: int
    host: str
    started: str | None  # ISO time the process started, when the system tells

    def describe(self) -> str:
        since = f", started {self.started.replace('T', ' ')[:19]}" if self.started else ""
        return f"process {self.pid} on {self.host}{since}"


@dataclass
class StoredDialogueJudgment:
    id: int
    session_id: int
    metric: str
    version: int
    score: float | None
    outcome: str | None
    details: dict[str, Any] = field(default_factory=dict)
    prompt: list[dict[str, str]] = field(default_factory=list)
    raw_reply: str = ""
    model: str | None = None
    error: str | None = None
    attempts: int = 0
    latency_ms: float | None = None
    created_at: str = ""
    served_model: str | None = None  # the model the answer named, when not ``model``

    def to_judgment(self) -> Judgment:
        """Back to the engine's form, e.g. to draw a stored verdict as the live one was drawn."""
        return Judgment.from_stored(self)

    @property
    def skipped(self) -> bool:
        return self.score is None and bool(self.details.get(SKIPPED))

    @property
    def verdict(self) -> Verdict:
        """What the views read of it, typed (explanation lines: ``metric_views.verdict_of``)."""
        return read_verdict(self.metric, self.score, self.details, self.error)


@dataclass(frozen=True)
class VersionedVerdicts:
    """Which version of a verdict counts — the one rule, declared once for each verdict table and
    given in both the forms ragtui reads with: re-judging adds versions and never overwrites, and
    among the versions with the same ``keys`` the highest is the current one.

    ``newest`` applies it to verdicts already loaded (the TUI, a session's summary);
    ``is_newest_sql`` is the same rule as a SQL condition, for readers that must not load every
    version (run lists, reports). A test holds the two forms to the same answer."""

    table: str
    keys: tuple[str, ...]  # the columns, and the verdicts' attributes, a version is counted within

    def newest(self, verdicts: Iterable[V]) -> list[V]:
        """The current version of each key, in the order the keys first appear."""
        newest: dict[tuple[object, ...], V] = {}
        for verdict in verdicts:
            key = tuple(getattr(verdict, name) for name in self.keys)
            if key not in newest or verdict.version > newest[key].version:
                newest[key] = verdict
        return list(newest.values())

    def is_newest_sql(self, alias: str) -> str:
        """The condition that row ``alias`` of the table is the current version of its keys.
        The table and key names are ragtui's own, never user input."""
        same = " AND ".join(f"n.{key} = {alias}.{key}" for key in self.keys)
        return f"{alias}.version = (SELECT MAX(n.version) FROM {self.table} n WHERE {same})"


TURN_VERDICTS = VersionedVerdicts("judgments", ("session_id", "turn", "metric"))
DIALOGUE_VERDICTS = VersionedVerdicts("dialogue_judgments", ("session_id", "metric"))


def latest_per_metric(judgments: Iterable[StoredDialogueJudgment]) -> dict[str, StoredDialogueJudgment]:
    """The newest dialogue verdict per metric (of one session's verdicts)."""
    return {j.metric: j for j in DIALOGUE_VERDICTS.newest(judgments)}


@dataclass
class StoredMessage:
    id: int
    session_id: int
    turn: int
    role: str
    source: str
    text: str
    passages: list[Passage]
    model: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_ms: float | None
    created_at: str
    finish_reason: str | None = None  # "length": cut by the token limit; CUT_AT_REPLY_TIMEOUT; kept but marked
    attempts: int = 1
    sim_check: dict[str, Any] | None = None  # customer messages: the simulator check, when one ran
    served_model: str | None = None  # the model the answer named, when not ``model`` (a gateway's alias)
    cached_tokens: int | None = None  # of prompt_tokens, reused from the server's cache; None: not said

    @property
    def cut_by_limit(self) -> bool:
        return self.finish_reason == "length"

    @property
    def cut_at_reply_timeout(self) -> bool:
        """A bot answer ``reply_timeout`` stopped mid-stream: kept as far as it got, and judged."""
        return self.finish_reason == CUT_AT_REPLY_TIMEOUT

    @property
    def cut(self) -> str:
        """How views mark a message that did not end on its own ("" when it did)."""
        return cut_words(self.finish_reason)


# How a reply cut short by a cancel is recorded: "cancelled while the bot's reply was streaming
# (38 characters received)". Older records say it the same way.
CANCELLED_WHILE_STREAMING = "cancelled while"


@dataclass
class PartialReply:
    """What arrived of a reply whose stream never completed: shown as partial, never judged,
    never fed to the dialogue, never exported as an answer."""

    id: int
    session_id: int
    turn: int
    role: str
    text: str
    error: str
    attempts: int
    created_at: str

    @property
    def cancelled(self) -> bool:
        """Cut short by a cancel (the TUI's c, Ctrl-C, SIGTERM), not by a failing stream."""
        return self.error.startswith(CANCELLED_WHILE_STREAMING)


@dataclass
class StoredJudgment:
    id: int
    session_id: int
    message_id: int
    turn: int
    metric: str
    version: int
    score: float | None
    details: dict[str, Any]
    prompt: list[dict[str, str]]
    raw_reply: str
    model: str | None
    error: str | None
    attempts: int
    latency_ms: float | None
    created_at: str
    served_model: str | None = None  # the model the answer named, when not ``model``

    @property
    def scored(self) -> bool:
        return self.score is not None

    def to_judgment(self) -> Judgment:
        """Back to the engine's form, e.g. for a derived metric that reads a stored one."""
        return Judgment.from_stored(self)

    @property
    def verdict(self) -> Verdict:
        """What the views read of it, typed."""
        return read_verdict(self.metric, self.score, self.details, self.error)


@dataclass
class StoredSession:
    id: int
    run_id: str | None
    created_at: str
    updated_at: str
    language: str
    scenario_id: str
    question: str
    scenario: dict[str, Any]
    persona_name: str
    persona: Persona  # as it was when the dialogue started
    config: dict[str, Any]
    max_turns: int
    threshold: float
    metrics: list[str]
    status: str
    stop_reason: str | None
    score: float | None
    turns: int
    unscored_turns: int
    error: str | None
    owner_pid: int | None = None
    owner_host: str | None = None
    owner_started: str | None = None
    heartbeat_at: str | None = None
    parent_session_id: int | None = None  # a fork: the session it copied turns from
    fork_turn: int | None = None  # … and the last turn it copied
    replay_of: int | None = None  # a replay: the session whose customer messages it re-sent
    replay_note: str | None = None  # where the recording could not be reused, if it could not
    trial: int = 1  # 1, 2, … K: which run of its scenario × persona this is (`ragtui run --repeat K`)
    kind: str = "simulated"  # "imported": a real conversation brought in by `ragtui import` (its run's kind)
    messages: list[StoredMessage] = field(default_factory=list)
    judgments: list[StoredJudgment] = field(default_factory=list)
    partials: list[PartialReply] = field(default_factory=list)
    dialogue_judgments: list[StoredDialogueJudgment] = field(default_factory=list)  # every version

    @property
    def owner(self) -> Owner | None:
        if self.owner_pid is None or self.owner_host is None:
            return None
        return Owner(self.owner_pid, self.owner_host, self.owner_started)

    @property
    def stop_label(self) -> str:
        """What a list shows: the stop reason, or running / interrupted."""
        return (self.stop_reason or "finished") if self.status == "finished" else self.status

    def utterances(self) -> list[Utterance]:
        """The customer's messages and the bot's answers; an imported conversation's human agent
        (``role = agent``) and notes (``note``) are not the bot's words."""
        return [
            Utterance("user" if m.role == "user" else "bot", m.text) for m in self.messages if m.role in ("user", "bot")
        ]

    def latest_dialogue_judgments(self) -> dict[str, StoredDialogueJudgment]:
        """The newest dialogue verdict per metric (resolution, retention, repetition)."""
        return latest_per_metric(self.dialogue_judgments)

    def latest_judgments(self) -> dict[tuple[int, str], StoredJudgment]:
        """The newest version per (turn, metric)."""
        return {(j.turn, j.metric): j for j in TURN_VERDICTS.newest(self.judgments)}
