"""What an endpoint's HTTP answer says, made into one safe line.

Every HTTP error ragtui reports quotes the server's own words (an OpenAI-shaped JSON body's
``error.message``, or a short plain-text body): behind a gateway that is often the only place
saying *which* key or upstream failed. The text is untrusted: controls are drawn visibly,
whitespace collapsed, the key that was sent blanked out, and the whole shortened.

An HTML page where JSON or a stream was expected means the URL reaches a web server, a login
portal or a dashboard rather than the API: that is said as such, never quoted.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from ..text.redaction import redact_url
from ..text.text_safety import visible
from ..types.errors import EndpointError

TEXT_LIMIT = 200
HTML_HINT = "is base_url right (it usually ends in …/v1)?"


def server_text(
    body: str | bytes, content_type: str = "", *, secret: str | None = None, limit: int = TEXT_LIMIT
) -> str:
    """The server's own error text, sanitised and shortened; '' when there is none (an empty
    body, an HTML page, JSON without a message)."""
    if isinstance(body, bytes):
        body = body[:65536].decode("utf-8", errors="replace")
    body = body.strip()
    if not body or is_html(content_type, body):
        return ""
    try:
        data = json.loads(body)
    except ValueError:
        text = body if len(body) <= 2000 else ""  # a long non-JSON body is no error message
    else:
        text = _json_message(data)
    return _clean(text, secret, limit)


def _json_message(data: Any) -> str:
    """OpenAI's ``{"error": {"message": …}}``; also ``{"error": "…"}``, ``{"message": …}`` and
    FastAPI's ``{"detail": …}``, which gateways and local servers send."""
    if not isinstance(data, dict):
        return ""
    error = data.get("error")
    if isinstance(error, dict):
        error = error.get("message") or error.get("msg")
    for candidate in (error, data.get("message"), data.get("detail")):
        if isinstance(candidate, str) and candidate.strip():
            return candidate
    return ""


def _clean(text: str, secret: str | None, limit: int) -> str:
    if secret and len(secret) >= 8:
        text = text.replace(secret, "***")  # a server echoing the key back must not print it
    text = " ".join(visible(text, keep_newlines=False).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def is_html(content_type: str, body: str | bytes = "") -> bool:
    """True for an HTML page: by its content type, or by how the body starts."""
    if "html" in content_type.lower():
        return True
    start = body[:200].lstrip()[:15].lower()
    if isinstance(start, bytes):
        start = start.decode("latin-1")
    return start.startswith(("<!doctype html", "<html", "<head", "<body"))


def quoted(text: str) -> str:
    """``: text`` for a message's end, or '' when the server said nothing."""
    return f": {text}" if text else ""


def host_port(url: str) -> str:
    """``host:port`` of a URL, the port filled in from the scheme: what a refused connection names."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    host = parts.hostname or "?"
    if ":" in host:
        host = f"[{host}]"
    return f"{host}:{port or (443 if parts.scheme == 'https' else 80)}"


def key_hint(key_env: str) -> str:
    """What to check after a 401/403: the key's source without the key, and the gateway case."""
    return (
        f"the key sent is read from ${key_env} (not shown): check it; if the server's text names another key "
        "(a gateway's own upstream key), fix that one in the gateway"
    )


def transport_error(role: str, base_url: str, exc: Exception, timeout: float) -> EndpointError:
    """No answer from ``GET /models``: a refused connection names host:port, a timeout the limit."""
    url = redact_url(base_url)
    name = type(exc).__name__
    if "Timeout" in name:
        return EndpointError(f"the {role} endpoint {url} did not answer within {timeout:g} s", "is the server up?")
    refused = "refused" in str(exc).lower()
    why = "connection refused" if refused else f"{name}: {_clean(str(exc), None, 120)}".rstrip(": ")
    return EndpointError(
        f"cannot reach the {role} endpoint {url}: {why} at {host_port(base_url)}",
        "is the server running and the base URL right (it usually ends in /v1)?",
    )


def models_answer(
    role: str, base_url: str, key_env: str, status: int, content_type: str, body: str, secret: str
) -> list[str] | str:
    """Judge a ``GET /models`` answer: the model ids it lists; or raise the EndpointError for a
    refused key, a 400 (a gateway's answer to a wrong key) or an HTML page; or, when the answer
    proves nothing either way (no such route, a server error), a short reason as a string."""
    url = redact_url(base_url)
    said = quoted(server_text(body, content_type, secret=secret))
    if status in (401, 403):
        raise EndpointError(f"the {role} endpoint {url} refused the request ({status}){said}", key_hint(key_env))
    if status == 200 and is_html(content_type, body):
        raise EndpointError(
            f"the {role} endpoint {url} answered with an HTML page, not an OpenAI-compatible API", HTML_HINT
        )
    if status == 400:
        raise EndpointError(
            f"the {role} endpoint {url} answered GET /models with 400{said}",
            f"a gateway answers 400 to a wrong key too: check ${key_env} and the gateway's setup",
        )
    if status != 200:
        return f"GET /models answered {status}{said}"
    try:
        data = json.loads(body).get("data")
        ids = [str(item["id"]) for item in data if isinstance(item, dict) and item.get("id")]
    except (ValueError, AttributeError, TypeError, KeyError):
        return "GET /models did not return a model list"
    return list(dict.fromkeys(ids))


def url_problem(base_url: str) -> str | None:
    """Why ``base_url`` cannot be an endpoint's URL (no http:// or https://, no host), or None."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        shown = base_url.split("?")[0]
        if "@" in shown:  # user:password@host without a scheme: never print the password
            shown = "***@" + shown.rsplit("@", 1)[1]
        return f"{shown!r} has no http:// or https:// scheme"
    if not parts.hostname:
        return f"{redact_url(base_url)} names no host"
    return None
