"""What a replay of a run will do, checked before anything is written: the run exists, is in
one language, and every scenario it used still exists (its reference answer is read from
today's file, since that is what the judge should compare against). An imported run's
conversations have no scenario file: their stored snapshots are used."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..config.settings import Config
from ..content.scenarios import load_scenarios, scenario_file
from ..store.imported import run_kind
from ..store.store import Store
from ..types.conversations import IMPORTED_KIND
from ..types.errors import ConfigError, RagtuiError
from ..types.scenarios import Scenario
from ..types.stored import StoredSession
from .resolve import resolve_run
from .run_language import sessions_in_language

if TYPE_CHECKING:  # the dialogue package builds on store/; keep runs/ from importing it at run time
    from ..dialogue.engine import Engine
    from ..dialogue.state_machine import Dialogue


@dataclass
class ReplayPlan:
    run_id: str
    language: str
    sources: list[StoredSession]  # the recorded dialogues, oldest first
    scenarios: dict[str, Scenario]

    def builder(self, then_simulate: bool, max_turns: int | None) -> Callable[[Engine, str], list[Dialogue]]:
        def build(engine: Engine, run_id: str) -> list[Dialogue]:
            return [
                engine.replay_dialogue(
                    s, self.scenarios[s.scenario_id], run_id=run_id, then_simulate=then_simulate, max_turns=max_turns
                )
                for s in self.sources
            ]

        return build


def plan_replay(
    store: Store,
    config: Config,
    ref: str,
    scenario_ids: list[str] | None = None,
    persona_names: list[str] | None = None,
    language: str | None = None,
) -> ReplayPlan:
    run_id = resolve_run(store, ref)
    sessions = store.run_sessions(run_id)  # in full: the replay re-sends their customer messages
    if scenario_ids:
        sessions = [s for s in sessions if s.scenario_id in scenario_ids]
    if persona_names:
        sessions = [s for s in sessions if s.persona_name in persona_names]
    if not sessions:
        raise RagtuiError(f"run {run_id} has no dialogue of the chosen scenarios and personas", "check -s and -p")
    if run_kind(store, run_id) == IMPORTED_KIND:
        return _imported_plan(run_id, sessions, language)
    languages = sorted({s.language for s in sessions})
    if len(languages) != 1:
        raise RagtuiError(f"run {run_id} mixes languages ({', '.join(languages)})", "replay one language with -s")
    if language is not None and language != languages[0]:
        raise ConfigError(
            f"run {run_id} is in {languages[0]}, not {language}", f"drop --language or pass --language {languages[0]}"
        )
    current = {s.id: s for s in load_scenarios(config.scenarios, languages[0])}
    missing = sorted({s.scenario_id for s in sessions} - set(current))
    if missing:
        raise RagtuiError(
            f"run {run_id} used scenario(s) that no longer exist in {scenario_file(config.scenarios, languages[0])}: "
            + ", ".join(missing),
            "restore them, or replay only the others with -s",
        )
    return ReplayPlan(run_id, languages[0], sessions, current)


def _imported_plan(run_id: str, sessions: list[StoredSession], language: str | None) -> ReplayPlan:
    """A replay of real conversations: the customer's messages re-sent, the bot under test
    answering with its own history. Their scenarios are the stored snapshots (a conversation
    has no scenario file); ``--language`` picks one language of a run that mixes them."""
    sessions = sessions_in_language(run_id, sessions, language, "replay")
    scenarios = {s.scenario_id: Scenario.from_dict(s.scenario) for s in sessions}
    return ReplayPlan(run_id, sessions[0].language, sessions, scenarios)
