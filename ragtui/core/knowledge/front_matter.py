"""A static-site page's front matter: the YAML (``---``) or TOML (``+++``) block at the top of a
Hugo, Jekyll, MkDocs, Docusaurus or VitePress page. It is the page's settings (``weight:``,
``menu:``, ``description:``), not what its readers read, so it is never passage text; its
``title`` is the page's title.

Only the title is read, so YAML is not parsed in full (ragtui has no YAML dependency): a
top-level ``title:`` with a plain, quoted or folded (``>``/``|``) value. TOML is parsed whole
(tomllib). A block that does not look like settings — a Markdown file that opens with a ``---``
rule — is not front matter."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass

_OPEN = {"---": ("---", "..."), "+++": ("+++",)}
_YAML_KEY = re.compile(r"^[A-Za-z_][\w-]*[ \t]*:(?:[ \t]|$)")
_TOML_KEY = re.compile(r"^(?:[A-Za-z_][\w.-]*[ \t]*=|\[)")
_YAML_TITLE = re.compile(r"^title[ \t]*:[ \t]*(.*?)[ \t]*$")
_TOML_TITLE = re.compile(r"^title[ \t]*=[ \t]*(\"(?:[^\"\\]|\\.)*\"|'[^']*')", re.M)
# A folded or literal block scalar's header: >, |, >-, |+, >2 …
_BLOCK_SCALAR = re.compile(r"^[>|][+-]?\d*$")


@dataclass(frozen=True)
class FrontMatter:
    title: str | None  # the page's title, None when the block names none
    end: int  # where the page's body begins in the text (0: no front matter)


NONE = FrontMatter(None, 0)


def front_matter(text: str) -> FrontMatter:
    """The front matter at the very top of ``text`` (after a BOM), or ``NONE``."""
    lines = text.splitlines(keepends=True)
    if not lines:
        return NONE
    opener = lines[0].lstrip("\ufeff").rstrip()
    if opener not in _OPEN:
        return NONE
    for index, line in enumerate(lines[1:], start=1):
        if line.rstrip() in _OPEN[opener]:
            block = lines[1:index]
            if not _looks_like_settings(block, opener):
                return NONE
            title = _yaml_title(block) if opener == "---" else _toml_title("".join(block))
            return FrontMatter(title or None, sum(len(x) for x in lines[: index + 1]))
    return NONE


def _looks_like_settings(block: list[str], opener: str) -> bool:
    """Every non-blank, non-comment line at the left margin is a key (YAML ``key:``, TOML
    ``key =`` or ``[table]``), and there is at least one — or the block is empty: prose between
    two rules is not front matter."""
    if not any(line.strip() for line in block):
        return True  # "---" then "---": Jekyll's way to have a page processed, with no settings
    key = _YAML_KEY if opener == "---" else _TOML_KEY
    # indented lines, comments, YAML list items and the closing brackets of multi-line TOML arrays
    top = [line for line in block if line.strip() and not line.startswith((" ", "\t", "#", "-", "]", "}"))]
    return bool(top) and all(key.match(line) for line in top)


def _yaml_title(block: list[str]) -> str:
    for index, line in enumerate(block):
        match = _YAML_TITLE.match(line.rstrip("\r\n"))
        if not match:
            continue
        value = match.group(1)
        if not value or _BLOCK_SCALAR.match(value):  # the value is on the indented lines below
            body = []
            for following in block[index + 1 :]:
                if following.strip() and not following.startswith((" ", "\t")):
                    break
                body.append(following.strip())
            return " ".join(part for part in body if part)
        return _yaml_scalar(value)
    return ""


def _yaml_scalar(value: str) -> str:
    if value.startswith("'"):
        end = value.rfind("'")
        return value[1:end].replace("''", "'") if end > 0 else value[1:]
    if value.startswith('"'):
        end = value.rfind('"')
        inner = value[1:end] if end > 0 else value[1:]
        return re.sub(r"\\(.)", r"\1", inner)
    return re.sub(r"[ \t]+#.*$", "", value)  # a plain scalar ends where a comment begins


def _toml_title(block: str) -> str:
    try:
        title = tomllib.loads(block).get("title")
    except tomllib.TOMLDecodeError:  # a block TOML cannot read still names its title
        match = _TOML_TITLE.search(block)
        return _yaml_scalar(match.group(1)) if match else ""
    return title.strip() if isinstance(title, str) else ""
