"""`ragtui rejudge`: a new verdict version for every turn of a run (old ones kept), online with
resume, through the fake server's Batch API, and as a request file for `vllm run-batch` with
`--ingest`; bad input is one line and changes nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.record.store import Store
from ragtui.testing.fake_openai import Reply

from .conftest import JUDGE, check_answers, check_line, endpoint_toml, verdict


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 2\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url), encoding="utf-8"
    )
    return path


@pytest.fixture
def ran(config_file: Path, server) -> Path:
    """Two stored 2-turn dialogues, every verdict 4/5 (0.80); the fake server's log cleared."""
    assert main(["run", "--config", str(config_file), "-s", "outage", "-p", "calm", "-p", "angry"]) == 0
    return config_file.parent / "runs.db"


def versions(db: Path) -> list[tuple[int, int, int, float | None]]:
    """(session, turn, version, score) of every rubric verdict."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT session_id, turn, version, score FROM judgments WHERE metric = 'rubric' "
            "ORDER BY session_id, turn, version"
        ).fetchall()
    finally:
        conn.close()


def dump(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return [*conn.execute("SELECT * FROM judgments ORDER BY id"), *conn.execute("SELECT id, score FROM sessions")]
    finally:
        conn.close()


def rejudge(config_file: Path, *args: str) -> int:
    return main(["rejudge", "--config", str(config_file), *args])


def test_online_rejudge_adds_a_version_to_every_turn_and_keeps_the_old(ran: Path, config_file: Path, server, capsys):
    server.set_default(JUDGE, check_answers(2))
    assert rejudge(config_file, "--run", "last") == 0
    assert "Re-judged 4 turn(s)" in capsys.readouterr().out
    got = versions(ran)
    assert [v[2] for v in got] == [1, 2] * 4
    assert [v[3] for v in got if v[2] == 2] == [pytest.approx(0.4)] * 4
    store = Store.open(ran)
    try:
        assert [s.score for s in store.sessions()] == [pytest.approx(0.4)] * 2  # the score follows the newest
    finally:
        store.close()
    # The same command again: the job is done, nothing is judged twice.
    assert rejudge(config_file, "--run", "last") == 0
    assert "already re-judged" in capsys.readouterr().out and len(versions(ran)) == 8


def test_an_interrupted_rejudge_resumes_where_it_stopped(ran: Path, config_file: Path, server, capsys):
    state = {"turn": 0}

    def down_after_two_turns(body: dict) -> Reply:
        if "information needed" in check_line(body):  # every turn's checks start with this one
            state["turn"] += 1
        if state["turn"] > 2:
            return Reply(status=500, error_message="judge down")
        return check_answers(3)(body)

    server.set_default(JUDGE, down_after_two_turns)
    assert rejudge(config_file, "--run", "last", "--concurrency", "1") == 2
    captured = capsys.readouterr()
    assert "judge down" in captured.err and "run the same command again to resume" in captured.err
    assert sum(1 for v in versions(ran) if v[2] == 2) == 2
    server.set_default(JUDGE, check_answers(5))
    assert rejudge(config_file, "--run", "last", "--concurrency", "1") == 0
    assert "2 already re-judged" in capsys.readouterr().out
    got = versions(ran)
    assert [v[2] for v in got] == [1, 2] * 4  # no turn got a third version
    assert sorted(v[3] for v in got if v[2] == 2) == pytest.approx([0.6, 0.6, 1.0, 1.0])


def test_another_model_and_an_edited_prompt(ran: Path, config_file: Path, server, tmp_path: Path, capsys):
    server.set_default("fake-judge-2", check_answers(4))
    assert rejudge(config_file, "--run", "last", "--model", "fake-judge-2") == 0
    assert len(server.chat_requests("fake-judge-2")) >= 4  # the yes/no checks of every turn
    source = Path(__file__).parent.parent / "prompts" / "en" / "judge_rubric.toml"
    edited = tmp_path / "judge.toml"
    edited.write_text(source.read_text(encoding="utf-8").replace('system = """', 'system = """EDITED. '), "utf-8")
    assert rejudge(config_file, "--run", "last", "--prompt", str(edited)) == 0
    sent = server.chat_requests(JUDGE)[-4:]
    assert all(r["messages"][0]["content"].lstrip().startswith("EDITED.") for r in sent)
    assert [v[2] for v in versions(ran)] == [1, 2, 3] * 4

    capsys.readouterr()
    before = dump(ran)
    edited.write_text(source.read_text(encoding="utf-8").replace("{{response}}", "{{reponse}}"), "utf-8")
    assert rejudge(config_file, "--run", "last", "--prompt", str(edited)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "reponse" in err and str(edited) in err
    assert dump(ran) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--run", "nope"], "no sessions in run nope"),
        (["--run", "last", "--metric", "trust"], "trust is derived"),
        (["--run", "last", "--metric", "faithfulness", "--batch"], "re-judge the rubric only"),
        (["--run", "last", "--prompt", "missing.toml"], "cannot read judge prompt missing.toml"),
        ([], "rejudge needs --run"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(ran: Path, config_file: Path, capsys, args, message):
    before = dump(ran)
    assert rejudge(config_file, *args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert dump(ran) == before


def test_batch_api_end_to_end_sends_exactly_the_online_requests(
    ran: Path, config_file: Path, server, tmp_path: Path, capsys
):
    # Batches send the whole-verdict rubric (judge_rubric.toml), which online is `--prompt`.
    prompt = tmp_path / "judge.toml"
    prompt.write_text((Path(__file__).parent.parent / "prompts" / "en" / "judge_rubric.toml").read_text("utf-8"))
    before = len(server.chat_requests(JUDGE))
    server.set_default(JUDGE, Reply(verdict(3)))
    assert rejudge(config_file, "--run", "last", "--prompt", str(prompt)) == 0
    online = server.chat_requests(JUDGE)[before:]
    capsys.readouterr()
    assert rejudge(config_file, "--run", "last", "--batch", "--poll", "0") == 0
    captured = capsys.readouterr()
    assert "batch in_progress" in captured.err and "batch completed: 4/4 done" in captured.err
    assert "Stored 4 verdict version(s) from the batch: 0 unscored" in captured.out
    assert [v[3] for v in versions(ran) if v[2] == 3] == [pytest.approx(0.6)] * 4
    batch = server.batch.bodies
    assert len(batch) == 4
    for body in batch:
        same = next(r for r in online if r["messages"] == body["messages"])
        assert {k: v for k, v in same.items() if k not in ("stream", "stream_options")} == body


def test_batch_failures_are_unscored_and_an_expired_batch_resumes(ran: Path, config_file: Path, server, capsys):
    server.script(JUDGE, Reply(status=500, error_message="overloaded"), Reply("not json"))
    server.batch.expire_after = 3
    assert rejudge(config_file, "--run", "last", "--batch", "--poll", "0") == 0
    captured = capsys.readouterr()
    assert "Stored 3 verdict version(s) from the batch: 2 unscored (1 request(s) failed)" in captured.out
    assert "1 request(s) did not run" in captured.err
    store = Store.open(ran)
    try:
        newest = [j for s in store.sessions() for j in store.session(s.id).judgments if j.version == 2]
    finally:
        store.close()
    errors = sorted(j.error or "" for j in newest if j.score is None)
    assert errors[0].startswith("batch request failed: HTTP 500: overloaded")
    assert errors[1].startswith("judge reply could not be parsed")

    server.batch.expire_after = None
    assert rejudge(config_file, "--run", "last", "--batch", "--poll", "0") == 0
    assert "Stored 1 verdict version(s)" in capsys.readouterr().out
    assert [v[2] for v in versions(ran)] == [1, 2] * 4


def test_a_batch_that_fails_validation_stores_nothing(ran: Path, config_file: Path, server, capsys):
    server.batch.validation_error = "line 1: bad model"
    before = dump(ran)
    assert rejudge(config_file, "--run", "last", "--batch", "--poll", "0") == 2
    err = capsys.readouterr().err
    assert "failed validation" in err and "bad model" in err and "nothing was stored" in err
    assert dump(ran) == before


def test_batch_file_then_ingest(ran: Path, config_file: Path, tmp_path: Path, capsys):
    requests = tmp_path / "requests.jsonl"
    assert rejudge(config_file, "--run", "last", "--batch-file", str(requests)) == 0
    assert "Wrote 4 request(s)" in capsys.readouterr().out
    lines = [json.loads(line) for line in requests.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 4 and all(line["url"] == "/v1/chat/completions" for line in lines)
    assert all("stream" not in line["body"] and line["body"]["response_format"] for line in lines)

    # What `vllm run-batch` writes: one result per request, in any order.
    results = tmp_path / "results.jsonl"
    results.write_text(
        "".join(
            json.dumps(
                {
                    "id": f"r{i}",
                    "custom_id": line["custom_id"],
                    "response": {
                        "status_code": 200,
                        "request_id": f"q{i}",
                        "body": {
                            "model": "vllm-judge",
                            "choices": [{"index": 0, "message": {"role": "assistant", "content": verdict(1)}}],
                            "usage": {"prompt_tokens": 10, "completion_tokens": 5},
                        },
                    },
                    "error": None,
                }
            )
            + "\n"
            for i, line in enumerate(reversed(lines))
        ),
        encoding="utf-8",
    )
    stranger = tmp_path / "stranger.jsonl"
    stranger.write_text(results.read_text(encoding="utf-8").replace(lines[0]["custom_id"], "someone-else-7"), "utf-8")
    before = dump(ran)
    assert main(["rejudge", "--config", str(config_file), "--ingest", str(stranger)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'someone-else-7' is not one of the requests" in err
    assert dump(ran) == before

    assert main(["rejudge", "--config", str(config_file), "--ingest", str(results)]) == 0
    assert "Stored 4 verdict version(s)" in capsys.readouterr().out
    assert [v[3] for v in versions(ran) if v[2] == 2] == [pytest.approx(0.2)] * 4
    assert main(["rejudge", "--config", str(config_file), "--ingest", str(results)]) == 0
    assert "4 result(s) were already stored" in capsys.readouterr().out
    assert len(versions(ran)) == 8


def test_a_batch_left_waiting_is_polled_again_not_sent_twice(ran: Path, config_file: Path, server, monkeypatch, capsys):
    from ragtui.cli import rejudge_command

    server.batch.polls_before_done = 3

    def interrupted(status) -> None:  # noqa: ANN001 - the operator presses Ctrl-C while it waits
        raise KeyboardInterrupt

    monkeypatch.setattr(rejudge_command, "_print_status", interrupted)
    assert rejudge(config_file, "--run", "last", "--batch", "--poll", "0") == 130
    assert len(server.batch.batches) == 1 and len(versions(ran)) == 4
    monkeypatch.undo()
    assert rejudge(config_file, "--run", "last", "--batch", "--poll", "0") == 0
    assert "resuming job" in capsys.readouterr().out
    assert len(server.batch.batches) == 1  # the same batch, polled to the end
    assert [v[2] for v in versions(ran)] == [1, 2] * 4
