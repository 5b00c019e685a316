"""The embedded model on this machine: start-up, token rates, a 3-turn dialogue, prompt cache.

Prints (never asserts):
1. cold start — assembling the GGUF from its packages into an empty cache, loading, first
   token — and warm start (cache in place) to the first token;
2. prompt and generation tokens/s, from llama.cpp's own timings;
3. time per simulator message, bot answer and judge verdict over one 3-turn dialogue run by the
   engine (as stored in SQLite);
4. a judge call with its fixed prompt prefix cached against the same call with the cache
   defeated (``cache_prompt: false``), and the ratio.

Usage: ``python bench/bench_embedded.py [--skip-cold]``. Needs ``pip install -e '.[embedded]'``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from ragtui.core import paths
from ragtui.core.config import Config
from ragtui.core.content.personas import load_personas
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.dialogue.engine import Engine
from ragtui.core.metrics.base import TurnContext
from ragtui.core.metrics.rubric import SCHEMA, RubricJudge
from ragtui.core.models.embedded import attach
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.local_model import LocalModel, LocalModelSettings, default_threads
from ragtui.core.record.store import Store


def first_token_seconds(base_url: str, model: str) -> float:
    started = time.perf_counter()
    with httpx.stream(
        "POST",
        f"{base_url}/chat/completions",
        json={"model": model, "stream": True, "max_tokens": 4, "messages": [{"role": "user", "content": "Hi"}]},
        timeout=300,
    ) as response:
        for line in response.iter_lines():
            if '"content":"' in line and '"content":""' not in line:
                break
    return time.perf_counter() - started


def start_to_first_token(cache_home: str) -> tuple[float, float, float]:
    """(assembling+loading s, to first token s, assembling s) with XDG_CACHE_HOME=cache_home."""
    os.environ["XDG_CACHE_HOME"] = cache_home
    stages: dict[str, float] = {}
    started = time.perf_counter()

    def progress(stage: str, done: int, total: int) -> None:
        stages.setdefault(stage, time.perf_counter() - started)

    model = LocalModel()
    try:
        url = model.start(progress)
        ready = time.perf_counter() - started
        first = first_token_seconds(url, model.model_name)
    finally:
        model.stop()
    assembling = stages.get("loading", 0.0) - stages.get("assembling", stages.get("loading", 0.0))
    return ready, ready + first, assembling


def token_rates(base_url: str, model: str) -> tuple[float, float]:
    """(prompt tok/s, generation tok/s) for a ~600-token prompt and a 128-token answer."""
    kb = (paths.bundled_dir("sample_data") / "knowledge" / "en").glob("0*.md")
    context = "\n\n".join(p.read_text(encoding="utf-8") for p in sorted(kb)[:4])
    body = {
        "model": model,
        "max_tokens": 128,
        "temperature": 0,
        "cache_prompt": False,
        "messages": [{"role": "system", "content": context}, {"role": "user", "content": "Summarise the above."}],
    }
    timings = httpx.post(f"{base_url}/chat/completions", json=body, timeout=600).json()["timings"]
    return timings["prompt_per_second"], timings["predicted_per_second"]


async def dialogue_times(config: Config, base_url: str) -> dict[str, list[float]]:
    endpoints = resolve_endpoints(config)
    attach(endpoints, base_url)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp) / "bench.db")
        engine = Engine(config, endpoints, store)
        scenario = next(s for s in load_scenarios(config.scenarios, "en") if s.id == "id-linking")
        persona = next(p for p in load_personas(config.personas, "en") if p.name == "calm")
        try:
            events = [e async for e in engine.new_dialogue(scenario, persona, max_turns=3).run()]
        finally:
            await engine.aclose()
        session = store.session(events[-1].session_id)
        store.close()
    times: dict[str, list[float]] = {"simulator message": [], "bot answer": [], "judge verdict": []}
    for m in session.messages:
        if m.latency_ms and m.source == "simulator":
            times["simulator message"].append(m.latency_ms / 1000)
        elif m.latency_ms and m.role == "bot":
            times["bot answer"].append(m.latency_ms / 1000)
    times["judge verdict"] = [j.latency_ms / 1000 for j in session.judgments if j.latency_ms]
    times["_stop"] = [0.0]
    print(
        f"  dialogue: {session.turns} turn(s), stop reason {session.stop_reason}, "
        f"score {session.score if session.score is not None else 'unscored'}"
    )
    return times


def judge_cache_ratio(config: Config, base_url: str, model: str, repeats: int = 3) -> tuple[float, float]:
    """Mean seconds of one judge call with the fixed prefix cached, and with caching off."""
    endpoints = resolve_endpoints(config)
    attach(endpoints, base_url)
    from ragtui.core.content.prompts import load_prompt
    from ragtui.core.models.llm import ClientPool

    judge = RubricJudge(ClientPool().client_for(endpoints["judge"]), load_prompt(config.prompts, "en", "judge_rubric"))
    passages = load_scenarios(config.scenarios, "en")  # any text will do as a stand-in answer
    context = TurnContext(1, passages[2].question, passages[2].reference or "See Settings.", [], [], "en")
    messages = judge.messages(context)

    def call(cache: bool) -> float:
        body = {
            "model": model,
            "messages": messages,
            "max_tokens": 200,
            "temperature": 0,
            "cache_prompt": cache,
            "response_format": {"type": "json_schema", "json_schema": {"name": "v", "schema": SCHEMA}},
        }
        started = time.perf_counter()
        httpx.post(f"{base_url}/chat/completions", json=body, timeout=600).raise_for_status()
        return time.perf_counter() - started

    call(True)  # warm the cache with the fixed prefix
    cached = statistics.mean(call(True) for _ in range(repeats))
    defeated = statistics.mean(call(False) for _ in range(repeats))
    return cached, defeated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-cold", action="store_true", help="skip assembling into an empty cache")
    args = parser.parse_args()
    user_cache = str(paths.cache_dir().parent)
    print(f"[embedded] threads: {LocalModelSettings().threads or default_threads()}, cpus: {os.cpu_count()}")
    if not args.skip_cold:
        with tempfile.TemporaryDirectory() as empty:
            ready, first, assembling = start_to_first_token(empty)
        print(f"  cold start: assembling {assembling:.1f} s, ready {ready:.1f} s, first token {first:.1f} s")
    ready, first, _ = start_to_first_token(user_cache)
    print(f"  warm start: ready {ready:.1f} s, first token {first:.1f} s")
    config = Config(language="en")
    with LocalModel() as model:
        url = model.base_url or ""
        prompt_rate, gen_rate = token_rates(url, model.model_name)
        print(
            f"  tokens/s via HTTP: prompt {prompt_rate:.1f}, generation {gen_rate:.1f}; RSS {(model.rss_bytes() or 0) / 1e9:.2f} GB"
        )
        times = asyncio.run(dialogue_times(config, url))
        for name, values in times.items():
            if not name.startswith("_") and values:
                print(f"  {name}: mean {statistics.mean(values):.1f} s over {len(values)} (max {max(values):.1f} s)")
        cached, defeated = judge_cache_ratio(config, url, model.model_name)
        print(f"  judge call, prefix cached: {cached:.1f} s; cache defeated: {defeated:.1f} s")
        print(f"  RATIO cached / defeated = {cached / defeated:.2f}x")


if __name__ == "__main__":
    main()
