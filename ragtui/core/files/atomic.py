"""The one atomic write: a temporary file in the target's folder, flushed to disk, renamed over
the target. A reader never sees half a file, and a failed write (a full disk, a kill) leaves the
old file exactly as it was and no temporary file behind.

Every file ragtui writes goes through here: reports and exports (``output_file``), personas, the
TUI's last choices, the embedded server's registry and ready file, the assembled model file.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


@contextlib.contextmanager
def atomic_writer(target: Path, *, mode: int | None = None) -> Iterator[BinaryIO]:
    """Yield a binary handle whose content replaces ``target`` when the block ends without an
    exception; on any exception the temporary file is removed and ``target`` is untouched.

    ``mode``: the file's permissions; by default an existing file keeps its own (a report a
    team made group-readable stays so) and a new one gets what a plain ``open()`` would give."""
    target = Path(target)
    if mode is None:
        mode = _existing_mode(target)
    # mkstemp: a unique name per call, so two processes writing the same target never share one.
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode if mode is not None else 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(target.parent)


def atomic_write_bytes(target: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``target`` atomically (see ``atomic_writer``). Raises the OSError."""
    with atomic_writer(target, mode=mode) as handle:
        _write_all(handle, data)


def atomic_write_text(target: Path, text: str, *, mode: int | None = None, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``target`` atomically, its line endings kept as they are."""
    atomic_write_bytes(target, text.encode(encoding), mode=mode)


def _write_all(handle: BinaryIO, data: bytes) -> None:
    # One call, kept apart so a test can make the disk fill part-way through.
    handle.write(data)


def _existing_mode(target: Path) -> int | None:
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return None


def _umask() -> int:
    # Read, not set-and-restore: os.umask() changes it for every thread while it is read.
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def _sync_folder(folder: Path) -> None:
    # The rename itself must reach the disk, or a crash could bring the old file back.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
