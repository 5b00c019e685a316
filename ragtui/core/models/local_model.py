"""The embedded offline model: llama.cpp's OpenAI-compatible server in a child process.

``LocalModel.start()`` assembles the GGUF once (see ``local_model_file``), starts
``python -m ragtui.core.models.local_model_server`` bound to 127.0.0.1, waits until it answers
``/health`` and returns its base URL (``http://127.0.0.1:PORT/v1``) for any OpenAI client.
The model name to send is ``MODEL_ALIAS``. Measured on 2 cores: load ≈3 s, RSS ≈2 GB.

Cleanup happens on ``stop()``, on leaving the ``with`` block, at interpreter exit (atexit), and
— for signals that skip atexit, including SIGKILL — in the child itself (see its docstring).
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Self

from .. import paths
from ..errors import EndpointError, RagtuiError
from .local_model_file import EMBEDDED_MODEL, check_gguf, ensure_model_file

MODEL_ALIAS = "qwen2.5-coder-1.5b-instruct"
MIN_AVAILABLE_BYTES = 2_500_000_000  # model ≈1.1 GB mapped + KV cache + compute buffers
_LOG_ROTATE_BYTES = 10_000_000

StageProgress = Callable[[str, int, int], None]
"""Called as ``progress(stage, done, total)``; stage is "assembling" (bytes), "loading"
(elapsed ms of the timeout in ms) or "ready" (1, 1)."""


@dataclass(frozen=True)
class LocalModelSettings:
    model_path: Path | None = None  # None: the bundled model assembled from its packages
    ctx_size: int = 8192  # shared by all slots (kv_unified)
    parallel: int = 2  # e.g. simulated user and judge at once
    port: int = 0  # 0: any free port
    host: str = "127.0.0.1"
    threads: int = 0  # 0: default_threads()
    cache_ram_mib: int = 1024
    poll: int = 50  # llama.cpp threads busy-wait this much (0-100) between work items
    load_timeout: float = 180.0
    min_available_bytes: int = MIN_AVAILABLE_BYTES

    @classmethod
    def from_config(cls, embedded: object) -> LocalModelSettings:
        """Build from ``config.EmbeddedConfig`` (``model_path``, ``ctx_size``, ``port``)."""
        return cls(
            model_path=getattr(embedded, "model_path", None),
            ctx_size=getattr(embedded, "ctx_size", None) or cls.ctx_size,
            port=getattr(embedded, "port", 0) or 0,
            threads=getattr(embedded, "threads", 0) or 0,
        )


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
    """Owns one llama.cpp server child process. Not thread-safe: start/stop from one place."""

    def __init__(self, settings: LocalModelSettings | None = None) -> None:
        self.settings = settings or LocalModelSettings()
        self.model_name = MODEL_ALIAS
        self._proc: subprocess.Popen[bytes] | None = None
        self._port: int | None = None
        self._atexit_registered = False

    # -- state ---------------------------------------------------------------------------
    @property
    def is_running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None and self._port is not None

    @property
    def port(self) -> int | None:
        return self._port if self.is_running else None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    @property
    def base_url(self) -> str | None:
        return f"http://{self.settings.host}:{self._port}/v1" if self.is_running else None

    def rss_bytes(self) -> int | None:
        """Resident memory of the server process (VmRSS from /proc), None if not running."""
        pid = self.pid
        if pid is None:
            return None
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            pass
        return None

    # -- lifecycle -----------------------------------------------------------------------
    def start(self, progress: StageProgress | None = None) -> str:
        """Start the server if needed and return its base URL once it answers /health."""
        if self.is_running:
            return self.base_url  # type: ignore[return-value]
        report = progress or (lambda stage, done, total: None)
        s = self.settings
        if s.model_path is not None:
            model = check_gguf(Path(s.model_path))
        else:
            model = ensure_model_file(EMBEDDED_MODEL, lambda d, t: report("assembling", d, t))
        check_memory(s.min_available_bytes)
        check_port(s.host, s.port)
        report("loading", 0, int(s.load_timeout * 1000))
        log, log_offset = _open_log()
        ready_file = paths.state_dir() / f"llama-server.{os.getpid()}-{id(self):x}.ready.json"
        ready_file.unlink(missing_ok=True)
        try:
            self._proc = self._spawn(model, ready_file, log)
        finally:
            log.close()  # the child holds its own descriptor
        self._port = None
        if not self._atexit_registered:
            atexit.register(self.stop)
            self._atexit_registered = True
        try:
            self._port = self._wait_ready(ready_file, log_offset, report)
        except BaseException:
            self.stop()
            raise
        finally:
            ready_file.unlink(missing_ok=True)
        report("ready", 1, 1)
        return self.base_url  # type: ignore[return-value]

    def _spawn(self, model: Path, ready_file: Path, log: IO[bytes]) -> subprocess.Popen[bytes]:
        s = self.settings
        options = {
            "--model": model,
            "--alias": MODEL_ALIAS,
            "--host": s.host,
            "--port": s.port,
            "--ctx-size": s.ctx_size,
            "--parallel": s.parallel,
            "--threads": s.threads or default_threads(),
            "--poll": s.poll,
            "--cache-ram-mib": s.cache_ram_mib,
            "--ready-file": ready_file,
            "--parent-pid": os.getpid(),
        }
        args = [sys.executable, "-m", "ragtui.core.models.local_model_server"]
        for flag, value in options.items():
            args += [flag, str(value)]
        # PR_SET_PDEATHSIG fires when the *thread* that forked dies, so only ask for it when
        # spawning from the main thread; from a worker thread the child's pid poll covers us.
        if threading.current_thread() is threading.main_thread():
            args.append("--pdeathsig")
        env = dict(os.environ)
        package_root = str(Path(__file__).resolve().parents[2])  # so `-m ragtui…` imports
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        # New session: a Ctrl+C meant for the TUI does not also kill the server mid-request.
        return subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )

    def _wait_ready(self, ready_file: Path, log_offset: int, report: StageProgress) -> int:
        assert self._proc is not None
        started = time.monotonic()
        deadline = started + self.settings.load_timeout
        port: int | None = None
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise self._died_error(log_offset)
            if port is None and ready_file.is_file():
                port = int(json.loads(ready_file.read_text(encoding="utf-8"))["port"])
            if port is not None and _healthy(self.settings.host, port):
                return port
            elapsed = int((time.monotonic() - started) * 1000)
            report("loading", elapsed, int(self.settings.load_timeout * 1000))
            time.sleep(0.1)
        raise EndpointError(
            f"The embedded model did not become ready within {self.settings.load_timeout:.0f} s",
            f"see {log_path()}; last lines:\n{_log_tail(log_offset)}",
        )

    def _died_error(self, log_offset: int) -> RagtuiError:
        tail = _log_tail(log_offset)
        if "couldn't bind" in tail:
            return _port_error(self.settings.host, self.settings.port, "address in use")
        code = self._proc.returncode if self._proc else None
        return EndpointError(
            f"The embedded model server exited while loading (exit code {code})",
            f"see {log_path()}; last lines:\n{tail}",
        )

    def stop(self, timeout: float = 10.0) -> None:
        """Terminate the server (SIGTERM, then SIGKILL after ``timeout``). Safe to call twice."""
        proc, self._proc, self._port = self._proc, None, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)

    def restart(self, progress: StageProgress | None = None) -> str:
        """Stop (or clean up after a crash) and start again. An automatically chosen port is
        reused when it is still free, so clients already pointed at this server keep working;
        compare the returned URL with the old one to know."""
        previous = self._port
        self.stop()
        if previous and self.settings.port == 0:
            automatic = self.settings
            self.settings = dataclasses.replace(automatic, port=previous)
            try:
                return self.start(progress)
            except RagtuiError:
                pass  # the old port is taken now: any free port will do
            finally:
                self.settings = automatic
        return self.start(progress)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def default_threads() -> int:
    """Every usable CPU. Measured on an idle 2-core machine (bench/bench_embedded.py): two
    threads give ~45 prompt and ~10 generated tokens/s, one thread ~28 and ~6. llama.cpp's
    threads busy-wait, though: on cores shared with other heavy work two threads fell to ~1
    token/s while one kept ~5, so ``[embedded] threads = 1`` is the setting for busy machines."""
    return _usable_cpus()


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
