"""Runs the CLI tests read: recorded once per worker, copied into a test's folder to be read or
changed there."""

from __future__ import annotations

from pathlib import Path

import pytest

from stand_ins.fake_openai import FakeOpenAIServer

from ..conftest import record_run

FORMULA_AND_MARKUP = "=cmd|'/c calc'!A1 [bold red]not markup[/]"


@pytest.fixture(scope="session")
def recorded_outage(_server: FakeOpenAIServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`ragtui run -s outage -p calm` with 2 turns, every verdict 4/5; the bot's first answer is a
    spreadsheet formula with Rich markup in it (``FORMULA_AND_MARKUP``)."""
    folder = tmp_path_factory.mktemp("recorded-outage")
    return record_run(
        _server, folder, "-s", "outage", "-p", "calm", settings="max_turns = 2\nconcurrency = 3", bot=FORMULA_AND_MARKUP
    )
