"""Radio buttons that the arrow keys choose as they move, where text typed or pasted on a choice
with a field of its own (the re-judge dialog's "Another model") goes into that field.

Every radio set in the TUI is one of these (an architecture test holds it): Textual's RadioSet
moves only a highlight with ↑/↓ and chooses on Space, so a dialog submitted after ↓ stored the
choice from before — what is highlighted is what is chosen, in every dialog alike. The highlight
starts on the button chosen when the set is built (a dialog reopened on a stored choice), not on
the first one.

Both happen here, as each key reaches the set, rather than in bindings or in a handler further
up: keys typed fast arrive together (a terminal delivers a burst, or a paste, in one read) and
are all queued to the set before the first is handled. Only here are they seen in the order they
were typed, and only the highlight (``chosen``) follows them at once: RadioSet learns which
button is pressed from a message handled after the keys already queued, so the name typed right
after ↓ would otherwise still meet the choice before.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual import events
from textual.widgets import Input, RadioButton, RadioSet

from ..safe_text import field_text

NEXT_KEYS = frozenset({"down", "right"})
PREVIOUS_KEYS = frozenset({"up", "left"})


class ChoiceSet(RadioSet):
    def __init__(self, *buttons: RadioButton, fields: Mapping[str, str] | None = None, id: str | None = None) -> None:
        """``fields``: the id of a button → the id of the Input that typing on it fills."""
        super().__init__(*buttons, id=id)
        self.fields = dict(fields or {})

    @property
    def chosen(self) -> RadioButton | None:
        """The choice in effect now: the highlighted one (arrows choose as they move; Enter,
        space and a click choose the highlighted one)."""
        index = self._selected
        if index is not None and isinstance(button := self._nodes[index], RadioButton):
            return button
        return self.pressed_button

    def _first_chosen(self) -> int | None:
        """The index of the first button built chosen (RadioSet keeps that one), or None."""
        return next(
            (i for i, node in enumerate(self._nodes) if isinstance(node, RadioButton) and node.value),
            None,
        )

    @property
    def _focused(self) -> bool:
        """Focused now; not ``has_focus``, which follows the Blur message, after the keys queued."""
        return self.screen.focused is self

    def action_next_button(self) -> None:
        if self._selected is None and (start := self._first_chosen()) is not None:
            self._selected = start  # mounting: the highlight starts on the choice, never apart from it
            return
        super().action_next_button()
        if self.has_focus:  # not the highlight RadioSet sets up while mounting
            self.action_toggle_button()

    def action_previous_button(self) -> None:
        super().action_previous_button()
        if self.has_focus:
            self.action_toggle_button()

    def on_key(self, event: events.Key) -> None:
        if event.key in NEXT_KEYS | PREVIOUS_KEYS:
            if self._focused:  # here, not in bindings: those see a key only once it has bubbled up
                event.stop()
                event.prevent_default()
                (self.action_next_button if event.key in NEXT_KEYS else self.action_previous_button)()
        elif event.is_printable and event.character and self._type(event.character):
            event.stop()
            event.prevent_default()

    def on_paste(self, event: events.Paste) -> None:
        if event.text and self._type(event.text.splitlines()[0]):
            event.stop()

    def _type(self, text: str) -> bool:
        """Put ``text`` in the chosen choice's field, which takes the focus. The first key
        replaces what the field showed (a name is typed whole); keys that were already queued
        here when the field took the focus follow it in order, where its cursor is."""
        chosen = self.chosen
        field_id = self.fields.get(chosen.id or "") if chosen is not None else None
        if field_id is None:
            return False
        field = self.screen.query_one(f"#{field_id}", Input)
        if self._focused:
            field.value = ""
            self.screen.set_focus(field)  # at once: the keys typed next go to the field itself
        field.insert_text_at_cursor(field_text(text))  # typed or pasted: a paste may carry escapes
        return True
