"""Where a session came from and what came from it, in words the CLI and the TUI both show."""

from __future__ import annotations

from ..types.stored import StoredSession
from .store import Store


def lineage_lines(store: Store, session: StoredSession) -> list[str]:
    lines: list[str] = []
    if session.parent_session_id is not None:
        lines.append(f"forked from session {session.parent_session_id} after turn {session.fork_turn}")
    elif session.fork_turn is not None:
        lines.append(f"forked after turn {session.fork_turn} from a session since deleted")
    if session.replay_of is not None:
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
