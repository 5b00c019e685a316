"""The TUI's full screens: main, sessions, personas, runs, compare, verdicts, the to-label queue."""
