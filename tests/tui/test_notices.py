"""The app keeps what it told the operator: every notification, as its toast showed it, in
``app.notices`` after the toast is gone; Messages (M) lists them newest first. Tests read what
the operator was told from here, never from Textual's expiring toast list."""

from __future__ import annotations

from textual.widgets import Static
from textual.widgets._toast import Toast

from ragtui.tui.dialogs.messages_dialog import NONE_YET, MessagesScreen
from ragtui.tui.notices import NoticeLog

from .conftest import SIZE, notifications, settle

HOSTILE = "Reply from \x1b]0;pwned\x07the bot\x1b[2J: [bold]not markup[/bold]\x07"
SHOWN = "Reply from the bot: [bold]not markup[/bold]"
LONG = 3600  # seconds: the toast is still on screen however slow the machine is


def toast_texts(app) -> list[str]:  # noqa: ANN001 - a RagtuiApp
    return [toast.render().plain for toast in app.screen.query(Toast)]


async def test_a_notice_is_kept_as_its_toast_shows_it_cleaned(make_app):
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:  # toasts drawn, as in a terminal
        app.notify(HOSTILE, title="Bot \x1b[31mred", severity="warning", timeout=LONG, markup=False)
        await settle(pilot)
        notice = list(app.notices)[-1]
        assert (notice.message, notice.title, notice.severity) == (SHOWN, "Bot red", "warning")
        assert f"{notice.title}\n{notice.message}" in toast_texts(app)  # the same text as on screen


async def test_markup_in_a_notice_is_shown_as_typed_never_parsed(make_app):
    """Notices quote model output and file names: their brackets are data, in the log and on screen."""
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.notify("Press [b]s[/b] to step", timeout=LONG)
        await settle(pilot)
        assert notifications(app)[-1] == "Press [b]s[/b] to step"
        assert "Press [b]s[/b] to step" in toast_texts(app)


async def test_a_notice_outlives_its_toast_and_messages_lists_it(make_app):
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("M")
        await pilot.pause()
        assert isinstance(app.screen, MessagesScreen)
        assert NONE_YET in str(app.screen.query_one("#messages-text Static", Static).render())
        await pilot.press("escape")
        app.notify("First", timeout=LONG, markup=False)
        app.notify("Second went wrong", title="Knowledge base", severity="error", timeout=LONG, markup=False)
        await settle(pilot)
        assert len(toast_texts(app)) == 2
        app.clear_notifications()  # the toasts are gone, as after their timeout (public API)
        await settle(pilot)
        assert toast_texts(app) == []
        assert notifications(app) == ["First", "Second went wrong"]
        await pilot.press("M")
        await pilot.pause()
        shown = str(app.screen.query_one("#messages-text Static", Static).render())
        assert shown.index("error · Knowledge base\nSecond went wrong") < shown.index("information\nFirst")


async def test_a_notice_from_a_worker_thread_is_kept(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.run_worker(lambda: app.notify("From a thread", markup=False), thread=True)
        await settle(pilot)
        assert "From a thread" in notifications(app)


def test_the_log_keeps_the_newest_and_forgets_nothing_by_time():
    log = NoticeLog(limit=3)
    for n in range(5):
        log.record(f"notice {n}", title="", severity="information")
    assert log.messages() == ["notice 2", "notice 3", "notice 4"]
    assert [n.message for n in log.newest_first()] == ["notice 4", "notice 3", "notice 2"]
