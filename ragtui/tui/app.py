"""The ragtui Textual app: owns the config, endpoints, store and engine; hosts the screens.

Dependencies come in through the constructor so tests (and the benchmark) can inject a store
on a temporary file and endpoints on the fake server. The engine is built once at start-up; if
it cannot be (no endpoint, a broken prompt file), the app still opens for browsing sessions
and editing personas, and says why dialogues cannot run.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Iterable

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from ..core.config import Config
from ..core.dialogue.engine import Engine
from ..core.errors import RagtuiError
from ..core.models.endpoints import Endpoint
from ..core.models.local_model import LocalModel
from ..core.record.store import Store
from .dialogs import HelpScreen
from .header import NO_ENDPOINT_HELP
from .main_screen import MainScreen
from .personas_screen import PersonasScreen
from .sessions_screen import SessionsScreen

EngineFactory = Callable[[Config, dict[str, Endpoint], Store], Engine]

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
    ("Label turn", "Your own score, a note, agree/disagree with the judge, for the newest turn", "label"),
    ("To label", "The unlabelled turns of this run, one key each", "label_queue"),
]


class RagtuiApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "ragtui"
    BINDINGS = [
        Binding("o", "sessions", "Sessions", tooltip="Browse, open or delete stored sessions"),
        Binding("e", "personas", "Personas", tooltip="Edit personas"),
        Binding("f1,question_mark", "help", "Help", tooltip="Keys and what the scores mean"),
        Binding("ctrl+q", "quit", "Quit", tooltip="Quit; a running dialogue is cancelled cleanly"),
    ]

    def __init__(
        self,
        config: Config,
        endpoints: dict[str, Endpoint],
        store: Store,
        *,
        engine_factory: EngineFactory | None = None,
        endpoint_error: str | None = None,
        local_model: LocalModel | None = None,
    ) -> None:
        super().__init__()
        self.local_model = local_model  # the embedded server, when this app started one
        self.config = config
        self.endpoints = endpoints
        self.store = store
        self.engine: Engine | None = None
        self.problem: str | None = endpoint_error  # why dialogues cannot run, when they cannot
        if self.problem is None and any(e.base_url is None for e in endpoints.values()):
            self.problem = NO_ENDPOINT_HELP
        if self.problem is None:
            try:
                self.engine = (engine_factory or Engine)(config, endpoints, store)
            except RagtuiError as exc:
                self.problem = f"Dialogues cannot run: {exc}"

    def get_default_screen(self) -> Screen:
        return MainScreen()

    @property
    def main_screen(self) -> MainScreen | None:
        default = self.screen_stack[0] if self.screen_stack else None
        return default if isinstance(default, MainScreen) else None

    def on_mount(self) -> None:
        if self.problem:
            self.notify(self.problem, title="No dialogues", severity="warning", timeout=12, markup=False)
        # SIGTERM quits like ctrl+q: a running dialogue is recorded as cancelled, not left running.
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not the main thread
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.on_sigterm)
            self._sigterm_installed = True

    def on_sigterm(self) -> None:
        self.run_worker(self.action_quit(), exit_on_error=False)

    # -- actions -----------------------------------------------------------------------------

    def action_sessions(self) -> None:
        if isinstance(self.screen, SessionsScreen):
            return
        main = self.main_screen
        self.push_screen(SessionsScreen(), main.open_session if main else None)

    def action_personas(self) -> None:
        if not isinstance(self.screen, PersonasScreen):
            language = self.engine.language if self.engine else self.config.language
            self.push_screen(PersonasScreen(language))

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

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

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
        yield SystemCommand("Help", "Keys and what the scores mean", self.action_help)
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
