"""The main screen's keys, with the words the footer, Help (F1) and the palette show for them."""

from __future__ import annotations

from textual.binding import Binding, BindingType

# The footer shows what fits in 80 columns: the keys of the core loop and the way to the
# other screens. p and c are offered in the status line while a step runs (the only time
# they apply), m when the customer is next; the rest are in Help (F1) and the palette.
BINDINGS: list[BindingType] = [
    Binding("n", "new_session", "New", tooltip="New session: a scenario and a persona, or a free question"),
    Binding("s", "step", "Step", tooltip="Step: the next customer message, bot answer or verdict"),
    Binding("a", "auto_run", "Auto", tooltip="Auto-run to the end (resumes after a pause)"),
    Binding("p", "pause", "Pause", show=False, tooltip="Pause auto-run after the step in progress"),
    Binding("c", "cancel", "Cancel", show=False, tooltip="Cancel now (recorded as cancelled; s / a continue it)"),
    Binding("m", "customer", "Type", show=False, tooltip="Type the next customer message (Enter sends)"),
    Binding("v", "verdicts", "Verdicts", tooltip="Verdicts: criteria, prompt, raw reply, passages, versions"),
    Binding(
        "r", "rejudge", "Re-judge", show=False, tooltip="Re-judge a turn: same judge, another model, edited prompt"
    ),
    Binding("x", "export", "Export", show=False, tooltip="Export the open session to CSV (data folder, exports/)"),
    Binding("f", "fork", "Fork", show=False, tooltip="Fork after turn N: a new session continues live from there"),
    Binding("l", "label", "Label", tooltip="Label the newest bot turn: your 1–5 score, a note, agree/disagree"),
    Binding(
        "u",
        "label_queue",
        "To label",
        show=False,
        tooltip="To label: turns you have not labelled (the open session's run, else every session)",
    ),
    Binding("o", "app.sessions", "Sessions", tooltip="Browse, open or delete stored sessions"),
    Binding("R", "app.runs", "Runs", tooltip="Runs: scores, trends, compare two, replay one"),
    Binding("e", "app.personas", "Personas", show=False, tooltip="Edit personas"),
    Binding("ctrl+q", "app.quit", "Quit", tooltip="Quit; a running dialogue is cancelled cleanly"),
    Binding("escape", "hide_input", "Close input", show=False, tooltip="Close the customer-message field"),
]


__all__ = ["BINDINGS"]
