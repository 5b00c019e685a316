"""Messages (M): the notifications the corner showed, newest first, with time, severity and
title — for the warning that went by while the operator looked at another pane. Read from the
app's ``NoticeLog``; the text is already cleaned there and never parsed as markup here."""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from ..notices import Notice
from ..safe_text import clean_text
from .dialog import Dialog

SEVERITY_STYLE = {"information": "", "warning": "yellow", "error": "bold red"}
NONE_YET = "No messages yet. Notifications shown in the corner are kept here."


def messages_text(notices: Sequence[Notice]) -> Text:
    """One entry per notice, newest first: ``09:31:02 warning · Model endpoint`` then the message."""
    if not notices:
        return Text(NONE_YET)
    text = Text()
    for n, notice in enumerate(notices):
        if n:
            text.append("\n\n")
        stamp = time.strftime("%H:%M:%S", time.localtime(notice.at))
        head = f"{stamp} {notice.severity}" + (f" · {notice.title}" if notice.title else "")
        text.append(clean_text(head), style=SEVERITY_STYLE.get(notice.severity, "") or "bold")
        text.append("\n" + clean_text(notice.message))
    return text


class MessagesScreen(Dialog[None]):
    """The recent notifications, newest first; Escape closes."""

    BINDINGS = [
        Binding("ctrl+s", "submit", "Close", show=False),
        Binding("escape,q,M", "cancel", "Close"),
    ]

    def __init__(self, notices: Sequence[Notice]) -> None:
        super().__init__()
        self.notices = list(notices)

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            yield Static(Text(f"Messages ({len(self.notices)}, newest first)", style="bold"), markup=False)
            with VerticalScroll(id="messages-text"):
                yield Static(messages_text(self.notices), markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Close (Escape)", id="close", compact=True)

    @on(Button.Pressed, "#close")
    def action_submit(self) -> None:
        self.dismiss(None)
