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
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from ..content.prompts import PromptSet, PromptTemplate, load_prompt, parse_prompt
from ..metrics import KNOWN_METRICS, PRIMARY_METRIC, MetricSettings, build_metrics
from ..metrics.base import Metric, TurnContext
from ..metrics.rubric import CheckedRubricJudge, RubricJudge
from ..models.endpoints import Endpoint
from ..models.llm import ChatClient
from ..store import rejudge_jobs
from ..store.store import Store
from ..types.conversations import IMPORTED_KIND
from ..types.errors import ConfigError, EndpointError, RagtuiError
from ..types.stored import StoredJudgment, StoredSession
from ..types.turns import Utterance
from .fit_store import fitted_metrics
from .no_passages import judge_for_turn, passages_missing, skipped_no_passages


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
    # Only the customer's and the bot's words: an imported conversation's human agent and its
    # notes are not the bot's, and must not be read as what it said before.
    history = [Utterance("user" if m.role == "user" else "bot", m.text) for m in earlier if m.role in ("user", "bot")]
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
    imported: bool = False  # a real conversation's turn: its transcript carries no retrieved passages


async def judge_each(targets: Sequence[Target], one: Callable[[Target], Awaitable[None]]) -> None:
    """``one`` on every target at once (it limits how many ask the model together itself). An
    endpoint error cancels the rest and is raised: what was stored before it stays, and the same
    command resumes from there."""
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


def run_targets(store: Store, run_id: str) -> list[Target]:
    """Every bot turn of every session of ``run_id``, oldest first."""
    sessions = list(reversed(store.sessions(run_id=run_id)))
    if not sessions:
        raise RagtuiError(f"no sessions in run {run_id} of database {store.path}", "list runs with `ragtui runs`")
    targets: list[Target] = []
    for summary in sessions:
        session = store.session(summary.id)
        for turn in sorted({m.turn for m in session.messages if m.role == "bot"}):
            try:
                message_id, context = turn_context(session, turn)
            except RagtuiError:
                continue  # a bot answer without a customer message cannot be judged
            targets.append(Target(session.id, message_id, turn, context, session.kind == IMPORTED_KIND))
    return targets


def read_prompt_file(path: Path, languages: set[str]) -> tuple[str, dict[str, PromptTemplate]]:
    """An edited rubric judge prompt (TOML), validated for every language it will judge."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read judge prompt {path}: {exc.strerror}", "check the --prompt path") from None
    except UnicodeDecodeError as exc:  # saved as Latin-1 or UTF-16 by an editor, or not text at all
        line = exc.object[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"judge prompt {path} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} on line {line})",
            "save the file as UTF-8",
        ) from None
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
    judges: dict[str, CheckedRubricJudge] = field(default_factory=dict)  # per language, for batches

    @property
    def prompt_version(self) -> str:
        """ "configured" or a short hash of the --prompt file: part of the job's key."""
        if self.prompt_text is None:
            return "configured"
        return hashlib.sha256(self.prompt_text.encode()).hexdigest()[:8]

    def job_key(self, mode: str) -> str:
        parts = [self.run_id, self.metric, self.endpoint.model, self.prompt_version, mode, str(self.prompts_dir)]
        if mode != "online" and self.checks_batched:
            # Batches of the yes/no checks are another request set than the whole-verdict
            # batches ragtui wrote before them: a job of those is not resumed with these.
            parts.append("checks")
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
        return dialogue_metric(
            self.metric, self.prompts_dir, language, self.endpoint.model, self.settings, client, store
        )

    @property
    def checks_batched(self) -> bool:
        """Whether a batch of this job asks the yes/no checks (one request per check) rather
        than the whole-verdict rubric of ``--prompt`` (one request per turn)."""
        return self.metric == PRIMARY_METRIC and self.prompt_file is None

    def checked_judge(self, language: str) -> CheckedRubricJudge:
        """The dialogue's rubric judge without a client: what a batch asks, check by check."""
        if language not in self.judges:  # built once per language: a batch asks thousands of checks
            self.judges[language] = checked_rubric(self.prompts_dir, language)
        return self.judges[language]


def dialogue_metric(
    metric: str,
    prompts_dir: Path,
    language: str,
    model: str,
    settings: MetricSettings | None = None,
    client: ChatClient | None = None,
    store: Store | None = None,
) -> Metric:
    """``metric`` as a dialogue builds it (``build_metrics``), wrapped in its fit for ``model``
    when ``store`` holds one (as the engine does). Without a client it can build requests and
    verdicts from replies obtained elsewhere (a batch), but not ask anything itself."""
    prompts = PromptSet.load(prompts_dir, language)
    judge = client if client is not None else cast(ChatClient, None)
    metrics = build_metrics([metric], judge, prompts, settings=settings, include_primary=metric == PRIMARY_METRIC)
    if store is not None:
        metrics = fitted_metrics(metrics, store, model)
    return next(m for m in metrics if m.name == metric)


def checked_rubric(prompts_dir: Path, language: str) -> CheckedRubricJudge:
    metric = dialogue_metric(PRIMARY_METRIC, prompts_dir, language, "")
    if not isinstance(metric, CheckedRubricJudge):
        raise RagtuiError(f"the {PRIMARY_METRIC} metric of a dialogue is not the yes/no-check judge")
    return metric


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
        if passages_missing(plan.metric, target.context, imported=target.imported):
            judgment = skipped_no_passages(plan.metric, language, plan.settings.threshold(plan.metric))
        else:
            judge = judge_for_turn(metrics[language], target.context, imported=target.imported)
            async with gate:
                judgment = await judge.judge(target.context)
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

    await judge_each(targets, one)
    rejudge_jobs.update_job(store, job.id, status="finished")
    return stored_count
