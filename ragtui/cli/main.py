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
from ..core.types.errors import RagtuiError
from .command_table import COMMANDS, named

if TYPE_CHECKING:
    from ..core.runs.bootstrap import Overrides

EXIT_ERROR = 2  # 0: passed, 1: a gate failed (the commands return those themselves)
# Stdout closed by its reader (`ragtui run … | head`): the status of a command ended by SIGPIPE,
# as `cat` or `grep` give, so a pipeline under `set -o pipefail` treats ragtui like them.
EXIT_BROKEN_PIPE = 128 + 13
EXIT_INTERRUPTED = 128 + 2  # Ctrl-C (SIGINT), as a shell reports a command it ended
log = logging.getLogger("ragtui")


def error_line(message: str) -> None:
    from .output import error_line as write

    write(message)


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
    # ``--version`` and ``--help`` must answer at once: only the module of the command the
    # command line names is imported (``command_table``); every other command is a stub that
    # lists it with its help line.
    wanted = named(list(sys.argv[1:] if argv is None else argv))
    for name, command in COMMANDS.items():
        if " " in name:
            continue  # a two-word command is registered in place of its first word's
        chosen = next((n for n in sorted(wanted) if n.split(" ")[0] == name), None)
        if chosen is None:
            sub.add_parser(name, help=command.help, add_help=False)
            continue
        module = importlib.import_module(f".{COMMANDS[chosen].module}", __package__)
        getattr(module, COMMANDS[chosen].register)(sub)
    return parser


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
        status = args.handler(args, overrides)
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
