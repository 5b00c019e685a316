"""`ragtui run --shard I/N --run-id ID`: N CI jobs run every planned dialogue exactly once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ragtui.cli.main import main

from ..conftest import endpoint_toml

PICKS = ["-s", "outage", "-s", "refund-partial", "-p", "calm", "-p", "angry"]


def write_config(tmp_path: Path, base_url: str, database: str = "runs.db") -> Path:
    config = tmp_path / "ragtui.toml"
    config.write_text(
        f'language = "en"\nmax_turns = 1\nconcurrency = 4\ndatabase = "{database}"\n' + endpoint_toml(base_url),
        encoding="utf-8",
    )
    return config


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("3/2", "I must be from 1 to N"),
        ("0/2", "I must be from 1 to N"),
        ("a/b", "must be I/N with whole numbers"),
        ("2", "must be I/N with whole numbers"),
    ],
)
def test_a_bad_shard_is_one_line_and_stores_nothing(tmp_path: Path, capsys, value: str, words: str):
    db = tmp_path / "runs.db"
    assert main(["run", "--db", str(db), "--shard", value, "--run-id", "ci-1", *PICKS]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and value in err
    assert not db.exists()


def test_a_shard_needs_a_run_id_and_a_new_one(server, tmp_path: Path, capsys):
    config = write_config(tmp_path, server.base_url)
    assert main(["run", "--config", str(config), "--shard", "1/2", *PICKS]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--shard 1/2 needs --run-id ID" in err
    assert not (tmp_path / "runs.db").exists()
    assert main(["run", "--config", str(config), "--run-id", "last", *PICKS]) == 2
    assert "--run-id 'last' is not a usable run id" in capsys.readouterr().err
    assert main(["run", "--config", str(config), "--shard", "1/2", "--run-id", "ci-1", "--resume", "last"]) == 2
    assert "cannot be combined with --resume" in capsys.readouterr().err
    assert main(["run", "--config", str(config), "--shard", "1/2", "--run-id", "ci-1", *PICKS]) in (0, 1)
    capsys.readouterr()
    before = sqlite3.connect(tmp_path / "runs.db").execute("SELECT COUNT(*) FROM run_plan").fetchone()[0]
    assert main(["run", "--config", str(config), "--shard", "2/2", "--run-id", "ci-1", *PICKS]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "run ci-1 already exists" in err
    assert sqlite3.connect(tmp_path / "runs.db").execute("SELECT COUNT(*) FROM run_plan").fetchone()[0] == before


def test_an_empty_shard_is_refused(server, tmp_path: Path, capsys):
    config = write_config(tmp_path, server.base_url)
    picks = ["-s", "outage", "-p", "calm", "-p", "angry"]
    assert main(["run", "--config", str(config), "--shard", "3/3", "--run-id", "ci-1", *picks]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the plan has only 2 dialogue(s), so shard 3 has none" in err
    assert sqlite3.connect(tmp_path / "runs.db").execute("SELECT COUNT(*) FROM run_plan").fetchone()[0] == 0


def planned(path: Path) -> list[tuple]:
    db = sqlite3.connect(path)
    rows = db.execute(
        "SELECT p.position, p.scenario_id, p.persona_name, p.trial, s.run_id, s.trial FROM run_plan p "
        "JOIN sessions s ON s.id = p.session_id ORDER BY p.position"
    ).fetchall()
    db.close()
    return rows


def test_shards_run_every_planned_dialogue_once(server, tmp_path: Path, capsys):
    """Two shards of a 2 × 2 × 2-trial plan on two databases: disjoint, together the whole plan,
    each saying which shard of how big a plan it is."""
    outputs = []
    for index in (1, 2):
        config = write_config(tmp_path, server.base_url, f"shard{index}.db")
        code = main(
            ["run", "--config", str(config), "--shard", f"{index}/2", "--run-id", "ci-7", "--repeat", "2", *PICKS]
        )
        assert code in (0, 1)
        outputs.append(capsys.readouterr().out)
    one, two = planned(tmp_path / "shard1.db"), planned(tmp_path / "shard2.db")
    assert [r[0] for r in one] == [0, 2, 4, 6] and [r[0] for r in two] == [1, 3, 5, 7]
    keys = [r[1:4] for r in one + two]
    assert len(set(keys)) == 8 == len(keys)  # the whole plan, each dialogue once
    assert {r[4] for r in one + two} == {"ci-7"} and all(r[3] == r[5] for r in one + two)
    assert {(s, p) for s, p, _t in keys} == {(s, p) for s in ("outage", "refund-partial") for p in ("calm", "angry")}
    # Each pair's two trials went to different shards.
    assert {(s, p) for s, p, _t in (r[1:4] for r in one)} == {(s, p) for s, p, _t in (r[1:4] for r in two)}
    for index, out in enumerate(outputs, start=1):
        assert f"shard {index}/2 of run ci-7: 4 of the plan's 8 dialogue(s)" in out
        assert "run ci-7: 4 dialogue(s)" in out and "planned 4, finished 4, missing 0" in out


def test_a_shard_with_workers_runs_its_slice_once(server, tmp_path: Path, capsys):
    config = write_config(tmp_path, server.base_url)
    args = ["run", "--config", str(config), "--shard", "2/3", "--run-id", "ci-9", "--workers", "2", "--repeat", "2"]
    assert main([*args, *PICKS]) in (0, 1)
    out = capsys.readouterr().out
    rows = planned(tmp_path / "runs.db")
    assert [r[0] for r in rows] == [1, 4, 7]
    assert "shard 2/3 of run ci-9: 3 of the plan's 8 dialogue(s)" in out
