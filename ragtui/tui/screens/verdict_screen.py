"""Verdict detail and re-judging for one session.

Left: the bot turns. Right, for the chosen turn: the newest verdict in full (criteria, steps,
conclusion), every version side by side with what changed (newest first), the exact prompt sent to the judge,
its raw reply, and the passages the bot was given.
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static, TabbedContent, TabPane, TextArea
from textual.widgets.option_list import Option

from ...core.registry import metric_views
from ...core.store.labels import Label, session_labels
from ...core.text.score_text import score_text, styled_score
from ...core.types.agreement_floor import is_low
from ...core.types.errors import RagtuiError
from ...core.types.stored import StoredJudgment, StoredSession
from ..context import TuiServices, services
from ..dialogs.expectation_dialog import TryExpectationScreen
from ..dialogs.label_dialog import open_label_dialog, verdict_summary
from ..dialogs.rejudge_screen import RejudgeMemory, RejudgeRequest, RejudgeScreen
from ..dialogue_text import dialogue_block
from ..formatting import detail_text, metric_text, raw_replies, version_column
from ..rejudge import judge_prompt_text, rejudge_turn
from ..replay import PRIMARY_METRIC
from ..safe_text import clean_text

MAX_COLUMNS = 4  # versions shown; older ones are listed in the newest's history
VERSION_WIDTH = 26  # a version's box: 22 columns of text, its border and padding
TURNS_WIDTH = 22  # the turn list on the left (app.tcss #turns)


TABS = ("tab-verdict", "tab-versions", "tab-prompt", "tab-raw", "tab-passages")


class VerdictScreen(Screen[None]):
    BINDINGS = [
        Binding(
            "r", "rejudge", "Re-judge", tooltip="Re-judge the turn: same judge, another model, or an edited prompt"
        ),
        Binding("left_square_bracket", "tab(-1)", "Prev tab", tooltip="The previous tab"),
        Binding("right_square_bracket", "tab(1)", "Next tab", tooltip="The next tab"),
        *[
            Binding(
                str(n),
                f"show_tab({n - 1})",
                f"Tab {n}",
                show=False,
                key_display="1–5",
                tooltip="Verdict, Versions, Prompt, Raw reply (every check's), Passages",
            )
            for n in range(1, len(TABS) + 1)
        ],
        Binding(
            "l", "label", "Label", tooltip="Label the turn: your own score, a note, agree/disagree with the verdict"
        ),
        Binding(
            "e",
            "try_expectation",
            "Expect",
            tooltip="Try an expectation on the turn: the judge's P(met) for its answer (nothing is stored)",
        ),
        Binding("escape", "dismiss(None)", "Back", tooltip="Back to the main screen"),
    ]

    def __init__(self, session_id: int, *, rejudge: bool = False) -> None:
        super().__init__()
        self.session_id = session_id
        self.rejudge_on_open = rejudge
        self.session: StoredSession | None = None
        self.turn: int | None = None
        self.labels: list[Label] = []

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def compose(self) -> ComposeResult:
        yield Static("", id="verdict-title", markup=False)
        with Horizontal():
            yield OptionList(id="turns")
            with TabbedContent(id="verdict-tabs"):
                with TabPane("Verdict", id="tab-verdict"), VerticalScroll():
                    yield Static("", id="verdict-detail", markup=False)
                with TabPane("Versions", id="tab-versions"):
                    yield Static("", id="older-versions", markup=False)
                    yield VerticalScroll(id="versions")
                with TabPane("Prompt", id="tab-prompt"):
                    yield TextArea("", read_only=True, soft_wrap=True, id="prompt")
                with TabPane("Raw reply", id="tab-raw"):
                    yield TextArea("", read_only=True, soft_wrap=True, id="raw")
                with TabPane("Passages", id="tab-passages"), VerticalScroll():
                    yield Static("", id="passages", markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.load()
        self.query_one("#turns").focus()
        if self.rejudge_on_open and self.turn is not None:
            self.action_rejudge()

    def load(self, keep_turn: int | None = None) -> None:
        try:
            self.session = session = self.ragtui.store.session(self.session_id)
        except RagtuiError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        self.labels = session_labels(self.ragtui.store, self.session_id)
        title = Text(f"Session #{session.id} · verdicts · ↑/↓ turn · [ ] or 1–5 tab · r re-judge · l label · Esc back")
        self.query_one("#verdict-title", Static).update(title)
        turns = sorted({m.turn for m in session.messages if m.role == "bot"})
        latest = session.latest_judgments()
        options = self.query_one("#turns", OptionList)
        options.clear_options()
        for turn in turns:
            label = Text(f"Turn {turn} · ")
            j = latest.get((turn, PRIMARY_METRIC))
            floor = self.ragtui.config.min_judge_agreement
            low = j is not None and j.scored and is_low(j.details, floor)
            label.append_text(styled_score(j.score, session.threshold, low) if j else Text("not judged", style="dim"))
            if j and j.version > 1:
                label.append(f" · v{j.version:d}", style="cyan")
            if any(lab.turn == turn and lab.metric == PRIMARY_METRIC for lab in self.labels):
                label.append(" · labelled", style="magenta")
            options.add_option(Option(label, id=str(turn)))
        if not turns:
            self.query_one("#verdict-detail", Static).update(Text("No bot answer yet in this session."))
            return
        turn = keep_turn if keep_turn in turns else turns[-1]
        options.highlighted = turns.index(turn)
        self.show_turn(turn)

    @on(OptionList.OptionHighlighted, "#turns")
    def _turn_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None:
            self.show_turn(int(event.option.id))

    def versions(self, turn: int) -> list[StoredJudgment]:
        assert self.session is not None
        found = [j for j in self.session.judgments if j.turn == turn and j.metric == PRIMARY_METRIC]
        return sorted(found, key=lambda j: j.version)

    def show_turn(self, turn: int) -> None:
        session = self.session
        if session is None:
            return
        self.turn = turn
        versions = self.versions(turn)
        detail = self.query_one("#verdict-detail", Static)
        newest = versions[-1] if versions else None
        floor = self.ragtui.config.min_judge_agreement
        shown = detail_text(newest, session.threshold, floor) if newest else Text("This turn is not judged yet.")
        others = [
            j
            for (judged_turn, metric), j in sorted(session.latest_judgments().items())
            if judged_turn == turn and metric != PRIMARY_METRIC
        ]
        if others:
            shown.append("\nOther metrics\n", style="bold underline")
            for judgment in others:
                shown.append_text(metric_text(judgment, session.threshold, floor))
                shown.append("\n")
        dialogue = session.latest_dialogue_judgments()
        if dialogue and turn == max(m.turn for m in session.messages if m.role == "bot"):
            # The verdict on the whole dialogue sits under its last turn.
            shown.append("\n")
            shown.append_text(
                dialogue_block(
                    [
                        (j.metric, j.version, j.score, j.details, j.error)
                        for j in (dialogue[m] for m in metric_views.shown_metrics(set(dialogue)))
                    ],
                    full=True,
                )
            )
        labels = [lab for lab in self.labels if lab.turn == turn]
        if labels:
            # People's labels, set apart from the judge's verdicts above.
            shown.append("\nPeople's labels (not verdicts)\n", style="bold underline magenta")
            for lab in labels:
                shown.append(clean_text(f"{lab.metric}: {lab.summary()} · {lab.created_at.replace('T', ' ')[:16]}"))
                shown.append(clean_text(f" — {lab.note}") if lab.note else "")
                shown.append("\n")
        detail.update(shown)
        self._show_versions(versions, session.threshold)
        prompt = "\n\n".join(
            f"── {m.get('role', '?')} ──\n{m.get('content', '')}" for m in (newest.prompt if newest else [])
        )
        self.query_one("#prompt", TextArea).load_text(clean_text(prompt))
        raw = raw_replies(newest) if newest else ""
        self.query_one("#raw", TextArea).load_text(clean_text(raw))
        bot = next((m for m in session.messages if m.role == "bot" and m.turn == turn), None)
        passages = Text()
        for p in bot.passages if bot else []:
            passages.append(f"{clean_text(p.title or p.doc_id)}", style="bold")
            passages.append(f"  ({clean_text(p.doc_id)})\n", style="dim")
            passages.append(clean_text(p.text) + "\n\n")
        self.query_one("#passages", Static).update(passages or Text("The bot was given no passages this turn."))

    def action_tab(self, step: int) -> None:
        tabs = self.query_one(TabbedContent)
        index = TABS.index(tabs.active) if tabs.active in TABS else 0
        tabs.active = TABS[(index + step) % len(TABS)]

    def action_show_tab(self, index: int) -> None:
        self.query_one(TabbedContent).active = TABS[index]

    def on_resize(self) -> None:
        if self.session is not None and self.turn is not None:  # as many side by side as fit
            self._show_versions(self.versions(self.turn), self.session.threshold)

    def _per_row(self, count: int) -> int:
        """Versions side by side: as many columns of VERSION_WIDTH as the tab has room for; the
        rest wrap to the next row (by design, instead of columns too narrow to read)."""
        room = self.app.size.width - TURNS_WIDTH - 2
        return max(1, min(count, room // VERSION_WIDTH))

    def _show_versions(self, versions: list[StoredJudgment], threshold: float) -> None:
        box = self.query_one("#versions", VerticalScroll)
        box.remove_children()
        shown = versions[-MAX_COLUMNS:]
        older = len(versions) - len(shown)
        note = self.query_one("#older-versions", Static)
        note.display = older > 0
        if older:
            span = "v1" if older == 1 else f"v1–v{older}"
            note.update(Text(f"{older} older version(s) not shown side by side ({span}); the newest {len(shown)} are."))
        columns = []
        # Newest first, as every other list: at 80 columns two fit a row, and the newest must not
        # be the one that wraps to the bottom.
        for j in reversed(shown):
            index = versions.index(j)
            previous = versions[index - 1] if index else None
            floor = self.ragtui.config.min_judge_agreement
            column = Static(version_column(j, previous, threshold, floor), markup=False, classes="version")
            column.border_title = Text(f"v{j.version:d}" + (" (newest)" if j is versions[-1] else ""))
            columns.append(column)
        per_row = self._per_row(len(columns))
        rows = [Horizontal(*columns[i : i + per_row], classes="version-row") for i in range(0, len(columns), per_row)]
        if rows:
            box.mount_all(rows)

    # -- labelling ---------------------------------------------------------------------------

    def action_label(self) -> None:
        if self.session is None or self.turn is None:
            self.app.notify("No bot turn to label.", severity="warning", markup=False)
            return
        turn = self.turn
        verdict = verdict_summary(self.session, turn, floor=self.ragtui.config.min_judge_agreement)
        open_label_dialog(self.app, self.session_id, turn, verdict, lambda _label: self.load(keep_turn=turn))

    # -- trying an expectation --------------------------------------------------------------

    def action_try_expectation(self) -> None:
        if self.session is None or self.turn is None:
            self.app.notify("No bot turn to try an expectation on.", severity="warning", markup=False)
            return
        self.app.push_screen(TryExpectationScreen(self.session_id, self.turn))

    # -- re-judging --------------------------------------------------------------------------

    def action_rejudge(self) -> None:
        engine = self.ragtui.engine
        if engine is None:
            self.app.notify(self.ragtui.problem or "no engine", severity="warning", markup=False)
            return
        if self.session is None or self.turn is None:
            self.app.notify("No bot turn to re-judge.", severity="warning", markup=False)
            return
        try:
            prompt_text = judge_prompt_text(engine, self.session.language)
        except RagtuiError as exc:
            prompt_text = f"# {exc}"
        turn = self.turn
        memory = self.ragtui.remembered.setdefault(f"rejudge-{self.session.language}", RejudgeMemory())
        screen = RejudgeScreen(turn, engine.endpoints["judge"].model, prompt_text, self.session.language, memory)
        self.app.push_screen(screen, lambda request: self._start_rejudge(turn, request))

    def _start_rejudge(self, turn: int, request: RejudgeRequest | None) -> None:
        if request is not None:
            self.app.notify(f"Re-judging turn {turn}…", markup=False)
            self._rejudge(turn, request)

    @work(exclusive=True, group="rejudge", exit_on_error=False)
    async def _rejudge(self, turn: int, request: RejudgeRequest) -> None:
        engine = self.ragtui.engine
        if engine is None:
            return
        before = self.versions(turn)
        try:
            stored = await rejudge_turn(engine, self.session_id, turn, model=request.model, template=request.template)
        except RagtuiError as exc:
            self.app.notify(f"Re-judge failed: {exc}", severity="error", markup=False)
            return
        was = before[-1].score if before else None
        self.app.notify(
            f"Turn {turn} re-judged: v{stored.version} scores {score_text(stored.score)} (was {score_text(was)})",
            markup=False,
        )
        self.load(keep_turn=turn)
        self.query_one(TabbedContent).active = "tab-versions"
