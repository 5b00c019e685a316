"""The built-in bot's retrieval: the knowledge folder's passages → SQLite FTS5 → top-k passages.

FTS5's trigram tokenizer indexes every three-character window, so Japanese is searchable
without a morphological analyser. A trigram index matches substrings, so the query is turned
into an OR of terms: Latin words of three or more letters (minus stop words), and the
three-character windows of each CJK run. bm25 then ranks passages by how many of those terms
they contain and how rare each term is.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from pathlib import Path, PurePosixPath

from ..types.errors import ConfigError
from ..types.knowledge import SkippedFile, SourcedPassage
from ..types.passages import Passage
from .chunking import passages_of
from .folder import knowledge_root, read_folder
from .formats.markdown import load as load_markdown

log = logging.getLogger("ragtui")
MAX_QUERY_TERMS = 64
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f]+")
_STOP = frozenset(
    """the and for are but not you your with this that have has was were can could would should
    how what when where which who why does did don't i'm its it's into from about there their
    they them then than our out all any just will my me also get got please help""".split()  # noqa: SIM905
)


def query_terms(query: str) -> list[str]:
    """FTS5 terms for ``query``: words ≥ 3 letters and CJK trigrams, deduplicated, in order."""
    terms: list[str] = []
    for word in _WORD.findall(query):
        word = word.lower()
        if len(word) >= 3 and word not in _STOP:
            terms.append(word)
    for run in _CJK_RUN.findall(query):
        if len(run) < 3:
            continue
        terms.extend(run[i : i + 3] for i in range(len(run) - 2))
    unique = list(dict.fromkeys(terms))
    return unique[:MAX_QUERY_TERMS]


MAX_KEPT_ANSWERS = 4096  # distinct (query, k) answers kept by a KnowledgeBase


class KnowledgeBase:
    """An in-memory FTS5 index over a knowledge folder's passages (built in milliseconds)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        # The index is read from the event loop thread only; check_same_thread is relaxed so a
        # benchmark or server may build it in one thread and query it in another.
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute("CREATE VIRTUAL TABLE passages USING fts5(title, body, item UNINDEXED, tokenize='trigram')")
        self.passages: list[SourcedPassage] = []
        self.skipped: tuple[SkippedFile, ...] = ()  # files of the folder that gave no passage, and why
        self.documents = 0
        # Many dialogues ask the same question (every persona opens with the scenario's), and an
        # FTS5 query costs more than the rest of a bot turn's work: answers are kept until the
        # index changes. Passages are frozen, so sharing them is safe.
        self._answers: dict[tuple[str, int], tuple[Passage, ...]] = {}

    @classmethod
    def from_folder(cls, folder: Path, language: str) -> KnowledgeBase:
        """Index ``folder/<language>/`` when it exists, else ``folder`` itself: every file a
        loader reads (Markdown, text, HTML, PDF, CSV and JSON FAQs, plugins' formats)."""
        root = knowledge_root(folder, language)
        read = read_folder(root)
        if not read.documents:
            reasons = "; ".join(f"{s.path}: {s.reason}" for s in read.skipped[:3])
            detail = f" ({len(read.skipped)} file(s) skipped — {reasons})" if read.skipped else ""
            raise ConfigError(
                f"knowledge folder {root} has no document ragtui can read{detail}",
                "add help articles (.md, .txt, .html, .pdf, .csv, .json); `ragtui knowledge` lists what is read",
            )
        kb = cls(root)
        kb.skipped = read.skipped
        for skipped in read.skipped:  # in ragtui's log; `ragtui knowledge` lists them for a person
            log.warning("knowledge file %s skipped: %s", root / skipped.path, skipped.reason)
        kb.documents = len(read.documents)
        kb.add_passages(read.passages)
        return kb

    def add(self, doc_id: str, text: str) -> None:
        """Index one Markdown document given as text (tests, benchmarks, the reference server)."""
        self.add_passages(passages_of(load_markdown(text.encode("utf-8"), PurePosixPath(doc_id).as_posix())))
        self.documents += 1

    def add_passages(self, passages: list[SourcedPassage] | tuple[SourcedPassage, ...]) -> None:
        first = len(self.passages)
        self.passages += passages
        self._db.executemany(
            "INSERT INTO passages (title, body, item) VALUES (?, ?, ?)",
            [(p.title, p.text, first + i) for i, p in enumerate(passages)],
        )
        self._answers.clear()

    def search(self, query: str, k: int = 4) -> list[Passage]:
        """Top-``k`` passages for ``query`` by bm25 (title weighted double)."""
        terms = query_terms(query)
        if not terms:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        found = self._answers.get((match, k))
        if found is None:
            rows = self._db.execute(
                "SELECT item, bm25(passages, 2.0, 1.0) AS rank FROM passages WHERE passages MATCH ? ORDER BY rank LIMIT ?",
                (match, k),
            ).fetchall()
            # bm25() is lower-is-better and negative; flip it so a bigger score means a better match.
            found = tuple(self.passages[item].to_passage(-rank) for item, rank in rows)
            if len(self._answers) >= MAX_KEPT_ANSWERS:
                self._answers.clear()  # a long run of distinct questions: start over, never grow unbounded
            self._answers[(match, k)] = found
        return list(found)
