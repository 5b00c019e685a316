"""The embedded offline model: llama.cpp's OpenAI-compatible server, one per user, shared.

``LocalModel.start()`` attaches to the server other ragtui processes already run, or starts
it: assembles the GGUF once (see ``local_model_file``), runs
``python -m ragtui.core.models.local_model_server`` bound to 127.0.0.1 with a fresh API token,
waits until it answers and publishes it in the registry (``server_registry``). It returns the
base URL (``http://127.0.0.1:PORT/v1``); every request must carry ``token`` as its API key.
The model name to send is ``MODEL_ALIAS``. Measured on 2 cores: load ≈3 s, RSS ≈2 GB.

The server stops when the last attached process detaches (``stop()``, the ``with`` block, or
atexit) or dies — also by SIGKILL: its supervisor watches the lease files.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import secrets
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Self

from ..config import paths
from ..types.errors import EndpointError, RagtuiError
from .local_model_file import EMBEDDED_MODEL, check_gguf, ensure_model_file
from .local_model_server import TOKEN_ENV
from .server_registry import Lease, Registry, ServerState, process_alive, process_start_time, rss_bytes

MODEL_ALIAS = "qwen2.5-coder-1.5b-instruct"
MIN_AVAILABLE_BYTES = 2_500_000_000  # model ≈1.1 GB mapped + KV cache + compute buffers
_LOG_ROTATE_BYTES = 10_000_000

StageProgress = Callable[[str, int, int], None]
"""Called as ``progress(stage, done, total)``; stage is "waiting" (another process is starting
the server), "assembling" (bytes), "loading" (elapsed ms of the timeout in ms), "attached" (a
running server was found) or "ready" (1, 1)."""


@dataclass(frozen=True)
class LocalModelSettings:
    model_path: Path | None = None  # None: the bundled model assembled from its packages
    ctx_size: int = 8192  # shared by all slots (kv_unified)
    parallel: int = 2  # request slots: dialogues (and processes) decode together, not in turn
    port: int = 0  # 0: any free port
    host: str = "127.0.0.1"
    threads: int = 0  # 0: default_threads()
    cache_ram_mib: int = 1024
    poll: int = 50  # llama.cpp threads busy-wait this much (0-100) between work items
    # Repack the weights into llama.cpp's interleaved CPU layout at load. Off by default: on
    # two AVX2 cores the bundled Q4_K_M model read prompts ~1.3× faster and loaded in 2.5 s
    # instead of 7 s without it, for ~10 % slower generation (docs/benchmarks.md).
    repack: bool = False
    load_timeout: float = 180.0
    min_available_bytes: int = MIN_AVAILABLE_BYTES
    keep_alive: float = 0.0  # seconds the server stays up after the last process detaches
    backend: str = "llama"  # or a stand-in server's module, for lifecycle tests (tests.fakes.stub_llama)

    @classmethod
    def from_config(cls, embedded: object, concurrency: int = 1) -> LocalModelSettings:
        """Build from ``config.EmbeddedConfig``; slots sized for ``concurrency`` dialogues."""
        parallel = getattr(embedded, "parallel", 0) or slots_for(concurrency)
        ctx_size = getattr(embedded, "ctx_size", None) or cls.ctx_size
        busy = busy_slots_for(concurrency)
        return cls(
            model_path=getattr(embedded, "model_path", None),
            # Each busy slot holds a dialogue's prompt (≈1–3k tokens) in the shared KV cache; the
            # idle pinned slots' prompts (a few thousand tokens in all) fit beside them.
            ctx_size=max(ctx_size, CTX_PER_SLOT * busy) if not getattr(embedded, "parallel", 0) else ctx_size,
            parallel=parallel,
            port=getattr(embedded, "port", 0) or 0,
            threads=getattr(embedded, "threads", 0) or 0,
            repack=bool(getattr(embedded, "repack", False)),
            keep_alive=float(getattr(embedded, "keep_alive", 0.0) or 0.0),
        )


CTX_PER_SLOT = 3072
MAX_AUTO_SLOTS = 4


def busy_slots_for(concurrency: int) -> int:
    """Slots busy at once for ``concurrency`` dialogues: each dialogue has one request in
    flight at a time, and on two cores llama.cpp decodes a batch of four sequences for little
    more than the cost of one (generation is memory-bound), so queueing would waste it. At
    least two, so a second ragtui process is not stuck behind the first; at most four by
    default, as each busy slot's prompt takes room in the KV cache."""
    return max(2, min(concurrency, MAX_AUTO_SLOTS))


PROMPT_FAMILIES = 6
"""Prompts of one dialogue that share no beginning with each other: the customer's, its check's,
the bot's, and the judge's (its rubric checks, its statement steps, its other checks). llama.cpp
sends a request to the slot whose last prompt it shares the longest beginning with, else to the
least recently used one; with a slot per family, each family's next prompt finds its own
beginning still cached instead of one another family evicted."""


def slots_for(concurrency: int) -> int:
    """Request slots for ``concurrency`` dialogues at once: the busy ones, and at least one per
    prompt family of a dialogue (``PROMPT_FAMILIES``). An idle slot costs only the room its
    cached prompt takes in the shared KV cache."""
    return max(busy_slots_for(concurrency), PROMPT_FAMILIES)


def log_path() -> Path:
    return paths.state_dir() / "llama-server.log"


def available_memory() -> int | None:
    """MemAvailable from /proc/meminfo in bytes, or None where that file does not exist."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_memory(minimum: int = MIN_AVAILABLE_BYTES) -> None:
    free = available_memory()
    if free is not None and free < minimum:
        raise RagtuiError(
            f"Too little memory for the embedded model: {free / 1e9:.1f} GB available, "
            f"about {minimum / 1e9:.1f} GB needed",
            "close other programs, or configure an endpoint ([endpoint] base_url) instead",
        )


def check_port(host: str, port: int) -> None:
    """A fixed port must be free now; llama.cpp would only say "couldn't bind" in its log."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # As llama.cpp's HTTP server does: connections of a previous server on this port left
        # in TIME_WAIT must not make a restart on the same port look impossible.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise _port_error(host, port, str(exc)) from None


def _port_error(host: str, port: int, why: str) -> RagtuiError:
    return RagtuiError(
        f"The embedded model cannot listen on {host}:{port} ({why})",
        "set [embedded] port to another port, or to 0 for any free port",
    )


class LocalModel:
    """This process's attachment to the shared embedded server (see ``server_registry``).

    ``start()`` attaches to the server other ragtui processes of the user already run — or, if
    there is none (or only a stale state file), starts it — and holds a lease on it until
    ``stop()``. The server stops when the last lease goes: at ``stop()`` of the last process,
    or, when a process dies without stopping (SIGKILL), by the server's own supervisor.
    Not thread-safe: start/stop from one place."""

    def __init__(self, settings: LocalModelSettings | None = None, registry: Registry | None = None) -> None:
        self.settings = settings or LocalModelSettings()
        self.registry = registry or Registry()
        self.model_name = MODEL_ALIAS
        self.started_here = False  # this process started the server it is attached to
        self._state: ServerState | None = None
        self._lease: Lease | None = None
        self._proc: subprocess.Popen[bytes] | None = None  # set when this process spawned it
        self._atexit_registered = False

    # -- state ---------------------------------------------------------------------------
    @property
    def is_running(self) -> bool:
        if self._proc is not None:
            self._proc.poll()  # reap our own child if it died, so it does not look alive
        return self._state is not None and self._lease is not None and self._state.alive

    @property
    def state(self) -> ServerState | None:
        return self._state if self.is_running else None

    @property
    def port(self) -> int | None:
        return self._state.port if self.is_running and self._state else None

    @property
    def pid(self) -> int | None:
        return self._state.pid if self.is_running and self._state else None

    @property
    def token(self) -> str | None:
        """The server's API key: every request to it must carry it."""
        return self._state.token if self._state else None

    @property
    def base_url(self) -> str | None:
        return self._state.base_url if self.is_running and self._state else None

    @property
    def address(self) -> str | None:
        """The base URL clients were given, also after the server died (``base_url`` is None then)."""
        return self._state.base_url if self._state else None

    def rss_bytes(self) -> int | None:
        """Resident memory of the server process (VmRSS from /proc), None if not running."""
        pid = self.pid
        return None if pid is None else rss_bytes(pid)

    def busy_slots(self) -> tuple[int, int] | None:
        """(slots processing a request now, slots) from llama.cpp's ``/slots``, or None."""
        state = self.state
        if state is None:
            return None
        request = urllib.request.Request(
            f"http://{state.host}:{state.port}/slots", headers={"Authorization": f"Bearer {state.token}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                slots = json.loads(response.read())
        except (urllib.error.URLError, OSError, ValueError):
            return None
        if not isinstance(slots, list):
            return None
        return sum(1 for slot in slots if isinstance(slot, dict) and slot.get("is_processing")), len(slots)

    def attached(self) -> list[Lease]:
        """The ragtui processes using the server now (this one included)."""
        return self.registry.live_leases()

    # -- lifecycle -----------------------------------------------------------------------
    def start(self, progress: StageProgress | None = None) -> str:
        """Attach to the shared server, starting it if needed; return its base URL once it
        answers with our token."""
        if self.is_running:
            return self.base_url  # type: ignore[return-value]
        report = progress or (lambda stage, done, total: None)
        added = False
        try:
            with self.registry.locked(waiting=lambda: report("waiting", 0, 0)):
                state = self._usable_state()
                if self._lease is None:
                    # Before spawning: the new server's supervisor must see a lease from its
                    # first poll on, or a starter killed while loading would leave it behind.
                    self._lease = self.registry.add_lease(self.settings.keep_alive)
                    added = True
                if state is None:
                    state = self._start_server(report, self.settings.port, secrets.token_urlsafe(24))
                    self.started_here = True
                else:
                    report("attached", 1, 1)
                self._state = state
        except BaseException:
            if added and self._lease is not None:
                self.registry.remove_lease(self._lease)
                self._lease = None
            raise
        if not self._atexit_registered:
            atexit.register(self.stop)
            self._atexit_registered = True
        report("ready", 1, 1)
        return self.base_url  # type: ignore[return-value]

    def _usable_state(self) -> ServerState | None:
        """The running shared server if it is alive and answers with its token; a stale state
        file (server gone, pid reused, port answered by something else, server hung) is
        removed — and a hung server of ours is killed — so the caller starts a fresh one."""
        state = self.registry.read_state()
        if state is None:
            return None
        if state.alive and _answers(state):
            wanted = self._model_key()
            if wanted is not None and state.model != wanted:
                raise RagtuiError(
                    f"The shared embedded server runs {state.model}, but this configuration asks for {wanted}",
                    "use the same [embedded] model_path in every ragtui process, or stop the others "
                    "(`ragtui doctor` lists them)",
                )
            return state
        if state.alive and _is_server_process(state.pid):  # ours, but not answering: hung
            _kill(state.pid)
            wait_gone(state.pid, state.start, 10)
        self.registry.clear_state()
        return None

    def _model_key(self) -> str | None:
        s = self.settings
        return str(Path(s.model_path).resolve()) if s.model_path is not None else None

    def _start_server(self, report: StageProgress, port: int, token: str) -> ServerState:
        s = self.settings
        if s.model_path is not None:
            model = check_gguf(Path(s.model_path))
        else:
            model = ensure_model_file(EMBEDDED_MODEL, lambda d, t: report("assembling", d, t))
        check_memory(s.min_available_bytes)
        check_port(s.host, port)
        report("loading", 0, int(s.load_timeout * 1000))
        log, log_offset = _open_log()
        ready_file = self.registry.dir / f"ready.{os.getpid()}-{id(self):x}.json"
        ready_file.unlink(missing_ok=True)
        threads = s.threads or default_threads()
        try:
            self._proc = self._spawn(model, port, token, ready_file, log, threads)
        finally:
            log.close()  # the child holds its own descriptor
        try:
            port = self._wait_ready(ready_file, log_offset, report, port)
            pid = self._proc.pid
            state = ServerState(
                pid=pid,
                start=process_start_time(pid) or 0,
                host=s.host,
                port=port,
                token=token,
                model=str(model.resolve()),
                parallel=s.parallel,
                threads=threads,
                ctx_size=s.ctx_size,
                log=str(log_path()),
                started=time.time(),
            )
            self.registry.write_state(state)
        except BaseException:
            proc, self._proc = self._proc, None
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(10)
            raise
        finally:
            ready_file.unlink(missing_ok=True)
        return state

    def _spawn(
        self, model: Path, port: int, token: str, ready_file: Path, log: IO[bytes], threads: int
    ) -> subprocess.Popen[bytes]:
        s = self.settings
        options = {
            "--model": model,
            "--alias": MODEL_ALIAS,
            "--host": s.host,
            "--port": port,
            "--ctx-size": s.ctx_size,
            "--parallel": s.parallel,
            "--threads": threads,
            "--poll": s.poll,
            "--cache-ram-mib": s.cache_ram_mib,
            "--repack": int(s.repack),
            "--ready-file": ready_file,
            "--registry": self.registry.dir,
            "--keep-alive": s.keep_alive,
            "--claim-timeout": s.load_timeout,
            "--backend": s.backend,
        }
        args = [sys.executable, "-m", "ragtui.core.models.local_model_server"]
        for flag, value in options.items():
            args += [flag, str(value)]
        env = dict(os.environ)
        package_root = str(Path(__file__).resolve().parents[3])  # so `-m ragtui…` imports
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        env[TOKEN_ENV] = token  # not on the command line, where `ps` would show it
        # New session: no controlling terminal, so a Ctrl+C meant for one ragtui does not
        # also kill the server the others use; the lease supervisor decides when it stops.
        return subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )

    def _wait_ready(self, ready_file: Path, log_offset: int, report: StageProgress, wanted_port: int) -> int:
        assert self._proc is not None
        started = time.monotonic()
        deadline = started + self.settings.load_timeout
        port: int | None = None
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise self._died_error(log_offset, wanted_port)
            if port is None and ready_file.is_file():
                port = int(json.loads(ready_file.read_text(encoding="utf-8"))["port"])
            if port is not None and _healthy(self.settings.host, port):
                return port
            elapsed = int((time.monotonic() - started) * 1000)
            report("loading", elapsed, int(self.settings.load_timeout * 1000))
            time.sleep(0.1)  # polling the child's readiness, bounded by the deadline above
        raise EndpointError(
            f"The embedded model did not become ready within {self.settings.load_timeout:.0f} s",
            f"see {log_path()}; last lines:\n{_log_tail(log_offset)}",
        )

    def _died_error(self, log_offset: int, port: int) -> RagtuiError:
        tail = _log_tail(log_offset)
        if "couldn't bind" in tail:
            return _port_error(self.settings.host, port, "address in use")
        code = self._proc.returncode if self._proc else None
        return EndpointError(
            f"The embedded model server exited while loading (exit code {code})",
            f"see {log_path()}; last lines:\n{tail}",
        )

    def stop(self, timeout: float = 10.0) -> None:
        """Detach. The last process to detach stops the server (SIGTERM, then SIGKILL after
        ``timeout``) unless ``keep_alive`` asks the server to stay warm. Safe to call twice."""
        lease, self._lease = self._lease, None
        self._state = None
        if lease is None:
            return
        victim: ServerState | None = None
        with self.registry.locked(timeout=30):
            self.registry.remove_lease(lease)
            current = self.registry.read_state()
            if current is not None and not self.registry.live_leases() and self.settings.keep_alive <= 0:
                self.registry.clear_state()
                victim = current
        if victim is not None and victim.alive and _is_server_process(victim.pid):
            _kill(victim.pid, signal.SIGTERM)
            if not self._reap(victim.pid, timeout) and not wait_gone(victim.pid, victim.start, timeout):
                _kill(victim.pid)
                wait_gone(victim.pid, victim.start, 5)
        self._reap(None, 0)

    def _reap(self, pid: int | None, timeout: float) -> bool:
        """Wait for our own child (no zombie left); False if it is not ours or still runs."""
        proc = self._proc
        if proc is None or (pid is not None and proc.pid != pid):
            return False
        try:
            proc.wait(timeout) if timeout else proc.poll()
        except subprocess.TimeoutExpired:
            return False
        if proc.returncode is not None:
            self._proc = None
        return proc.returncode is not None

    def restart(self, progress: StageProgress | None = None) -> str:
        """Start the shared server again after it crashed or hung, on the same port and with
        the same token when that port is still free, so every attached process's clients keep
        working; compare the returned URL with the old one to know. A server that is up and
        answering (another process restarted it first) is kept."""
        report = progress or (lambda stage, done, total: None)
        previous = self._state
        with self.registry.locked(waiting=lambda: report("waiting", 0, 0)):
            state = self._usable_state()
            if state is None:
                if self._lease is None:
                    self._lease = self.registry.add_lease(self.settings.keep_alive)
                token = previous.token if previous else secrets.token_urlsafe(24)
                port = previous.port if previous and self.settings.port == 0 else self.settings.port
                try:
                    state = self._start_server(report, port, token)
                except RagtuiError:
                    if port == self.settings.port:
                        raise
                    state = self._start_server(report, self.settings.port, token)  # the old port is taken
                self.started_here = True
            self._state = state
        report("ready", 1, 1)
        return state.base_url

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _answers(state: ServerState) -> bool:
    """Does the server at the state's port accept the state's token? A port reused by another
    program, or by a server with another token, answers 401/404 or not at all."""
    request = urllib.request.Request(
        f"http://{state.host}:{state.port}/props", headers={"Authorization": f"Bearer {state.token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status == 200 and MODEL_ALIAS in response.read(65536).decode("utf-8", "replace")
    except (urllib.error.URLError, OSError, ValueError):
        return False


def _is_server_process(pid: int) -> bool:
    """Only ever kill a process that is a ragtui model server, whatever a state file says."""
    try:
        return b"ragtui.core.models.local_model_server" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _kill(pid: int, sig: int = signal.SIGKILL) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, sig)


def wait_gone(pid: int, start: int, timeout: float) -> bool:
    """Wait until the process is gone (a pidfd: no sleeping, any process); True if it is."""
    if not process_alive(pid, start):
        return True
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        deadline = time.monotonic() + timeout
        while process_alive(pid, start) and time.monotonic() < deadline:
            time.sleep(0.05)  # no pidfd on this platform: poll, bounded by the deadline
        return not process_alive(pid, start)
    try:
        select.select([fd], [], [], timeout)
    finally:
        os.close(fd)
    return not process_alive(pid, start)


def default_threads(load: float | None = None, cpus: int | None = None) -> int:
    """Every usable CPU on a quiet machine; one fewer when other work already keeps them busy.

    Measured on an idle 2-core machine (bench/bench_embedded.py): two threads give ~45 prompt
    and ~10 generated tokens/s, one thread ~28 and ~6. llama.cpp's threads wait for each other
    at every step, though, and on cores shared with other heavy work two threads fell to 0.35
    generated tokens/s while one kept ~5. So the CPUs busy right now decide (``busy_cpus``, a
    quarter-second sample: the 1-minute load average would still count a ragtui run that just
    ended): within half a CPU of ``cpus`` means busy. ``[embedded] threads`` overrides it."""
    cpus = _usable_cpus() if cpus is None else cpus
    if load is None:
        load = busy_cpus()
    if cpus > 1 and load >= cpus - 0.5:
        return cpus - 1
    return cpus


def busy_cpus(sample_s: float = 0.25) -> float:
    """How many CPUs' worth of work the machine is doing now: two readings of /proc/stat
    ``sample_s`` apart; where there is no /proc/stat, the 1-minute load average."""
    first = _cpu_times()
    if first is None:
        try:
            return os.getloadavg()[0]
        except OSError:  # not every system reports it
            return 0.0
    time.sleep(sample_s)
    second = _cpu_times()
    if second is None:
        return 0.0
    return cpu_share((first, second)) * (os.cpu_count() or 1)


def cpu_share(readings: tuple[tuple[int, int], tuple[int, int]]) -> float:
    """The busy share (0–1) of all CPUs between two (busy, total) jiffy readings."""
    (busy_a, total_a), (busy_b, total_b) = readings
    total = total_b - total_a
    return 0.0 if total <= 0 else max(0.0, min(1.0, (busy_b - busy_a) / total))


def _cpu_times() -> tuple[int, int] | None:
    """(busy, total) jiffies of all CPUs from the first line of /proc/stat."""
    try:
        with open("/proc/stat", encoding="ascii") as handle:
            fields = [int(v) for v in handle.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    if len(fields) < 5:
        return None
    idle = fields[3] + fields[4]  # idle and iowait
    total = sum(fields[:8])  # user … steal; guest time is already inside user
    return total - idle, total


def _usable_cpus() -> int:
    """CPUs this process may use (honours taskset/cgroup affinity, unlike os.cpu_count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _healthy(host: str, port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/health", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False  # 503 while loading, or not listening yet


def _open_log() -> tuple[IO[bytes], int]:
    """Open the shared log for appending (rotated when large); return it and this run's offset."""
    path = log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_file() and path.stat().st_size > _LOG_ROTATE_BYTES:
        path.replace(path.with_name(path.name + ".1"))
    log = path.open("ab")
    log.write(f"\n=== ragtui: starting llama.cpp server {time.strftime('%Y-%m-%d %H:%M:%S')} ===\n".encode())
    log.flush()
    return log, log.tell()


def _log_tail(offset: int, lines: int = 12) -> str:
    try:
        with log_path().open("rb") as log:
            log.seek(offset)
            text = log.read().decode("utf-8", "replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.strip().splitlines()[-lines:]) or "(empty log)"
