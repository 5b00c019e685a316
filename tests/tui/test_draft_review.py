"""The Drafts screen (D): each generated scenario beside its source passage with the quote
marked; a accepts, e edits (the code checks run again; a failing edit is not saved and says
why), x rejects after asking; every change is in the file at once. A snapshot at 80×24."""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import TextArea

from ragtui.core.config.settings import Config
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.generate.drafts import Draft
from ragtui.core.generate.review import Reviewed
from ragtui.core.generate.toml_out import scenario_file_text
from ragtui.core.knowledge.folder import read_folder
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.expectations import Proof
from ragtui.core.types.scenarios import ScenarioSource
from ragtui.tui.screens.draft_review import QUOTE_STYLE, DraftReviewScreen, case_text, source_text
from stand_ins.fake_openai import Reply

from ..conftest import JUDGE
from .conftest import SIZE, notifications, settle, static_text
from .test_snapshots import SMALL, steady

HELP = "# Refunds\n\nWe refund unused months. Refunds are paid within 5 business days to the original card.\n"


@pytest.fixture
def drafts_file(tui_config: Config, tmp_path: Path) -> Path:
    folder = tmp_path / "help"
    folder.mkdir()
    (folder / "refunds.md").write_text(HELP, encoding="utf-8")
    (passage,) = read_folder(folder).passages
    quote = "Refunds are paid within 5 business days to the original card."
    drafts = [
        Draft(
            "gen-factual-1",
            "factual",
            "How long until my refund arrives?",
            "Refunds are paid within 5 business days to the original card.",
            ("says refunds take 5 business days",),
            (),
            ("5 business days",),
            ScenarioSource("refunds.md", "Refunds", quote, passage.content_hash),
        ),
        Draft(
            "gen-factual-2",
            "factual",
            "Do you refund months I did not use?",
            "Unused months are refunded.",
            (),
            (),
            (),
            ScenarioSource(
                "refunds.md", "Refunds", "We refund unused months.", hashlib.sha256(b"old text").hexdigest()
            ),
        ),
    ]
    path = tmp_path / "mine.toml"
    path.write_text(scenario_file_text(drafts, "en"), encoding="utf-8")
    tui_config.scenarios = path
    tui_config.knowledge = folder
    return path


async def open_drafts(pilot: Pilot) -> DraftReviewScreen:
    await pilot.press("D")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, DraftReviewScreen)
    return screen


async def test_a_draft_is_shown_beside_its_passage_with_the_quote_marked(make_app, drafts_file: Path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drafts(pilot)
        assert "1 of 2 (2 to review)" in static_text(app, "#drafts-title") and "draft" in static_text(
            app, "#drafts-title"
        )
        case = static_text(app, "#drafts-case-text")
        assert "How long until my refund arrives?" in case and "contains: 5 business days" in case
        assert "We refund unused months. Refunds are paid within" in static_text(app, "#drafts-source-text")
        marked = source_text(screen.items[0])
        assert [marked.plain[s.start : s.end] for s in marked.spans if s.style == QUOTE_STYLE] == [
            "Refunds are paid within 5 business days to the original card."
        ]
        await pilot.press("n")
        await settle(pilot)
        assert "changed or vanished since the draft was generated" in static_text(app, "#drafts-source-text")
        await pilot.press("a")  # a draft whose passage moved is not accepted as it is
        await settle(pilot)
        assert any("edit or reject it instead" in n for n in notifications(app))
        assert all(s.draft for s in load_scenarios(drafts_file, "en"))
        assert screen.index == 1


def follows(answer: str) -> Reply:
    return Reply(json.dumps({"follows": answer}))


async def test_accept_edit_and_reject_write_the_file(make_app, drafts_file: Path, server):
    server.set_default(JUDGE, follows("yes"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_drafts(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert {s.id: s.status for s in load_scenarios(drafts_file, "en")}["gen-factual-1"] == "accepted"

        await pilot.press("e")
        await settle(pilot)
        app.screen.query_one("#draft-reference", TextArea).text = "Refunds are paid soon."  # drops "5 business days"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "no longer says '5 business days'" in static_text(app, "#draft-problems")  # still open, nothing saved
        app.screen.query_one("#draft-question", TextArea).text = "When do I get my money back?"
        app.screen.query_one("#draft-reference", TextArea).text = "Within 5 business days, to the original card."
        await pilot.press("ctrl+s")
        await settle(pilot)
        edited = {s.id: s for s in load_scenarios(drafts_file, "en")}["gen-factual-1"]
        assert (edited.question, edited.reference) == (
            "When do I get my money back?",
            "Within 5 business days, to the original card.",
        )
        assert edited.source is not None and edited.kind == "factual"  # the provenance stays

        await pilot.press("n", "x")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert [s.id for s in load_scenarios(drafts_file, "en")] == ["gen-factual-1"]
        assert "1 of 1" in static_text(app, "#drafts-title")


async def test_an_edited_reference_the_judge_cannot_derive_from_its_quote_is_not_saved(
    make_app, drafts_file: Path, server
):
    server.set_default(JUDGE, follows("no"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_drafts(pilot)
        await pilot.press("e")
        await settle(pilot)
        app.screen.query_one("#draft-reference", TextArea).text = "Refunds take 5 business days and include a bonus."
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "the judge says the reference does not follow from its quote" in static_text(app, "#draft-problems")
        saved = {s.id: s for s in load_scenarios(drafts_file, "en")}["gen-factual-1"]
        assert saved.reference == "Refunds are paid within 5 business days to the original card."  # unchanged
        asked = [body["messages"][-1]["content"] for body in server.chat_requests(JUDGE)]
        assert any("include a bonus" in text and "Refunds are paid within 5 business days" in text for text in asked)

        server.set_default(JUDGE, Reply("I think so"))  # neither yes nor no: never taken as a yes
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "could not be read" in static_text(app, "#draft-problems")
        server.set_default(JUDGE, follows("yes"))
        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = {s.id: s for s in load_scenarios(drafts_file, "en")}["gen-factual-1"]
        assert saved.reference == "Refunds take 5 business days and include a bonus."


async def test_with_no_generated_scenario_the_screen_says_how_to_make_some(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_drafts(pilot)
        assert "no generated scenario" in static_text(app, "#drafts-title")
        assert "ragtui scenarios generate DOCS --out FILE" in static_text(app, "#drafts-case-text")


def test_drafts_screen(snap_compare, make_app, drafts_file: Path):
    async def run_before(pilot: Pilot) -> None:
        await pilot.press("D")
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


async def test_the_edit_dialog_saves_and_cancels_with_its_buttons_too(make_app, drafts_file: Path):
    """Like every other dialog: Save and Cancel buttons beside ctrl+s and Escape."""
    from textual.widgets import Button

    from ragtui.tui.dialogs.draft_edit import DraftEditScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_drafts(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, DraftEditScreen)
        labels = [str(b.label) for b in app.screen.query(Button)]
        assert labels == ["Save (ctrl+s)", "Cancel (Esc)"]
        app.screen.query_one("#draft-question", TextArea).text = "Not this one"
        await pilot.click("#cancel")
        await settle(pilot)
        assert isinstance(app.screen, DraftReviewScreen)
        assert {s.id: s.question for s in load_scenarios(drafts_file, "en")}["gen-factual-1"] == (
            "How long until my refund arrives?"
        )
        await pilot.press("e")
        await settle(pilot)
        app.screen.query_one("#draft-question", TextArea).text = "When is my refund paid?"
        await pilot.click("#save")  # the reference is unchanged: saved without asking the judge
        await settle(pilot)
        assert isinstance(app.screen, DraftReviewScreen)
        assert {s.id: s.question for s in load_scenarios(drafts_file, "en")}["gen-factual-1"] == (
            "When is my refund paid?"
        )


def test_each_generated_expectation_shows_how_it_proved_itself(tmp_path: Path):
    """`checked = { reference = 0.93, wrong = 0.06 }` in the file, as the reviewer reads it."""
    source = ScenarioSource("refunds.md", "Refunds", "Refunds are paid within 5 business days.", "0" * 64)
    draft = Draft(
        "gen-factual-1",
        "factual",
        "How long until my refund arrives?",
        "Refunds are paid within 5 business days.",
        ("says refunds take 5 business days",),
        ("promises a cash refund",),
        ("5 business days",),
        source,
        checked={
            "expect:says refunds take 5 business days": Proof(0.93, 0.06),
            "expect_not:promises a cash refund": Proof(0.04, 0.91),
            "contains:5 business days": Proof(1.0, 0.0),
        },
    )
    path = tmp_path / "proven.toml"
    path.write_text(scenario_file_text([draft], "en"), encoding="utf-8")
    (table,) = tomllib.loads(path.read_text(encoding="utf-8"))["scenario"]
    assert table["expect"][1]["checked"] == {"reference": 0.93, "wrong": 0.06}
    (scenario,) = load_scenarios(path, "en")
    case = case_text(Reviewed(scenario, None, None)).plain
    assert "says refunds take 5 business days\n  proven: P(met) on the reference 0.93 · on a wrong answer 0.06" in case
    assert "promises a cash refund\n  proven: P(act) on the reference 0.04 · on an answer that does it 0.91" in case
    assert "5 business days\n  proven: P(met) on the reference 1.00 · on a wrong answer 0.00" in case


def test_a_check_out_of_range_is_one_line_naming_the_key(tmp_path: Path):
    path = tmp_path / "bad.toml"
    path.write_text(
        'language = "en"\n[[scenario]]\nid = "a"\nquestion = "Why?"\n'
        'expect = [{ text = "says why", checked = { reference = 1.5 } }]\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match=r"checked\.reference must be between 0 and 1, got 1\.5"):
        load_scenarios(path, "en")
