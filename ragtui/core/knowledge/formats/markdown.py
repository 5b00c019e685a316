"""Markdown and plain text files, read as they are: headings (``#`` lines) make sections."""

from __future__ import annotations

from pathlib import PurePosixPath

from ...registry.loaders import DocumentLoader
from ...types.knowledge import Document
from ..decode import decode_text
from ..markdown_sections import title_and_sections


def load(data: bytes, path: str) -> Document:
    text, _ = decode_text(data)
    text = text.replace("\r\n", "\n")
    title, sections = title_and_sections(text, PurePosixPath(path).stem)
    return Document(path, "markdown", title, text, sections)


MARKDOWN = DocumentLoader("markdown", (".md", ".markdown", ".txt"), load, "Markdown and plain text, as they are")
