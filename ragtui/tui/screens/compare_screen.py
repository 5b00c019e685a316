"""Two runs side by side: the pairs table (Enter opens one pair) with each pair's verdict
(regression / improved / within noise / same …, as ``ragtui compare`` and its reports state it),
the dialogue verdicts' resolution and flag, and a pair's two dialogues turn-aligned, customer, bot
and score for each turn, then both dialogue verdicts.

When either run has repeated trials (``ragtui run --repeat K``), each row also shows its
scenario × persona's trials on both sides, ● passed ○ not, with pass^k over them, and the pair
screen flips through the trials with ``[`` / ``]``.

The statistics above the pairs fold to their first line when they would take more than a quarter
of the screen (at 80×24 the pairs would otherwise get two rows); ``s`` unfolds and folds them."""

from __future__ import annotations

import math
from typing import Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ...core.metrics import PRIMARY_METRIC
from ...core.registry import metric_views
from ...core.runs.compare import Comparison, Pair, compare_runs
from ...core.runs.compare_report import flag_words, has_verdicts, ordered, side_scores, summary_lines, verdict_pair
from ...core.runs.compare_verdict import VERDICT_STYLES
from ...core.runs.listing import run_trials
from ...core.runs.pass_k import RunPassK
from ...core.text.score_text import delta_text, figure_text, score_style, styled_score
from ...core.types.agreement_floor import LOW_MARK, AgreementFloor, agreement_words, is_low
from ...core.types.errors import RagtuiError
from ...core.types.stored import StoredSession
from ..context import TuiServices, services
from ..safe_text import clean_text, one_line, plain
from ..widgets.row_table import RowTable

FLAG_STYLES = {"regression": "bold red", "fixed": "bold green", "same": "dim"}


class CompareScreen(Screen[None]):
    DEFAULT_CSS = """
    CompareScreen #compare-stats { height: auto; max-height: 50%; background: $panel; }
    CompareScreen #compare-summary { height: auto; padding: 0 1; }
    CompareScreen #pairs { height: 1fr; }
    """
    BINDINGS = [
        Binding("enter", "open_pair", "Side by side", priority=True, tooltip="Both dialogues, turn by turn"),
        Binding(
            "s",
            "statistics",
            "Statistics",
            tooltip="Every line of the statistics above the pairs, or only the first (folded at 80×24)",
        ),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, base_run: str, new_run: str) -> None:
        super().__init__()
        self.base_run, self.new_run = base_run, new_run
        self.comparison: Comparison | None = None
        self.shown: list[Pair] = []
        self.summary = Text()  # every line of the statistics
        self.folded = False  # only their first line shown, the pairs get the screen

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Compare {one_line(self.base_run, 60)} → {one_line(self.new_run, 60)}"), id="title")
        with VerticalScroll(id="compare-stats"):
            yield Static("", id="compare-summary", markup=False)
        yield RowTable(id="pairs")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        table = self.query_one("#pairs", DataTable)
        try:
            # The config's significance level, as `ragtui compare` uses: both call a drop the same way.
            alpha = self.ragtui.config.compare_alpha
            floor = self.ragtui.config.min_judge_agreement
            self.comparison = c = compare_runs(self.ragtui.store, self.base_run, self.new_run, alpha=alpha, floor=floor)
        except RagtuiError as exc:
            table.add_columns("scenario × persona", "verdict", "base", "new", "Δ", "diverges", "flag")
            self.query_one("#compare-summary", Static).update(plain(str(exc), style="bold red"))
            self.app.notify(str(exc), severity="error", markup=False)
            return
        verdicts = has_verdicts(c)
        verdict_metrics = c.verdict_metrics  # a column each, plugins' too, under its label
        try:
            sides = run_trials(self.ragtui.store, self.base_run), run_trials(self.ragtui.store, self.new_run)
        except RagtuiError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            sides = None
        trials = sides if sides is not None and max(sides[0].trials, sides[1].trials) > 1 else None
        # The verdict beside the pair's name, so that it stays on screen at 80 columns.
        table.add_columns(
            "scenario × persona",
            "verdict",
            "base",
            "new",
            "Δ",
            "diverges",
            "flag",
            *(f"{one_line(metric_views.label(m), 30)} base → new" for m in verdict_metrics),
            *(("dialogue flag",) if verdicts else ()),
            *(("trials base → new",) if trials else ()),
        )
        verdict = c.verdict  # the words of `ragtui compare` and every report
        # The outcome first: folded at 80×24, it is the line that stays.
        summary = plain("\n".join([verdict.headline, *summary_lines(c)]))
        if trials is not None:
            summary.append(f"\n{_pass_k_summary(*trials)}")
        for side, dialogues in (("base", c.only_in_base), ("new", c.only_in_new)):
            if dialogues:
                names = ", ".join(f"{d.scenario_id} × {d.persona_name}" for d in dialogues[:8])
                summary.append(f"\nonly in {side}: {one_line(names, 200)}", style="yellow")
        self.summary = summary
        self.folded = _rows(summary, self.app.size.width - 2) > self.app.size.height // 4
        self._show_summary()
        self.shown = ordered(c.pairs)
        low = c.low()  # the rubric's judge agrees with people under the floor: no red, no green
        for index, p in enumerate(self.shown):
            d = p.delta
            word = verdict.for_pair(p).word
            base, new = side_scores(c, p)
            table.add_row(
                Text(one_line(p.label, 50)),
                Text(clean_text(word), style=VERDICT_STYLES.get(word, "")),
                Text(clean_text(base), justify="right"),
                Text(clean_text(new), justify="right"),
                Text(delta_text(d), justify="right", style=_delta_style(d, low)),
                "–" if p.diverges_at is None else f"turn {p.diverges_at}",
                plain(
                    flag_words(c, p),
                    style="dim" if low and p.flag == "regression" else FLAG_STYLES.get(p.flag, "yellow"),
                ),
                *(_dialogue_cells(c, p, verdict_metrics) if verdicts else ()),
                *((_trials_cell(p, *trials),) if trials else ()),
                key=str(index),
            )
        table.focus()

    def _show_summary(self) -> None:
        shown = self.summary
        lines = shown.split("\n")
        if self.folded and len(lines) > 1:
            shown = lines[0]
            shown.append(f"\n{len(lines) - 1} more line(s) of statistics — s shows them", style="dim italic")
        self.query_one("#compare-summary", Static).update(shown)

    def action_statistics(self) -> None:
        self.folded = not self.folded
        self._show_summary()

    def action_open_pair(self) -> None:
        table = self.query_one("#pairs", DataTable)
        if table.row_count == 0:
            return
        pair = self.shown[table.cursor_row]
        sessions = _pair_sessions(self, pair)
        if sessions is None:
            return
        base, new = sessions
        # The other trials of this scenario × persona, for [ / ] on the pair screen.
        same = [q for q in self.shown if _pair_of(q) == _pair_of(pair)]
        trials = sorted(same, key=lambda q: q.base.session_id)
        if self.comparison is not None:
            self.app.push_screen(PairScreen(self.comparison, pair, base, new, trials))

    @on(DataTable.RowSelected, "#pairs")
    def _selected(self) -> None:
        self.action_open_pair()


def _rows(text: Text, width: int) -> int:
    """How many rows ``text`` takes wrapped at ``width`` (near enough: words are not weighed)."""
    return sum(max(1, math.ceil(len(line.plain) / max(1, width))) for line in text.split("\n"))


def _delta_style(value: float | None, low: bool) -> str:
    if low:
        return "dim"
    return "red" if (value or 0) < 0 else "green" if (value or 0) > 0 else ""


def _pair_of(p: Pair) -> tuple[str, str]:
    return p.base.scenario_id, p.base.persona_name


def _side_trials(side: RunPassK, p: Pair) -> str:
    pair = side.pair(*_pair_of(p))
    return pair.marks_line() if pair is not None else "no counted trial"


def _trials_cell(p: Pair, base: RunPassK, new: RunPassK) -> Text:
    """``●●○ pass^3 0.33 → ●○○ pass^3 0.00``: the pair's trials in each run, ● passed ○ not."""
    return plain(f"{_side_trials(base, p)} → {_side_trials(new, p)}")


def _pass_k_summary(base: RunPassK, new: RunPassK) -> str:
    """``trials (● passed ○ not): pass^1 0.83 → 0.50 · pass^3 0.50 → 0.00``; ``–`` where a run has too few."""
    k = max(base.trials, new.trials)
    parts = []
    for n in dict.fromkeys((1, k)):
        b, w = base.estimate(n), new.estimate(n)  # None: no pair of that run has n trials
        parts.append(f"pass^{n} {figure_text(b)} → {figure_text(w)}")
    sizes = f"base {len(base.pairs)} pairs × {base.trials} trials, new {len(new.pairs)} pairs × {new.trials} trials"
    return f"trials (● passed ○ not): {' · '.join(parts)} ({sizes})"


def _dialogue_cells(c: Comparison, p: Pair, metrics: tuple[str, ...]) -> list[Text]:
    """Each dialogue metric's verdicts in both runs, and the pair's dialogue flag."""
    flag = p.dialogue_flag
    last = flag.rsplit(" ", 1)[-1]
    style = FLAG_STYLES.get(last if last in ("regression", "fixed") else flag, "yellow")
    return [*(Text(one_line(verdict_pair(c, p, m), 50)) for m in metrics), plain(flag, style=style)]


def _verdicts_text(session: StoredSession) -> Text:
    """A side's dialogue verdicts under its last turn: outcome and scores, or unscored / none."""
    latest = session.latest_dialogue_judgments()
    if not latest:
        return Text("no dialogue verdicts", style="dim")
    text = Text("dialogue verdicts", style="bold")
    for metric in metric_views.shown_metrics(set(latest)):
        j = latest[metric]
        text.append(f"\n{clean_text(metric_views.label(metric))} ")
        text.append_text(metric_views.styled_cell(j, j.verdict.threshold))
    return text


def _side(session: StoredSession, turn: int, other: StoredSession, floor: AgreementFloor) -> Text:
    """One side of one turn: customer, bot, verdict; a customer line that differs from the
    other side's is marked, since from there on the two are no longer the same conversation."""
    text = Text()
    latest = session.latest_judgments()
    customer = next((m.text for m in session.messages if m.turn == turn and m.role == "user"), None)
    other_customer = next((m.text for m in other.messages if m.turn == turn and m.role == "user"), None)
    bot = next((m.text for m in session.messages if m.turn == turn and m.role == "bot"), None)
    if customer is None and bot is None:
        return Text("(no turn)", style="dim")
    text.append("customer", style="bold blue")
    if customer != other_customer:
        text.append(" (differs)", style="yellow")
    # What the customer and the bot said is text from the record: cleaned like every other pane.
    text.append(f"\n{clean_text(customer or '')}\n")
    text.append("bot", style="bold magenta")
    text.append(f"\n{clean_text(bot) if bot is not None else '(no answer)'}\n")
    judgment = latest.get((turn, PRIMARY_METRIC))
    if judgment is not None:
        low = judgment.scored and is_low(judgment.details, floor)
        text.append("score ", style=score_style(judgment.score, session.threshold, low))
        text.append_text(styled_score(judgment.score, session.threshold, low))
        text.append(f" · {LOW_MARK + ' ' if low else ''}{agreement_words(judgment.details, floor)}", style="dim")
        conclusion = judgment.verdict.conclusion
        if conclusion:
            text.append(f" — {one_line(conclusion, 200)}", style="dim")
    return text


class PairScreen(Screen[None]):
    """One scenario × persona from both runs, turn-aligned: base on the left, new on the right;
    ``[`` / ``]`` flip through the pair's trials when the runs repeated it."""

    base: StoredSession
    new: StoredSession

    DEFAULT_CSS = """
    PairScreen .turn-row { height: auto; margin-bottom: 1; }
    PairScreen .turn-row Static { width: 1fr; padding: 0 1; border: round $panel-lighten-2; }
    PairScreen .turn-head { color: $accent; text-style: bold; }
    """
    BINDINGS = [
        Binding("left_square_bracket", "trial(-1)", "Prev trial", tooltip="The previous trial of this pair"),
        Binding("right_square_bracket", "trial(1)", "Next trial", tooltip="The next trial of this pair"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(
        self,
        comparison: Comparison,
        pair: Pair,
        base: StoredSession,
        new: StoredSession,
        trials: list[Pair] | None = None,
    ) -> None:
        super().__init__()
        self.comparison = comparison  # the pair's verdict and which scores read ≈
        self.pair, self.base, self.new = pair, base, new
        self.trials = trials or [pair]  # the pair's trials in order; one for a run without repeats

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A pair run once has no other trial: the keys stay out of the footer.
        return len(self.trials) > 1 if action == "trial" else True

    async def action_trial(self, step: int) -> None:
        index = (self.trials.index(self.pair) + step) % len(self.trials) if self.pair in self.trials else 0
        pair = self.trials[index]
        sessions = _pair_sessions(self, pair)
        if sessions is None:
            return
        self.pair, (self.base, self.new) = pair, sessions
        await self.recompose()

    def compose(self) -> ComposeResult:
        p = self.pair
        base, new = side_scores(self.comparison, p)
        head = Text(f"{one_line(p.label, 80)} — base #{self.base.id:d} {clean_text(base)} → new #{self.new.id:d} ")
        word = self.comparison.verdict.for_pair(p).word  # the pair's verdict, when its flag says less
        head.append(
            f"{clean_text(new)} ({delta_text(p.delta)}) · {clean_text(p.flag)}"
            + ("" if word == p.flag else f" (pair: {clean_text(word)})")
        )
        if len(self.trials) > 1:
            head.append(
                f" · trial {self.base.trial} → {self.new.trial} ({self.trials.index(p) + 1:d} of {len(self.trials)}; "
                "[ / ] other trials)"
            )
        yield Static(head, id="title", markup=False)
        turns = sorted({m.turn for m in self.base.messages} | {m.turn for m in self.new.messages})
        floor = self.ragtui.config.min_judge_agreement
        with VerticalScroll(id="pair-turns"):
            for turn in turns:
                yield Static(Text(f"Turn {turn}"), classes="turn-head", markup=False)
                yield Horizontal(
                    self._box(_side(self.base, turn, self.new, floor), "base"),
                    self._box(_side(self.new, turn, self.base, floor), "new"),
                    classes="turn-row",
                )
            yield Static(
                Text(f"The dialogue as a whole — {clean_text(p.dialogue_flag)}"), classes="turn-head", markup=False
            )
            yield Horizontal(
                self._box(_verdicts_text(self.base), "base"),
                self._box(_verdicts_text(self.new), "new"),
                classes="turn-row",
                id="pair-verdicts",
            )
        yield Footer(compact=True, show_command_palette=False)

    def _box(self, text: Text, side: Literal["base", "new"]) -> Static:
        """One side of a row, its border saying which run it is (base left, new right)."""
        session = self.base if side == "base" else self.new
        box = Static(text, markup=False, classes=side)
        box.border_title = Text(f"{side} · {one_line(session.run_id or '', 24)} · #{session.id:d}")
        return box


def _pair_sessions(screen: Screen[None], pair: Pair) -> tuple[StoredSession, StoredSession] | None:
    """Both sides of ``pair`` read in full; None (said in a notice) when one cannot be read."""
    store = services(screen.app).store
    try:
        return store.session(pair.base.session_id), store.session(pair.new.session_id)
    except RagtuiError as exc:
        screen.app.notify(str(exc), severity="error", markup=False)
        return None
