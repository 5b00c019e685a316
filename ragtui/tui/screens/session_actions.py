"""Starting, opening, continuing and closing sessions on the main screen (a mixin, to keep
files small; what it uses of the screen is ``context.DialogueHost``).

Opening a stored session replays it into the panes and, when an engine is available, resumes
it with ``Engine.resume_dialogue`` so step / auto-run continue where it stopped. The same
happens when s / a are pressed on a session that was cancelled, failed or interrupted: it is
continued, wherever it was opened from. Dialogues started here pause on a failed step.

Trials K > 1 store a run's plan of K entries first (as ``ragtui run --repeat K``), then start
trial 1; each next trial starts when the one before finishes (auto-run with ctrl+r). Trials not
started when the app closes stay in the plan: ``ragtui run --resume RUN`` runs them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.store import run_plan
from ...core.store.lineage import lineage_lines
from ...core.store.ownership import this_process
from ...core.types.errors import RagtuiError
from ..estimate_text import session_estimator
from ..store_watch import StoreChanged
from ..widgets.header import SessionInfo

if TYPE_CHECKING:
    from ...core.dialogue.state_machine import Dialogue
    from ..context import DialogueHost
    from ..dialogs.new_session import NewSessionRequest

    _Base = DialogueHost
else:
    _Base = object

# A session stopped this way can be continued with s / a. "interrupted": its process went away;
# "paused": left paused by a TUI that closed cleanly.
CONTINUABLE = {"cancelled", "error", "interrupted", "paused"}
# The new-session dialog's trials, kept in this app's memory only: not in the state file, which
# every TUI of the user shares (see last_choice.py).
TRIALS_KEY = "new-session-trials"
TOLD_KEY = "broken-files-told"  # the broken scenario and persona files this app has named


def continuable(status: str | None, stop_reason: str | None) -> bool:
    """A stopped session that s / a continue: cancelled, failed, or interrupted (its owner
    process is gone), as its status or its stop reason says."""
    return status in CONTINUABLE or (status == "finished" and stop_reason in CONTINUABLE)


class SessionActions(_Base):
    # Declared again here: mypy takes an assignment in a subclass of a protocol as a new
    # declaration, typed by the first value assigned, unless the subclass declares it.
    dialogue: Dialogue | None
    stopped: str | None
    # Trials of the run started from the new-session dialog not started yet, and how they run.
    pending_trials: list[run_plan.PlanEntry]
    trials_auto_run: bool
    waiting_request: NewSessionRequest | None  # chosen while connecting, started once connected

    # -- sessions ----------------------------------------------------------------------------

    def _can_switch(self) -> bool:
        if self.running:
            self.notify_plain("A dialogue is running: pause (p) or cancel (c) it first.", "warning")
            return False
        return True

    def action_new_session(self) -> None:
        from ...core.content.persona_folders import folders_of, load_merged
        from ...core.content.picking import Skipped
        from ...core.content.scenarios import load_scenarios
        from ...core.metrics import KNOWN_METRICS
        from ..dialogs.new_session import NewSessionScreen

        if not self._can_switch():
            return
        engine = self.ragtui.engine
        if engine is None and not self.ragtui.connecting:
            self.notify_plain(self.ragtui.problem or "no engine", "warning")
            return
        # While ragtui connects, choosing already works (it needs no model): the session starts
        # once connected.
        config = self.ragtui.config
        language = engine.language if engine is not None else config.language
        skipped: list[Skipped] = []  # broken files are named and left out: the others can still run
        try:
            scenarios = load_scenarios(config.scenarios, language, skipped)
            personas = load_merged(folders_of(config), language, skipped)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        # Each broken file is said once, not on every n; said again only when what is wrong changed.
        told: set[str] = self.ragtui.remembered.setdefault(TOLD_KEY, set())
        for s in skipped:
            if str(s.error) not in told:
                told.add(str(s.error))
                self.notify_plain(f"Skipped {s.name!r}: {s.error}", "warning")
        from ..last_choice import load_last_choice

        last = load_last_choice()  # the last choice, kept across restarts, not the first entries
        known = set(KNOWN_METRICS)
        screen = NewSessionScreen(
            scenarios,
            personas,
            language,
            list(KNOWN_METRICS),
            [m for m in last.metrics if m in known] if last else list(config.metrics),
            last=last,
            estimate=session_estimator(self.ragtui),
            trials=self.ragtui.remembered.get(TRIALS_KEY, config.repeat),
        )
        self.app.push_screen(screen, self._start_session)

    def _start_session(self, request: NewSessionRequest | None) -> None:
        if request is None:
            return
        from ..last_choice import LastChoice, save_last_choice

        scenario = request.scenario
        question = scenario.question if scenario.id == "adhoc" else ""
        save_last_choice(LastChoice(scenario.id, request.persona.name, question, request.metrics, request.auto_run))
        self.ragtui.remembered[TRIALS_KEY] = request.trials  # in memory: this TUI's own
        engine = self.ragtui.engine
        if engine is None:
            if self.ragtui.connecting:  # chosen while connecting: started by start_waiting()
                self.waiting_request = request
                self.set_status("The session starts as soon as ragtui is connected…")
            else:
                self.notify_plain(self.ragtui.problem or "Dialogues cannot run.", "warning")
            return
        self.pending_trials, self.trials_auto_run = [], request.auto_run
        try:
            if request.trials > 1:
                self.pending_trials = self._planned_trials(request)
                dialogue = engine.planned_dialogue(self.pending_trials.pop(0))
            else:
                dialogue = engine.new_dialogue(request.scenario, request.persona, metrics=list(request.metrics))
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        self._show_new(dialogue, request.auto_run)

    def start_waiting(self) -> None:
        """Connecting finished: start the session chosen meanwhile, or say why it cannot."""
        request, self.waiting_request = self.waiting_request, None
        if request is None:
            return
        if self.ragtui.engine is None:
            self.notify_plain(f"The session chosen cannot start: {self.ragtui.problem or 'no engine'}", "warning")
            return
        self._start_session(request)

    def _planned_trials(self, request: NewSessionRequest) -> list[run_plan.PlanEntry]:
        """Store the run's plan of ``request.trials`` trials of the pair, all or nothing."""
        from ...core.dialogue.engine import new_run_id

        engine = self.ragtui.engine
        assert engine is not None
        run_id = new_run_id()
        scenario, persona = request.scenario.to_dict(), request.persona
        return run_plan.store_plan(
            self.ragtui.store,
            run_id,
            [run_plan.PlannedPair(scenario, persona, trial) for trial in range(1, request.trials + 1)],
            max_turns=engine.config.max_turns,
            threshold=engine.config.threshold,
            metrics=list(request.metrics),
            models={role: e.model for role, e in engine.endpoints.items() if not e.embedded},
        )

    def _show_new(self, dialogue: Dialogue, auto_run: bool) -> None:
        dialogue.pause_on_failure = True
        self.dialogue, self.stopped = dialogue, None
        self.store_watch.follow(None)  # this app runs the session shown now
        scenario, persona = dialogue.simulator.scenario, dialogue.simulator.persona
        self.view.reset(
            SessionInfo(
                session_id=dialogue.session_id,
                scenario=scenario.id,
                question=scenario.question,
                persona=persona.name,
                max_turns=dialogue.max_turns,
                threshold=dialogue.threshold,
            )
        )
        self.refresh_state()
        if auto_run:
            self.action_auto_run()

    def next_trial(self) -> None:
        """After a dialogue stream ends: once a trial has finished (not cancelled or failed),
        start the next trial of its run, auto-run if the run was started so."""
        dialogue, engine = self.dialogue, self.ragtui.engine
        if not self.pending_trials or dialogue is None or engine is None or self.running:
            return
        if not dialogue.finished or dialogue.stop_reason in CONTINUABLE:
            return
        entry = self.pending_trials.pop(0)
        try:
            following = engine.planned_dialogue(entry)
        except run_plan.PlanTaken:  # `ragtui run --resume` started this trial: on to the next
            self.next_trial()
            return
        except RagtuiError as exc:
            self.pending_trials = []
            self.notify_plain(f"{exc} — `ragtui run --resume {entry.run_id}` runs the trials left", "error")
            return
        self.notify_plain(f"Run {entry.run_id}: trial {entry.trial} of {entry.trial + len(self.pending_trials)}")
        self._show_new(following, self.trials_auto_run)

    def open_session(self, session_id: int | None) -> None:
        """Show a stored session, and make it continuable when an engine is available."""
        if session_id is None or not self._can_switch():
            return
        self.pending_trials = []  # another session: the run's trials left stay for `ragtui run --resume`
        try:
            session = self.ragtui.store.session(session_id)
            engine = self.ragtui.engine
            # Another live process runs it: two writers would duplicate its turns and verdicts.
            owner = session.owner if session.status == "running" else None
            elsewhere = owner is not None and owner != this_process()
            dialogue = engine.resume_dialogue(session_id) if engine is not None and not elsewhere else None
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        if dialogue is not None:
            dialogue.pause_on_failure = True
        self.dialogue = dialogue
        stopped = continuable(session.status, session.stop_reason) and not (dialogue and dialogue.finished)
        self.stopped = (session.stop_reason or session.status) if stopped else None
        self.view.replay(session)
        self.refresh_state()
        # kill -9 writes nothing: the watcher looks for the owner's death itself.
        self.store_watch.follow(session_id if elsewhere else None)
        if elsewhere and owner is not None:
            self.set_status(f"Read only: session #{session_id} is being run by {owner.describe()}.")
        elif self.dialogue is None:
            self.set_status("Read only: no endpoint is configured to continue this session.")
        if session.error:
            self.notify_plain(f"Session #{session_id} stopped on an error: {session.error}", "warning")
        lineage = lineage_lines(self.ragtui.store, session)
        if lineage:
            self.set_status(f"Session #{session_id}: " + "; ".join(lineage))

    # -- following the record ----------------------------------------------------------------

    def on_store_changed(self, _message: StoreChanged) -> None:
        """Another process wrote to the database: a session shown read only (run elsewhere)
        is redrawn from the record, and becomes continuable once that process finished it."""
        session_id = self.session_id
        if session_id is None or self.running or self.dialogue is not None:
            return  # nothing shown, or this app drives it: its own writes are on screen already
        try:
            session = self.ragtui.store.session(session_id)
        except RagtuiError:
            return  # deleted elsewhere: the next key on it says so
        seen = (
            session.status,
            session.stop_reason,
            session.updated_at,
            len(session.messages),
            len(session.judgments),
            len(session.partials),
        )
        if seen == getattr(self, "_followed", None):
            return  # another session changed (or only a heartbeat): nothing to redraw
        self._followed = seen
        self.open_session(session_id)

    def release_for_exit(self) -> None:
        """Closing cleanly with a session paused here: record it as paused, so it does not later
        read as interrupted (its process gone) nor as running; s / a continue it."""
        dialogue, session_id = self.dialogue, self.session_id
        if dialogue is None or session_id is None or dialogue.finished or self.running:
            return
        try:
            session = self.ragtui.store.session(session_id)
            if session.status == "running" and session.owner == this_process():
                self.ragtui.store.set_status(session_id, "paused", error=session.error)
        except RagtuiError as exc:  # closing anyway: the session reads as interrupted, still continuable
            self.notify_plain(str(exc), "warning")

    def continue_session(self, session_id: int) -> Dialogue | None:
        """Pick up a cancelled, failed or interrupted session where the store says it stopped
        (a metric missing on the last turn included); None when there is nothing left to do."""
        engine = self.ragtui.engine
        if engine is None:
            self.notify_plain(self._not_ready() or self.ragtui.problem or "Dialogues cannot run.", "warning")
            return None
        try:
            dialogue = engine.resume_dialogue(session_id)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return None
        dialogue.pause_on_failure = True
        previous = self.dialogue
        self.dialogue = dialogue
        if dialogue.finished:
            self.notify_plain(f"Session #{session_id} has nothing left to run. Press n for a new one.", "warning")
            return None
        self.stopped = (previous.stop_reason if previous is not None else None) or "stopped"
        return dialogue

    def forget_session(self, session_id: int) -> None:
        """The sessions browser deleted ``session_id``; close it here if it was open."""
        if self.session_id == session_id:
            self.dialogue, self.stopped = None, None
            self.view.reset(SessionInfo(threshold=self.ragtui.config.threshold))
            self.set_status("The open session was deleted. Press n to start a new one.")
