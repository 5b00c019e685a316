"""Runs of customer messages written straight into a store through its public API: what an
import stores (every customer message the customer's own, source ``imported``) and what a
simulated run stores (the scenario's opening, then the simulator's replies)."""

from __future__ import annotations

from ragtui.core.store.store import Store
from ragtui.core.types.personas import Persona


def write_conversation(
    store: Store,
    run_id: str,
    customer: list[str],
    *,
    scenario: str = "imported",
    persona: str = "customer",
    language: str = "en",
    simulated: bool = False,
) -> int:
    """One finished conversation: ``customer``'s messages, each answered by the bot. Simulated:
    the opening is the scenario's text and the rest the simulator's; otherwise all imported."""
    session_id = store.create_session(
        scenario={"id": scenario, "question": customer[0], "language": language},
        persona=Persona(persona, language, "p"),
        config={},
        language=language,
        max_turns=len(customer),
        threshold=0.7,
        metrics=[],
        run_id=run_id,
    )
    for turn, text in enumerate(customer, start=1):
        source = ("scenario" if turn == 1 else "simulator") if simulated else "imported"
        store.add_message(session_id, turn, "user", source, text)
        store.add_message(session_id, turn, "bot", "bot", f"answer {turn}", passages=[])
    store.set_status(session_id, "finished", "max_turns")
    return session_id
