"""Bulk re-judging and token estimates, against the fake OpenAI-compatible server.

1. Re-judge 1,000 stored turns: ``ragtui rejudge --run bench`` online at concurrency 16 with
   200 ms before every judge reply, against ``--batch`` through the fake server's Batch API.
   Both ask the dialogue's rubric: one yes/no check per call (six probes and one per claim of
   the answer), answered with log-probabilities. Prints wall time, peak memory (of the ragtui
   process), HTTP requests and judge calls, the request file's size, and the online wall time
   against its ideal (calls × latency / concurrency). The machine's load average is printed
   before and after: on a shared machine the walls depend on it.
2. Estimate vs actual: ``ragtui run --estimate`` for every English sample scenario × 2 personas,
   before any run (assumed reply lengths) and after one run (past usage), against the tokens a
   second identical run reported. Prints estimate / actual per role. The fake server counts
   tokens as characters / 4, so this measures the walk through the prompts, not a tokenizer.

Every ragtui command runs as its own process, timed from start to exit; the server is a thread
of this process. Nothing here asserts. Usage: ``python bench/bench_rejudge.py [--turns 1000]``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ragtui.core.config.paths import bundled_dir
from ragtui.core.config.settings import load_config
from ragtui.core.content.personas import load_personas
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.dialogue.estimate import estimate_run, spent
from ragtui.core.knowledge.index import KnowledgeBase
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.store import Store
from ragtui.core.store.tallies import rejudged_versions
from ragtui.core.types.judgments import Judgment
from ragtui.core.types.personas import Persona
from stand_ins.fake_openai import FakeOpenAIServer, Reply, level_reply, schema_responder

VERDICT = (
    '{"steps": ["checked the passages"], "conclusion": "fine", "understanding": 4, "relevance": 4, '
    '"completeness": 4, "correctness": 4, "coherence": 4, "overall": 4}'
)


def run_measured(command: list[str]) -> tuple[float, float, str]:
    """Like ``run`` but reaps the child itself, so its own peak RSS is known."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert child.stdout is not None
    out = child.stdout.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"command failed ({code}): {' '.join(command)}\n{out[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024, out


def stored_turns(db: Path, turns: int, per_session: int = 4) -> None:
    """``turns`` bot turns with a customer message, passages and a first verdict, run "bench"."""
    store = Store.open(db)
    scenarios = load_scenarios(bundled_dir("sample_data") / "scenarios", "en")
    knowledge = KnowledgeBase.from_folder(bundled_dir("sample_data") / "knowledge", "en")
    sessions = -(-turns // per_session)
    made = 0
    for index in range(sessions):
        scenario = scenarios[index % len(scenarios)]
        sid = store.create_session(
            scenario=scenario.to_dict(),
            persona=Persona("calm", "en", "p"),
            config={},
            language="en",
            max_turns=per_session,
            threshold=0.7,
            metrics=["rubric"],
            run_id="bench",
        )
        passages = knowledge.search(scenario.question, 4)
        for turn in range(1, per_session + 1):
            if made == turns:
                break
            store.add_message(sid, turn, "user", "simulator", f"{scenario.question} (follow-up {turn})")
            mid = store.add_message(
                sid, turn, "bot", "bot", passages[0].text if passages else "I don't know.", passages=passages
            )
            judgment = Judgment(
                "rubric", 0.8, {"conclusion": "fine"}, [{"role": "system", "content": "v1"}], VERDICT, "bench-judge"
            )
            store.add_judgment(sid, mid, turn, judgment)
            made += 1
        store.refresh_score(sid, "rubric")
    store.close()


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min)"


def rejudge(turns: int, concurrency: int, delay: float) -> None:
    def slow(body: dict) -> Reply:
        if body.get("logprobs"):  # a yes/no check of the rubric: one token, with its alternatives
            return level_reply({"yes": 0.9, "no": 0.1}, delay_first=delay)
        return Reply(VERDICT, delay_first=delay)

    print(f"[rejudge] before: {load()}", flush=True)

    with FakeOpenAIServer(default=slow) as server, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = folder / "ragtui.toml"
        config.write_text(
            f'language = "en"\ndatabase = "bench.db"\n[endpoint]\nbase_url = "{server.base_url}"\n'
            'model = "bench-judge"\nmax_retries = 0\n',
            encoding="utf-8",
        )
        stored_turns(folder / "bench.db", turns)
        base = [sys.executable, "-m", "ragtui", "rejudge", "--config", str(config), "--run", "bench"]
        startup, _, _ = run_measured([sys.executable, "-m", "ragtui", "--version"])

        before = len(server.requests)
        online, online_mb, _ = run_measured([*base, "--concurrency", str(concurrency)])
        online_requests = len(server.requests) - before
        online_calls = len(server.chat_requests("bench-judge"))

        before = len(server.requests)
        batch, batch_mb, _ = run_measured([*base, "--model", "bench-judge-2", "--batch", "--poll", "0.5"])
        batch_requests = len(server.requests) - before
        batched = len(server.batch.bodies)
        uploaded = sum(len(f["content"]) for f in server.batch.files.values() if f["purpose"] == "batch")
        # Read from the file as any SQLite reader would: what the re-judges left there.
        with contextlib.closing(Store.open_read_only(folder / "bench.db")) as store:
            scored = rejudged_versions(store)

    ideal = online_calls * delay / concurrency
    print(f"[rejudge] {turns} stored turns; every judge call answered after {delay * 1000:.0f} ms online")
    print(
        f"  online, concurrency {concurrency}: {online:6.2f} s, peak {online_mb:5.0f} MB, {online_requests} HTTP requests"
        f" ({online_calls} yes/no checks, {online_calls / turns:.1f} a turn)"
    )
    print(f"    ideal (calls x latency / concurrency) {ideal:.2f} s -> RATIO wall / ideal = {online / ideal:.2f}x")
    print(
        f"  batch API:            {batch:6.2f} s, peak {batch_mb:5.0f} MB, {batch_requests} HTTP requests"
        f" ({batched} checks in the batch, request file {uploaded / 1e6:.1f} MB)"
    )
    print("    (the fake Batch API answers at once; a real one takes minutes to hours, at half the price)")
    print(f"  RATIO batch / online wall = {batch / online:.2f}x; process start alone {startup:.2f} s")
    print(f"  verdict versions stored (version, turns, unscored): {scored}")
    print(f"[rejudge] after: {load()}", flush=True)


def estimate_vs_actual(personas: list[str]) -> None:
    def replies(body: dict) -> Reply:
        return schema_responder(body)

    with FakeOpenAIServer(default=replies) as server, tempfile.TemporaryDirectory() as tmp:
        config_file = Path(tmp) / "ragtui.toml"
        config_file.write_text(
            f'language = "en"\nmax_turns = 3\nconcurrency = 8\ndatabase = "est.db"\n[endpoint]\n'
            f'base_url = "{server.base_url}"\nmodel = "bench-model"\nmax_retries = 0\n',
            encoding="utf-8",
        )
        config = load_config(config_file)
        endpoints = resolve_endpoints(config)
        scenarios = load_scenarios(config.scenarios, "en")
        chosen = [p for p in load_personas(config.personas, "en") if p.name in personas]
        cold = estimate_run(config, endpoints, scenarios, chosen, None, [])
        command = [sys.executable, "-m", "ragtui", "run", "--config", str(config_file)]
        command += sum((["-p", p] for p in personas), [])
        run_measured(command)
        store = Store.open(config.database)
        warm = estimate_run(config, endpoints, scenarios, chosen, store, [])
        store.close()
        run_measured(command)
        store = Store.open(config.database)
        actual = {r.role: r for r in spent(store, store.latest_run_id() or "", {})}
        store.close()
    print(f"[estimate] {len(scenarios)} sample scenarios x {len(chosen)} personas, max_turns 3 (fake server)")
    for label, estimate in (("before any run (assumed reply lengths)", cold), ("after one run (past usage)", warm)):
        print(f"  {label}:")
        for role in estimate.roles:
            real = actual[role.role]
            print(
                f"    {role.role:5}: in {role.tokens_in:9,.0f} / {real.tokens_in:9,.0f} = {role.tokens_in / real.tokens_in:.2f}x"
                f"   out {role.tokens_out:7,.0f} / {real.tokens_out:7,.0f} = {role.tokens_out / real.tokens_out:.2f}x"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--skip-estimate", action="store_true")
    args = parser.parse_args()
    rejudge(args.turns, args.concurrency, args.latency)
    if not args.skip_estimate:
        estimate_vs_actual(["calm", "angry"])


if __name__ == "__main__":
    main()
