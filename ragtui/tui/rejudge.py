"""Judge a stored bot turn again: with the same judge, another model, or an edited prompt.

Deliberately free of Textual so it can move into ``ragtui.core`` later: it only uses the engine
(for its endpoints, client pool and prompts) and the store. Every re-judgment is stored as a
new version beside the earlier ones and the session's score is recomputed from the newest.
"""

from __future__ import annotations

import dataclasses
import tomllib

from ..core.content.prompts import PromptSet, PromptTemplate, parse_prompt
from ..core.dialogue.engine import Engine
from ..core.judge_quality.fit_store import fitted_metrics
from ..core.judge_quality.no_passages import judge_for_turn
from ..core.judge_quality.rejudge import turn_context
from ..core.metrics import PRIMARY_METRIC, Metric, MetricSettings, build_metrics
from ..core.metrics.rubric import RubricJudge
from ..core.types.conversations import IMPORTED_KIND
from ..core.types.errors import ConfigError, RagtuiError
from ..core.types.stored import StoredJudgment


def parse_judge_prompt(toml_text: str, language: str) -> PromptTemplate:
    """An edited judge prompt (TOML text) validated like the file it replaces."""
    try:
        data = tomllib.loads(toml_text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"edited judge prompt is not valid TOML: {exc}") from None
    return parse_prompt(data, "judge_rubric", language, None)


def judge_prompt_text(engine: Engine, language: str) -> str:
    """The TOML text of the judge prompt in ``language``, to edit on the spot."""
    path = engine.config.prompts / language / "judge_rubric.toml"
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RagtuiError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:  # one line naming the file, never a traceback on screen
        raise RagtuiError(f"judge prompt {path} is not UTF-8 text (byte {exc.start})", "save it as UTF-8") from None


async def rejudge_turn(
    engine: Engine,
    session_id: int,
    turn: int,
    *,
    model: str | None = None,
    template: PromptTemplate | None = None,
) -> StoredJudgment:
    """Judge ``turn`` of ``session_id`` again and store the result as a new version."""
    store = engine.store
    session = store.session(session_id)
    message_id, context = turn_context(session, turn)
    endpoint = engine.endpoints["judge"]
    if model:
        endpoint = dataclasses.replace(endpoint, model=model)
    client = engine.pool.client_for(endpoint)
    judge: Metric
    if template is None:
        # The judge a dialogue runs (its yes/no checks, and the fit stored for this judge model),
        # in the session's own language: versions of one turn then compare like with like.
        prompts = engine.prompts if session.language == engine.language else None
        if prompts is None:
            prompts = PromptSet.load(engine.config.prompts, session.language)
        settings = MetricSettings.from_config(engine.config)
        metrics = build_metrics([PRIMARY_METRIC], client, prompts, settings=settings)
        judge = next(
            m
            for m in fitted_metrics(metrics, store, endpoint.model, engine.config.min_judge_agreement)
            if m.name == PRIMARY_METRIC
        )
        # A real conversation's turn recorded without passages: the rubric without its grounding checks.
        judge = judge_for_turn(judge, context, imported=session.kind == IMPORTED_KIND)
    else:
        # An edited judge_rubric.toml is the whole-verdict judge's prompt.
        judge = RubricJudge(client, template)
    judgment = await judge.judge(context)
    judgment.details = {
        **judgment.details,
        "rejudge": {"model": endpoint.model, "edited_prompt": template is not None and template.path is None},
    }
    stored = store.add_judgment(session_id, message_id, turn, judgment)
    store.refresh_score(session_id, PRIMARY_METRIC)
    return stored
