"""``ragtui run --workers N``: N processes share one run and one database.

One Python process spends a few milliseconds of CPU per model call (HTTP, SSE parsing, prompts,
SQLite); at hundreds of concurrent dialogues against a fast cluster it is CPU-bound long before
the endpoint is. This process stores the run's plan (store/run_plan.py) before any worker
starts; workers split it (dialogue k goes to worker k mod N) and the concurrency between them;
each is ``ragtui run`` itself with a hidden ``--worker-slice i/N`` and the shared ``--run-id``, writing
its sessions to the same SQLite file (WAL, ``BEGIN IMMEDIATE`` writes, see store/locking.py).
Each worker creates its own sessions, so each session's owner is the worker running it: a
worker that dies leaves its sessions interrupted (or, dead before it made them, its share
unstarted in the plan), and ``ragtui run --resume RUN`` continues or starts them. This process forwards the workers' progress lines
and, once all have exited, prints the whole run's table and exit status from the database, as a
single-process run would. Ctrl-C or SIGTERM stops the workers the same way (their running
dialogues are recorded as cancelled).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from pathlib import Path

from ..core.config.limits import MAX_WORKERS, count_text
from ..core.types.errors import RagtuiError


def parse_worker_slice(value: str) -> tuple[int, int]:
    """``"i/N"`` → (i, N), with 0 ≤ i < N: worker i of N runs entries i, i+N, … of the stored
    plan (the whole run's, or a ``--shard``'s slice of it). Internal: ``--shard`` is the public,
    1-based option."""
    index, _, count = value.partition("/")
    try:
        i, n = int(index), int(count)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--worker-slice must be i/N, got {value!r}") from None
    if not 0 <= i < n:
        raise argparse.ArgumentTypeError(f"--worker-slice {value}: i must be 0 … N-1")
    return i, n


def check_workers(args: argparse.Namespace, embedded: bool) -> int:
    """The number of worker processes asked for, refusing what cannot work before anything runs."""
    workers = getattr(args, "workers", None)
    if workers is None:
        return 1
    if workers < 1:  # 0 is refused too: it is not "one", nor "as many as cores"
        raise RagtuiError(f"--workers must be at least 1, got {workers}")
    if workers > MAX_WORKERS:
        raise RagtuiError(
            f"--workers must be at most {MAX_WORKERS}, got {count_text(workers)}",
            f"give {MAX_WORKERS} or fewer; --concurrency sets the dialogues each one runs at once",
        )
    if workers == 1:
        return 1
    if embedded:
        raise RagtuiError(
            "--workers needs a configured endpoint", "the embedded model is one local server: run without --workers"
        )
    for flag in ("resume", "replay"):
        if getattr(args, flag, None):
            raise RagtuiError(f"--workers cannot be combined with --{flag}", f"run --{flag} without --workers")
    return workers


def worker_command(
    args: argparse.Namespace, run_id: str, index: int, workers: int, concurrency: int, database: Path | None
) -> list[str]:
    """The ``ragtui run`` command line of worker ``index``: the same choices, its share. API keys
    stay in the environment the workers inherit, never on a command line."""
    command = [
        sys.executable,
        "-m",
        "ragtui",
        "run",
        "--run-id",
        run_id,
        "--worker-slice",
        f"{index}/{workers}",
        "--no-check",
    ]
    options: list[tuple[str, object]] = [
        ("--config", getattr(args, "config", None)),
        ("--db", database or getattr(args, "db", None)),
        ("--language", getattr(args, "language", None)),
        ("--model", getattr(args, "model", None)),
        ("--max-turns", getattr(args, "max_turns", None)),
        ("--threshold", getattr(args, "threshold", None)),
        ("--scenarios", getattr(args, "scenarios", None)),
        ("--knowledge", getattr(args, "knowledge", None)),
    ]
    for flag, value in options:
        if value is not None:
            command += [flag, str(value.resolve()) if isinstance(value, Path) else str(value)]
    command += ["--concurrency", str(concurrency)]
    for flag, values in (("-s", args.scenario), ("-p", args.persona), ("--metric", args.metrics)):
        for value in values:
            command += [flag, value]
    if getattr(args, "include_drafts", False):  # the workers must plan the same scenarios as the parent
        command.append("--include-drafts")
    return command


async def run_workers(
    args: argparse.Namespace, run_id: str, workers: int, concurrency: int, database: Path | None
) -> tuple[list[int], bool]:
    """Start the workers, forward their lines, wait for all; their exit statuses and whether
    the run was stopped (Ctrl-C or SIGTERM here)."""
    share = max(1, -(-concurrency // workers))
    print(f"run {run_id}: {workers} worker processes, concurrency {share} each", flush=True)
    children = [
        await asyncio.create_subprocess_exec(
            *worker_command(args, run_id, i, workers, share, database),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for i in range(workers)
    ]

    async def forward(index: int, stream: asyncio.StreamReader | None, out: object) -> None:
        # Written as plain text, never through Rich markup: the lines carry model output.
        if stream is None:
            return
        while line := await stream.readline():
            out.write(f"w{index} {line.decode('utf-8', errors='replace').rstrip()}\n")  # type: ignore[attr-defined]
            out.flush()  # type: ignore[attr-defined]

    pumps = asyncio.gather(
        *(forward(i, c.stdout, sys.stdout) for i, c in enumerate(children)),
        *(forward(i, c.stderr, sys.stderr) for i, c in enumerate(children)),
    )
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    stopped = False

    def stop() -> None:
        nonlocal stopped
        stopped = True
        if task is not None:
            task.cancel()

    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        await asyncio.shield(pumps)
    except asyncio.CancelledError:
        # Ctrl-C or SIGTERM: each worker records its running dialogues as cancelled and exits.
        stopped = True
        if task is not None:
            task.uncancel()
        for child in children:
            if child.returncode is None:
                child.send_signal(signal.SIGTERM)
        await pumps
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.remove_signal_handler(signal.SIGTERM)
    return [await c.wait() for c in children], stopped
