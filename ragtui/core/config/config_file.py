"""The tables of ragtui.toml besides the top level (``settings.Config``): each is the dataclass
ragtui works with, and the file is read against it (``declared.py``). The layout, with each key's
meaning, is in ``settings``' docstring and the README.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path  # a Path in a table is relative to the file (reader.py): needed at run time
from typing import Annotated, Any, Literal, NamedTuple

from ..text.redaction import looks_like_a_key
from ..text.redaction_rules import RedactionRules, check_pattern
from ..types.agreement_floor import AgreementFloor
from ..types.product import Product
from .declared import FileForm, declare
from .rules import Rule, after, at_least, before, between, got, invalid, positive, stripped

Language = Literal["ja", "en"]
LANGUAGES: tuple[str, ...] = ("ja", "en")
SIMULATOR_CHECKS = ("model", "code", "off")
Fraction = Annotated[float, between(0, 1)]
Count = Annotated[int, at_least(1)]
Seconds = Annotated[float, positive()]
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h)?\s*$")


def parse_duration(value: object) -> float:
    """Seconds from ``"10m"``, ``"30s"``, ``"1h"`` or a plain number of seconds."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise invalid(f'must be a duration such as "10m", "30s" or 0, got {value!r}')
    if isinstance(value, int | float):
        seconds = float(value)
    else:
        match = _DURATION.match(value)
        if match is None:
            raise invalid(f'must be a duration such as "10m", "30s" or 0, got {value!r}')
        seconds = float(match.group(1)) * {"s": 1, "m": 60, "h": 3600}[match.group(2) or "s"]
    if seconds < 0:
        raise invalid(f"must not be negative, got {value!r}")
    return seconds


def check_key_env(value: str) -> str:
    """``api_key_env`` names a variable; a value that looks like a key itself is refused
    without ever being repeated (it would land in logs and on screen)."""
    if looks_like_a_key(value):
        raise invalid(
            "must be the name of an environment variable (like OPENAI_API_KEY), "
            "but its value looks like a key itself (not shown)",
            "put the key in an environment variable, name that variable here, and treat the key as exposed",
        )
    return value


KeyEnv = Annotated[str, after(check_key_env)]


def no_api_key(hint: str) -> Rule:
    """Keys never live in files, so they never end up in a repository."""

    def check(data: Any) -> Any:
        if isinstance(data, dict) and "api_key" in data:
            raise invalid(": api_key is not read from files, so it never ends up in a repository", hint)
        return data

    return before(check)


@dataclass
class EndpointConfig:
    """``[endpoint]`` and ``[roles.<role>]``: one OpenAI-compatible endpoint; ``None`` means
    "inherit" (a role's from ``[endpoint]``, ``[endpoint]``'s from the defaults)."""

    base_url: str | None = None
    model: str | None = None
    temperature: Annotated[float, between(0, 2)] | None = None
    api_key_env: KeyEnv | None = None
    max_tokens: Annotated[int, positive()] | None = None
    timeout: Seconds | None = None  # seconds without data: connecting, the answer's start, between two pieces
    reply_timeout: Seconds | None = None  # seconds for a whole reply, however steadily it streams
    max_retries: Annotated[int, at_least(0, "0 or more")] | None = None

    def merged_over(self, fallback: EndpointConfig) -> EndpointConfig:
        """Fields set here win; unset ones come from ``fallback``."""
        unset = {f.name: getattr(fallback, f.name) for f in dataclasses.fields(self) if getattr(self, f.name) is None}
        return dataclasses.replace(self, **unset)


declare(
    EndpointConfig,
    FileForm(before=(no_api_key("put the key in an environment variable and name it with api_key_env"),)),
)


@dataclass(frozen=True)
class RolesTable:
    """``[roles]``: per-role overrides of ``[endpoint]``; ``Config.roles`` holds every role."""

    user: EndpointConfig | None = None
    bot: EndpointConfig | None = None
    judge: EndpointConfig | None = None


@dataclass
class EmbeddedConfig:
    """``[embedded]``: the embedded llama.cpp model used when a role has no endpoint."""

    model_path: Path | None = None  # None: the bundled Qwen2.5-Coder-1.5B GGUF
    ctx_size: int = 8192
    port: int = 0  # 0: a free port
    threads: Annotated[int, at_least(0, "0 (automatic) or more")] = 0  # 0: automatic (local_model.default_threads)
    parallel: Annotated[int, between(0, 16)] = 0  # request slots; 0: sized for `concurrency` (local_model.slots_for)
    # seconds the shared server stays up after the last ragtui exits ("10m", "30s", or seconds)
    keep_alive: Annotated[float, before(parse_duration)] = 0.0
    repack: bool = False  # llama.cpp's interleaved weight layout (see local_model.LocalModelSettings)


class Price(NamedTuple):
    """``"model" = { input = 0.15, output = 0.60 }``: prices per million tokens."""

    input: Annotated[float, at_least(0, "0 or more")]
    output: Annotated[float, at_least(0, "0 or more")]


declare(
    Price, FileForm(missing_hints={k: "prices are per million tokens, e.g. input = 0.15" for k in ("input", "output")})
)

FLOOR_HINT = "it is a floor on the judge's measured agreement with people; -1 never calls a score low"
# ``[min_judge_agreement]`` is an ``AgreementFloor`` (``core/types``, below these rules).
declare(
    AgreementFloor,
    FileForm(rules={"spearman": (between(-1, 1, FLOOR_HINT),), "kappa": (between(-1, 1, FLOOR_HINT),), "items": (at_least(1),)}),
)  # fmt: skip


@dataclass(frozen=True)
class RelevancyOptions:
    """``[answer_relevancy]``, seed 001's options."""

    # The seed's weight of an "unsure" verdict. Statements are now scored by P(yes), which
    # carries the judge's uncertainty itself, so this no longer changes the score; it is kept
    # so configurations that set it still load.
    uncertainty_weight: Fraction = 0.3
    scale: Seconds = 1.0  # the seed's maximum score (positive, like seconds); only ``scaled_score`` uses it


# ``[product]`` is a ``Product`` (``core/types``): what the prompts call the team's product.
declare(Product, FileForm(rules={"name": (after(stripped),), "support": (after(stripped),)}))


def open_alpha(value: float) -> float:
    if not 0.0 < value < 0.5:
        raise invalid(
            f"must be over 0 and under 0.5, got {got(value)}",
            "0.05 (the default) calls a drop a regression when two equal bots would show it under 5% of the time",
        )
    return value


def valid_patterns(patterns: dict[str, str]) -> dict[str, str]:
    for kind, pattern in patterns.items():
        problem = check_pattern(kind, pattern)
        if problem is not None:
            raise invalid(f"has a bad pattern: {problem}")
    return patterns


@dataclass(frozen=True)
class RedactTable:
    """``[redact]``: what ``ragtui import`` replaces besides e-mail, phones, cards and postcodes
    (core/text/pii.py): id patterns by kind (``order = "ORD-[0-9]{6}"`` gives ``<order-1>``; a kind
    named like a default pattern, order or account, replaces it) and customers' names. Read into
    the ``RedactionRules`` it adds to (:meth:`rules`)."""

    patterns: Annotated[dict[str, str], after(valid_patterns)] = field(default_factory=dict)
    names: tuple[str, ...] = ()

    def rules(self) -> RedactionRules:
        return RedactionRules.from_config(self.patterns, self.names)
