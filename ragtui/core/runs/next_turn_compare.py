"""Comparing N+1 runs: each tested turn set beside the same turn of the conversation it tests.

An N+1 run (``ragtui run --replay RUN --at-turn N``) has a session per conversation *and turn*,
each holding that one turn. Matched by scenario × persona alone, a conversation tested at
several turns would pair only its first. So when either side of a comparison is an N+1 run,
both sides are read turn by turn: each N+1 session becomes the dialogue ``CONVERSATION · turn N``
(its score: that turn's), and each conversation on the other side becomes one such dialogue for
every turn the N+1 side tested (its score: that turn's rubric score as judged there, unscored
when the conversation was never judged). Everything else of comparison then applies unchanged.
"""

from __future__ import annotations

from dataclasses import replace

from ..metrics import PRIMARY_METRIC
from ..store import run_reads
from ..store.imported import run_kind
from ..store.store import Store
from ..types.conversations import IMPORTED_KIND
from .dialogues import RunDialogue


def turn_label(scenario_id: str, turn: int) -> str:
    return f"{scenario_id} · turn {turn}"


def tested_turns(store: Store, run_id: str) -> dict[int, int]:
    """Session id → the turn it answers, for the N+1 sessions of ``run_id`` (``types/next_turn``)."""
    return run_reads.tested_turns(store, run_id)


def at_turn(dialogue: RunDialogue, turn: int) -> RunDialogue:
    """``dialogue`` reduced to one turn, named for it; its score is that turn's rubric score."""
    score = dialogue.judgments.get((turn, PRIMARY_METRIC))
    answered = turn in dialogue.bot
    return replace(
        dialogue,
        scenario_id=turn_label(dialogue.scenario_id, turn),
        score=score,
        turns=turn,
        unscored_turns=int(answered and score is None),
        customer={t: x for t, x in dialogue.customer.items() if t == turn},
        bot={t: x for t, x in dialogue.bot.items() if t == turn},
        judgments={k: v for k, v in dialogue.judgments.items() if k[0] == turn},
        metric_verdicts={k: v for k, v in dialogue.metric_verdicts.items() if k[0] == turn},
        verdicts={},  # a dialogue verdict is about the whole conversation, not one turn
        expectations={},
    )


def by_turn(
    base: list[RunDialogue], base_turns: dict[int, int], new: list[RunDialogue], new_turns: dict[int, int]
) -> tuple[list[RunDialogue], list[RunDialogue]]:
    """Both sides turn by turn when either is an N+1 run (see the module's note); else as given."""
    if not base_turns and not new_turns:
        return base, new

    def side(
        dialogues: list[RunDialogue], own: dict[int, int], other: list[RunDialogue], turns: dict[int, int]
    ) -> list[RunDialogue]:
        if own:  # an N+1 run: each session is its one turn
            return [at_turn(d, own[d.session_id]) for d in dialogues if d.session_id in own]
        wanted: dict[str, set[int]] = {}
        for d in other:
            if d.session_id in turns:
                wanted.setdefault(d.scenario_id, set()).add(turns[d.session_id])
        return [at_turn(d, t) for d in dialogues for t in sorted(wanted.get(d.scenario_id, ()))]

    return side(base, base_turns, new, new_turns), side(new, new_turns, base, base_turns)


def unjudged_line(store: Store, run_id: str, side: str, dialogues: list[RunDialogue]) -> str | None:
    """Said when one side of a comparison is real conversations never judged: its column reads
    ``unscored``, and a pair flagged ``fixed`` only means the new answer passes."""
    if any(d.score is not None for d in dialogues) or run_kind(store, run_id) != IMPORTED_KIND:
        return None
    return (
        f"{side} {run_id}: real conversations whose answers are not judged yet — its side reads unscored, "
        "and `fixed` only means the new answer passes; judge the original to compare scores"
    )
