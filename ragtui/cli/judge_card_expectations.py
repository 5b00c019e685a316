"""``ragtui judge-card --measure`` for the expectation judge: the report half of
``sample_data/labelled/expectations.jsonl``, one yes/no check per item as a run asks it, and one
card entry per language — Cohen's κ of met (or broken) at P(yes) ≥ ``MET_AT`` against the label,
with its bootstrap interval. The entry's key is the judge model and the fingerprint of the
``expectations`` verdict as a run builds it, so every expectations verdict of that judge carries it.

Each check is stored the moment it is read (a calibration run per language, keyed by everything
that changes its answers: the judge model and temperature, the prompt fingerprint and the labelled
file's content), so an interrupted measurement resumes where it stopped — and a ``--quick`` one
(the first items) leaves only the rest to a full one.
"""

from __future__ import annotations

import hashlib
import time

from rich.text import Text

from ..core.config.paths import bundled_dir
from ..core.config.settings import Config
from ..core.judge_quality.calibration_store import (
    StoredItem,
    add_item,
    create_run,
    find_run,
    set_run_status,
    stored_items,
)
from ..core.judge_quality.card_judges import card_judge
from ..core.judge_quality.card_measure import Figures, figures
from ..core.judge_quality.card_measure import entry as card_entry
from ..core.judge_quality.card_store import save_entry
from ..core.judge_quality.expectation_agreement import ExpectationItem, load_expectation_items, select
from ..core.judge_quality.fit import prompt_fingerprint
from ..core.metrics import MetricSettings
from ..core.metrics.dialogue.expectation_judge import MET_AT, ExpectationJudge
from ..core.models.endpoints import Endpoint
from ..core.models.llm import ChatClient
from ..core.registry.metrics import EXPECTATION_RATE, gate_metric
from ..core.store.store import Store
from ..core.types.errors import RagtuiError
from ..core.types.judgments import Judgment
from .judge_card_line import entry_line
from .output import console, item_progress

FILE = "expectations.jsonl"


def _metric() -> str:
    """The card row this measures: the judge of the metric that makes the expectation rate."""
    return gate_metric(EXPECTATION_RATE)


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
    settings, metric = MetricSettings.from_config(config), _metric()
    console.print(Text(f"{metric}: {len(items)} item(s) of sample_data/labelled/{FILE} (report half)", style="dim"))
    for language in sorted({i.language for i in items}):
        mine = [i for i in items if i.language == language]
        judge = ExpectationJudge(client, config.prompts, language)
        fingerprint = prompt_fingerprint(card_judge(metric, client, config.prompts, language, settings))
        run_id = _calibration_run(store, endpoint, fingerprint, language)
        done = stored_items(store, run_id)
        pending = [i for i in mine if i.id not in done]
        if len(pending) < len(mine):
            console.print(Text(f"{metric} {language}: {len(mine) - len(pending)} already judged", style="dim"))
        progress = item_progress()
        with progress:
            task = progress.add_task(f"{metric} {language}", total=len(pending), note="")
            unscored = 0
            for item in pending:
                expectation, answer = item.to_check()
                started = time.monotonic()
                check = await judge.check(expectation, answer)
                verdict = Judgment(metric, check.p_yes, details={"read": check.read}, error=check.error)
                elapsed = (time.monotonic() - started) * 1000
                # The label the way round the check was asked: as a run reads the sentence (``run_label``).
                add_item(store, run_id, item.id, item.line, float(item.run_label), verdict, elapsed)
                unscored += check.p_yes is None
                progress.update(task, advance=1, note=f"{unscored} unscored" if unscored else "")
        set_run_status(store, run_id, "finished")
        judged = stored_items(store, run_id)
        found = _figures([judged[i.id] for i in mine if i.id in judged])
        on = f"bundled labelled set, {language} report half" + (f" (quick: {len(mine)} item(s))" if quick else "")
        saved = save_entry(
            store, card_entry(metric, language, endpoint.model, fingerprint, found, on, "measured", quick)
        )
        console.print(entry_line(saved), soft_wrap=True)


def _figures(judged: list[StoredItem]) -> Figures:
    """κ of met (or broken) at ``MET_AT``, as a run reads a check, against the labels."""
    pairs = [(1.0 if r.score >= MET_AT else 0.0, r.label) for r in judged if r.score is not None]
    return figures(True, pairs, len(judged) - len(pairs))


def _calibration_run(store: Store, endpoint: Endpoint, fingerprint: str, language: str) -> int:
    """The stored run these checks resume, or a new one: keyed by all that changes an answer."""
    path = bundled_dir("sample_data") / "labelled" / FILE
    data = hashlib.sha256(path.read_bytes()).hexdigest()
    metric = _metric()
    parts = [metric, language, endpoint.model, str(endpoint.temperature), fingerprint, data]
    key = "card-" + hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]
    found = find_run(store, key)
    if found is not None:
        return found
    settings = {"language": language, "temperature": endpoint.temperature, "report half": True}
    return create_run(
        store, metric=metric, data_path=str(path), fingerprint=key, model=endpoint.model, settings=settings
    )
