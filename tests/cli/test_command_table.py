"""Every subcommand is registered one way (``ragtui.cli.command_table``): the command line's
named command gets its module's real parser with a handler, every other one a stub with the
table's help line, and no command module is imported to list them."""

from __future__ import annotations

import argparse

import pytest

from ragtui.cli.command_table import COMMANDS, named
from ragtui.cli.main import build_parser


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def handlers(parser: argparse.ArgumentParser) -> list[object]:
    """The handlers a parser sets: its own, or its actions' (``labels list``, ``labels export``)."""
    own = [parser.get_default("handler")] if parser.get_default("handler") else []
    inner = [h for p in subcommands(parser).values() for h in handlers(p)] if parser._subparsers else []
    return own + inner


def is_stub(parser: argparse.ArgumentParser) -> bool:
    return not parser.add_help and not handlers(parser)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_named_command_gets_its_real_parser_and_a_handler(name):
    words = name.split(" ")
    parsers = subcommands(build_parser(words))
    assert handlers(parsers[words[0]]) and not is_stub(parsers[words[0]]), name
    assert all(is_stub(parsers[n]) for n in parsers if n != words[0])  # nothing else loaded


def test_without_a_command_every_one_is_a_stub_with_its_help_line():
    parser = build_parser([])
    parsers = subcommands(parser)
    assert list(parsers) == [n for n in COMMANDS if " " not in n]
    assert all(is_stub(p) for p in parsers.values())
    listed = " ".join(parser.format_help().split())
    for name in parsers:
        assert " ".join(COMMANDS[name].help.split()) in listed


def test_the_named_commands_are_read_from_the_words():
    assert named(["scenarios", "generate", "docs", "--out", "x.toml"]) == {"scenarios generate"}
    assert named(["--db", "a.db", "scenarios", "--check"]) == {"scenarios"}
    assert named(["--config", "c.toml", "show", "3"]) == {"show"}
    assert named(["label", "3", "1", "--agree"]) == {"label"}
    assert named([]) == set()
