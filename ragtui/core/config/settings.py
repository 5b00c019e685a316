"""Configuration: a TOML file → typed dataclasses, with environment and CLI overrides.

Layout of a config file (every key optional)::

    language = "en"            # "ja" or "en": prompts, personas, scenarios, knowledge
    max_turns = 3
    threshold = 0.7
    concurrency = 4
    repeat = 1                 # `ragtui run`: dialogues per scenario × persona (trials, for pass^k)
    top_k = 4
    metrics = ["rubric"]       # + answer_relevancy, answer_correctness, answerability, faithfulness, trust
    dialogue_metrics = ["resolution", "repetition"]   # judged when a dialogue ends (+ retention); [] = off
    compare_alpha = 0.05       # `ragtui compare` with trials: a drop is a regression when its p-value is under it
    min_resolution_rate = 0.0  # `ragtui run` exits 1 when the run's resolution rate is under it; 0 = off
    min_expectation_rate = 0.0 # `ragtui run` exits 1 when the run's expectation pass rate is under it; 0 = off
    simulator_check = "model"  # check each simulated customer message: model | code | off
    database = "ragtui.db"     # relative paths are relative to the config file
    personas = "personas"      # the shipped personas: read, never written by the editor
    user_personas = "~/.config/ragtui/personas"   # the user's own: the editor saves here; they override
    scenarios = "sample_data/scenarios"
    knowledge = "sample_data/knowledge"
    prompts = "prompts"

    [endpoint]                 # defaults shared by every role
    base_url = "http://localhost:11434/v1"
    model = "qwen2.5:7b"
    api_key_env = "OPENAI_API_KEY"   # the *name* of the variable; keys never live in files

    [roles.judge]              # per-role overrides: user (simulator), bot, judge
    model = "gpt-4o-mini"
    temperature = 0.0

    [thresholds]               # per-metric pass marks, 0–1 (the rubric's is `threshold`)
    faithfulness = 0.8

    [[policy]]                 # a prohibition checked on every bot answer (docs/expectations.md)
    text = "asks for the customer's password"
    tags = ["billing"]         # optional: only the scenarios with one of these tags

    [min_judge_agreement]      # a judge measured under these agrees too little with people to gate on:
    spearman = 0.5             #   its scores are shown as "≈ low agreement", neither red nor green,
    kappa = 0.4                #   and left out of `ragtui run`'s exit status (docs/judge-calibration.md)
    items = 10                 #   … as is a figure measured on fewer labelled items than this
    # gate_low_agreement = true  (top level) gates on them anyway, as `ragtui run --gate-low-agreement`

    [answer_relevancy]         # seed 001's options
    uncertainty_weight = 0.3   # accepted; no effect since statements are scored by P(yes)
    scale = 1                  # maximum of the displayed (scaled) score

Secrets are read from the environment at resolve time and are never part of ``Config``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..registry import metrics as metric_registry
from ..registry.metrics import PRIMARY_METRIC
from ..types.agreement_floor import AgreementFloor
from ..types.errors import ConfigError
from ..types.expectations import Expectation
from . import paths
from .bot_config import BotConfig, check_key_env, parse_bot
from .expectation_items import parse_policies
from .toml_io import expect_type, read_toml, reject_unknown_keys

ROLES = ("user", "bot", "judge")
LANGUAGES = ("ja", "en")
DEFAULT_TEMPERATURES = {"user": 0.7, "bot": 0.2, "judge": 0.2}
CONFIG_FILE_NAMES = ("ragtui.toml",)
ENDPOINT_KEYS = {
    "base_url", "model", "temperature", "api_key_env", "max_tokens", "timeout", "reply_timeout", "max_retries",
}  # fmt: skip
TOP_KEYS = {
    "language",
    "prices",
    "labeller",
    "max_turns",
    "threshold",
    "concurrency",
    "repeat",
    "top_k",
    "metrics",
    "dialogue_metrics",
    "min_resolution_rate",
    "min_expectation_rate",
    "policy",
    "compare_alpha",
    "simulator_check",
    "database",
    "personas",
    "user_personas",
    "scenarios",
    "knowledge",
    "prompts",
    "endpoint",
    "roles",
    "embedded",
    "bot",
    "thresholds",
    "answer_relevancy",
    "min_judge_agreement",
    "gate_low_agreement",
}
EMBEDDED_KEYS = {"model_path", "ctx_size", "port", "threads", "parallel", "keep_alive", "repack"}
# Retention is off by default: on the embedded judge its agreement with people's labels is nil
# (Spearman 0.04, κ 0.02 on the held-out labelled dialogues; docs/judge-calibration.md), and it costs a quarter of
# the first command's time. Turn it on with a judge endpoint that measures better.
# ``expectations`` runs only on dialogues whose scenario has expectations or a policy applies.
DEFAULT_DIALOGUE_METRICS = ("resolution", "repetition", "expectations")
SIMULATOR_CHECKS = ("model", "code", "off")
RELEVANCY_KEYS = {"uncertainty_weight", "scale"}
FLOOR_KEYS = ("spearman", "kappa", "items")


class Thresholds(MutableMapping[str, float]):
    """Per-metric pass marks (the rubric's is ``threshold``): the ones the config sets, over
    each metric's own default. The defaults are read from the metric registry when first asked for
    (consulting it loads the metrics; importing it does not)."""

    def __init__(self, values: Mapping[str, float] | None = None) -> None:
        self.own: dict[str, float] = dict(values or {})

    def _all(self) -> dict[str, float]:
        return {**metric_registry.default_thresholds(), **self.own}

    def __getitem__(self, name: str) -> float:
        return self.own[name] if name in self.own else self._all()[name]

    def __setitem__(self, name: str, value: float) -> None:
        self.own[name] = value

    def __delitem__(self, name: str) -> None:
        del self.own[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return f"Thresholds({self.own!r})"


@dataclass
class EndpointConfig:
    """Settings of one OpenAI-compatible endpoint; ``None`` means "inherit"."""

    base_url: str | None = None
    model: str | None = None
    temperature: float | None = None
    api_key_env: str | None = None
    max_tokens: int | None = None
    timeout: float | None = None  # seconds without data: connecting, the answer's start, between two pieces
    reply_timeout: float | None = None  # seconds for a whole reply, however steadily it streams
    max_retries: int | None = None

    def merged_over(self, fallback: EndpointConfig) -> EndpointConfig:
        """Fields set here win; unset ones come from ``fallback``."""
        values = {
            f.name: getattr(self, f.name) if getattr(self, f.name) is not None else getattr(fallback, f.name)
            for f in dataclasses.fields(self)
        }
        return EndpointConfig(**values)


@dataclass
class EmbeddedConfig:
    """The embedded llama.cpp model used when a role has no endpoint."""

    model_path: Path | None = None  # None: the bundled Qwen2.5-Coder-1.5B GGUF
    ctx_size: int = 8192
    port: int = 0  # 0: a free port
    threads: int = 0  # 0: automatic — every usable CPU, one fewer when busy (local_model.default_threads)
    parallel: int = 0  # request slots; 0: sized for `concurrency` (see local_model.slots_for)
    keep_alive: float = 0.0  # seconds the shared server stays up after the last ragtui exits
    repack: bool = False  # llama.cpp's interleaved weight layout (see local_model.LocalModelSettings)


@dataclass
class Config:
    language: str = "en"
    max_turns: int = 3
    threshold: float = 0.7
    concurrency: int = 4
    # Dialogues per scenario × persona in `ragtui run` (trials 1..repeat): the simulated customer
    # is sampled, so one dialogue per pair is one draw; pass^k needs several.
    repeat: int = 1
    top_k: int = 4
    metrics: list[str] = field(default_factory=lambda: [PRIMARY_METRIC])
    # Judged once per dialogue when it ends; [] turns them off.
    dialogue_metrics: list[str] = field(default_factory=lambda: list(DEFAULT_DIALOGUE_METRICS))
    # The run's resolution rate under which `ragtui run` exits 1. Off (0) by default: the
    # resolution verdict's agreement with people is not measured well enough yet to fail a
    # pipeline on its own, and a run that used to pass must not start failing on an upgrade.
    min_resolution_rate: float = 0.0
    # The run's expectation pass rate (met or kept among scored expectations) under which
    # `ragtui run` exits 1; 0 = off.
    min_expectation_rate: float = 0.0
    # The judge agreement under which scores are "low agreement": shown so and not gated on…
    min_judge_agreement: AgreementFloor = field(default_factory=AgreementFloor)
    # … unless the team asks (`ragtui run --gate-low-agreement`).
    gate_low_agreement: bool = False
    # ``[[policy]]``: prohibitions checked on every bot answer of the scenarios their tags select
    policies: tuple[Expectation, ...] = ()
    # `ragtui compare` of runs with trials: the one-sided significance level of "regression",
    # the share of comparisons of two equal bots it may call a regression.
    compare_alpha: float = 0.05
    # Checks on the simulated customer's messages: "model" (code, then a cheap yes/no by the
    # simulator's model), "code" (code only) or "off".
    simulator_check: str = "model"
    database: Path = field(default_factory=lambda: paths.data_dir() / "ragtui.db")
    personas: Path = field(default_factory=lambda: paths.bundled_dir("personas"))
    # The persona editor writes here; a file with a shipped persona's name overrides it.
    user_personas: Path = field(default_factory=lambda: paths.config_dir() / "personas")
    scenarios: Path = field(default_factory=lambda: paths.bundled_dir("sample_data") / "scenarios")
    knowledge: Path = field(default_factory=lambda: paths.bundled_dir("sample_data") / "knowledge")
    prompts: Path = field(default_factory=lambda: paths.bundled_dir("prompts"))
    endpoint: EndpointConfig = field(default_factory=EndpointConfig)
    roles: dict[str, EndpointConfig] = field(default_factory=lambda: {r: EndpointConfig() for r in ROLES})
    embedded: EmbeddedConfig = field(default_factory=EmbeddedConfig)
    bot: BotConfig = field(default_factory=BotConfig)  # the bot under test; see bot_config.py
    thresholds: Thresholds = field(default_factory=Thresholds)
    uncertainty_weight: float = 0.3  # answer_relevancy: accepted, no effect (statements are scored by P(yes))
    relevancy_scale: float = 1.0  # answer_relevancy: maximum of the scaled score
    # model → (input, output) price per million tokens, for `ragtui run --estimate` and run costs
    prices: dict[str, tuple[float, float]] = field(default_factory=dict)
    labeller: str | None = None  # the name stored with a person's labels; default: the OS user
    source: Path | None = None  # the file this came from, for messages

    def role(self, name: str) -> EndpointConfig:
        """The role's settings with the shared ``[endpoint]`` defaults filled in."""
        return self.roles[name].merged_over(self.endpoint)


def find_config_file(explicit: Path | None) -> Path | None:
    """``--config`` wins; then ``./ragtui.toml``; then the user's config dir."""
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError(f"config file {explicit} does not exist", "check the --config path")
        return explicit
    for name in CONFIG_FILE_NAMES:
        local = Path.cwd() / name
        if local.is_file():
            return local
    user = paths.config_dir() / "config.toml"
    return user if user.is_file() else None


def load_config(path: Path | None) -> Config:
    """Load the config file found by :func:`find_config_file`, or the defaults."""
    found = find_config_file(path)
    if found is None:
        return Config()
    return parse_config(read_toml(found, "config file"), found)


def parse_config(data: dict[str, Any], source: Path) -> Config:
    """Turn parsed TOML into a ``Config``; every error names the file and the key."""
    where = str(source)
    reject_unknown_keys(data, TOP_KEYS, where)
    config = Config(source=source)
    base = source.parent

    def get(key: str, kind: type | tuple[type, ...]) -> Any:
        return expect_type(data[key], kind, f"{where}: {key}")

    if "language" in data:
        config.language = get("language", str)
        if config.language not in LANGUAGES:
            raise ConfigError(f"{where}: language must be one of {', '.join(LANGUAGES)}, got {config.language!r}")
    if "prices" in data:
        config.prices = _parse_prices(get("prices", dict), f"{where}: [prices]")
    if "labeller" in data:
        config.labeller = get("labeller", str).strip() or None
    for key in ("max_turns", "concurrency", "repeat", "top_k"):
        if key in data:
            value = get(key, int)
            if value < 1:
                raise ConfigError(f"{where}: {key} must be at least 1, got {value}")
            setattr(config, key, value)
    if "threshold" in data:
        config.threshold = float(get("threshold", (int, float)))
        if not 0.0 <= config.threshold <= 1.0:
            raise ConfigError(f"{where}: threshold must be between 0 and 1, got {config.threshold}")
    if "metrics" in data:
        metrics = get("metrics", list)
        config.metrics = [expect_type(m, str, f"{where}: metrics[]") for m in metrics]
    if "dialogue_metrics" in data:
        names = [expect_type(m, str, f"{where}: dialogue_metrics[]") for m in get("dialogue_metrics", list)]
        known = metric_registry.metric_names("dialogue") if names else ()
        unknown = [n for n in names if n not in known]
        if unknown:
            raise ConfigError(
                f"{where}: dialogue_metrics has unknown metric {unknown[0]!r}",
                f"known: {', '.join(known)}; [] turns them off",
            )
        config.dialogue_metrics = names
    if "min_resolution_rate" in data:
        config.min_resolution_rate = float(get("min_resolution_rate", (int, float)))
        if not 0.0 <= config.min_resolution_rate <= 1.0:
            raise ConfigError(
                f"{where}: min_resolution_rate must be between 0 and 1, got {config.min_resolution_rate:g}",
                "0 turns the gate off; 0.8 fails a run in which fewer than 80% of dialogues were resolved",
            )
    if "min_expectation_rate" in data:
        config.min_expectation_rate = float(get("min_expectation_rate", (int, float)))
        if not 0.0 <= config.min_expectation_rate <= 1.0:
            raise ConfigError(
                f"{where}: min_expectation_rate must be between 0 and 1, got {config.min_expectation_rate:g}",
                "0 turns the gate off; 0.9 fails a run in which fewer than 90% of expectations were met or kept",
            )
    if "policy" in data:
        config.policies = parse_policies(data["policy"], where)
    if "compare_alpha" in data:
        config.compare_alpha = float(get("compare_alpha", (int, float)))
        if not 0.0 < config.compare_alpha < 0.5:
            raise ConfigError(
                f"{where}: compare_alpha must be over 0 and under 0.5, got {config.compare_alpha:g}",
                "0.05 (the default) calls a drop a regression when two equal bots would show it under 5% of the time",
            )
    if config.min_resolution_rate > 0 and "resolution" not in config.dialogue_metrics:
        raise ConfigError(
            f"{where}: min_resolution_rate needs the resolution verdict, but dialogue_metrics leaves it out",
            'add "resolution" to dialogue_metrics, or set min_resolution_rate = 0',
        )
    if "simulator_check" in data:
        config.simulator_check = get("simulator_check", str)
        if config.simulator_check not in SIMULATOR_CHECKS:
            raise ConfigError(
                f"{where}: simulator_check must be one of {', '.join(SIMULATOR_CHECKS)}, got {config.simulator_check!r}"
            )
    for key in ("database", "personas", "user_personas", "scenarios", "knowledge", "prompts"):
        if key in data:
            setattr(config, key, (base / Path(get(key, str)).expanduser()).resolve())
    if "endpoint" in data:
        config.endpoint = _parse_endpoint(get("endpoint", dict), f"{where}: [endpoint]")
    if "roles" in data:
        roles = get("roles", dict)
        reject_unknown_keys(roles, set(ROLES), f"{where}: [roles]")
        for name, table in roles.items():
            config.roles[name] = _parse_endpoint(
                expect_type(table, dict, f"{where}: [roles.{name}]"), f"{where}: [roles.{name}]"
            )
    if "embedded" in data:
        config.embedded = _parse_embedded(get("embedded", dict), f"{where}: [embedded]", base)
    if "bot" in data:
        config.bot = parse_bot(get("bot", dict), f"{where}: [bot]", base)
    if "thresholds" in data:
        config.thresholds.update(_parse_thresholds(get("thresholds", dict), f"{where}: [thresholds]"))
    if "min_judge_agreement" in data:
        where_floor = f"{where}: [min_judge_agreement]"
        config.min_judge_agreement = _parse_floor(get("min_judge_agreement", dict), where_floor)
    if "gate_low_agreement" in data:
        config.gate_low_agreement = get("gate_low_agreement", bool)
    if "answer_relevancy" in data:
        _parse_relevancy(get("answer_relevancy", dict), f"{where}: [answer_relevancy]", config)
    return config


def _parse_prices(table: dict[str, Any], where: str) -> dict[str, tuple[float, float]]:
    """``"model" = { input = 0.15, output = 0.60 }``: prices per million tokens."""
    prices: dict[str, tuple[float, float]] = {}
    for model, entry in table.items():
        entry = expect_type(entry, dict, f"{where} {model}")
        reject_unknown_keys(entry, {"input", "output"}, f"{where} {model}")
        pair = []
        for key in ("input", "output"):
            if key not in entry:
                raise ConfigError(f"{where} {model}: missing {key}", "prices are per million tokens, e.g. input = 0.15")
            value = float(expect_type(entry[key], (int, float), f"{where} {model}.{key}"))
            if value < 0:
                raise ConfigError(f"{where} {model}.{key} must be 0 or more, got {value:g}")
            pair.append(value)
        prices[model] = (pair[0], pair[1])
    return prices


def _parse_thresholds(table: dict[str, Any], where: str) -> dict[str, float]:
    if PRIMARY_METRIC in table:
        raise ConfigError(f"{where}: the rubric's pass mark is the top-level key threshold", "move it there")
    if table:
        reject_unknown_keys(table, set(metric_registry.default_thresholds()), where)
    out: dict[str, float] = {}
    for name, value in table.items():
        number = float(expect_type(value, (int, float), f"{where} {name}"))
        if not 0.0 <= number <= 1.0:
            raise ConfigError(f"{where} {name} must be between 0 and 1, got {number}")
        out[name] = number
    return out


def _parse_floor(table: dict[str, Any], where: str) -> AgreementFloor:
    """``spearman = 0.5``, ``kappa = 0.4``: each between -1 and 1 (the figures' own range)."""
    reject_unknown_keys(table, set(FLOOR_KEYS), where)
    values = dataclasses.asdict(AgreementFloor())
    if "items" in table:
        items = expect_type(table["items"], int, f"{where} items")
        if items < 1:
            raise ConfigError(f"{where} items must be at least 1, got {items}")
        values["items"] = items
    for key in ("spearman", "kappa"):
        if key in table:
            number = float(expect_type(table[key], (int, float), f"{where} {key}"))
            if not -1.0 <= number <= 1.0:
                raise ConfigError(
                    f"{where} {key} must be between -1 and 1, got {number:g}",
                    "it is a floor on the judge's measured agreement with people; -1 never calls a score low",
                )
            values[key] = number
    return AgreementFloor(**values)


def _parse_relevancy(table: dict[str, Any], where: str, config: Config) -> None:
    reject_unknown_keys(table, RELEVANCY_KEYS, where)
    if "uncertainty_weight" in table:
        weight = float(expect_type(table["uncertainty_weight"], (int, float), f"{where} uncertainty_weight"))
        if not 0.0 <= weight <= 1.0:
            raise ConfigError(f"{where} uncertainty_weight must be between 0 and 1, got {weight}")
        config.uncertainty_weight = weight
    if "scale" in table:
        scale = float(expect_type(table["scale"], (int, float), f"{where} scale"))
        if scale <= 0:
            raise ConfigError(f"{where} scale must be positive, got {scale}")
        config.relevancy_scale = scale


def _parse_endpoint(table: dict[str, Any], where: str) -> EndpointConfig:
    if "api_key" in table:
        raise ConfigError(
            f"{where}: api_key is not read from files, so it never ends up in a repository",
            "put the key in an environment variable and name it with api_key_env",
        )
    reject_unknown_keys(table, ENDPOINT_KEYS, where)
    kinds: dict[str, type | tuple[type, ...]] = {
        "base_url": str,
        "model": str,
        "api_key_env": str,
        "temperature": (int, float),
        "max_tokens": int,
        "timeout": (int, float),
        "reply_timeout": (int, float),
        "max_retries": int,
    }
    values = {key: expect_type(value, kinds[key], f"{where} {key}") for key, value in table.items()}
    if "api_key_env" in values:
        check_key_env(values["api_key_env"], where)
    if "temperature" in values and not 0.0 <= values["temperature"] <= 2.0:
        raise ConfigError(f"{where} temperature must be between 0 and 2, got {values['temperature']}")
    for key in ("timeout", "reply_timeout", "max_tokens"):
        if key in values and values[key] <= 0:
            raise ConfigError(f"{where} {key} must be positive, got {values[key]}")
    if values.get("max_retries", 0) < 0:
        raise ConfigError(f"{where} max_retries must be 0 or more, got {values['max_retries']}")
    if "temperature" in values:
        values["temperature"] = float(values["temperature"])
    for key in ("timeout", "reply_timeout"):
        if key in values:
            values[key] = float(values[key])
    return EndpointConfig(**values)


def _parse_embedded(table: dict[str, Any], where: str, base: Path) -> EmbeddedConfig:
    reject_unknown_keys(table, EMBEDDED_KEYS, where)
    embedded = EmbeddedConfig()
    if "model_path" in table:
        embedded.model_path = (
            base / Path(expect_type(table["model_path"], str, f"{where} model_path")).expanduser()
        ).resolve()
    if "ctx_size" in table:
        embedded.ctx_size = expect_type(table["ctx_size"], int, f"{where} ctx_size")
    if "port" in table:
        embedded.port = expect_type(table["port"], int, f"{where} port")
    if "threads" in table:
        embedded.threads = expect_type(table["threads"], int, f"{where} threads")
        if embedded.threads < 0:
            raise ConfigError(f"{where} threads must be 0 (automatic) or more, got {embedded.threads}")
    if "parallel" in table:
        embedded.parallel = expect_type(table["parallel"], int, f"{where} parallel")
        if not 0 <= embedded.parallel <= 16:
            raise ConfigError(f"{where} parallel must be 0 (automatic) to 16, got {embedded.parallel}")
    if "keep_alive" in table:
        embedded.keep_alive = parse_duration(table["keep_alive"], f"{where} keep_alive")
    if "repack" in table:
        embedded.repack = expect_type(table["repack"], bool, f"{where} repack")
    return embedded


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h)?\s*$")


def parse_duration(value: object, where: str) -> float:
    """Seconds from ``"10m"``, ``"30s"``, ``"1h"`` or a plain number of seconds."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ConfigError(f'{where} must be a duration such as "10m", "30s" or 0, got {value!r}')
    if isinstance(value, int | float):
        seconds = float(value)
    else:
        match = _DURATION.match(value)
        if match is None:
            raise ConfigError(f'{where} must be a duration such as "10m", "30s" or 0, got {value!r}')
        seconds = float(match.group(1)) * {"s": 1, "m": 60, "h": 3600}[match.group(2) or "s"]
    if seconds < 0:
        raise ConfigError(f"{where} must not be negative, got {value!r}")
    return seconds
