"""The new-session dialog's estimate line: tokens per role and cost of the chosen dialogue, times
the trials (K trials of the pair walk the same prompts K times).

Counted from the prompts and past usage in the database (``core/dialogue/estimate.py``); no
model is called. The estimator is built on first use and kept, so moving through the lists
only walks one planned dialogue.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.text.number_text import count_text, money_text, tenths_text
from ..core.types.errors import RagtuiError

if TYPE_CHECKING:
    from ..core.dialogue.estimate import RunEstimator
    from ..core.types.personas import Persona
    from ..core.types.scenarios import Scenario
    from .context import TuiServices

Estimator = Callable[["Scenario", "Persona", tuple[str, ...], int], str]


def session_estimator(app: TuiServices) -> Estimator | None:
    engine = app.engine
    if engine is None:
        return None
    built: list[RunEstimator] = []

    def estimate(scenario: Scenario, persona: Persona, metrics: tuple[str, ...], trials: int = 1) -> str:
        try:
            if not built:
                config = dataclasses.replace(engine.config, language=engine.language)
                from ..core.dialogue.estimate import RunEstimator  # the engine: not at start-up

                built.append(RunEstimator(config, engine.endpoints, app.store, []))
            result = built[0].estimate([scenario], [persona], list(metrics)).repeated(trials)
        except (RagtuiError, OSError) as exc:
            return f"Estimate unavailable: {exc}"
        parts = [f"{r.role} {count_text(r.tokens_in)} in / {count_text(r.tokens_out)} out" for r in result.roles]
        cost = result.cost
        money = f" · about ${money_text(cost)}" if cost is not None else " · set [prices] for a cost"
        turns = f"{tenths_text(result.turns_per_dialogue)} turns"
        what = f"{trials} trials of {turns}" if trials > 1 else turns
        return f"Estimate ({what}): " + " · ".join(parts) + money

    return estimate
