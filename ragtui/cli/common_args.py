"""Flags several subcommands share, declared once."""

from __future__ import annotations

import argparse
from pathlib import Path

# A subcommand's flag that is not given must not erase the same flag given before the
# subcommand (`ragtui --db X sessions`): argparse would store the subparser's default over it.
KEEP = argparse.SUPPRESS


def add_config_and_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        default=KEEP,
        help="config TOML (default: ./ragtui.toml, then ~/.config/ragtui/config.toml)",
    )
    parser.add_argument(
        "--db", type=Path, default=KEEP, help="SQLite database (default: ~/.local/share/ragtui/ragtui.db)"
    )
