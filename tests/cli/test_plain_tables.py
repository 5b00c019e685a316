"""Tables at the end of a run, without a terminal (CI logs): plain aligned columns, nothing cut,
nothing interpreted — a scenario id from a user's file is data, and its controls are drawn."""

from __future__ import annotations

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from ragtui.cli.output import print_table


def table() -> Table:
    t = Table(title="Results")
    t.add_column("id", justify="right")
    t.add_column("scenario")
    t.add_column("score", justify="right")
    t.add_row("7", Text("refund-partial-with-a-very-long-identifier-that-a-box-would-cut"), Text("0.91", style="green"))
    t.add_row("12", Text("[bold]払い戻し\x1b[31m"), "0.5")
    return t


def test_without_a_terminal_columns_are_plain_aligned_and_whole(capsys):
    print_table(table())
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Results"
    assert lines[1].split() == ["id", "scenario", "score"] and set(lines[2]) <= {"-", " "}
    assert "refund-partial-with-a-very-long-identifier-that-a-box-would-cut" in lines[3]
    assert not any(ch in "".join(lines) for ch in "│┃━─")
    # Right-justified numbers end in one column; the wide (CJK) cell is padded by display width.
    assert cell_len(lines[3]) == cell_len(lines[4]) == len(lines[2])
    assert lines[3].endswith(" 0.91") and lines[4].endswith(" 0.5")
    assert lines[3].startswith(" 7  ") and lines[4].startswith("12  ")


def test_untrusted_cells_are_shown_as_typed_and_controls_drawn(capsys):
    print_table(table())
    out = capsys.readouterr().out
    assert "[bold]払い戻し" in out and "\x1b" not in out and "␛[31m" in out
