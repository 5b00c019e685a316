"""HTML pages, such as a help centre's export: the article only, as Markdown.

The page is parsed (selectolax's lexbor HTML5 parser), its chrome removed — scripts, styles, navigation,
header, footer, side bars, forms and cookie or consent banners — and the article (``<main>``,
``<article>`` or ``[role=main]``, else the body) converted to Markdown (markdownify), so headings
keep making sections and lists stay lists."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from ...registry.loaders import DocumentLoader
from ...types.errors import KnowledgeFileError
from ...types.knowledge import Document
from ..decode import decode_text
from ..markdown_sections import title_and_sections

CHROME = (
    "script, style, noscript, template, iframe, svg, canvas, form, button, nav, header, footer, aside, "
    "[role=navigation], [role=banner], [role=contentinfo], [role=search], [role=dialog], [aria-hidden=true], "
    "[hidden]"
)
# Cookie and consent banners, skip links and breadcrumbs carry no article text; matched on the
# words of their id and class names, which is how every help-centre theme seen names them.
_CHROME_NAME = re.compile(
    r"(^|[-_ ])(cookie|cookies|consent|gdpr|breadcrumbs?|skip-?link|banner|navbar|sidebar)([-_ ]|$)", re.I
)
ARTICLE = ("main", "article", "[role=main]")


def load(data: bytes, path: str) -> Document:
    from markdownify import markdownify  # only when an HTML file is read
    from selectolax.lexbor import LexborHTMLParser

    html, _ = decode_text(data)
    tree = LexborHTMLParser(html)
    page_title = tree.css_first("title")
    for node in tree.css(CHROME):
        node.decompose()
    for node in tree.css("[id], [class]"):
        names = f"{node.attributes.get('id') or ''} {node.attributes.get('class') or ''}"
        if _CHROME_NAME.search(names):
            node.decompose()
    article = next((found for selector in ARTICLE if (found := tree.css_first(selector)) is not None), None)
    root = article if article is not None else tree.body
    if root is None:
        raise KnowledgeFileError("an HTML page with no body")
    markdown = markdownify(root.html or "", heading_style="ATX", bullets="-", strip=["img"])
    text = _tidy(markdown)
    if not text:
        raise KnowledgeFileError("an HTML page with no article text")
    fallback = page_title.text(strip=True) if page_title is not None else PurePosixPath(path).stem
    title, sections = title_and_sections(text, fallback or PurePosixPath(path).stem)
    return Document(path, "html", title, text, sections)


def _tidy(markdown: str) -> str:
    """Trailing spaces and runs of blank lines out; the text starts and ends with a word."""
    lines = [line.rstrip() for line in markdown.replace("\r\n", "\n").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


HTML = DocumentLoader("html", (".html", ".htm"), load, "HTML pages: the article, as Markdown")
