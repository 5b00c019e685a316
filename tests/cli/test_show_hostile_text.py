"""`ragtui show` at 80 columns on a session whose texts carry escape sequences: every control is
drawn visibly (``␛``) and every box still fits the 80 columns — the controls are made visible
before Rich lays the text out, not after (a box measured with ESC taking no cell came out 84–96
cells wide). A reply cancelled mid-stream is shown as cancelled, never as an answer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.cli.output import visible_text
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue

HOSTILE = "\x1b]0;pwned\x07 [bold]x[/] \x1b[2J\x07\x9b1m a long line of text that goes on and on " * 3
CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def hostile_db(tmp_path: Path) -> Path:
    db = tmp_path / "runs.db"
    store = Store.open(db)
    write_dialogue(store, "run-a", "outage", "calm", [0.8, 0.6], customer=lambda turn: f"customer {turn} {HOSTILE}")
    store.close()
    return db


def show(db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], width: int = 80) -> str:
    monkeypatch.setattr(output.console, "_width", width)  # the width Rich took from COLUMNS
    assert main(["show", "1", "--db", str(db)]) == 0
    return capsys.readouterr().out


def test_every_box_fits_80_columns_with_the_controls_drawn(hostile_db: Path, monkeypatch, capsys):
    out = show(hostile_db, monkeypatch, capsys)
    widths = [cell_len(line) for line in out.splitlines()]
    assert max(widths) <= 80, [line for line in out.splitlines() if cell_len(line) > 80][:3]
    assert not CONTROLS.search(out)
    assert "␛]0;pwned" in out and "␛[2J" in out and "␛[1m" in out and "[bold]x[/]" in out  # visible, as typed


def test_visible_text_keeps_the_styles_of_what_it_draws():
    text = Text("a\x1bb", style="bold")
    text.stylize("red", 1, 3)
    shown = visible_text(text)
    assert shown.plain == "a␛b" and shown.style == "bold"
    console = Console()
    styles = [str(shown.get_style_at_offset(console, i)) for i in range(3)]
    assert styles == ["bold", "bold red", "bold red"]
    plain = Text("no control")
    assert visible_text(plain) is plain
    panel = output._shown(Panel("body", title=Text("t\x1b")))
    assert isinstance(panel, Panel) and isinstance(panel.title, Text) and panel.title.plain == "t␛"
