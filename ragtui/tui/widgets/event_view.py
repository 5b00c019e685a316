"""The three panes (Customer, Bot, Judge) and the rendering of engine events into them: live,
and replayed from the store.

A widget of its own that never calls the screen: what the header shows about the session is its
reactive ``info``, and what the operator should be told (a failed step, a dialogue's end) it
posts as a ``Notice`` message for the screen to show.

One rendering path: a stored session is turned back into the events its dialogue emitted
(``replay.session_events``) and drawn by ``show``, so a reopened or resized session looks like
the one that was watched: same order (the rubric before the other metrics), the same
"Turn N score" lines, the same end line. Only notifications are live-only.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.reactive import reactive

from ...core.dialogue.events import (
    DialogueDone,
    DialogueStarted,
    DialogueVerdictReady,
    DialogueVerdictStarted,
    Event,
    Failure,
    MessageDone,
    SimulatorRetry,
    StreamRestarted,
    TextDelta,
    TurnDone,
    VerdictReady,
)
from ...core.dialogue.progress import StepMeter
from ...core.registry import metric_views
from ...core.store.labels import session_labels
from ...core.store.store import Store
from ...core.text.partial_text import partial_line
from ...core.text.score_text import styled_score
from ...core.types.agreement_floor import AgreementFloor, agreement_words, is_low
from ...core.types.calls import cut_words
from ...core.types.stored import PartialReply, StoredSession
from ..dialogue_text import dialogue_live_block
from ..formatting import verdict_text
from ..replay import PRIMARY_METRIC, session_events
from ..safe_text import clean_text
from .header import SessionInfo
from .panes import RolePane

SOURCE_LABELS = {
    "scenario": "scenario",
    "simulator": "simulator",
    "simulator_off_role": "simulator OFF-ROLE (still failing its check after one retry)",
    "operator": "typed by operator",
    "bot": "bot",
    # an imported real conversation (`ragtui import`): agents and notes are shown, never judged
    "imported_customer": "real customer",
    "imported_bot": "real bot",
    "imported_agent": "human agent · not judged",
    "imported_note": "note · not judged",
}
ROLES = ("user", "bot", "judge")


def session_info(session: StoredSession) -> SessionInfo:
    return SessionInfo(
        session_id=session.id,
        scenario=session.scenario_id,
        question=session.question,
        persona=session.persona_name,
        max_turns=session.max_turns,
        threshold=session.threshold,
    )


class EventView(Horizontal):
    """The panes side by side; ``show`` draws one event, ``replay`` a stored session."""

    class Notice(Message):
        """Something the operator should be told at once (live events only, never a replay)."""

        def __init__(self, text: str, severity: SeverityLevel = "information") -> None:
            super().__init__()
            self.text, self.severity = text, severity

    # The open session as the header shows it: turn, running score, the role streaming now.
    info: reactive[SessionInfo] = reactive(SessionInfo, repaint=False)

    def __init__(self, store: Store, floor: AgreementFloor | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.store = store
        # The judge agreement under which scores are drawn as low agreement ([min_judge_agreement]).
        self.floor = floor or AgreementFloor()  # people's labels, drawn beside the verdicts of a replayed session
        self.meter = StepMeter()  # tokens and tokens/s of the role streaming now, for the header
        # Turns whose score line is drawn: continuing (or a fork) closes the last turn again
        # when its verdicts are already stored, and that must not draw its line a second time.
        self._drawn_turns: set[tuple[int, int]] = set()
        # The heading of the dialogue verdict being judged now ("Dialogue · resolution (1/3) …"),
        # between its DialogueVerdictStarted and its verdict: the judge's text streamed then.
        self._judging_dialogue: str | None = None
        # Why the judge is being asked again (a broken stream, a reply that could not be read),
        # shown in the heading of its next attempt's text until the verdict replaces that text:
        # the first attempt's text is dropped, never glued to the second's.
        self._asked_again: str | None = None

    def compose(self) -> ComposeResult:
        yield RolePane("Customer", "user", id="pane-user")
        yield RolePane("Bot", "bot", id="pane-bot")
        yield RolePane("Judge", "judge", id="pane-judge", separate_json=True)

    def pane(self, role: str) -> RolePane:
        return self.query_one(f"#pane-{role}", RolePane)

    def reset(self, info: SessionInfo) -> None:
        for role in ROLES:
            self.pane(role).clear()
        self._drawn_turns.clear()
        self._judging_dialogue = None
        self._asked_again = None
        self.info = info

    def show(self, event: Event, *, live: bool = True) -> None:
        self.meter.observe(event)
        step = self.meter.live.get(event.session_id)
        # A dialogue verdict is named from its start: its first token can be a minute away.
        now = step.describe(self.meter.clock()) if step is not None and (step.tokens or step.verdict) else ""
        info = dataclasses.replace(self.info, live=now)
        if isinstance(event, TextDelta):
            # After the last turn the judge streams the dialogue's verdicts, not a turn's.
            heading = self._judge_heading(event.turn) if event.role == "judge" else None
            self.pane(event.role).add_delta(event.turn, event.text, heading)
            if step is not None and step.tokens % 8 == 1:
                self.info = info  # every few tokens, not per token: each one redraws the header
            return
        if isinstance(event, DialogueVerdictStarted):
            label = metric_views.label(event.metric)
            self._judging_dialogue = f"Dialogue · {label} ({event.index}/{event.total}) …"
        elif isinstance(event, DialogueStarted):
            self.pane("user").add_note(f"Session #{event.session_id} started")
        elif isinstance(event, StreamRestarted):
            # What streamed so far will not be the message: drop it, say why, show the retry.
            self.pane(event.role).discard_live()
            if event.role == "judge":  # its text goes when the verdict comes, and the reason with it
                self._asked_again = f"{event.reason} — asked again (attempt {event.attempt})"
            else:
                self.pane(event.role).add_note(f"{event.reason} — trying again (attempt {event.attempt})")
        elif isinstance(event, MessageDone):
            label = SOURCE_LABELS.get(event.source, event.source)
            if event.source == "scenario" and info.scenario == "adhoc":
                label = "your question"  # a free question is no scenario's
            if cut_words(event.finish_reason):  # the token limit, or reply_timeout mid-answer
                label += f" · {cut_words(event.finish_reason)}"
            self.pane(event.role).finish_message(event.turn, event.text, label)
            info = dataclasses.replace(info, turn=max(info.turn, event.turn))
        elif isinstance(event, VerdictReady):
            j = event.judgment
            text = verdict_text(
                event.turn, j.metric, event.version, j.score, j.details, j.error, info.threshold, j.model, self.floor
            )
            if j.metric == PRIMARY_METRIC and j.score is not None:  # the header names the judge's agreement
                low = is_low(j.details, self.floor)
                info = dataclasses.replace(info, agreement=agreement_words(j.details, self.floor), low=low)
            self._asked_again = None
            self.pane("judge").discard_live()
            self.pane("judge").add_block(text)
        elif isinstance(event, SimulatorRetry):
            self.pane("user").discard_live()
            self.pane("user").add_note(f"Turn {event.turn}: customer asked again ({event.problem}: {event.why})")
        elif isinstance(event, DialogueVerdictReady):
            self._judging_dialogue = self._asked_again = None
            j = event.judgment
            self.pane("judge").discard_live()
            block = dialogue_live_block(j.metric, event.version, j.score, j.details, j.error, self.floor)
            self.pane("judge").add_block(block)
        elif isinstance(event, TurnDone) and (event.session_id, event.turn) in self._drawn_turns:
            info = dataclasses.replace(info, score=event.dialogue_score)  # already drawn: the score only
        elif isinstance(event, TurnDone):
            self._drawn_turns.add((event.session_id, event.turn))
            info = dataclasses.replace(info, score=event.dialogue_score, judged=info.judged + 1)
            line = Text(f"Turn {event.turn} score ")
            line.append_text(styled_score(event.score, info.threshold, info.low))
            line.append(" · dialogue ")
            line.append_text(styled_score(event.dialogue_score, info.threshold, info.low))
            self.pane("judge").add_block(line, classes="block note")
        elif isinstance(event, Failure):
            self._judging_dialogue = self._asked_again = None  # a retry starts the dialogue verdict again
            if event.role != "judge":  # the judge pane's live text is its raw reply, kept apart
                self.pane(event.role).discard_live()  # a partial reply is no message
            self.pane(event.role).add_error(f"{event.role} failed in turn {event.turn}: {event.message}")
            if live:
                self.post_message(self.Notice(event.message, "error"))
        elif isinstance(event, DialogueDone):
            self._judging_dialogue = self._asked_again = None
            for role in ROLES:  # e.g. the judge's partial JSON after a cancel
                self.pane(role).discard_live()
            info = dataclasses.replace(info, score=event.score)
            summary = Text(f"Dialogue ended: {event.stop_reason} after {event.turns} turn(s) · score ")
            # No judged turn at all is no score, which is not "unscored".
            judged = event.score is not None or event.unscored_turns
            summary.append_text(styled_score(event.score, info.threshold, info.low) if judged else Text("–"))
            if event.unscored_turns:
                summary.append(f" · {event.unscored_turns} unscored", style="yellow")
            if event.error:
                summary.append(f" — {clean_text(event.error)}")
            self.pane("judge").add_block(summary, classes="block note")
            if live:
                self.post_message(self.Notice(f"Session #{event.session_id} ended: {event.stop_reason}"))
        self.info = info

    def _judge_heading(self, turn: int) -> str:
        """What the judge's streamed text is headed: its turn, or the dialogue verdict being
        judged; and why it is being asked again, when it is."""
        heading = self._judging_dialogue or f"Turn {turn} …"
        return f"{heading} · {self._asked_again}" if self._asked_again else heading

    def _draw_partials(self, partials: list[PartialReply], role: str | None, turn: int | None) -> list[PartialReply]:
        """Draw the partial replies of ``role`` in ``turn`` (None: any); return the others."""
        left: list[PartialReply] = []
        for partial in partials:
            shown_as = partial.role if partial.role in ROLES else "bot"
            if (role is None or role == shown_as) and (turn is None or turn == partial.turn):
                if partial.cancelled:  # as it went live: the streamed text gone, the cancel said
                    self.pane(shown_as).add_note(partial_line(partial))
                else:
                    self.pane(shown_as).add_error(f"{partial_line(partial)}\n{partial.text}")
            else:
                left.append(partial)
        return left

    def replay(self, session: StoredSession, *, ended: bool = True) -> None:
        """Draw a stored session through ``show``, as it looked live (newest verdict per metric);
        then what only the record has: partial replies never completed, an interruption."""
        self.reset(session_info(session))
        pending = list(session.partials)
        for event in session_events(session, ended=ended):
            # A failed attempt goes before the message or verdict that replaced it, as it came
            # live: not after the last turn, where it would read as a failure of the end.
            if isinstance(event, MessageDone | VerdictReady | DialogueVerdictReady):
                role = event.role if isinstance(event, MessageDone) else "judge"
                turn = event.turn if isinstance(event, MessageDone | VerdictReady) else None
                pending = self._draw_partials(pending, role, turn)
            self.show(event, live=False)
        if not any(j.metric == PRIMARY_METRIC for j in session.judgments):
            self.info = dataclasses.replace(self.info, score=session.score)
        self._draw_partials(pending, None, None)  # never followed by a complete reply
        # People's labels, beside the verdicts they are about and never mistaken for one.
        for label in session_labels(self.store, session.id):
            self.pane("judge").add_note(f"turn {label.turn}: label {label.summary()} (a person's, not a verdict)")
        if ended and session.status == "interrupted":
            self.pane("judge").add_note(
                "Interrupted: the process running it is gone. Continue it with s or a, or `ragtui run --resume`."
            )
