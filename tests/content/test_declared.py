"""Each file format is declared once, as the dataclass ragtui works with: reading a file, a flag
that sets a key and a stored snapshot all go through that declaration."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from ragtui.core.config.declared import FileForm, declare, file_keys
from ragtui.core.config.reader import override, read
from ragtui.core.config.settings import Config, parse_config
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.scenarios import Scenario

FLAGS = {"min_expectation_rate": "--min-expectation-rate", "language": "--language"}


def test_a_flag_is_checked_by_its_keys_declaration_and_named_in_the_message() -> None:
    with pytest.raises(ConfigError) as info:
        override(Config(), {"min_expectation_rate": 1.5}, FLAGS)
    assert info.value.message == "--min-expectation-rate must be between 0 and 1, got 1.5"
    with pytest.raises(ConfigError) as info:
        override(Config(), {"language": "fr"}, FLAGS)
    assert info.value.message == "--language must be one of ja, en, got 'fr'"


def test_an_override_is_a_new_config_with_the_rest_kept(tmp_path: Path) -> None:
    config = parse_config({"max_turns": 5, "threshold": 0.6}, tmp_path / "ragtui.toml")
    changed = override(config, {"min_expectation_rate": 0.9, "database": tmp_path / "x.db"}, FLAGS)
    assert (changed.min_expectation_rate, changed.max_turns, changed.threshold) == (0.9, 5, 0.6)
    assert changed.database == (tmp_path / "x.db").resolve()
    assert config.min_expectation_rate == 0.0  # the original is untouched


def test_paths_are_relative_to_the_file_and_arrays_of_a_tuple_field_are_tuples(tmp_path: Path) -> None:
    config = parse_config(
        {"database": "data/r.db", "product": {"name": " Kumo "}, "policy": [{"text": "asks for a password"}]},
        tmp_path / "conf" / "ragtui.toml",
    )
    assert config.database == (tmp_path / "conf" / "data" / "r.db").resolve()
    assert config.named_product.name == "Kumo"
    assert isinstance(config.policies, tuple) and config.policies[0].polarity == "must_not"
    assert config.source == tmp_path / "conf" / "ragtui.toml"


def test_a_scenario_read_from_its_file_is_the_scenario_its_snapshot_gives_back(tmp_path: Path) -> None:
    (tmp_path / "en.toml").write_text(
        '[[scenario]]\nid = "refund"\nquestion = "Can I get a refund?"\nreference = " No. "\ntags = ["billing"]\n'
        'status = "draft"\nkind = "factual"\nexpect = ["says no refund", { contains = "30 days" }]\n'
        'source = { file = "refunds.md", quote = "No refunds." }\n'
        'follow_up = { question = " And after 30 days? ", reference = "Still no." }\n',
        encoding="utf-8",
    )
    [scenario] = load_scenarios(tmp_path, "en")
    assert (scenario.reference, scenario.tags, scenario.language, scenario.draft) == ("No.", ("billing",), "en", True)
    assert scenario.source is not None and (scenario.source.heading, scenario.source.passage_hash) == ("", "")
    assert scenario.follow_up is not None and scenario.follow_up.question == "And after 30 days?"
    assert Scenario.from_dict(scenario.to_dict()) == scenario


def test_a_form_may_only_name_fields_its_class_has() -> None:
    @dataclass
    class Table:
        size: int = 1

    with pytest.raises(TypeError, match="names fields it does not have: sizes"):
        declare(Table, FileForm(keys={"sizes": "size"}))


def test_a_key_spelt_otherwise_is_the_one_the_file_allows(tmp_path: Path) -> None:
    assert "policy" in file_keys(Config) and "policies" not in file_keys(Config)
    assert "source" not in file_keys(Config)  # set by the reader, never by the file
    with pytest.raises(ConfigError, match="unknown key 'policies'"):
        read(Config, {"policies": []}, "f", top_level=True)
