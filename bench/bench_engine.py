"""Engine overhead and concurrency, against the fake OpenAI-compatible server.

1. Overhead: N dialogues × 3 turns through the real ``ragtui run`` command with a zero-latency
   server, against a bare loop (bench/bare_loop.py) that sends the very same chat-completion
   requests with the openai client at the same concurrency. Prints ours / bare.
2. Concurrency: with 100 ms before every reply, ``ragtui run --concurrency 16``; prints the
   wall time against the ideal (calls × latency / concurrency).
3. Concurrency sweep (``--sweep``): 480 dialogues × 5 personas' scenarios at 200 ms per call,
   concurrency 16, 64 and 256, each as one ``ragtui run`` and as ``ragtui run --workers 2``;
   prints wall / ideal and the CPU spent per call (user + system time of the process and its
   children, divided by the calls), against a baseline measured in the same run: the very same
   requests replayed by a bare openai client at the same concurrency (bench/bare_loop.py).
4. Trials (``--trials``): the same scenario × persona matrix as ``ragtui run --repeat K`` for
   K = 1, 3 and 10 at 50 ms per call; prints each wall time and wall(K) / (K × wall(1)), the
   run of one trial a pair measured in the same run being the baseline (goal: ≤ 1.1×, linear).

Both sides run as separate processes, timed from start to exit, so the server (a thread of
this process) never competes with them for the interpreter lock. Nothing here asserts: it
prints figures. Usage: ``python bench/bench_engine.py [--dialogues 200]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.store.store import Store
from ragtui.core.store.tallies import turn_verdict_counts
from stand_ins.fake_openai import FakeOpenAIServer, Reply, demo_responder

PERSONAS = ["angry", "calm", "beginner", "elderly", "skeptical"]
HERE = Path(__file__).resolve().parent


def write_workspace(folder: Path, base_url: str, dialogues: int, concurrency: int) -> Path:
    """A config and a scenario file with ``dialogues / len(PERSONAS)`` scenarios."""
    base = load_scenarios(bundled_dir("sample_data") / "scenarios", "en")
    count = -(-dialogues // len(PERSONAS))
    lines = ['language = "en"']
    for i in range(count):
        s = base[i % len(base)]
        lines += ["[[scenario]]", f'id = "{s.id}-{i}"', f"question = {json.dumps(s.question)}"]
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "en.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = folder / "ragtui.toml"
    config.write_text(
        f'language = "en"\nmax_turns = 3\nconcurrency = {concurrency}\ndatabase = "bench.db"\n'
        f'scenarios = "scenarios"\npersonas = "{bundled_dir("personas")}"\n'
        f'[endpoint]\nbase_url = "{base_url}"\nmodel = "bench-model"\nmax_retries = 0\n',
        encoding="utf-8",
    )
    return config


def timed(command: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode not in (0, 1):
        sys.exit(f"command failed ({result.returncode}): {' '.join(command)}\n{result.stderr[-2000:]}")
    return elapsed, result.stdout


def ragtui_run(config: Path, dialogues: int, concurrency: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "ragtui",
        "run",
        "--config",
        str(config),
        "--concurrency",
        str(concurrency),
        *sum((["-p", p] for p in PERSONAS), []),
    ]


def overhead(dialogues: int, concurrency: int) -> None:
    with FakeOpenAIServer(default=demo_responder) as server, tempfile.TemporaryDirectory() as tmp:
        config = write_workspace(Path(tmp), server.base_url, dialogues, concurrency)
        startup, _ = timed([sys.executable, "-m", "ragtui", "--version"])
        ours, _ = timed(ragtui_run(config, dialogues, concurrency))
        bodies = server.chat_requests()
        requests = Path(tmp) / "requests.json"
        requests.write_text(json.dumps(bodies), encoding="utf-8")
        baseline_start, _ = timed([sys.executable, "-c", "import openai"])
        bare_cmd = [sys.executable, str(HERE / "bare_loop.py"), "--base-url", server.base_url]
        bare_cmd += ["--requests", str(requests), "--concurrency", str(concurrency)]
        bare, out = timed(bare_cmd)
        bare_loop_only = json.loads(out)["seconds"]
        raw, out = timed([*bare_cmd, "--sse"])
        raw_loop_only = json.loads(out)["seconds"]
    sessions = -(-dialogues // len(PERSONAS)) * len(PERSONAS)
    print(
        f"[overhead] {sessions} dialogues x 3 turns, {len(bodies)} chat calls, concurrency {concurrency}, zero latency"
    )
    print(f"  ragtui run (whole process):      {ours:7.2f} s   ({sessions / ours:6.1f} dialogues/s)")
    print(f"  bare loop, typed client route:   {bare:7.2f} s   (loop alone {bare_loop_only:.2f} s)")
    print(f"  bare loop, ragtui's own route:   {raw:7.2f} s   (loop alone {raw_loop_only:.2f} s)")
    print(f"  process start: ragtui --version {startup:.2f} s, python -c 'import openai' {baseline_start:.2f} s")
    print(f"  RATIO ours / bare (typed client) = {ours / bare:.2f}x")
    print(f"  RATIO ours / bare (same route) = {ours / raw:.2f}x   <- ragtui's own overhead")


def latency(dialogues: int, concurrency: int, delay: float) -> None:
    def slow(body: dict) -> Reply:
        return dataclasses.replace(demo_responder(body), delay_first=delay)

    with FakeOpenAIServer(default=slow) as server, tempfile.TemporaryDirectory() as tmp:
        config = write_workspace(Path(tmp), server.base_url, dialogues, concurrency)
        startup, _ = timed([sys.executable, "-m", "ragtui", "--version"])
        wall, _ = timed(ragtui_run(config, dialogues, concurrency))
        calls = len(server.chat_requests())
    ideal = calls * delay / concurrency
    sessions = -(-dialogues // len(PERSONAS)) * len(PERSONAS)
    # A dialogue's calls are sequential, so the dialogues also bound the wall time from below.
    waves = -(-sessions // concurrency)
    critical = waves * (calls / sessions) * delay
    print(f"[latency] {sessions} dialogues, {calls} chat calls, {delay * 1000:.0f} ms each, concurrency {concurrency}")
    print(f"  ragtui run wall time: {wall:6.2f} s (process start alone {startup:.2f} s)")
    print(f"  ideal (calls x latency / concurrency): {ideal:6.2f} s; sequential-turn bound {critical:.2f} s")
    print(f"  RATIO wall / ideal = {wall / ideal:.2f}x   (minus process start: {(wall - startup) / ideal:.2f}x)")


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(command: list[str]) -> tuple[float, float, str]:
    """Wall time, CPU (user + system of the process and every child it waited for), stdout."""
    before = cpu_of_children()
    wall, out = timed(command)
    return wall, cpu_of_children() - before, out


def turns_scored(db: Path) -> tuple[int, int]:
    """Scored turn verdicts and all of them: an unscored turn stops its checks early, so a
    benchmark whose judge cannot be scored would measure fewer calls than a real run makes."""
    store = Store.open_read_only(db)
    try:
        return turn_verdict_counts(store)
    finally:
        store.close()


def sweep(dialogues: int, levels: list[int], delay: float, workers: int) -> None:
    def slow(body: dict) -> Reply:
        return dataclasses.replace(demo_responder(body), delay_first=delay)

    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"[sweep] {delay * 1000:.0f} ms per call; load average at start {load} on {os.cpu_count()} cores")
    print("  baseline: the same requests replayed by a bare openai client (typed route), same concurrency")
    for concurrency in levels:
        with FakeOpenAIServer(default=slow) as server, tempfile.TemporaryDirectory() as tmp:
            config = write_workspace(Path(tmp), server.base_url, dialogues, concurrency)
            command = ragtui_run(config, dialogues, concurrency)
            single, single_cpu, _ = measured(command)
            calls = len(server.chat_requests())
            scored, judged = turns_scored(Path(tmp) / "bench.db")
            requests = Path(tmp) / "requests.json"
            requests.write_text(json.dumps(server.chat_requests()), encoding="utf-8")
            (Path(tmp) / "bench.db").unlink(missing_ok=True)
            many, many_cpu, _ = measured([*command, "--workers", str(workers)])
            many_calls = len(server.chat_requests()) - calls
            bare_cmd = [sys.executable, str(HERE / "bare_loop.py"), "--base-url", server.base_url]
            bare_cmd += ["--requests", str(requests), "--concurrency", str(concurrency)]
            bare, bare_cpu, _ = measured(bare_cmd)
        ideal = calls * delay / concurrency
        base_ms = bare_cpu / calls * 1000
        print(f"  concurrency {concurrency:3}: {calls} calls, ideal {ideal:5.2f} s, turns scored {scored} of {judged}")
        rows = [
            ("ragtui run", single, single_cpu, calls),
            (f"ragtui run --workers {workers}", many, many_cpu, many_calls),
            ("bare client (baseline)", bare, bare_cpu, calls),
        ]
        for name, wall, cpu, n in rows:
            per_call = cpu / n * 1000
            print(
                f"    {name:<24} wall {wall:6.2f} s  RATIO wall/ideal {wall / ideal:5.2f}x   "
                f"CPU {per_call:5.2f} ms/call  RATIO CPU/baseline {per_call / base_ms:5.2f}x"
            )
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"  load average at end {load}")


def trials(pairs: int, concurrency: int, delay: float, repeats: list[int]) -> None:
    def slow(body: dict) -> Reply:
        return dataclasses.replace(demo_responder(body), delay_first=delay)

    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"[trials] {pairs} pairs, {delay * 1000:.0f} ms per call, concurrency {concurrency}; load average {load}")
    startup, _ = timed([sys.executable, "-m", "ragtui", "--version"])
    walls: dict[int, float] = {}
    for k in repeats:
        with FakeOpenAIServer(default=slow) as server, tempfile.TemporaryDirectory() as tmp:
            config = write_workspace(Path(tmp), server.base_url, pairs, concurrency)
            walls[k], out = timed([*ragtui_run(config, pairs, concurrency), "--repeat", str(k), "--yes"])
            calls = len(server.chat_requests())
            scored, judged = turns_scored(Path(tmp) / "bench.db")
        line = next((x for x in out.splitlines() if x.startswith("pass^")), "")
        ideal = calls * delay / concurrency
        base = walls[repeats[0]] * k / repeats[0]
        print(
            f"  --repeat {k:2}: wall {walls[k]:6.2f} s, {calls} calls (ideal {ideal:5.2f} s), turns scored {scored}"
            f" of {judged}; RATIO wall(K) / (K x wall(1)) = {walls[k] / base:.2f}x"
            f" (minus process start: {(walls[k] - startup) / (k / repeats[0] * (walls[repeats[0]] - startup)):.2f}x)"
        )
        if line:
            print(f"    {line}")
    print(
        f"  process start alone {startup:.2f} s; load average at end " + " / ".join(f"{x:.2f}" for x in os.getloadavg())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dialogues", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=4, help="for the overhead comparison")
    parser.add_argument("--latency-dialogues", type=int, default=100)
    parser.add_argument("--sweep", action="store_true", help="only the concurrency sweep (16, 64, 256 at 200 ms)")
    parser.add_argument("--sweep-dialogues", type=int, default=480)
    parser.add_argument("--sweep-levels", default="16,64,256", help="concurrency levels of the sweep")
    parser.add_argument("--workers", type=int, default=2, help="worker processes for the sweep's --workers runs")
    parser.add_argument("--trials", action="store_true", help="only wall time of --repeat 1, 3, 10 (see --pairs)")
    parser.add_argument("--pairs", type=int, default=20, help="scenario x persona pairs of the --trials runs")
    args = parser.parse_args()
    if args.trials:
        trials(args.pairs, 10, 0.05, [1, 3, 10])
        return
    if args.sweep:
        sweep(args.sweep_dialogues, [int(x) for x in args.sweep_levels.split(",")], 0.2, args.workers)
        return
    overhead(args.dialogues, args.concurrency)
    latency(args.latency_dialogues, 16, 0.1)


if __name__ == "__main__":
    main()
