"""A knowledge folder read whole: every file handed to the loader of its type, every document
cut into passages, and every file that gave nothing listed with the reason — never a silent skip."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from ..registry.loaders import known_suffixes, loader_for
from ..types.errors import ConfigError, KnowledgeFileError
from ..types.knowledge import Document, SkippedFile, SourcedPassage
from .chunking import passages_of

# A help article is kilobytes, a manual's PDF a few megabytes; a file past this is a mistake (a
# video, a database dump) and reading it would hold the whole of it in memory.
MAX_FILE_BYTES = 50 * 1024 * 1024
# ``scenarios generate``'s cache of model replies (``.FILE.replies.jsonl``): ragtui's own working
# file, never a help article, whatever loader a plugin registers for its suffix.
REPLY_CACHE = re.compile(r"^\..+\.replies\.jsonl$")


@dataclass(frozen=True)
class KnowledgeFolder:
    root: Path
    documents: tuple[Document, ...]
    passages: tuple[SourcedPassage, ...]
    skipped: tuple[SkippedFile, ...]

    def passages_of(self, document: Document) -> list[SourcedPassage]:
        return [p for p in self.passages if p.doc_id == document.path]


def knowledge_root(folder: Path, language: str) -> Path:
    """``folder/<language>/`` when it exists (the bundled sample has en/ and ja/), else ``folder``."""
    return folder / language if (folder / language).is_dir() else folder


def read_folder(root: Path) -> KnowledgeFolder:
    """Every file under ``root``, in path order. Raises ConfigError only when ``root`` is not a
    folder; files that cannot be read are in ``skipped``."""
    if not root.is_dir():
        what = "is a file, not a folder" if root.exists() else "does not exist"
        raise ConfigError(f"knowledge folder {root} {what}", "set 'knowledge' in the config, or pass a folder")
    documents: list[Document] = []
    passages: list[SourcedPassage] = []
    skipped: list[SkippedFile] = []
    for path in sorted(p for p in root.rglob("*") if not p.is_dir()):
        name = path.relative_to(root).as_posix()
        try:
            document = read_file(path, name)
            found = passages_of(document)
            if not found:
                raise KnowledgeFileError("no text")
        except KnowledgeFileError as exc:
            skipped.append(SkippedFile(name, str(exc)))
            continue
        documents.append(document)
        passages += found
    return KnowledgeFolder(root, tuple(documents), tuple(passages), tuple(skipped))


def read_file(path: Path, name: str) -> Document:
    """One file through its loader; every way it can fail is a KnowledgeFileError with the reason."""
    if REPLY_CACHE.match(path.name):
        raise KnowledgeFileError("a reply cache of `ragtui scenarios generate`, not a document")
    loader = loader_for(path.suffix)
    if loader is None:
        kind = f"{path.suffix} files" if path.suffix else "files without a suffix"
        raise KnowledgeFileError(f"{kind} are not read", f"ragtui reads {' '.join(known_suffixes())}")
    try:
        data = _read_bytes(path)
    except OSError as exc:
        raise KnowledgeFileError(f"cannot be read: {exc.strerror or exc}") from None
    try:
        document = loader.load(data, name)
    except KnowledgeFileError:
        raise
    except Exception as exc:  # a loader's own bug (a plugin's, say) costs its file, not the folder
        raise KnowledgeFileError(f"the {loader.name} loader failed: {type(exc).__name__}: {exc}") from None
    if not isinstance(document, Document):
        raise KnowledgeFileError(f"the {loader.name} loader returned {type(document).__name__}, not a Document")
    return document


def _read_bytes(path: Path) -> bytes:
    """A regular file's bytes, at most ``MAX_FILE_BYTES``. Anything else — a FIFO (reading it
    waits for a writer for ever), a device (a link to /dev/zero never ends), a socket — is refused
    by what it is, through symlinks; and a file that grows past the limit as it is read (a
    /proc-like file whose size says 0) is refused, never held whole in memory."""
    status = path.stat()  # follows a symlink: its target is what would be read
    if not stat.S_ISREG(status.st_mode):
        link = ", through a symlink" if path.is_symlink() else ""
        raise KnowledgeFileError(f"not a regular file ({_kind(status.st_mode)}{link})")
    limit = f"the limit is {MAX_FILE_BYTES // 1024 // 1024} MB"
    if status.st_size > MAX_FILE_BYTES:
        raise KnowledgeFileError(f"too large ({status.st_size / 1e6:.0f} MB; {limit})")
    # O_NONBLOCK: should the file have been swapped for a FIFO since, opening it does not wait.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise KnowledgeFileError("not a regular file (it changed while it was read)")
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise KnowledgeFileError(f"too large (it grew past the limit as it was read; {limit})")
    return data


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def skipped_lines(skipped: tuple[SkippedFile, ...], limit: int = 5) -> list[str]:
    """What a run or the TUI says of the files it did not read: a line each, up to ``limit``."""
    lines = [f"knowledge file {s.path} not read: {s.reason}" for s in skipped[:limit]]
    if len(skipped) > limit:
        lines.append(f"… and {len(skipped) - limit} more; `ragtui knowledge` lists them all")
    return lines
