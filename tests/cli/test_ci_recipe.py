"""The CI recipe of docs/ci.md, run as CI runs it: docs/ci/ragtui-ci.sh's steps against the fake
server, so the recipe cannot rot; and the done-criterion: two shards on two databases, merged,
compared with a baseline in a third database, give the result of one unsharded run."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ragtui.cli.main import main

from ..conftest import endpoint_toml

# The whole CI recipe in real processes: the slow tier (`pytest -m slow`).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "ci" / "ragtui-ci.sh"
PICKS = "-s outage -s refund-partial -p calm -p angry -p beginner --max-turns 1 --repeat 2"


def write_config(tmp_path: Path, base_url: str) -> Path:
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\nconcurrency = 4\n' + endpoint_toml(base_url), encoding="utf-8")
    return config


def step(tmp_path: Path, config: Path, *args: str, run_id: str = "ci-42") -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "RAGTUI": f"{sys.executable} -m ragtui",
        "RAGTUI_CI_RUN_ID": run_id,
        "RAGTUI_CI_ARGS": f"--config {config} {PICKS}",
        "RAGTUI_CI_DIR": str(tmp_path / "ragtui-ci"),
    }
    return subprocess.run(["bash", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=300)


def baseline(tmp_path: Path, config: Path) -> Path:
    """The baseline artifact: a run of its own in a third database."""
    path = tmp_path / "ragtui-ci" / "baseline.db"
    path.parent.mkdir(exist_ok=True)
    assert main(["run", "--config", str(config), "--db", str(path), "--run-id", "base-1", *PICKS.split()]) in (0, 1)
    return path


def comparison_rows(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def test_the_recipe_runs_shards_merges_compares_and_gates(server, tmp_path: Path, capsys):
    config = write_config(tmp_path, server.base_url)
    out = tmp_path / "ragtui-ci"
    first = step(tmp_path, config, "compare")  # no shard yet: nothing merged, one clear failure
    assert first.returncode == 2
    for index in (1, 2):
        done = step(tmp_path, config, "shard", str(index), "2")
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"shard {index}/2 of run ci-42" in done.stdout
    merged = step(tmp_path, config, "merge")
    assert merged.returncode == 0, merged.stderr
    assert merged.stdout.count("session(s) added (ci-42)") == 2
    # Without a baseline (the first run on main): the report alone, and the gate passes.
    alone = step(tmp_path, config, "compare")
    assert alone.returncode == 0, alone.stderr
    assert "no baseline" in alone.stdout and (out / "report.html").is_file()
    assert step(tmp_path, config, "gate").returncode == 0
    # With the baseline: JUnit, the Markdown comment, the HTML report; the gate is the compare's.
    baseline(tmp_path, config)
    capsys.readouterr()
    compared = step(tmp_path, config, "compare")
    assert compared.returncode in (0, 1), compared.stderr
    for name in ("junit.xml", "compare.md", "report.html", "compare-status"):
        assert (out / name).is_file(), name
    assert "base-1 → ci-42" in (out / "report.html").read_text(encoding="utf-8")
    assert "<testsuite" in (out / "junit.xml").read_text(encoding="utf-8")
    assert "|" in (out / "compare.md").read_text(encoding="utf-8")
    status = int((out / "compare-status").read_text().strip())
    assert step(tmp_path, config, "gate").returncode == status


def test_the_yaml_recipes_call_the_script_steps():
    """Both recipes run the steps the test above runs, through the one script."""
    for name in ("github-actions.yml", "gitlab-ci.yml"):
        text = (ROOT / "docs" / "ci" / name).read_text(encoding="utf-8")
        steps = re.findall(r"bash docs/ci/ragtui-ci\.sh (\w+)", text)
        assert steps == ["shard", "merge", "compare", "gate"], (name, steps)
        assert "RAGTUI_CI_RUN_ID" in text and "junit" in text.lower() and "report.html" in text and "compare.md" in text


def test_two_merged_shards_compare_like_one_unsharded_run(server, tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # short CSV paths: a long temp folder would wrap the "Wrote" line
    config = write_config(tmp_path, server.base_url)
    base = baseline(tmp_path, config)
    for index in (1, 2):
        db = tmp_path / f"shard{index}.db"
        args = ["run", "--config", str(config), "--db", str(db), "--shard", f"{index}/2", "--run-id", "ci-7"]
        assert main([*args, *PICKS.split()]) in (0, 1)
    assert (
        main(["merge", str(tmp_path / "shard1.db"), str(tmp_path / "shard2.db"), "--db", str(tmp_path / "m.db")]) == 0
    )
    single = tmp_path / "single.db"
    assert main(["run", "--config", str(config), "--db", str(single), "--run-id", "ci-7", *PICKS.split()]) in (0, 1)
    capsys.readouterr()
    sharded_status = main(["compare", f"{base}:last", f"{tmp_path / 'm.db'}:ci-7", "--csv", "a.csv"])
    sharded = capsys.readouterr().out
    single_status = main(["compare", f"{base}:last", f"{single}:ci-7", "--csv", "b.csv"])
    unsharded = capsys.readouterr().out
    assert sharded_status == single_status
    rows = comparison_rows(tmp_path / "a.csv")
    assert len(rows) == 1 + 6 and rows == comparison_rows(tmp_path / "b.csv")  # every pair, over its 2 trials
    summary = [line for line in sharded.splitlines() if not line.startswith(("Wrote", "│", "┃", "┏", "┡", "└"))]
    assert summary == [
        line for line in unsharded.splitlines() if not line.startswith(("Wrote", "│", "┃", "┏", "┡", "└"))
    ]
