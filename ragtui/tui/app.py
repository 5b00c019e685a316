"""The ragtui Textual app: owns the config, endpoints, store and engine; hosts the screens.

Dependencies come in through the constructor so tests (and the benchmark) can inject a store
on a temporary file and endpoints on the fake server; then the engine is built at once. Given
no endpoints (``ragtui`` itself), the app shows its first frame first and connects after, in a
thread: endpoints (asking a server which model it serves when none is named), the embedded
model, then the engine (the OpenAI client, the metrics) — the imports that made start-up slow.
If the engine cannot be built (no endpoint, a broken prompt file), the app still works for
browsing sessions and editing personas, and says why dialogues cannot run.

Screens other than the main one are imported when first opened, for the same reason. Screens
see the app through ``context.TuiServices`` and never import this module; what they have to
tell it comes as Textual messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen

from ..core.config.settings import Config
from ..core.store.store import Store, preload
from ..core.types.errors import RagtuiError
from .notices import NoticeLog
from .safe_text import one_line
from .screens.main_screen import MainScreen
from .screens.too_small import MIN_SIZE, TooSmallScreen
from .widgets.header import NO_ENDPOINT_HELP

if TYPE_CHECKING:  # the endpoints' module is read by the connecting thread, after the first frame
    from ..core.dialogue.engine import Engine
    from ..core.models.endpoints import Endpoint
    from ..core.models.local_model import LocalModel
    from ..core.runs.bootstrap import Overrides
    from .screens.sessions_screen import SessionsScreen

EngineFactory = Callable[[Config, "dict[str, Endpoint]", Store], "Engine"]

# (title, help, action on the main screen) for the command palette.
MAIN_COMMANDS = [
    ("New session", "Pick a scenario and a persona, or type a free question", "new_session"),
    ("Step", "Run the next step: customer message, bot answer or verdict", "step"),
    ("Auto-run", "Run the dialogue to the end (resumes after a pause)", "auto_run"),
    ("Pause", "Stop auto-run after the step in progress", "pause"),
    ("Cancel dialogue", "Stop now; the session is recorded as cancelled", "cancel"),
    ("Type as customer", "Write the next customer message yourself", "customer"),
    ("Verdicts", "Criteria, comment, exact prompt, raw reply, passages, versions", "verdicts"),
    ("Re-judge a turn", "Same judge, another model, or an edited prompt", "rejudge"),
    ("Export CSV", "Export the open session to a CSV file", "export"),
    ("Fork session", "Copy turns 1..N of the open session into a new one and continue it live", "fork"),
    ("Label turn", "Your own score, a note, agree/disagree with the judge, for the newest turn", "label"),
    ("To label", "Turns you have not labelled (the open session's run, else every session)", "label_queue"),
]
SCREEN_ACTIONS = {"verdicts", "label_queue"}  # offered on every screen, not only the main one


class RagtuiApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "ragtui"
    # Work on every screen; kept out of the footers (the main screen shows the ones it has room
    # for) so each screen's footer has room for its own keys at 80 columns. Help lists them all.
    BINDINGS = [
        Binding("o", "sessions", "Sessions", show=False, tooltip="Browse, open or delete stored sessions"),
        Binding("e", "personas", "Personas", show=False, tooltip="Edit personas"),
        Binding("R", "runs", "Runs", show=False, tooltip="Runs: scores, trends, compare two, replay one"),
        Binding("D", "drafts", "Drafts", show=False, tooltip="Review generated scenarios: accept, edit or reject"),
        Binding("M", "messages", "Messages", show=False, tooltip="The notifications shown so far, newest first"),
        Binding("f1", "help", "Help", key_display="F1", tooltip="Every key, and what the scores mean"),
        Binding("question_mark", "help", "Help", show=False, tooltip="Every key, and what the scores mean"),
        Binding("ctrl+q", "quit", "Quit", show=False, tooltip="Quit; a running dialogue is cancelled cleanly"),
    ]

    def __init__(
        self,
        config: Config,
        endpoints: dict[str, Endpoint] | None,
        store: Store,
        *,
        engine_factory: EngineFactory | None = None,
        endpoint_error: str | None = None,
        local_model: LocalModel | None = None,
        overrides: Overrides | None = None,
    ) -> None:
        super().__init__()
        # Every notification, as shown, kept after its toast expires: the Messages dialog reads it.
        self.notices = NoticeLog()
        self.local_model = local_model  # the embedded server, when this app started one
        self.config = config
        self.endpoints: dict[str, Endpoint] = endpoints or {}
        self.store = store
        if store.agreement_lookup is None:  # every verdict shown with the card's agreement as it stands
            # Imported here: the first frame needs no metric module (``ragtui`` opens its store
            # through ``bootstrap.open_store``, which installs the lookup, so this runs in tests).
            from ..core.judge_quality.card_lookup import install_card_lookup

            install_card_lookup(store, config.min_judge_agreement)
        self.engine: Engine | None = None
        self.problem: str | None = endpoint_error  # why dialogues cannot run, when they cannot
        self.connecting: str | None = None  # what is being connected, until the engine is ready
        self.remembered: dict[str, Any] = {}  # dialogs' last choices (new session, re-judge)
        self.unreachable: dict[str, str] = {}  # role → why its endpoint did not answer at start
        self._engine_factory = engine_factory
        self._overrides = overrides
        if endpoints is None:
            self.connecting = "Connecting to the model endpoints…"
        else:
            self._build_engine(endpoints)

    def _build_engine(self, endpoints: dict[str, Endpoint]) -> None:
        self.endpoints = endpoints
        if self.problem is None and any(e.base_url is None for e in endpoints.values()):
            self.problem = NO_ENDPOINT_HELP
        if self.problem is None:
            from ..core.dialogue.engine import Engine
            from ..core.models.embedded import ServerRecovery

            try:
                self.engine = (self._engine_factory or Engine)(self.config, endpoints, self.store)
                if self.local_model is not None:
                    # A server that dies mid-step is restarted once and the step retried.
                    self.engine.recover = ServerRecovery(self.local_model)
            except RagtuiError as exc:
                self.problem = f"Dialogues cannot run: {exc}"

    def get_default_screen(self) -> Screen:
        # MainScreen gets ``app`` from Screen; mypy finds it first on the MainHost protocol its parts
        # are typed against (earlier in the MRO), where it is only declared.
        return MainScreen()  # type: ignore[abstract]

    @property
    def main_screen(self) -> MainScreen | None:
        default = self.screen_stack[0] if self.screen_stack else None
        return default if isinstance(default, MainScreen) else None

    @property
    def running_session(self) -> int | None:
        """The session a dialogue is running in right now, if any (it cannot be deleted)."""
        main = self.main_screen
        return main.session_id if main is not None and main.running else None

    def on_mount(self) -> None:
        if self.connecting:
            # After the first frame is on screen: the thread's imports would compete with it.
            self.call_after_refresh(self._connect)
        else:
            self._say_problem()
            self._say_skipped_knowledge()
            self._check_reachable()
        self._check_size(self.size.width, self.size.height)
        # SIGTERM quits like ctrl+q: a running dialogue is recorded as cancelled, not left running.
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not the main thread
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.on_sigterm)
            self._sigterm_installed = True

    def _say_problem(self) -> None:
        if self.problem:
            self.notify(self.problem, title="Model endpoint", severity="warning", timeout=12, markup=False)

    @work(thread=True, exclusive=True, group="connect", exit_on_error=False)
    def _connect(self) -> None:
        """Runs in a thread after the first frame: endpoints (a GET /models when no model is
        named), the embedded model when no endpoint is configured, and the engine's imports."""
        from ..core.models.embedded import needs_embedded, start_embedded
        from ..core.models.endpoints import discovery_note
        from ..core.runs.bootstrap import Overrides, endpoints_for

        endpoints: dict[str, Endpoint] = {}
        problem: str | None = None
        try:
            endpoints = endpoints_for(self.config, self._overrides or Overrides())
        except RagtuiError as exc:
            problem = f"No usable endpoint: {exc}"
        if problem is None and needs_embedded(endpoints):

            def progress(stage: str, done: int, total: int) -> None:
                share = f" {100 * done // total}%" if total else ""
                self.call_from_thread(self._set_connecting, f"Starting the embedded model: {stage}{share}…")

            self.call_from_thread(self._set_connecting, "Starting the embedded model (demo quality)…")
            try:
                self.local_model = start_embedded(self.config, endpoints, progress)
            except RagtuiError as exc:
                problem = f"The embedded model could not start: {exc}"
        if problem is None:  # connected: what is left is loading ragtui's own engine, not the network
            self.call_from_thread(self._set_connecting, "Connected; loading the dialogue engine…")
        preload()  # the slow imports, off the UI thread

        import ragtui.core.dialogue.engine  # noqa: F401

        self.call_from_thread(self._connected, endpoints, problem, discovery_note(endpoints))

    def _set_connecting(self, what: str) -> None:
        self.connecting = what
        if self.main_screen is not None:
            self.main_screen.refresh_state()

    def _connected(self, endpoints: dict[str, Endpoint], problem: str | None, note: str | None) -> None:
        self.problem = problem
        self._build_engine(endpoints)
        self.connecting = None
        if self.main_screen is not None:
            self.main_screen.connected()
        self._say_problem()
        if note and self.engine is not None:
            self.notify(note, title="Model endpoint", timeout=10, markup=False)
        from ..core.models.embedded import judge_caveat

        caveat = judge_caveat(endpoints, self.config.language)
        if caveat and self.engine is not None:
            self.notify(caveat, title="Judge", severity="warning", timeout=15, markup=False)
        self._say_skipped_knowledge()
        self._check_reachable()

    @work(exclusive=True, group="reachable", exit_on_error=False)
    async def _check_reachable(self) -> None:
        """Ask each role's server whether it answers, as ``ragtui run`` does before its first
        dialogue, but in the background: the screen works meanwhile (``reachability``)."""
        from ..core.models.preflight import unreachable_roles
        from .reachability import roles_to_check

        if self.engine is None:
            return
        self.unreachable = await unreachable_roles(roles_to_check(self.config, self.endpoints))
        if self.main_screen is not None:
            self.main_screen.reach_changed()

    @work(thread=True, exclusive=True, group="knowledge", exit_on_error=False)
    def _say_skipped_knowledge(self) -> None:
        """The built-in bot's knowledge folder, read now in a thread (PDFs and HTML take a
        moment; the screen does not wait): a file it cannot read is said at start, not
        discovered in a passage that never comes, and a folder with nothing readable is the one
        error line it would be on the first step. The index is the engine's, built once."""
        from ..core.knowledge.folder import skipped_lines
        from ..core.registry.bots import uses_bot_role

        engine = self.engine
        if engine is None or not uses_bot_role(self.config.bot.type):
            return
        try:
            skipped = engine.knowledge.skipped
        except RagtuiError as exc:
            self.call_from_thread(
                self.notify, str(exc), title="Knowledge base", severity="error", timeout=15, markup=False
            )
            return
        if skipped:
            lines = "\n".join(skipped_lines(skipped, limit=3))
            self.call_from_thread(
                self.notify, lines, title="Knowledge base", severity="warning", timeout=15, markup=False
            )

    # -- terminal size -----------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        """Below 80×24 the layout cannot hold: one line says so instead of a broken screen."""
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        on_top = isinstance(self.screen, TooSmallScreen)
        if small and not on_top:
            self.push_screen(TooSmallScreen())
        elif not small and on_top:
            self.pop_screen()

    def on_sessions_screen_deleted(self, message: SessionsScreen.Deleted) -> None:
        main = self.main_screen
        if main is not None:
            main.forget_session(message.session_id)

    def on_sigterm(self) -> None:
        self.run_worker(self.action_quit(), exit_on_error=False)

    # -- actions -----------------------------------------------------------------------------

    def _in_a_dialog(self) -> bool:
        """A dialog is open: o / e / R (typed into a list, say) must not open a screen over it."""
        from .dialogs.dialog import Dialog

        return isinstance(self.screen, Dialog)

    def action_sessions(self) -> None:
        from .screens.sessions_screen import SessionsScreen

        if isinstance(self.screen, SessionsScreen | TooSmallScreen) or self._in_a_dialog():
            return
        main = self.main_screen
        self.push_screen(SessionsScreen(), main.open_session if main else None)

    def action_personas(self) -> None:
        from .screens.personas_screen import PersonasScreen

        if not isinstance(self.screen, PersonasScreen | TooSmallScreen) and not self._in_a_dialog():
            language = self.engine.language if self.engine else self.config.language
            self.push_screen(PersonasScreen(language))

    def action_runs(self) -> None:
        from .screens.runs_screen import RunsScreen

        if not isinstance(self.screen, RunsScreen | TooSmallScreen) and not self._in_a_dialog():
            self.push_screen(RunsScreen())

    def action_drafts(self) -> None:
        from .screens.draft_review import DraftReviewScreen

        if not isinstance(self.screen, DraftReviewScreen | TooSmallScreen) and not self._in_a_dialog():
            self.push_screen(DraftReviewScreen())

    def action_compare(self) -> None:
        """Comparing starts on the runs list: the palette's "Compare runs" opens it and says how."""
        self.action_runs()
        self.notify("b marks the base run; highlight the other and press Enter to compare.", markup=False)

    def action_restart_model(self) -> None:
        if self.local_model is not None:
            self.notify("Restarting the embedded model…", title="Embedded model", markup=False)
            self._restart_model()

    @work(thread=True, exclusive=True, group="embedded-model")
    def _restart_model(self) -> None:
        """Runs in a thread: starting the server blocks for a few seconds while it loads."""
        assert self.local_model is not None
        # The address the roles use; the model's own is None once its server has died.
        before = next((e.base_url for e in self.endpoints.values() if e.embedded), None)
        try:
            after = self.local_model.restart()
        except RagtuiError as exc:
            self.call_from_thread(self.notify, str(exc), title="Embedded model", severity="error", markup=False)
            return
        if before is not None and after != before:
            message = f"Restarted on a new address ({after}); restart ragtui so every role uses it."
            self.call_from_thread(self.notify, message, title="Embedded model", severity="warning", markup=False)
        else:
            self.call_from_thread(self.notify, "Embedded model restarted.", title="Embedded model", markup=False)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every notification of every screen comes here (``Widget.notify`` calls the app's): the
        messages quote exceptions, file names and model output, so they are cleaned of terminal
        control sequences here, once, and never parsed as markup (``markup`` is taken for
        Textual's signature and ignored); recorded in ``notices`` as shown, then toasted.
        Thread-safe, as Textual's is."""
        message, title = self.notices.record(message, title=one_line(title, 120), severity=severity)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def action_messages(self) -> None:
        from .dialogs.messages_dialog import MessagesScreen

        if not isinstance(self.screen, MessagesScreen | TooSmallScreen):
            self.push_screen(MessagesScreen(self.notices.newest_first()))

    def action_help(self) -> None:
        from .dialogs.common import HelpScreen

        if not isinstance(self.screen, HelpScreen | TooSmallScreen):
            self.push_screen(HelpScreen())

    def action_judge_card(self) -> None:
        from .dialogs.judge_card_dialog import JudgeCardScreen

        if not isinstance(self.screen, JudgeCardScreen | TooSmallScreen):
            self.push_screen(JudgeCardScreen())

    async def action_quit(self) -> None:
        await self.shutdown_dialogue()
        self.exit()

    async def shutdown_dialogue(self) -> None:
        main = self.main_screen
        if main is not None:
            await main.stop_for_exit()

    async def on_unmount(self) -> None:
        if getattr(self, "_sigterm_installed", False):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
        await self.shutdown_dialogue()
        if self.engine is not None:
            await self.engine.aclose()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Sessions", "Browse, open or delete stored sessions", self.action_sessions)
        yield SystemCommand("Personas", "List, create, edit, duplicate, delete personas", self.action_personas)
        yield SystemCommand("Runs", "Every run: scores, trends; compare two runs, replay one", self.action_runs)
        yield SystemCommand(
            "Compare runs", "Opens Runs: b marks the base run, Enter compares the highlighted one", self.action_compare
        )
        yield SystemCommand(
            "Review drafts", "Generated scenarios beside their source: accept, edit or reject", self.action_drafts
        )
        yield SystemCommand("Help", "Every key of every screen, and what the scores mean", self.action_help)
        yield SystemCommand("Messages", "The notifications shown so far, newest first", self.action_messages)
        yield SystemCommand(
            "Judge card",
            "How far the judge agrees with people, per metric and language (as `ragtui judge-card`)",
            self.action_judge_card,
        )
        if self.local_model is not None:
            yield SystemCommand(
                "Restart embedded model",
                "Stop and start the embedded llama.cpp server (after it crashed or hung)",
                self.action_restart_model,
            )
        main = self.main_screen
        if main is not None and screen is main:
            for title, help_text, action in MAIN_COMMANDS:
                yield SystemCommand(title, help_text, getattr(main, f"action_{action}"))
        elif main is not None:  # the screens the main screen opens, from anywhere
            for title, help_text, action in MAIN_COMMANDS:
                if action in SCREEN_ACTIONS:
                    yield SystemCommand(title, help_text, getattr(main, f"action_{action}"))
