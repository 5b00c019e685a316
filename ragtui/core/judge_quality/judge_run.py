"""Judging a stored run that was never judged — above all an imported one (``ragtui judge``).

An imported conversation arrives unjudged: its sessions have no verdict and no score. This
judges every bot answer of the run with the rubric and the chosen turn metrics, exactly as a
dialogue judges its turns (the same metrics, with their fits, trust after its inputs), and then
the whole conversations with the dialogue verdicts (resolution, retention, repetition,
expectations and team policies). What it does not judge, it says:

- a turn a human agent answered, with no bot answer, is never judged as the bot (its messages
  are ``role = agent``, which no judge reads) and is reported as such;
- on an imported turn a metric that needs the bot's retrieved passages is *skipped* ("no
  passages", ``no_passages.py``), never a 0 and never an error, unless the transcript has them.

Each (turn, metric) already judged is left as it is, so the same command run again resumes what
an interruption left; ``ragtui rejudge`` adds new versions. The session's score is then the mean
of its scored rubric turns, as for a simulated session, and its metrics list names what ran.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from ..metrics import PRIMARY_METRIC, Metric, resolve_names
from ..metrics.dialogue import DialogueMetric, context_from_session, metric_applies
from ..store.store import Store
from ..types.errors import EndpointError, RagtuiError
from ..types.judgments import Judgment
from ..types.stored import StoredDialogueJudgment, StoredSession
from .no_passages import judge_for_turn, passages_missing, skipped_no_passages
from .rejudge import Target, judge_each, run_targets


@dataclass(frozen=True)
class AgentTurn:
    """A turn a human agent answered without the bot: nothing of the bot's to judge."""

    session_id: int
    turn: int


@dataclass
class RunJudgment:
    """What judging a run did, for the command to print."""

    sessions: int = 0
    turns: int = 0  # bot turns judged now (some metric stored on them)
    already: int = 0  # bot turns every chosen metric had already judged
    stored: int = 0  # turn verdicts stored
    skipped_no_passages: int = 0  # of them skipped for want of passages
    skipped_other: int = 0  # of them skipped for another reason (no reference answer)
    unscored: int = 0  # of them unscored (the judge's reply could not be read)
    agent_turns: list[AgentTurn] = field(default_factory=list)
    dialogue: list[StoredDialogueJudgment] = field(default_factory=list)
    scores: dict[int, float | None] = field(default_factory=dict)  # session id → its score now


def agent_turns(session: StoredSession) -> list[AgentTurn]:
    """Turns with a customer message that only a human agent answered."""
    by_turn: dict[int, set[str]] = {}
    for message in session.messages:
        by_turn.setdefault(message.turn, set()).add(message.role)
    return [
        AgentTurn(session.id, turn)
        for turn, roles in sorted(by_turn.items())
        if "user" in roles and "agent" in roles and "bot" not in roles
    ]


def turn_metric_names(names: list[str]) -> list[str]:
    """The rubric, the chosen metrics and the inputs of derived ones, in the order they run."""
    return resolve_names(names)


MetricsFor = Callable[[str], list[Metric]]  # language → the turn metrics, in ``turn_metric_names`` order


async def judge_run_turns(
    store: Store,
    run_id: str,
    metrics_for: MetricsFor,
    thresholds: Callable[[str], float],
    *,
    concurrency: int = 4,
    targets: list[Target] | None = None,
    on_turn: Callable[[Target], None] | None = None,
) -> RunJudgment:
    """Judge every bot turn of ``run_id`` (``targets``: those already read by ``run_targets``)
    with the metrics not yet stored on it."""
    report = RunJudgment()
    targets = run_targets(store, run_id) if targets is None else targets
    sessions = [store.session(s.id) for s in reversed(store.sessions(run_id=run_id))]
    report.sessions = len(sessions)
    for session in sessions:
        report.agent_turns += agent_turns(session)
    judged = {s.id: s.latest_judgments() for s in sessions}
    built: dict[str, list[Metric]] = {}
    gate = asyncio.Semaphore(max(1, concurrency))
    names: list[str] = []

    async def one(target: Target) -> None:
        language = target.context.language
        if language not in built:
            built[language] = metrics_for(language)
        metrics = built[language]
        for metric in metrics:
            if metric.name not in names:
                names.append(metric.name)
        done = judged[target.session_id]
        earlier: dict[str, Judgment] = {}
        stored_any = False
        for metric in metrics:
            key = (target.turn, metric.name)
            if key in done:  # judged before (a resumed run): trust still reads it
                earlier[metric.name] = done[key].to_judgment()
                continue
            if passages_missing(metric.name, target.context, imported=target.imported):
                judgment = skipped_no_passages(metric.name, language, thresholds(metric.name))
                report.skipped_no_passages += 1
            else:
                # ``earlier`` lets a derived metric (trust) read this turn's other verdicts.
                context = dataclasses.replace(target.context, earlier=dict(earlier))
                judge = judge_for_turn(metric, context, imported=target.imported)
                async with gate:
                    judgment = await judge.judge(context)
                if judgment.score is None:
                    if judgment.details.get("skipped"):
                        report.skipped_other += 1
                    else:
                        report.unscored += 1
            earlier[metric.name] = judgment
            store.add_judgment(target.session_id, target.message_id, target.turn, judgment)
            report.stored += 1
            stored_any = True
        if stored_any:
            report.turns += 1
            store.refresh_score(target.session_id, PRIMARY_METRIC)
        else:
            report.already += 1
        if on_turn is not None:
            on_turn(target)

    await judge_each(targets, one)
    for session in sessions:
        if names:
            _note_metrics(store, session, names)
        report.scores[session.id] = store.session(session.id).score
    return report


def _note_metrics(store: Store, session: StoredSession, names: list[str]) -> None:
    """The session's metrics list names the turn metrics judged on it (the rubric's implied), so
    the views that read it — the dialogue's pass mark per metric, a replay's metrics — see them."""
    wanted = list(dict.fromkeys([*session.metrics, *(n for n in names if n != PRIMARY_METRIC)]))
    if wanted == session.metrics:
        return
    store.set_metrics(session.id, wanted)


async def judge_dialogues(
    store: Store,
    sessions: list[StoredSession],
    metrics_for: Callable[[str], list[DialogueMetric]],
    on_verdict: Callable[[StoredSession, StoredDialogueJudgment], None] | None = None,
) -> list[StoredDialogueJudgment]:
    """Each session's dialogue verdicts not stored yet (``ragtui judge-dialogue`` adds versions);
    a metric with nothing to judge (no expectation and no policy applies) is left out, a judge
    that fails is unscored, one that cannot be reached stops (what is stored stays)."""
    built: dict[str, list[DialogueMetric]] = {}
    out: list[StoredDialogueJudgment] = []
    for session in sessions:
        if session.language not in built:
            built[session.language] = metrics_for(session.language)
        context = context_from_session(session)
        done = session.latest_dialogue_judgments()
        for metric in built[session.language]:
            if metric.name in done or not metric_applies(metric, context):
                continue
            try:
                judgment = await metric.judge(context)
            except EndpointError:
                raise
            except RagtuiError as exc:
                judgment = Judgment(metric=metric.name, score=None, details={"failed": True}, error=str(exc))
            stored = store.add_dialogue_judgment(session.id, judgment)
            out.append(stored)
            if on_verdict is not None:
                on_verdict(session, stored)
    return out
