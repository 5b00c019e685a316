"""N+1 on real conversations: the real history up to a turn, and the bot under test answering
only that turn — judged against what the real conversation said next.

A replay (``ragtui run --replay``) lets the bot under test answer the whole conversation with
its own history, so from its first different answer on the real customer's next message may no
longer fit. N+1 keeps the real history: for turn N of an imported conversation, the bot is sent
every message before it (the customer's, and the real bot's *and human agent's* answers, as
assistant messages; internal notes left out, as the customer never saw them) and the customer's
message of turn N, and answers once. The real answer of turn N (bot or agent) becomes the turn's
reference answer, so ``answer_correctness`` compares against it, and is shown beside the new one.

Each N+1 session records which session and turn it tests in its config (``NEXT_TURN_KEY``), so
``ragtui show`` and ``ragtui compare`` can set it beside the original turn. Everything here is
checked before anything is written: bad input writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..dialogue.next_turn import NextTurnCase, customer_turns, real_answer, real_history
from ..store.imported import run_kind
from ..store.store import Store
from ..types.conversations import IMPORTED_KIND
from ..types.errors import RagtuiError
from .resolve import resolve_run
from .run_language import sessions_in_language

if TYPE_CHECKING:  # the dialogue package builds on runs/; keep runs/ from importing it at run time
    from ..dialogue.engine import Engine
    from ..dialogue.state_machine import Dialogue

ALL_TURNS = "all"


def parse_at_turn(value: str) -> int | None:
    """``--at-turn N`` (N ≥ 1) or ``all`` (None: every turn); one line naming the value otherwise."""
    text = value.strip().lower()
    if text in (ALL_TURNS, "every"):
        return None
    try:
        turn = int(text)
    except ValueError:
        raise RagtuiError(
            f"--at-turn {value!r} is not a turn number", "give a turn number from 1, or `all` for every turn"
        ) from None
    if turn < 1:
        raise RagtuiError(
            f"--at-turn {turn}: turns are numbered from 1 (turn 0 is what was said before the customer's first message)",
            "give a turn number from 1, or `all` for every turn",
        )
    return turn


@dataclass
class NextTurnPlan:
    run_id: str
    language: str
    cases: list[NextTurnCase]
    skipped: list[str] = field(default_factory=list)  # one line per conversation too short for the turn

    def builder(self) -> Callable[[Engine, str], list[Dialogue]]:
        def build(engine: Engine, run_id: str) -> list[Dialogue]:
            return [engine.next_turn_dialogue(case, run_id=run_id) for case in self.cases]

        return build


def plan_next_turn(
    store: Store,
    ref: str,
    at_turn: int | None,
    scenario_ids: list[str] | None = None,
    language: str | None = None,
) -> NextTurnPlan:
    """The turns to test: turn ``at_turn`` (None: every turn) of each conversation of the
    imported run ``ref``; a conversation with fewer turns is skipped with a line saying so."""
    run_id = resolve_run(store, ref)
    kind = run_kind(store, run_id)
    if kind != IMPORTED_KIND:
        raise RagtuiError(
            f"--at-turn needs an imported run; run {run_id} is {kind} (ragtui ran it)",
            "import real conversations with `ragtui import FILE`, or drop --at-turn to replay this run",
        )
    sessions = store.run_sessions(run_id)
    if scenario_ids:
        sessions = [s for s in sessions if s.scenario_id in scenario_ids]
    if not sessions:
        raise RagtuiError(f"run {run_id} has no conversation of the chosen ids", "check -s")
    sessions = sessions_in_language(run_id, sessions, language, "test")
    cases: list[NextTurnCase] = []
    skipped: list[str] = []
    for session in sessions:
        count = customer_turns(session)
        turns = range(1, count + 1) if at_turn is None else [at_turn]
        if at_turn is not None and at_turn > count:
            skipped.append(
                f"conversation {session.scenario_id} (session {session.id}) has {count} turn(s); turn {at_turn} skipped"
            )
            continue
        for turn in turns:
            customer = next((m.text for m in session.messages if m.turn == turn and m.role == "user"), None)
            if customer is None:
                continue
            answer, role = real_answer(session, turn)
            cases.append(NextTurnCase(session, turn, real_history(session, turn), customer, answer, role))
    if not cases:
        raise RagtuiError(
            f"run {run_id}: no conversation has a turn {at_turn}" if at_turn else f"run {run_id} has no turn to test",
            "pick a turn the conversations have (`ragtui sessions --run RUN` shows their turns)",
        )
    return NextTurnPlan(run_id, sessions[0].language, cases, skipped)
