"""``ragtui`` entry point: argument parsing, logging, and the one place errors become exit codes.

Exit status: 0 all good; 1 a dialogue scored under the threshold (or could not be scored);
2 an error (bad input, dead endpoint, a dialogue that ended in error). A ``RagtuiError`` is
printed as one line; anything else is logged with its traceback to the log file and reported
as one line that points there. No traceback reaches the terminal.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__
from ..core.config import paths
from ..core.config.limits import DOCTOR_WAIT, MAX_CONCURRENCY, MAX_DOCTOR_WAIT, MAX_REPEAT, MAX_TURNS, MAX_WORKERS
from ..core.types.errors import RagtuiError
from .arg_checks import REPEAT_WITHOUT_YES

if TYPE_CHECKING:
    from ..core.runs.bootstrap import Overrides

# ``--version`` and ``--help`` must answer at once: the command modules (openai, rich, the
# engine) are imported only for the command that runs. These define their own options, so
# their module is imported when the command line names them; otherwise a stub lists them.
LAZY_COMMANDS = {
    "calibrate": ("calibrate_command", "measure a metric's agreement with human labels in a JSON/JSONL file"),
    "judge-dialogue": (
        "judge_dialogue_command",
        "judge stored dialogues as a whole (resolution, retention, repetition, expectations)",
    ),
    "expect": ("expect_command", "print the judge's P(met) for an expectation on a stored answer (stores nothing)"),
    "label": ("label_command", "label a bot turn: your own 1–5 score and/or agree/disagree with the judge"),
    "labels": ("label_command", "list or export people's labels"),
    "judge": (
        "judge_command",
        "judge a stored run never judged (an imported run): every bot turn, then each conversation",
    ),
    "rejudge": ("rejudge_command", "judge every bot turn of a run again (a new version; old ones kept)"),
    "serve-bot": ("serve_bot", "serve the built-in RAG bot over HTTP (a reference bot to point ragtui at)"),
    "compare": ("compare_command", "compare two runs pair by pair (exit 1 on a regression)"),
    "runs": ("runs_command", "list runs with scores and trends"),
    "report": ("report_command", "write a run as one self-contained HTML file (charts, transcripts, filters)"),
    "merge": ("merge_command", "copy the runs of other ragtui databases (CI shards, artifacts) into one"),
    "judge-card": ("judge_card_command", "how far the judge agrees with people, per metric and language"),
    "knowledge": ("knowledge_command", "list the knowledge base's documents, passages and skipped files"),
    "init": ("init_command", "write a ragtui.toml for your own knowledge base: its folder, language and product"),
    "import": ("import_command", "bring real conversations in as a run (JSONL, CSV/TSV, helpdesk JSON), redacted"),
    "realism": (
        "realism_command",
        "does the simulated customer talk like the real ones? two runs' customers side by side, and a blind test",
    ),
}

EXIT_ERROR = 2  # 0: passed, 1: a gate failed (the commands return those themselves)
# Stdout closed by its reader (`ragtui run … | head`): the status of a command ended by SIGPIPE,
# as `cat` or `grep` give, so a pipeline under `set -o pipefail` treats ragtui like them.
EXIT_BROKEN_PIPE = 128 + 13
EXIT_INTERRUPTED = 128 + 2  # Ctrl-C (SIGINT), as a shell reports a command it ended
log = logging.getLogger("ragtui")


# A subcommand's flag that is not given must not erase the same flag given before the
# subcommand (`ragtui --db X sessions`): argparse would store the subparser's default over it.
KEEP = argparse.SUPPRESS


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        default=KEEP,
        help="config TOML (default: ./ragtui.toml, then ~/.config/ragtui/config.toml)",
    )
    parser.add_argument(
        "--db", type=Path, default=KEEP, help="SQLite database (default: ~/.local/share/ragtui/ragtui.db)"
    )


def _worker_slice(value: str) -> tuple[int, int]:
    from .run_workers import parse_worker_slice

    return parse_worker_slice(value)


def error_line(message: str) -> None:
    from .output import error_line as write

    write(message)


def add_report_arguments(run: argparse.ArgumentParser) -> None:
    """The flags `ragtui run` adds for comparing bot versions and for CI."""
    run.add_argument("--replay", metavar="RUN", help="re-send the customer messages of RUN (id, `last`, `previous`)")
    run.add_argument(
        "--then-simulate",
        action="store_true",
        help="with --replay: when the recording ran out or ended in DONE, let the simulator continue",
    )
    run.add_argument(
        "--at-turn",
        metavar="N",
        help="with --replay of an imported run: N+1 — the bot answers only turn N (or `all`: every turn) "
        "after the conversation's real history, judged against the real answer",
    )
    run.add_argument("--junit", type=Path, metavar="FILE", help="write JUnit XML, one test case per dialogue")
    run.add_argument("--markdown", type=Path, metavar="FILE", help="write a Markdown summary table")


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ragtui",
        description="Simulate customers, run your support bot, and judge every turn.",
    )
    parser.add_argument("--version", action="version", version=f"ragtui {__version__}")
    # Without a subcommand `ragtui` opens the TUI; these four flags apply to it.
    parser.add_argument("--config", type=Path, dest="config", help="config TOML for the TUI")
    parser.add_argument("--db", type=Path, dest="db", help="SQLite database for the TUI")
    parser.add_argument("--model", dest="model", help="model name for every role in the TUI")
    parser.add_argument("--language", choices=("ja", "en"), dest="language", help="language of the TUI's sessions")
    parser.add_argument("--scenarios", type=Path, dest="scenarios", help="scenario file or folder for the TUI")
    parser.add_argument("--knowledge", type=Path, dest="knowledge", help="knowledge folder for the TUI's built-in bot")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser("run", help="run scenarios × personas headless and print a score table")
    _common(run)
    run.add_argument(
        "-s", "--scenario", action="append", default=[], metavar="ID", help="scenario id (repeatable; default: all)"
    )
    run.add_argument(
        "-p", "--persona", action="append", default=[], metavar="NAME", help="persona name (repeatable; default: all)"
    )
    run.add_argument(
        "--scenarios", type=Path, default=KEEP, metavar="PATH", help="scenario file or folder (default: the config's)"
    )
    run.add_argument(
        "--knowledge",
        type=Path,
        default=KEEP,
        metavar="DIR",
        help="the built-in bot's knowledge folder (default: the config's)",
    )
    run.add_argument(
        "--include-drafts",
        action="store_true",
        help="also run draft scenarios (generated, not yet accepted); a draft named with -s runs anyway",
    )
    run.add_argument(
        "--language", choices=("ja", "en"), default=KEEP, help="language of prompts, personas and scenarios"
    )
    run.add_argument("--model", default=KEEP, help="model name for every role (overrides the config)")
    run.add_argument("--max-turns", type=int, help=f"turns per dialogue (1–{MAX_TURNS}; default 3)")
    run.add_argument("--concurrency", type=int, help=f"dialogues at once (1–{MAX_CONCURRENCY}; default 4)")
    run.add_argument("--threshold", type=float, help="turn score under which a turn fails (default 0.7)")
    run.add_argument("--metric", action="append", default=[], dest="metrics", help="metric to run (repeatable)")
    run.add_argument(
        "--min-resolution-rate",
        type=float,
        metavar="RATE",
        help="exit 1 when the run's resolution rate is under RATE, 0–1 (default: the config's, 0 = off)",
    )
    run.add_argument(
        "--min-expectation-rate",
        type=float,
        metavar="RATE",
        help="exit 1 when under RATE of the run's expectations are met or kept, 0–1 (default: the config's, 0 = off)",
    )
    run.add_argument("--fail-on-policy", action="store_true", help="exit 1 when any answer breaks a [[policy]]")
    run.add_argument(
        "--gate-low-agreement",
        action="store_true",
        help="fail on scores whose judge agrees with people under [min_judge_agreement] too (default: shown, not gated)",
    )
    run.add_argument("--no-check", action="store_true", help="skip the endpoint reachability check")
    run.add_argument(
        "--workers",
        type=int,
        default=1,
        help=f"processes sharing the run and the database (1–{MAX_WORKERS}; default 1)",
    )
    run.add_argument(
        "--repeat",
        metavar="K",
        help=f"run each scenario × persona K times (trials, for pass^k; 1–{MAX_REPEAT}, over {REPEAT_WITHOUT_YES} "
        "only with --yes; default: the config's repeat, 1)",
    )
    run.add_argument(
        "--yes",
        action="store_true",
        help=f"allow --repeat over {REPEAT_WITHOUT_YES} (up to {MAX_REPEAT}) without asking",
    )
    run.add_argument(
        "--shard",
        metavar="I/N",
        help="run only shard I of N of the planned dialogues (1-based; every N-th, trials included), for CI jobs",
    )
    run.add_argument("--run-id", metavar="ID", help="the new run's id (needed with --shard: the same in every shard)")
    run.add_argument("--worker-slice", type=_worker_slice, help=argparse.SUPPRESS)  # i/N: a --workers process
    run.add_argument(
        "--resume",
        metavar="RUN",
        help="continue every interrupted or cancelled dialogue of run RUN (an id, a unique prefix, 'last' or 'previous')",
    )
    add_report_arguments(run)
    run.add_argument(
        "--estimate", action="store_true", help="print the tokens (and cost) the run would use; call no model"
    )
    run.add_argument(
        "--verbose",
        action="store_true",
        help="a line per finished step on a terminal too: its tokens, seconds and prompt tokens sent, computed "
        "and reused from the server's prompt cache",
    )

    sessions = sub.add_parser("sessions", help="list stored sessions")
    _common(sessions)
    sessions.add_argument("-n", "--limit", type=int, default=30, help="how many, newest first (1 or more; default 30)")
    sessions.add_argument("--run", help="only this run id ('last' for the newest run)")

    show = sub.add_parser("show", help="print a session's transcript with its verdicts")
    _common(show)
    show.add_argument("session", type=int, help="session id (see `ragtui sessions`)")
    show.add_argument("--all-versions", action="store_true", help="show every judgment version, not just the newest")

    export = sub.add_parser("export", help="export sessions to CSV (one row per dialogue)")
    _common(export)
    export.add_argument("sessions", type=int, nargs="*", help="session ids")
    export.add_argument("--run", help="every session of a run id ('last' for the newest run)")
    export.add_argument("--csv", type=Path, required=True, metavar="FILE", help="output file")

    config = sub.add_parser("config", help="print the effective configuration (keys hidden)")
    config.add_argument("--config", type=Path, default=KEEP)
    config.add_argument("--model", default=KEEP, help="as for `ragtui run`")

    doctor = sub.add_parser("doctor", help="check each role's endpoint and the embedded model")
    doctor.add_argument("--config", type=Path, default=KEEP)
    doctor.add_argument("--model", default=KEEP, help="as for `ragtui run`")
    doctor.add_argument(
        "--timeout",
        type=float,
        default=DOCTOR_WAIT,
        metavar="SECONDS",
        help=f"how long each endpoint and the bot under test get to answer (over 0, at most {MAX_DOCTOR_WAIT:g}; "
        f"default {DOCTOR_WAIT:g})",
    )

    personas = sub.add_parser("personas", help="list personas")
    personas.add_argument("--config", type=Path, default=KEEP)
    personas.add_argument("--language", choices=("ja", "en"), default=KEEP)

    words_in_order = list(sys.argv[1:] if argv is None else argv)
    if _generating(words_in_order):  # `ragtui scenarios generate DOCS --out FILE`: its own options
        from .generate_command import add_parser as add_generate

        add_generate(sub)
    else:
        _scenarios_parser(sub)

    words = set(sys.argv[1:] if argv is None else argv)
    named = {module for name, (module, _help) in LAZY_COMMANDS.items() if name in words}
    for name, (module, help_text) in LAZY_COMMANDS.items():
        if module in named:
            named.discard(module)  # one module may register several commands (label, labels)
            loaded = importlib.import_module(f".{module}", __package__)
            (getattr(loaded, "add_parsers", None) or loaded.add_parser)(sub)
        elif not any(m == module and n in words for n, (m, _h) in LAZY_COMMANDS.items()):
            sub.add_parser(name, help=help_text, add_help=False)
    return parser


def _generating(words: list[str]) -> bool:
    """``ragtui [flags] scenarios generate …`` (or ``from-conversations``): the word after ``scenarios``."""
    actions = (["generate"], ["from-conversations"])
    return any(word == "scenarios" and words[i + 1 : i + 2] in actions for i, word in enumerate(words))


def _scenarios_parser(sub: argparse._SubParsersAction) -> None:
    scenarios = sub.add_parser(
        "scenarios",
        help="list scenarios, or --check every scenario file and policy; `scenarios generate` writes them",
        description="List the scenarios of the language, or --check the scenario files. "
        "`ragtui scenarios generate DOCS --out FILE` writes draft scenarios from a knowledge folder; "
        "`ragtui scenarios from-conversations RUN --out FILE` mines them from an imported run.",
    )
    scenarios.add_argument("--config", type=Path, default=KEEP)
    scenarios.add_argument("--language", choices=("ja", "en"), default=KEEP)
    scenarios.add_argument(
        "--check",
        action="store_true",
        help="validate the scenario files (bundled and configured, or FILES) and the config's policies; exit 2 on any problem",
    )
    scenarios.add_argument("files", nargs="*", type=Path, metavar="FILES", help="scenario files to --check")


def overrides_from(args: argparse.Namespace) -> Overrides:
    from ..core.runs.bootstrap import Overrides

    return Overrides(
        config_path=getattr(args, "config", None),
        db=getattr(args, "db", None),
        model=getattr(args, "model", None),
        language=getattr(args, "language", None),
        max_turns=getattr(args, "max_turns", None),
        concurrency=getattr(args, "concurrency", None),
        threshold=getattr(args, "threshold", None),
        min_resolution_rate=getattr(args, "min_resolution_rate", None),
        min_expectation_rate=getattr(args, "min_expectation_rate", None),
        metrics=getattr(args, "metrics", None) or [],
        scenarios=getattr(args, "scenarios", None),
        knowledge=getattr(args, "knowledge", None),
    )


def setup_logging() -> Path | None:
    """Log to a file: the terminal belongs to the progress display and the results."""
    try:
        paths.state_dir().mkdir(parents=True, exist_ok=True)
        path = paths.state_dir() / "ragtui.log"
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    return path


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # Ctrl-C anywhere, also before the command runs (parsing, loading its modules) or while
        # an error is reported: one line, never a traceback.
        error_line("ragtui: interrupted")
        return EXIT_INTERRUPTED


def _main(argv: list[str] | None) -> int:
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if args.command is None:
        from ..tui import run_tui

        setup_logging()
        return run_tui(overrides_from(args))
    log_path = setup_logging()
    overrides = overrides_from(args)
    try:
        import asyncio

        if args.command == "run":
            # Only what a run needs: `--workers` starts a process per worker.
            from .run_command import run

            status = asyncio.run(run(args, overrides))
            if status == EXIT_INTERRUPTED and getattr(args, "worker_slice", None) is None:
                # Stopped by Ctrl-C: the table so far and how to continue are printed; said on
                # stderr as every interrupted command says it (a --workers worker stays quiet).
                sys.stdout.flush()
                error_line("ragtui: interrupted")
        else:
            from . import commands

            if args.command == "doctor":
                status = asyncio.run(commands.doctor(args, overrides))
            else:
                handler = getattr(args, "handler", None) or getattr(commands, args.command)
                status = handler(args, overrides)
        sys.stdout.flush()  # here, where a reader gone away is handled, not at the interpreter's exit
        return status
    except RagtuiError as exc:
        error_line(f"ragtui: error: {exc}")
        return EXIT_ERROR
    except KeyboardInterrupt:
        error_line("ragtui: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Nobody reads stdout any more: end quietly. What a run recorded is already committed
        # (every message and verdict is, as it completes); only the printing stops.
        _drop_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as exc:
        log.exception("unexpected error in `ragtui %s`", args.command)
        where = f"; details in {log_path}" if log_path else ""
        error_line(f"ragtui: unexpected error: {type(exc).__name__}: {exc}{where}")
        return EXIT_ERROR


def _drop_stdout() -> None:
    """Point stdout at the null device, so the flush at exit cannot fail on the closed pipe
    again (Python would print "Exception ignored … BrokenPipeError")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor (captured)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
