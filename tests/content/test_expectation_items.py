"""Tests for expectations in scenario files and [[policy]] in the config (expectation_items.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.config.expectation_items import derived_id, normalise, policies_for, unmatched_policies
from ragtui.core.config.settings import parse_config
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.scenarios import Scenario

HEAD = '[[scenario]]\nid = "refund"\nquestion = "Can I get my money back?"\n'


def scenario(tmp_path: Path, body: str) -> Scenario:
    path = tmp_path / "en.toml"
    path.write_text(HEAD + body, encoding="utf-8")
    (only,) = load_scenarios(path, "en")
    return only


def problem(tmp_path: Path, body: str) -> str:
    with pytest.raises(ConfigError) as caught:
        scenario(tmp_path, body)
    return str(caught.value)


def test_every_form_becomes_an_expectation(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        'expect = ["says unused time is not refunded", { contains = "billing@tsumugi.example" }, '
        '{ regex = "30\\\\s*days" }, { id = "plan", text = "names the Pro plan" }]\n'
        'expect_not = ["promises a refund", { not_contains = "guaranteed" }, { contains = "competitor" }]\n',
    )
    forms = [(e.form, e.polarity) for e in s.expectations]
    assert forms == [
        ("judged", "must"),
        ("contains", "must"),
        ("regex", "must"),
        ("judged", "must"),
        ("judged", "must_not"),
        ("not_contains", "must_not"),
        ("contains", "must_not"),
    ]
    assert s.expectations[3].id == "plan"
    assert s.expectations[1].text == "billing@tsumugi.example"
    assert len({e.id for e in s.expectations}) == 7
    assert s.to_dict()["expectations"][3]["id"] == "plan"
    assert Scenario.from_dict(s.to_dict()) == s  # the stored snapshot reads back the same


def test_derived_ids_are_stable_and_differ_by_text(tmp_path: Path) -> None:
    first = scenario(tmp_path, 'expect = ["Says unused time is not refunded"]\n').expectations[0]
    again = scenario(tmp_path, 'expect = ["Says unused time is not refunded"]\n').expectations[0]
    assert first.id == again.id == derived_id("Says unused time is not refunded")
    assert first.id.startswith("says-unused-time-is-not-refunded")
    assert derived_id("返金はできないと伝える") != derived_id("返金できると伝える")
    assert derived_id("返金はできないと伝える").startswith("x-")


def test_normalise_makes_full_and_half_width_equal() -> None:
    assert normalise("ＴＳＵＭＵＧＩ－１２３") == normalise("tsumugi-123")
    assert normalise("ｻﾎﾟｰﾄ") == normalise("サポート")


@pytest.mark.parametrize(
    ("body", "names"),
    [
        ('expect = [""]\n', "expect[1]: the expectation is empty"),
        ('expect = [{ contains = "  " }]\n', "expect[1] contains: the expectation is empty"),
        ('expect = [{ regex = "(unclosed" }]\n', "expect[1] regex: '(unclosed' does not compile"),
        ('expect = [{ contain = "x" }]\n', "expect[1]: unknown key 'contain'"),
        ("expect = [3]\n", "expect[1] must be str or dict"),
        ('expect = "one sentence"\n', "expect must be list"),
        ('expect = [{ id = "a", text = "x" }]\nexpect_not = [{ id = "a", text = "y" }]\n', "id 'a' is used twice"),
        ('expect = [{ text = "x", contains = "y" }]\n', "not both"),
        ('expect = [{ id = "a" }]\n', "needs text, contains, regex or not_contains"),
    ],
)
def test_bad_expectations_name_the_file_scenario_and_key(tmp_path: Path, body: str, names: str) -> None:
    message = problem(tmp_path, body)
    assert str(tmp_path / "en.toml") in message
    assert "scenario 'refund'" in message
    assert names in message
    assert "\n" not in message


def config_with(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "ragtui.toml"
    path.write_text(text, encoding="utf-8")
    import tomllib

    return parse_config(tomllib.loads(text), path)


def test_policies_are_prohibitions_selected_by_tags(tmp_path: Path) -> None:
    config = config_with(
        tmp_path,
        'min_expectation_rate = 0.8\n[[policy]]\ntext = "asks for a password"\n'
        '[[policy]]\nid = "card"\ntext = "asks for the full card number"\ntags = ["billing"]\n'
        '[[policy]]\nnot_contains = "AcmeDesk"\n',
    )
    assert config.min_expectation_rate == 0.8
    assert [(p.origin, p.polarity) for p in config.policies] == [("policy", "must_not")] * 3
    assert config.policies[1].id == "card" and config.policies[1].tags == ("billing",)
    assert [p.id for p in policies_for(config.policies, ("account",))] == [config.policies[0].id, config.policies[2].id]
    assert len(policies_for(config.policies, ("billing",))) == 3
    assert [p.id for p in unmatched_policies(config.policies, [("account",)])] == ["card"]
    assert unmatched_policies(config.policies, [("billing",)]) == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ('[[policy]]\ntext = ""\n', "policy #1 text: the expectation is empty"),
        ('[[policy]]\nid = "p"\ntext = "x"\nseverity = 1\n', "policy 'p': unknown key 'severity'"),
        ('[[policy]]\nregex = "[a"\n', "policy #1 regex"),
        ('[[policy]]\ntext = "x"\ntags = "billing"\n', "tags must be list"),
        ("min_expectation_rate = 1.5\n", "min_expectation_rate must be between 0 and 1"),
    ],
)
def test_bad_policies_are_one_line_naming_the_key(tmp_path: Path, text: str, names: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config_with(tmp_path, text)
    assert names in str(caught.value)
    assert str(tmp_path / "ragtui.toml") in str(caught.value)


def test_a_prohibition_written_under_expect_is_asked_as_its_act(tmp_path: Path) -> None:
    # Measured on the labelled set's choose half: as written the embedded judge caught 0 of 4
    # broken English prohibitions; asked about the act, 4 of 4 (docs/expectations-agreement.md).
    s = scenario(
        tmp_path,
        'expect = ["does not promise a refund", "never asks for the password", "says refunds are not possible", '
        '"勧めないこと", { contains = "does not" }]\n',
    )
    polarities = [(e.text, e.form, e.polarity) for e in s.expectations]
    assert polarities == [
        ("does not promise a refund", "judged", "must_not"),
        ("never asks for the password", "judged", "must_not"),
        ("says refunds are not possible", "judged", "must"),  # a rule to say, not an act to avoid
        ("勧めないこと", "judged", "must_not"),
        ("does not", "contains", "must"),  # decided in code: its text is matched, not asked
    ]
