"""Every metric ragtui can run, each described by its own class.

A metric class carries a ``MetricInfo`` (``info = MetricInfo(...)``) and a classmethod
``build(judge, prompts_dir, language, settings)`` that makes a ready metric (``MetricClass``),
and is declared under the ``ragtui.metrics`` entry point group. Everything that lists metrics — the config's ``[thresholds]`` and
``dialogue_metrics``, the prompt templates' schema, the estimate, the labelled-data reader, the
CSV columns, the command-line choices, and how every view shows its verdict (``metric_views``)
— reads it from here, so adding a metric is one class (and its prompt file, when it asks a
model).

ragtui declares its own metrics in that group (its pyproject.toml), and other packages add theirs
the same way (docs/plugins.md). They are loaded once, the first time the registry is consulted,
ragtui's first; a plugin that fails to load is reported in one line naming its entry point, and
the rest keeps working. This module imports no metric at import time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from .plugins import LoadOnce

if TYPE_CHECKING:
    from ..types.expectations import Expectation
    from ..types.scenarios import Scenario
    from ..types.stored import StoredDialogueJudgment

TURN, DIALOGUE = "turn", "dialogue"
# The metric whose score is the turn score. A name rather than a lookup, so any layer can use it
# without loading a metric; the rubric's class declares itself primary, and a test checks that
# the two agree.
PRIMARY_METRIC = "rubric"
GRADED, BINARY = "graded", "binary"
# Gate roles: a dialogue metric that declares one (``MetricInfo.gates``) is the metric whose
# verdicts make that run-wide figure — the resolution rate (``min_resolution_rate``, pass^k, a
# resolution regression failing compare) or the expectation rate (``min_expectation_rate``,
# ``--fail-on-policy``). Everything that gates reads the role here, never a metric's name.
RESOLUTION_RATE, EXPECTATION_RATE = "resolution-rate", "expectation-rate"
GATE_ROLES = (RESOLUTION_RATE, EXPECTATION_RATE)
ENTRY_POINT_GROUP = "ragtui.metrics"
PromptSchema = Mapping[str, frozenset[str]]  # template key → the exact slots it uses


@dataclass(frozen=True)
class MetricInfo:
    """What ragtui needs to know about a metric besides how it judges."""

    name: str
    kind: str = TURN  # "turn": every bot answer; "dialogue": the whole conversation, once it has ended
    scale: str = GRADED  # graded 0–1 (compared with people by Spearman) or binary 0/1 (accuracy, F1, κ)
    default_threshold: float = 0.7  # its pass mark when [thresholds] does not set one
    # The prompt templates it loads (prompts/<lang>/<kind>.toml): kind → key → slots.
    prompts: Mapping[str, PromptSchema] = field(default_factory=dict)
    calls: float = 1  # model calls per verdict besides per-statement checks (for `ragtui run --estimate`)
    # A dialogue metric whose cost depends on the scenario: its assumed calls per dialogue from
    # (scenario, the config's policies, answers per dialogue); None: ``calls``.
    scenario_calls: Callable[[Scenario, tuple[Expectation, ...], float], float] | None = None
    per_statement: bool = False  # also one yes/no call per statement of the answer
    # The fields of a labelled item it cannot do without (`ragtui calibrate`).
    label_fields: tuple[str, ...] = ("question", "response")
    # Its label in a combined dialogue "labels" object counts the opposite way (1 = the fault).
    inverted_label: bool = False
    # Its CSV columns: a turn metric's are numbered per turn (``faithfulness1``); () = its name.
    columns: tuple[str, ...] = ()
    # Run order and listing order: the primary metric first, derived metrics after their inputs.
    order: int = 50
    primary: bool = False  # its score is the turn score (the rubric); its pass mark is `threshold`
    inputs: tuple[str, ...] = ()  # derived metrics: the metrics whose judgments it reads
    # How its verdict reads in every view (``metric_views``): the name a person reads — column
    # heads, verdict headlines ("" = its name) — and what its verdict means, in words.
    label: str = ""
    explanation: str = ""
    # A verdict with one of these outcomes (``details["outcome"]``) passes whatever its score;
    # empty: it passes at its pass mark.
    success_outcomes: frozenset[str] = frozenset()
    # The run-wide figure its verdicts make (one of ``GATE_ROLES``), "" for none; at most one
    # registered metric may hold each role.
    gates: str = ""
    # A dialogue metric's bundled labelled file (``sample_data/labelled/``) that ``ragtui judge-card
    # --measure`` measures it on, so its verdicts show their agreement with people; "" = no card row.
    # Turn metrics are measured on ``<name>.jsonl``.
    card_set: str = ""

    def __post_init__(self) -> None:
        if self.kind not in (TURN, DIALOGUE):
            raise ValueError(f"metric {self.name!r}: kind must be {TURN!r} or {DIALOGUE!r}, got {self.kind!r}")
        if self.scale not in (GRADED, BINARY):
            raise ValueError(f"metric {self.name!r}: scale must be {GRADED!r} or {BINARY!r}, got {self.scale!r}")
        if not 0.0 <= self.default_threshold <= 1.0:
            raise ValueError(f"metric {self.name!r}: default_threshold must be between 0 and 1")
        if self.gates and self.gates not in GATE_ROLES:
            raise ValueError(f"metric {self.name!r}: gates must be one of {', '.join(GATE_ROLES)}, got {self.gates!r}")
        if self.gates == RESOLUTION_RATE and not self.success_outcomes:
            raise ValueError(f"metric {self.name!r}: a resolution rate counts success_outcomes; it declares none")

    @property
    def csv_columns(self) -> tuple[str, ...]:
        return self.columns or (self.name,)


class MetricClass(Protocol):
    """What every registered metric class provides. ``explain`` and ``csv_cells`` are optional
    to write: a class without them is given the defaults below when it is registered, so every
    view calls them directly."""

    info: ClassVar[MetricInfo]
    name: ClassVar[str]

    @classmethod
    def build(cls, judge: Any, prompts_dir: Path | None, language: str, settings: Any) -> Any:
        """A ready metric. ``judge`` is a ``ChatClient`` and ``settings`` the ``MetricSettings``
        (typed loosely here: the registry sits below the models and the metrics it would name)."""
        ...

    @staticmethod
    def explain(details: dict[str, Any]) -> list[str]:
        """How a verdict was reached, one plain line each, from its stored ``details`` only."""
        ...

    @staticmethod
    def csv_cells(verdict: StoredDialogueJudgment | None) -> list[str]:
        """A dialogue metric's cells, one per ``info.csv_columns``, for a dialogue's newest stored
        verdict of it (None: the dialogue has none)."""
        ...


def no_explanation(details: dict[str, Any]) -> list[str]:
    """The default ``explain``: no lines beyond the verdict's conclusion."""
    return []


def score_cells(columns: int) -> Callable[[StoredDialogueJudgment | None], list[str]]:
    """The default ``csv_cells``: the verdict's score (``unscored`` / ``skipped`` without one, ""
    with no verdict) under the first column, the others empty."""

    def cells(verdict: StoredDialogueJudgment | None) -> list[str]:
        # Imported when a cell is written: reading a config consults this registry, and needs no Rich.
        from ..text.score_text import verdict_text

        score = "" if verdict is None else verdict_text(verdict.score, verdict.skipped)
        return [score, *[""] * (columns - 1)]

    return cells


_classes: dict[str, type[MetricClass]] = {}

C = TypeVar("C", bound=type)


def register_metric(cls: C) -> C:
    """Class decorator: add ``cls`` to the registry under ``cls.info.name``."""
    info = getattr(cls, "info", None)
    if not isinstance(info, MetricInfo):
        raise TypeError(f"{cls.__qualname__} needs a class attribute info = MetricInfo(...)")
    if not callable(getattr(cls, "build", None)):
        raise TypeError(f"{cls.__qualname__} needs a classmethod build(judge, prompts_dir, language, settings)")
    declared = getattr(cls, "name", info.name)
    if declared != info.name:
        raise TypeError(f"{cls.__qualname__}.name is {declared!r} but its info names {info.name!r}")
    existing = _classes.get(info.name)
    if existing is not None and existing is not cls:
        raise ValueError(f"a metric named {info.name!r} is already registered ({existing.__module__})")
    holder = next((c for c in _classes.values() if info.gates and c.info.gates == info.gates and c is not cls), None)
    if holder is not None:
        raise ValueError(f"metric {info.name!r} gates {info.gates!r}, which {holder.info.name!r} already does")
    # Any class may be registered; the registry gives it what MetricClass promises and it lacks.
    cls.name = info.name  # type: ignore[attr-defined]
    if not callable(getattr(cls, "explain", None)):
        cls.explain = staticmethod(no_explanation)  # type: ignore[attr-defined]
    if not callable(getattr(cls, "csv_cells", None)):
        cls.csv_cells = staticmethod(score_cells(len(info.csv_columns)))  # type: ignore[attr-defined]
    _classes[info.name] = cls
    return cls


def _register_plugin(loaded: Any) -> None:
    if not isinstance(loaded, type):
        raise TypeError(f"it is {type(loaded).__name__}, not a metric class")
    register_metric(loaded)


# ragtui's own metrics are entry points of this group too (its pyproject.toml), loaded first.
_ensure_loaded = LoadOnce(ENTRY_POINT_GROUP, "metric", _register_plugin)


def metric_classes(kind: str | None = None) -> list[type[MetricClass]]:
    """Registered metric classes of ``kind`` (both when None: turn metrics first), in run and
    listing order."""
    _ensure_loaded()
    ranked = sorted(
        enumerate(_classes.values()), key=lambda pair: (pair[1].info.kind != TURN, pair[1].info.order, pair[0])
    )
    return [cls for _, cls in ranked if kind is None or cls.info.kind == kind]


def metric_names(kind: str | None = None) -> tuple[str, ...]:
    return tuple(cls.info.name for cls in metric_classes(kind))


def find_metric(name: str) -> type[MetricClass] | None:
    _ensure_loaded()
    return _classes.get(name)


def metric_info(name: str) -> MetricInfo | None:
    cls = find_metric(name)
    return None if cls is None else cls.info


def primary_metric() -> str:
    return next(cls.info.name for cls in metric_classes(TURN) if cls.info.primary)


def binary_metrics() -> frozenset[str]:
    return frozenset(cls.info.name for cls in metric_classes() if cls.info.scale == BINARY)


def gate_metric(role: str) -> str:
    """The name of the metric that makes the run-wide figure ``role`` (``RESOLUTION_RATE``,
    ``EXPECTATION_RATE``); "" when no registered metric declares it (no verdict then matches)."""
    if role not in GATE_ROLES:
        raise ValueError(f"unknown gate role {role!r}")
    return next((cls.info.name for cls in metric_classes(DIALOGUE) if cls.info.gates == role), "")


def gate_role(metric: str) -> str:
    """The gate role ``metric`` declares, "" for none (or an unknown metric)."""
    info = metric_info(metric)
    return info.gates if info is not None else ""


def success_outcomes(metric: str) -> frozenset[str]:
    """The outcomes with which a verdict of ``metric`` passes whatever its score (empty: none)."""
    info = metric_info(metric)
    return info.success_outcomes if info is not None else frozenset()


def default_thresholds() -> dict[str, float]:
    """Each metric's default pass mark, but the primary's (the config's top-level ``threshold``)."""
    return {cls.info.name: cls.info.default_threshold for cls in metric_classes() if not cls.info.primary}


def prompt_schema(kind: str) -> PromptSchema | None:
    """The keys and slots of the prompt template ``kind`` a registered metric loads, if any."""
    for cls in metric_classes():
        if kind in cls.info.prompts:
            return cls.info.prompts[kind]
    return None


__all__ = [
    "EXPECTATION_RATE",
    "GATE_ROLES",
    "PRIMARY_METRIC",
    "RESOLUTION_RATE",
    "BINARY",
    "DIALOGUE",
    "ENTRY_POINT_GROUP",
    "GRADED",
    "TURN",
    "MetricClass",
    "MetricInfo",
    "binary_metrics",
    "default_thresholds",
    "find_metric",
    "gate_metric",
    "gate_role",
    "metric_classes",
    "metric_info",
    "metric_names",
    "primary_metric",
    "prompt_schema",
    "register_metric",
    "success_outcomes",
]
