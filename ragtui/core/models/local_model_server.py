"""Child process that runs llama.cpp's OpenAI-compatible server (via ``xllamacpp``).

Started by ``LocalModel`` as ``python -m ragtui.core.models.local_model_server …``; never imported by
the parent, so the parent process does not load llama.cpp (1.9 GB RSS) into itself and a crash
in native code cannot take ragtui down. Its stdout/stderr go to a log file chosen by the parent.

The child must not outlive ragtui, even when ragtui is SIGKILLed:
- Linux ``prctl(PR_SET_PDEATHSIG, SIGTERM)`` makes the kernel signal us when the parent dies;
- a watchdog thread also polls that the parent pid is unchanged (other OSes, and the case where
  the parent spawned us from a thread that later exited — PDEATHSIG follows the thread).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

_PR_SET_PDEATHSIG = 1
EXIT_PARENT_GONE = 3
EXIT_LOAD_FAILED = 4


def _die_with_parent(parent_pid: int, use_pdeathsig: bool) -> None:
    if use_pdeathsig and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watchdog below still covers us
    # The parent may have died before prctl took effect: then we were already reparented.
    if os.getppid() != parent_pid:
        os._exit(EXIT_PARENT_GONE)

    def watchdog() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent_pid:
                # os._exit: skip llama.cpp destructors, which may block on worker threads.
                os._exit(EXIT_PARENT_GONE)

    threading.Thread(target=watchdog, name="parent-watchdog", daemon=True).start()


def _params(args: argparse.Namespace):  # -> xllamacpp.CommonParams (imported lazily)
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.model_alias = {args.alias}  # requests may then say model="<alias>"
    params.hostnames = [args.host]
    params.port = args.port  # 0: the OS picks a free port; we report it via the ready file
    params.n_ctx = args.ctx_size
    params.n_parallel = args.parallel
    # One KV cache shared by all slots: a single long dialogue may use the whole context,
    # instead of each slot being capped at n_ctx / n_parallel.
    params.kv_unified = True
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.cpuparams.poll = args.poll
    params.cpuparams_batch.poll = args.poll
    params.n_gpu_layers = 0
    params.cache_prompt = True  # server default for requests: reuse the slot's KV prefix
    params.n_cache_reuse = 256  # also reuse shifted chunks ≥ 256 tokens (dialogue histories)
    params.cache_ram_mib = args.cache_ram_mib  # host-RAM prompt cache; default 8 GiB is too much
    params.ui = False
    params.endpoint_metrics = False
    return params


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragtui.core.models.local_model_server")
    parser.add_argument("--model", required=True)
    parser.add_argument("--alias", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ctx-size", type=int, default=8192)
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--poll", type=int, default=50)
    parser.add_argument("--cache-ram-mib", type=int, default=1024)
    parser.add_argument("--ready-file", required=True, type=Path)
    parser.add_argument("--parent-pid", required=True, type=int)
    parser.add_argument("--pdeathsig", action="store_true")
    args = parser.parse_args(argv)

    _die_with_parent(args.parent_pid, args.pdeathsig)
    import xllamacpp

    try:
        # Blocks while the model loads; returns once the HTTP server is listening.
        server = xllamacpp.Server(_params(args))
    except RuntimeError as exc:  # details are in the log lines llama.cpp just wrote
        print(f"ragtui: llama.cpp server failed to start: {exc}", file=sys.stderr, flush=True)
        return EXIT_LOAD_FAILED
    address = server.listening_address  # e.g. "http://127.0.0.1:41475"
    port = int(address.rsplit(":", 1)[1].split("/")[0])
    tmp = args.ready_file.with_suffix(".tmp")
    tmp.write_text(json.dumps({"address": address, "port": port, "pid": os.getpid()}), encoding="utf-8")
    tmp.replace(args.ready_file)  # atomic: the parent never reads a half-written file
    print(f"ragtui: llama.cpp server ready at {address}", file=sys.stderr, flush=True)
    # Serve until SIGTERM (default action: exit at once) or until the watchdog sees no parent.
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
