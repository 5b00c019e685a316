"""What a support lead reads in ``ragtui report RUN --html FILE`` besides the summary: each pair's
trials, each expectation over the run, the run's facts (bot, models, limits, tokens and cost),
the passages behind each answer, people's labels and the heat map's legend."""

from __future__ import annotations

import re
from pathlib import Path

from ragtui.cli.main import main
from ragtui.core.store.store import Store
from ragtui.core.types.judgments import Judgment
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


def expectation(eid: str, text: str, status: str, turn: int | None = None, **kind: str) -> dict:
    e = {"id": eid, "text": text, "form": "judged", "polarity": "must", "origin": "scenario", **kind}
    return {"expectation": e, "status": status, "turn": turn, "checks": [], "error": None}


def with_expectations(store: Store, session_id: int, *results: dict) -> None:
    details = {"results": list(results), "summary": "expectations checked"}
    store.add_dialogue_judgment(session_id, Judgment("expectations", 0.5, details, raw_reply="x"))


def test_each_expectation_met_in_how_many_dialogues_and_missed_in_which(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    ids = [write_dialogue(store, "r1", "refund", persona, [0.9, 0.8]) for persona in ("calm", "angry", "terse")]
    no_pii = {"polarity": "must_not", "origin": "policy"}
    with_expectations(
        store,
        ids[0],
        expectation("deadline", "names the 30-day deadline", "met", 1),
        expectation("no-pii", "asks for a <card> number", "kept", **no_pii),
    )
    with_expectations(
        store,
        ids[1],
        expectation("deadline", "names the 30-day deadline", "missed"),
        expectation("no-pii", "asks for a <card> number", "broken", 2, **no_pii),
    )
    with_expectations(
        store,
        ids[2],
        expectation("deadline", "names the 30-day deadline", "unscored"),
        expectation("no-pii", "asks for a <card> number", "broken", 1, **no_pii),
    )
    write_dialogue(store, "r1", "outage", "calm", [0.9])  # no expectations: not counted
    store.close()
    page = report(tmp_path / "runs.db", "r1", tmp_path)
    capsys.readouterr()
    table = section(page, "Expectations (2)")
    rows = re.findall(r"<tr><td><code>([^<]*)</code></td>(.*?)</tr>", table)
    assert [eid for eid, _ in rows] == ["no-pii", "deadline"]  # broken in 2 of 3 before missed in 1 of 2
    text = {eid: " ".join(re.sub(r"<[^>]+>", " ", cells).split()) for eid, cells in rows}
    assert text["no-pii"] == (
        f"asks for a &lt;card&gt; number policy 1 of 3 dialogue(s) kept broken in 2 "
        f"#{ids[1]} refund × angry turn 2 #{ids[2]} refund × terse turn 1"
    )
    assert text["deadline"] == (
        f"names the 30-day deadline expect 1 of 2 dialogue(s) met, 1 unscored missed in 1 #{ids[1]} refund × angry"
    )
    links = re.findall(r'href="#d(\d+)"', table)
    assert links == [str(ids[1]), str(ids[2]), str(ids[1])] and all(f'id="d{i}"' in page for i in links)


def test_a_run_without_expectations_has_no_expectations_table(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    write_dialogue(store, "r1", "outage", "calm", [0.9])
    store.close()
    page = report(tmp_path / "runs.db", "r1", tmp_path)
    capsys.readouterr()
    assert "<h2>Expectations" not in page
