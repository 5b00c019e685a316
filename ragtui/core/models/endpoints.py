"""Resolve each role to a concrete endpoint: URL, model, key, sampling settings.

Order for the URL: the role's ``base_url`` → ``[endpoint] base_url`` → ``$OPENAI_BASE_URL`` →
OpenAI itself when ``$OPENAI_API_KEY`` is set → the embedded offline model.
The key is read from the environment variable the config names, at resolve time only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from ..config.bot_config import DEFAULT_REPLY_TIMEOUT
from ..config.settings import DEFAULT_TEMPERATURES, Config
from ..registry.bots import uses_bot_role
from ..text.redaction import redact_url
from ..types.errors import ConfigError, EndpointError, RagtuiError
from .http_answer import models_answer, transport_error, url_problem

OPENAI_URL = "https://api.openai.com/v1"
EMBEDDED_MODEL = "qwen2.5-coder-1.5b-instruct"
# Local servers (llama.cpp, vLLM, Ollama) accept any key; the client library insists on one.
PLACEHOLDER_KEY = "no-key"


@dataclass(repr=False)
class Endpoint:
    role: str
    base_url: str | None  # None until the embedded model is started
    model: str
    temperature: float
    api_key_env: str
    max_tokens: int | None = None
    timeout: float = 120.0  # seconds without data (see http1.py)
    reply_timeout: float = DEFAULT_REPLY_TIMEOUT  # seconds for the whole reply, retries included
    max_retries: int = 2
    embedded: bool = False
    api_key: str = field(default=PLACEHOLDER_KEY, repr=False)  # never stored, logged or shown
    discovered: bool = False  # no model was named: it is the one model the server lists

    def __repr__(self) -> str:
        # Never the key, and never credentials a gateway URL may carry.
        return f"Endpoint({self.public()!r}, role={self.role!r})"

    @property
    def label(self) -> str:
        """How the UI names this endpoint's model; the embedded one is marked demo quality."""
        return f"{self.model} (embedded, demo quality)" if self.embedded else self.model

    def public(self) -> dict[str, object]:
        """A description safe to store and show: no key, no credentials in the URL."""
        return {
            "base_url": redact_url(self.base_url) if self.base_url else "embedded",
            "model": self.model,
            "temperature": self.temperature,
            "api_key_env": self.api_key_env,
            "key_set": self.api_key != PLACEHOLDER_KEY,
            "max_tokens": self.max_tokens,
            "timeout": self.timeout,
            "reply_timeout": self.reply_timeout,
            "embedded": self.embedded,
        }


def resolve_endpoints(config: Config, model_override: str | None = None) -> dict[str, Endpoint]:
    """One ``Endpoint`` per role; raises ConfigError naming the role and what to set. The bot
    role is left out when ``[bot]`` names a bot of the team's own: nothing calls it then, and
    it must not need a model name or start the embedded model."""
    roles = [r for r in config.roles if r != "bot" or uses_bot_role(config.bot.type)]
    served: Served = {}  # one GET /models per server, not one per role
    return {role: resolve_endpoint(config, role, model_override, served) for role in roles}


def resolve_each(config: Config, model_override: str | None = None) -> dict[str, Endpoint | RagtuiError]:
    """Like ``resolve_endpoints``, but every role is tried and a role that fails keeps its error
    (``ragtui doctor`` diagnoses them all instead of stopping at the first)."""
    roles = [r for r in config.roles if r != "bot" or uses_bot_role(config.bot.type)]
    served: Served = {}
    resolved: dict[str, Endpoint | RagtuiError] = {}
    for role in roles:
        try:
            resolved[role] = resolve_endpoint(config, role, model_override, served)
        except RagtuiError as exc:
            resolved[role] = exc
    return resolved


def discovery_note(endpoints: dict[str, Endpoint]) -> str | None:
    """One line saying which roles use a model found on the server, or None."""
    found = {(e.model, redact_url(e.base_url or "")) for e in endpoints.values() if e.discovered}
    if not found:
        return None
    return "; ".join(
        f"Using {model}, the one model {url} serves (choose another with --model NAME or OPENAI_MODEL)"
        for model, url in sorted(found)
    )


# base URL → its GET /models outcome: the ids, a reason it proves nothing, or (error, the role it was raised for)
Served = dict[str, "list[str] | str | tuple[EndpointError, str]"]


def served_models(base_url: str, api_key: str, role: str, key_env: str, timeout: float = 3.0) -> list[str] | str:
    """The model ids ``GET {base_url}/models`` lists (local servers such as llama.cpp, vLLM and
    Ollama list the models they serve there), or a short reason the answer proves nothing.
    Raises the EndpointError that says what is wrong with the endpoint itself (refused
    connection, rejected key, an HTML page): that comes before anything about models."""
    import httpx  # only when a model has to be discovered: keeps start-up light

    try:
        response = httpx.get(
            base_url.rstrip("/") + "/models", headers={"Authorization": f"Bearer {api_key}"}, timeout=timeout
        )
    except httpx.HTTPError as exc:
        raise transport_error(role, base_url, exc, timeout) from None
    content_type = response.headers.get("content-type") or ""
    return models_answer(role, base_url, key_env, response.status_code, content_type, response.text, api_key)


def _discover(base_url: str, api_key: str, role: str, key_env: str, where: str, served: Served) -> str:
    """The model to use when none is named: the server's only one, else an error."""
    if base_url not in served:
        try:
            served[base_url] = served_models(base_url, api_key, role, key_env)
        except EndpointError as exc:
            served[base_url] = (exc, role)
    found = served[base_url]
    if isinstance(found, tuple):  # the endpoint itself is wrong: say so, in this role's name
        error, first = found
        raise EndpointError(error.message.replace(f"the {first} endpoint", f"the {role} endpoint", 1), error.hint)
    url = redact_url(base_url)
    if isinstance(found, list) and len(found) == 1:
        return found[0]
    if isinstance(found, list) and len(found) > 1:
        shown = ", ".join(found[:8]) + (f", … ({len(found)} in all)" if len(found) > 8 else "")
        raise ConfigError(
            f"no model named for the {role} role, and {url} serves {len(found)} models: {shown}",
            f"choose one: pass --model NAME, set OPENAI_MODEL, or set model in {where}",
        )
    why = "it lists no models" if isinstance(found, list) else found
    raise ConfigError(
        f"no model named for the {role} role at {url} ({why})",
        f"pass --model NAME, set OPENAI_MODEL, or set model in {where}",
    )


def resolve_endpoint(
    config: Config, role: str, model_override: str | None = None, served: Served | None = None
) -> Endpoint:
    settings = config.role(role)
    where = f"{config.source}: [roles.{role}]" if config.source else f"role {role!r}"
    env_url = os.environ.get("OPENAI_BASE_URL") or None
    env_key_set = bool(os.environ.get("OPENAI_API_KEY"))
    base_url = settings.base_url or env_url or (OPENAI_URL if env_key_set else None)
    embedded = base_url is None
    problem = None if base_url is None else url_problem(base_url)
    if problem is not None:
        origin = f"base_url in {config.source or 'the config'}" if settings.base_url else "OPENAI_BASE_URL"
        raise ConfigError(
            f"the {role} role's base URL {problem}",
            f"write it in full, e.g. http://localhost:8080/v1 ({origin})",
        )
    model = model_override or settings.model or os.environ.get("OPENAI_MODEL") or None
    key_env = settings.api_key_env or "OPENAI_API_KEY"
    api_key = os.environ.get(key_env) or ""
    if not api_key and not embedded:
        explicitly_named = settings.api_key_env is not None
        if explicitly_named or _needs_key(base_url or ""):
            raise ConfigError(
                f"the {role} role needs an API key for {redact_url(base_url or '')}, "
                f"but the environment variable {key_env} is not set",
                f"export {key_env}=... (the key is read from the environment, never from files)",
            )
    discovered = False
    if embedded:
        model = EMBEDDED_MODEL
    elif model is None:
        # Most local servers serve one model and say which: use it rather than refuse.
        model = _discover(
            base_url or "", api_key or PLACEHOLDER_KEY, role, key_env, where, {} if served is None else served
        )
        discovered = True
    return Endpoint(
        role=role,
        base_url=None if base_url is None else base_url.rstrip("/"),
        model=model,
        temperature=settings.temperature if settings.temperature is not None else DEFAULT_TEMPERATURES[role],
        api_key_env=key_env,
        max_tokens=settings.max_tokens,
        timeout=settings.timeout or 120.0,
        reply_timeout=settings.reply_timeout or DEFAULT_REPLY_TIMEOUT,
        max_retries=settings.max_retries if settings.max_retries is not None else 2,
        embedded=embedded,
        api_key=api_key or PLACEHOLDER_KEY,
        discovered=discovered,
    )


def _needs_key(base_url: str) -> bool:
    """Hosted OpenAI always wants a key; local and gateway servers may not."""
    host = urlsplit(base_url).hostname or ""
    return host.endswith("openai.com")
