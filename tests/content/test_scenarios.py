"""Tests for scenarios (scenarios.py): bundled files and validation of hand-written ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.config import paths
from ragtui.core.content.scenarios import adhoc_scenario, load_scenarios, pick_scenarios
from ragtui.core.types.errors import ConfigError

BUNDLED = paths.bundled_dir("sample_data") / "scenarios"


def write(tmp_path: Path, text: str, language: str = "en") -> Path:
    path = tmp_path / f"{language}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_bundled_ja_has_the_seed_questions() -> None:
    scenarios = {s.id: s for s in load_scenarios(BUNDLED, "ja")}
    assert {"useless", "multiple-accounts", "id-linking"} <= set(scenarios)
    assert scenarios["useless"].question == "本当に役立たず。イライラするんだけど。"
    assert scenarios["id-linking"].question == "どのようにTsumugiと外部サービスのID連携ができるのか？"
    assert scenarios["multiple-accounts"].question.startswith("複数のアカウントを持っていた場合")
    assert scenarios["useless"].reference is None  # reference = "" means none
    assert scenarios["id-linking"].reference
    assert scenarios["id-linking"].tags == ("seed", "account", "linking")


@pytest.mark.parametrize("language", ["ja", "en"])
def test_every_bundled_scenario_is_usable(language: str) -> None:
    scenarios = load_scenarios(BUNDLED, language)
    assert len(scenarios) >= 3
    assert len({s.id for s in scenarios}) == len(scenarios)
    for scenario in scenarios:
        assert scenario.question.strip()
        assert scenario.question == scenario.question.strip()
        assert scenario.language == language


def test_single_file_location(tmp_path: Path) -> None:
    """``scenarios`` may point at one file instead of a folder of <language>.toml files."""
    path = write(tmp_path, '[[scenario]]\nid = "a"\nquestion = "  Why?  "\ntags = ["x"]\n', "mine")
    (scenario,) = load_scenarios(path, "en")
    assert (scenario.id, scenario.question, scenario.language, scenario.tags) == ("a", "Why?", "en", ("x",))
    assert scenario.to_dict() == {
        "id": "a",
        "question": "Why?",
        "language": "en",
        "reference": None,
        "tags": ["x"],
        "expectations": [],
    }


def test_duplicate_id_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, '[[scenario]]\nid = "a"\nquestion = "one"\n[[scenario]]\nid = "a"\nquestion = "two"\n')
    with pytest.raises(ConfigError) as info:
        load_scenarios(tmp_path, "en")
    message = str(info.value)
    assert str(path) in message
    assert "scenario #2" in message
    assert "'a' is used twice" in message


def test_missing_question_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, '[[scenario]]\nid = "a"\nreference = "r"\n')
    with pytest.raises(ConfigError, match="scenario 'a': missing key 'question'") as info:
        load_scenarios(tmp_path, "en")
    assert str(path) in str(info.value)


def test_blank_question_rejected(tmp_path: Path) -> None:
    write(tmp_path, '[[scenario]]\nid = "a"\nquestion = "   "\n')
    with pytest.raises(ConfigError, match="question is empty"):
        load_scenarios(tmp_path, "en")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[[scenario]]\nid = "has space"\nquestion = "q"\n', "id 'has space' is not valid"),
        ('[[scenario]]\nid = "a"\nquestion = "q"\nanswer = "x"\n', "unknown key 'answer'"),
        ('[[scenario]]\nid = 1\nquestion = "q"\n', "id must be str"),
        ('[[scenario]]\nid = "a"\nquestion = "q"\ntags = "x"\n', "tags must be list"),
        ('language = "en"\n', "has no [[scenario]] entries"),
        ('[[scenarios]]\nid = "a"\nquestion = "q"\n', "unknown key 'scenarios'"),
    ],
)
def test_invalid_files(tmp_path: Path, text: str, fragment: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_scenarios(tmp_path, "en")
    assert fragment in str(info.value)
    assert str(path) in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist") as info:
        load_scenarios(tmp_path, "ja")
    assert str(tmp_path / "ja.toml") in str(info.value)


def test_pick_scenarios() -> None:
    scenarios = load_scenarios(BUNDLED, "ja")
    assert pick_scenarios(scenarios, None) == scenarios
    assert [s.id for s in pick_scenarios(scenarios, ["id-linking", "useless"])] == ["id-linking", "useless"]


def test_pick_unknown_scenario_lists_known_ids() -> None:
    scenarios = load_scenarios(BUNDLED, "ja")
    with pytest.raises(ConfigError, match="unknown scenario 'id-linkng'") as info:
        pick_scenarios(scenarios, ["id-linkng"])
    assert "id-linking" in info.value.hint
    assert "multiple-accounts" in info.value.hint


def test_adhoc_scenario() -> None:
    scenario = adhoc_scenario("  How do I log in?\n", "en")
    assert (scenario.id, scenario.question, scenario.language, scenario.tags) == (
        "adhoc",
        "How do I log in?",
        "en",
        ("adhoc",),
    )
