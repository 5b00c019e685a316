"""The operator as customer: m opens the field for the next customer message when the customer
is next, Escape closes it (Enter sends it: ``MainScreen._send_customer``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .status import NEXT_STEP

if TYPE_CHECKING:
    from .host import MainHost

    _Base = MainHost
else:
    _Base = object


class CustomerInput(_Base):
    def action_customer(self) -> None:
        dialogue = self._ready_dialogue()
        if dialogue is None:
            return
        if dialogue.phase.value != "user":
            step = NEXT_STEP[dialogue.phase.value]
            comes = "come" if step == "verdicts" else "comes"
            self.notify_plain(f"The {step} {comes} first: press s to step to the customer.")
            return
        field = self.customer_field
        field.add_class("shown")
        field.focus()

    def action_hide_input(self) -> None:
        field = self.customer_field
        field.remove_class("shown")
        field.value = ""
        self.pane("bot").focus()


__all__ = ["CustomerInput"]
