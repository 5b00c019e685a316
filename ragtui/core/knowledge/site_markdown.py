"""A Markdown page of a static site (Hugo, Jekyll, MkDocs, Docusaurus, VitePress) as its readers
see it: the front matter's title is the page's title and the front matter is not text; template
tags, components and attribute syntax are gone, keeping the words they show; admonitions are
their text. What the bot retrieves and the generator quotes is then what a customer reads.

Which rules apply when:
- always: front matter, Hugo shortcodes, admonitions and containers, HTML comments, heading
  anchors and attribute lists — syntax plain Markdown never means as text;
- when the page has front matter: Liquid (``{% … %}``, ``{{ … }}``) — as Jekyll itself only
  processes files with front matter, so ``{{first_name}}`` in a plain Markdown article about
  email templates stays;
- when the page is MDX or Vue-flavoured (``.mdx``, front matter, an ``import … from '…'`` line
  or a ``<script setup>``): imports, exports and capitalised component tags.

Code is code: fenced blocks and code spans are kept as written, ``{{ }}`` and all, as Hugo
authors escape shortcodes inside code and VitePress never interpolates in fences. Jekyll's
``{% raw %}`` … ``{% endraw %}`` keeps what is between as written. A page with none of this
syntax is returned exactly as it was."""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import site_inline
from .front_matter import front_matter
from .kept_text import KeptText
from .markdown_sections import heading_lines
from .site_blocks import page_blocks
from .spans import replace_pairs

_RAW = (re.compile(r"\{%-?[ \t]*raw[ \t]*-?%\}"), re.compile(r"\{%-?[ \t]*endraw[ \t]*-?%\}"))
# Hugo's escaped shortcode: {{</* x */>}} shows {{< x >}}
_ESCAPED_SHORTCODE = (re.compile(r"\{\{[<%]/\*"), re.compile(r"\*/[>%]\}\}"))
_HIGHLIGHT_OPEN = re.compile(
    r"^[ \t]*(?:\{\{[<%][ \t]*highlight[ \t]+([\w+-]*)[^}\n]*[>%]\}\}|\{%-?[ \t]*highlight[ \t]+([\w+-]*)[^%\n]*%\})[ \t]*$",
    re.M,
)
_HIGHLIGHT_CLOSE = re.compile(
    r"^[ \t]*(?:\{\{[<%][ \t]*/highlight[ \t]*[>%]\}\}|\{%-?[ \t]*endhighlight[ \t]*-?%\})[ \t]*$", re.M
)
_MDX_HINT = re.compile(r"""^(?:import[ \t][^\n]*\bfrom[ \t]+['"]|<script[ \t]+setup\b)""", re.M)
_TRAILING_SPACE = re.compile(r"[ \t]+$", re.M)
_INNER_SPACES = re.compile(r"(?<=\S)[ \t]{2,}(?=\S)")
_BLANK_RUN = re.compile(r"\n{3,}")


@dataclass(frozen=True)
class SitePage:
    title: str | None  # the front matter's title, if it names one
    text: str  # the page as its readers see it


def read_site_page(text: str, mdx: bool = False) -> SitePage:
    """``text`` (a decoded Markdown page) read as its site renders it. ``mdx``: the file is .mdx."""
    matter = front_matter(text)
    body = text[matter.end :]
    kept = KeptText()
    clean = body
    has_matter = matter.end > 0
    if has_matter:
        clean = replace_pairs(clean, *_RAW, lambda whole, inner: kept.keep(inner.strip("\n")))
    clean = replace_pairs(clean, *_ESCAPED_SHORTCODE, lambda whole, inner: kept.keep(whole[:3] + inner + whole[-3:]))
    clean = _HIGHLIGHT_CLOSE.sub("```", _HIGHLIGHT_OPEN.sub(lambda m: "```" + (m.group(1) or m.group(2) or ""), clean))
    mdx = mdx or has_matter or bool(_MDX_HINT.search(clean))
    clean = page_blocks(clean, kept, mdx)
    clean = site_inline.set_code_spans_aside(clean, kept)
    clean = site_inline.drop_comments(clean)
    clean = site_inline.drop_shortcodes(clean)
    if has_matter:
        clean = site_inline.drop_liquid(clean, matter.title or "")
    if mdx:
        clean = site_inline.drop_components(clean)
    clean = site_inline.drop_attributes(clean)
    if kept.restore(clean) == body:
        clean = body  # nothing of a site's syntax: the page as written, to the byte
    else:
        # What a dropped tag leaves behind: spaces at a line's end or doubled inside it, blank runs.
        clean = _INNER_SPACES.sub(" ", _TRAILING_SPACE.sub("", clean))
        clean = kept.restore(_BLANK_RUN.sub("\n\n", clean).strip("\n") + "\n")
    if matter.title and not any(level == 1 for _, _, level, _ in heading_lines(clean)):
        # The site shows the title as the page's heading: sections read "Title › Section".
        clean = f"# {matter.title}\n\n{clean}"
    return SitePage(matter.title, clean)
