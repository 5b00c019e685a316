"""Drafts: the generated scenarios of the scenario file, one at a time, for a person to accept,
edit or reject. The case (question, reference, expectations) on the left; on the right the source
passage as the knowledge folder holds it now, with the quote marked — or a warning when the
passage changed or vanished since it was generated. A draft mined from a real conversation
(``scenarios from-conversations``) shows that conversation instead, message by message as the
database holds it (redacted), the answer its reference comes from marked. ``a`` accepts, ``e`` edits (the code checks
run again before it is saved), ``x`` rejects (asks first), ``n`` / ``p`` move; every change is
written to the file at once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...core.content.scenarios import load_scenarios, scenario_file
from ...core.generate.conversation_read import Said, conversation_messages
from ...core.generate.review import Reviewed, accept, reviewable, write_review
from ...core.knowledge.folder import knowledge_root, read_folder
from ...core.text.score_text import figure_text
from ...core.types.errors import RagtuiError
from ...core.types.expectations import Proof
from ...core.types.scenarios import ScenarioSource
from ..context import TuiServices, services
from ..dialogs.common import ConfirmScreen
from ..dialogs.draft_edit import DraftEditScreen
from ..safe_text import clean_text, plain

QUOTE_STYLE = "bold black on yellow"


class DraftReviewScreen(Screen[None]):
    DEFAULT_CSS = """
    DraftReviewScreen #drafts-title { height: auto; padding: 0 1; background: $panel; }
    DraftReviewScreen #drafts-body { height: 1fr; }
    DraftReviewScreen #drafts-body VerticalScroll { width: 1fr; padding: 0 1; border: round $panel-lighten-2; }
    """
    BINDINGS = [
        Binding("a", "accept", "Accept", tooltip="Accept the draft: ragtui run runs it without --include-drafts"),
        Binding("e", "edit", "Edit", tooltip="Edit the question and the reference; the checks run again"),
        Binding("x", "reject", "Reject", tooltip="Remove the draft from the scenario file (asks first)"),
        Binding("n", "move(1)", "Next", tooltip="The next generated scenario"),
        Binding("p", "move(-1)", "Prev", tooltip="The previous generated scenario"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.items: list[Reviewed] = []
        self.index = 0
        self.path: Path | None = None
        self.conversations: dict[int, tuple[Said, ...] | None] = {}  # mined drafts' sources, by session

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def compose(self) -> ComposeResult:
        yield Static("", id="drafts-title", markup=False)
        with Horizontal(id="drafts-body"):
            with VerticalScroll(id="drafts-case"):
                yield Static("", id="drafts-case-text", markup=False)
            with VerticalScroll(id="drafts-source"):
                yield Static("", id="drafts-source-text", markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.load()

    def load(self) -> None:
        config = self.ragtui.config
        self.path = scenario_file(config.scenarios, config.language)
        try:
            scenarios = load_scenarios(self.path, config.language)
            passages = read_folder(knowledge_root(config.knowledge, config.language)).passages
        except RagtuiError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            scenarios, passages = [], ()
        self.items = reviewable(scenarios, passages)
        self.conversations = self._conversations(self.items)
        self.index = min(self.index, max(len(self.items) - 1, 0))
        self.show()

    def _conversations(self, items: list[Reviewed]) -> dict[int, tuple[Said, ...] | None]:
        """The conversations the mined drafts come from, read once per load from the database."""
        found: dict[int, tuple[Said, ...] | None] = {}
        for item in items:
            source = item.scenario.source
            if source is None or not source.from_conversation or source.session is None:
                continue
            try:
                found[source.session] = conversation_messages(self.ragtui.store, source.session, source.conversation)
            except RagtuiError:
                found[source.session] = None
        return found

    @property
    def current(self) -> Reviewed | None:
        return self.items[self.index] if self.items else None

    def show(self) -> None:
        title = self.query_one("#drafts-title", Static)
        case = self.query_one("#drafts-case-text", Static)
        source = self.query_one("#drafts-source-text", Static)
        item = self.current
        if item is None:
            title.update(plain(f"Drafts — no generated scenario in {self.path}", style="bold"))
            case.update(
                Text("Generate some: ragtui scenarios generate DOCS --out FILE, then open ragtui --scenarios FILE.")
            )
            source.update(Text(""))
            return
        s = item.scenario
        drafts = sum(1 for i in self.items if i.scenario.draft)
        title.update(
            Text.assemble(
                (f"Drafts — {self.index + 1} of {len(self.items)} ({drafts} to review) · ", "bold"),
                (clean_text(s.status), "yellow" if s.draft else "green"),
                f" · {clean_text(s.kind or 'generated')} · {clean_text(s.id)}",
            )
        )
        case.update(case_text(item))
        mined = item.scenario.source
        if mined is not None and mined.from_conversation:
            source.update(conversation_text(mined, self.conversations.get(mined.session or 0)))
        else:
            source.update(source_text(item))

    # -- actions -----------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        if self.items:
            self.index = (self.index + step) % len(self.items)
            self.show()

    def action_accept(self) -> None:
        item = self.current
        if item is None or self.path is None:
            return
        source = item.scenario.source
        if item.passage is None and source is not None and not source.from_conversation:
            self.app.notify("Its source passage changed or vanished: edit or reject it instead", severity="warning")
            return
        path = self.path
        self._write(lambda: accept(path, item.scenario.id), f"Accepted {item.scenario.id}")

    def action_reject(self) -> None:
        item = self.current
        if item is None or self.path is None:
            return
        path = self.path

        def answered(yes: bool | None) -> None:
            if yes:
                self._write(lambda: write_review(path, item.scenario.id, reject=True), f"Rejected {item.scenario.id}")

        self.app.push_screen(ConfirmScreen(f"Remove {item.scenario.id} from {path.name}?"), answered)

    def action_edit(self) -> None:
        item = self.current
        if item is None or self.path is None:
            return
        path = self.path

        def edited(result: tuple[str, str] | None) -> None:
            if result is not None:
                question, reference = result
                self._write(
                    lambda: write_review(path, item.scenario.id, question=question, reference=reference),
                    f"Saved {item.scenario.id} (still a draft: a to accept)",
                )

        self.app.push_screen(DraftEditScreen(item), edited)

    def _write(self, change: Callable[[], None], done: str) -> None:
        """Run ``change`` (it writes the scenario file), say ``done``, and show the file anew."""
        try:
            change()
        except (RagtuiError, OSError) as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        self.app.notify(done, markup=False)
        self.load()


def case_text(item: Reviewed) -> Text:
    s = item.scenario
    text = Text()
    text.append("Question\n", style="bold")
    text.append(clean_text(s.question) + "\n\n")
    text.append("Reference\n", style="bold")
    text.append(clean_text(s.reference or "(none: an out-of-scope probe expects the bot not to know)") + "\n\n")
    if s.follow_up is not None:  # the customer's planned turn 2, with its own reference
        text.append("Follow-up (turn 2)\n", style="bold")
        text.append(clean_text(s.follow_up.question) + "\n")
        text.append(clean_text(s.follow_up.reference) + "\n\n", style="dim")
    text.append("Expectations\n", style="bold")
    for e in s.expectations:
        form = "must not" if e.polarity == "must_not" else ("contains" if e.form == "contains" else "must")
        text.append(f"{form}: ", style="dim")
        text.append(clean_text(e.text) + "\n")
        if e.checked is not None:  # how it proved itself when it was generated
            text.append(f"  {proof_words(e.checked, e.polarity == 'must_not')}\n", style="dim")
    return text


def proof_words(proof: Proof, prohibition: bool) -> str:
    """``proven: P(met) on the reference 0.93 · on a wrong answer 0.06`` — the judge's P on the
    reference, and on the wrong answer that failed it (for a prohibition, P that an answer does the
    act: low on the reference, high on the answer written to break it)."""
    right = f"{'P(act)' if prohibition else 'P(met)'} on the reference {figure_text(proof.reference)}"
    wrong_answer = "an answer that does it" if prohibition else "a wrong answer"
    wrong = f" · on {wrong_answer} {figure_text(proof.wrong)}" if proof.wrong is not None else ""
    return f"proven: {right}{wrong}"


def source_text(item: Reviewed) -> Text:
    source = item.scenario.source
    text = Text()
    if source is None:
        text.append("Out-of-scope probe: no passage answers it ", style="bold")
        text.append("(its key terms are in none).")
        return text
    where = f"{source.file} › {source.heading}" + (f" (page {source.page})" if source.page else "")
    text.append("Source  ", style="bold")
    text.append(clean_text(where) + "\n\n")
    if item.passage is None:
        text.append(
            "This passage changed or vanished since the draft was generated: check the reference.\n\n", style="bold red"
        )
        text.append("Quote: ", style="dim")
        text.append(clean_text(source.quote))
        return text
    passage = item.passage.text
    if item.quote is None:
        text.append(clean_text(passage))
        return text
    text.append(clean_text(passage[: item.quote.start]))
    text.append(clean_text(passage[item.quote.start : item.quote.end]), style=QUOTE_STYLE)
    text.append(clean_text(passage[item.quote.end :]))
    return text


SPEAKERS = {"customer": "customer", "bot": "bot", "agent": "human agent", "system": "note"}


def conversation_text(source: ScenarioSource, messages: tuple[Said, ...] | None) -> Text:
    """The conversation a mined draft comes from, every message cleaned (it is a real customer's
    text), the answer its quote is in marked."""
    text = Text()
    where = f"{source.file} {source.unit} {source.line} · conversation {source.conversation}"
    text.append("Conversation  ", style="bold")
    text.append(clean_text(f"{where} · run {source.run}, session {source.session}") + "\n\n")
    if messages is None:
        text.append("This conversation is not in the database open now: ", style="bold red")
        text.append(clean_text(f"open the one run {source.run} was imported into. The answer quoted: "))
        text.append(clean_text(source.quote))
        return text
    quote = " ".join(source.quote.split())
    for said in messages:
        text.append(f"[{said.turn}] {clean_text(SPEAKERS.get(said.speaker, said.speaker))}\n", style="bold dim")
        marked = said.speaker in ("bot", "agent") and bool(quote) and quote in " ".join(said.text.split())
        text.append(clean_text(said.text) + "\n\n", style=QUOTE_STYLE if marked else "")
    return text
