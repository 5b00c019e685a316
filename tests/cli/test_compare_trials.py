"""`ragtui compare` of runs with trials: against run-to-run noise, end to end against the fake
server, and on synthetic runs for the reports, --strict, different K and one trial a pair."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.runs.compare import compare_runs
from ragtui.core.runs.compare_report import comparison_csv, comparison_junit, comparison_markdown
from ragtui.core.runs.dialogues import keyed, load_run
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue

from ..conftest import JUDGE, turns_judged
from ..store.test_run_plan import write_config

PICKS = ["-s", "outage", "-p", "calm", "-p", "angry"]


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 200)


def test_same_bot_twice_is_within_noise_and_a_planted_drop_is_a_regression_naming_its_pair(
    server, tmp_path: Path, capsys
):
    config = write_config(tmp_path, server, concurrency=1)  # one at a time: trials in plan order
    assert main(["run", "--config", str(config), "--repeat", "3", *PICKS]) == 0
    assert main(["run", "--config", str(config), "--repeat", "3", *PICKS]) == 0
    capsys.readouterr()
    assert main(["compare", "--config", str(config), "previous", "last"]) == 0
    out = capsys.readouterr().out
    assert "within noise" in out and "2 pair(s) over their trials: 0 regression(s)" in out, out
    assert "smallest detectable change: a drop of" in out and "trials a pair on each side" in out
    assert "one trial per pair" not in out

    # The judge fails every trial of outage × calm (planned first) in the new run only.
    server.set_default(JUDGE, turns_judged(2, 2, 2, 4, 4, 4))
    assert main(["run", "--config", str(config), "--repeat", "3", *PICKS]) == 1
    capsys.readouterr()
    junit = tmp_path / "c.xml"
    assert main(["compare", "--config", str(config), "previous", "last", "--junit", str(junit)]) == 1
    out = capsys.readouterr().out
    assert "regression beyond run-to-run noise; dropped: outage × calm (3/3 → 0/3, p=0.050)" in out, out
    assert "outage × angry (" not in out
    cases = {c.get("name"): c.find("failure") is not None for c in ET.parse(junit).getroot().iter("testcase")}
    assert cases == {"outage × calm": True, "outage × angry": False}


def test_one_trial_a_pair_keeps_the_old_rule_and_says_it_cannot_see_noise(server, tmp_path: Path, capsys):
    config = write_config(tmp_path, server, concurrency=1)
    assert main(["run", "--config", str(config), *PICKS]) == 0
    server.set_default(JUDGE, turns_judged(2, 4))
    assert main(["run", "--config", str(config), *PICKS]) == 1
    capsys.readouterr()
    assert main(["compare", "--config", str(config), "previous", "last"]) == 1  # one drop fails, as before
    out = capsys.readouterr().out
    assert "one trial per pair cannot separate a change from run-to-run noise" in out
    assert "--repeat" in out and "1 score regression(s)" in out


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def trials(db: Store, run: str, pair: tuple[str, str], outcomes: str) -> None:
    """One dialogue per character of ``outcomes``: P passes (0.9), F fails (0.3)."""
    for trial, o in enumerate(outcomes, start=1):
        write_dialogue(db, run, *pair, [0.9 if o == "P" else 0.3], trial=trial)


def test_a_drop_within_noise_exits_0_and_strict_exits_1(db: Store, tmp_path: Path, capsys):
    trials(db, "r1", ("refund", "calm"), "PPPP")
    trials(db, "r1", ("outage", "calm"), "PPFP")
    trials(db, "r2", ("refund", "calm"), "PPPF")  # one trial fewer: noise at 4 trials
    trials(db, "r2", ("outage", "calm"), "PPFP")
    c = compare_runs(db, "r1", "r2")
    assert c.noise is not None and c.exit_status == 0 and c.strict_exit_status == 1
    # Trial 4 of refund × calm failed: trial against trial it is "lower", never a regression beside
    # a summary that says none is beyond noise.
    assert c.regressions == 0 and c.count("lower") == 1
    verdicts = {p.label: (p.cell("base"), p.cell("new"), p.verdict) for p in c.noise.pairs}
    assert verdicts == {
        "refund × calm": ("4/4", "3/4", "lower, within noise"),
        "outage × calm": ("3/4", "3/4", "same"),
    }
    assert c.noise.pairs[1].p_value == pytest.approx(0.5)  # Fisher: 4/4 vs 3/4, C(7,3)/C(8,4) = 35/70
    config = tmp_path / "c.toml"
    config.write_text(f'database = "{db.path}"\n', encoding="utf-8")
    assert main(["compare", "--config", str(config), "r1", "r2"]) == 0
    assert "no regression: within noise" in capsys.readouterr().out
    assert main(["compare", "--config", str(config), "r1", "r2", "--strict"]) == 1
    said = "regression under --strict: 1 pair(s) passing fewer trials, within noise"
    assert said in capsys.readouterr().out
    assert "regression" not in comparison_markdown(c).split("Trial by trial:")[1]  # the trial rows: lower


def test_reports_carry_the_trials_the_p_value_and_the_verdict(db: Store):
    trials(db, "r1", ("refund", "calm"), "PPPPPP")
    trials(db, "r1", ("outage", "calm"), "PPPP")
    trials(db, "r2", ("refund", "calm"), "FFFFFF")
    trials(db, "r2", ("outage", "calm"), "PPPP")
    c = compare_runs(db, "r1", "r2")
    assert c.noise is not None and c.exit_status == 1
    refund = next(p for p in c.noise.pairs if p.label == "refund × calm")
    assert refund.verdict == "regression" and refund.p_value == pytest.approx(1 / 924)  # 1 / C(12, 6)
    rows = list(csv.DictReader(io.StringIO(comparison_csv(c))))
    assert [(r["scenario"], r["base_passes"], r["base_trials"], r["new_passes"], r["new_trials"]) for r in rows] == [
        ("refund", "6", "6", "0", "6"),
        ("outage", "4", "4", "4", "4"),
    ]
    assert rows[0]["verdict"] == "regression" and float(rows[0]["p_value"]) == pytest.approx(0.0011, abs=1e-4)
    markdown = comparison_markdown(c)
    assert "| refund × calm | 🔴 regression | 6/6 | 0/6 | 0.90 | 0.30 | 0.001 | 🔴 regression |" in markdown
    assert "smallest detectable change" in markdown
    suite = ET.fromstring(comparison_junit(c).split("\n", 1)[1])
    failing = [t.get("name") for t in suite.iter("testcase") if t.find("failure") is not None]
    assert failing == ["refund × calm"] and suite.get("failures") == "1"


def test_runs_of_different_trials_compare_with_the_trials_each_has(db: Store):
    trials(db, "r1", ("refund", "calm"), "PPP")
    trials(db, "r2", ("refund", "calm"), "PPFPP")
    c = compare_runs(db, "r1", "r2")
    assert c.noise is not None and (c.noise.base_trials, c.noise.new_trials) == (3, 5)
    assert [(p.cell("base"), p.cell("new")) for p in c.noise.pairs] == [("3/3", "4/5")]
    assert c.only_in_new == []  # trials 4 and 5 are compared, not left over
    from ragtui.core.runs.compare_report import summary_lines

    assert any("base has up to 3 trials a pair, new up to 5" in line for line in summary_lines(c))


def test_dialogues_are_matched_in_trial_order_not_session_order(db: Store):
    """Parallel workers finish trials in any order: trial 2 stored before trial 1."""
    write_dialogue(db, "r1", "refund", "calm", [0.9], trial=2)
    write_dialogue(db, "r1", "refund", "calm", [0.3], trial=1)
    assert [(k, d.trial) for k, d in keyed(load_run(db, "r1")).items()] == [
        (("refund", "calm", 1), 1),
        (("refund", "calm", 2), 2),
    ]


def test_alpha_comes_from_the_config_and_is_checked(tmp_path: Path, capsys):
    config = tmp_path / "c.toml"
    config.write_text(f'database = "{tmp_path / "x.db"}"\ncompare_alpha = 0.7\n', encoding="utf-8")
    assert main(["compare", "--config", str(config), "a", "b"]) == 2
    err = capsys.readouterr().err
    assert "compare_alpha must be over 0 and under 0.5, got 0.7" in err and "Traceback" not in err


def test_ragtui_config_shows_the_alpha(tmp_path: Path, capsys):
    config = tmp_path / "c.toml"
    config.write_text(f'database = "{tmp_path / "x.db"}"\ncompare_alpha = 0.01\n', encoding="utf-8")
    assert main(["config", "--config", str(config)]) == 0
    assert '"compare_alpha": 0.01' in capsys.readouterr().out
