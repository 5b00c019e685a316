"""The line-by-line part of reading a static-site page as its readers see it: admonitions and
containers kept as their text, code fences set aside untouched, and the lines a reader never
sees (MDX imports, ``<script setup>``, kramdown attribute lines, a table-of-contents marker)
dropped.

- MkDocs ``!!! note "Title"`` / ``??? tip`` and content tabs ``=== "Tab"``: the title (or the
  tab's label) on a line of its own, then the indented body, dedented. A kind without a title
  (``!!! note``) gives no line: the word "Note" is the theme's, in the theme's language.
- Docusaurus and VitePress ``:::tip Title`` / ``:::tip[Title]`` … ``:::``: the title and the body;
  ``::: v-pre`` keeps its body as written; ``::: code-group`` is only its code blocks.
- GitHub and Obsidian alerts (``> [!NOTE]``): the quote without its marker.
- Fences: kept as written (no rule for prose applies inside), except Docusaurus's
  ``mdx-code-block``, which is page content, not code.
"""

from __future__ import annotations

import re

from .kept_text import KeptText

_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)$")
_ADMONITION = re.compile(r"^([ \t]*)(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+\"(.*)\")?[ \t]*$")
_TAB = re.compile(r"^([ \t]*)===\+?[ \t]+\"(.*)\"[ \t]*$")
_CONTAINER = re.compile(r"^[ \t]*(:{3,})[ \t]*([\w-]+)[ \t]*(?:\[(.*)\]|\{[^}]*title=\"([^\"]*)\"[^}]*\}|(.*))$")
_CONTAINER_END = re.compile(r"^[ \t]*:{3,}[ \t]*$")
_ALERT = re.compile(r"^([ \t]*>[ \t]*)\[!(?:note|tip|important|warning|caution|info|danger)\][+-]?[ \t]*(.*)$", re.I)
_EMPTY_QUOTE = re.compile(r"^[ \t]*>[ \t]*$")
_ROOT_BLOCK = re.compile(r"^<(script|style)\b[^>]*>")
_IMPORT_LINE = re.compile(r"""^import[ \t]+(?:[\w*{}, \t]+?[ \t]+from[ \t]+)?(['"])[^'"\n]+\1;?[ \t]*$""")
_IMPORT_OPEN = re.compile(r"^import[ \t]+(?:type[ \t]+)?(?:[\w*]+[ \t]*,[ \t]*)?\{[^}'\"]*$")
_IMPORT_CLOSE = re.compile(r"""\}[ \t]*from[ \t]+(['"])[^'"\n]+\1;?[ \t]*$""")
_EXPORT = re.compile(r"^export[ \t]+(?:const|let|var|function|default|class|async)\b")
_ATTRIBUTE_LINE = re.compile(r"^[ \t]*\{:[^}\n]*\}[ \t]*$")
_TOC_ITEM = re.compile(r"^[ \t]*(?:[*+-]|1\.)[ \t]+TOC[ \t]*$")
_TOC_MARKER = re.compile(r"^[ \t]*\{:[ \t]*toc[ \t]*\}[ \t]*$")
# VitePress [[toc]], VitePress code-snippet imports (<<< @/file), pymdownx snippets (--8<-- "file")
_INVISIBLE_LINE = re.compile(r"^[ \t]*(?:\[\[toc\]\]|<<<[ \t]+@?/|-{2}8<-{2})", re.I)
TAB_WIDTH = 4
# An export whose brackets stay open this long is not one (and the scan for its end stays short).
MAX_STATEMENT_LINES = 200


def page_blocks(text: str, kept: KeptText, mdx: bool) -> str:
    """``text`` with its block syntax read as a reader sees it; fences kept in ``kept``.
    ``mdx``: the page is MDX or Vue-flavoured (imports and root ``<script>`` blocks are code)."""
    return "".join(_blocks(text.splitlines(keepends=True), kept, mdx))


def _blocks(lines: list[str], kept: KeptText, mdx: bool) -> list[str]:
    out: list[str] = []
    depth = 0  # open ::: containers
    i = 0
    while i < len(lines):
        line = lines[i]
        bare = line.rstrip("\n")
        if fence := _FENCE.match(bare):
            end = _fence_end(lines, i, fence.group(2))
            info = fence.group(3).strip().split()
            if info and info[0] == "mdx-code-block":
                out += _blocks(lines[i + 1 : end], kept, mdx)
            else:
                out.append(kept.keep("".join(lines[i : end + 1]).rstrip("\n")) + "\n")
            i = end + 1
        elif (admonition := _ADMONITION.match(bare)) or (admonition := _TAB.match(bare)):
            indent = _width(admonition.group(1))
            end = i + 1
            while end < len(lines) and (not lines[end].strip() or _width(_lead(lines[end])) >= indent + TAB_WIDTH):
                end += 1
            while end > i + 1 and not lines[end - 1].strip():  # trailing blank lines stay outside
                end -= 1
            title = (admonition.group(2) or "").strip()
            if title:
                out += [admonition.group(1) + title + "\n", "\n"]
            out += _blocks([_dedent(x, TAB_WIDTH) for x in lines[i + 1 : end]], kept, mdx)
            i = end
        elif (container := _CONTAINER.match(bare)) and not _CONTAINER_END.match(bare):
            title = next((g for g in container.group(3, 4, 5) if g), "").strip()
            if container.group(2) == "v-pre":  # VitePress: the body as written, no interpolation
                end = next((j for j in range(i + 1, len(lines)) if _CONTAINER_END.match(lines[j])), len(lines))
                out.append(kept.keep("".join(lines[i + 1 : end]).rstrip("\n")) + "\n")
                i = end + 1
                continue
            depth += 1
            if title:
                out += [title + "\n", "\n"]
            i += 1
        elif depth and _CONTAINER_END.match(bare):
            depth -= 1
            i += 1
        elif alert := _ALERT.match(bare):
            if alert.group(2):
                out.append(alert.group(1) + alert.group(2) + "\n")
            elif i + 1 < len(lines) and _EMPTY_QUOTE.match(lines[i + 1]):
                i += 1  # the quote's empty line under the marker goes with it
            i += 1
        elif _TOC_ITEM.match(bare) and i + 1 < len(lines) and _TOC_MARKER.match(lines[i + 1]):
            i += 2  # kramdown's "* TOC / {:toc}": the generated table of contents
        elif _ATTRIBUTE_LINE.match(bare) or _INVISIBLE_LINE.match(bare):
            i += 1
        elif root := _ROOT_BLOCK.match(bare):
            close = f"</{root.group(1)}>"
            end = next((j for j in range(i, len(lines)) if close in lines[j]), len(lines) - 1)
            i = end + 1
        elif mdx and (_IMPORT_LINE.match(bare) or _EXPORT.match(bare) or _IMPORT_OPEN.match(bare)):
            i = _statement_end(lines, i) + 1
        else:
            out.append(line)
            i += 1
    return out


def _fence_end(lines: list[str], start: int, marker: str) -> int:
    """The index of the line closing the fence opened at ``start`` (the last line if none does)."""
    closing = re.compile(rf"^[ \t]*{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
    return next((j for j in range(start + 1, len(lines)) if closing.match(lines[j].rstrip("\n"))), len(lines) - 1)


def _statement_end(lines: list[str], start: int) -> int:
    """The last line of the import or export statement opened at ``start``: the line itself,
    or for ``import {`` the line naming the module, and for an export whose braces or brackets
    stay open, the line that closes them."""
    first = lines[start]
    if _IMPORT_OPEN.match(first.rstrip("\n")):
        return next((j for j in range(start, len(lines)) if _IMPORT_CLOSE.search(lines[j])), start)
    balance = 0
    for j in range(start, min(len(lines), start + MAX_STATEMENT_LINES)):
        balance += sum(lines[j].count(c) for c in "{[(") - sum(lines[j].count(c) for c in "}])")
        if balance <= 0:
            return j
    return start


def _lead(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _width(lead: str) -> int:
    return sum(TAB_WIDTH if c == "\t" else 1 for c in lead)


def _dedent(line: str, width: int) -> str:
    taken = 0
    index = 0
    while index < len(line) and taken < width and line[index] in " \t":
        taken += TAB_WIDTH if line[index] == "\t" else 1
        index += 1
    return line[index:]
