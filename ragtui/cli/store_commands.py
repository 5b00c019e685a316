"""The parsers of the small commands whose work is in ``commands.py``: sessions, show, export,
config, doctor, personas and scenarios (listing and ``--check``). Each is registered on its own
(``command_table``), and ``commands`` — rich, the store, the endpoints — is imported only when
the command runs, so ``ragtui show --help`` answers at once."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.config.limits import DOCTOR_WAIT, MAX_DOCTOR_WAIT
from ..core.text.number_text import setting_text
from .command_table import help_of
from .common_args import KEEP, add_config_and_db

if TYPE_CHECKING:
    from ..core.runs.bootstrap import Overrides


def add_sessions_parser(sub: argparse._SubParsersAction) -> None:
    sessions = sub.add_parser("sessions", help=help_of("sessions"))
    add_config_and_db(sessions)
    sessions.add_argument("-n", "--limit", type=int, default=30, help="how many, newest first (1 or more; default 30)")
    sessions.add_argument("--run", help="only this run id ('last' for the newest run)")
    sessions.set_defaults(handler=_sessions)


def add_show_parser(sub: argparse._SubParsersAction) -> None:
    show = sub.add_parser("show", help=help_of("show"))
    add_config_and_db(show)
    show.add_argument("session", type=int, help="session id (see `ragtui sessions`)")
    show.add_argument("--all-versions", action="store_true", help="show every judgment version, not just the newest")
    show.set_defaults(handler=_show)


def add_export_parser(sub: argparse._SubParsersAction) -> None:
    export = sub.add_parser("export", help=help_of("export"))
    add_config_and_db(export)
    export.add_argument("sessions", type=int, nargs="*", help="session ids")
    export.add_argument("--run", help="every session of a run id ('last' for the newest run)")
    export.add_argument("--csv", type=Path, required=True, metavar="FILE", help="output file")
    export.set_defaults(handler=_export)


def add_config_parser(sub: argparse._SubParsersAction) -> None:
    config = sub.add_parser("config", help=help_of("config"))
    config.add_argument("--config", type=Path, default=KEEP)
    config.add_argument("--model", default=KEEP, help="as for `ragtui run`")
    config.set_defaults(handler=_config)


def add_doctor_parser(sub: argparse._SubParsersAction) -> None:
    doctor = sub.add_parser("doctor", help=help_of("doctor"))
    doctor.add_argument("--config", type=Path, default=KEEP)
    doctor.add_argument("--model", default=KEEP, help="as for `ragtui run`")
    doctor.add_argument(
        "--timeout",
        type=float,
        default=DOCTOR_WAIT,
        metavar="SECONDS",
        help=f"how long each endpoint and the bot under test get to answer (over 0, at most {setting_text(MAX_DOCTOR_WAIT)}; "
        f"default {setting_text(DOCTOR_WAIT)})",
    )
    doctor.set_defaults(handler=_doctor)


def add_personas_parser(sub: argparse._SubParsersAction) -> None:
    personas = sub.add_parser("personas", help=help_of("personas"))
    personas.add_argument("--config", type=Path, default=KEEP)
    personas.add_argument("--language", choices=("ja", "en"), default=KEEP)
    personas.set_defaults(handler=_personas)


def add_scenarios_parser(sub: argparse._SubParsersAction) -> None:
    """``ragtui scenarios [--check] [FILES]``; ``scenarios generate`` is a command of its own
    (``generate_command``), registered in this one's place when the command line names it."""
    scenarios = sub.add_parser(
        "scenarios",
        help=help_of("scenarios"),
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
    scenarios.set_defaults(handler=_scenarios)


# The handlers: each imports the command's work only when it runs.


def _sessions(args: argparse.Namespace, overrides: Overrides) -> int:
    from .commands import sessions

    return sessions(args, overrides)


def _show(args: argparse.Namespace, overrides: Overrides) -> int:
    from .commands import show

    return show(args, overrides)


def _export(args: argparse.Namespace, overrides: Overrides) -> int:
    from .commands import export

    return export(args, overrides)


def _config(args: argparse.Namespace, overrides: Overrides) -> int:
    from .commands import config

    return config(args, overrides)


def _doctor(args: argparse.Namespace, overrides: Overrides) -> int:
    import asyncio

    from .doctor import doctor

    return asyncio.run(doctor(args, overrides))


def _personas(args: argparse.Namespace, overrides: Overrides) -> int:
    from .commands import personas

    return personas(args, overrides)


def _scenarios(args: argparse.Namespace, overrides: Overrides) -> int:
    from .commands import scenarios

    return scenarios(args, overrides)
