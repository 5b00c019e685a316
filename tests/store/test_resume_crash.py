"""Resume is correct at every commit point: the process dies right after each write a dialogue
makes (an injected failure in the store, the one place every write goes through), and a new
process continuing the session must end with exactly the record a run without the crash
leaves — same messages, one verdict per turn and metric, the same stop reason and score."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ragtui.core.config.settings import Config
from ragtui.core.dialogue.engine import Engine
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.store import Store
from ragtui.core.types.stored import StoredSession
from stand_ins.fake_openai import Reply, schema_responder

from ..conftest import JUDGE, USER


class Crash(BaseException):
    """The process dies here: nothing in ragtui catches a BaseException of this kind."""


def dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def record(session: StoredSession) -> dict[str, object]:
    """What must come out the same: the conversation, the verdicts, how it ended."""
    return {
        "messages": [(m.turn, m.role, m.source, m.text) for m in session.messages],
        "judgments": sorted((j.turn, j.metric, j.version, j.score) for j in session.judgments),
        "status": session.status,
        "stop": session.stop_reason,
        "score": session.score,
        "turns": session.turns,
        "unscored": session.unscored_turns,
    }


async def run_dialogue(config: Config, path: Path, scenario, persona, crash_at: int | None) -> tuple[int, list[str]]:
    """Run one dialogue in a fresh "process" (its own store and engine); with ``crash_at``,
    die right after that write. Returns the session id and the writes made."""
    store = Store.open(path)
    writes: list[str] = []

    def after_write(action: str) -> None:
        writes.append(action)
        if len(writes) == crash_at:
            raise Crash(action)

    store.after_write = after_write
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        dialogue = engine.new_dialogue(scenario, persona)
        async for _ in dialogue.run():
            pass
    except Crash:
        pass
    finally:
        await engine.aclose()
        store.close()
    reader = Store.open(path)
    session_id = max(s.id for s in reader.sessions())
    reader.close()
    return session_id, writes


async def resume(config: Config, path: Path, session_id: int) -> StoredSession:
    store = Store.open(path)
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        async for _ in engine.resume_dialogue(session_id).run():
            pass
        return store.session(session_id)
    finally:
        await engine.aclose()
        store.close()


@pytest.mark.parametrize("ending", ["max_turns", "done"])
async def test_resume_after_a_crash_at_every_commit_point(
    config: Config, server, tmp_path: Path, scenario, persona, ending
):
    config.metrics = ["rubric", "answer_correctness"]  # two verdicts per turn: a crash can fall between
    config.max_turns = 2
    server.set_default(JUDGE, schema_responder)
    if ending == "done":
        server.set_default(USER, Reply("DONE"))

    clean_path = tmp_path / "clean.db"
    clean_id, writes = await run_dialogue(config, clean_path, scenario, persona, crash_at=None)
    clean = Store.open(clean_path)
    expected = record(clean.session(clean_id))
    clean.close()
    assert expected["stop"] == ending and len(writes) >= 6, writes

    for point, action in enumerate(writes, start=1):
        path = tmp_path / f"crash-{point}.db"
        session_id, made = await run_dialogue(config, path, scenario, persona, crash_at=point)
        assert made == writes[:point], f"crash {point} ({action}) did not stop the writes"
        store = Store.open(path)
        if point < len(writes):
            # The process is gone: its sessions read as interrupted, never running.
            store._db.execute("UPDATE sessions SET owner_pid = ? WHERE id = ?", [dead_pid(), session_id])
            assert store.session(session_id).status == "interrupted", f"after {action}"
        store.close()
        resumed = await resume(config, path, session_id)
        assert record(resumed) == expected, f"resumed after a crash following write {point}: {action}"
