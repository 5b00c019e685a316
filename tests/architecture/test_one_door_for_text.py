"""Every widget of the TUI gets its text through the one door (``ragtui/tui/safe_text.py``):
no ``Static``, ``Label``, ``Input``/``TextArea`` value, table cell, title, tooltip or list prompt
is given text that was not proven clean of terminal control sequences (and, where Textual reads
markup, proven to be a ``Text`` or a literal). How it is proven: ``display_text.py``.

What the check cannot prove but is safe is listed below, each with why; an entry no longer
needed fails too, so the list only ever holds what is true now."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import ragtui

from .display_text import Finding, findings_in

ROOT = Path(ragtui.__file__).parent

# (file, argument as written) → why it is safe although the check cannot prove it.
NOT_UNTRUSTED = {
    ("ragtui/tui/dialogs/common.py", "help_text()"): (
        "the help page: ragtui's own key bindings and notes, no stored, model or file text"
    ),
    ("ragtui/tui/screens/sessions_screen.py", "column.header"): (
        "a column heading from COLUMNS / LANGUAGE_COLUMN, ragtui's own words (fit_table returns them as given)"
    ),
    ("ragtui/tui/widgets/panes.py", "text"): (
        "_wrapped builds a Text only to count the lines cleaned text wraps to; it is never drawn"
    ),
}


@pytest.fixture(scope="module")
def found() -> list[Finding]:
    """ragtui's own findings, read once for the tests below (a few seconds)."""
    return findings_in(ROOT)


def test_every_widget_gets_its_text_through_the_one_door(found: list[Finding]):
    offenders = [str(f) for f in found if f.key() not in NOT_UNTRUSTED]
    assert offenders == []


def test_each_exception_is_still_needed_and_says_why(found: list[Finding]):
    keys = {f.key() for f in found}
    assert [key for key in NOT_UNTRUSTED if key not in keys] == []
    assert all(len(why) > 40 for why in NOT_UNTRUSTED.values())


def _check(tmp_path: Path, source: str) -> list[Finding]:
    """The findings of ``source`` as a TUI module of a package of its own."""
    module = tmp_path / "ragtui" / "tui" / "sample.py"
    module.parent.mkdir(parents=True, exist_ok=True)
    for package in (module.parent, module.parent.parent):
        (package / "__init__.py").write_text("", encoding="utf-8")
    module.write_text(textwrap.dedent(source), encoding="utf-8")
    return findings_in(tmp_path / "ragtui")


def test_the_check_finds_the_pair_screen_as_it_was(tmp_path: Path):
    """``_side()`` of the compare pair screen before it went through the door: a hostile reply
    set the terminal's title and cleared the screen from there."""
    found = _check(
        tmp_path,
        """
        from rich.text import Text

        def _side(session, turn, other, floor) -> Text:
            text = Text()
            customer = next((m.text for m in session.messages if m.turn == turn and m.role == "user"), None)
            bot = next((m.text for m in session.messages if m.turn == turn and m.role == "bot"), None)
            text.append("customer", style="bold blue")
            text.append(f"\\n{customer or ''}\\n")
            text.append("bot", style="bold magenta")
            text.append(f"\\n{bot or '(no answer)'}\\n")
            return text
        """,
    )
    assert [(f.sink, f.argument) for f in found] == [
        ("Text.append()", "f\"\\n{customer or ''}\\n\""),
        ("Text.append()", "f\"\\n{bot or '(no answer)'}\\n\""),
    ]


def test_the_check_sees_each_kind_of_sink(tmp_path: Path):
    found = _check(
        tmp_path,
        """
        from rich.text import Text
        from textual.widgets import DataTable, Input, Label, Select, Static, TextArea
        from textual.widgets.option_list import Option

        def show(app, screen, table: DataTable, reply: str, name: str) -> None:
            Static(Text(reply))
            Label(reply, markup=False)
            Input(value=name)
            TextArea(reply)
            screen.title = name
            screen.sub_title = f"run {name}"
            screen.query_one(Static).border_title = name
            screen.query_one(Static).update(reply)
            screen.query_one(TextArea).load_text(reply)
            table.add_row(name, Text("ok"))
            table.add_column(name)
            Option(Text(name))
            Select([(name, 1)])
            Static("fixed", tooltip=reply)
            Text.from_markup(reply)
        """,
    )
    assert sorted({f.sink for f in found}) == sorted(
        {
            "Text()",
            "Label()",
            "Input(value=)",
            "TextArea()",
            ".title =",
            ".sub_title =",
            ".border_title =",
            ".update()",
            ".load_text()",
            ".add_row()",
            ".add_column()",
            "Select prompt",
            "Static(tooltip=)",
            "Text.from_markup()",
        }
    )
    assert len(found) == 15  # Text(name) inside Option counts once, as Text()


def test_text_through_the_door_numbers_and_literals_pass(tmp_path: Path):
    found = _check(
        tmp_path,
        """
        from rich.text import Text
        from textual.widgets import Input, Label, Static, TextArea

        from .safe_text import area_text, clean_text, field_text, one_line, plain

        TITLE = "Sessions"

        def show(screen, reply: str, name: str, turn: int, score: float, rows: list) -> Text:
            Static(plain(reply))
            Static(reply, markup=False)  # markup off is not enough: the terminal still reads it
            Label(Text(f"Turn {turn} · {one_line(name, 20)} · {score:.2f}"))
            Input(value=field_text(name))
            TextArea(area_text(reply))
            screen.title = TITLE
            text = Text()
            for index, row in enumerate(rows):
                text.append(f"{index}: {clean_text(row)}\\n")
            text.append(f"{len(rows)} rows, {name!r}")
            Static(text)
            return text
        """,
    )
    assert [str(f) for f in found] == ["ragtui/tui/sample.py:11 Static(): reply (not through safe_text)"]


def test_markup_sinks_take_a_text_not_a_cleaned_str(tmp_path: Path):
    """Cleaned text still holds "[bold]": a widget that reads markup must get a Text."""
    found = _check(
        tmp_path,
        """
        from textual.widgets import Static

        from .safe_text import clean_text

        def show(screen, reply: str) -> None:
            Static(clean_text(reply))
            screen.query_one(Static).update(clean_text(reply))
            Static(clean_text(reply), markup=False)
        """,
    )
    assert [f.why for f in found] == ["a str parsed as markup: give a Text, or markup=False"] * 2
