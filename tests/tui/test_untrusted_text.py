"""Model output is data: markup, ANSI escapes, huge and exotic text render literally."""

from __future__ import annotations

from ragtui.core.store.store import Store
from ragtui.tui.safe_text import StreamCleaner, clean_text
from ragtui.tui.widgets.panes import MessageView, RolePane
from stand_ins.fake_openai import Reply

from ..conftest import BOT, USER
from .conftest import SIZE, pane_text, settle

HOSTILE = "[bold red]boom[/] and [/] \x1b[31mred\x1b[0m \x1b]0;title\x07[link=http://x]y[/link] \u202eevil"


def test_clean_text_removes_escapes_and_controls_but_keeps_text():
    assert clean_text(HOSTILE) == "[bold red]boom[/] and [/] red [link=http://x]y[/link] evil"
    assert clean_text("日本語 😀 שלום\r\nnext\tcol\x00") == "日本語 😀 שלום\nnext    col"


def test_stream_cleaner_holds_back_an_escape_split_between_fragments():
    cleaner = StreamCleaner()
    parts = ["plain \x1b[3", "1mred\x1b", "[0m done\r", "\nend"]
    out = "".join(cleaner.feed(p) for p in parts) + cleaner.flush()
    assert out == "plain red done\nend"


async def test_markup_and_ansi_in_replies_are_shown_literally(make_app, store: Store, server):
    server.script(BOT, Reply(HOSTILE, chunk_chars=3))
    server.script(USER, Reply("[/]" * 50 + " \x1b[2J cleared?"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await settle(pilot)
        bot = pane_text(app, "bot")
        assert "[bold red]boom[/] and [/] red [link=http://x]y[/link] evil" in bot
        assert "\x1b" not in bot and "\x1b" not in pane_text(app, "user")
        assert "[/]" * 50 + "  cleared?" in pane_text(app, "user")
        app.export_screenshot()  # the whole screen renders
        # What is stored is what the bot said: cleaning is for display only.
        assert store.session(1).messages[1].text == HOSTILE


async def test_a_100kb_reply_with_cjk_emoji_rtl_and_long_lines_streams_in_chunks(make_app, store: Store, server):
    huge = ("日本語のテキスト😀 שלום עולם " * 2000) + "x" * 20000 + "\n" + "line\n" * 2000
    assert len(huge.encode()) > 100_000
    server.script(BOT, Reply(huge, chunk_chars=500))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+s", "s")
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        pane = app.screen.query_one("#pane-bot", RolePane)
        view = pane.query_one(MessageView)
        assert view.text == store.session(1).messages[1].text == huge.strip()
        assert len(view.query(".chunk")) > 5  # streamed into bounded chunks, not one giant widget
        app.export_screenshot()
        assert pane.scroll_y == pane.max_scroll_y  # following the newest text


async def test_streamed_chunks_keep_their_full_height_without_a_layout_per_update(make_app):
    """Updates that add no line skip the layout pass; the chunk must still end as tall as its
    wrapped text (no last line cut off), through word wraps, newlines and one long line."""
    from rich.text import Text

    from ragtui.tui.widgets.panes import RolePane

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.screen.query_one("#pane-bot", RolePane)
        text = ("Word after word, the answer grows. " * 40 + "\n") * 3 + "x" * 700
        for start in range(0, len(text), 7):
            pane.add_delta(1, text[start : start + 7])
            if start % 70 == 0:
                pane.flush()
                await pilot.pause()
        pane.flush()
        await pilot.pause()
        await pilot.pause()
        for chunk in pane.query(".chunk"):
            shown = str(chunk.render())
            wanted = len(Text(shown).wrap(app.console, chunk.size.width))
            assert chunk.size.height == wanted


async def test_a_following_pane_reaches_the_end_when_content_grows_later(make_app):
    """The content's height can become known refreshes after the text arrived (a busy machine,
    a huge reply): a pane that is following must still end at the newest text."""
    from textual.widgets import Static

    from ragtui.tui.widgets.panes import RolePane

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.screen.query_one("#pane-bot", RolePane)
        assert pane._following and pane.max_scroll_y == 0
        # Content that grows without the pane being told: only the size change can tell it.
        await pane.mount(Static("\n".join(f"line {i}" for i in range(300)), markup=False))
        await pilot.pause()
        await pilot.pause()
        assert pane.max_scroll_y > 0 and pane.scroll_y == pane.max_scroll_y
