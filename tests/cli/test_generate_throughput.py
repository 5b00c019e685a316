"""`ragtui scenarios generate` on an endpoint with several slots, against the fake server: items
are written at once, and the drafts, the counts, the budget's stop and every request (so the reply
cache) are those of one item at a time; a reply cut off at the token limit is asked again once
with a larger limit before the item is dropped; the progress line counts as it goes."""

# ruff: noqa: F811 (the fixtures of test_scenarios_generate, imported by name)

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from types import SimpleNamespace

from ragtui.cli.generate_command import slots_for
from ragtui.cli.output import LineProgress
from ragtui.core.config.settings import Config, EmbeddedConfig
from ragtui.core.content.scenarios import load_scenarios
from stand_ins.fake_openai import Gate, Reply

from ..conftest import JUDGE
from .test_generate_proofs import one_page, writes
from .test_scenarios_generate import config_path, generate, help_folder, schema_name, writer  # noqa: F401


def with_concurrency(config_path: Path, slots: int) -> Path:
    text = config_path.read_text(encoding="utf-8")
    config_path.write_text(text.replace("max_turns = 1\n", f"max_turns = 1\nconcurrency = {slots}\n"), encoding="utf-8")
    return config_path


def test_items_are_written_at_once_on_a_server_with_several_slots(server, help_folder, config_path, tmp_path):
    base = writer()
    gate, second = Gate(), threading.Event()
    seen: list[str] = []

    def respond(body: dict) -> Reply:
        reply = base(body)
        if schema_name(body) == "scenario":
            seen.append(body["messages"][-1]["content"])
            if len(seen) == 1:
                return Reply(reply.text, gate=gate)  # the first item's writer "thinks"...
            second.set()  # ...while the next item's writer is asked
        return reply

    server.set_default(JUDGE, respond)
    with_concurrency(config_path, 3)
    result: list[int] = []
    run = threading.Thread(
        target=lambda: result.append(
            generate(config_path, help_folder, tmp_path / "c.toml", "--n", "3", "--kinds", "factual")
        )
    )
    run.start()
    try:
        assert second.wait(60), "the second item waited for the first: items were not written at once"
    finally:
        gate.open()
        run.join(120)
    assert result == [0]


def summary_counts(printed: str) -> tuple[str, list[str]]:
    tally = next(line for line in printed.splitlines() if line.startswith("Generated ")).split(": ", 1)[1]
    return tally, [line for line in printed.splitlines() if line.startswith("  dropped ")]


def test_several_slots_write_what_one_slot_writes_asking_the_same_requests(
    server, help_folder, config_path, tmp_path, capsys
):
    server.set_default(JUDGE, writer())
    runs = []
    for slots in (1, 4):
        before = len(server.chat_requests(JUDGE))
        with_concurrency(config_path, slots)
        out = tmp_path / f"slots{slots}.toml"
        assert generate(config_path, help_folder, out, "--n", "8") == 0
        requests = sorted(json.dumps(b["messages"], sort_keys=True) for b in server.chat_requests(JUDGE)[before:])
        scenarios = [(s.id, s.question, [e.text for e in s.expectations]) for s in load_scenarios(out, "en")]
        runs.append((scenarios, summary_counts(capsys.readouterr().out), requests))
        config_path.write_text(config_path.read_text(encoding="utf-8").replace(f"concurrency = {slots}\n", ""))
    (one, one_counts, one_requests), (four, four_counts, four_requests) = runs
    assert one == four and one_counts == four_counts
    assert one_requests == four_requests  # so the reply cache of one answers the other


def test_a_budget_stops_where_one_item_at_a_time_stops(server, help_folder, config_path, tmp_path, capsys):
    server.set_default(JUDGE, writer())  # 8 items spend about 7,000 tokens: 3,000 stops half way
    with_concurrency(config_path, 1)
    outcomes = {}
    for slots in (1, 4):
        config_path.write_text(
            re.sub(r"concurrency = \d+\n", f"concurrency = {slots}\n", config_path.read_text(encoding="utf-8"))
        )
        out = tmp_path / f"budget{slots}.toml"
        code = generate(config_path, help_folder, out, "--n", "8", "--budget", "3000")
        printed = capsys.readouterr().out
        assert "stopped at the token budget" in printed
        kept = [s.id for s in load_scenarios(out, "en")] if out.exists() else []
        outcomes[slots] = (code, kept, summary_counts(printed)[1])
    assert outcomes[1] == outcomes[4]
    assert any("not written: the token budget was spent" in line for line in outcomes[1][2])


def test_a_reply_cut_at_the_token_limit_is_asked_again_once_with_a_larger_limit(
    server, help_folder, config_path, tmp_path, capsys
):
    base = writer()

    def respond(body: dict) -> Reply:
        reply = base(body)
        if schema_name(body) == "scenario" and body.get("max_tokens") == 700:
            return Reply(reply.text[: len(reply.text) // 2], finish_reason="length")  # cut, as the limit cuts
        return reply

    server.set_default(JUDGE, respond)
    out = tmp_path / "cut.toml"
    assert generate(config_path, help_folder, out, "--n", "2", "--kinds", "factual") == 0
    limits = [b.get("max_tokens") for b in server.chat_requests(JUDGE) if schema_name(b) == "scenario"]
    assert sorted(limits) == [700, 700, 1400, 1400]
    assert len(load_scenarios(out, "en")) == 2

    def always_cut(body: dict) -> Reply:
        reply = base(body)
        return Reply(reply.text[:20], finish_reason="length") if schema_name(body) == "scenario" else reply

    server.set_default(JUDGE, always_cut)
    assert generate(config_path, help_folder, tmp_path / "cut2.toml", "--n", "2", "--kinds", "factual") == 1
    assert "dropped 2: the reply reached the token limit, even with a larger one" in capsys.readouterr().out


def test_the_progress_line_counts_kept_and_dropped_by_reason_as_it_goes(
    server, help_folder, config_path, tmp_path, capsys
):
    server.set_default(JUDGE, writer(follows="no"))  # every grounded item dropped: not entailed
    with_concurrency(config_path, 4)
    assert generate(config_path, help_folder, tmp_path / "p.toml", "--n", "6") in (0, 1)
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.startswith("generating ")]
    for line in lines:  # each line: as many items counted, or waiting to be, as done
        done = int(re.match(r"generating (\d+)/6", line).group(1))  # type: ignore[union-attr]
        kept, dropped = map(int, re.search(r"(\d+) kept · (\d+) dropped", line).groups())  # type: ignore[union-attr]
        waiting = re.search(r"(\d+) of the done waiting", line)
        assert kept + dropped + (int(waiting.group(1)) if waiting else 0) == done, line
    # every grounded item dropped: four not entailed, and the two-questions one before that, in
    # code (its reference says nothing of "anything else I should know")
    assert "5 dropped (4 not entailed, 1 one of two answered)" in lines[-1]
    tally = next(line for line in captured.out.splitlines() if line.startswith("Generated ")).split(": ", 1)[1]
    assert f"· {tally} · " in lines[-1]


def test_the_slots_are_the_server_s_concurrency_or_the_embedded_model_s_parallel() -> None:
    config = Config(concurrency=3, embedded=EmbeddedConfig(parallel=0))
    server = SimpleNamespace(endpoint=SimpleNamespace(embedded=False))
    embedded = SimpleNamespace(endpoint=SimpleNamespace(embedded=True))
    assert slots_for(config, server) == 3  # type: ignore[arg-type]
    assert slots_for(config, embedded) == 1  # type: ignore[arg-type]  # its default slots serve dialogues
    config.embedded.parallel = 4
    assert slots_for(config, embedded) == 4  # type: ignore[arg-type]


def test_items_done_ahead_of_an_earlier_one_are_said_while_it_waits(server, config_path, tmp_path, capsys, monkeypatch):
    """The first item's wrong answer is the reference of a later item of its document: while it
    waits, the later items that finish are not counted yet (counts stay in plan order), but the
    progress line says they are done, so a long wait is not a silent one."""
    monkeypatch.setattr(LineProgress, "EVERY_S", 0.0)  # every update printed
    # a sentence for each kind: a fact, and a case with its steps (procedural and conditional)
    folder = one_page(
        tmp_path,
        "Shipping",
        "Orders arrive in 2 to 4 days. If you order before noon, open My orders and select Express.",
    )
    arrives = {"question": "When does my order arrive?", "reference": "Orders arrive in 2 to 4 days."}
    base = writes({**arrives, "quote": arrives["reference"]})

    def respond(body: dict) -> Reply:
        if schema_name(body) == "scenario" and "how to do something" in body["messages"][-1]["content"]:
            return Reply(json.dumps(arrives))  # dropped: not written from the steps it was asked for
        return base(body)

    server.set_default(JUDGE, respond)
    kinds = "factual,procedural,conditional"
    assert generate(config_path, folder, tmp_path / "w.toml", "--n", "3", "--kinds", kinds) in (0, 1)
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("generating ")]
    # the done one is on the bar (1/3), not yet in the counts (0 kept · 0 dropped)
    waiting = [line for line in lines if "1 of the done waiting to be counted in plan order" in line]
    assert waiting[0].startswith("generating 1/3") and "0 kept · 0 dropped" in waiting[0]
    assert "waiting" not in lines[-1] and lines[-1].startswith("generating 3/3")
