"""What ragtui.toml may say, declared: one model per table, read by ``settings.parse_config``.

Every key is optional (``None``: not in the file, so ``Config``'s default stands). The layout,
with each key's meaning, is in ``settings``' docstring and the README.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, field_validator, model_validator

from ..registry import metrics as metric_registry
from ..registry.metrics import PRIMARY_METRIC
from ..text.pii import check_pattern
from ..text.redaction import looks_like_a_key
from .expectation_items import PolicyList
from .limits import MAX_CONCURRENCY, MAX_REPEAT, MAX_TURNS
from .validation import TomlTable, at_least, at_most, between, got, invalid, positive

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


KeyEnv = Annotated[str, AfterValidator(check_key_env)]


def no_api_key(data: Any, hint: str) -> Any:
    """Keys never live in files, so they never end up in a repository."""
    if isinstance(data, dict) and "api_key" in data:
        raise invalid(": api_key is not read from files, so it never ends up in a repository", hint)
    return data


class EndpointTable(TomlTable):
    """``[endpoint]`` and ``[roles.<role>]``."""

    base_url: str | None = None
    model: str | None = None
    temperature: Annotated[float, between(0, 2)] | None = None
    api_key_env: KeyEnv | None = None
    max_tokens: Annotated[int, positive()] | None = None
    timeout: Seconds | None = None
    reply_timeout: Seconds | None = None
    max_retries: Annotated[int, at_least(0, "0 or more")] | None = None

    @model_validator(mode="before")
    @classmethod
    def _no_key(cls, data: Any) -> Any:
        return no_api_key(data, "put the key in an environment variable and name it with api_key_env")


class RolesTable(TomlTable):
    user: EndpointTable | None = None
    bot: EndpointTable | None = None
    judge: EndpointTable | None = None


class EmbeddedTable(TomlTable):
    model_path: str | None = None
    ctx_size: int | None = None
    port: int | None = None
    threads: Annotated[int, at_least(0, "0 (automatic) or more")] | None = None
    parallel: Annotated[int, between(0, 16)] | None = None
    keep_alive: Annotated[float, BeforeValidator(parse_duration)] | None = None
    repack: bool | None = None


class PriceTable(TomlTable):
    """``"model" = { input = 0.15, output = 0.60 }``: prices per million tokens."""

    missing_hints = {k: "prices are per million tokens, e.g. input = 0.15" for k in ("input", "output")}
    input: Annotated[float, at_least(0, "0 or more")]
    output: Annotated[float, at_least(0, "0 or more")]


FLOOR_HINT = "it is a floor on the judge's measured agreement with people; -1 never calls a score low"


class FloorTable(TomlTable):
    spearman: Annotated[float, between(-1, 1, FLOOR_HINT)] | None = None
    kappa: Annotated[float, between(-1, 1, FLOOR_HINT)] | None = None
    items: Count | None = None


class RelevancyTable(TomlTable):
    uncertainty_weight: Fraction | None = None
    scale: Seconds | None = None  # positive, like a number of seconds


def open_alpha(value: float) -> float:
    if not 0.0 < value < 0.5:
        raise invalid(
            f"must be over 0 and under 0.5, got {got(value)}",
            "0.05 (the default) calls a drop a regression when two equal bots would show it under 5% of the time",
        )
    return value


class ProductTable(TomlTable):
    """``[product]``: what the bot and the simulated customer call the team's product."""

    name: str | None = None
    support: str | None = None


class RedactTable(TomlTable):
    """``[redact]``: what ``ragtui import`` replaces besides e-mail, phones, cards and postcodes
    (core/text/pii.py): id patterns by kind (``order = "ORD-[0-9]{6}"`` gives ``<order-1>``; a kind
    named like a default pattern, order or account, replaces it) and customers' names."""

    patterns: dict[str, str] | None = None
    names: list[str] | None = None

    @field_validator("patterns")
    @classmethod
    def _valid_patterns(cls, patterns: dict[str, str] | None) -> dict[str, str] | None:
        for kind, pattern in (patterns or {}).items():
            problem = check_pattern(kind, pattern)
            if problem is not None:
                raise invalid(f"has a bad pattern: {problem}")
        return patterns


class ConfigFile(TomlTable):
    """ragtui.toml."""

    named_arrays = frozenset({"policy"})

    language: Language | None = None
    prices: dict[str, PriceTable] | None = None
    labeller: str | None = None
    max_turns: Annotated[int, at_least(1), at_most(MAX_TURNS)] | None = None
    threshold: Fraction | None = None
    concurrency: Annotated[int, at_least(1), at_most(MAX_CONCURRENCY)] | None = None
    repeat: Annotated[int, at_least(1), at_most(MAX_REPEAT)] | None = None
    top_k: Count | None = None
    metrics: list[str] | None = None
    dialogue_metrics: list[str] | None = None
    min_resolution_rate: (
        Annotated[
            float,
            between(0, 1, "0 turns the gate off; 0.8 fails a run in which fewer than 80% of dialogues were resolved"),
        ]
        | None
    ) = None
    min_expectation_rate: (
        Annotated[
            float,
            between(
                0, 1, "0 turns the gate off; 0.9 fails a run in which fewer than 90% of expectations were met or kept"
            ),
        ]
        | None
    ) = None
    policy: PolicyList | None = None
    compare_alpha: Annotated[float, AfterValidator(open_alpha)] | None = None
    simulator_check: Literal["model", "code", "off"] | None = None
    database: str | None = None
    personas: str | None = None
    user_personas: str | None = None
    scenarios: str | None = None
    knowledge: str | None = None
    prompts: str | None = None
    endpoint: EndpointTable | None = None
    roles: RolesTable | None = None
    embedded: EmbeddedTable | None = None
    bot: dict[str, Any] | None = None  # its keys depend on its type: bot_config.parse_bot reads them
    thresholds: dict[str, Fraction] | None = None
    answer_relevancy: RelevancyTable | None = None
    product: ProductTable | None = None
    min_judge_agreement: FloorTable | None = None
    gate_low_agreement: bool | None = None
    redact: RedactTable | None = None

    @field_validator("dialogue_metrics")
    @classmethod
    def _known_dialogue_metrics(cls, names: list[str] | None) -> list[str] | None:
        known = metric_registry.metric_names("dialogue") if names else ()
        unknown = [n for n in names or () if n not in known]
        if unknown:
            raise invalid(f"has unknown metric {unknown[0]!r}", f"known: {', '.join(known)}; [] turns them off")
        return names

    @field_validator("thresholds", mode="before")
    @classmethod
    def _known_thresholds(cls, table: Any) -> Any:
        if isinstance(table, dict) and PRIMARY_METRIC in table:
            raise invalid(
                f": the rubric's pass mark is the top-level key threshold, not {PRIMARY_METRIC}", "move it there"
            )
        known = set(metric_registry.default_thresholds()) if isinstance(table, dict) and table else set()
        unknown = sorted(set(table) - known) if isinstance(table, dict) else []
        if unknown:
            raise invalid(f": unknown key {unknown[0]!r}", f"allowed keys: {', '.join(sorted(known))}")
        return table

    @model_validator(mode="after")
    def _resolution_gate_needs_its_verdict(self) -> ConfigFile:
        gated = (self.min_resolution_rate or 0) > 0
        if gated and self.dialogue_metrics is not None and "resolution" not in self.dialogue_metrics:
            raise invalid(
                ": min_resolution_rate needs the resolution verdict, but dialogue_metrics leaves it out",
                'add "resolution" to dialogue_metrics, or set min_resolution_rate = 0',
            )
        return self
