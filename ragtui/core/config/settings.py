"""Configuration: a TOML file → typed dataclasses, with environment and CLI overrides. What the
file may say is declared in ``config_file.py``; this module builds ``Config`` from it.

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

    [redact]                   # `ragtui import`: besides e-mail, phones, cards and postcodes (docs/conversations.md)
    patterns = { order = "ORD-[0-9]{6}" }   # kind → regex: <order-1>; a group, if any, is what is replaced
    names = ["Yamada", "山田"]            # customers' names: <name-1>

    [answer_relevancy]         # seed 001's options
    uncertainty_weight = 0.3   # accepted; no effect since statements are scored by P(yes)
    scale = 1                  # maximum of the displayed (scaled) score

Secrets are read from the environment at resolve time and are never part of ``Config``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..registry import metrics as metric_registry
from ..registry.metrics import PRIMARY_METRIC
from ..text.pii import RedactionRules
from ..types.agreement_floor import AgreementFloor
from ..types.errors import ConfigError
from ..types.expectations import Expectation
from ..types.product import SAMPLE_PRODUCT, Product
from . import paths
from .bot_config import BotConfig, parse_bot
from .config_file import LANGUAGES, ConfigFile, EmbeddedTable, EndpointTable
from .toml_io import read_toml
from .validation import TomlTable, validate

ROLES = ("user", "bot", "judge")
DEFAULT_TEMPERATURES = {"user": 0.7, "bot": 0.2, "judge": 0.2}
CONFIG_FILE_NAMES = ("ragtui.toml",)
# Retention is off by default: on the embedded judge its agreement with people's labels is nil
# (Spearman 0.04, κ 0.02 on the held-out labelled dialogues; docs/judge-calibration.md), and it costs a quarter of
# the first command's time. Turn it on with a judge endpoint that measures better.
# ``expectations`` runs only on dialogues whose scenario has expectations or a policy applies.
DEFAULT_DIALOGUE_METRICS = ("resolution", "repetition", "expectations")
__all__ = ["LANGUAGES", "ROLES", "Config", "EmbeddedConfig", "EndpointConfig", "load_config", "parse_config"]


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
    # [product]: what the prompts call the team's product and its support channel
    product_name: str = ""
    support: str = ""
    # [redact]: what `ragtui import` replaces besides e-mail, phones, cards and postcodes
    redact: RedactionRules = field(default_factory=RedactionRules)
    source: Path | None = None  # the file this came from, for messages

    def product(self) -> Product:
        """The product the prompts name: ``[product]``'s, else the sample's while the knowledge
        base is the bundled sample, else unnamed (the prompt files say how to speak of it)."""
        name = self.product_name
        if not name and self.knowledge.resolve() == (paths.bundled_dir("sample_data") / "knowledge").resolve():
            name = SAMPLE_PRODUCT
        return Product(name, self.support)

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
    """Turn parsed TOML into a ``Config``; every error names the file, the table and the key."""
    where = str(source)
    table = validate(ConfigFile, data, where, top_level=True)
    config = Config(source=source)
    base = source.parent
    # A key in the file replaces the default; these are stored as the file says them.
    for key in ("language", "max_turns", "threshold", "concurrency", "repeat", "top_k", "metrics", "dialogue_metrics",
                "min_resolution_rate", "min_expectation_rate", "compare_alpha", "simulator_check", "gate_low_agreement"):  # fmt: skip
        if getattr(table, key) is not None:
            setattr(config, key, getattr(table, key))
    for key in ("database", "personas", "user_personas", "scenarios", "knowledge", "prompts"):
        if getattr(table, key) is not None:
            setattr(config, key, _path(base, getattr(table, key)))
    if table.prices is not None:
        config.prices = {model: (price.input, price.output) for model, price in table.prices.items()}
    if table.labeller is not None:
        config.labeller = table.labeller.strip() or None
    if table.product is not None:
        config.product_name = (table.product.name or "").strip()
        config.support = (table.product.support or "").strip()
    if table.redact is not None:
        config.redact = RedactionRules.from_config(table.redact.patterns, table.redact.names)
    if table.policy is not None:
        config.policies = tuple(policy.policy() for policy in table.policy)
    if table.endpoint is not None:
        config.endpoint = _endpoint(table.endpoint)
    for role in ROLES:
        own = getattr(table.roles, role) if table.roles is not None else None
        if own is not None:
            config.roles[role] = _endpoint(own)
    if table.embedded is not None:
        config.embedded = _embedded(table.embedded, base)
    if table.bot is not None:
        config.bot = parse_bot(table.bot, f"{where}: [bot]", base)
    if table.thresholds is not None:
        config.thresholds.update(table.thresholds)
    if table.min_judge_agreement is not None:
        config.min_judge_agreement = AgreementFloor(**_set(table.min_judge_agreement))
    if table.answer_relevancy is not None:
        relevancy = table.answer_relevancy
        config.uncertainty_weight = _or(relevancy.uncertainty_weight, config.uncertainty_weight)
        config.relevancy_scale = _or(relevancy.scale, config.relevancy_scale)
    return config


def _path(base: Path, text: str) -> Path:
    """Relative paths in the file are relative to the file, not to wherever ragtui was started."""
    return (base / Path(text).expanduser()).resolve()


def _set(table: TomlTable) -> dict[str, Any]:
    """The keys the file gives (the rest keep their defaults)."""
    return {key: value for key, value in table.model_dump().items() if value is not None}


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


def _endpoint(table: EndpointTable) -> EndpointConfig:
    return EndpointConfig(**table.model_dump())


def _embedded(table: EmbeddedTable, base: Path) -> EmbeddedConfig:
    values = _set(table)
    if "model_path" in values:
        values["model_path"] = _path(base, values["model_path"])
    return EmbeddedConfig(**values)
