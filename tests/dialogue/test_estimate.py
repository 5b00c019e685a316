"""`ragtui run --estimate`: tokens per role and cost from the prompts and past usage, without
reaching any model; after a run, the tokens it spent and their cost."""

from __future__ import annotations

import re
import socket
import sqlite3
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.config.settings import load_config
from ragtui.core.dialogue.estimate import estimate_run, price_for, spent
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.store import Store
from ragtui.core.types.errors import ConfigError

from ..conftest import endpoint_toml

PRICES = """
[prices]
fake-user = { input = 1.0, output = 2.0 }
fake-bot = { input = 1.0, output = 2.0 }
fake-judge = { input = 3.0, output = 6.0 }
"""


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_estimate_reaches_no_model_and_exits_0(tmp_path: Path, capsys):
    config = tmp_path / "ragtui.toml"
    config.write_text(
        'language = "en"\nmax_turns = 3\ndatabase = "never.db"\n'
        + endpoint_toml(f"http://127.0.0.1:{closed_port()}/v1")
        + PRICES,
        encoding="utf-8",
    )
    assert main(["run", "--estimate", "--config", str(config), "-s", "outage", "-p", "calm", "-p", "angry"]) == 0
    out = capsys.readouterr().out
    assert "Estimate for 2 dialogue(s), 3.0 turn(s) each (up to max_turns (3)); no model was called." in out
    # The simulator speaks in turns 2 and 3, and each of its messages gets a model check, a
    # step of its own.
    assert re.search(r"user\s+│ fake-user\s+│\s+4 │", out)
    assert re.search(r"user check\s+│ fake-user\s+│\s+4 │", out)
    calls = re.search(r"judge\s+│ fake-judge\s+│\s+(\d+) │", out)
    assert calls and int(calls.group(1)) >= 6 * 6  # six turns, each at least the six yes/no checks
    assert "assumed reply length" in out and "about $" in out
    assert not (tmp_path / "never.db").exists()


def test_a_run_reports_what_it_spent_and_the_next_estimate_learns_from_it(server, tmp_path: Path, capsys):
    config_file = tmp_path / "ragtui.toml"
    config_file.write_text(
        'language = "en"\nmax_turns = 3\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url) + PRICES,
        encoding="utf-8",
    )
    picks = ["-s", "outage", "-s", "refund-partial", "-p", "calm", "-p", "angry"]
    assert main(["run", "--config", str(config_file), *picks]) == 0
    out = capsys.readouterr().out
    assert "Tokens spent" in out and "Cost: $" in out

    config = load_config(config_file)
    endpoints = resolve_endpoints(config)
    store = Store.open(config.database)
    try:
        run_id = store.latest_run_id()
        assert run_id is not None
        actual = {r.role: r for r in spent(store, run_id, config.prices)}
        from ragtui.core.content.personas import load_personas
        from ragtui.core.content.scenarios import load_scenarios

        scenarios = [s for s in load_scenarios(config.scenarios, "en") if s.id in ("outage", "refund-partial")]
        personas = [p for p in load_personas(config.personas, "en") if p.name in ("calm", "angry")]
        planned = {r.role: r for r in estimate_run(config, endpoints, scenarios, personas, store, []).roles}
    finally:
        store.close()
    assert set(actual) == set(planned) == {"user", "user check", "bot", "judge"}
    # Every call is counted: 8 simulated customer messages, and the model check of each as a
    # step of its own; the turn verdicts' calls and the dialogue verdicts' calls.
    assert actual["user"].calls == 8
    assert actual["user check"].calls == 8
    db = sqlite3.connect(config.database)
    verdict_calls = sum(
        db.execute(f"SELECT SUM(attempts) FROM {table}").fetchone()[0] for table in ("judgments", "dialogue_judgments")
    )
    assert db.execute("SELECT SUM(attempts) FROM dialogue_judgments").fetchone()[0] > 0
    assert actual["judge"].calls == verdict_calls
    for role in planned:
        assert planned[role].calls == actual[role].calls
        assert planned[role].tokens_out == pytest.approx(actual[role].tokens_out)  # past mean × calls
        # Input is counted from the prompts with a character heuristic; the fake server counts
        # characters too, so this checks the walk through the prompts (±25%), not a tokenizer.
        assert 0.75 <= planned[role].tokens_in / actual[role].tokens_in <= 1.25
        assert "mean of" in planned[role].basis
        assert planned[role].cost is not None

    assert main(["run", "--estimate", "--config", str(config_file), *picks]) == 0
    assert "mean of 4 past dialogue(s)" in capsys.readouterr().out


def test_prices_are_checked_and_matched_to_dated_model_names(tmp_path: Path):
    prices = {"gpt-4o-mini": (0.15, 0.6), "gpt-4o": (2.5, 10.0)}
    assert price_for(prices, "gpt-4o-mini-2024-07-18") == (0.15, 0.6)
    assert price_for(prices, "gpt-4o-2024-08-06") == (2.5, 10.0)
    assert price_for(prices, "llama3") is None
    bad = tmp_path / "bad.toml"
    bad.write_text("[prices]\ngpt-4o = { input = -1, output = 2 }\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[prices.gpt-4o\] input must be 0 or more, got -1"):
        load_config(bad)
    bad.write_text("[prices]\ngpt-4o = { input = 1 }\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[prices.gpt-4o\]: missing key 'output'") as missing:
        load_config(bad)
    assert missing.value.hint == "prices are per million tokens, e.g. input = 0.15"


def test_statement_metrics_add_one_check_per_sentence_of_the_answer(tmp_path: Path):
    """answer_relevancy: statements + one check per statement + reason; faithfulness: claims +
    one check per claim. The statements are counted as the stand-in answer's sentences."""
    from ragtui.core.content.personas import load_personas
    from ragtui.core.content.scenarios import load_scenarios
    from ragtui.core.dialogue.estimate import MAX_STATEMENTS, statement_count

    assert statement_count("Open Settings. Tap Account > Linked services. Ok.") == 2  # "Ok." is too short
    assert statement_count("x" * 30) == 1
    config_file = tmp_path / "ragtui.toml"
    config_file.write_text(
        'language = "en"\nmax_turns = 1\n' + endpoint_toml(f"http://127.0.0.1:{closed_port()}/v1"), encoding="utf-8"
    )
    config = load_config(config_file)
    endpoints = resolve_endpoints(config)
    scenarios = [s for s in load_scenarios(config.scenarios, "en") if s.id == "outage"]
    personas = [p for p in load_personas(config.personas, "en") if p.name == "calm"]

    def judge_calls(metrics: list[str]) -> float:
        roles = {r.role: r for r in estimate_run(config, endpoints, scenarios, personas, None, metrics).roles}
        return roles["judge"].calls

    rubric = judge_calls([])
    relevancy = judge_calls(["answer_relevancy"]) - rubric
    faithfulness = judge_calls(["faithfulness"]) - rubric
    both = judge_calls(["answer_relevancy", "faithfulness"]) - rubric
    statements = relevancy - 2
    assert 1 <= statements <= MAX_STATEMENTS
    assert faithfulness == 1 + statements and both == relevancy + faithfulness


def test_customer_messages_kept_off_role_still_teach_the_estimate_their_length(server, tmp_path: Path):
    """An off-role customer message was still written by the simulator's model: its length
    counts for the next estimate instead of the assumed one."""
    config_file = tmp_path / "ragtui.toml"
    config_file.write_text(
        'language = "en"\nmax_turns = 2\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url), encoding="utf-8"
    )
    assert main(["run", "--config", str(config_file), "-s", "outage", "-p", "calm"]) == 0
    db = sqlite3.connect(tmp_path / "runs.db")
    with db:
        db.execute("UPDATE messages SET source = 'simulator_off_role' WHERE source = 'simulator'")
    written = db.execute(
        "SELECT AVG(completion_tokens), COUNT(*) FROM messages WHERE source = 'simulator_off_role'"
    ).fetchone()
    assert written[1] == 1
    config = load_config(config_file)
    store = Store.open(config.database)
    try:
        from ragtui.core.dialogue.estimate import past_output

        assert past_output(store, "user", resolve_endpoints(config)["user"].model) == (written[0], 1)
    finally:
        store.close()


def test_expectations_are_estimated_from_each_scenarios_own(tmp_path: Path):
    """A scenario without judged expectations (and no policy) adds no judge call for them; one
    with them adds its judged expectations' calls; a policy adds one call per answer."""
    import dataclasses

    from ragtui.core.config.expectation_items import parse_policies
    from ragtui.core.content.personas import load_personas
    from ragtui.core.content.scenarios import load_scenarios

    config_file = tmp_path / "ragtui.toml"
    config_file.write_text(
        'language = "en"\nmax_turns = 2\n' + endpoint_toml(f"http://127.0.0.1:{closed_port()}/v1"), encoding="utf-8"
    )
    config = load_config(config_file)
    endpoints = resolve_endpoints(config)
    outage = next(s for s in load_scenarios(config.scenarios, "en") if s.id == "outage")
    judged = [e for e in outage.expectations if not e.deterministic]
    assert judged, "the bundled scenario carries judged expectations"
    bare = dataclasses.replace(outage, expectations=())
    personas = [p for p in load_personas(config.personas, "en") if p.name == "calm"]

    def judge_calls(scenario, policies=()) -> float:
        estimate = estimate_run(
            dataclasses.replace(config, policies=policies), endpoints, [scenario], personas, None, []
        )
        return next(r for r in estimate.roles if r.role == "judge").calls

    with_expectations, without = judge_calls(outage), judge_calls(bare)
    assert with_expectations - without >= len(judged)
    policy = parse_policies([{"text": "asks for a password"}], "ragtui.toml")
    assert judge_calls(bare, policy) - without == pytest.approx(2.0)  # two answers, each asked
