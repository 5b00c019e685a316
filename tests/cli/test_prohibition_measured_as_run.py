"""A prohibition means one thing in a run and when it is measured. Under ``expect``, "does not
promise a refund" is read by a run as its act ("promises a refund", kept unless an answer does
it); `ragtui calibrate expectation` and `ragtui judge-card --measure` on a labelled file read the
same sentence by the same function, so the judge is asked the very same check, and the label is
read the same way round. Before, they asked it as a plain `must`: a figure of a path no run takes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.judge_quality.expectation_agreement import ExpectationItem, load_expectation_items
from ragtui.core.metrics.dialogue.expectation_judge import ExpectationJudge
from ragtui.core.store.store import Store
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, check_answers, endpoint_toml, yes_no_reply

RULE = "does not promise a refund"
QUESTION = "Can I get my money back for last month?"
BROKEN = "Of course, I promise you a full refund today."
KEPT = "Refunds are not possible for a month already used."

SCENARIO = f"""
[[scenario]]
id = "refund"
question = "{QUESTION}"
expect = [{{ id = "norefund", text = "{RULE}" }}]
"""


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 220)


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    (tmp_path / "scenarios.toml").write_text(SCENARIO, encoding="utf-8")
    path = tmp_path / "ragtui.toml"
    head = 'language = "en"\nmax_turns = 1\nconcurrency = 1\ndatabase = "runs.db"\nscenarios = "scenarios.toml"\n'
    path.write_text(head + endpoint_toml(server.base_url), encoding="utf-8")
    return path


def labelled(tmp_path: Path, **fields: str) -> Path:
    """The rule as a labelled file writes it: polarity must, label 1 = the rule was kept."""
    item = {"question": QUESTION, "context": "", "expectation": RULE, "polarity": "must", "split": "report", **fields}
    rows = [
        {**item, "id": "broken", "kind": "negated_broken", "response": BROKEN, "label": 0},
        {**item, "id": "kept", "kind": "negated_kept", "response": KEPT, "label": 1},
    ]
    path = tmp_path / "negated.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def act_judge(body: dict) -> Reply:
    """The rubric's checks as the shared fake judge answers them; an expectation check says yes only
    to the act itself ("The ANSWER promises a refund.") asked of an answer that does it."""
    content = str(body["messages"][-1].get("content", ""))
    if "### STATEMENT ###" not in content:
        return check_answers(4)(body)
    statement = content.split("### STATEMENT ###")[-1]
    return yes_no_reply(1.0 if "The ANSWER promises a refund." in statement and BROKEN in content else 0.0)


def checks_asked(server) -> list[str]:
    """The check part of every expectation check the judge was asked (after any dialogue prefix)."""
    out = []
    for body in server.chat_requests(JUDGE):
        content = str(body["messages"][-1].get("content", ""))
        if "### STATEMENT ###" in content:
            out.append(content[content.rindex("### CUSTOMER ###") :])
    return out


def test_both_paths_read_the_sentence_by_the_same_function_and_build_the_same_check(tmp_path: Path):
    (tmp_path / "s.toml").write_text(SCENARIO, encoding="utf-8")
    (scenario,) = load_scenarios(tmp_path / "s.toml", "en")
    (in_run,) = scenario.expectations
    items = load_expectation_items(labelled(tmp_path)).items
    judge = ExpectationJudge(object(), None, "en")  # type: ignore[arg-type]  # messages only: no call
    for item in items:
        measured, answer = item.to_check()
        assert (measured.text, measured.form, measured.polarity) == (in_run.text, in_run.form, in_run.polarity)
        assert in_run.polarity == "must_not"  # the run's reading: a prohibition of the act
        assert judge.messages(measured, answer) == judge.messages(in_run, answer)
        assert "The ANSWER promises a refund." in judge.messages(measured, answer)[-1]["content"]
    # The labels read the same way round: 1 = the answer does the act.
    assert {i.id: i.run_label for i in items} == {"broken": 1, "kept": 0}


def test_a_run_and_calibrate_ask_the_judge_the_very_same_check(config_file: Path, server, tmp_path, capsys):
    server.set_default(JUDGE, act_judge)
    server.set_default(BOT, Reply(BROKEN))
    assert main(["run", "--config", str(config_file), "-p", "calm"]) == 0
    (run_check,) = checks_asked(server)
    store = Store.open(tmp_path / "runs.db")
    try:
        (session,) = store.sessions()
        verdict = store.session(session.id).latest_dialogue_judgments()["expectations"]
    finally:
        store.close()
    (result,) = verdict.details["results"]
    assert (result["expectation"]["polarity"], result["status"]) == ("must_not", "broken")
    server.clear()
    server.set_default(JUDGE, act_judge)
    capsys.readouterr()

    data = labelled(tmp_path, language="en")
    assert main(["calibrate", "expectation", str(data), "--config", str(config_file)]) == 0
    out = capsys.readouterr().out
    broken_check, kept_check = checks_asked(server)
    assert broken_check == run_check  # the same answer: the same check, word for word
    assert kept_check == run_check.replace(BROKEN, KEPT)
    # Both items judged as labelled once the labels are read the same way round as the check.
    assert "en report: n=2 scored=2 · accuracy 1.000 · kappa 1.000" in out, out
    assert "1 must item(s) written as a prohibition" not in out  # two of them
    assert "2 must item(s) written as a prohibition" in out


def test_the_negated_set_is_read_as_a_run_reads_it():
    """The shipped set of prohibitions written under `expect`: every item is asked about its act,
    and its label (1 = the rule was kept) is read as 1 = the act was done."""
    items: list[ExpectationItem] = load_expectation_items(
        bundled_dir("sample_data") / "labelled" / "expectations_negated.jsonl"
    ).items
    assert items and all(i.run_expectation().polarity == "must_not" for i in items)
    assert all(i.run_label == (1 if i.kind == "negated_broken" else 0) for i in items)


def test_a_file_without_language_fields_is_in_the_configs_language(config_file: Path, server, tmp_path, capsys):
    server.set_default(JUDGE, act_judge)
    assert main(["calibrate", "expectation", str(labelled(tmp_path)), "--config", str(config_file)]) == 0
    assert "en report: n=2" in capsys.readouterr().out
