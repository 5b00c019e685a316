"""Every command that takes ``--run`` reads it the same way (an id, a unique prefix, ``last``,
``previous``), and one that names no run is one line saying so, not an empty result."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.cli.main import main

from ..conftest import endpoint_toml


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url), encoding="utf-8"
    )
    assert main(["run", "--config", str(path), "-s", "outage", "-p", "calm"]) == 0
    return path


COMMANDS = [
    ["export", "--csv", "out.csv"],
    ["labels", "list"],
    ["labels", "export", "--jsonl", "out.jsonl"],
    ["judge-dialogue"],
    ["rejudge"],
    ["calibrate", "rubric", "--from-labels"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_run_that_does_not_exist_is_one_line_naming_it(config_file: Path, tmp_path: Path, command, capsys):
    capsys.readouterr()
    assert main([*command, "--config", str(config_file), "--run", "no-such-run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no run 'no-such-run' in database" in err
    assert not (tmp_path / "out.csv").exists() and not (tmp_path / "out.jsonl").exists()


def test_resume_of_a_run_that_does_not_exist_points_to_the_list_of_runs(config_file: Path, capsys):
    capsys.readouterr()
    assert main(["run", "--config", str(config_file), "--resume", "no-such-run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no run 'no-such-run' in database" in err
    assert err.rstrip().endswith("— list them with `ragtui runs`; `last` and `previous` work too"), err


def test_resume_reads_a_prefix_and_previous_like_every_other_run_reference(config_file: Path, tmp_path: Path, capsys):
    from ragtui.core.store.store import Store

    assert main(["run", "--config", str(config_file), "-s", "outage", "-p", "calm"]) == 0
    store = Store.open(tmp_path / "runs.db")
    first, second = store.run_ids()
    store.close()
    capsys.readouterr()
    unique = next(k for k in range(1, len(first) + 1) if not second.startswith(first[:k]))
    assert main(["run", "--config", str(config_file), "--resume", first[:unique]]) == 0
    assert f"run {first}" in capsys.readouterr().out
    assert main(["run", "--config", str(config_file), "--resume", "previous"]) == 0
    out = capsys.readouterr().out
    assert f"run {first}" in out and second not in out


def test_a_unique_prefix_names_the_run(config_file: Path, tmp_path: Path, capsys):
    from ragtui.core.store.store import Store

    store = Store.open(tmp_path / "runs.db")
    run_id = store.latest_run_id()
    store.close()
    assert run_id is not None
    out = tmp_path / "prefix.csv"
    assert main(["export", "--config", str(config_file), "--run", run_id[:15], "--csv", str(out)]) == 0
    assert "outage" in out.read_text(encoding="utf-8")
