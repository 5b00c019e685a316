"""Comparing runs and replaying them, measured.

1. ``ragtui compare`` on two synthetic runs of N dialogues each (3 scored turns apiece),
   written into a real SQLite file: wall time and peak RSS of the whole process, against
   ``ragtui export --run`` of one of those runs (a command that reads the same dialogues) and
   against a process that only imports the CLI. In-process: ``compare_runs`` alone, with its
   peak Python allocation (tracemalloc). With ``--dialogue-verdicts`` every dialogue also has
   its three dialogue verdicts (resolution, retention, repetition), as a default run does.
2. Replay: ``ragtui run`` of M dialogues against the fake server (zero latency), then
   ``ragtui run --replay last`` of the same M, then the plain run again; prints the replay's
   wall time as a ratio to the mean of the two plain runs.

Processes are timed from start to exit; the fake server is a thread of this process. Nothing
here asserts: it prints figures. Usage: ``python bench/bench_compare.py [--dialogues 1000]
[--replay-dialogues 100] [--dialogue-verdicts]``.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from bench_engine import PERSONAS, write_workspace

from ragtui.core.runs.compare import compare_runs
from ragtui.core.store.store import Store
from stand_ins.fake_openai import FakeOpenAIServer
from stand_ins.synthetic_runs import write_run

# Runs the CLI in a child and reports its own peak RSS: RUSAGE_CHILDREN would give the
# maximum over every child so far, not this one's.
MEASURED = (
    "import resource, sys\n"
    "from ragtui.cli.main import main\n"
    "status = main(sys.argv[1:]) if len(sys.argv) > 1 else 0\n"
    "usage = resource.getrusage(resource.RUSAGE_SELF)\n"
    "sys.stderr.write('MAXRSS_KB %d\\n' % usage.ru_maxrss)\n"
    "sys.stderr.write('CPU_S %f\\n' % (usage.ru_utime + usage.ru_stime))\n"
    "sys.exit(status)\n"
)


def measured(*args: str) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS MB) of ``ragtui ARGS`` in a fresh process. CPU
    time is the steadier figure on a shared machine: waiting for a core does not count."""
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", MEASURED, *args], capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode not in (0, 1):
        sys.exit(f"ragtui {' '.join(args)} failed ({result.returncode}):\n{result.stderr[-2000:]}")
    lines = result.stderr.splitlines()
    kb = next(int(line.split()[1]) for line in lines if line.startswith("MAXRSS_KB"))
    cpu = next(float(line.split()[1]) for line in lines if line.startswith("CPU_S"))
    return elapsed, cpu, kb / 1024


def bench_compare(dialogues: int, dialogue_verdicts: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "compare.db"
        store = Store.open(db_path)
        started = time.perf_counter()
        write_run(store, "bench-base", dialogues, seed=1, dialogue_verdicts=dialogue_verdicts)
        write_run(store, "bench-new", dialogues, seed=2, shift=0.03, dialogue_verdicts=dialogue_verdicts)
        written = time.perf_counter() - started
        started, cpu_started = time.perf_counter(), time.process_time()
        comparison = compare_runs(store, "bench-base", "bench-new")
        in_process, in_process_cpu = time.perf_counter() - started, time.process_time() - cpu_started
        tracemalloc.start()  # a second pass for memory: tracing slows Python code down
        compare_runs(store, "bench-base", "bench-new")
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        store.close()
        size_mb = db_path.stat().st_size / 1e6
        db = ["--db", str(db_path)]
        startup, startup_cpu, startup_rss = measured()
        wall, cpu, rss = measured("compare", "bench-base", "bench-new", *db, "--markdown", str(Path(tmp) / "c.md"))
        export, export_cpu, export_rss = measured(
            "export", "--run", "bench-new", "--csv", str(Path(tmp) / "e.csv"), *db
        )
    interval = comparison.interval
    assert interval is not None
    print(
        f"[compare] 2 runs x {dialogues} dialogues x 3 turns{' + 3 dialogue verdicts' if dialogue_verdicts else ''} "
        f"in a {size_mb:.1f} MB SQLite file (written in {written:.1f} s)"
    )
    if comparison.resolution is not None and not comparison.resolution.base_missing:
        r = comparison.resolution
        print(
            f"  resolution: {r.base.successes}/{r.base.scored} → {r.new.successes}/{r.new.scored}, "
            f"{comparison.resolution_regressions} resolution regressions"
        )
    print(
        f"  result: {len(comparison.pairs)} pairs, {comparison.regressions} regressions, {comparison.fixes} fixed, "
        f"mean delta {interval.mean:+.3f} [{interval.low:+.3f}, {interval.high:+.3f}]"
    )
    print(
        f"  compare_runs in process: {in_process:6.2f} s wall, {in_process_cpu:6.2f} s CPU, "
        f"peak Python allocation {peak / 1e6:6.1f} MB"
    )
    print(
        f"  ragtui compare (process): {wall:6.2f} s wall, {cpu:6.2f} s CPU, peak RSS {rss:6.1f} MB (goal 2 s, 150 MB)"
    )
    print(
        f"  ragtui export --run, one run (process): {export:6.2f} s wall, {export_cpu:6.2f} s CPU, {export_rss:6.1f} MB"
    )
    print(f"  process start, CLI import only: {startup:6.2f} s wall, {startup_cpu:6.2f} s CPU, {startup_rss:6.1f} MB")
    print(
        f"  RATIO compare / export = {wall / export:.2f}x wall, {cpu / export_cpu:.2f}x CPU, {rss / export_rss:.2f}x memory"
    )
    print(f"  RATIO compare / start-up only = {wall / startup:.2f}x wall, {cpu / startup_cpu:.2f}x CPU")


def timed_run(config: Path, *extra: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one `ragtui run` process."""
    command = [sys.executable, "-m", "ragtui", "run", "--config", str(config), *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed ({result.returncode}):\n{result.stderr[-2000:]}")
    return elapsed, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def bench_replay(dialogues: int, concurrency: int) -> None:
    with FakeOpenAIServer() as server, tempfile.TemporaryDirectory() as tmp:
        config = write_workspace(Path(tmp), server.base_url, dialogues, concurrency)
        personas = sum((["-p", p] for p in PERSONAS), [])
        plain = timed_run(config, *personas)
        calls_plain = len(server.chat_requests())
        replay = timed_run(config, "--replay", "last")
        calls_replay = len(server.chat_requests()) - calls_plain
        again = timed_run(config, *personas)
    sessions = -(-dialogues // len(PERSONAS)) * len(PERSONAS)
    wall = (plain[0] + again[0]) / 2
    cpu = (plain[1] + again[1]) / 2
    print(f"[replay] {sessions} dialogues x 3 turns against the fake server, concurrency {concurrency}, zero latency")
    print(
        f"  plain run: {plain[0]:6.2f} s and {again[0]:6.2f} s wall, {plain[1]:.2f} s and {again[1]:.2f} s CPU "
        f"({calls_plain} chat calls)"
    )
    print(f"  replay of that run: {replay[0]:6.2f} s wall, {replay[1]:.2f} s CPU ({calls_replay} chat calls)")
    print(f"  RATIO replay / plain = {replay[0] / wall:.2f}x wall, {replay[1] / cpu:.2f}x CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dialogues", type=int, default=1000)
    parser.add_argument("--replay-dialogues", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--dialogue-verdicts", action="store_true", help="give every dialogue its dialogue verdicts")
    args = parser.parse_args()
    bench_compare(args.dialogues, args.dialogue_verdicts)
    if args.replay_dialogues > 0:
        bench_replay(args.replay_dialogues, args.concurrency)


if __name__ == "__main__":
    main()
