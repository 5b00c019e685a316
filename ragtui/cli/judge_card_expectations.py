"""``ragtui judge-card --measure`` for the expectation judge: the report half of
``sample_data/labelled/expectations.jsonl``, one yes/no check per item as a run asks it, and one
card entry per language — Cohen's κ of met (or broken) at P(yes) ≥ ``MET_AT`` against the label,
with its bootstrap interval. The entry's key is the judge model and the fingerprint of the
``expectations`` verdict as a run builds it, so every expectations verdict of that judge carries it.
"""

from __future__ import annotations

from rich.text import Text

from ..core.config.paths import bundled_dir
from ..core.config.settings import Config
from ..core.metrics import MetricSettings
from ..core.metrics.card_judges import card_judge
from ..core.metrics.card_measure import entry as card_entry
from ..core.metrics.card_measure import figures
from ..core.metrics.card_store import save_entry
from ..core.metrics.dialogue.expectation_judge import MET_AT, ExpectationJudge
from ..core.metrics.expectation_agreement import ExpectationItem, load_expectation_items, select
from ..core.metrics.fit import prompt_fingerprint
from ..core.models.endpoints import Endpoint
from ..core.models.llm import ChatClient
from ..core.store.store import Store
from ..core.types.errors import RagtuiError
from .judge_card_line import entry_line
from .output import console, item_progress

METRIC = "expectations"  # the card row this measures: that dialogue metric's judge
FILE = "expectations.jsonl"


def report_items(config: Config, languages: tuple[str, ...], quick_items: int | None) -> list[ExpectationItem]:
    path = bundled_dir("sample_data") / "labelled" / FILE
    found = load_expectation_items(path, config.language)
    if found.problems:
        raise RagtuiError(f"{path}: {found.problems[0]}", "the bundled labelled set is damaged: reinstall ragtui")
    report = select(found.items, "report")
    out: list[ExpectationItem] = []
    for language in languages:
        mine = [i for i in report if i.language == language]
        out += mine[:quick_items] if quick_items is not None else mine
    return out


async def measure_expectations(
    store: Store, config: Config, client: ChatClient, endpoint: Endpoint, items: list[ExpectationItem], quick: bool
) -> None:
    settings = MetricSettings.from_config(config)
    console.print(Text(f"{METRIC}: {len(items)} item(s) of sample_data/labelled/{FILE} (report half)", style="dim"))
    for language in sorted({i.language for i in items}):
        mine = [i for i in items if i.language == language]
        judge = ExpectationJudge(client, config.prompts, language)
        pairs: list[tuple[float, float]] = []
        unscored = 0
        progress = item_progress()
        with progress:
            task = progress.add_task(f"{METRIC} {language}", total=len(mine), note="")
            for item in mine:
                expectation, answer = item.to_check()
                check = await judge.check(expectation, answer)
                if check.p_yes is None:
                    unscored += 1
                else:  # met (or broken) at MET_AT, as a run reads it
                    pairs.append((1.0 if check.p_yes >= MET_AT else 0.0, float(item.label)))
                progress.update(task, advance=1, note=f"{unscored} unscored" if unscored else "")
        found = figures(True, pairs, unscored)
        on = f"bundled labelled set, {language} report half" + (f" (quick: {len(mine)} item(s))" if quick else "")
        fingerprint = prompt_fingerprint(card_judge(METRIC, client, config.prompts, language, settings))
        saved = save_entry(
            store, card_entry(METRIC, language, endpoint.model, fingerprint, found, on, "measured", quick)
        )
        console.print(entry_line(saved), soft_wrap=True)
