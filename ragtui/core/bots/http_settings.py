"""The ``[bot] type = "http"`` settings: any HTTP JSON API (``http_bot.py`` is the adapter).

Every key and its default is in ``HTTP_KEYS`` and ``HttpBotConfig`` below and in the README.
Header and query values name environment variables with ``${NAME}``, expanded only when a request
is sent; a header that looks like a credential but names no variable is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config.bot_config import DEFAULT_REPLY_TIMEOUT, PASSAGE_KEYS, PassageMapping, TableValues
from ..config.toml_io import expect_type
from ..registry.bots import BotType, register_bot
from ..text.json_path import JsonPath
from ..text.redaction import redact_url
from ..types.errors import ConfigError
from .context import BotContext

if TYPE_CHECKING:
    from .base import Bot

STREAM_MODES = ("none", "sse", "text")
# Body slots. history/messages become JSON lists, so they must be a whole value, not part of a string.
SLOTS = ("question", "history", "messages", "session_id", "turn")
LIST_SLOTS = ("history", "messages")
HEADER_SLOTS = ("session_id", "turn")
SLOT = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}")
ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
# Header or query names whose values are credentials: they must come from the environment.
SECRET_NAME = re.compile(r"auth|api[-_]?key|token|secret|password|cookie|signature", re.IGNORECASE)
DEFAULT_BODY: dict[str, Any] = {"question": "{{question}}", "history": "{{history}}", "session_id": "{{session_id}}"}
HTTP_KEYS = {
    "type", "url", "method", "headers", "params", "body", "answer_path", "stream", "delta_path",
    "timeout", "reply_timeout", "max_retries", "backoff", "max_response_bytes", *PASSAGE_KEYS,
}  # fmt: skip


@dataclass
class HttpBotConfig:
    url: str
    method: str = "POST"
    headers: dict[str, str] = field(default_factory=dict)  # values may hold ${NAME}
    params: dict[str, str] = field(default_factory=dict)  # query string; values may hold ${NAME} and slots
    body: Any = None  # JSON template with {{slot}} strings; None for GET
    answer_path: JsonPath = JsonPath.parse("answer")
    passages: PassageMapping = PassageMapping(JsonPath.parse("passages"))
    stream: str = "none"  # none | sse | text
    delta_path: JsonPath = JsonPath.parse("delta")
    timeout: float = 60.0  # a plain response whole; a stream: connecting, and each wait for data
    reply_timeout: float = DEFAULT_REPLY_TIMEOUT  # a whole answer, retries included
    max_retries: int = 2
    backoff: float = 0.5  # seconds before the first retry; doubles each time
    max_response_bytes: int = 5 * 1024 * 1024
    where: str = "[bot]"  # file and table, for messages


def parse_http(table: dict[str, Any], where: str, base: Path) -> HttpBotConfig:
    values = TableValues(table, where)
    url = values.required("url", str)
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"{where} url must start with http:// or https://, got {url!r}")
    method = values.get("method", str, "POST").upper()
    headers = _string_table(values.get("headers", dict, {}), f"{where} headers")
    params = _string_table(values.get("params", dict, {}), f"{where} params")
    for name, value in [*headers.items(), *params.items()]:
        check_env_refs(value, f"{where} {name}")
        if SECRET_NAME.search(name) and not ENV_REF.search(value):
            raise ConfigError(
                f"{where} {name} holds a literal credential, so it would end up in a repository",
                f'put it in an environment variable and write {name} = "...${{NAME}}"',
            )
        check_slots(value, f"{where} {name}", allow_lists=False)
    for name, value in headers.items():
        # A customer message may hold line breaks, which a header cannot carry.
        if any(slot not in HEADER_SLOTS for slot in SLOT.findall(value)):
            raise ConfigError(f"{where} headers.{name}: only {{{{session_id}}}} and {{{{turn}}}} fit in a header")
    body = values.table.get("body", DEFAULT_BODY if method in ("POST", "PUT", "PATCH") else None)
    if body is not None:
        check_slots(body, f"{where} body", allow_lists=True)
    stream = values.get("stream", str, "none")
    if stream not in STREAM_MODES:
        raise ConfigError(f"{where} stream must be one of {', '.join(STREAM_MODES)}, got {stream!r}")
    limit = values.count("max_response_bytes", 5 * 1024 * 1024)
    if limit < 1024:
        raise ConfigError(f"{where} max_response_bytes must be at least 1024, got {limit}")
    return HttpBotConfig(
        url=url,
        method=method,
        headers=headers,
        params=params,
        body=body,
        answer_path=values.path("answer_path", "answer"),  # type: ignore[arg-type]
        passages=values.passages("passages"),
        stream=stream,
        delta_path=values.path("delta_path", "delta"),  # type: ignore[arg-type]
        timeout=values.positive("timeout", 60.0),  # type: ignore[arg-type]
        reply_timeout=values.positive("reply_timeout", DEFAULT_REPLY_TIMEOUT),  # type: ignore[arg-type]
        max_retries=values.count("max_retries", 2),
        backoff=float(values.get("backoff", (int, float), 0.5)),
        max_response_bytes=limit,
        where=where,
    )


def _string_table(table: dict[str, Any], where: str) -> dict[str, str]:
    return {str(k): expect_type(v, str, f"{where}.{k}") for k, v in table.items()}


def check_env_refs(value: str, where: str) -> None:
    """``$`` must start a well-formed ``${NAME}``; a typo like ``$TOKEN`` would send the
    literal text as the credential."""
    leftover = ENV_REF.sub("", value)
    if "${" in leftover or re.search(r"\$[A-Za-z_]", leftover):
        raise ConfigError(f"{where}: environment variables are written ${{NAME}}", "check the braces")


def check_slots(template: Any, where: str, *, allow_lists: bool) -> None:
    """Reject unknown ``{{slots}}``, and list slots embedded in a longer string."""
    if isinstance(template, dict):
        for key, value in template.items():
            check_slots(value, f"{where}.{key}", allow_lists=allow_lists)
    elif isinstance(template, list):
        for i, value in enumerate(template):
            check_slots(value, f"{where}[{i}]", allow_lists=allow_lists)
    elif isinstance(template, str):
        for name in SLOT.findall(template):
            if name not in SLOTS:
                raise ConfigError(f"{where}: unknown slot {{{{{name}}}}}", f"slots: {', '.join(SLOTS)}")
            if name in LIST_SLOTS and (not allow_lists or SLOT.fullmatch(template.strip()) is None):
                raise ConfigError(f"{where}: {{{{{name}}}}} is a list, so it must be the whole value")


def public(h: HttpBotConfig) -> dict[str, Any]:
    return {
        "url": redact_url(h.url),
        "method": h.method,
        "headers": sorted(h.headers),
        "stream": h.stream,
        "answer_path": str(h.answer_path),
        "passages_path": str(h.passages.path) if h.passages.path else None,
        "timeout": h.timeout,
        "reply_timeout": h.reply_timeout,
        "max_retries": h.max_retries,
    }


def build(settings: HttpBotConfig, context: BotContext) -> Bot:
    from .http_bot import HttpBot
    from .http_request import check_env

    check_env(settings)
    return HttpBot(settings)


HTTP = register_bot(BotType("http", build, frozenset(HTTP_KEYS - {"type"}), parse_http, public, order=1))
