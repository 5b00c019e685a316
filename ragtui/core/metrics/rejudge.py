"""Re-judging stored bot turns: one turn (the TUI) or every turn of a run (``ragtui rejudge``).

Every re-judgment is stored as a new version beside the earlier ones; the dialogue score follows
the newest rubric version. A whole-run job is keyed by its run, metric, judge model and prompt,
its verdicts carry the job's id, and running the same command again skips the turns it already
re-judged — so an interrupted job resumes instead of starting over.
"""

from __future__ import annotations

import asyncio
import hashlib
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..content.prompts import PromptSet, PromptTemplate, load_prompt, parse_prompt
from ..dialogue.transcript import Utterance
from ..errors import ConfigError, EndpointError, RagtuiError
from ..models.endpoints import Endpoint
from ..models.llm import ChatClient
from ..record import rejudge_jobs
from ..record.store import Store, StoredJudgment, StoredSession
from . import KNOWN_METRICS, PRIMARY_METRIC, MetricSettings, build_metrics
from .base import Metric, TurnContext
from .fit_store import fitted_metrics
from .rubric import RubricJudge


def turn_context(session: StoredSession, turn: int) -> tuple[int, TurnContext]:
    """The bot message id of ``turn`` and what the judge saw for it, rebuilt from the store."""
    bot = next((m for m in reversed(session.messages) if m.role == "bot" and m.turn == turn), None)
    if bot is None:
        raise RagtuiError(f"session {session.id} has no bot answer in turn {turn}")
    index = session.messages.index(bot)
    question = next((m for m in reversed(session.messages[:index]) if m.role == "user"), None)
    if question is None:
        raise RagtuiError(f"session {session.id} has no customer message before the bot answer of turn {turn}")
    earlier = session.messages[: session.messages.index(question)]
    history = [Utterance("user" if m.role == "user" else "bot", m.text) for m in earlier]
    context = TurnContext(
        turn=turn,
        question=question.text,
        response=bot.text,
        passages=bot.passages,
        history=history,
        language=session.language,
        reference=session.scenario.get("reference"),
    )
    return bot.id, context


@dataclass(frozen=True)
class Target:
    """One stored bot turn to judge again."""

    session_id: int
    message_id: int
    turn: int
    context: TurnContext


def run_targets(store: Store, run_id: str) -> list[Target]:
    """Every bot turn of every session of ``run_id``, oldest first."""
    sessions = list(reversed(store.sessions(run_id=run_id)))
    if not sessions:
        raise RagtuiError(f"no sessions in run {run_id} of database {store.path}", "list runs with `ragtui sessions`")
    targets: list[Target] = []
    for summary in sessions:
        session = store.session(summary.id)
        for turn in sorted({m.turn for m in session.messages if m.role == "bot"}):
            try:
                message_id, context = turn_context(session, turn)
            except RagtuiError:
                continue  # a bot answer without a customer message cannot be judged
            targets.append(Target(session.id, message_id, turn, context))
    return targets


def read_prompt_file(path: Path, languages: set[str]) -> tuple[str, dict[str, PromptTemplate]]:
    """An edited rubric judge prompt (TOML), validated for every language it will judge."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read judge prompt {path}: {exc.strerror}", "check the --prompt path") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"judge prompt {path} is not valid TOML: {exc}") from None
    return text, {language: parse_prompt(data, "judge_rubric", language, path) for language in sorted(languages)}


@dataclass
class RejudgePlan:
    """What one ``ragtui rejudge`` command asks for; its key finds the job again."""

    run_id: str
    metric: str
    endpoint: Endpoint  # the judge, with --model applied
    prompts_dir: Path
    settings: MetricSettings
    prompt_file: Path | None = None
    prompt_text: str | None = None
    templates: dict[str, PromptTemplate] | None = None  # from --prompt, per language

    @property
    def prompt_version(self) -> str:
        """ "configured" or a short hash of the --prompt file: part of the job's key."""
        if self.prompt_text is None:
            return "configured"
        return hashlib.sha256(self.prompt_text.encode()).hexdigest()[:8]

    def job_key(self, mode: str) -> str:
        parts = [self.run_id, self.metric, self.endpoint.model, self.prompt_version, mode, str(self.prompts_dir)]
        return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]

    def check(self) -> None:
        if self.metric not in KNOWN_METRICS:
            raise ConfigError(f"unknown metric {self.metric!r}", f"known metrics: {', '.join(KNOWN_METRICS)}")
        if self.metric == "trust":
            raise ConfigError(
                "trust is derived from faithfulness, answerability and answer_correctness",
                "re-judge those metrics instead",
            )
        if self.prompt_file is not None and self.metric != PRIMARY_METRIC:
            raise ConfigError(
                "--prompt replaces the rubric judge's prompt only",
                "for other metrics point `prompts` in the config at a folder with your edited copies",
            )

    def rubric_template(self, language: str) -> PromptTemplate:
        if self.templates is None:
            self.templates = {}
        if language not in self.templates:  # loaded once: a batch builds thousands of requests
            self.templates[language] = load_prompt(self.prompts_dir, language, "judge_rubric")
        return self.templates[language]

    def metric_for(self, client: ChatClient, language: str, store: Store | None = None) -> Metric:
        """The judge a dialogue would use (with its fit, as the engine applies it); with
        ``--prompt``, the whole-verdict rubric judge on the edited prompt, as the TUI's re-judge."""
        if self.metric == PRIMARY_METRIC and self.prompt_file is not None:
            return RubricJudge(client, self.rubric_template(language))
        prompts = PromptSet.load(self.prompts_dir, language)
        metrics = build_metrics(
            [self.metric], client, prompts, settings=self.settings, include_primary=self.metric == PRIMARY_METRIC
        )
        if store is not None:
            metrics = fitted_metrics(metrics, store, self.endpoint.model)
        return next(m for m in metrics if m.name == self.metric)


@dataclass(frozen=True)
class TurnResult:
    target: Target
    stored: StoredJudgment


async def rejudge_online(
    store: Store,
    plan: RejudgePlan,
    client: ChatClient,
    job: rejudge_jobs.RejudgeJob,
    targets: list[Target],
    *,
    concurrency: int = 4,
    on_result: Callable[[TurnResult], None] | None = None,
) -> int:
    """Judge ``targets`` ``concurrency`` at a time; store each verdict as it completes.

    A judge that cannot be reached stops the job (the verdicts stored so far stay, and running
    the same command resumes); an unparsable reply is an unscored verdict, like in a dialogue.
    """
    metrics: dict[str, Metric] = {}
    gate = asyncio.Semaphore(max(1, concurrency))
    stored_count = 0

    async def one(target: Target) -> None:
        nonlocal stored_count
        language = target.context.language
        if language not in metrics:
            metrics[language] = plan.metric_for(client, language, store)
        async with gate:
            judgment = await metrics[language].judge(target.context)
        judgment.details = {
            **judgment.details,
            "rejudge": {
                "job": job.id,
                "model": plan.endpoint.model,
                "edited_prompt": plan.prompt_file is not None,
                "prompt": plan.prompt_version,
            },
        }
        stored = store.add_judgment(target.session_id, target.message_id, target.turn, judgment)
        if plan.metric == PRIMARY_METRIC:
            store.refresh_score(target.session_id, PRIMARY_METRIC)
        stored_count += 1
        if on_result is not None:
            on_result(TurnResult(target, stored))

    tasks = [asyncio.ensure_future(one(t)) for t in targets]
    try:
        await asyncio.gather(*tasks)
    except EndpointError:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    finally:
        for task in tasks:
            task.cancel()
    rejudge_jobs.update_job(store, job.id, status="finished")
    return stored_count
