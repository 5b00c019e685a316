"""Steady scoring: a judge keeps reading token probabilities unless the server names the option
it rejects. A stray 400 (context length, a gateway's budget or policy refusal, an error body that
echoes the request) is that call's error only; every verdict says how it was read; a run whose
scoring changed says so; ``compare`` refuses runs read differently. Real HTTP, fake server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.core.store.store import Store
from ragtui.core.types.errors import EndpointError
from ragtui.core.types.judgments import how_read
from stand_ins.fake_openai import Reply, level_reply

from ..conftest import JUDGE, check_answers, endpoint_toml

RATE = [{"role": "user", "content": "rate"}]
STRAY = {
    "context length": "This model's maximum context length is 2048 tokens. However, you requested 2101 tokens.",
    "budget": "Budget has been exceeded! Current cost: 10.2, Max budget: 10.0",
    "policy": "The request was rejected by the gateway's content policy.",
}


def stray_400(message: str) -> Reply:
    """A 400 whose message names no option, in a body that echoes the request (options and all),
    as gateways do."""
    body = {"error": {"message": message, "type": "invalid_request_error", "param": None}}
    body["request"] = {"model": JUDGE, "logprobs": True, "top_logprobs": 20, "stream_options": {}}
    return Reply(status=400, raw=json.dumps(body), content_type="application/json")


@pytest.fixture
async def pool():
    pool = ClientPool()
    yield pool
    await pool.aclose()


@pytest.mark.parametrize("kind", sorted(STRAY))
async def test_a_400_naming_no_option_fails_that_call_and_later_calls_keep_asking_for_probabilities(
    pool, config, server, kind
):
    client = pool.client_for(resolve_endpoints(config)["judge"])
    server.script(JUDGE, stray_400(STRAY[kind]), level_reply({"4": 0.7, "5": 0.3}))
    with pytest.raises(EndpointError) as failed:
        await client.complete(RATE, max_tokens=1, top_logprobs=20)
    assert STRAY[kind][:30] in str(failed.value)
    after = await client.complete(RATE, max_tokens=1, top_logprobs=20)
    assert not after.logprobs_dropped and after.logprobs
    bodies = server.chat_requests(JUDGE)
    assert len(bodies) == 2  # the stray 400 was not retried without an option
    assert all(b["logprobs"] is True and b["top_logprobs"] == 20 for b in bodies)


async def test_an_option_the_error_names_in_its_param_is_dropped_for_that_model_only(pool, config, server):
    endpoints = resolve_endpoints(config)
    judge = pool.client_for(endpoints["judge"])

    def picky(body: dict) -> Reply:
        if "logprobs" in body:
            error = {"error": {"message": "Unsupported parameter.", "param": "top_logprobs"}}
            return Reply(status=400, raw=json.dumps(error), content_type="application/json")
        return Reply("3")

    server.set_default(JUDGE, picky)
    assert (await judge.complete(RATE, max_tokens=1, top_logprobs=20)).logprobs_dropped
    # Another model behind the same server was never refused: it is still asked with the option.
    other = endpoints["bot"]
    server.set_default(other.model, level_reply({"3": 1.0}))
    completion = await pool.client_for(other).complete(RATE, max_tokens=1, top_logprobs=20)
    assert not completion.logprobs_dropped
    assert server.chat_requests(other.model)[-1]["logprobs"] is True


def test_how_a_verdict_was_read_is_found_in_its_level_questions():
    graded = {"distribution": {"yes": 0.8, "no": 0.2}, "mass": 0.99}
    probes = [{"check": "a", **graded, "source": "probability"}, {"check": "b", **graded, "source": "probability"}]
    assert how_read({"probes": probes}) == "probability"
    probes[1] = {"check": "b", "distribution": {}, "mass": None, "source": "sampled"}
    assert how_read({"probes": probes}) == "mixed"
    assert how_read({"trace": [{"result": {"distribution": {}, "mass": None, "source": "sampled"}}]}) == "sampled"
    assert how_read({"scores": {"overall": 4}}) is None  # a JSON verdict asks no level question


# -- whole runs through the CLI -------------------------------------------------------------


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 220)


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 1\nconcurrency = 1\ndatabase = "runs.db"\ndialogue_metrics = []\n'
        + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


def run(config_file: Path) -> int:
    return main(["run", "--config", str(config_file), "-s", "id-linking", "-s", "useless", "-p", "calm"])


def reads(config_file: Path) -> list[str | None]:
    store = Store.open(config_file.parent / "runs.db")
    try:
        rows = store._db.execute("SELECT details FROM judgments WHERE score IS NOT NULL ORDER BY id").fetchall()
    finally:
        store.close()
    return [json.loads(r[0]).get("read") for r in rows]


def after_request(n: int, first: Reply, then: object):
    """A judge answering its ``n``-th request with ``first``, every other with ``then``."""
    seen = {"count": 0}

    def respond(body: dict) -> Reply:
        seen["count"] += 1
        return first if seen["count"] == n else then(body)  # type: ignore[operator]

    return respond


def test_a_stray_400_mid_run_leaves_every_later_verdict_read_from_probabilities(config_file, server, capsys):
    # The first dialogue's third check meets a context-length 400: that verdict fails, the run goes on.
    server.set_default(JUDGE, after_request(3, stray_400(STRAY["context length"]), check_answers(4.5)))
    run(config_file)
    out = capsys.readouterr().out
    bodies = server.chat_requests(JUDGE)
    assert len(bodies) > 8  # the second dialogue was judged after the 400
    assert all(b.get("logprobs") is True for b in bodies)  # probabilities still asked for afterwards
    assert reads(config_file) and set(reads(config_file)) == {"probability"}
    assert "scoring changed" not in out


def test_a_run_whose_judge_stops_giving_probabilities_says_so_and_compare_refuses(config_file, server, capsys):
    server.set_default(JUDGE, check_answers(4.5))
    assert run(config_file) == 0
    capsys.readouterr()
    # Second run: from its 4th request on the server refuses logprobs, naming them.
    refusing = {"count": 0}
    answer = check_answers(4.5)

    def respond(body: dict) -> Reply:
        refusing["count"] += 1
        if refusing["count"] >= 4 and "logprobs" in body:
            return Reply(status=400, error_message="logprobs are not supported for this model")
        return answer(body)

    server.set_default(JUDGE, respond)
    run(config_file)
    out = capsys.readouterr().out
    assert "scoring changed during run" in out and "sampled" in out
    assert "mixed" in reads(config_file) or "sampled" in reads(config_file)

    assert main(["compare", "--config", str(config_file), "previous", "last"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "were not scored the same way" in err[0]
