"""What a support lead reads in ``ragtui report RUN --html FILE`` besides the summary: each pair's
trials, each expectation over the run, the run's facts (bot, models, limits, tokens and cost),
the passages behind each answer, people's labels and the heat map's legend."""

from __future__ import annotations

import re
from pathlib import Path

from ragtui.cli.main import main
from ragtui.core.store.store import Store
from tests.fakes.synthetic_runs import write_dialogue


def section(page: str, heading: str) -> str:
    """The page from ``<h2>heading`` to the next heading."""
    start = page.index(f"<h2>{heading}")
    end = page.find("<h2>", start + 4)
    return page[start : end if end > 0 else len(page)]


def report(db: Path, run_id: str, tmp_path: Path, *extra: str) -> str:
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(db), run_id, "--html", str(out), *extra]) == 0
    return out.read_text(encoding="utf-8")


def test_each_pairs_trials_as_marks_with_pass_k(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    refund = {}
    for trial in (1, 2, 3):
        write_dialogue(store, "t1", "outage", "calm", [0.9], trial=trial)
        refund[trial] = write_dialogue(store, "t1", "refund", "calm", [0.9 if trial < 3 else 0.2], trial=trial)
    store.close()
    page = report(tmp_path / "runs.db", "t1", tmp_path)
    capsys.readouterr()
    table = section(page, "Trials per scenario × persona")
    rows = re.findall(r"<tr><td>([^<]*)</td>(.*?)</tr>", table)
    assert [name for name, _cells in rows] == ["refund × calm", "outage × calm"]  # least consistent first
    text = {name: re.sub(r"<[^>]+>", " ", cells).split() for name, cells in rows}
    assert text["refund × calm"] == ["●", "●", "○", "2/3", "pass^3", "0.00", "0.67"]
    assert text["outage × calm"] == ["●", "●", "●", "3/3", "pass^3", "1.00", "0.90"]
    # Each mark opens its trial's dialogue.
    refund_cells = dict(rows)["refund × calm"]
    assert re.findall(r'href="#d(\d+)"', refund_cells) == [str(refund[t]) for t in (1, 2, 3)]
    assert f'id="d{refund[3]}"' in page


def test_a_run_of_one_trial_a_pair_has_no_trials_table(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    write_dialogue(store, "r1", "outage", "calm", [0.9])
    store.close()
    page = report(tmp_path / "runs.db", "r1", tmp_path)
    capsys.readouterr()
    assert "Trials per scenario × persona" not in page
