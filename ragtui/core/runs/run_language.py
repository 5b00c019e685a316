"""Which sessions of a run to take in one language: a replay or a next-turn test sends one
language's customer messages to the bot, so a run that mixes languages needs ``--language``."""

from __future__ import annotations

from ..types.errors import ConfigError, RagtuiError
from ..types.stored import StoredSession


def sessions_in_language(
    run_id: str, sessions: list[StoredSession], language: str | None, doing: str
) -> list[StoredSession]:
    """The sessions of ``run_id`` in ``language``; without one, all of them when they share one
    language. ``doing`` is what the hint says to do with one language ("test", "replay")."""
    languages = sorted({s.language for s in sessions})
    if language is not None:
        sessions = [s for s in sessions if s.language == language]
        if not sessions:
            raise ConfigError(
                f"run {run_id} has no conversation in {language}", f"its languages: {', '.join(languages)}"
            )
    elif len(languages) != 1:
        raise RagtuiError(
            f"run {run_id} mixes languages ({', '.join(languages)})", f"{doing} one language with --language LANG"
        )
    return sessions
