"""Write synthetic runs straight into a store: the compare tests and benchmark need runs of
known scores (hundreds of dialogues) without paying for a model to produce them."""

from __future__ import annotations

import random
from collections.abc import Callable

from ragtui.core.registry.metrics import PRIMARY_METRIC
from ragtui.core.store.store import Store
from ragtui.core.types.judgments import Judgment
from ragtui.core.types.personas import Persona

TurnScores = list[float | None]


def write_dialogue(
    store: Store,
    run_id: str,
    scenario: str,
    persona: str,
    scores: TurnScores,
    *,
    language: str = "en",
    customer: Callable[[int], str] | None = None,
    answer: str | None = None,
    conclusion: str = "synthetic",
    threshold: float = 0.7,
    extra_metric: str | None = None,
    verdicts: dict[str, tuple[float | None, str | None]] | None = None,
    trial: int = 1,
    agreement: dict[str, dict] | None = None,
) -> int:
    """One finished dialogue whose rubric turn scores are ``scores`` (None: unscored);
    ``verdicts``: dialogue metric → (score, outcome), a None score stored unscored and the
    outcome "skipped" as a skipped verdict; ``trial``: which trial of its pair it is (as
    ``ragtui run --repeat K`` numbers them); ``agreement``: metric → the judge card entry its
    scored verdicts carry (``details["agreement"]``); ``answer`` and ``conclusion``: the text of
    every bot answer and of every scored rubric verdict's conclusion (default: a few words)."""
    agreement = agreement or {}
    session_id = store.create_session(
        scenario={"id": scenario, "question": f"{scenario}?", "language": language},
        persona=Persona(persona, language, "p"),
        config={"roles": {"bot": {"model": "synthetic"}}, "bot": "builtin"},
        language=language,
        max_turns=len(scores),
        threshold=threshold,
        metrics=[PRIMARY_METRIC] + ([extra_metric] if extra_metric else []),
        run_id=run_id,
        trial=trial,
    )
    for turn, score in enumerate(scores, start=1):
        text = customer(turn) if customer else f"{scenario} {persona} customer turn {turn}"
        store.add_message(session_id, turn, "user", "scenario" if turn == 1 else "simulator", text)
        bot_id = store.add_message(session_id, turn, "bot", "bot", answer or f"answer {turn}", passages=[])
        details: dict = {"conclusion": conclusion} if score is not None else {}
        if score is not None and PRIMARY_METRIC in agreement:
            details["agreement"] = agreement[PRIMARY_METRIC]
        error = None if score is not None else "judge reply was not JSON"
        store.add_judgment(
            session_id, bot_id, turn, Judgment(PRIMARY_METRIC, score, details, raw_reply="x", error=error)
        )
        if extra_metric:
            store.add_judgment(session_id, bot_id, turn, Judgment(extra_metric, score, {}, raw_reply="x"))
    for metric, (score, outcome) in (verdicts or {}).items():
        info: dict = {"threshold": 1.0}
        problem = None
        if outcome == "skipped":
            info, problem = {"skipped": True}, "one bot answer: nothing to repeat"
        elif score is None:
            problem = "judge reply was not JSON"
        elif outcome:
            info["outcome"] = outcome
        if score is not None and metric in agreement:
            info["agreement"] = agreement[metric]
        store.add_dialogue_judgment(session_id, Judgment(metric, score, info, raw_reply="x", error=problem))
    store.refresh_score(session_id, PRIMARY_METRIC)
    store.set_status(session_id, "finished", "max_turns")
    return session_id


def write_run(
    store: Store,
    run_id: str,
    dialogues: int,
    *,
    seed: int,
    shift: float = 0.0,
    turns: int = 3,
    personas: int = 5,
    dialogue_verdicts: bool = False,
    customer: str | None = None,
    answer: str | None = None,
    conclusion: str = "synthetic",
) -> None:
    """``dialogues`` dialogues over scenarios s0… × personas p0…, scores drawn from ``seed``
    and moved by ``shift``, through the store's own writes; with ``dialogue_verdicts`` each
    also gets a resolution (resolved in about 70%, 1 in 20 unscored), retention and repetition;
    ``customer``, ``answer`` and ``conclusion``: the texts of every dialogue (``write_dialogue``)."""
    rng = random.Random(seed)
    for i in range(dialogues):
        scores: TurnScores = [min(1.0, max(0.0, rng.gauss(0.72 + shift, 0.15))) for _ in range(turns)]
        verdicts: dict[str, tuple[float | None, str | None]] | None = None
        if dialogue_verdicts:
            draw = rng.random()
            resolution: tuple[float | None, str | None] = (
                (None, None) if draw < 0.05 else (1.0, "resolved") if draw < 0.75 + shift else (0.5, "partly_resolved")
            )
            verdicts = {
                "resolution": resolution,
                "retention": (rng.choice((1.0, 0.5)), None),
                "repetition": (1.0, None),
            }
        write_dialogue(
            store,
            run_id,
            f"s{i // personas}",
            f"p{i % personas}",
            scores,
            verdicts=verdicts,
            customer=None if customer is None else lambda _turn: customer,
            answer=answer,
            conclusion=conclusion,
        )
