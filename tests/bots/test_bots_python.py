"""The Python bot: functions and classes from a module next to the config file, sync and async,
every accepted return shape, and errors that name the function."""

from __future__ import annotations

import textwrap
import uuid
from pathlib import Path

import pytest

from ragtui.core.bots.errors import BotError
from ragtui.core.bots.python_bot import PythonBot
from ragtui.core.config.settings import load_config
from ragtui.core.types.turns import Utterance

HISTORY = [
    Utterance("user", "How do I link Google?"),
    Utterance("bot", "Settings > Linked services."),
    Utterance("user", "And Apple?"),
]

MODULE = """
import asyncio
from dataclasses import dataclass, field

calls = []

def rag(query, history, prompt):
    calls.append((query, history, prompt))
    return query.upper(), ["first passage", {"title": "T", "content": "second", "url": "kb/2"}]

def plain(query, history):
    calls.append((query, history))
    return "plain answer"

async def async_bot(query, history, prompt=None):
    await asyncio.sleep(0)
    return {"answer": "async answer", "passages": [{"title": "A", "text": "alpha", "source": "kb/a"}]}

@dataclass
class Document:  # the shape of a LangChain document
    page_content: str
    metadata: dict = field(default_factory=dict)

def langchain_style(query, history):
    return {"answer": "lc", "source_documents": [Document("from a doc", {"source": "kb/doc", "title": "Doc"})]}

class SupportBot:
    instances = 0

    def __init__(self):
        SupportBot.instances += 1
        self.turns = 0

    async def answer(self, query, history):
        self.turns += 1
        return f"turn {self.turns}"

class Callable:
    def __call__(self, query, history, prompt=None):
        return "called"

def broken(query, history):
    raise RuntimeError("the vector store is down\\nline two")

def wrong_type(query, history):
    return 42.5j
"""


@pytest.fixture
def module(tmp_path: Path) -> str:
    """A bot module next to a config file; a unique name, since imports are cached."""
    name = f"team_bot_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(MODULE), encoding="utf-8")
    return name


def bot(tmp_path: Path, target: str, extra: str = "") -> PythonBot:
    path = tmp_path / "ragtui.toml"
    path.write_text(f'[bot]\ntype = "python"\ntarget = "{target}"\n{extra}', encoding="utf-8")
    settings = load_config(path).bot.python
    assert settings is not None
    return PythonBot(settings)


async def test_seed_shaped_function_with_prompt_and_pairs(tmp_path: Path, module: str):
    python_bot = bot(tmp_path, f"{module}:rag", 'prompt = "Answer from the context."\nhistory_format = "pairs"\n')
    deltas: list[str] = []
    answer = await python_bot.answer(HISTORY, on_delta=deltas.append)
    assert answer.text == "AND APPLE?" and deltas == ["AND APPLE?"]
    assert [(p.title, p.text, p.doc_id) for p in answer.passages] == [
        ("", "first passage", ""),
        ("T", "second", "kb/2"),
    ]
    loaded = __import__(module)
    assert loaded.calls[-1] == (
        "And Apple?",
        [["How do I link Google?", "Settings > Linked services."]],
        "Answer from the context.",
    )


async def test_two_argument_function_gets_message_history(tmp_path: Path, module: str):
    answer = await bot(tmp_path, f"{module}:plain").answer(HISTORY)
    assert answer.text == "plain answer" and answer.passages == []
    _, history = __import__(module).calls[-1]
    assert history == [
        {"role": "user", "content": "How do I link Google?"},
        {"role": "assistant", "content": "Settings > Linked services."},
    ]


async def test_async_function_returning_a_dict(tmp_path: Path, module: str):
    answer = await bot(tmp_path, f"{module}:async_bot").answer(HISTORY)
    assert answer.text == "async answer" and [(p.title, p.doc_id) for p in answer.passages] == [("A", "kb/a")]


async def test_langchain_style_documents(tmp_path: Path, module: str):
    answer = await bot(tmp_path, f"{module}:langchain_style").answer(HISTORY)
    assert [(p.title, p.text, p.doc_id) for p in answer.passages] == [("Doc", "from a doc", "kb/doc")]


async def test_a_class_is_instantiated_once(tmp_path: Path, module: str):
    python_bot = bot(tmp_path, f"{module}:SupportBot")
    assert [(await python_bot.answer(HISTORY)).text for _ in range(2)] == ["turn 1", "turn 2"]
    assert __import__(module).SupportBot.instances == 1


async def test_a_callable_class(tmp_path: Path, module: str):
    assert (await bot(tmp_path, f"{module}:Callable").answer(HISTORY)).text == "called"


async def test_an_exception_names_the_function_in_one_line(tmp_path: Path, module: str):
    with pytest.raises(BotError) as info:
        await bot(tmp_path, f"{module}:broken").answer(HISTORY)
    message = str(info.value)
    assert f"{module}:broken raised RuntimeError: the vector store is down line two" in message
    assert "\n" not in message


async def test_a_wrong_return_type(tmp_path: Path, module: str):
    with pytest.raises(BotError, match=r"wrong_type returned 42\.5j .*return a str"):
        await bot(tmp_path, f"{module}:wrong_type").answer(HISTORY)


@pytest.mark.parametrize(
    ("target", "expected"),
    [("no_such_module_xyz:rag", "ModuleNotFoundError"), ("{module}:missing", "AttributeError")],
)
def test_import_errors_name_the_target(tmp_path: Path, module: str, target: str, expected: str):
    target = target.format(module=module)
    with pytest.raises(BotError) as info:
        bot(tmp_path, target)
    assert f"cannot load the Python bot {target}" in str(info.value) and expected in str(info.value)
    assert str(tmp_path) in str(info.value)
