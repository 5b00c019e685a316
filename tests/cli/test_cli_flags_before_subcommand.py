"""`ragtui --db X COMMAND` must mean the same as `ragtui COMMAND --db X` for every command that
takes the flag: a label or a re-judged version written into the default database instead of
the one named would be lost from the user's record without a word."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.cli.main import build_parser

COMMANDS = [
    ["run"],
    ["sessions"],
    ["show", "1"],
    ["export", "1", "--csv", "out.csv"],
    ["label", "1", "1", "--score", "3"],
    ["labels", "list"],
    ["labels", "export", "--jsonl", "out.jsonl"],
    ["judge-dialogue", "--run", "last"],
    ["rejudge", "--run", "last"],
    ["compare", "previous", "last"],
    ["runs"],
    ["calibrate", "rubric", "--from-labels"],
]


def parsed(argv: list[str]):
    return build_parser(argv).parse_args(argv)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_db_and_config_given_before_the_command_reach_it(command: list[str]):
    args = parsed(["--db", "elsewhere.db", "--config", "team.toml", *command])
    assert args.db == Path("elsewhere.db")
    assert args.config == Path("team.toml")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_the_flag_after_the_command_wins_over_the_one_before(command: list[str]):
    args = parsed(["--db", "before.db", *command, "--db", "after.db"])
    assert args.db == Path("after.db")
