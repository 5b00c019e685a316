"""The ``[bot] type = "http"`` settings: any HTTP JSON API (``http_bot.py`` is the adapter).

Every key and its default is in ``HttpBotConfig`` below and in the README. Header and query values
name environment variables with ``${NAME}``, expanded only when a request is sent; a header that
looks like a credential but names no variable is refused. This module imports nothing of its
adapter: the registry names ``http_bot.build`` by its path.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, model_validator

from ..config.bot_config import DEFAULT_REPLY_TIMEOUT
from ..config.bot_table import JsonPathText, PassageKeys
from ..config.validation import at_least, invalid, positive
from ..registry.bots import BotType
from ..text.json_path import JsonPath
from ..text.redaction import redact_url

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


def web_url(url: str) -> str:
    if not url.startswith(("http://", "https://")):
        raise invalid(f"must start with http:// or https://, got {url!r}")
    return url


class HttpBotConfig(PassageKeys):
    url: Annotated[str, AfterValidator(web_url)]
    method: Annotated[str, AfterValidator(str.upper)] = "POST"
    headers: dict[str, str] = {}  # values may hold ${NAME}
    params: dict[str, str] = {}  # query string; values may hold ${NAME} and slots
    body: Any = None  # JSON template with {{slot}} strings; by default DEFAULT_BODY, none for GET
    answer_path: JsonPathText = JsonPath.parse("answer")
    passages_path: JsonPathText | None = JsonPath.parse("passages")
    stream: Literal["none", "sse", "text"] = "none"
    delta_path: JsonPathText = JsonPath.parse("delta")
    timeout: Annotated[float, positive()] = 60.0  # a plain response whole; a stream: connecting, and each wait for data
    reply_timeout: Annotated[float, positive()] = DEFAULT_REPLY_TIMEOUT  # a whole answer, retries included
    max_retries: Annotated[int, at_least(0, "0 or more")] = 2
    backoff: float = 0.5  # seconds before the first retry; doubles each time
    max_response_bytes: Annotated[int, at_least(1024)] = 5 * 1024 * 1024

    @model_validator(mode="after")
    def _templates(self) -> HttpBotConfig:
        for table, values in (("headers", self.headers), ("params", self.params)):
            for name, value in values.items():
                check_env_refs(value, f"{table} {name}")
                if SECRET_NAME.search(name) and not ENV_REF.search(value):
                    raise invalid(
                        f"{table} {name} holds a literal credential, so it would end up in a repository",
                        f'put it in an environment variable and write {name} = "...${{NAME}}"',
                    )
                check_slots(value, f"{table}.{name}", allow_lists=False)
        for name, value in self.headers.items():
            # A customer message may hold line breaks, which a header cannot carry.
            if any(slot not in HEADER_SLOTS for slot in SLOT.findall(value)):
                raise invalid(f"headers.{name}: only {{{{session_id}}}} and {{{{turn}}}} fit in a header")
        if "body" not in self.model_fields_set and self.method in ("POST", "PUT", "PATCH"):
            self.body = DEFAULT_BODY
        if self.body is not None:
            check_slots(self.body, "body", allow_lists=True)
        return self


def check_env_refs(value: str, where: str) -> None:
    """``$`` must start a well-formed ``${NAME}``; a typo like ``$TOKEN`` would send the
    literal text as the credential. ``where`` names the value within the table."""
    leftover = ENV_REF.sub("", value)
    if "${" in leftover or re.search(r"\$[A-Za-z_]", leftover):
        raise invalid(f"{where}: environment variables are written ${{NAME}}", "check the braces")


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
                raise invalid(f"{where}: unknown slot {{{{{name}}}}}", f"slots: {', '.join(SLOTS)}")
            if name in LIST_SLOTS and (not allow_lists or SLOT.fullmatch(template.strip()) is None):
                raise invalid(f"{where}: {{{{{name}}}}} is a list, so it must be the whole value")


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


HTTP = BotType("http", "ragtui.core.bots.http_bot:build", HttpBotConfig, public, order=1)
