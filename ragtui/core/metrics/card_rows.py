"""The judge card's rows: for each metric and language, what was measured for exactly this judge
model and the metric's current prompt (``judge_card.entry_for``), or nothing when unmeasured.

What ``ragtui judge-card`` prints and the TUI's "Judge card" shows, built once here so the two
never disagree; each view lays the rows out in its own way.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config.settings import Config
from ..content.prompts import PromptSet
from ..models.llm import ChatClient
from ..store.store import Store
from ..types.agreement_floor import is_low
from . import KNOWN_METRICS, MetricSettings, build_metrics
from .card_entry import CardEntry
from .fit import prompt_fingerprint
from .judge_card import entry_for

LANGUAGES = ("en", "ja")
DERIVED = ("trust",)  # computed in code from the other verdicts: no judge of its own
CARD_METRICS = tuple(m for m in KNOWN_METRICS if m not in DERIVED)


@dataclass(frozen=True)
class CardRow:
    metric: str
    language: str
    entry: CardEntry | None  # None: unmeasured for this judge and prompt
    low: bool  # under [min_judge_agreement]: its scores are drawn with ≈, neither red nor green


def card_rows(
    config: Config,
    store: Store | None,
    client: ChatClient,
    model: str,
    names: list[str] | None = None,
    languages: tuple[str, ...] = LANGUAGES,
) -> list[CardRow]:
    """A row per metric of ``names`` (every judged metric by default) and language. ``client``
    only builds the metrics to fingerprint their prompts: nothing is called. ``store``: None when
    there is no database yet (only the shipped figures then)."""
    wanted = names or list(CARD_METRICS)
    rows = []
    for language in languages:
        prompts = PromptSet.load(config.prompts, language)
        for metric in build_metrics(wanted, client, prompts, settings=MetricSettings.from_config(config)):
            if metric.name not in wanted:
                continue  # the primary metric, built along with another
            entry = entry_for(store, metric.name, model, prompt_fingerprint(metric))
            low = entry is not None and is_low({"agreement": entry.to_dict()}, config.min_judge_agreement)
            rows.append(CardRow(metric.name, language, entry, low))
    return rows
