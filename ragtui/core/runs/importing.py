"""``ragtui import FILE…``: real conversations into the record, as one run of imported sessions.

Every file is read three times, never whole: once to hash it (a file whose bytes were imported
before is skipped and named with its run), once to check it (a bad role, a conversation without a
customer, a line that is not UTF-8: one error line naming the file and the line or row, and
nothing is written — not even a new database), and once to store it, inside one write
transaction for the whole import, hashing it again so a file changed in between is refused and
rolled back. Personal data is redacted (core/text/pii.py, one ``Redactor`` per conversation) before
a single text reaches the database, unless ``redact`` is off (``--no-redact``).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..conversations.reading import ReadOptions, loader_of, read_conversations
from ..conversations.text_input import codec_name
from ..conversations.turns import turn_count, turn_messages
from ..dialogue.engine import new_run_id
from ..store.imported import ImportWriter, NewSession, import_of_file, run_exists
from ..store.store import EmptyDatabaseError, Store
from ..text.pii import RedactionRules, Redactor
from ..text.script import script_language
from ..types.conversations import (
    IMPORTED_KIND,
    ConversationFileError,
    ImportedConversation,
    ImportProblem,
    TurnMessage,
)
from ..types.errors import RagtuiError
from ..types.personas import Persona
from ..types.scenarios import Scenario

PERSONA_NAME = "real-customer"


@dataclass(frozen=True)
class ImportRequest:
    paths: list[Path]
    options: ReadOptions = field(default_factory=ReadOptions)
    redact: bool = True
    rules: RedactionRules = field(default_factory=RedactionRules)
    run_id: str | None = None
    threshold: float = 0.7  # the config's: the pass mark the sessions are judged against later
    language: str = "en"  # for a conversation whose script does not tell


@dataclass
class FileOutcome:
    path: Path
    sha256: str
    format: str
    already: str | None = None  # the run it was imported as before
    conversations: int = 0
    messages: int = 0
    turns: int = 0


@dataclass
class ImportOutcome:
    run_id: str | None  # None: nothing new was imported
    files: list[FileOutcome]
    redactions: Counter[str] = field(default_factory=Counter)
    redacted: bool = True
    first_session: int | None = None
    # the run's session names so far: a conversation id met in two files is named after its file
    # the second time, as `compare` tells a run's dialogues apart by it
    names: set[str] = field(default_factory=set)

    @property
    def conversations(self) -> int:
        return sum(f.conversations for f in self.files if f.already is None)

    @property
    def messages(self) -> int:
        return sum(f.messages for f in self.files if f.already is None)

    @property
    def turns(self) -> int:
        return sum(f.turns for f in self.files if f.already is None)


Progress = Callable[[Path, int], None]  # (file, conversations read so far), every 1,000


def import_conversations(database: Path, request: ImportRequest, progress: Progress | None = None) -> ImportOutcome:
    """Import ``request.paths`` into ``database``; ConversationFileError / RagtuiError on bad input,
    with nothing written."""
    try:
        codec_name(request.options.encoding)
    except ImportProblem as problem:
        raise ConversationFileError(problem.what, problem.hint) from None
    files = _files(request)
    _known_imports(database, files, request.run_id)
    new = [f for f in files if f.already is None]
    for outcome in new:  # check everything before anything is written
        for count, conversation in enumerate(read_conversations(outcome.path, request.options), start=1):
            outcome.conversations = count
            outcome.messages += len(conversation.messages)
            if progress is not None and count % 1000 == 0:
                progress(outcome.path, count)
    result = ImportOutcome(None, files, redacted=request.redact)
    if not new:
        return result
    created = not database.exists()
    try:
        store = Store.open(database)
        try:
            result.run_id = request.run_id or new_run_id()
            store.write("import the conversations", lambda: _store_all(store, request, result, progress))
        finally:
            store.close()
    except BaseException:
        if created:  # the import was all this database was for: leave no empty one behind
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    Path(f"{database}{suffix}").unlink()
        raise
    return result


def _files(request: ImportRequest) -> list[FileOutcome]:
    """Each file checked to exist and to have a format, and hashed; a file given twice once."""
    out: list[FileOutcome] = []
    hashes: set[str] = set()
    for path in request.paths:
        if not path.is_file():
            what = "is a folder, not a file" if path.is_dir() else "does not exist"
            raise ConversationFileError(f"{path} {what}", "name conversation files (JSONL, CSV, TSV, JSON)")
        loader = loader_of(path, request.options.format)
        digest = _sha256(path)
        if digest in hashes:
            continue  # the same bytes named twice (or two names of one file): imported once
        hashes.add(digest)
        out.append(FileOutcome(path, digest, loader.name))
    return out


def _sha256(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()  # read into one small buffer
    except OSError as exc:
        raise ConversationFileError(f"cannot read {path}: {exc.strerror or exc}") from None


def _known_imports(database: Path, files: list[FileOutcome], run_id: str | None) -> None:
    """Marks the files imported before (read-only: a database that does not exist yet holds none),
    and refuses a --run-id the database already has."""
    if not database.is_file():
        return
    try:
        store = Store.open_read_only(database)
    except EmptyDatabaseError:
        return  # a file left empty by a process stopped while creating it: it holds no import
    try:
        if run_id is not None and run_exists(store, run_id):
            raise RagtuiError(f"run {run_id} is already in {database}", "choose another --run-id, or leave it out")
        for outcome in files:
            earlier = import_of_file(store, outcome.sha256)
            if earlier is not None:
                outcome.already = earlier.run_id
    finally:
        store.close()


def _store_all(store: Store, request: ImportRequest, result: ImportOutcome, progress: Progress | None) -> None:
    """Inside the one write transaction (run again from the start if the database was busy)."""
    assert result.run_id is not None
    writer = ImportWriter(store, result.run_id)
    result.redactions.clear()
    result.names.clear()
    result.first_session = None
    if run_exists(store, result.run_id):
        raise RagtuiError(f"run {result.run_id} is already in {store.path}", "choose another --run-id")
    for outcome in result.files:
        if outcome.already is not None:
            continue
        earlier = import_of_file(store, outcome.sha256)  # imported by another process meanwhile
        if earlier is not None:
            outcome.already = earlier.run_id
            continue
        _store_file(writer, request, outcome, result, progress)
    if not any(f.already is None for f in result.files):
        result.run_id = None


def _store_file(
    writer: ImportWriter, request: ImportRequest, outcome: FileOutcome, result: ImportOutcome, progress: Progress | None
) -> None:
    digest = hashlib.sha256()
    size = outcome.path.stat().st_size
    encoding = request.options.encoding or "utf-8"
    import_id = writer.begin_file(str(outcome.path), outcome.sha256, size, outcome.format, encoding, request.redact)
    counts: Counter[str] = Counter()
    conversations = messages = turns = 0
    for conversation in read_conversations(outcome.path, request.options, on_bytes=digest.update):
        if request.redact:
            redactor = Redactor(request.rules, counts)
            conversation = conversation.with_texts(
                redactor.redact(conversation.key), [redactor.redact(m.text) for m in conversation.messages]
            )
        rows = turn_messages(conversation)
        session = _new_session(conversation, rows, request, _unique(result.names, conversation.key, outcome.path))
        session_id = writer.add_session(import_id, session, rows)
        if result.first_session is None:
            result.first_session = session_id
        conversations += 1
        if progress is not None and conversations % 1000 == 0:
            progress(outcome.path, conversations)
        messages += len(conversation.messages)
        turns += turn_count(rows)
    if digest.hexdigest() != outcome.sha256:
        raise ConversationFileError(
            f"{outcome.path} changed while it was being imported",
            "import it again once it is written; nothing was stored",
        )
    outcome.conversations, outcome.messages, outcome.turns = conversations, messages, turns
    writer.end_file(import_id, conversations, messages, counts)
    result.redactions.update(counts)


def _unique(names: set[str], key: str, path: Path) -> str:
    name = key
    if name in names:
        name = f"{key} ({path.name})"
        number = 2
        while name in names:
            name, number = f"{key} ({path.name}, {number})", number + 1
    names.add(name)
    return name


@lru_cache(maxsize=4)
def _persona(language: str) -> Persona:
    """Who speaks for the customer in an imported session: nobody simulates them. (A replay of the
    run re-sends their messages; the persona speaks only if a simulator takes over.)"""
    return Persona(
        PERSONA_NAME,
        language,
        "A real customer, from an imported conversation: their messages are as they wrote them.",
        description="a real customer (imported conversation)",
    )


def _new_session(
    conversation: ImportedConversation, rows: list[TurnMessage], request: ImportRequest, name: str
) -> NewSession:
    customer = [m.text for m in conversation.messages if m.speaker == "customer"]
    language = script_language(" ".join(customer)[:4000]) or request.language
    question = next((m.text for m in rows if m.role == "user"), customer[0])
    scenario = Scenario(name, question, language, kind=IMPORTED_KIND).to_dict()
    persona = _persona(language)
    times = [m.time for m in conversation.messages if m.time]
    return NewSession(
        key=name,
        conversation=conversation.key,
        line=conversation.line,
        unit=conversation.unit,
        language=language,
        question=question,
        scenario=scenario,
        persona=persona,
        config={"kind": IMPORTED_KIND, "redacted": request.redact},
        threshold=request.threshold,
        messages=len(conversation.messages),
        started_at=times[0] if times else None,
        ended_at=times[-1] if times else None,
    )
