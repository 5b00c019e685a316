"""Where ragtui processes of one user find the shared embedded server, and who uses it.

One directory (``$XDG_STATE_HOME/ragtui/embedded``, mode 0700) holds:

- ``lock`` — an ``flock`` taken while a process attaches, starts, detaches or stops the server,
  so two processes never start two servers and the server never stops under an attach;
- ``server.json`` — the running server: pid (with its start time, so a recycled pid is not
  mistaken for it), port, API token (file mode 0600), model and settings;
- ``leases/<pid>-<start>.json`` — one per attached process. The server's supervisor
  (``local_model_server``) polls them: a lease whose process is gone (even after SIGKILL) is
  removed, and once no live lease is left for ``keep_alive`` seconds the server exits.

Everything here is plain files and pids, so it survives any process being killed between two
writes: every write is atomic (temporary file + rename) and every reader checks liveness.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from ..config import paths
from ..files.atomic import atomic_write_text
from ..types.errors import RagtuiError

LOCK_WAIT_SECONDS = 300.0  # another process may be assembling (≈5 s) and loading the model


def registry_dir() -> Path:
    return paths.state_dir() / "embedded"


def process_start_time(pid: int) -> int | None:
    """The kernel's start time of ``pid`` (clock ticks since boot), or None if it is gone or a
    zombie. Together with the pid it names one process for good: pids are recycled."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        if sys.platform.startswith("linux"):
            return None
        try:  # no /proc: liveness only
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass
        return 0
    fields = stat[stat.rfind(")") + 2 :].split()  # after "pid (comm) "; comm may hold spaces
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[19])


def process_alive(pid: int, start: int) -> bool:
    now = process_start_time(pid)
    return now is not None and (start == 0 or now == start)


def rss_bytes(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _write_json(path: Path, data: dict[str, object], mode: int = 0o600) -> None:
    atomic_write_text(path, json.dumps(data), mode=mode)  # a reader never sees half a file


def _read_json(path: Path) -> dict[str, object] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


@dataclass(frozen=True)
class ServerState:
    """What ``server.json`` says about the running server. ``token`` is its API key."""

    pid: int
    start: int
    host: str
    port: int
    token: str
    model: str
    parallel: int
    threads: int
    ctx_size: int
    log: str
    started: float

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    @property
    def alive(self) -> bool:
        return process_alive(self.pid, self.start)


@dataclass(frozen=True)
class Lease:
    """One attached ragtui process."""

    pid: int
    start: int
    command: str
    since: float
    keep_alive: float

    @property
    def name(self) -> str:
        return f"{self.pid}-{self.start}.json"

    @property
    def alive(self) -> bool:
        return process_alive(self.pid, self.start)


class Registry:
    """The files in one registry directory (tests point ``XDG_STATE_HOME`` at a tmp dir)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.dir = directory or registry_dir()
        self.state_file = self.dir / "server.json"
        self.leases_dir = self.dir / "leases"
        self.lock_file = self.dir / "lock"

    def ensure(self) -> None:
        self.leases_dir.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            self.dir.chmod(0o700)  # the state file holds the server's token

    @contextlib.contextmanager
    def locked(self, timeout: float = LOCK_WAIT_SECONDS, waiting: object = None) -> Iterator[None]:
        """Hold the registry lock. ``waiting()`` is called (once) if another process holds it."""
        self.ensure()
        fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            deadline = time.monotonic() + timeout
            told = False
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise RagtuiError(
                            f"Another ragtui process has held {self.lock_file} for {timeout:.0f} s",
                            "it may be starting the embedded model on a very busy machine; try again, "
                            "or run `ragtui doctor` to see which processes use the model",
                        ) from None
                    if not told and callable(waiting):
                        waiting()
                        told = True
                    time.sleep(0.05)  # polling a lock held by another process, bounded above
            yield
        finally:
            os.close(fd)  # closing releases the flock, also when the process dies

    # -- the server ------------------------------------------------------------------------
    def read_state(self) -> ServerState | None:
        data = _read_json(self.state_file)
        if data is None:
            return None
        try:
            return ServerState(**data)  # type: ignore[arg-type]
        except TypeError:
            return None  # written by another ragtui version: treated as stale

    def write_state(self, state: ServerState) -> None:
        self.ensure()
        _write_json(self.state_file, asdict(state))

    def clear_state(self, pid: int | None = None) -> None:
        """Remove the state file (only if it still names ``pid``, when given)."""
        if pid is not None:
            current = self.read_state()
            if current is not None and current.pid != pid:
                return
        self.state_file.unlink(missing_ok=True)

    # -- leases ----------------------------------------------------------------------------
    def add_lease(self, keep_alive: float, command: str | None = None) -> Lease:
        pid = os.getpid()
        lease = Lease(pid, process_start_time(pid) or 0, command or describe_command(), time.time(), keep_alive)
        self.ensure()
        _write_json(self.leases_dir / lease.name, asdict(lease), 0o644)
        return lease

    def remove_lease(self, lease: Lease) -> None:
        (self.leases_dir / lease.name).unlink(missing_ok=True)

    def leases(self) -> list[Lease]:
        """Every lease on file, live or not (read errors skipped: a half-gone file)."""
        found = []
        for path in sorted(self.leases_dir.glob("*.json")) if self.leases_dir.is_dir() else ():
            data = _read_json(path)
            try:
                found.append(Lease(**data))  # type: ignore[arg-type]
            except TypeError:
                path.unlink(missing_ok=True)
        return found

    def live_leases(self) -> list[Lease]:
        """Leases of running processes; those of dead ones are removed on the way."""
        live = []
        for lease in self.leases():
            if lease.alive:
                live.append(lease)
            else:
                self.remove_lease(lease)
        return live


def describe_command() -> str:
    """How ``ragtui doctor`` names an attached process: ``ragtui run -s id-linking …``."""
    first = sys.argv[0] if sys.argv else ""
    if first.endswith("__main__.py"):
        name = "ragtui"  # python -m ragtui
    elif first in ("", "-c"):
        name = f"python {first}".strip()
    else:
        name = Path(first).name
    argv = [name, *sys.argv[1:]]
    text = " ".join(argv)
    return text if len(text) <= 80 else text[:79] + "…"
