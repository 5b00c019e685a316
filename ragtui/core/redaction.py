"""Credential-free forms of things that are printed and stored.

A leaf module on purpose: the config, the bot config and the endpoints all redact URLs, and
none of them may import another just for that.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


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
