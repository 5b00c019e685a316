"""Every kind of error in a hand-written file is one line naming the file, the table and the key,
and saying what was expected: ragtui.toml, the [bot] table, a persona and a scenario file, each
checked word for word, so a change in how validation errors are translated shows here."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import pytest
from pydantic import ValidationError

from ragtui.core.config.settings import load_config
from ragtui.core.config.validation import TomlTable, between, config_error, validate
from ragtui.core.content.personas import load_persona_file
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.types.errors import ConfigError


def problem(load: object, path: Path, text: str) -> ConfigError:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load(path)  # type: ignore[operator]
    assert "\n" not in str(info.value)
    return info.value


# (the file's text, the message after "<file>: ", the hint)
CONFIG = [
    ("max_turn = 3\n", "unknown key 'max_turn'", None),  # unknown key: the hint lists the allowed ones
    ('[roles.judge]\nmodle = "x"\n', "[roles.judge]: unknown key 'modle'", None),
    ('max_turns = "3"\n', "max_turns must be int, got str '3'", ""),  # wrong type
    ("[endpoint]\ntemperature = true\n", "[endpoint] temperature must be int or float, got bool True", ""),
    ('roles = { judge = "gpt" }\n', "[roles.judge] must be dict, got str 'gpt'", ""),  # a table expected
    ('[prices]\n"gpt-4.1" = { input = 1 }\n', "[prices.\"gpt-4.1\"]: missing key 'output'",  # missing key
     "prices are per million tokens, e.g. input = 0.15"),
    ('language = "fr"\n', "language must be one of ja, en, got 'fr'", ""),  # a value outside a set
    ("threshold = 2\n", "threshold must be between 0 and 1, got 2", ""),  # a rule a type cannot say
    ("[[policy]]\nid = \"p\"\ntext = \"x\"\nseverity = 1\n", "policy 'p': unknown key 'severity'",
     "allowed keys: contains, id, not_contains, regex, tags, text"),
    ('[[policy]]\ntext = " "\n', "policy #1 text: the expectation is empty", "write what the bot must (or must not) say"),
    ('min_resolution_rate = 0.5\ndialogue_metrics = ["repetition"]\n',
     "min_resolution_rate needs the resolution verdict, but dialogue_metrics leaves it out",
     'add "resolution" to dialogue_metrics, or set min_resolution_rate = 0'),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message", "hint"), CONFIG)
def test_ragtui_toml_errors(tmp_path: Path, text: str, message: str, hint: str | None) -> None:
    path = tmp_path / "ragtui.toml"
    error = problem(load_config, path, text)
    assert error.message == f"{path}: {message}"
    if hint is not None:
        assert error.hint == hint
    else:
        assert error.hint.startswith("allowed keys: ")


def test_unknown_key_hint_lists_the_keys_of_that_table(tmp_path: Path) -> None:
    error = problem(load_config, tmp_path / "ragtui.toml", '[roles.judge]\nmodle = "x"\n')
    assert error.hint == (
        "allowed keys: api_key_env, base_url, max_retries, max_tokens, model, reply_timeout, temperature, timeout"
    )


BOT = [
    ('type = "http"\nurl = "http://x"\ntimeot = 3', "[bot] (type http): unknown key 'timeot'"),
    ('type = "http"\nurl = "http://x"\nmax_retries = "2"', "[bot] max_retries must be int, got str '2'"),
    ('type = "http"\nurl = "http://x"\nheaders = { X-Id = 3 }', "[bot] headers.X-Id must be str, got int 3"),
    ('type = "python"', "[bot] (type python): missing key 'target'"),
    ('type = "http"\nurl = "http://x"\nstream = "ws"', "[bot] stream must be one of none, sse, text, got 'ws'"),
    ('type = "http"\nurl = "http://x"\nmax_response_bytes = 10', "[bot] max_response_bytes must be at least 1024, got 10"),
    ('type = "builtin"\nurl = "x"', "[bot] (type builtin): unknown key 'url'"),
]  # fmt: skip


@pytest.mark.parametrize(("table", "message"), BOT)
def test_bot_table_errors(tmp_path: Path, table: str, message: str) -> None:
    path = tmp_path / "ragtui.toml"
    assert problem(load_config, path, f"[bot]\n{table}\n").message == f"{path}: {message}"


PERSONA = 'name = "calm"\nlanguage = "en"\n'
PERSONAS = [
    (PERSONA + 'persona = "x"\nmood = 1\n', "unknown key 'mood'"),
    (PERSONA, "missing key 'persona'"),
    (PERSONA + 'persona = "x"\ntemperature = "hot"\n', "temperature must be int or float, got str 'hot'"),
    ('name = "calm"\nlanguage = "de"\npersona = "x"\n', "language must be one of ja, en, got 'de'"),
    (PERSONA + 'persona = "x"\ntemperature = 3\n', "temperature must be between 0 and 2, got 3"),
    (PERSONA + 'persona = "x"\npatience = 2.5\n', "patience must be a whole number of turns from 1 to 50, got 2.5"),
]


@pytest.mark.parametrize(("text", "message"), PERSONAS)
def test_persona_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "en" / "calm.toml"
    assert problem(load_persona_file, path, text).message == f"{path}: {message}"


ENTRY = '[[scenario]]\nid = "a"\n'
SCENARIOS = [
    (ENTRY + 'question = "q"\nanswer = 1\n', "scenario 'a': unknown key 'answer'"),
    (ENTRY, "scenario 'a': missing key 'question'"),
    (ENTRY + "question = 3\n", "scenario 'a' question must be str, got int 3"),
    (ENTRY + 'question = "q"\nlanguage = "fr"\n', "scenario 'a' language must be one of ja, en, got 'fr'"),
    (ENTRY + 'question = " "\n', "scenario 'a' question is empty"),
    (ENTRY + 'question = "q"\nexpect = [{ contain = "x" }]\n', "scenario 'a' expect[1]: unknown key 'contain'"),
    (ENTRY + 'question = "q"\nexpect = [{ text = 3 }]\n', "scenario 'a' expect[1] text must be str, got int 3"),
    (ENTRY + 'question = "q"\nexpect_not = [{ id = "a" }]\n',
     "scenario 'a' expect_not[1]: needs text, contains, regex or not_contains"),
    ("scenario = [3]\n", "scenario #1 must be dict, got int 3"),
    ('[[scenario]]\nid = "a b"\nquestion = "q"\n', "scenario #1 id 'a b' is not valid"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), SCENARIOS)
def test_scenario_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "en.toml"
    assert problem(lambda p: load_scenarios(p.parent, "en"), path, text).message == f"{path}: {message}"


class Inner(TomlTable):
    share: Annotated[float, between(0, 1)] = 0.5


class Outer(TomlTable):
    named_arrays = frozenset({"item"})
    missing_hints = {"name": "every outer table has a name"}
    name: str
    tables: dict[str, Inner] = {}
    item: list[Inner] = []
    words: list[str] = []


@pytest.mark.parametrize(
    ("data", "top_level", "message", "hint"),
    [
        (
            {"name": "n", "tables": {"a.b": {"share": 2}}},
            True,
            'f: [tables."a.b"] share must be between 0 and 1, got 2',
            "",
        ),
        # inside a table (``where`` names it), deeper tables are dotted keys
        ({"name": "n", "tables": {"a": {"x": 1}}}, False, "f: [t] tables.a: unknown key 'x'", "allowed keys: share"),
        ({"name": "n", "item": [{}, {"id": 1}]}, True, "f: item #2: unknown key 'id'", "allowed keys: share"),
        ({"name": "n", "words": ["a", 2]}, True, "f: words[2] must be str, got int 2", ""),
        ({}, True, "f: missing key 'name'", "every outer table has a name"),
        ({"name": "n", "tables": []}, True, "f: [tables] must be dict, got list []", ""),
    ],
)
def test_one_translation_names_table_path_key_and_expectation(
    data: dict[str, object], top_level: bool, message: str, hint: str
) -> None:
    with pytest.raises(ConfigError) as info:
        validate(Outer, data, "f" if top_level else "f: [t]", top_level=top_level)
    assert (info.value.message, info.value.hint) == (message, hint)


def test_the_first_unknown_key_is_reported_before_other_problems() -> None:
    """A typo explains the rest: ``nmae`` is reported, not the missing ``name`` it stands for."""
    data = {"words": 3, "nmae": "n"}
    with pytest.raises(ValidationError) as info:
        Outer.model_validate(data)
    assert config_error(info.value, Outer, data, "f").message == "f: unknown key 'nmae'"
