"""`ragtui run --repeat K`: K trials per scenario × persona planned up front, each its own
session knowing its trial; pass^k in the run's summary, `ragtui runs` and the CSV; the estimate
×K; bad values refused in one line with nothing stored. Against the fake server."""

from __future__ import annotations

import csv
import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.runs.pass_k import run_pass_k
from ragtui.core.store.schema import MIGRATIONS
from ragtui.core.store.store import Store
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, endpoint_toml, turns_judged
from ..store.test_run_plan import rows, run_killing_a_worker, spawn, write_config

PICKS = ["-s", "outage", "-p", "calm", "-p", "angry"]
PAIRS = {("outage", "calm"), ("outage", "angry")}


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 200)


def trials_per_pair(db: Path) -> dict[tuple[str, str], list[int]]:
    found: dict[tuple[str, str], list[int]] = {}
    for scenario, persona, trial in rows(db, "SELECT scenario_id, persona_name, trial FROM sessions ORDER BY id"):
        found.setdefault((scenario, persona), []).append(trial)
    return {pair: sorted(trials) for pair, trials in found.items()}


def test_repeat_3_over_2_pairs_stores_6_sessions_with_their_trials(server, tmp_path: Path, capsys):
    config = write_config(tmp_path, server, concurrency=1)
    db = tmp_path / "runs.db"
    assert main(["run", "--config", str(config), "--repeat", "3", *PICKS]) == 0
    out = capsys.readouterr().out
    assert trials_per_pair(db) == {pair: [1, 2, 3] for pair in PAIRS}
    # Planned pair by pair, the trials of a pair together; each entry got its own session.
    plan = rows(db, "SELECT persona_name, trial, session_id FROM run_plan ORDER BY position")
    assert [p[:2] for p in plan] == [("calm", 1), ("calm", 2), ("calm", 3), ("angry", 1), ("angry", 2), ("angry", 3)]
    assert len({p[2] for p in plan}) == 6
    assert rows(db, "SELECT COUNT(*) FROM sessions s JOIN run_plan p ON p.session_id = s.id WHERE s.trial = p.trial")
    assert "planned 6, finished 6, missing 0" in out
    line = "pass^1 1.00 [1.00, 1.00] · pass^2 1.00 [1.00, 1.00] · pass^3 1.00 [1.00, 1.00] (2 pairs × 3 trials)"
    assert [x for x in out.splitlines() if x.startswith("pass^")] == [line]
    header = next(x for x in out.splitlines() if "scenario" in x and "persona" in x)
    assert re.search(r"persona\s+trial\s+turns", header), out  # the trial of each row
    assert re.search(r"outage\s+angry\s+3\s+1\s+0\s+0\.80", out)

    # A run of one trial per pair prints no pass^k line and no trial column.
    assert main(["run", "--config", str(config), *PICKS]) == 0
    out = capsys.readouterr().out
    assert "pass^" not in out and "trial" not in out


def test_a_pair_passing_2_of_3_trials_has_pass_k_two_thirds_one_third_zero(server, tmp_path: Path, capsys):
    """One turn per dialogue, run one at a time in plan order: the judge fails only the third
    dialogue, trial 3 of outage × calm; outage × angry passes all three."""
    config = write_config(tmp_path, server, concurrency=1)
    server.set_default(JUDGE, turns_judged(4, 4, 2, 4, 4, 4))
    assert main(["run", "--config", str(config), "--repeat", "3", *PICKS]) == 1  # a dialogue under the threshold
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("pass^"))
    # pass^2 per pair: 1/3 for calm, 1 for angry; the interval resamples the two pairs.
    tail = " · pass^2 0.67 [0.33, 1.00] · pass^3 0.50 [0.00, 1.00] (2 pairs × 3 trials)"
    assert line.startswith("pass^1 0.83 [") and line.endswith(tail), line

    store = Store.open(tmp_path / "runs.db")
    try:
        sessions = store.run_sessions(store.latest_run_id())
        assert sorted((s.persona_name, s.trial, s.score is not None and s.score >= 0.7) for s in sessions) == [
            ("angry", 1, True),
            ("angry", 2, True),
            ("angry", 3, True),
            ("calm", 1, True),
            ("calm", 2, True),
            ("calm", 3, False),
        ]
        result = run_pass_k(sessions, 0.7)
    finally:
        store.close()
    calm = next(p for p in result.pairs if p.persona_name == "calm")
    assert (calm.n, calm.passes) == (3, 2)
    assert [calm.pass_k(k) for k in (1, 2, 3)] == pytest.approx([2 / 3, 1 / 3, 0.0])
    assert calm.spread is not None and calm.spread > 0

    assert main(["runs", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    # pass is pass^1 (83%), then pass^K
    assert re.search(r"pass\W+pass\^K \(K\)", out) and re.search(r"\W83%\W+0\.50 \(3\)\W", out), out

    export = tmp_path / "trials.csv"
    assert main(["export", "--config", str(config), "--run", "last", "--csv", str(export)]) == 0
    with export.open(encoding="utf-8-sig", newline="") as f:
        read = list(csv.DictReader(f))
    assert Counter((r["persona"], r["trial"]) for r in read) == Counter(
        (p, str(t)) for p in ("calm", "angry") for t in (1, 2, 3)
    )


def test_repeat_with_workers_stores_every_trial_and_a_killed_worker_leaves_its_share_resumable(server, tmp_path: Path):
    """`--repeat 3 --workers 2`: worker 0 killed as soon as it exists, before it made its
    sessions; its trials stay in the plan, and `--resume` runs them: 6 sessions, trials 1–3 of
    each pair, each exactly once."""
    config = write_config(tmp_path, server)
    db = tmp_path / "runs.db"
    server.set_default(BOT, Reply("Go to Settings > Account.", delay_first=0.1))
    planned = []  # all trials planned before any worker makes a session
    code, out, err = run_killing_a_worker(
        "--config", str(config), "--no-check", "--repeat", "3", *PICKS,
        before_kill=lambda: planned.append(rows(db, "SELECT COUNT(*) FROM run_plan")),
    )  # fmt: skip
    assert planned == [[(6,)]]
    assert code == 2, out + err
    assert "never started" in out and "Continue with: ragtui run --resume" in out
    started = rows(db, "SELECT COUNT(*) FROM run_plan WHERE session_id IS NOT NULL")[0][0]
    assert started < 6

    server.set_default(BOT, Reply("Go to Settings > Account."))
    resumed = spawn("run", "--config", str(config), "--resume", "last", "--no-check")
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, out + err
    assert "planned 6, finished 6, missing 0" in out and "(2 pairs × 3 trials)" in out
    assert trials_per_pair(db) == {pair: [1, 2, 3] for pair in PAIRS}
    assert {r[0] for r in rows(db, "SELECT stop_reason FROM sessions")} == {"max_turns"}


def estimated_calls(out: str) -> dict[str, int]:
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"(user|bot|judge)\W+fake-\w+\W+([\d,]+)\W", out)}


def test_the_estimate_of_3_trials_is_3_times_one(tmp_path: Path, capsys):
    config = tmp_path / "ragtui.toml"
    config.write_text(
        'language = "en"\nmax_turns = 2\ndatabase = "never.db"\n' + endpoint_toml("http://127.0.0.1:9/v1"),
        encoding="utf-8",
    )
    assert main(["run", "--estimate", "--config", str(config), *PICKS]) == 0
    once = estimated_calls(capsys.readouterr().out)
    assert main(["run", "--estimate", "--config", str(config), "--repeat", "3", *PICKS]) == 0
    out = capsys.readouterr().out
    assert "Estimate for 6 dialogue(s) (2 pairs × 3 trials)" in out
    thrice = estimated_calls(out)
    assert set(once) == {"user", "bot", "judge"} and thrice == {role: 3 * calls for role, calls in once.items()}
    # From the config too; over the limit only with --yes.
    config.write_text(config.read_text(encoding="utf-8").replace("max_turns = 2\n", "max_turns = 2\nrepeat = 3\n"))
    assert main(["run", "--estimate", "--config", str(config), *PICKS]) == 0
    assert estimated_calls(capsys.readouterr().out) == thrice
    assert main(["run", "--estimate", "--config", str(config), "--repeat", "25", "--yes", *PICKS]) == 0
    assert "Estimate for 50 dialogue(s) (2 pairs × 25 trials)" in capsys.readouterr().out
    assert not (tmp_path / "never.db").exists()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--repeat", "0"], "ragtui: error: --repeat must be a whole number of 1 or more, got 0"),
        (["--repeat", "-2"], "ragtui: error: --repeat must be a whole number of 1 or more, got -2"),
        (["--repeat", "2.5"], "ragtui: error: --repeat must be a whole number of 1 or more, got '2.5'"),
        (["--repeat", "x"], "ragtui: error: --repeat must be a whole number of 1 or more, got 'x'"),
        (["--repeat", "21"], "ragtui: error: --repeat 21 is over 20 trials per scenario × persona — add --yes"),
        # A ceiling even with --yes: the plan of every trial is built before the first dialogue
        # (--repeat 100000000 --yes grew to GBs and could not be stopped with Ctrl-C).
        (
            ["--repeat", "101", "--yes"],
            "ragtui: error: --repeat 101 is over 100, the most trials per scenario × persona",
        ),
        (["--repeat", "100000000", "--yes"], "ragtui: error: --repeat 100000000 is over 100, the most trials per"),
        (["--repeat", "2", "--resume", "last"], "ragtui: error: --repeat cannot be combined with --resume"),
        (["--repeat", "2", "--replay", "last"], "ragtui: error: --repeat cannot be combined with --replay"),
    ],
)
def test_bad_repeat_values_are_one_line_and_store_nothing(server, tmp_path: Path, capsys, extra, message):
    config = write_config(tmp_path, server)
    assert main(["run", "--config", str(config), *PICKS, *extra]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith(message), err
    assert server.chat_requests() == [] and not (tmp_path / "runs.db").exists()


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("repeat = 0", "repeat must be at least 1, got 0"),
        ('repeat = "3"', "repeat"),
        ("repeat = 30", "the config's repeat 30 is over 20 trials per scenario × persona — add --yes"),
        ("repeat = 101", "ragtui.toml: repeat must be at most 100, got 101 — set 100 or fewer"),
    ],
)
def test_bad_repeat_in_the_config_is_one_line_and_stores_nothing(server, tmp_path: Path, capsys, key, message):
    config = write_config(tmp_path, server)
    config.write_text(key + "\n" + config.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["run", "--config", str(config), *PICKS]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert server.chat_requests() == [] and not (tmp_path / "runs.db").exists()


def test_an_old_database_opens_and_its_sessions_read_trial_1(tmp_path: Path):
    """A database at schema 11 (before sessions knew their trial): one session of a plain run
    and one made for trial 2 of a planned pair. Opened by this ragtui, the first reads trial 1,
    the second takes its plan entry's trial."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    for step in MIGRATIONS[:11]:
        if callable(step):
            step(conn)
        else:
            conn.executescript(step)
    session = (
        "INSERT INTO sessions (run_id, created_at, updated_at, language, scenario_id, question, scenario, "
        "persona_name, persona, config, max_turns, threshold, metrics, status, score) VALUES "
        "(?, 't', 't', 'en', 'outage', 'q', '{}', 'calm', '{}', '{}', 1, 0.7, '[]', 'finished', 0.9)"
    )
    conn.execute(session, ["old"])
    conn.execute(session, ["planned"])
    conn.execute(
        "INSERT INTO run_plan (run_id, position, scenario_id, persona_name, trial, scenario, persona, max_turns, "
        "threshold, metrics, models, session_id, created_at) "
        "VALUES ('planned', 0, 'outage', 'calm', 2, '{}', '{}', 1, 0.7, '[]', '{}', 2, 't')"
    )
    conn.execute("PRAGMA user_version = 11")
    conn.commit()
    conn.close()

    store = Store.open_read_only(path)  # an older file is upgraded once, then read
    try:
        assert [s.trial for s in store.run_sessions("old")] == [1]
        assert [s.trial for s in store.run_sessions("planned")] == [2]
    finally:
        store.close()


def test_a_replay_keeps_each_recordings_trial(server, tmp_path: Path, capsys):
    """Replaying a run of trials gives a run of the same trials, so compare lines them up."""
    config = write_config(tmp_path, server, concurrency=1)
    db = tmp_path / "runs.db"
    assert main(["run", "--config", str(config), "--repeat", "2", *PICKS]) == 0
    recorded = rows(db, "SELECT run_id FROM sessions LIMIT 1")[0][0]
    assert main(["run", "--config", str(config), "--replay", recorded]) == 0
    capsys.readouterr()
    replayed = rows(
        db,
        "SELECT s.trial, r.trial FROM sessions s JOIN sessions r ON r.id = s.replay_of WHERE s.run_id != ?",
        (recorded,),
    )
    assert len(replayed) == 4 and all(new == old for new, old in replayed)
    assert sorted(trial for trial, _ in replayed) == [1, 1, 2, 2]
