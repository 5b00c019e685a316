"""How often does the simulated customer leave its role, and what do the checks repair?

For each scenario × persona, the bot answers and the simulator writes the customer's next
message, for ``--turns`` customer turns. Every simulator message is checked (code, then the
cheap model check); a failing one is re-asked once with the correction, as a dialogue does.
Each message is counted twice, paired:

- **before** — the simulator's first attempt, i.e. what a dialogue records without checks;
- **after** — the message a dialogue with checks keeps (the retry when the first failed).

Shares are of simulator messages: off-role (answered as the agent, or left the persona) and
premature DONE (DONE although the last answer did not address the question). On the embedded
model the classification is the checks' own, so the "before" figure is what they detect; with
``--backend fake`` the simulator's mistakes are scripted at known rates, so the script's own
ground truth is printed beside what the checks found.

Usage: ``python bench/bench_simulator.py --backend fake|embedded [--language en ja]
[--scenarios 3] [--personas angry,beginner,calm] [--turns 2] [--out samples.jsonl]``;
``--report samples.jsonl`` prints the figures of an earlier (or interrupted) run.
Prints figures, never asserts. No judge runs: only the bot, the simulator and the checks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from ragtui.core.config.settings import Config, EndpointConfig
from ragtui.core.content.personas import load_personas, pick_personas
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.dialogue.engine import Engine
from ragtui.core.dialogue.simulator import UserSimulator
from ragtui.core.dialogue.simulator_check import LEFT_PERSONA, PREMATURE_DONE, SimulatorChecker, code_check
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.store import Store
from ragtui.core.types.turns import Utterance, is_done
from stand_ins.fake_openai import FakeOpenAIServer, Reply

# -- the scripted simulator of the fake backend ---------------------------------------------------

CUSTOMER = {
    "en": ["Where exactly is that setting? I only see Profile.", "I tried that, still nothing. What now?"],
    "ja": ["その設定はどこにありますか？プロフィールしか見えません。", "試しましたが変わりません。どうすれば？"],
}
AGENT_OBVIOUS = {
    "en": "Support: Please open Settings > Account and tap Link. Is there anything else I can help with?",
    "ja": "担当者：設定 > アカウントを開いて「連携」を押してください。お問い合わせありがとうございます。",
}
AGENT_SUBTLE = {
    "en": "Sure, the Link button is under Account; tap it and confirm.",
    "ja": "はい、連携ボタンはアカウントの中にあるので、押して確定すれば完了します。",
}
WRONG_LANGUAGE = {"en": "設定画面が見つかりません。", "ja": "I cannot find the settings screen at all."}
NON_ANSWERS = ("Sorry for the trouble.", "ご不便をおかけして申し訳ありません。")
BOT_ANSWERS = [
    "Open Settings > Account > Linked services and tap Link next to the service.",
    "ご不便をおかけして申し訳ありません。",
    "設定 > アカウント > 連携サービスを開き、サービスの横の「連携」を押してください。",
    "Sorry for the trouble.",
]
RATES = {"agent_obvious": 0.10, "agent_subtle": 0.10, "wrong_language": 0.05, "done": 0.20}
FIX_RATE = 0.85  # how often the scripted simulator obeys a correction


def _section(text: str, title: str) -> str:
    match = re.search(rf"### {re.escape(title)} ###\n(.*?)(?:\n\n|\Z)", text, re.S)
    return match.group(1).strip() if match else ""


class ScriptedSimulator:
    """The fake server's user role: a simulator that slips at RATES, and its check answers.
    ``truth`` keeps what each generated message really was."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.truth: dict[str, str] = {}

    def __call__(self, body: dict) -> Reply:
        messages = body["messages"]
        if body.get("response_format"):
            return self._check(messages[-1]["content"], body["response_format"]["json_schema"]["name"])
        system = messages[0]["content"]
        language = "ja" if "お客様" in system[:40] else "en"
        last_bot = messages[-1]["content"]
        corrected = "IMPORTANT" in system or "重要：" in system
        roll = self.rng.random()
        if corrected and roll < FIX_RATE:
            kind, text = "customer", self.rng.choice(CUSTOMER[language])
        else:
            roll = self.rng.random()
            edges = []
            total = 0.0
            for name, rate in RATES.items():
                total += rate
                edges.append((total, name))
            kind = next((name for edge, name in edges if roll < edge), "customer")
            text = {
                "agent_obvious": AGENT_OBVIOUS[language],
                "agent_subtle": AGENT_SUBTLE[language],
                "wrong_language": WRONG_LANGUAGE[language],
                "done": "DONE",
                "customer": self.rng.choice(CUSTOMER[language]),
            }[kind]
            if kind == "done":
                kind = "premature_done" if last_bot.strip() in NON_ANSWERS else "done"
        self.truth[f"{id(body)}"] = kind
        return Reply(text, extra={"x_truth": kind})

    def _check(self, prompt: str, name: str) -> Reply:
        if name.endswith("addressed"):
            answer = _section(prompt, "THE SUPPORT'S LAST ANSWER") or _section(prompt, "サポートの直前の回答")
            verdict = "no" if answer.strip() in NON_ANSWERS else "yes"
            return Reply(json.dumps({"reason": "scripted", "addressed": verdict}))
        message = _section(prompt, "THE CUSTOMER'S NEW MESSAGE") or _section(prompt, "お客様の新しい発言")
        agent = message.strip() in (*AGENT_SUBTLE.values(), *AGENT_OBVIOUS.values())
        return Reply(json.dumps({"reason": "scripted", "customer": "no" if agent else "yes"}))


def truth_of(text: str, last_bot: str) -> str:
    """The fake backend's ground truth for a message, from the script's fixed lines."""
    stripped = text.strip()
    if stripped in (*AGENT_OBVIOUS.values(), *AGENT_SUBTLE.values()):
        return "answered_as_agent"
    if stripped in WRONG_LANGUAGE.values():
        return LEFT_PERSONA
    if is_done(stripped):
        return PREMATURE_DONE if last_bot.strip() in NON_ANSWERS else "ok"
    return "ok"


# -- the measurement --------------------------------------------------------------------------------


VAGUE = {
    "en": "Thank you for your patience. Please check the app's settings.",
    "ja": "お待たせしました。アプリの設定をご確認ください。",
}


async def canned_answer(scenario: Any, turn: int, language: str) -> str:
    """``--bot canned``: the scenario's reference answer on the first bot turn, a vague
    non-answer after it (where a DONE would be premature). Spends the CPU on the simulator."""
    return (scenario.reference or VAGUE[language]) if turn == 2 else VAGUE[language]


async def measure(
    engine: Engine,
    language: str,
    scenarios: list,
    personas: list,
    turns: int,
    fake: bool,
    out: Path | None,
    canned: bool = False,
) -> list[dict]:
    samples: list[dict[str, Any]] = []
    client = engine.pool.client_for(engine.endpoints["user"])
    template = engine.check_template
    assert template is not None
    for scenario in scenarios:
        for persona in personas:
            simulator = UserSimulator(client, engine.prompts.simulator, persona, scenario)
            checker = SimulatorChecker(client, template, persona)
            history = [Utterance("user", scenario.question)]
            for turn in range(2, turns + 2):
                started = time.perf_counter()
                if canned:
                    answer_text = await canned_answer(scenario, turn, language)
                else:
                    answer_text = (await engine.bot.answer(history)).text
                history.append(Utterance("bot", answer_text))
                first = await simulator.next_message(history)
                first_check = await checker.check(first.text, history)
                final, final_check = first, first_check
                if first_check.problem:
                    final = await simulator.next_message(history, correction=checker.correction(first_check.problem))
                    final_check = await checker.check(final.text, history)
                sample = {
                    "language": language,
                    "scenario": scenario.id,
                    "persona": persona.name,
                    "turn": turn,
                    "bot": answer_text,
                    "first": first.text,
                    "first_problem": first_check.problem,
                    "first_by": first_check.by,
                    "first_why": first_check.why,
                    "retried": first_check.problem is not None,
                    "final": final.text,
                    "final_problem": final_check.problem,
                    "seconds": round(time.perf_counter() - started, 1),
                }
                if fake:
                    sample["first_truth"] = truth_of(first.text, answer_text)
                    sample["final_truth"] = truth_of(final.text, answer_text)
                samples.append(sample)
                if out is not None:  # as it goes: a long run on a busy machine keeps what it measured
                    with out.open("a", encoding="utf-8") as handle:
                        handle.write(json.dumps(sample, ensure_ascii=False) + "\n")
                print(
                    f"  {language} {scenario.id} × {persona.name} turn {turn}: "
                    f"{first_check.problem or 'ok'} → {final_check.problem or 'ok'} ({sample['seconds']} s)",
                    flush=True,
                )
                history.append(Utterance("user", final.text))
                if is_done(final.text):
                    break
    return samples


def share(samples: list[dict], key: str, kinds: set[str]) -> str:
    hits = sum(1 for s in samples if s[key] in kinds)
    return f"{hits}/{len(samples)} = {hits / len(samples):.0%}" if samples else "–"


def report(samples: list[dict], fake: bool) -> None:
    off = {"answered_as_agent", LEFT_PERSONA}
    for language in sorted({s["language"] for s in samples}):
        part = [s for s in samples if s["language"] == language]
        print(f"[{language}] {len(part)} simulator messages")
        print(f"  off-role      before {share(part, 'first_problem', off)}   after {share(part, 'final_problem', off)}")
        print(
            f"  premature DONE before {share(part, 'first_problem', {PREMATURE_DONE})}   "
            f"after {share(part, 'final_problem', {PREMATURE_DONE})}"
        )
        print(
            f"  retried {sum(s['retried'] for s in part)}, found by {dict(Counter(s['first_by'] for s in part if s['retried']))}"
        )
        # The code checks as they are now, on the recorded first attempts (useful when they
        # have changed since the run; the model check is not repeated).
        rechecked = [code_check(s["first"], [Utterance("bot", s["bot"])], language) for s in part]
        kinds = Counter(r.problem for r in rechecked if r is not None)
        print(f"  current code checks on the first attempts: {dict(kinds) or 'nothing found'}")
        kept = [code_check(s["final"], [Utterance("bot", s["bot"])], language) for s in part]
        kept_kinds = Counter(r.problem for r in kept if r is not None)
        print(f"  current code checks on the kept messages: {dict(kept_kinds) or 'nothing found'}")
        if fake:
            print(
                f"  script's truth: off-role before {share(part, 'first_truth', off)} after {share(part, 'final_truth', off)}; "
                f"premature DONE before {share(part, 'first_truth', {PREMATURE_DONE})} after "
                f"{share(part, 'final_truth', {PREMATURE_DONE})}"
            )
            bad = [s for s in part if s["first_truth"] != "ok"]
            caught = sum(1 for s in bad if s["first_problem"])
            false_alarms = sum(1 for s in part if s["first_truth"] == "ok" and s["first_problem"])
            print(f"  checks caught {caught}/{len(bad)} scripted slips; {false_alarms} false alarm(s)")


async def run(args: argparse.Namespace) -> list[dict]:
    samples: list[dict] = []
    server = None
    model = None
    if args.backend == "fake":
        server = FakeOpenAIServer().start()
        server.set_default("fake-user", ScriptedSimulator(args.seed))
        bot_answers = iter(BOT_ANSWERS * 1000)
        server.set_default("fake-bot", lambda body: Reply(next(bot_answers)))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for language in args.language:
                config = Config(language=language, database=Path(tmp) / "bench.db", dialogue_metrics=[])
                if server is not None:
                    config.endpoint = EndpointConfig(base_url=server.base_url, timeout=30.0, max_retries=0)
                    for role in ("user", "bot", "judge"):
                        config.roles[role].model = f"fake-{role}"
                endpoints = resolve_endpoints(config)
                if args.backend == "embedded":
                    from ragtui.core.models.embedded import start_embedded

                    if model is None:
                        model = start_embedded(config, endpoints)
                    else:
                        from ragtui.core.models.embedded import attach

                        attach(endpoints, model.base_url or "", model.token)  # the server wants its token
                store = Store.open(config.database)
                engine = Engine(config, endpoints, store)
                scenarios = load_scenarios(config.scenarios, language)[: args.scenarios]
                personas = pick_personas(load_personas(config.personas, language), args.personas.split(","))
                try:
                    samples += await measure(
                        engine,
                        language,
                        scenarios,
                        personas,
                        args.turns,
                        server is not None,
                        args.out,
                        args.bot == "canned",
                    )
                finally:
                    await engine.aclose()
                    store.close()
    finally:
        if server is not None:
            server.stop()
        if model is not None:
            model.stop()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("fake", "embedded"), default="fake")
    parser.add_argument("--language", nargs="+", default=["en", "ja"], choices=("en", "ja"))
    parser.add_argument("--scenarios", type=int, default=10, help="the first N scenarios of each language")
    parser.add_argument("--personas", default="angry,beginner,calm,elderly,in-a-hurry,skeptical")
    parser.add_argument("--turns", type=int, default=2, help="simulator turns per dialogue")
    parser.add_argument("--seed", type=int, default=7, help="the fake backend's script seed")
    parser.add_argument(
        "--bot",
        choices=("builtin", "canned"),
        default="builtin",
        help="the built-in RAG bot, or canned answers (the reference, then a vague non-answer) to save CPU",
    )
    parser.add_argument("--out", type=Path, help="write every sample as JSONL, as it is measured")
    parser.add_argument("--report", type=Path, help="only print the figures of an earlier --out file")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.report:
        lines = args.report.read_text(encoding="utf-8").splitlines()
        report([json.loads(line) for line in lines if line.strip()], args.backend == "fake")
        return
    if args.out:
        args.out.write_text("", encoding="utf-8")
    samples = asyncio.run(run(args))
    report(samples, args.backend == "fake")
    print(f"{len(samples)} messages in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
