"""Where a session came from and what came from it, in words the CLI and the TUI both show."""

from __future__ import annotations

from ..text.text_safety import visible
from ..types.next_turn import next_turn_note
from ..types.stored import StoredSession
from .store import Store


def lineage_lines(store: Store, session: StoredSession) -> list[str]:
    lines: list[str] = []
    if session.parent_session_id is not None:
        lines.append(f"forked from session {session.parent_session_id} after turn {session.fork_turn}")
    elif session.fork_turn is not None:
        lines.append(f"forked after turn {session.fork_turn} from a session since deleted")
    tested = next_turn_note(session.config)
    if tested is not None:
        lines.append(next_turn_lines(session)[0])
    elif session.replay_of is not None:
        lines.append(f"replay of session {session.replay_of}'s customer messages")
    if session.replay_note:
        lines.append(f"replay: {session.replay_note}")
    children = store.children(session.id)
    forks = [f"{cid} (after turn {turn})" for cid, kind, turn in children if kind == "fork"]
    replays = [str(cid) for cid, kind, _turn in children if kind == "replay"]
    if forks:
        lines.append("forks: " + ", ".join(forks))
    if replays:
        lines.append("replayed by: " + ", ".join(replays))
    return lines


def next_turn_lines(session: StoredSession) -> list[str]:
    """An N+1 session: which real turn it answered, after what, and the real answer beside its
    own (``ragtui show``); [] for any other session. Texts made safe to print."""
    tested = next_turn_note(session.config)
    if tested is None:
        return []
    turn, source = tested["at_turn"], tested.get("of_session")
    lines = [
        f"N+1: answers turn {turn} of session {source} after its real history "
        f"({tested.get('history', 0)} message(s) of the customer, the bot and human agents; notes left out)"
    ]
    real = session.scenario.get("reference")
    if real:
        lines.append(f"the real answer at turn {turn} ({tested.get('real_role')}), the judge's reference:")
        lines.append(visible(str(real)))
    else:
        lines.append(f"nobody answered turn {turn} in the real conversation: no reference for the judge")
    own = [m.text for m in session.messages if m.role == "bot" and m.turn == turn]
    if own:
        lines.append(f"the bot under test at turn {turn}:")
        lines.append(visible(own[-1]))
    return lines
