"""A persona is read once and carried as one object: from its file, through the run's plan and
the engine, to the simulator's prompt; and one dialogue stores it once in the database."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.content import personas as persona_files
from ragtui.core.dialogue.simulator import UserSimulator
from ragtui.core.types.personas import Persona

from ..conftest import endpoint_toml
from ..fakes.database_text import occurrences

# Only this persona's file holds it: any other place it turns up is a copy.
MARKER = "zebra-marmalade-7431"
PERSONA_FILE = f'name = "zebra"\nlanguage = "en"\npersona = """\n- Mentions {MARKER} in every message.\n"""\n'


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    folder = tmp_path / "my-personas" / "en"
    folder.mkdir(parents=True)
    (folder / "zebra.toml").write_text(PERSONA_FILE, encoding="utf-8")
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 2\ndatabase = "runs.db"\npersonas = "my-personas"\n'
        + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


def test_the_simulator_prompt_is_given_the_persona_read_from_its_file(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[Persona] = []
    prompted: list[Persona] = []
    load = persona_files.load_persona_file

    def reading(path: Path) -> Persona:
        read.append(load(path))
        return read[-1]

    persona_text = UserSimulator.persona_text

    def prompting(self: UserSimulator) -> str:
        prompted.append(self.persona)
        return persona_text(self)

    monkeypatch.setattr(persona_files, "load_persona_file", reading)
    monkeypatch.setattr(UserSimulator, "persona_text", prompting)
    assert main(["run", "--config", str(config_file), "-s", "outage", "-p", "zebra"]) == 0
    from_file = [p for p in read if p.name == "zebra"]
    assert len(from_file) == 1, "the persona file is read once"
    assert prompted, "the simulator wrote the customer's messages"
    # The very object read from the file, not an equal one rebuilt from a dict or from JSON.
    assert all(p is from_file[0] for p in prompted)


def test_one_dialogue_stores_its_persona_once(config_file: Path) -> None:
    assert main(["run", "--config", str(config_file), "-s", "outage", "-p", "zebra"]) == 0
    database = config_file.parent / "runs.db"
    assert occurrences(database, MARKER) == 1
    with closing(sqlite3.connect(database)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM run_plan WHERE session_id IS NOT NULL").fetchone()[0] == 1
