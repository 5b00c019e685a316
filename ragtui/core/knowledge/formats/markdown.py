"""Markdown and plain text files: headings (``#`` lines) make sections.

A Markdown page of a static site (Hugo, Jekyll, MkDocs, Docusaurus, VitePress; ``.md``,
``.markdown``, ``.mdx``) is read as its readers see it (core/knowledge/site_markdown.py): its
front matter gives the title and is not text, template tags and components are dropped keeping
the words they show. Plain Markdown reads as it is written; ``.txt`` files are always as written."""

from __future__ import annotations

from pathlib import PurePosixPath

from ...registry.loaders import DocumentLoader
from ...types.knowledge import Document
from ..decode import decode_text
from ..markdown_sections import title_and_sections
from ..site_markdown import read_site_page

PLAIN_TEXT = (".txt",)


def load(data: bytes, path: str) -> Document:
    text, _ = decode_text(data)
    text = text.replace("\r\n", "\n")
    suffix = PurePosixPath(path).suffix.lower()
    page_title = None
    if suffix not in PLAIN_TEXT:
        page = read_site_page(text, mdx=suffix == ".mdx")
        text, page_title = page.text, page.title
    title, sections = title_and_sections(text, PurePosixPath(path).stem)
    return Document(path, "markdown", page_title or title, text, sections)


MARKDOWN = DocumentLoader(
    "markdown",
    (".md", ".markdown", ".mdx", ".txt"),
    load,
    "Markdown (static-site pages read as rendered) and plain text",
)
