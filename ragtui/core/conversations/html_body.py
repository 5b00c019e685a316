"""A helpdesk message body in HTML as plain text: paragraphs and line breaks kept as lines, list
items as ``- `` lines, a link's address after its text when it says more than the text, scripts,
styles and comments dropped, entities decoded.

Regular expressions rather than a parser: the bodies are small fragments a helpdesk editor wrote
(paragraphs, lists, links, emphasis), an export holds millions of them, and a parser per body
costs a hundred times more. A body without a tag is returned as it is, trimmed.
"""

from __future__ import annotations

import html
import re

_TAG = re.compile(r"<\s*/?\s*[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?\s*>")
_DROPPED = re.compile(r"<(script|style|head|template)\b[^>]*>.*?</\1\s*>|<!--.*?-->", re.IGNORECASE | re.DOTALL)
_LINK = re.compile(r"<a\b[^>]*?\bhref\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)[^>]*>(.*?)</a\s*>", re.IGNORECASE | re.DOTALL)
_IMAGE = re.compile(r"<img\b[^>]*?\balt\s*=\s*(\"[^\"]*\"|'[^']*')[^>]*>", re.IGNORECASE)
_ITEM = re.compile(r"<li\b[^>]*>", re.IGNORECASE)
_LINE = re.compile(r"<(?:br|tr|hr)\b[^>]*>", re.IGNORECASE)
_PARAGRAPH = re.compile(
    r"</?(?:p|div|ul|ol|table|blockquote|pre|h[1-6]|section|article|header|footer)\b[^>]*>", re.IGNORECASE
)


def looks_like_html(text: str) -> bool:
    return _TAG.search(text) is not None


def _link(match: re.Match[str]) -> str:
    href = html.unescape(match.group(1).strip("\"'"))
    text = match.group(2)
    shown = html.unescape(_TAG.sub("", text)).strip()
    if not href or href.startswith(("mailto:", "#", "javascript:")) or href in shown:
        return text
    return f"{text} ({href})"


def _image(match: re.Match[str]) -> str:
    alt = match.group(1)[1:-1].strip()
    return f"[{alt}]" if alt else ""


def html_to_text(body: str) -> str:
    if not looks_like_html(body):
        return body.strip()
    text = _DROPPED.sub("", body)
    text = _LINK.sub(_link, text)
    text = _IMAGE.sub(_image, text)
    text = re.sub(r"\s*\n\s*", " ", text)  # the source's own line breaks are spaces in HTML
    text = _ITEM.sub("\n- ", text)
    text = _LINE.sub("\n", text)
    text = _PARAGRAPH.sub("\n\n", text)
    text = html.unescape(_TAG.sub("", text)).replace("\xa0", " ")
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
