"""One question to the configured bot, for ``ragtui doctor``: the raw response and what the
mapping extracted from it, so a user can fix ``answer_path`` or ``passages_path`` without
running a whole dialogue. Never raises for a bot problem: the result says what went wrong."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from ..config.settings import Config
from ..content.prompts import PromptSet
from ..content.scenarios import load_scenarios
from ..knowledge.index import KnowledgeBase
from ..models.endpoints import Endpoint
from ..models.llm import ClientPool
from ..types.errors import RagtuiError
from ..types.passages import Passage
from ..types.turns import Utterance
from .errors import BotError
from .factory import build_bot

FALLBACK_QUESTION = {"en": "How do I reset my password?", "ja": "パスワードを再設定するにはどうすればいいですか？"}


@dataclass
class BotProbeResult:
    bot: str  # what was probed: its type and where
    question: str
    ok: bool = False
    status: int | None = None  # HTTP status; None for in-process bots or when nothing came back
    content_type: str = ""
    raw: str = ""  # the raw response (or its start), one line, bounded, secrets masked
    answer: str | None = None  # what the mapping extracted
    passages: list[Passage] = field(default_factory=list)
    error: str | None = None
    latency_ms: float | None = None


def probe_question(config: Config) -> str:
    """The first scenario's question: a realistic one the bot should be able to answer."""
    try:
        scenarios = load_scenarios(config.scenarios, config.language)
    except RagtuiError:
        scenarios = []
    return scenarios[0].question if scenarios else FALLBACK_QUESTION.get(config.language, FALLBACK_QUESTION["en"])


async def aprobe_bot(config: Config, endpoints: dict[str, Endpoint], question: str | None = None) -> BotProbeResult:
    question = question or probe_question(config)
    result = BotProbeResult(bot=config.bot.type, question=question)
    pool = ClientPool()
    bot = None
    started = time.perf_counter()
    try:
        prompts = PromptSet.load(config.prompts, config.language, config.product())
        bot = build_bot(
            config, endpoints, pool, prompts, lambda: KnowledgeBase.from_folder(config.knowledge, config.language)
        )
        result.bot = getattr(bot, "name", config.bot.type)
        history = [Utterance("user", question)]
        exchange = getattr(bot, "exchange", None)
        if exchange is not None:
            seen = await exchange(history)
            answer = seen.answer
            result.status, result.raw, result.content_type = seen.status, seen.raw, seen.content_type
        else:
            answer = await bot.answer(history)
            result.raw = answer.text[:2000]
        result.ok = True
        result.answer = answer.text
        result.passages = answer.passages
        if not answer.text.strip():
            result.ok, result.error = False, "the bot answered with empty text"
    except BotError as exc:
        result.status, result.raw, result.error = exc.status, exc.snippet, str(exc)
    except RagtuiError as exc:
        result.error = str(exc)
    finally:
        result.latency_ms = (time.perf_counter() - started) * 1000
        aclose = getattr(bot, "aclose", None)
        if aclose is not None:
            await aclose()
        await pool.aclose()
    return result


def probe_bot(config: Config, endpoints: dict[str, Endpoint], question: str | None = None) -> BotProbeResult:
    """Synchronous wrapper; from async code (a running loop) use :func:`aprobe_bot`."""
    return asyncio.run(aprobe_bot(config, endpoints, question))
