"""Render engine events (live) and stored sessions (replayed) into the three panes.

Live and replayed sessions go through the same small set of pane calls, so an opened session
looks like the one that was watched. Kept apart from the screen so the mapping from events to
what the operator sees reads in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ..core.dialogue.events import (
    DialogueDone,
    DialogueStarted,
    Event,
    Failure,
    MessageDone,
    StreamRestarted,
    TextDelta,
    TurnDone,
    VerdictReady,
)
from ..core.metrics import PRIMARY_METRIC
from ..core.record.labels import session_labels
from ..core.record.store import StoredSession
from .formatting import judgment_text, score_text, verdict_text
from .header import SessionHeader, SessionInfo
from .panes import RolePane

CUT_BY_LIMIT = " · cut by the token limit"

if TYPE_CHECKING:
    from .main_screen import MainScreen

SOURCE_LABELS = {"scenario": "scenario", "simulator": "simulator", "operator": "typed by operator", "bot": "bot"}


class EventView:
    def __init__(self, screen: MainScreen, header: SessionHeader) -> None:
        self.screen = screen
        self.header = header

    def pane(self, role: str) -> RolePane:
        return self.screen.pane(role)

    def reset(self, info: SessionInfo) -> None:
        for role in ("user", "bot", "judge"):
            self.pane(role).clear()
        self.header.info = info
        self.header.show()

    # -- live --------------------------------------------------------------------------------

    def show(self, event: Event) -> None:
        info = self.header.info
        if isinstance(event, TextDelta):
            self.pane(event.role).add_delta(event.turn, event.text)
            return  # no header refresh per token
        if isinstance(event, DialogueStarted):
            self.pane("user").add_note(f"Session #{event.session_id} started")
        elif isinstance(event, StreamRestarted):
            # What streamed so far will not be the message: drop it, say why, show the retry.
            self.pane(event.role).discard_live()
            self.pane(event.role).add_note(f"{event.reason} — trying again (attempt {event.attempt})")
        elif isinstance(event, MessageDone):
            label = SOURCE_LABELS.get(event.source, event.source)
            if event.finish_reason == "length":
                label += CUT_BY_LIMIT
            self.pane(event.role).finish_message(event.turn, event.text, label)
            info.turn = max(info.turn, event.turn)
        elif isinstance(event, VerdictReady):
            j = event.judgment
            text = verdict_text(
                event.turn, j.metric, event.version, j.score, j.details, j.error, info.threshold, j.model
            )
            self.pane("judge").discard_live()
            self.pane("judge").add_block(text)
        elif isinstance(event, TurnDone):
            info.score, info.judged = event.dialogue_score, info.judged + 1
            line = Text(f"Turn {event.turn} score ")
            line.append_text(score_text(event.score, info.threshold))
            line.append(" · dialogue ")
            line.append_text(score_text(event.dialogue_score, info.threshold))
            self.pane("judge").add_block(line, classes="block note")
        elif isinstance(event, Failure):
            if event.role != "judge":  # the judge pane's live text is its raw reply, kept apart
                self.pane(event.role).discard_live()  # a partial reply is no message
            self.pane(event.role).add_error(f"{event.role} failed in turn {event.turn}: {event.message}")
            self.screen.notify_plain(event.message, "error")
        elif isinstance(event, DialogueDone):
            info.score = event.score
            summary = Text(f"Dialogue ended: {event.stop_reason} after {event.turns} turn(s) · score ")
            # No judged turn at all is no score, which is not "unscored".
            judged = event.score is not None or event.unscored_turns
            summary.append_text(score_text(event.score, info.threshold) if judged else Text("–"))
            if event.unscored_turns:
                summary.append(f" · {event.unscored_turns} unscored", style="yellow")
            self.pane("judge").add_block(summary, classes="block note")
            self.screen.notify_plain(f"Session #{event.session_id} ended: {event.stop_reason}")
        self.header.show()

    # -- replay ------------------------------------------------------------------------------

    def replay(self, session: StoredSession) -> None:
        """Show a stored session as it would have looked live (newest verdict per turn)."""
        self.reset(
            SessionInfo(
                session_id=session.id,
                scenario=session.scenario_id,
                persona=session.persona_name,
                turn=max((m.turn for m in session.messages), default=0),
                max_turns=session.max_turns,
                threshold=session.threshold,
            )
        )
        for message in session.messages:
            role = "user" if message.role == "user" else "bot"
            label = SOURCE_LABELS.get(message.source, message.source)
            if message.cut_by_limit:
                label += CUT_BY_LIMIT
            self.pane(role).finish_message(message.turn, message.text, label)
        for partial in session.partials:
            pane = self.pane(partial.role if partial.role in ("user", "bot", "judge") else "bot")
            pane.add_error(f"turn {partial.turn}: partial reply, never completed — {partial.error}\n{partial.text}")
        self.replay_judge(session)

    def replay_judge(self, session: StoredSession) -> None:
        info = self.header.info
        pane = self.pane("judge")
        pane.clear()
        latest = session.latest_judgments()
        versions: dict[int, int] = {}
        for j in session.judgments:
            if j.metric == PRIMARY_METRIC:
                versions[j.turn] = versions.get(j.turn, 0) + 1
        labels = session_labels(self.screen.ragtui.store, session.id)
        for (turn, metric), j in sorted(latest.items()):
            pane.add_block(judgment_text(j, session.threshold))
            if versions.get(turn, 0) > 1:
                pane.add_note(f"turn {turn}: {versions[turn]} versions — v shows them side by side")
            for label in (lab for lab in labels if lab.turn == turn and lab.metric == metric):
                pane.add_note(f"turn {turn}: label {label.summary()} (a person's, not a verdict)")
        info.judged = sum(1 for (_t, m) in latest if m == PRIMARY_METRIC)
        info.score = session.score
        if session.status == "finished" and session.stop_reason:
            pane.add_note(f"Dialogue ended: {session.stop_reason}" + (f" — {session.error}" if session.error else ""))
        elif session.status == "interrupted":
            pane.add_note(
                "Interrupted: the process running it is gone. Continue it with space or a, or `ragtui run --resume`."
            )
        self.header.show()
