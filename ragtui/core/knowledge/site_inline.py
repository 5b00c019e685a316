"""The in-line part of reading a static-site page as its readers see it: template tags dropped,
keeping what they show in words, and markup a reader never sees removed.

- Hugo shortcodes (``{{< name … >}}``, ``{{% name … %}}``, their closing tags): dropped; what is
  between a pair stays. What a shortcode shows in words stays in its place: a figure's
  ``title`` and ``caption``, a tab's name, a note's ``title``, a tooltip's ``text``.
- Jekyll/Liquid tags (``{% … %}``) and output (``{{ … }}``): dropped, an include's ``content``
  or ``caption`` kept, ``{% comment %}`` blocks dropped whole; ``{{ page.title }}`` is the title.
- JSX and Vue components (``<Tabs>``, ``<TabItem label="Linux">``, ``<Badge text="beta"/>``):
  the tags dropped, their text children and their ``label``/``title``/``text`` kept.
- HTML comments, ``{#id}`` heading anchors, ``{: .class}`` and ``{ .class }`` attribute lists,
  and MkDocs Material icons (``:octicons-tag-24:``) removed.

Code spans are set aside first (kept_text), so ``{{ .Title }}`` written as code stays code."""

from __future__ import annotations

import re

from .kept_text import KeptText
from .spans import code_spans, replace_pairs

_COMMENT = (re.compile(r"<!--"), re.compile(r"-->"))
_HUGO_COMMENT = (re.compile(r"\{\{/\*"), re.compile(r"\*/\}\}"))
_SHORTCODES = ((re.compile(r"\{\{<"), re.compile(r">\}\}")), (re.compile(r"\{\{%"), re.compile(r"%\}\}")))
_SHORTCODE_BODY = re.compile(r"^-?[ \t]*(/?)[ \t]*([\w./-]+)(.*?)-?[ \t]*$", re.S)
_LIQUID_COMMENT = (re.compile(r"\{%-?[ \t]*comment[ \t]*-?%\}"), re.compile(r"\{%-?[ \t]*endcomment[ \t]*-?%\}"))
_LIQUID_TAG = (re.compile(r"\{%"), re.compile(r"%\}"))
_LIQUID_OUTPUT = (re.compile(r"\{\{(?![<%/])"), re.compile(r"\}\}"))
_LIQUID_EXPRESSION = re.compile(r"^-?([^{}]*?)-?$")
_PAGE_TITLE = re.compile(r"^(?:page\.title|\$frontmatter\.title|frontmatter\.title|\.Title|\.Page\.Title)$")
_PARAM = re.compile(r"""(?:([\w-]+)[ \t]*=[ \t]*)?("(?:[^"\\]|\\.)*"|'[^']*'|`[^`]*`|[^\s"'`=]+)""")
_ANCHOR = re.compile(r"[ \t]*\{[ \t]*#[\w:.+-]+(?:[ \t]+[.#][\w:.+-]+)*[ \t]*\}")
_KRAMDOWN_ATTRIBUTES = re.compile(r"\{:[^}\n]*\}")
_ATTR = r"(?:[.#][\w:.+-]+|[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s}]+))"
# { .class #id key=value }: one class or id at least, or right after a link, image or code span
_ATTRIBUTE_LIST = re.compile(
    rf"\{{[ \t]*(?:{_ATTR}[ \t]+)*[.#][\w:.+-]+(?:[ \t]+{_ATTR})*[ \t]*\}}|(?<=[)\]`*_])\{{[ \t]*{_ATTR}(?:[ \t]+{_ATTR})*[ \t]*\}}"
)
_ICON = re.compile(r":(?:material|octicons|fontawesome|simple)-[\w-]+:[ \t]?")
_COMPONENT = re.compile(r"<(/?)([A-Z][\w.:-]*)")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
# What a tag shows in words, by parameter name; a tab's name and label too.
SHOWN = ("title", "caption", "text", "content", "header", "summary")
TAB_SHOWN = ("name", "title", "header", "label", "text")
COMPONENT_SHOWN = ("label", "title", "text", "caption")
# A component's opening tag longer than this is not one (and scanning for it stays linear).
MAX_TAG_CHARS = 4000


def set_code_spans_aside(text: str, kept: KeptText) -> str:
    out: list[str] = []
    position = 0
    for start, end in code_spans(text):
        out += [text[position:start], kept.keep(text[start:end])]
        position = end
    return "".join(out) + text[position:]


def drop_comments(text: str) -> str:
    return replace_pairs(text, *_COMMENT, lambda whole, inner: "")


def drop_shortcodes(text: str) -> str:
    text = replace_pairs(text, *_HUGO_COMMENT, lambda whole, inner: "")
    for opener, closer in _SHORTCODES:
        text = replace_pairs(text, opener, closer, _shortcode)
    return text


def drop_liquid(text: str, title: str) -> str:
    def output(whole: str, inner: str) -> str:
        if (match := _LIQUID_EXPRESSION.match(inner)) is None or "\n\n" in inner:
            return whole  # braces or a blank line inside: not Liquid output
        return title if _PAGE_TITLE.match(match.group(1).strip()) else ""

    text = replace_pairs(text, *_LIQUID_COMMENT, lambda whole, inner: "")
    text = replace_pairs(text, *_LIQUID_TAG, lambda whole, inner: _liquid_tag(inner.strip("-")))
    return replace_pairs(text, *_LIQUID_OUTPUT, output)


def drop_components(text: str) -> str:
    """JSX/Vue component tags (a capitalised name) out, their children and shown words kept.
    A ``<`` that does not open a whole tag before a blank line is text (``a <B``) and stays."""
    out: list[str] = []
    position = 0
    for match in _COMPONENT.finditer(text):
        if match.start() < position:
            continue
        end = _tag_end(text, match.end())
        if end is None:
            continue
        attributes = text[match.end() : end - 1]
        shown = "" if match.group(1) else _shown_attributes(attributes)
        if shown and not attributes.rstrip().endswith("/"):
            shown += ": "  # a label over its children: "Windows: Use Ctrl + C to copy."
        out += [text[position : match.start()], shown]
        position = end
    return "".join(out) + text[position:]


def drop_attributes(text: str) -> str:
    """Heading anchors, attribute lists and icon shortcodes out."""
    for pattern in (_ANCHOR, _KRAMDOWN_ATTRIBUTES, _ATTRIBUTE_LIST, _ICON):
        text = pattern.sub("", text)
    return text


def _shortcode(whole: str, inner: str) -> str:
    match = _SHORTCODE_BODY.match(inner)
    if match is None:
        return whole  # "{{< >}}" with no name is not a shortcode
    return "" if match.group(1) else _shown(match.group(2), match.group(3))


def _shown(name: str, params: str) -> str:
    named: dict[str, str] = {}
    positional: list[str] = []
    for key, value in _PARAM.findall(params):
        value = _unquote(value)
        if key:
            named[key.lower()] = value
        else:
            positional.append(value)
    if "tab" in name.lower():
        label = next((named[k] for k in TAB_SHOWN if named.get(k)), positional[0] if positional else "")
        return label.strip()
    return "\n".join(named[k].strip() for k in SHOWN if named.get(k, "").strip())


def _liquid_tag(body: str) -> str:
    words = body.split(None, 2)
    if len(words) >= 3 and words[0] in ("include", "include_relative", "render"):
        return _shown(words[1], words[2])
    return ""


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'`":
        inner = value[1:-1]
        return re.sub(r"\\(.)", r"\1", inner) if value[0] == '"' else inner
    return value


def _tag_end(text: str, start: int) -> int | None:
    """Just past the ``>`` closing a tag whose attributes begin at ``start``: quotes and JSX
    ``{…}`` expressions may hold ``>``. None when a blank line or the end comes first."""
    depth = 0
    quote = ""
    index = start
    while index < min(len(text), start + MAX_TAG_CHARS):
        char = text[index]
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == ">" and depth <= 0:
            return index + 1
        elif depth <= 0 and _BLANK_LINE.match(text, index):
            return None
        index += 1
    return None


def _shown_attributes(attributes: str) -> str:
    named = {key.lower(): _unquote(value) for key, value in _PARAM.findall(attributes) if key and value[:1] in "\"'"}
    return next((named[k].strip() for k in COMPONENT_SHOWN if named.get(k, "").strip()), "")
