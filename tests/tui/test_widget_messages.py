"""The TUI's widgets in Textual's own terms: the event view works in any app and tells its
owner things with messages, the header redraws when its reactive state is set, and a session
deleted in the sessions browser is closed on the main screen through a message."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult

from ragtui.core.dialogue.events import DialogueDone, Failure, MessageDone, TurnDone
from ragtui.core.store.store import Store
from ragtui.tui.screens.main_screen import MainScreen
from ragtui.tui.screens.sessions_screen import SessionsScreen
from ragtui.tui.widgets.event_view import EventView
from ragtui.tui.widgets.header import SessionHeader, SessionInfo

from .conftest import SIZE, settle


class ViewHost(App[None]):
    """A bare app holding only the event view: no ragtui screen to call back into."""

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store
        self.notices: list[tuple[str, str]] = []

    def compose(self) -> ComposeResult:
        yield SessionHeader(id="header")
        yield EventView(self.store, id="panes")

    @on(EventView.Notice)
    def _notice(self, notice: EventView.Notice) -> None:
        self.notices.append((notice.text, notice.severity))


def header_text(header: SessionHeader) -> str:
    return str(header.render())


async def test_the_event_view_posts_notices_and_keeps_its_session_info(store: Store):
    app = ViewHost(store)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(EventView)
        view.reset(SessionInfo(session_id=7, scenario="s", persona="p", max_turns=3))
        view.show(MessageDone(7, 1, "bot", "Hello", 1, "bot"))
        view.show(TurnDone(7, 1, 0.9, False, 0.9))
        view.show(Failure(7, 2, "bot", "the bot timed out"))
        view.show(DialogueDone(7, "error", 0.9, 1, 0, "the bot timed out"))
        await pilot.pause()
        assert app.notices == [("the bot timed out", "error"), ("Session #7 ended: error", "information")]
        assert (view.info.session_id, view.info.turn, view.info.score, view.info.judged) == (7, 1, 0.9, 1)
        # A replayed event is drawn the same way but tells nobody.
        view.show(Failure(7, 2, "bot", "old failure"), live=False)
        await pilot.pause()
        assert len(app.notices) == 2


async def test_setting_the_headers_state_redraws_it(store: Store):
    app = ViewHost(store)
    async with app.run_test(size=SIZE) as pilot:
        header = app.query_one(SessionHeader)
        header.info = SessionInfo(session_id=3, scenario="refund", persona="calm", turn=1, max_turns=4)
        header.state = "paused"
        header.endpoints = {}
        header.problem = "no endpoint here"
        await pilot.pause()
        shown = header_text(header)
        assert "Session #3 · scenario refund · persona calm · turn 1/4" in shown and "paused" in shown
        assert "no endpoint here" in shown
        header.connecting = "Connecting to the model endpoints…"
        header.state = "ready"
        await pilot.pause()
        shown = header_text(header)
        assert "Connecting to the model endpoints…" in shown and "no endpoint here" not in shown
        assert "ready" in shown and "paused" not in shown
        assert isinstance(header.render_text(), Text)


async def test_deleting_the_open_session_closes_it_on_the_main_screen(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+s")  # start a session; it is open but not running
        await settle(pilot)
        main = app.screen
        assert isinstance(main, MainScreen) and main.session_id == 1
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, SessionsScreen)
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert store.sessions() == [] and main.session_id is None and main.dialogue is None
        assert "no session open" in header_text(main.query_one(SessionHeader))
