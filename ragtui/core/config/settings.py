"""Configuration: ragtui.toml read into ``Config``, the one declaration of what the file may say
(its tables in ``config_file.py``; how a declaration is read, ``declared.py`` and ``reader.py``).
Flags that set a key are applied through the same declaration (``reader.override``).

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

from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path  # a Path in the file is relative to it (reader.py): needed at run time
from typing import Annotated, Any, Literal

from ..registry.metrics import PRIMARY_METRIC  # a name: the registry loads no metric until consulted
from ..text.redaction_rules import RedactionRules
from ..types.agreement_floor import AgreementFloor
from ..types.errors import ConfigError
from ..types.product import SAMPLE_PRODUCT, Product
from . import paths
from .bot_config import BotConfig, parse_bot
from .config_file import (
    LANGUAGES,
    Count,
    EmbeddedConfig,
    EndpointConfig,
    Fraction,
    Language,
    Price,
    RedactTable,
    RelevancyOptions,
    RolesTable,
    open_alpha,
)
from .declared import FileForm, WrittenAs, declare
from .expectation_items import PolicyList
from .limits import MAX_CONCURRENCY, MAX_REPEAT, MAX_TURNS
from .reader import read
from .rules import after, at_least, at_most, before, between, invalid, with_context
from .toml_io import read_toml

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
    (consulting it loads the metrics; reading a config does not)."""

    def __init__(self, values: Mapping[str, float] | None = None) -> None:
        self.own: dict[str, float] = dict(values or {})

    def _all(self) -> dict[str, float]:
        from ..registry import metrics as metric_registry

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


def known_dialogue_metrics(names: list[str]) -> list[str]:
    """Names the registry knows; consulted only for a list the file gives (it loads the metrics)."""
    if not names:
        return names
    from ..registry import metrics as metric_registry

    known = metric_registry.metric_names("dialogue")
    unknown = [n for n in names if n not in known]
    if unknown:
        raise invalid(f"has unknown metric {unknown[0]!r}", f"known: {', '.join(known)}; [] turns them off")
    return names


def known_thresholds(table: Any) -> Any:
    if isinstance(table, dict) and PRIMARY_METRIC in table:
        raise invalid(f": the rubric's pass mark is the top-level key threshold, not {PRIMARY_METRIC}", "move it there")
    if not isinstance(table, dict) or not table:
        return table
    from ..registry import metrics as metric_registry

    known = set(metric_registry.default_thresholds())
    unknown = sorted(set(table) - known)
    if unknown:
        raise invalid(f": unknown key {unknown[0]!r}", f"allowed keys: {', '.join(sorted(known))}")
    return table


def every_role(table: RolesTable) -> dict[str, EndpointConfig]:
    return {role: getattr(table, role) or EndpointConfig() for role in ROLES}


def read_bot(table: dict[str, Any], context: Mapping[str, Any]) -> BotConfig:
    """The ``[bot]`` table, read with its type's settings (``bot_config.parse_bot``)."""
    return parse_bot(table, f"{context.get('source', 'ragtui.toml')}: [bot]", context.get("base") or Path.cwd())


def blank_is_none(text: str | None) -> str | None:
    return (text or "").strip() or None


@dataclass
class Config:
    """ragtui.toml, and the settings ragtui runs with: every field is the key of the same name
    (``policies`` is ``[[policy]]``, ``named_product`` is ``[product]``), with its default."""

    language: Annotated[str, WrittenAs(Language)] = "en"
    max_turns: Annotated[int, at_least(1), at_most(MAX_TURNS)] = 3
    threshold: Fraction = 0.7
    concurrency: Annotated[int, at_least(1), at_most(MAX_CONCURRENCY)] = 4
    # Dialogues per scenario × persona in `ragtui run` (trials 1..repeat): the simulated customer
    # is sampled, so one dialogue per pair is one draw; pass^k needs several.
    repeat: Annotated[int, at_least(1), at_most(MAX_REPEAT)] = 1
    top_k: Count = 4
    metrics: list[str] = field(default_factory=lambda: [PRIMARY_METRIC])
    # Judged once per dialogue when it ends; [] turns them off.
    dialogue_metrics: Annotated[list[str], after(known_dialogue_metrics)] = field(
        default_factory=lambda: list(DEFAULT_DIALOGUE_METRICS)
    )
    # The run's resolution rate under which `ragtui run` exits 1. Off (0) by default: the
    # resolution verdict's agreement with people is not measured well enough yet to fail a
    # pipeline on its own, and a run that used to pass must not start failing on an upgrade.
    min_resolution_rate: Annotated[
        float, between(0, 1, "0 turns the gate off; 0.8 fails a run in which fewer than 80% of dialogues were resolved")
    ] = 0.0
    # The run's expectation pass rate (met or kept among scored expectations) under which
    # `ragtui run` exits 1; 0 = off.
    min_expectation_rate: Annotated[
        float,
        between(0, 1, "0 turns the gate off; 0.9 fails a run in which fewer than 90% of expectations were met or kept"),
    ] = 0.0
    # The judge agreement under which scores are "low agreement": shown so and not gated on…
    min_judge_agreement: AgreementFloor = field(default_factory=AgreementFloor)
    # … unless the team asks (`ragtui run --gate-low-agreement`).
    gate_low_agreement: bool = False
    # ``[[policy]]``: prohibitions checked on every bot answer of the scenarios their tags select
    policies: PolicyList = ()
    # `ragtui compare` of runs with trials: the one-sided significance level of "regression",
    # the share of comparisons of two equal bots it may call a regression.
    compare_alpha: Annotated[float, after(open_alpha)] = 0.05
    # Checks on the simulated customer's messages: "model" (code, then a cheap yes/no by the
    # simulator's model), "code" (code only) or "off".
    simulator_check: Literal["model", "code", "off"] = "model"
    database: Path = field(default_factory=lambda: paths.data_dir() / "ragtui.db")
    personas: Path = field(default_factory=lambda: paths.bundled_dir("personas"))
    # The persona editor writes here; a file with a shipped persona's name overrides it.
    user_personas: Path = field(default_factory=lambda: paths.config_dir() / "personas")
    scenarios: Path = field(default_factory=lambda: paths.bundled_dir("sample_data") / "scenarios")
    knowledge: Path = field(default_factory=lambda: paths.bundled_dir("sample_data") / "knowledge")
    prompts: Path = field(default_factory=lambda: paths.bundled_dir("prompts"))
    endpoint: EndpointConfig = field(default_factory=EndpointConfig)
    roles: Annotated[dict[str, EndpointConfig], WrittenAs(RolesTable), after(every_role)] = field(
        default_factory=lambda: {r: EndpointConfig() for r in ROLES}
    )
    embedded: EmbeddedConfig = field(default_factory=EmbeddedConfig)
    # the bot under test; its keys depend on its type (bot_config.py)
    bot: Annotated[BotConfig, WrittenAs(dict[str, Any]), with_context(read_bot)] = field(default_factory=BotConfig)
    thresholds: Annotated[Thresholds, WrittenAs(dict[str, Fraction]), before(known_thresholds), after(Thresholds)] = (
        field(default_factory=Thresholds)
    )
    answer_relevancy: RelevancyOptions = field(default_factory=RelevancyOptions)
    # model → (input, output) price per million tokens, for `ragtui run --estimate` and run costs
    prices: dict[str, Price] = field(default_factory=dict)
    # the name stored with a person's labels; default: the OS user
    labeller: Annotated[str | None, after(blank_is_none)] = None
    # [product]: what the prompts call the team's product and its support channel
    named_product: Product = field(default_factory=Product)
    # [redact]: what `ragtui import` replaces besides e-mail, phones, cards and postcodes
    redact: Annotated[RedactionRules, WrittenAs(RedactTable), after(RedactTable.rules)] = field(
        default_factory=RedactionRules
    )
    source: Path | None = None  # the file this came from, for messages

    def product(self) -> Product:
        """The product the prompts name: ``[product]``'s, else the sample's while the knowledge
        base is the bundled sample, else unnamed (the prompt files say how to speak of it)."""
        name = self.named_product.name
        if not name and self.knowledge.resolve() == (paths.bundled_dir("sample_data") / "knowledge").resolve():
            name = SAMPLE_PRODUCT
        return Product(name, self.named_product.support)

    def role(self, name: str) -> EndpointConfig:
        """The role's settings with the shared ``[endpoint]`` defaults filled in."""
        return self.roles[name].merged_over(self.endpoint)


def resolution_gate_needs_its_verdict(values: dict[str, Any]) -> None:
    """A resolution gate with dialogue_metrics that leave its verdict out could never pass. The
    registry names that verdict; it is asked only when the file sets both (the defaults agree)."""
    if values.get("min_resolution_rate", 0) <= 0 or "dialogue_metrics" not in values:
        return
    from ..registry.metrics import RESOLUTION_RATE, gate_metric

    resolution = gate_metric(RESOLUTION_RATE)
    if resolution not in values["dialogue_metrics"]:
        raise invalid(
            f": min_resolution_rate needs the {resolution} verdict, but dialogue_metrics leaves it out",
            f'add "{resolution}" to dialogue_metrics, or set min_resolution_rate = 0',
        )


def _from_file(values: dict[str, Any], context: Mapping[str, Any]) -> dict[str, Any]:
    resolution_gate_needs_its_verdict(values)
    return {**values, "source": context.get("source")}


declare(
    Config,
    FileForm(
        keys={"policies": "policy", "named_product": "product"},
        omit=frozenset({"source"}),
        finish=_from_file,
        named_arrays=frozenset({"policy"}),
    ),
)


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
    """Turn parsed TOML into a ``Config``; every error names the file, the table and the key.
    Relative paths in the file are relative to its folder."""
    return read(Config, data, str(source), top_level=True, base=source.parent, source=source)
