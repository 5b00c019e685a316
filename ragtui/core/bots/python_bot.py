"""The Python bot: the team's bot as a function or class in their own code.

``target = "my_bot:rag"`` names a function; ``"my_bot:SupportBot"`` a class, instantiated once
without arguments, whose ``answer`` method (or ``__call__``) is then used. It is called like
the seed's ``rag(query, history, prompt)``::

    fn(query, history)              # or fn(query, history, prompt) when it takes a third argument

``query`` is the customer's latest message; ``history`` the earlier turns, as
``[{"role": "user"|"assistant", "content": str}]`` or, with ``history_format = "pairs"``, the
seed's ``[[question, answer], ...]``; ``prompt`` is the config's ``prompt`` (None if unset).
Sync functions run in a worker thread so they never block the event loop; async ones are
awaited. The result may be a ``str``, an ``(answer, passages)`` tuple or a dict with
``answer`` and ``passages``; a passage may be a string, a ``{title, text|content, source}``
dict, or a LangChain-style document (``page_content`` and ``metadata``).

The config file's folder is importable, so ``my_bot.py`` next to ``ragtui.toml`` just works.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..models.llm import DeltaCallback
from ..types.calls import CallUsage
from ..types.turns import Utterance
from .base import BotAnswer
from .call import Exchange
from .context import BotContext
from .errors import BotError, one_line, snippet
from .mapping import answer_text, coerce_passages
from .python_settings import PythonBotConfig

log = logging.getLogger("ragtui")
ANSWER_KEYS = ("answer", "text", "response", "output")
PASSAGE_KEYS = ("passages", "sources", "documents", "context", "source_documents")


class PythonBot:
    def __init__(self, config: PythonBotConfig) -> None:
        self.config = config
        self.name = f"Python bot {config.target}"
        self.fn = load_target(config)
        self.is_async = inspect.iscoroutinefunction(self.fn)
        self.takes_prompt = _accepts(self.fn, 3)

    def public(self) -> dict[str, object]:
        return {"type": "python", "target": self.config.target, "history_format": self.config.history_format}

    async def answer(self, history: list[Utterance], on_delta: DeltaCallback | None = None) -> BotAnswer:
        return (await self.exchange(history, on_delta)).answer

    async def exchange(self, history: list[Utterance], on_delta: DeltaCallback | None = None) -> Exchange:
        query = history[-1].text if history else ""
        args: tuple[Any, ...] = (query, self._history(history[:-1]))
        if self.takes_prompt:
            args += (self.config.prompt,)
        started = time.perf_counter()
        limit = asyncio.timeout(self.config.timeout) if self.config.timeout else contextlib.nullcontext()
        try:
            async with limit:
                if self.is_async:
                    result = await self.fn(*args)
                else:
                    result = await asyncio.to_thread(self.fn, *args)
                    if inspect.isawaitable(result):
                        result = await result
        except TimeoutError:
            raise BotError(f"{self.name} did not answer within {self.config.timeout:g} s") from None
        except Exception as exc:
            log.exception("%s raised", self.name)
            raise BotError(f"{self.name} raised {one_line(exc)}", "the traceback is in ragtui's log") from None
        answer = self._answer(result)
        answer.usage = replace(answer.usage, latency_ms=(time.perf_counter() - started) * 1000)
        if on_delta is not None and answer.text:
            on_delta(answer.text)  # one piece: the panes show it the same way as a streamed one
        return Exchange(answer, None, result, type(result).__name__)

    def _history(self, earlier: list[Utterance]) -> list[Any]:
        if self.config.history_format == "pairs":
            pairs: list[list[str]] = []
            for u in earlier:
                if u.speaker == "user" or not pairs:
                    pairs.append([u.text, ""] if u.speaker == "user" else ["", u.text])
                else:
                    pairs[-1][1] = u.text
            return pairs
        return [{"role": "user" if u.speaker == "user" else "assistant", "content": u.text} for u in earlier]

    def _answer(self, result: Any) -> BotAnswer:
        if isinstance(result, BotAnswer):
            return result
        text: str | None
        passages: Any = None
        if isinstance(result, tuple) and len(result) == 2:
            text, passages = answer_text(result[0]), result[1]
        elif isinstance(result, dict):
            key = next((k for k in ANSWER_KEYS if k in result), None)
            text = answer_text(result.get(key)) if key else None
            passages = next((result[k] for k in PASSAGE_KEYS if k in result), None)
        else:
            text = answer_text(result)
        if text is None:
            raise BotError(
                f"{self.name} returned {snippet(repr(result), limit=120)}",
                "return a str, an (answer, passages) tuple, or a dict with answer and passages",
            )
        return BotAnswer(
            text=text.strip(), passages=coerce_passages(passages), usage=CallUsage(model=self.config.target)
        )


def load_target(config: PythonBotConfig) -> Callable[..., Any]:
    """Import ``module:attribute``; a class is instantiated once. Errors name the target."""
    module_name, _, attribute = config.target.partition(":")
    folder = str(config.search_path) if config.search_path else None
    if folder and folder not in sys.path:
        sys.path.insert(0, folder)  # the config's folder: a bot module next to ragtui.toml
    try:
        target: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            target = getattr(target, part)
        if inspect.isclass(target):
            target = target()
            target = getattr(target, "answer", None) or target.__call__
    except Exception as exc:
        where = f" (also searched {folder})" if folder else ""
        raise BotError(f"cannot load the Python bot {config.target}{where}: {one_line(exc)}") from None
    if not callable(target):
        raise BotError(f"the Python bot {config.target} is a {type(target).__name__}, not a function or class")
    return target


def _accepts(fn: Callable[..., Any], count: int) -> bool:
    """Whether ``fn`` can be called with ``count`` positional arguments."""
    try:
        inspect.signature(fn).bind(*range(count))
    except TypeError:
        return False
    except ValueError:  # no signature (a builtin): assume the seed's three-argument shape
        return True
    return True


def build(settings: PythonBotConfig, context: BotContext) -> PythonBot:
    """The ``python`` type's bot (``python_settings`` names this by its path)."""
    return PythonBot(settings)
