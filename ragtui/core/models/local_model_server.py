"""Process that runs llama.cpp's OpenAI-compatible server (via ``xllamacpp``), shared by every
ragtui process of the user.

Started by ``LocalModel`` as ``python -m ragtui.core.models.local_model_server …`` in a new
session (no terminal: a Ctrl-C meant for one ragtui does not reach it); never imported by
ragtui itself, so ragtui does not load llama.cpp (1.9 GB RSS) and a crash in native code cannot
take it down. Its stdout/stderr go to a log file chosen by the starter. The API token comes in
the environment (``RAGTUI_SERVER_TOKEN``), never on the command line where ``ps`` shows it.

It must not outlive the ragtui processes using it, even when they are SIGKILLed. A supervisor
thread polls the registry (``server_registry``): each attached process holds a lease file; a
lease whose process is gone is removed; once no live lease is left for ``keep_alive`` seconds
(the longest asked for by a lease that left), the server removes its state file under the
registry lock and exits. It also exits when the state file names another server (it was
replaced) or never names it within ``--claim-timeout`` seconds of being ready (its starter
died before publishing it).

``--backend tests.fakes.stub_llama`` serves a tiny stand-in instead of llama.cpp,
so the lifecycle can be tested with real processes in milliseconds and without the model.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import threading
import time
from pathlib import Path

from ..files.atomic import atomic_write_text
from .server_registry import Lease, Registry

EXIT_NO_CLIENTS = 0
EXIT_REPLACED = 3
EXIT_LOAD_FAILED = 4
TOKEN_ENV = "RAGTUI_SERVER_TOKEN"
POLL_SECONDS = 0.25


class Supervisor:
    """Decides when the server is no longer wanted. ``check()`` is one poll; the thread calls it
    every ``POLL_SECONDS``."""

    def __init__(self, registry: Registry, keep_alive: float, claim_timeout: float) -> None:
        self.registry = registry
        self.keep_alive = keep_alive
        self.claim_timeout = claim_timeout
        self.pid = os.getpid()
        self.known: dict[str, Lease] = {}
        self.linger_until = 0.0
        self.ready_at: float | None = None  # set once the HTTP server listens
        self.claimed = False  # the state file has named this process

    def check(self, now: float | None = None) -> int | None:
        """An exit code when the server should stop now, else None."""
        now = time.monotonic() if now is None else now
        state = self.registry.read_state()
        if state is not None and state.pid == self.pid:
            self.claimed = True
        elif self.claimed:
            return EXIT_REPLACED  # another server took over the state file: never two
        elif self.ready_at is not None and now - self.ready_at > self.claim_timeout:
            return EXIT_REPLACED  # ready, but the starter never published us
        live = {lease.name: lease for lease in self.registry.live_leases()}
        for name, lease in self.known.items():
            if name not in live:  # detached or died: honour the keep-alive it asked for
                self.linger_until = max(self.linger_until, now + lease.keep_alive)
        self.known = live
        if live or now < self.linger_until:
            return None
        # Nobody left: stop, unless a process is attaching right now (it holds the lock and
        # will have written its lease by the time we get the lock).
        with self.registry.locked(timeout=30):
            if self.registry.live_leases():
                return None
            self.registry.clear_state(self.pid)
        return EXIT_NO_CLIENTS

    def run_forever(self) -> None:
        while True:
            try:
                code = self.check()
            except Exception as exc:  # a broken registry must not leave the server up forever
                print(f"ragtui: supervisor error: {exc}", file=sys.stderr, flush=True)
                code = EXIT_REPLACED
            if code is not None:
                print(f"ragtui: server stopping (no ragtui process attached, code {code})", file=sys.stderr, flush=True)
                # os._exit: skip llama.cpp destructors, which may block on worker threads.
                os._exit(code)
            time.sleep(POLL_SECONDS)


def _params(args: argparse.Namespace, token: str | None):  # -> xllamacpp.CommonParams (imported lazily)
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
    # No extra buffer types = no repacking of the weights at load (see LocalModelSettings.repack).
    params.no_extra_bufts = not args.repack
    params.cache_prompt = True  # server default for requests: reuse the slot's KV prefix
    params.n_cache_reuse = 256  # also reuse shifted chunks ≥ 256 tokens (dialogue histories)
    params.cache_ram_mib = args.cache_ram_mib  # host-RAM prompt cache; default 8 GiB is too much
    if token:
        params.api_keys = [token]  # only ragtui processes (they read it from the state file)
    params.ui = False
    params.endpoint_metrics = False
    params.endpoint_slots = True  # `ragtui doctor` reads which slots are busy
    return params


def _serve_llama(args: argparse.Namespace, token: str | None) -> str | None:
    import xllamacpp

    try:
        # Blocks while the model loads; returns once the HTTP server is listening.
        server = xllamacpp.Server(_params(args, token))
    except RuntimeError as exc:  # details are in the log lines llama.cpp just wrote
        # llama.cpp writes its log from a worker thread: give it a moment to write the reason
        # (e.g. "failed to load model") before this process exits and the starter reads the tail.
        time.sleep(0.5)
        print(f"ragtui: llama.cpp server failed to start: {exc}", file=sys.stderr, flush=True)
        return None
    _keep.append(server)
    return server.listening_address  # e.g. "http://127.0.0.1:41475"


def _serve_stand_in(args: argparse.Namespace, token: str | None) -> str | None:
    """A stand-in server named by its module (the tests' ``tests.fakes.stub_llama``): loaded by
    name, so the shipped server does not depend on test code, which is not in the wheel."""
    serve = importlib.import_module(args.backend).serve
    return serve(args.host, args.port, token or "", args.alias, args.parallel)


_keep: list[object] = []  # the server object must live as long as the process


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
    parser.add_argument("--repack", type=int, choices=(0, 1), default=0)
    parser.add_argument("--ready-file", required=True, type=Path)
    parser.add_argument("--registry", required=True, type=Path)
    parser.add_argument("--keep-alive", type=float, default=0.0)
    parser.add_argument("--claim-timeout", type=float, default=60.0)
    parser.add_argument("--backend", default="llama", help="llama, or a stand-in server's module for tests")
    args = parser.parse_args(argv)
    token = os.environ.pop(TOKEN_ENV, None)

    # Watch the leases from the start: a starter killed while the model loads must not leave
    # a server behind.
    supervisor = Supervisor(Registry(args.registry), args.keep_alive, args.claim_timeout)
    threading.Thread(target=supervisor.run_forever, name="lease-supervisor", daemon=True).start()

    address = (_serve_llama if args.backend == "llama" else _serve_stand_in)(args, token)
    if address is None:
        return EXIT_LOAD_FAILED
    supervisor.ready_at = time.monotonic()
    port = int(address.rsplit(":", 1)[1].split("/")[0])
    ready = {"address": address, "port": port, "pid": os.getpid()}
    atomic_write_text(args.ready_file, json.dumps(ready))  # the starter never reads a half-written file
    print(f"ragtui: server ready at {address}", file=sys.stderr, flush=True)
    # Serve until SIGTERM (default action: exit at once) or until the supervisor exits us.
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
