"""Widgets the TUI's screens are made of: the role panes, the session header, the event view, tables."""
