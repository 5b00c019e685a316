"""The built-in bot's knowledge base: Markdown documents → SQLite FTS5 → top-k passages.

FTS5's trigram tokenizer indexes every three-character window, so Japanese is searchable
without a morphological analyser. A trigram index matches substrings, so the query is turned
into an OR of terms: Latin words of three or more letters (minus stop words), and the
three-character windows of each CJK run. bm25 then ranks passages by how many of those terms
they contain and how rare each term is.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from ..types.errors import ConfigError
from ..types.passages import Passage

MAX_PASSAGE_CHARS = 700
MAX_QUERY_TERMS = 64
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f]+")
_STOP = frozenset(
    """the and for are but not you your with this that have has was were can could would should
    how what when where which who why does did don't i'm its it's into from about there their
    they them then than our out all any just will my me also get got please help""".split()  # noqa: SIM905
)


def split_document(text: str) -> tuple[str, list[str]]:
    """Return the title (first ``# `` line) and passages of at most ~MAX_PASSAGE_CHARS."""
    lines = text.strip().splitlines()
    title = ""
    if lines and lines[0].startswith("#"):
        title = lines[0].lstrip("#").strip()
        lines = lines[1:]
    paragraphs = [
        piece
        for p in re.split(r"\n\s*\n", "\n".join(lines))
        if p.strip()
        for piece in _cap(p.strip(), MAX_PASSAGE_CHARS)
    ]
    passages: list[str] = []
    current = ""
    for paragraph in paragraphs:
        if current and len(current) + len(paragraph) + 2 > MAX_PASSAGE_CHARS:
            passages.append(current)
            current = paragraph
        else:
            current = f"{current}\n\n{paragraph}" if current else paragraph
    if current:
        passages.append(current)
    return title, passages


def _cap(paragraph: str, limit: int) -> list[str]:
    """Split an over-long paragraph at sentence or line ends (hard cut as a last resort), so a
    plain-text file without blank lines cannot become one giant passage."""
    if len(paragraph) <= limit:
        return [paragraph]
    pieces: list[str] = []
    current = ""
    for sentence in re.split(r"(?<=[.!?。！？\n])", paragraph):
        while len(sentence) > limit:
            pieces.append(sentence[:limit])
            sentence = sentence[limit:]
        if current and len(current) + len(sentence) > limit:
            pieces.append(current.strip())
            current = ""
        current += sentence
    if current.strip():
        pieces.append(current.strip())
    return pieces


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
    """An in-memory FTS5 index over a folder of Markdown files (built in milliseconds)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        # The index is read from the event loop thread only; check_same_thread is relaxed so a
        # benchmark or server may build it in one thread and query it in another.
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute("CREATE VIRTUAL TABLE passages USING fts5(title, body, doc_id UNINDEXED, tokenize='trigram')")
        self.documents = 0
        # Many dialogues ask the same question (every persona opens with the scenario's), and an
        # FTS5 query costs more than the rest of a bot turn's work: answers are kept until the
        # index changes. Passages are frozen, so sharing them is safe.
        self._answers: dict[tuple[str, int], tuple[Passage, ...]] = {}

    @classmethod
    def from_folder(cls, folder: Path, language: str) -> KnowledgeBase:
        """Index ``folder/<language>/`` when it exists, else ``folder`` itself."""
        root = folder / language if (folder / language).is_dir() else folder
        if not root.is_dir():
            raise ConfigError(f"knowledge folder {root} does not exist", "set 'knowledge' in the config")
        kb = cls(root)
        files = sorted(p for p in root.rglob("*") if p.suffix.lower() in (".md", ".txt") and p.is_file())
        if not files:
            raise ConfigError(f"knowledge folder {root} has no .md or .txt documents")
        for path in files:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"cannot read knowledge document {path}: {exc}", "save it as UTF-8") from None
            kb.add(str(path.relative_to(root)), text)
        return kb

    def add(self, doc_id: str, text: str) -> None:
        title, passages = split_document(text)
        self._db.executemany(
            "INSERT INTO passages (title, body, doc_id) VALUES (?, ?, ?)",
            [(title, body, doc_id) for body in passages],
        )
        self.documents += 1
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
                "SELECT doc_id, title, body, bm25(passages, 2.0, 1.0) AS rank FROM passages "
                "WHERE passages MATCH ? ORDER BY rank LIMIT ?",
                (match, k),
            ).fetchall()
            # bm25() is lower-is-better and negative; flip it so a bigger score means a better match.
            found = tuple(Passage(doc_id, title, body, -rank) for doc_id, title, body, rank in rows)
            if len(self._answers) >= MAX_KEPT_ANSWERS:
                self._answers.clear()  # a long run of distinct questions: start over, never grow unbounded
            self._answers[(match, k)] = found
        return list(found)
