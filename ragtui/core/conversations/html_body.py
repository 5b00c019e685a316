"""A helpdesk message body in HTML as plain text: paragraphs and line breaks kept as lines, list
items as ``- `` lines, a link's address after its text when it says more than the text, scripts
and styles dropped, entities decoded. Python's own HTML parser: bodies are small fragments."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# A paragraph-like block stands apart by a blank line; a line break, a list item or a table row
# starts a line of its own.
_PARAGRAPHS = frozenset(
    [
        "p",
        "div",
        "ul",
        "ol",
        "table",
        "blockquote",
        "pre",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "section",
        "article",
        "header",
        "footer",
    ]
)
_LINES = frozenset({"br", "li", "tr", "hr"})
_DROPPED = frozenset({"script", "style", "head", "template"})
_TAG = re.compile(r"<\s*/?\s*[A-Za-z][A-Za-z0-9]*[^<>]*>")


def looks_like_html(text: str) -> bool:
    return _TAG.search(text) is not None


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.dropping = 0
        self.links: list[tuple[str, int]] = []  # href, where its text starts in out

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED:
            self.dropping += 1
        elif tag in _PARAGRAPHS:
            self.out.append("\n\n")
        elif tag in _LINES:
            self.out.append("\n- " if tag == "li" else "\n")
        elif tag == "a":
            href = dict(attrs).get("href") or ""
            self.links.append((href, len(self.out)))
        elif tag == "img":
            alt = (dict(attrs).get("alt") or "").strip()
            if alt:
                self.out.append(f"[{alt}]")

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED:
            self.dropping = max(0, self.dropping - 1)
        elif tag in _PARAGRAPHS:
            self.out.append("\n\n")
        elif tag == "a" and self.links:
            href, start = self.links.pop()
            shown = "".join(self.out[start:]).strip()
            if href and not href.startswith(("mailto:", "#", "javascript:")) and href not in shown:
                self.out.append(f" ({href})")

    def handle_data(self, data: str) -> None:
        if not self.dropping:
            self.out.append(data)


def html_to_text(html: str) -> str:
    if not looks_like_html(html):
        return html.strip()
    parser = _Text()
    parser.feed(html)
    parser.close()
    lines = [" ".join(line.split()) for line in "".join(parser.out).splitlines()]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip()
