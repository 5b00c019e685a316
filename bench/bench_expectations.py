"""What expectations add to a dialogue: judge calls, prompt tokens and seconds, with and without
early stop, as ratios against the dialogue itself measured in the same run.

1. Baseline: ``--dialogues`` dialogues × 3 turns through ragtui's engine (simulated customer, bot,
   the rubric's yes/no checks per turn) against the fake OpenAI-compatible server, every reply
   ``--latency`` seconds late. Counts the chat requests and the prompt tokens the server saw
   (characters / 4, the fake server's own rule) and the wall time.
2. Expectations on the same stored dialogues: ``--expect`` judged expectations and one policy per
   dialogue, through ``ExpectationJudge.check`` with the dialogue's text as the shared prefix,
   (a) with early stop — an expectation is asked about no further answer once an answer met it
   (a prohibition once an answer broke it) — and (b) every answer asked about every expectation.
   The fake judge says yes to the first expectation at the 2nd answer and no to everything else,
   so early stop saves calls on one expectation per dialogue, as in a run where most are met late
   or missed.
3. With ``--embedded``: the checks of (2a) on the embedded model for one dialogue, seconds and
   tokens (the server's own counts), to show what a check costs on the offline judge.

Nothing here asserts: it prints figures. Usage:
``python bench/bench_expectations.py [--dialogues 10] [--expect 3] [--latency 0.02] [--embedded]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ragtui.core.config.settings import Config, EndpointConfig
from ragtui.core.content.personas import load_personas
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.dialogue.engine import Engine
from ragtui.core.metrics.dialogue.expectation_judge import MET_AT, AnswerToCheck, ExpectationJudge
from ragtui.core.models.endpoints import Endpoint, resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.core.store.store import Store
from ragtui.core.types.expectations import Expectation
from stand_ins.fake_openai import FakeOpenAIServer, Reply, demo_responder, level_reply

USER, BOT, JUDGE = "bench-user", "bench-bot", "bench-judge"
MET_MARK = "E1"  # the expectation the fake judge finds met, at the 2nd answer


def expectations(count: int) -> list[Expectation]:
    judged = [Expectation(f"E{i + 1}", f"says fact number {i + 1}") for i in range(count)]
    return [*judged, Expectation("P1", "never names a competitor", polarity="must_not", origin="policy")]


def tokens(body: dict) -> int:
    return len(json.dumps(body.get("messages"), ensure_ascii=False)) // 4


def responder(latency: float):
    def respond(body: dict) -> Reply:
        messages = body.get("messages") or []
        last = messages[-1]["content"] if messages else ""
        if "### STATEMENT ###" in last:
            # Met only for E1 at turn 2; the answer under check carries its turn as "[2]".
            met = f"fact number {MET_MARK[1:]}." in last and "ANSWER-TURN-2" in last
            reply = level_reply({"yes": 0.9, "no": 0.1} if met else {"yes": 0.1, "no": 0.9})
        else:
            reply = demo_responder(body)
        reply.delay_first = latency
        return reply

    return respond


@dataclass
class Cost:
    calls: int = 0
    tokens: int = 0
    seconds: float = 0.0

    def ratio(self, base: Cost) -> str:
        return (
            f"calls {self.calls} ({self.calls / base.calls:.2f}×)  tokens {self.tokens} ({self.tokens / base.tokens:.2f}×)"
            f"  seconds {self.seconds:.2f} ({self.seconds / base.seconds:.2f}×)"
        )


def config_for(server: FakeOpenAIServer, folder: Path) -> Config:
    cfg = Config(language="en", database=folder / "bench.db")
    cfg.endpoint = EndpointConfig(base_url=server.base_url, timeout=30.0, max_retries=0)
    cfg.roles["user"].model = USER
    cfg.roles["bot"].model = BOT
    cfg.roles["judge"].model = JUDGE
    cfg.max_turns = 3
    return cfg


async def baseline(config: Config, dialogues: int) -> tuple[Cost, list[list[tuple[int, str, str]]]]:
    """Run the dialogues; their cost and each one's (turn, customer, bot) answers."""
    store = Store.open(config.database)
    engine = Engine(config, resolve_endpoints(config), store)
    scenario = load_scenarios(config.scenarios, "en")[0]
    persona = next(p for p in load_personas(config.personas, "en") if p.name == "calm")
    made = [engine.new_dialogue(scenario, persona, max_turns=3) for _ in range(dialogues)]
    started = time.perf_counter()
    async for _event in engine.run_many(made, concurrency=1):
        pass
    seconds = time.perf_counter() - started
    answers = []
    for d in made:
        session = store.session(d.session_id)
        turns, customer = [], ""
        for m in session.messages:
            if m.role == "user":
                customer = m.text
            else:
                turns.append((len(turns) + 1, customer, m.text))
        answers.append(turns)
    await engine.aclose()
    store.close()
    return Cost(0, 0, seconds), answers


async def check_all(judge: ExpectationJudge, dialogues: list, expected: list[Expectation], early_stop: bool) -> float:
    started = time.perf_counter()
    for turns in dialogues:
        prefix = "\n".join(f"[{t}] Customer: {c}\n[{t}] Support: {b}" for t, c, b in turns)
        for expectation in expected:
            for turn, customer, bot in turns:
                answer = AnswerToCheck(turn, customer, f"ANSWER-TURN-{turn} {bot}", [])
                check = await judge.check(expectation, answer, shared_prefix=prefix)
                if early_stop and check.p_yes is not None and check.p_yes >= MET_AT:
                    break
    return time.perf_counter() - started


def measured(server: FakeOpenAIServer, since: int, seconds: float, only_checks: bool) -> Cost:
    bodies = server.chat_requests()[since:]
    if only_checks:
        bodies = [b for b in bodies if "### STATEMENT ###" in (b.get("messages") or [{}])[-1].get("content", "")]
    return Cost(len(bodies), sum(tokens(b) for b in bodies), seconds)


async def embedded(dialogue: list[tuple[int, str, str]], expected: list[Expectation]) -> None:
    from ragtui.core.models.local_model import MODEL_ALIAS, LocalModel, LocalModelSettings

    with LocalModel(LocalModelSettings()) as model:
        endpoint = Endpoint(
            role="judge",
            base_url=model.start(),
            model=MODEL_ALIAS,
            temperature=0.0,
            api_key_env="",
            api_key=model.token or "none",
            timeout=300,
        )
        pool = ClientPool()
        judge = ExpectationJudge(pool.client_for(endpoint), None, "en")
        started = time.perf_counter()
        prompt = 0
        calls = 0
        prefix = "\n".join(f"[{t}] Customer: {c}\n[{t}] Support: {b}" for t, c, b in dialogue)
        for expectation in expected:
            for turn, customer, bot in dialogue:
                check = await judge.check(expectation, AnswerToCheck(turn, customer, bot, []), shared_prefix=prefix)
                calls += 1
                prompt += tokens({"messages": check.prompt})
                if check.p_yes is not None and check.p_yes >= MET_AT:
                    break
        seconds = time.perf_counter() - started
        await pool.aclose()
    print(f"embedded: {calls} checks, ~{prompt} prompt tokens, {seconds:.1f} s ({seconds / calls:.2f} s a check)")


async def main_async(args: argparse.Namespace) -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with FakeOpenAIServer() as server, tempfile.TemporaryDirectory() as tmp:
        server.set_default(None, responder(args.latency))
        config = config_for(server, Path(tmp))
        base_cost, dialogues = await baseline(config, args.dialogues)
        base = measured(server, 0, base_cost.seconds, only_checks=False)
        print(
            f"baseline, {args.dialogues} dialogue(s) × 3 turns: calls {base.calls}  tokens {base.tokens}  "
            f"seconds {base.seconds:.2f}"
        )
        expected = expectations(args.expect)
        pool = ClientPool()
        judge = ExpectationJudge(pool.client_for(resolve_endpoints(config)["judge"]), None, "en")
        for early_stop in (True, False):
            since = len(server.chat_requests())
            seconds = await check_all(judge, dialogues, expected, early_stop)
            cost = measured(server, since, seconds, only_checks=True)
            name = "with early stop   " if early_stop else "without early stop"
            print(f"expectations ({args.expect} judged + 1 policy) {name}: {cost.ratio(base)}")
        await pool.aclose()
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.embedded:
        await embedded(dialogues[0], expected)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dialogues", type=int, default=10)
    parser.add_argument("--expect", type=int, default=3, help="judged expectations per dialogue (plus one policy)")
    parser.add_argument("--latency", type=float, default=0.02, help="seconds before every fake reply")
    parser.add_argument(
        "--embedded", action="store_true", help="also time the checks of one dialogue on the embedded model"
    )
    asyncio.run(main_async(parser.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
