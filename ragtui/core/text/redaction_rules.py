"""What ``ragtui import`` redacts besides the built-in kinds (``pii.py``): the id patterns by kind
and the customers' names a config's ``[redact]`` adds, and the check of a pattern. Apart from the
redactor, so that reading a config compiles none of its patterns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

BUILTIN_KINDS = ("email", "phone", "card", "postcode", "name")
ID_KINDS = ("order", "account")  # kinds of the default id patterns, which the config may replace
KINDS = ("email", "phone", "card", "postcode", "order", "account", "name")

# An id after its cue word: it has a digit, and is at least 4 characters long.
_ID = r"(?P<v>[0-9]{3,}(?:[ \t-][0-9]{3,})+|[A-Za-z0-9]*[0-9][A-Za-z0-9-]{3,}|[A-Za-z][A-Za-z0-9-]*[0-9][A-Za-z0-9-]*)"
DEFAULT_ID_PATTERNS: tuple[tuple[str, str], ...] = (
    (
        "order",
        r"(?:(?i:\b(?:order|invoice|tracking)(?:[ \t]*(?:number|no\.?|id|#))?)|注文番号|受注番号|オーダー番号"
        r"|伝票番号|問い合わせ番号|お問い合わせ番号)[ \t]*[:#：は]?[ \t]*" + _ID,
    ),
    (
        "account",
        r"(?:(?i:\b(?:account|customer|member|membership|user)[ \t]*(?:number|no\.?|id|#))|会員番号|お客様番号"
        r"|顧客番号|アカウント(?:ID|番号)?|契約番号)[ \t]*[:#：は]?[ \t]*" + _ID,
    ),
)


@dataclass(frozen=True)
class RedactionRules:
    """What to look for besides the built-in kinds: id patterns (kind → regex; the defaults are
    ``DEFAULT_ID_PATTERNS``) and names. ``ragtui.toml``'s ``[redact]`` table makes one."""

    patterns: tuple[tuple[str, str], ...] = DEFAULT_ID_PATTERNS
    names: tuple[str, ...] = ()

    @classmethod
    def from_config(cls, patterns: Mapping[str, str] | None, names: Iterable[str] | None) -> RedactionRules:
        """The defaults with the config's patterns added (a kind named like a default replaces it)."""
        own = dict(patterns or {})
        merged = [(kind, own.pop(kind)) if kind in own else (kind, rx) for kind, rx in DEFAULT_ID_PATTERNS]
        merged += list(own.items())
        clean = tuple(dict.fromkeys(" ".join(n.split()) for n in names or () if n.strip()))
        return cls(tuple(merged), clean)


def check_pattern(kind: str, pattern: str) -> str | None:
    """Why ``pattern`` cannot be a redaction pattern of ``kind``; None when it can."""
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,23}", kind):
        return f"kind {kind!r} must be lower-case letters, digits or _ (it names the placeholder, <{kind}-1>)"
    if kind in BUILTIN_KINDS:
        return f"kind {kind!r} is built in; name your pattern otherwise (order, account, member_id …)"
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        return f"{kind}: not a valid regular expression ({exc})"
    if compiled.search("") is not None:
        return f"{kind}: the pattern matches an empty text, so it would match everywhere"
    return None
