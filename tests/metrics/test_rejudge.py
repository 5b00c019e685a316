"""`ragtui rejudge`: a new verdict version for every turn of a run (old ones kept), online with
resume, through the fake server's Batch API, and as a request file for `vllm run-batch` with
`--ingest`; bad input is one line and changes nothing."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.store.store import Store
from stand_ins.fake_openai import Reply, completion_body, level_reply

from ..conftest import JUDGE, check_answers, check_line, copy_of, endpoint_toml, verdict


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 2\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url), encoding="utf-8"
    )
    return path


@pytest.fixture
def ran(config_file: Path, server, recorded_pair: Path) -> Path:
    """Two stored 2-turn dialogues, every verdict 4/5 (0.80), in the config's database (a copy of
    the recorded run, which every test here re-judges); the fake server's log clear."""
    return copy_of(recorded_pair, config_file.parent / "runs.db")


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
    source = Path(__file__).parents[2] / "prompts" / "en" / "judge_rubric.toml"
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
        (["--run", "nope"], "no run 'nope' in database"),
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


def test_a_prompt_file_that_is_not_utf8_is_one_line_naming_it(ran: Path, config_file: Path, tmp_path: Path, capsys):
    before = dump(ran)
    latin1 = tmp_path / "judge.toml"
    latin1.write_bytes('[rubric]\nsystem = """Évaluez la réponse."""\n'.encode("latin-1"))
    assert rejudge(config_file, "--run", "last", "--prompt", str(latin1)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unexpected" not in err
    assert f"judge prompt {latin1} is not UTF-8 text (byte 0xc9 on line 2) — save the file as UTF-8" in err
    assert dump(ran) == before


CHECK_ID = re.compile(r"^ragtui-(\d+)-(\d+)-(\d\d)-([a-z_]+)$")
STREAMING = ("stream", "stream_options")


def newest(db: Path, version: int) -> list:
    """The rubric verdicts of ``version``, in session and turn order."""
    store = Store.open(db)
    try:
        found = [j for s in store.sessions() for j in store.session(s.id).judgments if j.version == version]
    finally:
        store.close()
    return sorted((j for j in found if j.metric == "rubric"), key=lambda j: (j.session_id, j.turn))


def same_verdict(judgment) -> dict:
    """What must be equal between an online and a batch verdict of the same turn: everything
    but the job tag and the latency (a batch does not report one)."""
    details = {k: v for k, v in judgment.details.items() if k != "rejudge"}
    return {
        "score": judgment.score,
        "details": details,
        "prompt": judgment.prompt,
        "raw_reply": judgment.raw_reply,
        "model": judgment.model,
        "error": judgment.error,
        "attempts": judgment.attempts,
    }


def test_batch_asks_every_online_check_and_ingests_the_online_verdict(ran: Path, config_file: Path, server, capsys):
    server.set_default(JUDGE, check_answers(3, polite=0.7))
    # A fit for this judge and prompt: the online re-judgment applies it, so must the batch's.
    from ragtui.core.config.settings import load_config
    from ragtui.core.judge_quality.fit import Fit, cross_validate, prompt_fingerprint
    from ragtui.core.judge_quality.fit_store import save_fit
    from ragtui.core.judge_quality.rejudge import checked_rubric

    fingerprint = prompt_fingerprint(checked_rubric(load_config(config_file).prompts, "en"))
    store = Store.open(ran)
    try:
        stored_fit = Fit("rubric", JUDGE, fingerprint, "isotonic", [0.5, 1.0], [0.3, 0.9])
        save_fit(store, stored_fit, cross_validate(False, [0.4, 0.6, 0.5], [0.0, 1.0, 0.5]), "data.jsonl", None)
    finally:
        store.close()
    before = len(server.chat_requests(JUDGE))
    assert rejudge(config_file, "--run", "last") == 0
    online = server.chat_requests(JUDGE)[before:]
    capsys.readouterr()
    assert rejudge(config_file, "--run", "last", "--batch", "--poll", "0") == 0
    captured = capsys.readouterr()
    batch = server.batch.bodies
    assert "batch in_progress" in captured.err and f"batch completed: {len(batch)}/{len(batch)} done" in captured.err
    assert "Stored 4 verdict version(s) from the batch: 0 unscored" in captured.out

    # One request per check the online judge asked — the six probes and one per claim of each
    # answer — each equal to the online request minus streaming, and asking for log-probabilities.
    assert len(batch) == len(online) > 4 * 6
    unstreamed = [{k: v for k, v in r.items() if k not in STREAMING} for r in online]
    assert sorted(map(json.dumps, batch)) == sorted(map(json.dumps, unstreamed))
    assert all(b["logprobs"] is True and b["top_logprobs"] == 20 and b["max_tokens"] == 1 for b in batch)
    assert all("stream" not in b and "stream_options" not in b for b in batch)
    uploaded = next(f for f in server.batch.files.values() if f["purpose"] == "batch")["content"].decode()
    ids = [json.loads(line)["custom_id"] for line in uploaded.splitlines()]
    parts = [CHECK_ID.match(i) for i in ids]
    assert all(parts) and len(set(ids)) == len(ids)
    assert len({(m[1], m[2]) for m in parts}) == 4  # one job, four turns (bot message ids)
    assert {m[4] for m in parts} >= {"context_answers", "says_unknown", "addresses", "complete", "polite", "claim"}

    # The ingested verdict of every turn is the online verdict of the same answers.
    online_verdicts, batch_verdicts = newest(ran, 2), newest(ran, 3)
    assert [j.score for j in batch_verdicts] == [pytest.approx(j.score) for j in online_verdicts]
    assert all(j.score is not None for j in batch_verdicts)
    assert [same_verdict(j) for j in batch_verdicts] == [same_verdict(j) for j in online_verdicts]
    assert all(j.details["probes"][0]["source"] == "probability" for j in batch_verdicts)
    assert all(j.details["fit"]["kind"] == "isotonic" for j in batch_verdicts)
    tokens = (
        "SELECT prompt_tokens, completion_tokens FROM judgments WHERE metric = 'rubric' AND version = ? "
        "ORDER BY session_id, turn"
    )
    conn = sqlite3.connect(ran)
    try:
        assert conn.execute(tokens, [3]).fetchall() == conn.execute(tokens, [2]).fetchall()
    finally:
        conn.close()
    assert {j.details["rejudge"]["batch"] for j in batch_verdicts} == {"batch"}


def plain_yes_no(body: dict) -> Reply:
    """A server that sends no log-probabilities: the sampled word only."""
    return Reply("no" if "competitor" in check_line(body) else "yes")


def llamacpp_shaped(body: dict) -> Reply:
    """Older llama.cpp: the alternatives as ``completion_probabilities`` beside the choices."""
    return level_reply(
        {"yes": 0.3, "no": 0.7} if "every part" in check_line(body) else {"yes": 0.8, "no": 0.2}, "llamacpp"
    )


@pytest.mark.parametrize(("responder", "source"), [(plain_yes_no, "sampled"), (llamacpp_shaped, "probability")])
def test_batch_verdicts_equal_online_ones_whatever_the_servers_probabilities(
    ran: Path, config_file: Path, server, responder, source
):
    server.set_default(JUDGE, responder)
    assert rejudge(config_file, "--run", "last") == 0
    assert rejudge(config_file, "--run", "last", "--batch", "--poll", "0") == 0
    online, batch = newest(ran, 2), newest(ran, 3)
    assert all(j.score is not None for j in batch)
    assert {p["source"] for j in batch for p in j.details["probes"]} == {source}
    assert [same_verdict(j) for j in batch] == [same_verdict(j) for j in online]


def test_a_batch_with_an_edited_prompt_sends_the_online_whole_verdict_requests(
    ran: Path, config_file: Path, server, tmp_path: Path, capsys
):
    # With --prompt, online re-judging runs the whole-verdict rubric (one request a turn): so does
    # its batch; a request the batch never ran stays pending and goes out with the next batch.
    prompt = tmp_path / "judge.toml"
    prompt.write_text((Path(__file__).parents[2] / "prompts" / "en" / "judge_rubric.toml").read_text("utf-8"))
    before = len(server.chat_requests(JUDGE))
    server.set_default(JUDGE, Reply(verdict(3)))
    assert rejudge(config_file, "--run", "last", "--prompt", str(prompt)) == 0
    online = server.chat_requests(JUDGE)[before:]
    capsys.readouterr()
    server.batch.expire_after = 3
    assert rejudge(config_file, "--run", "last", "--prompt", str(prompt), "--batch", "--poll", "0") == 0
    captured = capsys.readouterr()
    assert "Stored 3 verdict version(s) from the batch: 0 unscored" in captured.out
    assert "1 request(s) did not run" in captured.err
    server.batch.expire_after = None
    assert rejudge(config_file, "--run", "last", "--prompt", str(prompt), "--batch", "--poll", "0") == 0
    assert "Stored 1 verdict version(s)" in capsys.readouterr().out
    assert [v[3] for v in versions(ran) if v[2] == 3] == [pytest.approx(0.6)] * 4
    batch = server.batch.bodies
    assert len(batch) == 4 and all(b["response_format"] for b in batch)
    for body in batch:
        same = next(r for r in online if r["messages"] == body["messages"])
        assert {k: v for k, v in same.items() if k not in STREAMING} == body


def test_failed_expired_and_unparsable_checks_leave_the_turn_unscored(ran: Path, config_file: Path, server, capsys):
    state = {"turn": 0}

    def answers(body: dict) -> Reply:
        line = check_line(body)
        if "information needed" in line:  # every turn's checks start with this one
            state["turn"] += 1
        if state["turn"] == 1 and "polite" in line:
            return Reply(status=500, error_message="overloaded")
        if state["turn"] == 2 and "every part" in line:
            return Reply("(unparsable)")
        return check_answers(4)(body)

    server.set_default(JUDGE, answers)
    requests = Path(config_file.parent / "count.jsonl")
    assert rejudge(config_file, "--run", "last", "--model", "other", "--batch-file", str(requests)) == 0
    total = len(requests.read_text(encoding="utf-8").splitlines())
    server.batch.expire_after = total - 2  # the last turn's last two checks never run
    assert rejudge(config_file, "--run", "last", "--batch", "--poll", "0") == 0
    captured = capsys.readouterr()
    assert (
        "Stored 4 verdict version(s) from the batch: 3 unscored "
        "(1 with a request that failed, 1 with checks that did not run)" in captured.out
    )
    errors = [j.error for j in newest(ran, 2)]
    assert errors[0].startswith("the polite check is unscored: batch request failed: HTTP 500: overloaded")
    assert errors[1].startswith("the complete check is unscored: the reply names no allowed level")
    assert errors[2] is None
    assert "check is unscored: it did not run (batch_expired" in errors[3]
    assert "(2 of the turn's" in errors[3]
    assert [j.score for j in newest(ran, 2)][2] == pytest.approx(0.8)

    # Nothing is left pending: the same command again sends nothing and stores nothing.
    batches = len(server.batch.batches)
    assert rejudge(config_file, "--run", "last", "--batch", "--poll", "0") == 0
    assert len(server.batch.batches) == batches and len(versions(ran)) == 8


def test_a_batch_that_fails_validation_stores_nothing(ran: Path, config_file: Path, server, capsys):
    server.batch.validation_error = "line 1: bad model"
    before = dump(ran)
    assert rejudge(config_file, "--run", "last", "--batch", "--poll", "0") == 2
    err = capsys.readouterr().err
    assert "failed validation" in err and "bad model" in err and "nothing was stored" in err
    assert dump(ran) == before


def vllm_results(lines: list[dict], responder) -> str:
    """What `vllm run-batch` writes for ``lines``: one result per request, in another order, the
    completion carrying the log-probabilities the request asked for."""
    return "".join(
        json.dumps(
            {
                "id": f"r{i}",
                "custom_id": line["custom_id"],
                "response": {
                    "status_code": 200,
                    "request_id": f"q{i}",
                    "body": completion_body(line["body"], responder(line["body"]), f"cmpl-{i}"),
                },
                "error": None,
            }
        )
        + "\n"
        for i, line in enumerate(reversed(lines))
    )


def test_batch_file_then_ingest(ran: Path, config_file: Path, tmp_path: Path, capsys):
    requests = tmp_path / "requests.jsonl"
    assert rejudge(config_file, "--run", "last", "--batch-file", str(requests)) == 0
    lines = [json.loads(line) for line in requests.read_text(encoding="utf-8").splitlines()]
    assert f"Wrote {len(lines)} request(s) for 4 turn(s), one per yes/no check" in capsys.readouterr().out
    assert all(line["url"] == "/v1/chat/completions" and CHECK_ID.match(line["custom_id"]) for line in lines)
    assert all("stream" not in line["body"] and line["body"]["logprobs"] is True for line in lines)

    results = tmp_path / "results.jsonl"
    results.write_text(vllm_results(lines, check_answers(2)), encoding="utf-8")
    stranger = tmp_path / "stranger.jsonl"
    stranger.write_text(results.read_text(encoding="utf-8").replace(lines[0]["custom_id"], "someone-else-7"), "utf-8")
    twice = tmp_path / "twice.jsonl"
    twice.write_text(results.read_text(encoding="utf-8") * 2, "utf-8")
    before = dump(ran)
    for bad, message in ((stranger, "'someone-else-7' is not one of the requests"), (twice, "was already answered")):
        assert main(["rejudge", "--config", str(config_file), "--ingest", str(bad)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err and "nothing was stored" in err
        assert dump(ran) == before

    # A file missing one check of the first turn: that turn is unscored, naming it; the rest scored.
    first_turn = CHECK_ID.match(lines[0]["custom_id"])[2]
    dropped = next(line for line in lines if CHECK_ID.match(line["custom_id"])[2] == first_turn)
    partial = tmp_path / "partial.jsonl"
    partial.write_text(vllm_results([line for line in lines if line is not dropped], check_answers(2)), "utf-8")
    assert main(["rejudge", "--config", str(config_file), "--ingest", str(partial)]) == 0
    assert "Stored 4 verdict version(s)" in capsys.readouterr().out
    got = newest(ran, 2)
    assert sorted(j.score is None for j in got) == [False, False, False, True]
    missing = next(j for j in got if j.score is None)
    assert f"no result for it in {partial}" in missing.error and "unscored" in missing.error
    assert [j.score for j in got if j.score is not None] == [pytest.approx(0.4)] * 3

    # The whole file afterwards, or the same one again: nothing new.
    for again in (results, partial):
        assert main(["rejudge", "--config", str(config_file), "--ingest", str(again)]) == 0
        assert "Stored 0 verdict version(s)" in capsys.readouterr().out
    assert len(versions(ran)) == 8


def test_a_crash_mid_ingest_never_stores_a_verdict_twice(ran: Path, config_file: Path, tmp_path: Path, monkeypatch):
    from ragtui.core.config.settings import load_config
    from ragtui.core.judge_quality.rejudge_batch import ingest, parse_results
    from ragtui.core.store import rejudge_jobs

    requests = tmp_path / "requests.jsonl"
    assert rejudge(config_file, "--run", "last", "--batch-file", str(requests)) == 0
    lines = [json.loads(line) for line in requests.read_text(encoding="utf-8").splitlines()]
    content = vllm_results(lines, check_answers(5))
    prompts = load_config(config_file).prompts
    marked = {"n": 0}
    real_mark = rejudge_jobs.mark_turn_judged

    def dies_on_the_second_mark(*args) -> None:  # noqa: ANN002 - the process dies here
        marked["n"] += 1
        if marked["n"] == 2:
            raise KeyboardInterrupt  # after the second turn's verdict, before its requests' mark
        real_mark(*args)

    monkeypatch.setattr(rejudge_jobs, "mark_turn_judged", dies_on_the_second_mark)
    store = Store.open(ran)
    try:
        with pytest.raises(KeyboardInterrupt):
            ingest(store, parse_results(content, "r.jsonl"), "r.jsonl", prompts_dir=prompts)
    finally:
        store.close()
    assert sum(1 for v in versions(ran) if v[2] == 2) == 2
    monkeypatch.undo()
    store = Store.open(ran)
    try:
        report = ingest(store, parse_results(content, "r.jsonl"), "r.jsonl", prompts_dir=prompts)
        assert (report.stored, report.already) == (2, 2)
        assert not rejudge_jobs.job_requests(store, 1, pending_only=True)
    finally:
        store.close()
    assert [v[2] for v in versions(ran)] == [1, 2] * 4 and all(v[3] == pytest.approx(1.0) for v in versions(ran)[1::2])


def test_ingest_refuses_requests_the_judge_would_no_longer_ask(ran: Path, config_file: Path, tmp_path: Path, capsys):
    requests = tmp_path / "requests.jsonl"
    assert rejudge(config_file, "--run", "last", "--batch-file", str(requests)) == 0
    lines = [json.loads(line) for line in requests.read_text(encoding="utf-8").splitlines()]
    results = tmp_path / "results.jsonl"
    results.write_text(vllm_results(lines, check_answers(2)), encoding="utf-8")
    edited = tmp_path / "prompts"
    shutil.copytree(Path(__file__).parents[2] / "prompts", edited)
    probes = edited / "en" / "judge_probes.toml"
    probes.write_text(probes.read_text(encoding="utf-8").replace('system = """', 'system = """EDITED. '), "utf-8")
    other = tmp_path / "other.toml"
    other.write_text(f'prompts = "{edited}"\n' + config_file.read_text(encoding="utf-8"), "utf-8")
    capsys.readouterr()
    before = dump(ran)
    assert main(["rejudge", "--config", str(other), "--ingest", str(results)]) == 2
    err = capsys.readouterr().err
    assert "are not the ones the judge asks now" in err and "nothing was stored" in err
    assert dump(ran) == before


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
