"""The one convention every ragtui modal follows, so no dialog has to be learnt on its own:

- ``ctrl+s`` submits (and Enter in a one-line field does too);
- Escape cancels, dismissing with ``CANCEL_RESULT``;
- the dialog shows its *own* footer, with its own keys: the footer of the screen behind is
  covered, since its keys do not apply while the dialog is open.

A dialog subclasses ``Dialog``, yields its body from ``compose_dialog`` (never ``compose``:
the footer comes from here) and implements ``action_submit``. It may relabel ``ctrl+s`` by
declaring the binding again with its own description (``Binding("ctrl+s", "submit", "Fork")``).
A test walks every modal class of ``ragtui.tui`` and checks all of this.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Footer, Input

ResultType = TypeVar("ResultType")

SUBMIT_KEY = "ctrl+s"
CANCEL_KEY = "escape"


def dialog_footer() -> Footer:
    """The footer every dialog ends with (compact: one line at 80×24)."""
    return Footer(compact=True, show_command_palette=False)


class Dialog(ModalScreen[ResultType]):
    """A modal that submits with ctrl+s (Enter in a field), cancels with Escape and shows its
    own footer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(SUBMIT_KEY, "submit", "Submit"),
        Binding(CANCEL_KEY, "cancel", "Cancel"),
    ]
    # What Escape dismisses with: None for most, False for a yes/no question, "stay"…
    CANCEL_RESULT: ClassVar[Any] = None
    # Enter in a one-line field submits; a dialog whose fields take Enter otherwise says False.
    SUBMIT_ON_ENTER: ClassVar[bool] = True

    def compose(self) -> ComposeResult:
        yield from self.compose_dialog()
        yield dialog_footer()

    def compose_dialog(self) -> ComposeResult:
        """The dialog's body; the footer is added after it."""
        raise NotImplementedError

    def action_submit(self) -> None:
        raise NotImplementedError

    def action_cancel(self) -> None:
        self.dismiss(self.CANCEL_RESULT)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.SUBMIT_ON_ENTER:
            event.stop()
            self.action_submit()
