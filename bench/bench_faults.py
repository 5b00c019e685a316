"""A faithful record under faults, and many writers on one database, against the fake server.

1. Faults: 100 dialogues × 3 turns through the real ``ragtui run`` while the fake server fails
   a share of all chat calls (20 %, then 50 %) — a 429, a 500, a stream cut mid-way, or a
   stream whose chunk is not JSON, in equal parts. Prints the stop reasons, the retries, the
   messages stored, the partial records kept, the unscored turns, and the number of cut
   replies stored as if complete (every scripted reply ends with a marker, so a stored
   message without it is a cut one: this must print 0). Wall time against a fault-free run.
2. Writers: two and three ``ragtui run`` at once on one SQLite file, each with its own
   dialogues; prints the dialogues lost or ended in error (must print 0) and the wall time
   against one writer doing its share alone.

Every ``ragtui`` runs as its own process; the fake server is a thread of this one. Nothing
here asserts: it prints figures. Usage: ``python bench/bench_faults.py [--dialogues 100]``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.store.store import Store
from ragtui.core.store.tallies import RecordTally, record_tally
from stand_ins.fake_openai import FakeOpenAIServer, Reply, demo_responder

PERSONAS = ["angry", "calm", "beginner", "elderly", "skeptical"]
END = " [end]"  # every scripted customer and bot reply ends with it: a stored one without it was cut
CUSTOMER = "Thanks, but it still does not work on my second account. What now?" + END
ANSWER = "Open Settings, then Account, then Linked services, and choose Link on the service." + END
FAULTS = ("429", "500", "cut", "bad-json")


class FaultyResponder:
    """Answers like a model, except that a share ``rate`` of the calls fail in one of FAULTS."""

    def __init__(self, rate: float, seed: int = 7) -> None:
        self.rate = rate
        self.random = random.Random(seed)
        self.lock = threading.Lock()
        self.injected: Counter[str] = Counter()
        self.calls = 0

    def __call__(self, body: dict) -> Reply:
        with self.lock:
            self.calls += 1
            fault = self.random.choice(FAULTS) if self.random.random() < self.rate else None
            if fault:
                self.injected[fault] += 1
        if fault == "429":
            return Reply(status=429, headers={"retry-after-ms": "20"})
        if fault == "500":
            return Reply(status=500, error_message="upstream failed", headers={"retry-after-ms": "20"})
        if body.get("response_format") or body.get("logprobs"):  # structured steps, the judge's checks
            reply = demo_responder(body)
        else:
            reply = Reply(CUSTOMER if body.get("model") == "bench-user" else ANSWER)
        reply.chunk_chars = 12
        if fault == "cut":
            reply.cut_after_chunks = 2
        elif fault == "bad-json":
            reply.malformed_after_chunks = 2
        return reply


def write_workspace(folder: Path, base_url: str, dialogues: int, concurrency: int, db: str = "bench.db") -> Path:
    base = load_scenarios(bundled_dir("sample_data") / "scenarios", "en")
    count = -(-dialogues // len(PERSONAS))
    lines = ['language = "en"']
    for i in range(count):
        s = base[i % len(base)]
        lines += ["[[scenario]]", f'id = "{s.id}-{i}"', f"question = {json.dumps(s.question)}"]
    (folder / "scenarios").mkdir(exist_ok=True)
    (folder / "scenarios" / "en.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = folder / "ragtui.toml"
    config.write_text(
        f'language = "en"\nmax_turns = 3\nconcurrency = {concurrency}\ndatabase = "{db}"\n'
        f'scenarios = "scenarios"\npersonas = "{bundled_dir("personas")}"\n'
        f'[endpoint]\nbase_url = "{base_url}"\nmax_retries = 2\ntimeout = 30\n'
        '[roles.user]\nmodel = "bench-user"\n[roles.bot]\nmodel = "bench-bot"\n[roles.judge]\nmodel = "bench-judge"\n',
        encoding="utf-8",
    )
    return config


def ragtui_run(config: Path) -> list[str]:
    personas = [arg for p in PERSONAS for arg in ("-p", p)]
    return [sys.executable, "-m", "ragtui", "run", "--config", str(config), "--no-check", *personas]


def tally(db: Path) -> RecordTally:
    """What the run left in ``db``, read through ragtui's store (the cut replies by ``END``)."""
    store = Store.open_read_only(db)
    try:
        return record_tally(store, END)
    finally:
        store.close()


def fault_run(dialogues: int, rate: float, concurrency: int) -> tuple[float, int]:
    responder = FaultyResponder(rate)
    with FakeOpenAIServer(default=responder) as server, tempfile.TemporaryDirectory() as tmp:
        config = write_workspace(Path(tmp), server.base_url, dialogues, concurrency)
        started = time.perf_counter()
        result = subprocess.run(ragtui_run(config), capture_output=True, text=True)
        wall = time.perf_counter() - started
        db = Path(tmp) / "bench.db"
        record = tally(db)
    injected = ", ".join(f"{k} {responder.injected[k]}" for k in FAULTS)
    print(
        f"[faults {rate:.0%}] {record.sessions} dialogues, exit {result.returncode}, {responder.calls} chat calls, "
        f"{sum(responder.injected.values())} faults injected ({injected})"
    )
    print(f"  stop reasons: {dict(sorted(record.stops.items()))}")
    print(
        f"  messages stored {record.messages}; stream retries recorded on them {record.stream_retries}; "
        f"partial records kept {sum(record.partial.values())} {dict(record.partial)}"
    )
    print(f"  cut replies stored as complete messages: {record.not_ending}   <- must be 0")
    print(
        f"  bot turns {record.bot_turns}; turns without a verdict row {record.turns_without_verdict}; unscored turns {record.unscored_turns} "
        f"(unscored verdict rows {record.unscored_verdicts})"
    )
    print(f"  wall time {wall:.1f} s")
    return wall, responder.calls


def writers_run(processes: int, per_writer: int, concurrency: int) -> float:
    with FakeOpenAIServer(default=FaultyResponder(0.0)) as server, tempfile.TemporaryDirectory() as tmp:
        configs = []
        for i in range(processes):
            folder = Path(tmp) / f"w{i}"
            folder.mkdir()
            configs.append(
                write_workspace(folder, server.base_url, per_writer, concurrency, db=str(Path(tmp) / "shared.db"))
            )
        started = time.perf_counter()
        running = [
            subprocess.Popen(ragtui_run(c), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for c in configs
        ]
        errors = [p.communicate()[1] for p in running]
        wall = time.perf_counter() - started
        for process, error in zip(running, errors, strict=True):
            if process.returncode not in (0, 1):
                sys.exit(f"a writer failed ({process.returncode}): {error[-2000:]}")
        db = Path(tmp) / "shared.db"
        expected = processes * (-(-per_writer // len(PERSONAS)) * len(PERSONAS))
        stops = tally(db).stops
        good, in_error = stops["max_turns"], stops["error"]
        locked = sum("locked" in e for e in errors)
    print(
        f"[writers {processes}] {expected} dialogues in {processes} processes on one database: "
        f"lost or in error {expected - good} (in error {in_error}, lock errors {locked})   <- must be 0; "
        f"wall {wall:.1f} s"
    )
    return wall


def main() -> None:
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dialogues", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--per-writer", type=int, default=30)
    args = parser.parse_args()
    clean, clean_calls = fault_run(args.dialogues, 0.0, args.concurrency)
    for rate in (0.2, 0.5):
        wall, calls = fault_run(args.dialogues, rate, args.concurrency)
        print(
            f"  chat calls {calls} against {clean_calls} fault-free: {calls - clean_calls:+d} "
            "(retries of 429/500 and broken streams, less the calls of dialogues that ended early)"
        )
        print(f"  RATIO wall / fault-free = {wall / clean:.2f}x")
    alone = writers_run(1, args.per_writer, args.concurrency)
    for processes in (2, 3):
        wall = writers_run(processes, args.per_writer, args.concurrency)
        print(
            f"  RATIO wall / one writer alone = {wall / alone:.2f}x  (the same work in one process would be "
            f"~{processes:.0f}x its time)"
        )


if __name__ == "__main__":
    main()
