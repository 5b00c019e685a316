"""``ragtui compare BASE NEW``: did the bot get better? Exit 0 no regression, 1 at least one
(of a pair's score or of its resolution; with trials on both sides, one beyond run-to-run noise;
``--strict``: any drop), 2 an error."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from ..core.config.settings import Config
from ..core.files.output_file import check_output, write_output
from ..core.registry import metric_views
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.runs.compare import Comparison, Pair, compare_runs
from ..core.runs.compare_report import (
    comparison_csv,
    comparison_junit,
    comparison_markdown,
    flag_words,
    has_verdicts,
    low_words,
    ordered,
    side_scores,
    summary_lines,
    trial_ordered,
    trial_scores,
    verdict_cell,
)
from ..core.runs.compare_verdict import EXPECTATION, SCORE, VERDICT_STYLES, CompareVerdict
from ..core.runs.html_report.build import compare_report_html
from ..core.runs.next_turn_compare import unjudged_line
from ..core.runs.resolve import open_referenced, split_reference
from ..core.runs.trial_compare import ONE_TRIAL_LINE, NoiseComparison
from ..core.store.store import Store
from ..core.text.number_text import p_value_text
from ..core.text.score_text import UNSCORED_STYLE, delta_text, score_text
from .command_table import help_of
from .output import console

FLAG_STYLES = {"regression": "bold red", "fixed": "bold green", "same": "dim"}
TRIAL_STYLES = {"regression": "bold red", "better": "bold green", "within noise": "yellow", "same": "dim"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "compare",
        help=help_of("compare"),
        description="Match the dialogues of two runs by scenario × persona and show what changed.",
    )
    # SUPPRESS: not given here must not erase the same flag given before the subcommand.
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="config TOML")
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="SQLite database (default: the config's)")
    parser.add_argument(
        "base",
        help="the run to compare against: a run id, a unique prefix, `previous` or `last`; "
        "FILE:RUN for a run in another database (base.db:last)",
    )
    parser.add_argument(
        "new", help="the run being judged: a run id, a unique prefix, `last` or `previous`; or FILE:RUN"
    )
    parser.add_argument("--csv", type=Path, metavar="FILE", help="also write one row per pair to FILE")
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write a table for a pull-request comment")
    parser.add_argument(
        "--junit",
        type=Path,
        metavar="FILE",
        help="also write JUnit XML: one test case per pair, failing on a regression",
    )
    parser.add_argument(
        "--html",
        type=Path,
        metavar="FILE",
        help="also write one self-contained HTML file: regressions, charts, dialogues",
    )
    parser.add_argument("--turns", action="store_true", help="print the turn-by-turn scores of every pair")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="count any drop as a regression, even one within run-to-run noise, in the exit status and every "
        "report (with trials; one trial a pair already counts any drop)",
    )
    parser.add_argument(
        "--gate-low-agreement",
        action="store_true",
        help="fail on score regressions of a judge under [min_judge_agreement] too (default: shown, not gated)",
    )
    parser.set_defaults(handler=compare)


def _turns_text(c: Comparison, pair: Pair) -> Text:
    text = Text()
    base_low, new_low = c.dialogue_low(pair.base), c.dialogue_low(pair.new)
    for row in pair.turn_rows():
        if row.turn > 1:
            text.append("  ")
        text.append(f"{row.turn}:{score_text(row.base_score, base_low)}→{score_text(row.new_score, new_low)}")
        if not row.same_customer:
            text.append("*", style="yellow")  # the customers said different things here
    return text


def _verdict_text(c: Comparison, pair: Pair, metric: str) -> Text:
    """``resolved 1.00 → unresolved 0.50``: each side's cell (``metric_views``) in its status's
    colour; unscored and missing in yellow, never a number; ``≈`` and dim when its judge is low."""
    base, new = pair.verdicts(metric)
    text = Text()
    for i, (v, d) in enumerate(((base, pair.base), (new, pair.new))):
        if i:
            text.append(" → ")
        if v is None:
            text.append(verdict_cell(v), style=UNSCORED_STYLE)
        else:
            text.append_text(metric_views.styled_cell(v, v.threshold, c.dialogue_low(d, metric)))
    return text


def verdicts_table(c: Comparison) -> Table:
    """The pairs' dialogue verdicts, base → new, in a table of their own so that the score table
    keeps fitting an 80-column terminal."""
    table = Table(title="Dialogue verdicts, base → new")
    metrics = c.verdict_metrics
    for name in ("scenario × persona", *(metric_views.label(m) for m in metrics), "dialogue flag"):
        table.add_column(name)
    for p in ordered(c.pairs):
        flag = p.dialogue_flag
        style = FLAG_STYLES.get(flag.rsplit(" ", 1)[-1] if flag.endswith(("regression", "fixed")) else flag, "yellow")
        table.add_row(Text(p.label), *(_verdict_text(c, p, m) for m in metrics), Text(flag, style=style))
    return table


# A verdict is never cut to "regres…": its column is at least as wide as its longest word.
VERDICT_WIDTH = len("regression,")


def verdict_text(word: str) -> Text:
    """A pair's verdict in its colour: regression red, not gated dim, improved green."""
    return Text(word, style=VERDICT_STYLES.get(word, ""))


def comparison_table(c: Comparison, verdict: CompareVerdict, turns: bool) -> Table:
    """Dialogue against dialogue: each pair's verdict, scores, change and flag. With trials (shown
    with ``--turns``) a row is one trial: its change is a direction, the verdict the pair's."""
    table = Table(title=f"{c.base_run} → {c.new_run}" + (", trial by trial" if c.noise is not None else ""))
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("scenario × persona", "left"),
        ("verdict", "left"),
        ("base", "right"),
        ("new", "right"),
        ("Δ", "right"),
        ("diverges", "left"),
        ("flag", "left"),
    )
    for name, justify in columns:
        table.add_column(name, justify=justify, min_width=VERDICT_WIDTH if name == "verdict" else None)
    if turns:
        table.add_column("turns base→new (* customer differs)")
    for p in ordered(c.pairs):
        base, new = side_scores(c, p)
        cells = [
            Text(p.label),
            verdict_text(verdict.for_pair(p).word),
            Text(base),
            Text(new),
            Text(delta_text(p.delta), style=_delta_style(p.delta, c.low())),
            Text("–" if p.diverges_at is None else f"turn {p.diverges_at}"),
            _flag_text(c, p),
        ]
        if turns:
            cells.append(_turns_text(c, p))
        table.add_row(*cells)
    return table


def _delta_style(value: float | None, low: bool) -> str:
    """Red for a drop, green for a gain, neither when the judge's agreement with people is low."""
    if low or not value:
        return "dim" if low else ""
    return "red" if value < 0 else "green"


def _flag_text(c: Comparison, p: Pair) -> Text:
    """The pair's flag; a regression of a low-agreement judge neither red nor green, and says so."""
    words = flag_words(c, p)
    if words != p.flag:
        return Text(words, style="dim")
    return Text(p.flag, style=FLAG_STYLES.get(p.flag, "yellow"))


def trials_table(c: Comparison, verdict: CompareVerdict, n: NoiseComparison) -> Table:
    """One row per pair over all its trials: its verdict, passes of each side, the p-value of the
    drop and the change it shows."""
    table = Table(title=f"{c.base_run} → {c.new_run}, over the trials of each pair")
    # Both sides in one cell each (passes, mean score), so that the table fits 80 columns.
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("scenario × persona", "left"),
        ("verdict", "left"),
        ("passes base → new", "right"),
        ("score base → new", "right"),
        ("p (drop)", "right"),
        ("change", "left"),
    )
    for name, justify in columns:
        table.add_column(name, justify=justify, min_width=VERDICT_WIDTH if name == "verdict" else None)
    for p in trial_ordered(n):
        base, new = trial_scores(c, p)
        table.add_row(
            Text(p.label),
            verdict_text(verdict.of(p.label).word),
            Text(f"{p.cell('base')} → {p.cell('new')}"),
            Text(f"{base} → {new}"),
            Text(p_value_text(p.p_value)),
            Text(p.verdict, style=TRIAL_STYLES.get(p.verdict, "")),
        )
    return table


def _open_runs(args: argparse.Namespace, config: Config) -> tuple[Store, str, Store, str]:
    """BASE's and NEW's database and run id: each the config's database, or the file its
    reference names (``base.db:last``); the config's is opened only when a reference needs it."""
    base_ref, new_ref = split_reference(args.base), split_reference(args.new)
    default: Store | None = None
    if base_ref.database is None or new_ref.database is None:
        default = bootstrap.open_store(config, read_only=True)
    # A reference without a file in a compare of two files: the base's database is the default.
    base_store, base_run = open_referenced(base_ref, default, config.min_judge_agreement)
    new_store, new_run = open_referenced(new_ref, default or base_store, config.min_judge_agreement)
    return base_store, base_run, new_store, new_run


def compare(args: argparse.Namespace, overrides: Overrides) -> int:
    config = bootstrap.load_effective_config(overrides)
    store, base_run, new_store, new_run = _open_runs(args, config)
    databases: list[Path | None] = list(dict.fromkeys(s.path for s in (store, new_store))) or [None]
    outputs = {
        "--csv": args.csv,
        "--markdown": args.markdown,
        "--junit": args.junit,
        "--html": getattr(args, "html", None),
    }
    for option, path in outputs.items():
        if path is not None:  # refused before any work: never a database, never a missing folder
            for database in databases:
                check_output(path, option=option, database=database)
    comparison = compare_runs(
        store, base_run, new_run, alpha=config.compare_alpha, new_store=new_store, floor=config.min_judge_agreement
    )
    comparison.gate_low_agreement = config.gate_low_agreement or args.gate_low_agreement
    comparison.strict = args.strict  # every report and the exit status say what --strict decides
    verdict = comparison.verdict
    # Reports are built before anything is written, so an error leaves no half-written file.
    reports = []
    if args.csv:
        reports.append(("--csv", args.csv, comparison_csv(comparison), "utf-8-sig"))
    if args.markdown:
        reports.append(("--markdown", args.markdown, comparison_markdown(comparison), "utf-8"))
    if args.junit:
        reports.append(("--junit", args.junit, comparison_junit(comparison), "utf-8"))
    if args.html:
        reports.append(
            (
                "--html",
                args.html,
                compare_report_html(comparison, store, new_store, config.thresholds, config.prices),
                "utf-8",
            )
        )
    noise = comparison.noise
    if noise is None or args.turns:  # with trials, the dialogue-by-dialogue table only on demand
        console.print(comparison_table(comparison, verdict, args.turns))
    if noise is not None:
        console.print(trials_table(comparison, verdict, noise))
    if has_verdicts(comparison):
        console.print(verdicts_table(comparison))
    for line in summary_lines(comparison):
        console.print(Text(line), soft_wrap=True)  # one line each, whatever the width: grep-able in CI logs
    for side, side_store, run_id in (("base", store, base_run), ("new", new_store, new_run)):
        unjudged = unjudged_line(side_store, run_id, side, [getattr(p, side) for p in comparison.pairs])
        if unjudged:  # real conversations never judged: their side's "unscored" said once, plainly
            console.print(Text(unjudged, style="yellow"), soft_wrap=True)
    for drop in verdict.drops(EXPECTATION):
        console.print(Text(drop.line, style="red" if drop.gated else "dim"), soft_wrap=True)
    for side, dialogues in (("base", comparison.only_in_base), ("new", comparison.only_in_new)):
        if dialogues:
            names = ", ".join(f"{d.scenario_id} × {d.persona_name}" for d in dialogues[:10])
            console.print(Text(f"only in {side}: {names}" + (" …" if len(dialogues) > 10 else ""), style="yellow"))
    for option, path, text, encoding in reports:
        written = write_output(path, text, option=option, database=new_store.path, encoding=encoding)
        console.print(Text(f"Wrote {written}", style="dim"))
    if noise is None:
        console.print(Text(ONE_TRIAL_LINE, style="dim"), soft_wrap=True)
    style = "bold green" if verdict.status == 0 else "bold red"
    console.print(Text(verdict.headline, style=style), soft_wrap=True)  # one line: grep-able in CI logs
    if any(d.kind == SCORE for d in verdict.not_gated):
        console.print(
            Text(
                f"score regressions not gated{low_words(comparison)}; gate them anyway with --gate-low-agreement or gate_low_agreement = true",
                style="dim",
            ),
            soft_wrap=True,
        )
    return verdict.status
