"""Credential-free forms of things that are printed and stored.

A leaf module on purpose: the config, the bot config and the endpoints all redact URLs, and
none of them may import another just for that.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


def looks_like_a_key(value: str) -> bool:
    """True when an ``api_key_env`` value is not a variable's name but, by its look, a key
    pasted in its place (``sk-…``, or a long mixed-case string with digits)."""
    if not _ENV_NAME.fullmatch(value):
        return True
    return len(value) >= 20 and any(c.islower() for c in value) and any(c.isdigit() for c in value)


def redact_url(url: str) -> str:
    """Drop user:password and the query string, where gateways sometimes carry keys."""
    parts = urlsplit(url)
    netloc = parts.hostname or ""
    if ":" in netloc:  # IPv6 literals keep their brackets, or the URL no longer parses
        netloc = f"[{netloc}]"
    if parts.port:
        netloc = f"{netloc}:{parts.port}"
    if parts.username or parts.password:
        netloc = f"***@{netloc}"
    query = "***" if parts.query else ""
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))
