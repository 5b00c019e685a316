"""The one place ragtui writes a file a person asked for: the guard, then the atomic write.

Every report option (``export --csv``, ``compare --csv/--markdown/--junit``, ``run
--junit/--markdown``, ``labels export --jsonl``, ``rejudge --batch-file``) and the TUI's export
dialog go through ``write_output``. Two promises hold for all of them:

- **Never destroy a database.** The target may not be the database in use — through a symlink,
  a hard link or its ``-wal``/``-shm``/``-journal`` files — nor any other SQLite file or SQLite
  journal. A person who types the database's path where a report should go loses nothing.
- **A failed write changes nothing.** The text goes to a temporary file in the target's own
  folder, is flushed to disk, then renamed over the target: a full disk, a quota or a kill
  leaves the old file exactly as it was, and no temporary file behind.

Messages name the option the person used (``--junit``, "the Export dialog's file"), so the fix
is obvious wherever the path was typed.
"""

from __future__ import annotations

from pathlib import Path

from ..types.errors import RagtuiError
from .atomic import atomic_write_bytes

SQLITE_MAGIC = b"SQLite format 3\x00"
# A write-ahead log starts with one of two magic numbers (big-endian 0x377f0682 / 0x377f0683).
_WAL_MAGICS = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")
_SIDE_FILES = ("-wal", "-shm", "-journal")


def check_output(path: Path, *, option: str, database: Path | None = None) -> Path:
    """Refuse a target that would destroy a database or cannot be written; return it expanded.

    ``option`` is how the person named the file (``--csv``), used in every message."""
    target = Path(path).expanduser()
    nothing = f"choose another file for {option}; nothing was written"
    if not target.name or target.is_dir():
        raise RagtuiError(f"{option} {target} is a folder, not a file", nothing)
    folder = target.parent
    if not folder.is_dir():
        raise RagtuiError(
            f"{option} {target}: the folder {folder} does not exist",
            f"create it first or choose another file for {option}; nothing was written",
        )
    if database is not None and _is_database_file(target, Path(database)):
        raise RagtuiError(f"refusing to write {option} to {target}: that is the database in use", nothing)
    if _looks_like_sqlite(target):
        raise RagtuiError(f"refusing to write {option} to {target}: it is a SQLite database", nothing)
    for suffix in _SIDE_FILES:
        if target.name.endswith(suffix) and _looks_like_sqlite(target.with_name(target.name[: -len(suffix)])):
            raise RagtuiError(f"refusing to write {option} to {target}: it belongs to a SQLite database", nothing)
    return target


def check_outside(path: Path, folder: Path, *, option: str, what: str) -> None:
    """Refuse a target inside ``folder`` (``what`` names it: "the documents folder"), through
    symlinks: a file written there would replace a source document or be read as one."""
    target, root = Path(path).expanduser().resolve(), Path(folder).expanduser().resolve()
    if target == root or target.is_relative_to(root):
        raise RagtuiError(
            f"refusing to write {option} {path}: it is inside {what} {folder}, whose files are read as documents",
            f"choose a file outside {folder} for {option}; nothing was written",
        )


def write_output(
    path: Path, content: str | bytes, *, option: str, database: Path | None = None, encoding: str = "utf-8"
) -> Path:
    """Check ``path`` with ``check_output``, then write ``content`` atomically; return the path.

    Text is written with ``newline=""`` semantics: the content's own line endings are kept
    (the CSV writer's CRLF stays CRLF on every platform)."""
    target = check_output(path, option=option, database=database)
    data = content.encode(encoding) if isinstance(content, str) else content
    try:
        atomic_write_bytes(target, data)
    except OSError as exc:
        raise RagtuiError(
            f"cannot write {option} {target}: {exc.strerror or exc}",
            "the file as it was is unchanged; free space or choose another file",
        ) from None
    return target


def is_database_file(target: Path, database: Path) -> bool:
    """``target`` is the database or one of its side files (``-wal``, ``-shm``, ``-journal``),
    through symlinks and hard links: a dialog can say so before anything else."""
    return _is_database_file(Path(target).expanduser(), Path(database))


def _is_database_file(target: Path, database: Path) -> bool:
    candidates = [database] + [database.with_name(database.name + s) for s in _SIDE_FILES]
    return any(_same_file(target, candidate) for candidate in candidates)


def _same_file(a: Path, b: Path) -> bool:
    """Same file through symlinks and hard links; for a path that does not exist yet, the same
    resolved name (a dangling symlink to the database's ``-wal`` counts)."""
    try:
        if a.exists() and b.exists():
            return a.samefile(b)
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _looks_like_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError:
        return False  # missing (it will be created) or unreadable (the write says why)
    return head == SQLITE_MAGIC or head[:4] in _WAL_MAGICS
