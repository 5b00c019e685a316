"""The engine: wires config, endpoints, prompts, knowledge and store into dialogues, and runs
many of them concurrently under a limit as one merged event stream."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from datetime import datetime

from ..bots.base import Bot
from ..bots.factory import build_bot
from ..config.settings import Config
from ..content.prompts import PromptSet
from ..judge_quality.dialogue_card import carded_dialogue_metrics
from ..judge_quality.fit_store import fitted_metrics
from ..knowledge.index import KnowledgeBase
from ..metrics import PRIMARY_METRIC, Metric, MetricSettings, build_metrics
from ..metrics.dialogue import DialogueMetric, build_dialogue_metrics, load_bundled_fallback
from ..models.endpoints import Endpoint
from ..models.llm import ClientPool
from ..store.ownership import HEARTBEAT_S
from ..store.run_plan import PlanEntry
from ..store.store import Store
from ..types.errors import ConfigError, RagtuiError, StoreWriteError
from ..types.next_turn import NEXT_TURN_KEY, next_turn_note
from ..types.personas import Persona
from ..types.scenarios import Scenario
from ..types.stored import StoredSession
from ..types.turns import is_done
from .events import Event
from .next_turn import NextTurnCase, real_history, resumed_history, start_at_turn
from .replay import ReplayScript
from .simulator import UserSimulator
from .simulator_check import SimulatorChecker
from .state_machine import Dialogue, Recovery


def new_run_id() -> str:
    """Sortable and unique: when it started, plus a few random characters."""
    return datetime.now().strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:4]


class Engine:
    def __init__(
        self,
        config: Config,
        endpoints: dict[str, Endpoint],
        store: Store,
        *,
        language: str | None = None,
        bot: Bot | None = None,
        pool: ClientPool | None = None,
    ) -> None:
        self.config = config
        self.endpoints = endpoints
        self.store = store
        self.language = language or config.language
        # About four concurrent calls per httpx pool (see models/sse.py Lanes).
        self.pool = pool or ClientPool(lanes=max(16, config.concurrency // 4))
        # Loading validates every template up front: a bad prompt fails before any dialogue.
        self.prompts = PromptSet.load(config.prompts, self.language, config.product())
        self._knowledge: KnowledgeBase | None = None
        # The [bot] table picks the bot under test; the knowledge base is only built for the built-in one.
        self.bot = bot or build_bot(config, endpoints, self.pool, self.prompts, lambda: self.knowledge)
        self._metric_sets: dict[tuple[str, ...], list[Metric]] = {}
        self.metrics = self.metrics_for(config.metrics)
        # Set by whoever runs the embedded server: brings it back once if it dies mid-step.
        self.recover: Recovery | None = None
        # Each verdict carries its judge's measured agreement (the card), as the turn metrics' do.
        self.dialogue_metrics: list[DialogueMetric] = carded_dialogue_metrics(
            build_dialogue_metrics(
                config.dialogue_metrics,
                self.pool.client_for(self.endpoints["judge"]),
                config.prompts,
                self.language,
                config.thresholds,
                policies=config.policies,
            ),
            store,
            self.endpoints["judge"].model,
            config.min_judge_agreement,
        )
        # The first failed write to the database (disk full, …): from then on no dialogue starts.
        self.write_failure: StoreWriteError | None = None
        self.check_template = (
            load_bundled_fallback(config.prompts, self.language, "simulator_check")
            if config.simulator_check != "off"
            else None
        )

    def metrics_for(self, names: list[str]) -> list[Metric]:
        """The metrics for one dialogue (the config's, or a choice made in the TUI), built and
        validated once per distinct choice."""
        key = tuple(names)
        if key not in self._metric_sets:
            metrics = build_metrics(
                names,
                self.pool.client_for(self.endpoints["judge"]),
                self.prompts,
                settings=MetricSettings.from_config(self.config),
            )
            # A fit from `ragtui calibrate --fit` applies only to the exact judge model and prompt.
            self._metric_sets[key] = fitted_metrics(
                metrics, self.store, self.endpoints["judge"].model, self.config.min_judge_agreement
            )
        return self._metric_sets[key]

    @property
    def knowledge(self) -> KnowledgeBase:
        if self._knowledge is None:
            self._knowledge = KnowledgeBase.from_folder(self.config.knowledge, self.language)
        return self._knowledge

    def public_config(self) -> dict[str, object]:
        """What a session records about how it was run: never a key."""
        return {
            "roles": {role: endpoint.public() for role, endpoint in self.endpoints.items()},
            "bot": getattr(self.bot, "name", type(self.bot).__name__),
            "bot_settings": self.bot.public() if hasattr(self.bot, "public") else None,  # never header values
            "top_k": self.config.top_k,
            "config_file": str(self.config.source) if self.config.source else None,
        }

    def new_dialogue(
        self,
        scenario: Scenario,
        persona: Persona,
        *,
        run_id: str | None = None,
        max_turns: int | None = None,
        metrics: list[str] | None = None,
        plan_entry: int | None = None,
    ) -> Dialogue:
        if persona.language != self.language or scenario.language != self.language:
            raise ConfigError(
                f"scenario {scenario.id!r} ({scenario.language}) and persona {persona.name!r} ({persona.language}) "
                f"must both be in the run's language ({self.language})"
            )
        chosen = self.metrics if metrics is None else self.metrics_for(metrics)
        return self._created_dialogue(
            scenario, persona, max_turns or self.config.max_turns, chosen, run_id, plan_entry=plan_entry
        )

    def planned_dialogue(self, entry: PlanEntry) -> Dialogue:
        """Start an entry of a run's plan that has no session yet, as it was planned (scenario,
        persona, turns, metrics, threshold); ``PlanTaken`` when another process just did."""
        dialogue = self.new_dialogue(
            Scenario.from_dict(entry.scenario),
            entry.persona,
            run_id=entry.run_id,
            max_turns=entry.max_turns,
            metrics=entry.metrics,
            plan_entry=entry.id,
        )
        dialogue.threshold = entry.threshold
        return dialogue

    def _created_dialogue(
        self,
        scenario: Scenario,
        persona: Persona,
        max_turns: int,
        metrics: list[Metric],
        run_id: str | None,
        replay_of: int | None = None,
        plan_entry: int | None = None,
        trial: int = 1,
        config_note: dict[str, object] | None = None,
    ) -> Dialogue:
        """A new session in the store, and its dialogue, owned by this process."""
        session_id = self.store.create_session(
            scenario=scenario.to_dict(),
            persona=persona,
            config={**self.public_config(), **(config_note or {})},
            language=self.language,
            max_turns=max_turns,
            threshold=self.config.threshold,
            metrics=[m.name for m in metrics],
            run_id=run_id,
            replay_of=replay_of,
            plan_entry=plan_entry,
            trial=trial,
        )
        dialogue = self._dialogue(session_id, scenario, persona, max_turns, metrics)
        dialogue._claimed = True  # created with this process as its owner
        return dialogue

    def resume_dialogue(self, session_id: int) -> Dialogue:
        """Continue a stored session with the persona and scenario it started with."""
        session = self.store.session(session_id)
        scenario = Scenario.from_dict(session.scenario)
        persona = session.persona
        dialogue = self._dialogue(session_id, scenario, persona, session.max_turns, self.metrics_for(session.metrics))
        dialogue.threshold = session.threshold
        dialogue.restore()
        if session.replay_of is not None:
            dialogue.replay = self._resumed_replay(session)
            note = next_turn_note(session.config)
            if note is not None and dialogue.replay is not None:
                # N+1: the real history again, then the position its own record gives, if any.
                source = self.store.session(session.replay_of)
                start_at_turn(dialogue, source, note["at_turn"], real_history(source, note["at_turn"]))
                if session.messages:
                    dialogue.restore()
                    dialogue.history = resumed_history(source, session, note["at_turn"])
        return dialogue

    def next_turn_dialogue(self, case: NextTurnCase, *, run_id: str | None = None) -> Dialogue:
        """N+1: a new session in which the bot under test answers only ``case.turn`` of a real
        conversation, sent its real history (``next_turn.py``); judged against the real answer."""
        source = case.source
        if source.language != self.language:
            raise ConfigError(
                f"session {source.id} is in {source.language}, this run is in {self.language}",
                f"pass --language {source.language}",
            )
        dialogue = self._created_dialogue(
            case.scenario(),
            source.persona,
            case.turn,
            self.metrics,
            run_id,
            replay_of=source.id,
            trial=source.trial,
            config_note={NEXT_TURN_KEY: case.note()},
        )
        start_at_turn(dialogue, source, case.turn, case.history)
        return dialogue

    def _resumed_replay(self, session: StoredSession) -> ReplayScript | None:
        """A replay continued later keeps replaying its recording (unless the simulator had
        already taken over); if the recorded session was deleted since, the simulator goes on."""
        assert session.replay_of is not None
        try:
            source = self.store.session(session.replay_of)
        except RagtuiError:
            return None
        customer = sorted((m.turn, m.text) for m in source.messages if m.role == "user")
        handed = "simulator took over" in (session.replay_note or "")
        script = ReplayScript(source.id, [text for _turn, text in customer], then_simulate=handed, handed_over=handed)
        script.notes = [session.replay_note] if session.replay_note else []
        return script

    def replay_dialogue(
        self,
        source: StoredSession,
        scenario: Scenario,
        *,
        run_id: str | None = None,
        then_simulate: bool = False,
        max_turns: int | None = None,
    ) -> Dialogue:
        """A new session that re-sends ``source``'s customer messages to the current bot and
        judges anew. The recorded persona is kept: it only speaks if the simulator takes over."""
        persona = source.persona
        if source.language != self.language:
            raise ConfigError(
                f"session {source.id} is in {source.language}, this replay runs in {self.language}",
                f"pass --language {source.language}",
            )
        max_turns = max_turns or source.max_turns
        metrics = self.metrics_for(source.metrics) if source.metrics else self.metrics
        # The replay keeps the recording's trial, so compare lines the trials of both runs up.
        dialogue = self._created_dialogue(
            scenario, persona, max_turns, metrics, run_id, replay_of=source.id, trial=source.trial
        )
        customer = sorted((m.turn, m.text) for m in source.messages if m.role == "user")
        dialogue.replay = ReplayScript(source.id, [text for _turn, text in customer], then_simulate)
        return dialogue

    def fork_dialogue(
        self,
        session_id: int,
        turn: int,
        *,
        persona: Persona | None = None,
        bot: Bot | None = None,
        config_note: dict[str, object] | None = None,
        max_turns: int | None = None,
    ) -> Dialogue:
        """A new session that copies turns 1..``turn`` of ``session_id`` (messages and every
        judgment version) and continues live from turn+1, optionally as another persona or
        with another bot. It records its parent and the turn it forked at."""
        parent = self.store.session(session_id)
        last = max((m.turn for m in parent.messages), default=0)
        if not 1 <= turn <= last:
            raise RagtuiError(f"session {session_id} has turns 1–{last}; cannot fork at turn {turn}")
        customer = next((m for m in parent.messages if m.turn == turn and m.role == "user"), None)
        if customer is not None and turn > 1 and is_done(customer.text):
            raise RagtuiError(f"turn {turn} of session {session_id} is the customer's DONE", "fork at an earlier turn")
        if parent.language != self.language:
            raise RagtuiError(f"session {session_id} is in {parent.language}; ragtui is running in {self.language}")
        if persona is not None and persona.language != parent.language:
            raise RagtuiError(
                f"persona {persona.name!r} is in {persona.language}, session {session_id} in {parent.language}"
            )
        config = self.public_config()
        config.update(config_note or {})
        new_id = self.store.create_session(
            scenario=parent.scenario,
            persona=persona if persona is not None else parent.persona,
            config=config,
            language=parent.language,
            # A fork exists to continue: it gets at least one live turn.
            max_turns=max(max_turns or parent.max_turns, turn + 1),
            threshold=parent.threshold,
            metrics=parent.metrics,
            parent_session_id=parent.id,
            fork_turn=turn,
        )
        try:
            self.store.copy_turns(parent, new_id, turn)
            self.store.refresh_score(new_id, PRIMARY_METRIC)
        except RagtuiError:
            self.store.delete_session(new_id)  # half a fork would mislead; the parent is untouched
            raise
        dialogue = self.resume_dialogue(new_id)
        if bot is not None:
            dialogue.bot = bot
        return dialogue

    def _dialogue(
        self, session_id: int, scenario: Scenario, persona: Persona, max_turns: int, metrics: list[Metric]
    ) -> Dialogue:
        user_client = self.pool.client_for(self.endpoints["user"])
        simulator = UserSimulator(user_client, self.prompts.simulator, persona, scenario)
        checker = None
        if self.check_template is not None:
            # The cheap check runs on the simulator's own endpoint: it is about the simulator's
            # output, and it leaves the judge's requests to the verdicts.
            client = user_client if self.config.simulator_check == "model" else None
            checker = SimulatorChecker(client, self.check_template, persona)
        dialogue = Dialogue(
            session_id=session_id,
            store=self.store,
            simulator=simulator,
            bot=self.bot,
            metrics=metrics,
            language=self.language,
            max_turns=max_turns,
            threshold=self.config.threshold,
            reference=scenario.reference,
            dialogue_metrics=self.dialogue_metrics,
            checker=checker,
        )
        dialogue.recover = self.recover
        return dialogue

    async def run_many(self, dialogues: list[Dialogue], concurrency: int | None = None) -> AsyncIterator[Event]:
        """Run ``dialogues`` with at most ``concurrency`` at once; yield all their events. Once a
        write to the database has failed (``write_failure``) none of them starts any more."""
        limit = asyncio.Semaphore(concurrency or self.config.concurrency)
        queue: asyncio.Queue[Event | None] = asyncio.Queue()

        async def run_one(dialogue: Dialogue) -> None:
            try:
                async with limit:
                    if self.write_failure is not None:
                        # Nothing can be recorded: the session stays as created, resumable.
                        return
                    async for event in dialogue.run():
                        queue.put_nowait(event)
                    if dialogue.write_failure is not None and self.write_failure is None:
                        self.write_failure = dialogue.write_failure
            except asyncio.CancelledError:
                # Still waiting for a slot: close the session as cancelled, not "running" forever.
                done = dialogue.cancel()
                if done is not None:
                    queue.put_nowait(done)
                raise

        tasks = [asyncio.create_task(run_one(d)) for d in dialogues]
        waiter = asyncio.create_task(_gather_then_signal(tasks, queue))
        beat = asyncio.create_task(self._heartbeat())
        try:
            while (event := await queue.get()) is not None:
                yield event
        finally:
            for task in tasks:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*tasks, return_exceptions=True)
            waiter.cancel()
            beat.cancel()

    async def _heartbeat(self) -> None:
        """Tell other processes this one still runs its sessions (see store/ownership.py)."""
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            with contextlib.suppress(RagtuiError):  # a busy database: the next beat will do
                self.store.heartbeat()

    async def aclose(self) -> None:
        bot_close = getattr(self.bot, "aclose", None)  # the HTTP bot's connection pool
        if bot_close is not None:
            await bot_close()
        await self.pool.aclose()


async def _gather_then_signal(tasks: list[asyncio.Task[None]], queue: asyncio.Queue[Event | None]) -> None:
    await asyncio.gather(*tasks, return_exceptions=True)
    queue.put_nowait(None)
