"""The judge card's rows: for each metric and language, what decides whether this judge model and
the metric's current prompt gate (``judge_card.entry_for``: never a quick measurement), or
nothing when unmeasured — and, under it, a newer quick measurement, shown but deciding nothing.

What ``ragtui judge-card`` prints and the TUI's "Judge card" shows, built once here so the two
never disagree; each view lays the rows out in its own way.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config.settings import Config
from ..metrics import MetricSettings
from ..models.llm import ChatClient
from ..store.store import Store
from ..types.agreement_floor import is_low
from .card_entry import CardEntry
from .card_judges import card_judge, card_metric_names
from .fit import prompt_fingerprint
from .judge_card import entry_for, newest_entry

LANGUAGES = ("en", "ja")


@dataclass(frozen=True)
class CardRow:
    metric: str
    language: str
    entry: CardEntry | None  # None: unmeasured for this judge and prompt
    low: bool  # under [min_judge_agreement]: its scores are drawn with ≈, neither red nor green
    quick: bool = False  # a newer measurement on too few items (or --quick): shown, decides nothing


def card_rows(
    config: Config,
    store: Store | None,
    client: ChatClient,
    model: str,
    names: list[str] | None = None,
    languages: tuple[str, ...] = LANGUAGES,
) -> list[CardRow]:
    """A row per metric of ``names`` (every metric with a card row by default: the turn metrics,
    expectations, resolution, repetition) and language. ``client`` only builds the judges to
    fingerprint their prompts: nothing is called. ``store``: None when there is no database yet
    (only the shipped figures then)."""
    wanted = names or list(card_metric_names())
    settings = MetricSettings.from_config(config)
    floor = config.min_judge_agreement
    rows = []
    for language in languages:
        for name in wanted:
            fingerprint = prompt_fingerprint(card_judge(name, client, config.prompts, language, settings))
            entry = entry_for(store, name, model, fingerprint, floor)
            low = entry is not None and is_low({"agreement": entry.to_dict()}, floor)
            rows.append(CardRow(name, language, entry, low))
            newest = newest_entry(store, name, model, fingerprint)
            if newest is not None and newest != entry:
                rows.append(CardRow(name, language, newest, False, quick=True))
    return rows
