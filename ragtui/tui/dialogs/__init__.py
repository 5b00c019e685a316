"""The TUI's modal dialogs, all built on ``dialog.Dialog`` (ctrl+s submits, Esc cancels)."""
