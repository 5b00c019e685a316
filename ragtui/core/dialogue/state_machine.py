"""One simulated support dialogue as a resumable state machine that emits events.

A turn is three steps: the customer speaks (the scenario's question on turn 1, then the
simulator or the operator), the bot answers, the judge scores the answer. ``step()`` runs one
step, ``run()`` runs to the end (or until ``pause()``), ``cancel()`` stops at once.

Each step runs in its own task that feeds an event queue. That is what makes ``cancel()`` clean
from anywhere: the task is cancelled mid-stream, records the session as cancelled, and still
delivers a final ``DialogueDone`` to whoever is listening. Everything completed before that is
already committed to the store.

The store is the truth: ``restore()`` rebuilds the position from it, so a dialogue continues
correctly whatever write was the last before a crash — a customer message (the bot answers
next), a bot answer (only the verdicts still missing are judged), the last verdict (the turn
is closed, the score refreshed), a stored ``DONE`` (the dialogue finishes as done).

A reply whose stream never completed is not a message: it is kept as a partial record, the
dialogue ends ``error`` naming the role, and nothing downstream ever sees that text. A reply
streaming when the dialogue is cancelled (the TUI's cancel, Ctrl-C, SIGTERM) is kept the same way.
One exception: a bot's answer that ``reply_timeout`` stopped while it was still answering is the
turn's answer as far as it got, stored marked cut off and judged (``bots/cut_off.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ..bots.base import Bot
from ..bots.call import BotCall, current_call
from ..bots.cut_off import cut_off_answer
from ..metrics import PRIMARY_METRIC, Metric, TurnContext
from ..metrics.dialogue import DialogueMetric, context_from_session, metric_applies
from ..models.llm import Completion, stream_restarted
from ..store.store import SessionBusy, Store
from ..types.calls import CallUsage
from ..types.errors import IncompleteReply, RagtuiError, StoreWriteError
from ..types.judgments import Judgment
from ..types.passages import Passage
from ..types.stored import CANCELLED_WHILE_STREAMING
from ..types.turns import Utterance, is_done
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
    SimulatorRetry,
    StopReason,
    StreamRestarted,
    TextDelta,
    TurnDone,
    VerdictReady,
)
from .handover import is_handover
from .replay import ReplayEnded, ReplayScript
from .simulator import UserSimulator
from .simulator_check import OFF_ROLE_SOURCE, CheckResult, SimulatorChecker, add_usage, call_usage

log = logging.getLogger("ragtui")

Recovery = Callable[[RagtuiError], Awaitable[str | None]]
"""Asked after a step failed: repairs what broke (a dead embedded server) and returns a note
for the error message if the step is worth one more try, else None."""


class Phase(enum.Enum):
    USER = "user"  # next: the customer's message
    BOT = "bot"  # next: the bot's answer
    JUDGE = "judge"  # next: the verdicts on that answer
    FINISHED = "finished"


@dataclass
class _InFlight:
    """The text a role streamed so far in a reply that has not completed."""

    turn: int
    role: Role
    parts: list[str]


@dataclass
class _BotTurn:
    message_id: int
    text: str
    passages: list[Passage]


class Dialogue:
    def __init__(
        self,
        *,
        session_id: int,
        store: Store,
        simulator: UserSimulator,
        bot: Bot,
        metrics: list[Metric],
        language: str,
        max_turns: int,
        threshold: float,
        reference: str | None = None,
        dialogue_metrics: list[DialogueMetric] | None = None,
        checker: SimulatorChecker | None = None,
    ) -> None:
        self.session_id = session_id
        self.store = store
        self.simulator = simulator
        self.bot = bot
        self.metrics = metrics
        self.language = language
        self.max_turns = max_turns
        self.threshold = threshold
        self.reference = reference
        self.dialogue_metrics = dialogue_metrics or []
        self.checker = checker
        self.patience = simulator.persona.patience
        self.history: list[Utterance] = []
        self.turn = 0
        self.starts_at = 0  # the turn before its first: an N+1 session starts late (next_turn.py)
        self.phase = Phase.USER
        self.stop_reason: StopReason | None = None
        self._last_bot: _BotTurn | None = None
        self._task: asyncio.Task[None] | None = None
        self._pause_requested = False
        self._claimed = False  # this process owns the session in the store
        self.recover: Recovery | None = None
        self.replay: ReplayScript | None = None  # set for a replay: recorded customer messages
        # The TUI sets this: a failed step (server down, stream cut) pauses the dialogue so the
        # operator can retry it with step / auto-run; the headless CLI ends it with ``error``.
        self.pause_on_failure = False
        self.failed: str | None = None  # why the last step failed, while paused on a failure
        self._retrying = False  # the next judge step re-asks a judge whose verdict failed
        self._handed_over = False
        self._concluding: StopReason | None = None  # set while the dialogue verdicts run
        self._in_flight: _InFlight | None = None  # a reply streaming now, kept if cancelled
        # Why the last step could not be recorded (disk full, …); the session is left as last
        # committed, so it reads as interrupted once this process ends and can be continued.
        self.write_failure: StoreWriteError | None = None

    # -- public control --------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def step(self, user_text: str | None = None) -> AsyncIterator[Event]:
        """Run the next step; ``user_text`` replaces the simulator when the customer is next."""
        return self._drive(single_step=True, user_text=user_text)

    def run(self) -> AsyncIterator[Event]:
        """Run steps until the dialogue finishes or ``pause()`` is called."""
        self._pause_requested = False
        return self._drive(single_step=False, user_text=None)

    def pause(self) -> None:
        """Stop ``run()`` after the step in progress; the dialogue can go on later."""
        self._pause_requested = True

    def cancel(self) -> DialogueDone | None:
        """Cancel now. A running step ends its stream with ``DialogueDone(cancelled)``; when no
        step is running the session is closed here and that event is returned instead."""
        if self.busy:
            assert self._task is not None
            self._task.cancel()
            return None
        if self.finished:
            return None
        return self._finish("cancelled", None, lambda _e: None)

    # -- driving ---------------------------------------------------------------------------

    async def _drive(self, *, single_step: bool, user_text: str | None) -> AsyncIterator[Event]:
        if self.finished:
            return
        if self.busy:
            raise RuntimeError("a step of this dialogue is already running")
        queue: asyncio.Queue[Event | None] = asyncio.Queue()
        self._task = asyncio.create_task(self._work(queue.put_nowait, single_step, user_text))
        self._task.add_done_callback(lambda _t: queue.put_nowait(None))
        try:
            while (event := await queue.get()) is not None:
                yield event
        finally:
            # The consumer went away (closed the stream, or was itself cancelled): stop the step
            # so the session is recorded as cancelled rather than left running.
            if self._task is not None and not self._task.done():
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task

    def _role_now(self) -> Role:
        return "judge" if self.phase is Phase.JUDGE else self.phase.value

    def _turn_now(self) -> int:
        return self.turn + 1 if self.phase is Phase.USER else self.turn

    async def _work(self, emit: Callable[[Event], None], single_step: bool, user_text: str | None) -> None:
        role: Role = "user"
        emit = self._tracking(emit)
        # A role's stream that breaks is retried by the client; views drop what they showed.
        stream_restarted.set(
            lambda attempt, reason: emit(
                StreamRestarted(self.session_id, self._turn_now(), self._role_now(), attempt, reason)
            )
        )
        try:
            if self.turn == self.starts_at and self.phase is Phase.USER:
                emit(DialogueStarted(self.session_id, self.simulator.scenario.id, self.simulator.persona.name))
            if not self._claimed:
                self.store.claim(self.session_id)  # refuses when another live process runs it
                self._claimed = True
            self.failed = None
            while not self.finished:
                role = "judge" if self.phase is Phase.JUDGE else self.phase.value
                await self._advance_or_recover(emit, user_text)
                user_text = None
                if single_step or self._pause_requested:
                    break
        except asyncio.CancelledError:
            self._keep_cancelled_reply()
            # Cancelled while the dialogue verdicts ran: the dialogue itself had ended.
            self._finish(self._concluding or "cancelled", None, emit)
        except SessionBusy as exc:  # someone else's session: leave its record alone
            emit(Failure(self.session_id, self.turn, role, str(exc)))
        except StoreWriteError as exc:
            self._write_failed(exc, role, emit)
        except IncompleteReply as exc:
            self._keep_partial(exc)
            emit(Failure(self.session_id, self._turn_now(), role, self._said(exc)))
            self._after_failure(self._said(exc), emit)
        except RagtuiError as exc:
            self._keep_partial(exc)  # a bot adapter's broken stream carries what arrived
            emit(Failure(self.session_id, self.turn, role, self._said(exc)))
            self._after_failure(self._said(exc), emit)
        except Exception as exc:  # a bug: keep the app alive, keep what is stored, say where
            log.exception("dialogue %s failed in the %s step", self.session_id, role)
            message = f"internal error in the {role} step: {type(exc).__name__}: {exc}"
            emit(Failure(self.session_id, self.turn, role, message))
            self._after_failure(message, emit)

    def _said(self, exc: RagtuiError) -> str:
        """The failure as its reader can act on it: paused on it, the step is retried by hand."""
        return exc.said(by_hand=self.pause_on_failure)

    def _tracking(self, emit: Callable[[Event], None]) -> Callable[[Event], None]:
        """``emit`` that also follows the reply streaming now: its deltas are collected, and any
        other event (the message or verdict it became, a restart, a failure) ends it."""

        def tracked(event: Event) -> None:
            if isinstance(event, TextDelta):
                flight = self._in_flight
                if flight is None or (flight.turn, flight.role) != (event.turn, event.role):
                    flight = self._in_flight = _InFlight(event.turn, event.role, [])
                flight.parts.append(event.text)
            else:
                self._in_flight = None
            emit(event)

        return tracked

    def _keep_cancelled_reply(self) -> None:
        """The dialogue was cancelled mid-reply: what had arrived is a partial record."""
        flight, self._in_flight = self._in_flight, None
        if flight is None:
            return
        text = "".join(flight.parts)
        who = {"user": "customer"}.get(flight.role, flight.role)
        error = f"{CANCELLED_WHILE_STREAMING} the {who}'s reply was streaming ({len(text)} characters received)"
        with contextlib.suppress(RagtuiError):  # the session is still closed as cancelled
            self.store.add_partial(self.session_id, flight.turn, flight.role, text, error, 1)

    def _after_failure(self, message: str, emit: Callable[[Event], None]) -> None:
        if not self.pause_on_failure:
            self._finish_after_failure(message, emit)
            return
        # Paused on the failed step: the session stays open with the error on record, and the
        # next step retries it (and clears the error).
        self.failed = message
        self._retrying = True
        self._claimed = False  # the retry claims the session again, which clears the error
        try:
            self.store.set_status(self.session_id, "running", None, message)
        except RagtuiError:
            log.exception("cannot record the failure of session %s", self.session_id)

    def _write_failed(self, exc: StoreWriteError, role: Role, emit: Callable[[Event], None]) -> None:
        """The record could not be written. Headless, nothing more is tried (ending the session
        as ``error`` would be another write, and would keep a dialogue that never failed from
        being resumed); the TUI pauses on it like on any failed step."""
        self.write_failure = exc
        emit(Failure(self.session_id, self._turn_now(), role, str(exc), record=True))
        if self.pause_on_failure:
            self._after_failure(str(exc), emit)

    def _finish_after_failure(self, message: str, emit: Callable[[Event], None]) -> None:
        try:
            self._finish("error", message, emit)
        except StoreWriteError as exc:  # the error is not on record: the session stays resumable
            self.write_failure = exc
        except RagtuiError as exc:  # the store itself failed; the event still tells the user
            emit(DialogueDone(self.session_id, "error", None, self.turn, 0, f"{message}; {exc}"))
            self.phase = Phase.FINISHED

    def _keep_partial(self, exc: RagtuiError) -> None:
        """Keep what arrived of a reply that never completed (an ``IncompleteReply``, or a bot
        adapter's broken stream: anything carrying ``partial``) as a partial record, once."""
        partial = getattr(exc, "partial", None)
        if not isinstance(partial, str) or getattr(exc, "kept", False):
            return
        exc.kept = True  # type: ignore[attr-defined]
        role = getattr(exc, "role", self._role_now())
        attempts = getattr(exc, "attempts", 1)
        with contextlib.suppress(RagtuiError):  # the failure itself is reported either way
            self.store.add_partial(self.session_id, self._turn_now(), role, partial, str(exc), attempts)

    async def _advance_or_recover(self, emit: Callable[[Event], None], user_text: str | None) -> None:
        """One step; after a failure ``recover`` may repair the cause, then the step runs once
        more (it stored nothing yet: messages and verdicts are stored when complete)."""
        try:
            await self._advance(emit, user_text)
        except StoreWriteError:
            raise  # the database, not a model: nothing to repair by trying the step again
        except RagtuiError as exc:
            note = await self.recover(exc) if self.recover is not None else None
            if note is None:
                raise
            log.warning("dialogue %s: %s; retrying the step", self.session_id, note)
            # Views drop what the failed attempt streamed, as for a stream the client retries.
            emit(StreamRestarted(self.session_id, self._turn_now(), self._role_now(), 2, note))
            try:
                await self._advance(emit, user_text)
            except RagtuiError as again:
                again.message = f"{again.message} ({note}, and it failed again)"
                again.args = (again.message,)
                raise

    async def _advance(self, emit: Callable[[Event], None], user_text: str | None) -> None:
        if self.phase is Phase.BOT and self.turn > 1 and is_done(self.history[-1].text):
            # A stored DONE whose finish was never recorded (a crash in between).
            await self._conclude("done", emit)
        elif self.phase is Phase.USER:
            await self._customer_step(emit, user_text)
        elif self.phase is Phase.BOT:
            await self._bot_step(emit)
        elif self.phase is Phase.JUDGE:
            await self._judge_step(emit)

    async def _customer_step(self, emit: Callable[[Event], None], user_text: str | None) -> None:
        turn = self.turn + 1
        usage: CallUsage | None = None  # typed, replayed or the scenario's question: no call made it
        sim_check: dict[str, object] | None = None
        replayed = None
        if user_text is None and self.replay is not None:
            try:
                replayed = self._replayed(turn)
            except ReplayEnded:  # the recording ran out and the simulator may not take over
                await self._conclude("replay_end", emit)
                return
        if user_text is not None:
            text, source = user_text.strip(), "operator"
        elif replayed is not None:
            text, source = replayed, "replay"
        elif turn == 1:
            text, source = self.simulator.scenario.question, "scenario"
        elif turn == 2 and self.simulator.scenario.follow_up is not None:
            # The scenario's planned follow-up, as written: a test step, not the persona's words.
            text, source = self.simulator.scenario.follow_up.question, "scenario"
        else:
            completion, source, sim_check = await self._simulated_message(emit, turn)
            text, usage = completion.text, completion.usage
        message_id = self.store.add_message(
            self.session_id, turn, "user", source, text, usage=usage, sim_check=sim_check
        )
        finish_reason = usage.finish_reason if usage else None
        self.turn = turn
        self.history.append(Utterance("user", text))
        emit(MessageDone(self.session_id, turn, "user", text, message_id, source, finish_reason, usage))
        if turn > 1 and is_done(text):
            await self._conclude("done", emit)
        else:
            self.phase = Phase.BOT

    def _replayed(self, turn: int) -> str | None:
        """The recorded message for ``turn``, or None when the simulator takes over; raises
        ReplayEnded. Every note is stored on the session as it happens."""
        assert self.replay is not None
        before = len(self.replay.notes)
        try:
            return self.replay.next_message(turn)
        finally:
            if len(self.replay.notes) != before and self.replay.note:
                self.store.set_replay_note(self.session_id, self.replay.note)

    async def _simulated_message(
        self, emit: Callable[[Event], None], turn: int
    ) -> tuple[Completion, str, dict[str, Any] | None]:
        """The simulator's next message, checked; re-asked once with a correction when it fails.
        Returns (completion, source, the check record)."""

        def on_delta(text: str) -> None:
            emit(TextDelta(self.session_id, turn, "user", text))

        completion = await self.simulator.next_message(self.history, on_delta=on_delta)
        self._in_flight = None  # complete: a cancel during the check has no partial reply to keep
        if self.checker is None:
            return completion, "simulator", None
        started = time.monotonic()
        first = await self.checker.check(completion.text, self.history)
        if first.problem is None:
            record = {"first": first.to_dict(), "retried": False, "off_role": False}
            extra = _extra_usage([first])
            if extra["calls"]:
                emit(SimulatorChecked(self.session_id, turn, extra, time.monotonic() - started))
            return completion, "simulator", {**record, "extra_usage": extra}
        emit(SimulatorRetry(self.session_id, turn, first.problem, first.why, completion.text))
        retry = await self.simulator.next_message(
            self.history, on_delta=on_delta, correction=self.checker.correction(first.problem)
        )
        self._in_flight = None
        second = await self.checker.check(retry.text, self.history)
        # The message stored is the retry: the rejected first message cost calls too.
        extra = _extra_usage([first, second], rejected=completion)
        record = {
            "first": {**first.to_dict(), "text": completion.text},
            "retried": True,
            "retry": second.to_dict(),
            "off_role": second.problem is not None,
            "extra_usage": extra,
        }
        emit(SimulatorChecked(self.session_id, turn, extra, time.monotonic() - started, True))
        return retry, OFF_ROLE_SOURCE if second.problem else "simulator", record

    async def _bot_step(self, emit: Callable[[Event], None]) -> None:
        turn = self.turn
        current_call.set(BotCall(self.session_id, turn))  # for adapters that send a session id
        try:
            answer = await self.bot.answer(
                self.history, on_delta=lambda t: emit(TextDelta(self.session_id, turn, "bot", t))
            )
        except RagtuiError as exc:
            # A bot of a team's own that let reply_timeout's error through: the answer so far is
            # still its answer, marked cut off and judged (bots/cut_off.py), as the built-in ones do.
            cut = cut_off_answer(exc)
            if cut is None:
                raise
            answer = cut
        message_id = self.store.add_message(
            self.session_id,
            turn,
            "bot",
            "bot",
            answer.text,
            passages=answer.passages,
            usage=answer.usage,
        )
        self.history.append(Utterance("bot", answer.text))
        self._last_bot = _BotTurn(message_id, answer.text, answer.passages)
        self._handed_over = is_handover(answer.text)
        emit(
            MessageDone(
                self.session_id, turn, "bot", answer.text, message_id, "bot", answer.usage.finish_reason, answer.usage
            )
        )
        self.phase = Phase.JUDGE

    async def _judge_step(self, emit: Callable[[Event], None]) -> None:
        assert self._last_bot is not None
        bot = self._last_bot
        context = TurnContext(
            turn=self.turn,
            question=self.history[-2].text,
            response=bot.text,
            passages=bot.passages,
            history=self.history[:-2],
            language=self.language,
            reference=self._reference(),
        )
        turn_score: float | None = None
        dialogue_score: float | None = None
        scored = False
        turn = self.turn
        earlier: dict[str, Judgment] = {}
        # Verdicts already stored for this answer (a resumed dialogue): only the missing run.
        recorded = self.store.latest_judgments_of(bot.message_id)
        retry, self._retrying = self._retrying, False
        for metric in self.metrics:
            # Retrying after a pause on a failure: the judge that failed is asked again.
            if metric.name in recorded and not (retry and recorded[metric.name].details.get("failed")):
                earlier[metric.name] = recorded[metric.name].to_judgment()
                if metric.name == PRIMARY_METRIC:
                    turn_score = recorded[metric.name].score
                continue
            failed: RagtuiError | None = None
            try:
                # ``earlier`` lets a derived metric (trust) read this turn's other judgments.
                judgment = await metric.judge(
                    dataclasses.replace(context, earlier=dict(earlier)),
                    on_delta=lambda t: emit(TextDelta(self.session_id, turn, "judge", t)),
                )
            except RagtuiError as exc:
                # Every judged turn gets its verdict row: a judge that failed is recorded as an
                # explicit unscored judgment with the error. Only the primary metric's failure
                # then ends the dialogue; the other metrics still run.
                failed = exc
                if isinstance(exc, IncompleteReply):
                    self._keep_partial(exc)
                judgment = Judgment(
                    metric=metric.name,
                    score=None,
                    details={"failed": True},
                    error=self._said(exc),
                    attempts=getattr(exc, "attempts", 1),
                )
            earlier[metric.name] = judgment
            if metric.name == PRIMARY_METRIC:
                # The verdict and the session score it changes are one commit.
                stored, dialogue_score = self.store.add_scored_judgment(
                    self.session_id, bot.message_id, self.turn, judgment, PRIMARY_METRIC
                )
                scored = True
            else:
                stored = self.store.add_judgment(self.session_id, bot.message_id, self.turn, judgment)
            emit(VerdictReady(self.session_id, self.turn, judgment, stored.id, stored.version))
            if metric.name == PRIMARY_METRIC:
                if failed is not None:
                    raise failed
                turn_score = judgment.score
        if not scored:  # resumed with the primary verdict already stored: score from the record
            dialogue_score, _ = self.store.refresh_score(self.session_id, PRIMARY_METRIC)
        below = turn_score is not None and turn_score < self.threshold
        emit(TurnDone(self.session_id, self.turn, turn_score, below, dialogue_score))
        stop = self._stop_after_turn()
        if stop is not None:
            await self._conclude(stop, emit)
        else:
            self.phase = Phase.USER

    def _reference(self) -> str | None:
        """The reference for this turn's answer: a planned follow-up's own at turn 2."""
        follow_up = self.simulator.scenario.follow_up
        if self.turn == 2 and follow_up is not None and follow_up.reference:
            return follow_up.reference
        return self.reference

    def _stop_after_turn(self) -> StopReason | None:
        """Why the dialogue ends after this judged turn, if it does. A transfer ends it first;
        the persona's patience before the run's turn limit, since it is the customer's reason."""
        if self._handed_over:
            return "handed_over"
        if self.patience is not None and self.turn >= self.patience:
            return "gave_up"
        if self.turn >= self.max_turns:
            return "max_turns"
        return None

    async def _conclude(self, reason: StopReason, emit: Callable[[Event], None]) -> None:
        """End the dialogue: judge it as a whole, then finish with ``reason``."""
        self._concluding = reason
        await self.judge_dialogue(emit)
        self._finish(reason, None, emit)

    async def judge_dialogue(self, emit: Callable[[Event], None]) -> None:
        """Run the dialogue metrics on the stored conversation; each verdict is stored as it
        completes. A metric whose judge cannot be reached is recorded unscored, never skipped."""
        if not self.dialogue_metrics:
            return
        session = self.store.session(self.session_id)
        context = dataclasses.replace(context_from_session(session), stop_reason=self._concluding)
        # Verdicts already stored (a resumed dialogue that stopped while judging): only the missing run.
        recorded = {j.metric for j in session.dialogue_judgments}
        # A metric with nothing to judge here (expectations on a scenario without any) stores nothing.
        pending = [m for m in self.dialogue_metrics if m.name not in recorded and metric_applies(m, context)]
        label = f"{self.simulator.scenario.id} × {self.simulator.persona.name}"
        for index, metric in enumerate(pending, start=1):
            emit(DialogueVerdictStarted(self.session_id, self.turn, metric.name, label, index, len(pending)))
            try:
                judgment = await metric.judge(
                    context, on_delta=lambda t: emit(TextDelta(self.session_id, self.turn, "judge", t))
                )
            except RagtuiError as exc:
                judgment = Judgment(metric=metric.name, score=None, details={"failed": True}, error=str(exc))
            except Exception as exc:  # a bug in one verdict must not turn a finished dialogue into an error
                log.exception("dialogue metric %s failed on session %s", metric.name, self.session_id)
                error = f"internal error: {type(exc).__name__}: {exc}"
                judgment = Judgment(metric=metric.name, score=None, details={"failed": True}, error=error)
            stored = self.store.add_dialogue_judgment(self.session_id, judgment)
            emit(DialogueVerdictReady(self.session_id, judgment, stored.id, stored.version))

    def _finish(self, reason: StopReason, error: str | None, emit: Callable[[Event], None]) -> DialogueDone:
        # Stopped mid-judging, the session score still counts every turn scored so far.
        score, unscored = self.store.finish(self.session_id, PRIMARY_METRIC, reason, error)
        self.phase = Phase.FINISHED
        self.stop_reason = reason
        self._claimed = False
        done = DialogueDone(self.session_id, reason, score, self.turn, unscored, error)
        emit(done)
        return done

    # -- resuming --------------------------------------------------------------------------

    def restore(self) -> None:
        """Rebuild the position from the store, to continue a session stopped earlier."""
        session = self.store.session(self.session_id)
        self.history = session.utterances()
        self.turn = max((m.turn for m in session.messages), default=0)
        bots = [m for m in session.messages if m.role == "bot"]
        if bots:
            last = bots[-1]
            self._last_bot = _BotTurn(last.id, last.text, last.passages)
            self._handed_over = is_handover(last.text)
        last_message = session.messages[-1] if session.messages else None
        if session.status == "finished" and session.stop_reason in ("done", "max_turns", "gave_up", "handed_over"):
            self.phase, self.stop_reason = Phase.FINISHED, session.stop_reason  # type: ignore[assignment]
        elif last_message is None:
            self.phase = Phase.USER
        elif last_message.role == "user":
            self.phase = Phase.BOT  # or, after a stored DONE, the finish (see _advance)
        else:
            self.phase = Phase.JUDGE  # judges what is missing, then closes the turn


def _extra_usage(checks: list[CheckResult], rejected: Completion | None = None) -> dict[str, int | None]:
    """Calls behind a customer message besides the one stored: the checks that used a model,
    and a first message that was rejected and asked again."""
    parts = [check.usage for check in checks if check.usage]
    if rejected is not None:
        parts.append(call_usage(rejected))
    return add_usage(parts)
