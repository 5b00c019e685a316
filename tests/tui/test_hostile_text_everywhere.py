"""Text that would drive a terminal — a window title (OSC 0), a screen clear, BEL, a C1 control,
a bidi override — and Rich markup, put where ragtui reads text from: stored sessions (customer,
bot and judge text, scenario and persona names, run ids), a compare pair, a draft scenario file
and its source document, a persona file. Every screen and dialog that shows it is opened with
keys, and what the app writes to the terminal is recorded, as a terminal would receive it: it
holds none of those sequences, and the markup is drawn as the characters it is."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import tomli_w
from textual.drivers.headless_driver import HeadlessDriver
from textual.pilot import Pilot
from textual.widgets import TextArea

from ragtui.core.config.settings import Config
from ragtui.core.generate.drafts import Draft
from ragtui.core.generate.toml_out import HEADER, scenario_table
from ragtui.core.knowledge.folder import read_folder
from ragtui.core.registry.metrics import PRIMARY_METRIC
from ragtui.core.store.store import Store
from ragtui.core.types.judgments import Judgment
from ragtui.core.types.passages import Passage
from ragtui.core.types.personas import Persona
from ragtui.core.types.scenarios import ScenarioSource
from ragtui.tui.app import RagtuiApp
from ragtui.tui.dialogs.draft_edit import DraftEditScreen
from ragtui.tui.dialogs.label_dialog import LabelScreen
from ragtui.tui.screens.compare_screen import CompareScreen, PairScreen
from ragtui.tui.screens.draft_review import DraftReviewScreen
from ragtui.tui.screens.label_queue import LabelQueueScreen
from ragtui.tui.screens.personas_screen import PersonasScreen
from ragtui.tui.screens.runs_screen import RunsScreen
from ragtui.tui.screens.sessions_screen import SessionsScreen
from ragtui.tui.screens.verdict_screen import VerdictScreen

from .conftest import SIZE, settle

MARKUP = "[bold red]x[/]"
LINK = "[link=https://e.x]y[/link]"
# Markup first, so that a cell cut to its width still shows it; the controls inside.
HOSTILE = f"{MARKUP}\x1b]0;pwned\x07 {LINK}\x1b[2J\x07\x9b2J\u202e!"
SHOWN = f"{MARKUP} {LINK}2J!"  # what is left to read: the C1 CSI alone goes, "2J" stays as text

# Textual's own sequences: CSI (colours, cursor moves, synchronized output) and OSC 22, the
# mouse pointer's shape. Anything else is not Textual's.
CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
POINTER_SHAPE = re.compile(r"\x1b\]22;[a-z-]*\x07")
CONTROLS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def recording_driver(written: list[str]) -> type[HeadlessDriver]:
    class RecordingDriver(HeadlessDriver):
        """Headless, but written to as a terminal is: every frame the app draws lands in
        ``written`` (a headless app draws nothing)."""

        @property
        def is_headless(self) -> bool:
            return False

        def write(self, data: str) -> None:
            written.append(data)

    return RecordingDriver


def terminal_problems(output: str) -> list[str]:
    """What in ``output`` drives the terminal beyond drawing: an erase, a title, a bell, any
    control or escape that is not Textual's own."""
    rest = POINTER_SHAPE.sub("", output)
    problems = [f"erase {m.group()!r}" for m in CSI.finditer(rest) if m.group()[-1] in "JK" and m.group() != "\x1b[K"]
    rest = CSI.sub("", rest)
    problems += sorted({repr(c) for c in CONTROLS.findall(rest)})
    if "pwned" in output:
        problems.append("the title's text")
    return problems


def drawn(output: str) -> str:
    """The characters drawn, escapes taken out: a run of one style stays one string."""
    return CSI.sub("", POINTER_SHAPE.sub("", output))


class Terminal:
    """What the app wrote since the last ``take``."""

    def __init__(self) -> None:
        self.written: list[str] = []

    def take(self) -> str:
        output, self.written[:] = "".join(self.written), []
        return output


@pytest.fixture
def terminal() -> Terminal:
    return Terminal()


@pytest.fixture
def recording_app(make_app: Callable[[], RagtuiApp], terminal: Terminal) -> Callable[[], RagtuiApp]:
    def make() -> RagtuiApp:
        app = make_app()
        app.driver_class = recording_driver(terminal.written)
        return app

    return make


async def shows_it_safely(pilot: Pilot, terminal: Terminal, *, literal: tuple[str, ...] = (MARKUP,)) -> None:
    """The screen now up drew the hostile text — its markup as typed — and nothing else."""
    await settle(pilot)
    output = terminal.take()
    screen = type(pilot.app.screen).__name__
    assert terminal_problems(output) == [], screen
    for text in literal:
        assert text in drawn(output), f"{screen}: {text!r} not drawn"


def hostile_session(store: Store, run_id: str, scenario: str, answer: str) -> int:
    """A finished two-turn dialogue whose every text a model or a file wrote is ``HOSTILE``."""
    session_id = store.create_session(
        scenario={"id": scenario, "question": HOSTILE, "language": "en"},
        persona=Persona(f"calm{HOSTILE}", "en", HOSTILE),
        config={"roles": {"bot": {"model": HOSTILE}}, "bot": "builtin"},
        language="en",
        max_turns=2,
        threshold=0.7,
        metrics=[PRIMARY_METRIC],
        run_id=run_id,
    )
    for turn in (1, 2):
        store.add_message(session_id, turn, "user", "scenario" if turn == 1 else "simulator", f"ask {HOSTILE}")
        passage = Passage(f"doc{HOSTILE}.md", f"title {HOSTILE}", f"passage {HOSTILE}")
        bot_id = store.add_message(session_id, turn, "bot", "bot", f"{answer} {HOSTILE}", passages=[passage])
        details = {"conclusion": f"judge says {HOSTILE}", "steps": [HOSTILE], "scores": {"overall": HOSTILE}}
        judgment = Judgment(PRIMARY_METRIC, 0.8 if turn == 1 else 0.4, details, raw_reply=f"raw {HOSTILE}")
        store.add_judgment(session_id, bot_id, turn, judgment)
    store.refresh_score(session_id, PRIMARY_METRIC)
    store.set_status(session_id, "finished", "max_turns", error=HOSTILE)
    return session_id


async def test_a_stored_session_in_every_view_leaves_the_terminal_alone(recording_app, store: Store, terminal):
    hostile_session(store, "20260101-run-a", f"ids{HOSTILE}", "answer")
    app = recording_app()
    async with app.run_test(size=SIZE, headless=False, notifications=True, tooltips=True) as pilot:
        await shows_it_safely(pilot, terminal, literal=())  # the first frame
        await pilot.press("o")
        assert isinstance(app.screen, SessionsScreen)
        await shows_it_safely(pilot, terminal)  # the scenario and persona names
        await pilot.press("enter")
        await shows_it_safely(pilot, terminal, literal=(f"ask {MARKUP}", f"answer {MARKUP}"))  # the panes
        await pilot.press("v")
        assert isinstance(app.screen, VerdictScreen)
        await shows_it_safely(pilot, terminal, literal=(f"judge says {MARKUP}",))
        for _tab in range(4):  # the exact prompt, raw reply, passages, versions
            await pilot.press("right_square_bracket")
            await shows_it_safely(pilot, terminal, literal=())
        await pilot.press("escape")
        await pilot.press("l")
        assert isinstance(app.screen, LabelScreen)
        await shows_it_safely(pilot, terminal)
        await pilot.press("escape")
        await pilot.press("u")
        assert isinstance(app.screen, LabelQueueScreen)
        await shows_it_safely(pilot, terminal, literal=(f"answer {MARKUP}",))


async def test_runs_compare_and_the_pair_screen_leave_the_terminal_alone(recording_app, store: Store, terminal):
    """The pair screen (Runs → Enter → Enter) once wrote customer and bot text raw: a reply set
    the terminal's title and cleared the screen."""
    hostile_session(store, f"20260101-a{HOSTILE}", "id-linking", "old answer")
    hostile_session(store, f"20260102-b{HOSTILE}", "id-linking", "new answer")
    app = recording_app()
    async with app.run_test(size=SIZE, headless=False, notifications=True, tooltips=True) as pilot:
        terminal.take()
        await pilot.press("R")
        assert isinstance(app.screen, RunsScreen)
        await shows_it_safely(pilot, terminal)
        await pilot.press("enter")
        assert isinstance(app.screen, CompareScreen)
        await shows_it_safely(pilot, terminal)
        await pilot.press("enter")
        assert isinstance(app.screen, PairScreen)
        await shows_it_safely(
            pilot, terminal, literal=(f"old answer {MARKUP}", f"new answer {MARKUP}", f"ask {MARKUP}")
        )


@pytest.fixture
def hostile_drafts(tui_config: Config, tmp_path: Path) -> Path:
    """A draft scenario file as an older ragtui, or a person, may have written it: every text
    of it hostile; and the help article it quotes."""
    folder = tmp_path / "help"
    folder.mkdir()
    quote = "Refunds are paid within 5 business days."
    (folder / "refunds.md").write_text(f"# Refunds\n\n{quote} {HOSTILE}\n", encoding="utf-8")
    (passage,) = read_folder(folder).passages
    source = ScenarioSource("refunds.md", "Refunds", quote, passage.content_hash)
    draft = Draft("gen-factual-1", "factual", "q", "r", ("e",), (), (), source)
    table = scenario_table(draft) | {"question": f"When{HOSTILE}?", "reference": f"In 5 days{HOSTILE}."}
    table["expect"] = [{"id": "gen-factual-1-e1", "text": f"says 5 days{HOSTILE}"}]
    path = tmp_path / "mine.toml"
    path.write_text(HEADER + tomli_w.dumps({"language": "en", "scenario": [table]}), encoding="utf-8")
    tui_config.scenarios = path
    tui_config.knowledge = folder
    return path


async def test_drafts_and_their_edit_dialog_leave_the_terminal_alone(recording_app, hostile_drafts: Path, terminal):
    app = recording_app()
    async with app.run_test(size=SIZE, headless=False, notifications=True, tooltips=True) as pilot:
        terminal.take()
        await pilot.press("D")
        assert isinstance(app.screen, DraftReviewScreen)
        await shows_it_safely(pilot, terminal, literal=(f"When{SHOWN}?", f"says 5 days{SHOWN}"))
        await pilot.press("e")
        assert isinstance(app.screen, DraftEditScreen)
        await shows_it_safely(pilot, terminal, literal=(f"When{SHOWN}?",))
        # The field holds the words without the controls: saving cannot write them back.
        assert app.screen.query_one("#draft-question", TextArea).text == f"When{SHOWN}?"


async def test_a_persona_file_in_the_personas_screen_leaves_the_terminal_alone(recording_app, tui_config, terminal):
    folder = tui_config.user_personas / "en"
    folder.mkdir(parents=True)
    (folder / "hostile.toml").write_text(
        tomli_w.dumps(
            {
                "name": "hostile",
                "language": "en",
                "temperature": 0.5,
                "description": f"d {HOSTILE}",
                "persona": f"p {HOSTILE}",
            }
        ),
        encoding="utf-8",
    )
    app = recording_app()
    async with app.run_test(size=SIZE, headless=False, notifications=True, tooltips=True) as pilot:
        terminal.take()
        await pilot.press("e")
        assert isinstance(app.screen, PersonasScreen)
        await settle(pilot)
        names = [str(o.prompt) for o in app.screen.query_one("#persona-names").options]  # type: ignore[attr-defined]
        await pilot.press(*["down"] * names.index(next(n for n in names if n.startswith("hostile"))))
        await shows_it_safely(pilot, terminal, literal=(f"d {SHOWN}",))


def test_the_recording_sees_what_a_raw_reply_would_do():
    """The check itself: the hostile text written raw has every problem it looks for."""
    assert terminal_problems(HOSTILE) == [
        "erase '\\x1b[2J'",
        "'\\u202e'",
        "'\\x07'",
        "'\\x1b'",
        "'\\x9b'",
        "the title's text",
    ]


async def test_a_notification_quoting_hostile_text_leaves_the_terminal_alone(recording_app, terminal):
    """Every notification goes through ``RagtuiApp.notify``, which cleans it: the one-door check
    relies on it rather than checking each ``notify`` call."""
    app = recording_app()
    async with app.run_test(size=SIZE, headless=False, notifications=True, tooltips=True) as pilot:
        await settle(pilot)
        terminal.take()
        app.screen.notify(f"Cannot read {HOSTILE}", title=f"File {HOSTILE}", markup=True)
        output, deadline = "", time.monotonic() + 60
        while "Cannot read" not in drawn(output) and time.monotonic() < deadline:
            await pilot.pause(0.05)  # the toast drawn (its own refresh), not a fixed wait
            output += terminal.take()
        assert terminal_problems(output) == []
        assert f"Cannot read {MARKUP}" in drawn(output) and f"File {MARKUP}" in drawn(output)
