"""The ``[bot]`` table: which bot is under test and how to talk to it.

::

    [bot]
    type = "http"                       # builtin (default) | http | openai | python
    url = "http://127.0.0.1:8765/chat"
    headers = { Authorization = "Bearer ${SUPPORT_BOT_TOKEN}" }   # ${NAME}: read at request time
    body = { question = "{{question}}", history = "{{history}}", session_id = "{{session_id}}" }
    answer_path = "answer"
    passages_path = "passages"

Every key and its default is in ``HTTP_KEYS``/``OPENAI_KEYS``/``PYTHON_KEYS`` below and in the
README. Like the rest of the config, secrets never live here: header and query values name
environment variables with ``${NAME}``, expanded only when a request is sent, and a header that
looks like a credential but names no variable is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .json_path import JsonPath
from .redaction import looks_like_a_key, redact_url
from .toml_io import expect_type, reject_unknown_keys

BOT_TYPES = ("builtin", "http", "openai", "python")
STREAM_MODES = ("none", "sse", "text")
HISTORY_FORMATS = ("messages", "pairs")
# A whole reply's time limit (the roles' endpoints and the bots under test). ``timeout`` alone
# never stops a server that trickles a piece just inside it; five minutes is far beyond any sound
# reply, even the embedded model's on a busy CPU.
DEFAULT_REPLY_TIMEOUT = 300.0
# Body slots. history/messages become JSON lists, so they must be a whole value, not part of a string.
SLOTS = ("question", "history", "messages", "session_id", "turn")
LIST_SLOTS = ("history", "messages")
HEADER_SLOTS = ("session_id", "turn")
SLOT = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}")
ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
# Header or query names whose values are credentials: they must come from the environment.
SECRET_NAME = re.compile(r"auth|api[-_]?key|token|secret|password|cookie|signature", re.IGNORECASE)
DEFAULT_BODY: dict[str, Any] = {"question": "{{question}}", "history": "{{history}}", "session_id": "{{session_id}}"}
PASSAGE_KEYS = {"passages_path", "passage_text", "passage_title", "passage_source"}
HTTP_KEYS = {
    "type", "url", "method", "headers", "params", "body", "answer_path", "stream", "delta_path",
    "timeout", "reply_timeout", "max_retries", "backoff", "max_response_bytes", *PASSAGE_KEYS,
}  # fmt: skip
OPENAI_KEYS = {
    "type", "base_url", "model", "api_key_env", "temperature", "max_tokens", "timeout", "reply_timeout",
    "max_retries", "system_prompt", *PASSAGE_KEYS,
}  # fmt: skip
PYTHON_KEYS = {"type", "target", "prompt", "history_format", "timeout"}


@dataclass(frozen=True)
class PassageMapping:
    """Where the passages are (``path``), and, inside each passage object, its text, title and
    source. A passage that is a plain string is its own text."""

    path: JsonPath | None
    text: JsonPath = JsonPath.parse("text")
    title: JsonPath = JsonPath.parse("title")
    source: JsonPath = JsonPath.parse("source")


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


@dataclass
class OpenAIBotConfig:
    base_url: str
    model: str
    api_key_env: str | None = None
    temperature: float = 0.2
    max_tokens: int | None = None
    timeout: float = 120.0
    reply_timeout: float = DEFAULT_REPLY_TIMEOUT
    max_retries: int = 2
    system_prompt: str | None = None
    passages: PassageMapping | None = None  # None: look in the fields known servers use
    where: str = "[bot]"


@dataclass
class PythonBotConfig:
    target: str  # "module:function" or "module:Class"
    prompt: str | None = None  # passed as the third argument when the function takes one
    history_format: str = "messages"  # messages: [{role, content}]; pairs: [[question, answer]]
    timeout: float | None = None
    search_path: Path | None = None  # the config file's folder, importable too
    where: str = "[bot]"


@dataclass
class BotConfig:
    type: str = "builtin"
    http: HttpBotConfig | None = None
    openai: OpenAIBotConfig | None = None
    python: PythonBotConfig | None = None

    def public(self) -> dict[str, Any]:
        """Safe to print and store: URLs without credentials, header *names* only."""
        if self.http is not None:
            h = self.http
            return {
                "type": "http",
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
        if self.openai is not None:
            o = self.openai
            return {
                "type": "openai",
                "base_url": redact_url(o.base_url),
                "model": o.model,
                "api_key_env": o.api_key_env,
            }
        if self.python is not None:
            return {"type": "python", "target": self.python.target, "history_format": self.python.history_format}
        return {"type": self.type}


def check_key_env(value: str, where: str) -> None:
    """``api_key_env`` names a variable; a value that looks like a key itself is refused
    without ever being repeated (it would land in logs and on screen)."""
    if looks_like_a_key(value):
        raise ConfigError(
            f"{where} api_key_env must be the name of an environment variable (like OPENAI_API_KEY), "
            "but its value looks like a key itself (not shown)",
            "put the key in an environment variable, name that variable here, and treat the key as exposed",
        )


def parse_bot(table: dict[str, Any], where: str, base: Path) -> BotConfig:
    """The ``[bot]`` table → ``BotConfig``; errors name ``where`` (file and table) and the key."""
    kind = expect_type(table.get("type", "builtin"), str, f"{where} type")
    if kind not in BOT_TYPES:
        raise ConfigError(f"{where} type must be one of {', '.join(BOT_TYPES)}, got {kind!r}")
    if kind == "builtin":
        reject_unknown_keys(table, {"type"}, f"{where} (type builtin)")
        return BotConfig()
    if "api_key" in table:
        raise ConfigError(
            f"{where}: api_key is not read from files, so it never ends up in a repository",
            "put the key in an environment variable and name it with api_key_env (or ${NAME} in headers)",
        )
    allowed = {"http": HTTP_KEYS, "openai": OPENAI_KEYS, "python": PYTHON_KEYS}[kind]
    reject_unknown_keys(table, allowed, f"{where} (type {kind})")
    values = _Values(table, where)
    if kind == "http":
        return BotConfig(type=kind, http=_parse_http(values, where))
    if kind == "openai":
        return BotConfig(type=kind, openai=_parse_openai(values, where))
    return BotConfig(type=kind, python=_parse_python(values, where, base))


class _Values:
    """Typed, located access to the keys of the table."""

    def __init__(self, table: dict[str, Any], where: str) -> None:
        self.table, self.where = table, where

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        return expect_type(self.table[key], kind, f"{self.where} {key}") if key in self.table else default

    def required(self, key: str, kind: type) -> Any:
        if key not in self.table:
            raise ConfigError(f"{self.where} needs {key} for type {self.table.get('type')!r}")
        return self.get(key, kind)

    def positive(self, key: str, default: float | None) -> float | None:
        value = self.get(key, (int, float), default)
        if value is not None and value <= 0:
            raise ConfigError(f"{self.where} {key} must be positive, got {value}")
        return None if value is None else float(value)

    def count(self, key: str, default: int) -> int:
        value = self.get(key, int, default)
        if value < 0:
            raise ConfigError(f"{self.where} {key} must be 0 or more, got {value}")
        return value

    def path(self, key: str, default: str | None) -> JsonPath | None:
        text = self.get(key, str, default)
        if text is None:
            return None
        try:
            return JsonPath.parse(text)
        except ValueError as exc:
            raise ConfigError(f"{self.where} {key}: {exc}") from None

    def passages(self, default_path: str | None) -> PassageMapping:
        return PassageMapping(
            self.path("passages_path", default_path),
            self.path("passage_text", "text"),  # type: ignore[arg-type]
            self.path("passage_title", "title"),  # type: ignore[arg-type]
            self.path("passage_source", "source"),  # type: ignore[arg-type]
        )


def _parse_http(values: _Values, where: str) -> HttpBotConfig:
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


def _key_env(value: str | None, where: str) -> str | None:
    if value is not None:
        check_key_env(value, where)
    return value


def _parse_openai(values: _Values, where: str) -> OpenAIBotConfig:
    temperature = float(values.get("temperature", (int, float), 0.2))
    if not 0.0 <= temperature <= 2.0:
        raise ConfigError(f"{where} temperature must be between 0 and 2, got {temperature}")
    max_tokens = values.positive("max_tokens", None)
    return OpenAIBotConfig(
        base_url=values.required("base_url", str).rstrip("/"),
        model=values.required("model", str),
        api_key_env=_key_env(values.get("api_key_env", str), where),
        temperature=temperature,
        max_tokens=None if max_tokens is None else int(max_tokens),
        timeout=values.positive("timeout", 120.0),  # type: ignore[arg-type]
        reply_timeout=values.positive("reply_timeout", DEFAULT_REPLY_TIMEOUT),  # type: ignore[arg-type]
        max_retries=values.count("max_retries", 2),
        system_prompt=values.get("system_prompt", str),
        passages=values.passages(None) if "passages_path" in values.table else None,
        where=where,
    )


def _parse_python(values: _Values, where: str, base: Path) -> PythonBotConfig:
    target = values.required("target", str)
    module, _, attribute = target.partition(":")
    if not module or not attribute:
        raise ConfigError(f"{where} target must look like 'module:function' or 'module:Class', got {target!r}")
    history_format = values.get("history_format", str, "messages")
    if history_format not in HISTORY_FORMATS:
        raise ConfigError(f"{where} history_format must be one of {', '.join(HISTORY_FORMATS)}")
    return PythonBotConfig(
        target=target,
        prompt=values.get("prompt", str),
        history_format=history_format,
        timeout=values.positive("timeout", None),
        search_path=base,
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
