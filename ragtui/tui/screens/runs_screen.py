"""The runs browser: every run with its score and trend; the highlighted run's score per
scenario × persona across runs as sparklines; compare two runs; replay one.

Enter compares the run marked with ``b`` (or, when none is marked, the run before the
highlighted one) with the highlighted run. ``r`` replays the highlighted run's customers to
the current bot; ``t`` does the same and lets the simulator continue where the recording ends.
``n`` (an imported run) asks a turn and has the current bot answer just that turn of every real
conversation after its real history (N+1, ``core/runs/next_turn.py``).
"""

from __future__ import annotations

import contextlib

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Static

from ...core.dialogue.engine import new_run_id
from ...core.dialogue.events import DialogueDone, DialogueVerdictStarted
from ...core.dialogue.next_turn import customer_turns
from ...core.dialogue.replay import replay_summary
from ...core.dialogue.state_machine import Dialogue
from ...core.runs.listing import TREND_RUNS, RunSummary, list_runs, pair_trends, sparkline
from ...core.runs.next_turn import ALL_TURNS, plan_next_turn
from ...core.runs.pass_k import FAIL_MARK, PASS_MARK
from ...core.runs.replay_plan import plan_replay
from ...core.store.imported import run_kind
from ...core.text.fit_columns import fit_widths, narrowest_apart, pair_label
from ...core.text.number_text import percent_text
from ...core.text.score_text import UNSCORED, score_text
from ...core.types.conversations import IMPORTED_KIND
from ...core.types.errors import RagtuiError
from ..context import TuiServices, services
from ..dialogs.next_turn_dialog import NextTurnDialog
from ..safe_text import clean_text, one_line, plain
from ..store_watch import StoreChanged
from ..widgets.row_table import RowTable

HELP = "Runs — Enter: compare with the marked run (or the previous one) · b: mark as base · r: replay · t: replay, then simulate · n: N+1 · Escape: back"


def _resolution_cell(r: RunSummary) -> Text:
    """The run's resolution rate; ``unscored`` (never 0%) or ``–`` when it has no dialogue verdicts."""
    if r.resolution is None:
        return Text("–", justify="right", style="dim")
    if r.resolution.rate is None:
        return Text("unscored", justify="right", style="yellow")
    return Text(percent_text(r.resolution.rate), justify="right")


def _has_trials(r: RunSummary) -> bool:
    # A run nobody judged has no pass^K, as it has no pass rate.
    return r.repeated and r.score is not None


def _pass_cell(r: RunSummary) -> Text:
    """The run's pass rate (pass^1, as compare shows it); ``–`` when no dialogue ran to the end or was judged."""
    if r.pass_rate is None:
        return Text("–", justify="right", style="dim")
    return Text(percent_text(r.pass_rate), justify="right")


def _pass_k_cell(r: RunSummary) -> Text:
    """pass^K (K) of a run with repeated trials; ``–`` for one without."""
    if r.trials is None or not _has_trials(r):
        return Text("–", justify="right", style="dim")
    k = r.trials.trials
    return Text(f"{score_text(r.trials.estimate(k))} ({k})", justify="right")


def _trend_row(
    pair: str,
    change: str,
    runs: str,
    span: str,
    marks: str | None,
    trend: Label,
    head: bool = False,
    widths: list[int] | None = None,
) -> Horizontal:
    """One row of the trends: a cell each (plain text, never markup), the trial marks only for a
    run with trials; ``widths``: the cells' widths fitted to a narrow screen (else the CSS's)."""
    cells = [
        Label(plain(pair), markup=False, classes="pair"),
        Label(plain(change), markup=False, classes="change"),
        Label(Text(clean_text(runs), justify="right"), markup=False, classes="runs"),
        Label(plain(span), markup=False, classes="range"),
    ]
    if marks is not None:
        cells.append(Label(plain(marks), markup=False, classes="trial-marks"))
    for cell, width in zip(cells, widths or (), strict=False):
        cell.styles.width = width
        cell.styles.min_width = width
    trend.add_class("trend")
    return Horizontal(*cells, trend, classes="trend-row trend-head" if head else "trend-row")


# The trends' cells as the CSS lays them out (pair, first → last, runs, range, trials) and the
# room around them, for seeing when a narrow screen needs them fitted (``_trend_widths``).
CSS_WIDTHS = (12, 19, 6, 9, 24)
CELL_MARGIN = 2
TREND_LEAST = 8
SCROLLBAR = 2
PAIR_LEAST = 16  # "scenario·persona", the heading at its narrowest


def _trend_widths(
    rows: list[tuple[str, str, str, str, str | None]], pairs: list[tuple[str, str]], room: int
) -> list[int] | None:
    """The trends' cell widths fitted into ``room`` cells, or None when the CSS's fit (a wide
    screen). The figures keep their width; the pair gives up the rest, by ``fit_columns``: each
    name shortened from its middle, never so far that two pairs read the same."""
    count = 5 if rows and rows[0][4] is not None else 4
    room -= CELL_MARGIN * count + TREND_LEAST + SCROLLBAR
    natural_pair = max((cell_len(pair_label(s, p)) for s, p in pairs), default=0)
    if max(natural_pair, CSS_WIDTHS[0]) + sum(CSS_WIDTHS[1:count]) <= room:
        return None
    natural = [max(cell_len(str(row[i] or "")) for row in rows) for i in range(count)]
    natural[0] = max(natural_pair, PAIR_LEAST)
    least = narrowest_apart(pairs, lambda pair, width: pair_label(*pair, width), PAIR_LEAST, natural[0])
    return fit_widths(natural, [least, *natural[1:]], room)


class RunsScreen(Screen[None]):
    DEFAULT_CSS = """
    RunsScreen #runs { height: 1fr; }
    RunsScreen #trends { height: 1fr; border-top: solid $accent; }
    RunsScreen .trend-row { height: 1; }
    RunsScreen .trend-row Label { margin-right: 2; text-wrap: nowrap; text-overflow: ellipsis; }
    RunsScreen .trend-row Label.pair { width: 1fr; min-width: 12; max-width: 64; }
    RunsScreen .trend-row Label.change { width: 19; }
    RunsScreen .trend-row Label.runs { width: 6; }
    RunsScreen .trend-row Label.range { width: 9; }
    RunsScreen .trend-row Label.trial-marks { width: 24; }
    RunsScreen .trend-row .trend { width: 1fr; min-width: 8; max-width: 40; margin-right: 0; }
    RunsScreen .trend-head { text-style: bold; }
    RunsScreen #runs-status { height: 1; color: $text-muted; }
    """

    BINDINGS = [
        Binding("enter", "compare", "Compare", priority=True, tooltip="Compare the marked (or previous) run with this"),
        Binding("b", "mark", "Mark base", tooltip="Mark the highlighted run as the base of a comparison"),
        Binding("r", "replay(False)", "Replay", tooltip="Re-send this run's customer messages to the current bot"),
        Binding("t", "replay(True)", "Replay+simulate", tooltip="Replay; the simulator continues past the recording"),
        # Not in the footer, full at 80 columns: the title line names it.
        Binding(
            "n",
            "next_turn",
            "N+1",
            show=False,
            tooltip="Imported run: the bot answers one chosen turn after the real history",
        ),
        Binding("f5", "reload", "Reload"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[RunSummary] = []
        self.base: str | None = None

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def compose(self) -> ComposeResult:
        yield Static(Text(HELP), id="title")
        yield RowTable(id="runs")
        yield Static("", id="trend-title", markup=False)
        yield VerticalScroll(id="trends")
        yield Static("", id="runs-status", markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.action_reload()
        self.query_one("#runs", DataTable).focus()

    def action_reload(self) -> None:
        table = self.query_one("#runs", DataTable)
        table.clear(columns=True)
        problem = None
        try:
            self.runs = list_runs(self.ragtui.store, self.ragtui.config.min_judge_agreement)
        except RagtuiError as exc:
            problem = str(exc)
        # pass^K only when a run has repeated trials; pass is pass^1 (the pass rate compare shows).
        with_trials = any(_has_trials(r) for r in self.runs)
        # Dialogues that did not finish and that nobody runs (killed, never started): apart from
        # the unscored ones, in a column only when some run has them.
        with_interrupted = any(r.interrupted for r in self.runs)
        # The numbers a person compares come right after the run's name, so they stay on screen
        # at 80 columns (a replay's ↻ widens the name); when and where it ran come last.
        table.add_columns(
            "run",
            "score",
            "pass",
            *(("pass^K (K)",) if with_trials else ()),
            "resolved",
            "unscored",
            *(("interrupted",) if with_interrupted else ()),
            "dialogues",
            "trend",
            "res. trend",
            "started",
            "lang",
            "bot · models",
        )
        if problem is not None:
            self.app.notify(problem, severity="error", markup=False)
            return
        for r in reversed(self.runs):  # newest first, as in the sessions browser
            models = ", ".join(dict.fromkeys(m for m in r.models.values() if m))
            mark = " ◆" if r.run_id == self.base else (" ↻" if r.replay_of_run else "")
            table.add_row(
                Text(one_line(r.run_id, 60) + mark),
                Text(score_text(r.score, r.low), justify="right", style="dim" if r.low else ""),
                _pass_cell(r),
                *((_pass_k_cell(r),) if with_trials else ()),
                _resolution_cell(r),
                Text(str(r.unscored), justify="right"),
                *(
                    (Text(str(r.interrupted), justify="right", style="yellow" if r.interrupted else "dim"),)
                    if with_interrupted
                    else ()
                ),
                Text(str(r.dialogues), justify="right"),
                Text(sparkline(r.trend[-TREND_RUNS:]), style="cyan"),
                Text(sparkline(r.resolution_trend[-TREND_RUNS:]), style="magenta"),
                one_line(r.started.replace("T", " ")[:16], 16),
                one_line(r.language, 8),
                Text(one_line(f"{r.bot} · {models}", 40)),
                key=r.run_id,
            )
        if not self.runs:
            self.query_one("#title", Static).update(Text("No runs yet — `ragtui run` records one. Escape: back."))
        self._show_trends()

    def on_store_changed(self, _message: StoreChanged) -> None:
        """Another process changed the record (a run going on, a replay): the list follows, the
        cursor stays on its run."""
        table = self.query_one("#runs", DataTable)
        keep = self.selected()
        self.action_reload()
        if keep is not None:
            with contextlib.suppress(LookupError):  # the run may be gone
                table.move_cursor(row=table.get_row_index(keep))

    def selected(self) -> str | None:
        table = self.query_one("#runs", DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return str(key.value) if key.value is not None else None

    @on(DataTable.RowHighlighted, "#runs")
    def _highlighted(self) -> None:
        self._show_trends()

    def on_resize(self) -> None:
        """The terminal's width decides whether the trends' cells are fitted: drawn again."""
        if self.is_mounted:
            self._show_trends()

    def _show_trends(self) -> None:
        """The highlighted run's pairs, each with its score across every run that ran it."""
        box = self.query_one("#trends", VerticalScroll)
        box.remove_children()
        run_id = self.selected()
        title = self.query_one("#trend-title", Static)
        if run_id is None:
            title.update("")
            return
        wanted = {(s.scenario_id, s.persona_name) for s in self.ragtui.store.sessions(run_id=run_id)}
        trends = [t for t in pair_trends(self.ragtui.store) if (t.scenario_id, t.persona_name) in wanted]
        heading = Text(f"Score per scenario × persona across runs — the pairs of {one_line(run_id, 60)}", style="bold")
        summary = next((r for r in self.runs if r.run_id == run_id), None)
        trials = summary.trials if summary is not None and _has_trials(summary) else None
        if trials is not None:
            heading.append(f" · its trials: {PASS_MARK} passed {FAIL_MARK} not", style="dim")
        title.update(heading)
        # Cells of fixed widths, the pair's name taking what is left, so the range never runs into
        # the sparkline and the sparkline stays on screen at 80 columns; narrower than the CSS's
        # widths allow, the cells are fitted and each pair shortened apart from the others.
        head = ("scenario × persona", "first → last", "runs", "range", "trials" if trials is not None else None)
        cells: list[tuple[str, str, str, str, str | None]] = [head]
        pairs: list[tuple[str, str]] = []
        for t in trends:
            scored = [v for v in t.scores if v is not None]  # an unscored run is left out, never drawn as 0
            span = f"{score_text(min(scored))}–{score_text(max(scored))}" if scored else UNSCORED
            pair = trials.pair(t.scenario_id, t.persona_name) if trials is not None else None
            marks = None
            if trials is not None:  # every row of a run with trials gets the cell, aligned
                marks = one_line(pair.marks_line(), 24) if pair is not None else "no counted trial"
            pairs.append((one_line(t.scenario_id, 40), one_line(t.persona_name, 24)))
            change = f"{score_text(t.scores[0])} → {score_text(t.scores[-1])}"
            cells.append((pair_label(*pairs[-1]), change, str(len(t.points)), span, marks))
        widths = _trend_widths(cells, pairs, self.app.size.width)
        if widths is not None:
            head = ("scenario·persona" if widths[0] < cell_len(head[0]) else head[0], *head[1:])
            cells = [head, *((pair_label(*p, widths[0]), *row[1:]) for p, row in zip(pairs, cells[1:], strict=True))]
        rows = [_trend_row(*head, Label("trend"), head=True, widths=widths)]
        for t, row in zip(trends, cells[1:], strict=True):
            # `runs --pairs`'s sparkline: a fixed 0–1 scale (Textual's Sparkline stretches the series
            # between its own min and max: 0.28 → 0.28 drew a full bar and an empty one).
            spark = Label(Text(sparkline(t.scores[-TREND_RUNS:]), style="cyan"), markup=False)
            rows.append(_trend_row(*row, spark, widths=widths))
        box.mount_all(rows)

    def action_mark(self) -> None:
        run_id = self.selected()
        if run_id is not None:
            self.base = run_id
            self.app.notify(f"Base: {run_id}. Highlight another run and press Enter to compare.", markup=False)
            self.action_reload()

    def action_compare(self) -> None:
        from .compare_screen import CompareScreen

        new = self.selected()
        if new is None:
            return
        base = self.base
        if base is None or base == new:
            ids = [r.run_id for r in self.runs]
            index = ids.index(new) if new in ids else 0
            if index == 0:
                self.app.notify("No earlier run: mark a base run with b first.", severity="warning", markup=False)
                return
            base = ids[index - 1]
        self.app.push_screen(CompareScreen(base, new))

    def action_replay(self, then_simulate: bool) -> None:
        run_id = self.selected()
        engine = self.ragtui.engine
        if run_id is None:
            return
        if engine is None:
            self.app.notify(self.ragtui.problem or "No endpoint to replay against.", severity="warning", markup=False)
            return
        self._replay(run_id, then_simulate)

    @work(exclusive=True, group="replay", exit_on_error=False)
    async def _replay(self, run_id: str, then_simulate: bool) -> None:
        engine = self.ragtui.engine
        assert engine is not None
        status = self.query_one("#runs-status", Static)
        try:
            plan = plan_replay(self.ragtui.store, self.ragtui.config, run_id)
            if plan.language != engine.language:
                raise RagtuiError(
                    f"run {run_id} is in {plan.language}; this ragtui runs in {engine.language}",
                    f"restart with --language {plan.language}",
                )
            new_run = new_run_id()
            dialogues = plan.builder(then_simulate, None)(engine, new_run)
        except RagtuiError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        done = await self._follow(f"Replaying {run_id} as {new_run}", dialogues)
        noted = replay_summary([s.replay_note for s in self.ragtui.store.sessions(run_id=new_run)])
        note = f"; {noted} (see each session)" if noted else ""
        status.update(plain(f"Replay {new_run} finished: {done} dialogue(s){note}. Enter compares it with {run_id}."))
        self.base = run_id
        self.app.notify(f"Replay of {run_id} finished as {new_run}", markup=False)
        self.action_reload()
        table = self.query_one("#runs", DataTable)
        table.move_cursor(row=table.get_row_index(new_run))

    async def _follow(self, doing: str, dialogues: list[Dialogue]) -> int:
        """Run ``dialogues`` on the engine, saying how far it got in the status line; how many ended."""
        engine = self.ragtui.engine
        assert engine is not None
        status = self.query_one("#runs-status", Static)
        done = 0
        status.update(plain(f"{doing}: 0/{len(dialogues)} dialogues"))
        async for event in engine.run_many(dialogues):
            if isinstance(event, DialogueDone):
                done += 1
                status.update(plain(f"{doing}: {done}/{len(dialogues)} dialogues"))
            elif isinstance(event, DialogueVerdictStarted):  # the slow part after a last turn: say so
                status.update(
                    plain(
                        f"{doing}: {done}/{len(dialogues)} dialogues · #{event.session_id} "
                        f"{one_line(event.label, 40)}: judging the dialogue, {event.metric} ({event.index}/{event.total})"
                    )
                )
        return done

    def action_next_turn(self) -> None:
        """N+1 on the highlighted imported run: ask the turn, then answer it in every conversation."""
        run_id = self.selected()
        if run_id is None:
            return
        if self.ragtui.engine is None:
            self.app.notify(self.ragtui.problem or "No endpoint to answer with.", severity="warning", markup=False)
            return
        store = self.ragtui.store
        if run_kind(store, run_id) != IMPORTED_KIND:
            self.app.notify(
                f"N+1 needs an imported run; {run_id} is a run ragtui ran (r replays it).",
                severity="warning",
                markup=False,
            )
            return
        turns = max((customer_turns(s) for s in store.run_sessions(run_id)), default=1)

        def chosen(turn: int | str | None) -> None:
            if turn is not None:
                self._next_turn(run_id, None if turn == ALL_TURNS else int(turn))

        self.app.push_screen(NextTurnDialog(run_id, turns), chosen)

    @work(exclusive=True, group="replay", exit_on_error=False)
    async def _next_turn(self, run_id: str, turn: int | None) -> None:
        engine = self.ragtui.engine
        assert engine is not None
        try:
            plan = plan_next_turn(self.ragtui.store, run_id, turn, language=engine.language)
            new_run = new_run_id()
            dialogues = plan.builder()(engine, new_run)
        except RagtuiError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        which = "every turn" if turn is None else f"turn {turn}"
        done = await self._follow(f"N+1 on {run_id} at {which} as {new_run}", dialogues)
        skipped = f"; {len(plan.skipped)} conversation(s) too short, skipped" if plan.skipped else ""
        self.query_one("#runs-status", Static).update(
            plain(f"N+1 {new_run} finished: {done} turn(s) answered{skipped}. Enter compares it with {run_id}.")
        )
        self.base = run_id
        self.app.notify(f"N+1 of {run_id} at {which} finished as {new_run}", markup=False)
        self.action_reload()
        table = self.query_one("#runs", DataTable)
        table.move_cursor(row=table.get_row_index(new_run))
