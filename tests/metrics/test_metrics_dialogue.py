"""The metric suite inside dialogues: every metric judged per bot turn, trust last, a failing
metric not stopping the others, and `ragtui run --metric … → show → export` end to end."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.dialogue.engine import Engine
from ragtui.core.dialogue.events import DialogueDone, TextDelta, VerdictReady
from ragtui.core.models.endpoints import resolve_endpoints
from stand_ins.fake_openai import Reply, level_reply

from ..conftest import JUDGE, check_answers, endpoint_toml, verdict

# P(yes) of each statement's check: relevancy (0.9 + 0.4) / 2 = 0.65, faithfulness (0.8 + 0.2) / 2.
STATEMENT_P = {
    ("### STATEMENT ###", "Go to Settings > Account > Linked services."): 0.9,
    ("### STATEMENT ###", "Tap Link."): 0.4,
    ("### CLAIM ###", "Go to Settings > Account > Linked services."): 0.8,
    ("### CLAIM ###", "Tap Link."): 0.2,
}
# One scripted reply per step, chosen by the schema the judge request carries.
STEP_REPLIES: dict[str, dict] = {
    "rubric_verdict": json.loads(verdict(4)),
    "statements": {"statements": ["Go to Settings > Account > Linked services.", "Tap Link."]},
    "reason": {"reason": "One statement answers directly."},
    "correctness": {"justification": "Same steps.", "score": 4},
    "answerability": {"supporting_span": "Linked services", "explanation": "It is there.", "answerable": 1},
}


def step_responder(fail: set[str] | None = None):
    """A judge that answers every metric's steps; schemas named in ``fail`` get a 500."""

    checks = check_answers(4)

    def respond(body: dict) -> Reply:
        if "response_format" not in body:  # a one-token level question, scored by probabilities
            user = body["messages"][-1]["content"]
            for (heading, statement), p in STATEMENT_P.items():
                if f"{heading}\n{statement}\n" in user:  # a relevancy / faithfulness statement check
                    return level_reply({"yes": p, "no": 1.0 - p})
            if user.strip().endswith("Answer yes or no:"):  # one of the rubric's yes/no checks
                if "rubric_verdict" in (fail or set()):
                    return Reply(status=500, error_message="judge exploded")
                return checks(body)
            name = "correctness" if "Rating:" in user else "answerability"
            if name in (fail or set()):
                return Reply(status=500, error_message="judge exploded")
            return level_reply({"4": 1.0} if name == "correctness" else {"yes": 1.0})
        spec = body["response_format"]["json_schema"]
        name = spec["name"]
        if name in (fail or set()):
            return Reply(status=500, error_message="judge exploded")
        return Reply(json.dumps(STEP_REPLIES[name]))

    return respond


ALL = ["answer_relevancy", "answer_correctness", "answerability", "faithfulness", "trust"]


@pytest.fixture
async def suite_engine(config, store):
    config.metrics = ALL
    config.max_turns = 2
    config.thresholds["faithfulness"] = 0.6
    engine = Engine(config, resolve_endpoints(config), store)
    yield engine
    await engine.aclose()


async def test_every_metric_judges_every_turn_and_trust_comes_last(suite_engine: Engine, scenario, persona, server):
    server.set_default(JUDGE, step_responder())
    dialogue = suite_engine.new_dialogue(scenario, persona)
    events = [e async for e in dialogue.run()]
    verdicts = [e.judgment for e in events if isinstance(e, VerdictReady) and e.turn == 1]
    assert [j.metric for j in verdicts] == ["rubric", *ALL]
    scores = {j.metric: j.score for j in verdicts}
    assert scores == pytest.approx(
        {
            "rubric": 0.8,
            "answer_relevancy": 0.65,
            "answer_correctness": 0.8,
            "answerability": 1.0,
            "faithfulness": 0.5,
            "trust": 0.0,
        }
    )
    trust = verdicts[-1]
    assert "faithfulness 0.50 < 0.60" in trust.details["conclusion"]  # the config's threshold
    assert isinstance(events[-1], DialogueDone) and events[-1].stop_reason == "max_turns"
    session = suite_engine.store.session(dialogue.session_id)
    assert len(session.judgments) == 12
    assert session.score == pytest.approx(0.8)  # the rubric alone makes the turn score
    stored = next(j for j in session.judgments if j.metric == "answer_relevancy")
    assert [s["step"] for s in stored.details["trace"]] == ["statements", "check 1", "check 2", "reason"]
    assert stored.prompt == stored.details["trace"][-1]["prompt"]


async def test_a_failing_metric_does_not_stop_the_others(suite_engine: Engine, scenario, persona, server):
    server.set_default(JUDGE, step_responder(fail={"correctness"}))
    events = [e async for e in suite_engine.new_dialogue(scenario, persona).run()]
    done = events[-1]
    assert isinstance(done, DialogueDone) and done.stop_reason == "max_turns" and done.error is None
    verdicts = {e.judgment.metric: e.judgment for e in events if isinstance(e, VerdictReady) and e.turn == 2}
    assert verdicts["answer_correctness"].score is None and "500" in (verdicts["answer_correctness"].error or "")
    assert verdicts["faithfulness"].score == 0.5 and verdicts["answerability"].score == 1.0
    # A failed check decides "no" even though another check is unknown.
    trust = verdicts["trust"]
    assert trust.score == 0.0 and trust.details["checks"]["answer_correctness"]["outcome"] == "unknown"


async def test_the_primary_failing_still_ends_the_dialogue(suite_engine: Engine, scenario, persona, server):
    server.set_default(JUDGE, step_responder(fail={"rubric_verdict"}))
    events = [e async for e in suite_engine.new_dialogue(scenario, persona).run()]
    assert events[-1].stop_reason == "error"
    # The failed judge still leaves its verdict row: explicitly unscored, with the error.
    rubric = [e for e in events if isinstance(e, VerdictReady) and e.judgment.metric == "rubric"]
    assert len(rubric) == 1 and rubric[0].judgment.score is None and rubric[0].judgment.error
    stored = suite_engine.store.session(events[-1].session_id)
    assert [(j.metric, j.score) for j in stored.judgments if j.metric == "rubric"] == [("rubric", None)]
    assert stored.unscored_turns == 1


async def test_judge_deltas_stream_for_every_step(suite_engine: Engine, scenario, persona, server):
    server.set_default(JUDGE, step_responder())
    events = [e async for e in suite_engine.new_dialogue(scenario, persona).step()]
    events += [e async for e in suite_engine.new_dialogue(scenario, persona).run()]
    judge_text = "".join(e.text for e in events if isinstance(e, TextDelta) and e.role == "judge")
    assert '"statements"' in judge_text and "yes" in judge_text


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        """
language = "en"
max_turns = 1
database = "runs.db"

[thresholds]
faithfulness = 0.9
"""
        + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


def test_run_metric_faithfulness_then_show_and_export(config_file: Path, tmp_path: Path, server, capsys):
    server.set_default(JUDGE, step_responder())
    args = ["--config", str(config_file)]
    assert (
        main(
            [
                "run",
                *args,
                "-s",
                "id-linking",
                "-s",
                "useless",
                "-p",
                "calm",
                "--metric",
                "faithfulness",
                "--metric",
                "answer_correctness",
            ]
        )
        == 1  # faithfulness 0.50 is under its pass mark: --metric results gate the exit status
    )
    assert "faithfulness" in capsys.readouterr().out  # and have their column in the run's table

    shown = main_show(1, args, capsys) + main_show(2, args, capsys)
    assert "faithfulness v1: 0.50" in shown
    assert "P(yes) ██          20%  Tap Link." in shown and "1 of 2 statements are likely supported" in shown
    assert "answer_correctness v1: 0.80" in shown and "level 4.00/5" in shown and "100%" in shown
    assert "skipped: no reference answer for this scenario" in shown

    out = tmp_path / "out.csv"
    assert main(["export", "--run", "last", "--csv", str(out), *args]) == 0
    rows = list(csv.DictReader(out.read_text(encoding="utf-8-sig").splitlines()))
    header = out.read_text(encoding="utf-8-sig").splitlines()[0].split(",")
    assert header[:4] == ["config", "user1", "assistant1", "check1"]
    assert header[-15:] == [
        "answer_correctness1",
        "faithfulness1",
        "resolution",
        "outcome",
        "resolution_judge_agreement",  # each dialogue verdict's judge agreement after its cells
        "retention",
        "retention_judge_agreement",
        "repetition",
        "repetition_judge_agreement",
        "expectations_met",
        "expectations_total",
        "policies_broken",
        "expectations_missed",
        "expectations_judge_agreement",
        "check1_json",
    ]
    by_scenario = {json.loads(r["config"])["scenario"]: r for r in rows}
    assert by_scenario["id-linking"]["faithfulness1"] == "0.50"
    assert by_scenario["id-linking"]["answer_correctness1"] == "0.80"
    assert by_scenario["useless"]["answer_correctness1"] == "skipped"


def main_show(session: int, args: list[str], capsys) -> str:
    assert main(["show", str(session), *args]) == 0
    return capsys.readouterr().out


def test_bad_threshold_in_config_is_named(config_file: Path, capsys):
    text = config_file.read_text(encoding="utf-8").replace("faithfulness = 0.9", "faithfulness = 1.5")
    config_file.write_text(text, encoding="utf-8")
    assert main(["run", "--config", str(config_file), "--metric", "faithfulness"]) == 2
    err = capsys.readouterr().err
    assert "[thresholds] faithfulness must be between 0 and 1" in err
