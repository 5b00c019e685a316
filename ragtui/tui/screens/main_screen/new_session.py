"""n: a new session — a scenario and a persona, or a free question — chosen in the new-session
dialog (choosing works while ragtui still connects: the session starts once connected).

Trials K > 1 store a run's plan of K entries first (as ``ragtui run --repeat K``), then start
trial 1; each next trial starts when the one before finishes (auto-run when the run was started
so). Trials not started when the app closes stay in the plan: ``ragtui run --resume RUN`` runs
them. Dialogues started here pause on a failed step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....core.store import run_plan
from ....core.types.errors import RagtuiError
from ...estimate_text import session_estimator
from ...widgets.header import SessionInfo
from .sessions import CONTINUABLE

if TYPE_CHECKING:
    from ....core.dialogue.state_machine import Dialogue
    from ...dialogs.new_session import NewSessionRequest
    from .host import MainHost

    _Base = MainHost
else:
    _Base = object

# The new-session dialog's trials, kept in this app's memory only: not in the state file, which
# every TUI of the user shares (see last_choice.py).
TRIALS_KEY = "new-session-trials"
TOLD_KEY = "broken-files-told"  # the broken scenario and persona files this app has named


class NewSessions(_Base):
    # Declared again here: mypy takes an assignment in a subclass of a protocol as a new
    # declaration, typed by the first value assigned, unless the subclass declares it.
    dialogue: Dialogue | None
    stopped: str | None
    pending_trials: list[run_plan.PlanEntry]
    trials_auto_run: bool
    waiting_request: NewSessionRequest | None

    def action_new_session(self) -> None:
        from ....core.content.persona_folders import folders_of, load_merged
        from ....core.content.picking import Skipped
        from ....core.content.scenarios import load_scenarios
        from ....core.metrics import KNOWN_METRICS
        from ...dialogs.new_session import NewSessionScreen

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
        from ...last_choice import load_last_choice

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
        from ...last_choice import LastChoice, save_last_choice

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
        from ....core.dialogue.engine import new_run_id

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


__all__ = ["TOLD_KEY", "TRIALS_KEY", "NewSessions"]
