"""Text PDFs (terms and conditions, manuals), page by page: each page is a section that keeps its
page number. A PDF whose pages hold no text (a scan) is refused with that reason: ragtui does no
OCR."""

from __future__ import annotations

import io
import re
from pathlib import PurePosixPath

from ...registry.loaders import DocumentLoader
from ...types.errors import KnowledgeFileError
from ...types.knowledge import Document, Section


def load(data: bytes, path: str) -> Document:
    from pypdf import PdfReader  # only when a PDF is read
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise KnowledgeFileError("an encrypted PDF", "export it without a password")
        pages = [_tidy(page.extract_text() or "") for page in reader.pages]
        meta_title = (reader.metadata.title or "").strip() if reader.metadata else ""
    except KnowledgeFileError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise KnowledgeFileError(f"not a readable PDF ({type(exc).__name__}: {exc})") from None
    if not any(pages):
        raise KnowledgeFileError(
            "a PDF with no text (a scan?)", "ragtui reads text PDFs; export the text, or OCR it first"
        )
    text = ""
    sections = []
    for number, page in enumerate(pages, start=1):
        if not page:
            continue
        if text:
            text += "\n\n"
        sections.append(Section((), len(text), len(text) + len(page), page=number))
        text += page
    first_line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    title = meta_title or (first_line if len(first_line) <= 80 else "") or PurePosixPath(path).stem
    return Document(path, "pdf", title, text, tuple(sections))


def _tidy(page: str) -> str:
    lines = [line.rstrip() for line in page.replace("\r\n", "\n").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


PDF = DocumentLoader("pdf", (".pdf",), load, "text PDFs, page by page")
