"""Which process runs a session, and whether that process is still there.

A running session records its owner: pid, host and the process's start time (so a pid the
system reused for another program does not pass for the owner), and a heartbeat refreshed
while the owner works. A session whose owner is gone was interrupted (kill -9, a crash, a
power cut): it is shown as ``interrupted``, never as running, and may be continued.

On the owner's own host the process table decides; from another host (a database on a shared
folder) only the heartbeat can, so there a session is taken as interrupted once its heartbeat
is older than ``STALE_AFTER_S``.
"""

from __future__ import annotations

import functools
import os
import socket
from datetime import UTC, datetime

from ..types.stored import Owner

HEARTBEAT_S = 30.0
"""How often a process running dialogues refreshes their heartbeat."""
STALE_AFTER_S = 600.0
"""A heartbeat older than this, from another host, means the owner is gone."""


@functools.cache
def _boot_time() -> float | None:
    try:
        with open("/proc/stat", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("btime "):
                    return float(line.split()[1])
    except OSError:
        pass
    return None


def _proc_stat(pid: int) -> list[str] | None:
    """Fields of /proc/PID/stat after the command name (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return None
    return text[text.rfind(")") + 2 :].split()


def process_started(pid: int) -> str | None:
    """When ``pid`` started, to the second (UTC ISO), where the system says (Linux)."""
    fields, boot = _proc_stat(pid), _boot_time()
    if not fields or boot is None or len(fields) < 20:
        return None
    started = boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    return datetime.fromtimestamp(started, UTC).isoformat(timespec="seconds")


@functools.cache
def this_process() -> Owner:
    return Owner(os.getpid(), socket.gethostname(), process_started(os.getpid()))


def _seconds_since(stamp: str | None) -> float | None:
    if not stamp:
        return None
    try:
        return (datetime.now(UTC) - datetime.fromisoformat(stamp)).total_seconds()
    except ValueError:
        return None


def owner_alive(owner: Owner | None, heartbeat_at: str | None) -> bool:
    """True while ``owner`` may still be running the session."""
    if owner is None:
        return False  # a session from before owners were recorded, left running: its process is long gone
    if owner.host != socket.gethostname():
        age = _seconds_since(heartbeat_at)
        return age is not None and age < STALE_AFTER_S
    if owner.pid == os.getpid():
        return True
    try:
        os.kill(owner.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process exists
    fields = _proc_stat(owner.pid)
    if fields and fields[0] in ("Z", "X"):  # exited, not yet reaped by its parent
        return False
    started = process_started(owner.pid)
    # A different start time: the pid now belongs to another program. Allow a second of
    # rounding between two readings of the same clock-tick count.
    return not (owner.started and started and abs(_seconds_between(owner.started, started)) > 1.5)


def _seconds_between(a: str, b: str) -> float:
    try:
        return (datetime.fromisoformat(a) - datetime.fromisoformat(b)).total_seconds()
    except ValueError:
        return 0.0
