"""Scenarios: the customer's opening question, with an optional reference answer and tags.

``scenarios/<language>.toml`` holds ``[[scenario]]`` tables with ``id``, ``question``,
optional ``reference``, ``tags``, and the team's expectations ``expect`` / ``expect_not``
(see ``expectation_items`` and docs/expectations.md).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..config.expectation_items import parse_items
from ..config.settings import LANGUAGES
from ..config.toml_io import expect_type, read_toml, reject_unknown_keys
from ..types.errors import ConfigError
from ..types.scenarios import Scenario
from .picking import Skipped, pick_named

ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
KEYS = {"id", "question", "reference", "tags", "language", "expect", "expect_not"}


def scenario_file(location: Path, language: str) -> Path:
    """``location`` is a folder of ``<language>.toml`` files, or one file."""
    return location / f"{language}.toml" if location.is_dir() else location


def load_scenarios(location: Path, language: str, skipped: list[Skipped] | None = None) -> list[Scenario]:
    """The scenarios of one language. A file that cannot be read raises; so does the first
    broken ``[[scenario]]`` entry, unless ``skipped`` is given: then each broken entry is left
    out and listed there, so one half-written scenario does not stop the others."""
    path = scenario_file(location, language)
    data = read_toml(path, "scenario file")
    where = str(path)
    reject_unknown_keys(data, {"language", "scenario"}, where)
    file_language = expect_type(data.get("language", language), str, f"{where}: language")
    tables = expect_type(data.get("scenario", []), list, f"{where}: scenario")
    scenarios: list[Scenario] = []
    seen: set[str] = set()
    for index, table in enumerate(tables, start=1):
        at = f"{where}: scenario #{index}"
        try:
            scenario = _scenario(table, at, file_language, seen)
        except ConfigError as exc:
            if skipped is None:
                raise
            sid = table.get("id") if isinstance(table, dict) else None
            skipped.append(Skipped(sid if isinstance(sid, str) else f"#{index}", exc))
            continue
        seen.add(scenario.id)
        scenarios.append(scenario)
    if not scenarios:
        if skipped:
            raise skipped[0].error  # nothing left to run: the first problem is the error
        raise ConfigError(f"{where} has no [[scenario]] entries")
    return scenarios


def _scenario(raw: object, at: str, file_language: str, seen: set[str]) -> Scenario:
    table: dict[str, Any] = expect_type(raw, dict, at)
    reject_unknown_keys(table, KEYS, at)
    if "id" not in table or "question" not in table:
        raise ConfigError(f"{at}: needs both 'id' and 'question'")
    sid = expect_type(table["id"], str, f"{at} id")
    if not ID.match(sid):
        raise ConfigError(f"{at}: id {sid!r} is not valid", "use letters, digits, '-', '_' or '.'")
    if sid in seen:
        raise ConfigError(f"{at}: id {sid!r} is used twice")
    question = expect_type(table["question"], str, f"{at} question").strip()
    if not question:
        raise ConfigError(f"{at}: question is empty")
    reference = expect_type(table.get("reference", ""), str, f"{at} reference").strip() or None
    tags = tuple(expect_type(t, str, f"{at} tags[]") for t in expect_type(table.get("tags", []), list, f"{at} tags"))
    scenario_language = expect_type(table.get("language", file_language), str, f"{at} language")
    if scenario_language not in LANGUAGES:
        raise ConfigError(f"{at}: language must be one of {', '.join(LANGUAGES)}, got {scenario_language!r}")
    named = f"{at.rsplit(': ', 1)[0]}: scenario {sid!r}"
    ids: set[str] = set()
    expectations = [
        *parse_items(table.get("expect", []), named, "expect", polarity="must", seen=ids),
        *parse_items(table.get("expect_not", []), named, "expect_not", polarity="must_not", seen=ids),
    ]
    return Scenario(sid, question, scenario_language, reference, tags, tuple(expectations))


def pick_scenarios(
    scenarios: list[Scenario], ids: list[str] | None, skipped: list[Skipped] | None = None
) -> list[Scenario]:
    """The scenarios with these ids (all when empty); an id whose entry was skipped as broken
    is that entry's error."""
    return pick_named(scenarios, ids, lambda s: s.id, "scenario", skipped or ())


def adhoc_scenario(question: str, language: str) -> Scenario:
    """A one-off scenario from a question typed by the operator."""
    return Scenario(id="adhoc", question=question.strip(), language=language, tags=("adhoc",))
