"""A knowledge base as ragtui reads it: documents cut into sections, passages that know where they
came from, and the files that could not be read. Plain data, built by ``core/knowledge``.

Offsets are characters (not bytes) into ``Document.text``, the document's text as its loader
extracted it (a Markdown file as it is, an HTML page as the Markdown of its article, a PDF's
pages one after another, a FAQ's rows), so a passage is always ``text[start:end]`` of its
document and a quote can be checked against it."""

from __future__ import annotations

from dataclasses import dataclass

from .passages import Passage


@dataclass(frozen=True)
class Section:
    """A run of a document's text under one heading path (("Account", "Linked services"))."""

    heading: tuple[str, ...]
    start: int  # where the section's text begins in Document.text
    end: int
    page: int | None = None  # 1-based, for formats with pages (PDF)


@dataclass(frozen=True)
class Document:
    path: str  # relative to the knowledge folder, with / separators
    format: str  # the loader's name: markdown, html, pdf, faq-csv, …
    title: str
    text: str
    sections: tuple[Section, ...]


@dataclass(frozen=True)
class SourcedPassage:
    """A passage of the knowledge base with its provenance."""

    doc_id: str  # Document.path
    title: str  # the document's title, then the section's headings ("Billing › Refunds")
    heading: tuple[str, ...]
    page: int | None
    start: int  # character span in the document's text
    end: int
    text: str
    content_hash: str  # sha256 of text (hex), to tell later whether the passage changed

    def to_passage(self, score: float = 0.0) -> Passage:
        return Passage(self.doc_id, self.title, self.text, score)


@dataclass(frozen=True)
class SkippedFile:
    """A file of the knowledge folder that gave no passage, and why, in words for the user."""

    path: str
    reason: str
