"""Tests for prompt templates (prompts.py): bundled files load, typos in slots fail on load,
and filling is single-pass."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
import tomli_w

from ragtui.core.config import paths
from ragtui.core.content.prompts import ADDED_LATER, PROMPT_KINDS, SLOT, PromptSet, load_prompt, parse_prompt
from ragtui.core.types.errors import ConfigError

BUNDLED = paths.bundled_dir("prompts")


@pytest.fixture
def prompts_dir(tmp_path: Path) -> Path:
    """A writable copy of the bundled prompts."""
    target = tmp_path / "prompts"
    shutil.copytree(BUNDLED, target)
    return target


def write_template(prompts_dir: Path, kind: str, text: str, language: str = "en") -> Path:
    path = prompts_dir / language / f"{kind}.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("language", ["ja", "en"])
def test_bundled_templates_load(language: str) -> None:
    prompts = PromptSet.load(BUNDLED, language)
    for template, kind in [
        (prompts.simulator, "user_simulator"),
        (prompts.bot, "bot_rag"),
        (prompts.judge, "judge_rubric"),
    ]:
        assert template.kind == kind
        assert template.language == language
        assert template.path == BUNDLED / language / f"{kind}.toml"
        assert set(template.parts) == set(PROMPT_KINDS[kind])
        for key, slots in PROMPT_KINDS[kind].items():
            assert set(SLOT.findall(template.parts[key])) == slots
            assert template.parts[key].strip()


@pytest.mark.parametrize("language", ["ja", "en"])
def test_bundled_templates_render(language: str) -> None:
    prompts = PromptSet.load(BUNDLED, language)
    text = prompts.simulator.render("system", persona="PERSONA-TEXT", question="QUESTION-TEXT")
    assert "PERSONA-TEXT" in text
    assert "QUESTION-TEXT" in text
    assert "{{" not in text


def test_misspelt_slot_names_file_and_slot(prompts_dir: Path) -> None:
    """A typo in a slot must fail on load, not be sent to a model as literal text."""
    path = write_template(
        prompts_dir, "user_simulator", 'greeting = "Hello"\nsystem = "Persona: {{persona}}\\nAsk: {{qustion}}"\n'
    )
    with pytest.raises(ConfigError) as info:
        PromptSet.load(prompts_dir, "en")
    message = str(info.value)
    assert str(path) in message
    assert "{{qustion}}" in message
    assert "{{question}}" in info.value.hint  # the allowed slots are listed


# A valid bot_rag file but for its ``no_context`` key, which each test writes.
BOT_REST = 'system = "Rules."\nturn = "{{context}} {{message}}"\nearlier_context = "e"\n'
BOT_PARTS = {"system": "s", "turn": "{{context}} {{message}}", "no_context": "n", "earlier_context": "e"}


def test_missing_slot_is_named(prompts_dir: Path) -> None:
    path = write_template(
        prompts_dir, "bot_rag", 'system = "s"\nturn = "Answer {{message}}"\nno_context = "n"\nearlier_context = "e"\n'
    )
    with pytest.raises(ConfigError) as info:
        load_prompt(prompts_dir, "en", "bot_rag")
    message = str(info.value)
    assert str(path) in message
    assert "'turn'" in message
    assert "{{context}}" in message


def test_slot_in_a_key_that_takes_none(prompts_dir: Path) -> None:
    write_template(prompts_dir, "bot_rag", BOT_REST + 'no_context = "none for {{question}}"\n')
    with pytest.raises(ConfigError, match=r"'no_context' uses unknown slot \{\{question\}\}") as info:
        load_prompt(prompts_dir, "en", "bot_rag")
    assert info.value.hint == "slots allowed here: {{product}}, {{support}}"  # the product, in any key


def test_unknown_key(prompts_dir: Path) -> None:
    path = write_template(prompts_dir, "bot_rag", BOT_REST + 'no_context = "x"\nsystme = "typo"\n')
    with pytest.raises(ConfigError) as info:
        load_prompt(prompts_dir, "en", "bot_rag")
    assert str(path) in str(info.value)
    assert "'systme'" in str(info.value)
    assert "no_context" in info.value.hint


@pytest.mark.parametrize("value", ['""', '"   "', "3"])
def test_missing_or_empty_key(prompts_dir: Path, value: str) -> None:
    write_template(prompts_dir, "bot_rag", BOT_REST + f"no_context = {value}\n")
    with pytest.raises(ConfigError, match="'no_context' is missing or empty"):
        load_prompt(prompts_dir, "en", "bot_rag")


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        PromptSet.load(tmp_path, "en")
    assert str(tmp_path / "en" / "user_simulator.toml") in str(info.value)


def test_spaces_inside_braces_count_as_the_slot() -> None:
    template = parse_prompt({**BOT_PARTS, "turn": "ctx: {{ context }} {{message}}"}, "bot_rag", "en", None)
    assert template.render("turn", context="DOCS", message="Q") == "ctx: DOCS Q"


def test_render_is_single_pass() -> None:
    """Untrusted text (a bot reply) that contains a slot must stay literal, not be expanded."""
    template = parse_prompt(
        {"system": "s", "retry": "r", "user": "C={{context}} H={{history}} Q={{question}} R={{response}}"},
        "judge_rubric",
        "en",
        None,
    )
    out = template.render(
        "user", context="real passages", history="(none)", question="{{response}}", response="see {{context}}"
    )
    assert out == "C=real passages H=(none) Q={{response}} R=see {{context}}"


def test_render_keeps_backslashes_literal() -> None:
    """Replacement text is not a regex template: backslashes and group refs stay as typed."""
    template = parse_prompt({**BOT_PARTS, "turn": "[{{context}}]{{message}}"}, "bot_rag", "en", None)
    assert template.render("turn", context=r"C:\new \1 \g<0>", message="") == r"[C:\new \1 \g<0>]"


@pytest.mark.parametrize(
    "values",
    [
        {"persona": "p"},  # one missing
        {"persona": "p", "question": "q", "extra": "x"},  # one too many
        {"persona": "p", "qustion": "q"},  # misspelt
    ],
)
def test_render_with_wrong_slots_raises(values: dict[str, str]) -> None:
    prompts = PromptSet.load(BUNDLED, "en")
    with pytest.raises(ValueError, match=r"user_simulator\.system takes slots \['persona', 'question'\]"):
        prompts.simulator.render("system", **values)


def test_render_key_without_slots() -> None:
    prompts = PromptSet.load(BUNDLED, "en")
    assert prompts.bot.render("no_context") == prompts.bot.parts["no_context"]
    with pytest.raises(ValueError):
        prompts.bot.render("no_context", context="x")


def test_a_prompt_folder_copied_before_later_keys_still_loads_them_from_the_bundled_file(prompts_dir: Path) -> None:
    """A team's scenario_generate.toml from before the proofs and the question checks: the keys it
    lacks come from the bundled file, named in ``borrowed``; its own keys stay its own."""
    data = tomllib.loads((BUNDLED / "en" / "scenario_generate.toml").read_text(encoding="utf-8"))
    for key in ("answers", "answers_system", "rewrite_expect", "probe_right_answer"):
        del data[key]
    data["system"] = "Our own writer's instructions."
    (prompts_dir / "en" / "scenario_generate.toml").write_text(tomli_w.dumps(data), encoding="utf-8")
    template = load_prompt(prompts_dir, "en", "scenario_generate")
    bundled = load_prompt(BUNDLED, "en", "scenario_generate")
    assert set(template.borrowed) == {"answers", "answers_system", "rewrite_expect", "probe_right_answer"}
    assert template.parts["answers"] == bundled.parts["answers"]
    assert template.parts["system"] == "Our own writer's instructions."
    assert bundled.borrowed == ()


def test_a_key_the_kind_had_from_the_start_is_still_required(prompts_dir: Path) -> None:
    data = tomllib.loads((BUNDLED / "en" / "scenario_generate.toml").read_text(encoding="utf-8"))
    del data["entails"]
    path = prompts_dir / "en" / "scenario_generate.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(ConfigError, match="'entails' is missing or empty") as info:
        load_prompt(prompts_dir, "en", "scenario_generate")
    assert str(path) in str(info.value)


def test_every_key_added_later_is_a_key_of_its_kind() -> None:
    for kind, keys in ADDED_LATER.items():
        assert keys <= set(PROMPT_KINDS[kind]), sorted(keys - set(PROMPT_KINDS[kind]))
