"""Scenarios: the customer's opening question, with an optional reference answer and tags.

``scenarios/<language>.toml`` holds ``[[scenario]]`` tables with ``id``, ``question``,
optional ``reference``, ``tags``, and the team's expectations ``expect`` / ``expect_not``
(see ``expectation_items`` and docs/expectations.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..config.config_file import Language
from ..config.declared import FileForm, WrittenAs, declare
from ..config.expectation_items import ScenarioItem, unique_ids
from ..config.reader import read
from ..config.rules import after, invalid, stripped
from ..config.toml_io import read_toml
from ..types.errors import ConfigError
from ..types.scenarios import FollowUp, Scenario, ScenarioSource
from .picking import Skipped, pick_named

ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def scenario_id(sid: str) -> str:
    if not ID.match(sid):
        raise invalid(f"{sid!r} is not valid", "use letters, digits, '-', '_' or '.'")
    return sid


def question_text(text: str) -> str:
    if not text.strip():
        raise invalid("is empty")
    return text.strip()


def none_when_blank(text: str | None) -> str | None:
    return (text or "").strip() or None


@dataclass(frozen=True)
class ScenarioFile:
    """``scenarios/<language>.toml``: its entries are read one by one (``Scenario``), so one
    broken entry can be skipped."""

    language: Language | None = None
    scenario: list[dict[str, Any]] = field(default_factory=list)
    # The ids of generated drafts a reviewer rejected: generating again does not add them back.
    rejected: list[str] = field(default_factory=list)


declare(ScenarioFile, FileForm(named_arrays=frozenset({"scenario"})))


def _source(values: dict[str, Any], context: Mapping[str, Any]) -> dict[str, Any]:
    """A source written by hand may leave out its heading, and a conversation's its passage hash."""
    return {"heading": "", "passage_hash": "", **values}


# A generated scenario's ``source``: where its reference comes from (``types.scenarios``).
declare(ScenarioSource, FileForm(optional=frozenset({"heading", "passage_hash"}), finish=_source))
# A scenario's ``follow_up``: the customer's planned turn 2, with its own reference.
declare(FollowUp, FileForm(rules={"question": (after(question_text),), "reference": (after(stripped),)}))


def _expectations_and_language(values: dict[str, Any], context: Mapping[str, Any]) -> dict[str, Any]:
    """``expect`` then ``expect_not`` make the scenario's expectations; its language is the
    file's unless it names its own."""
    expect, expect_not = values.pop("expect", []), values.pop("expect_not", [])
    expectations = [e.expectation("must") for e in expect] + [e.expectation("must_not") for e in expect_not]
    if "language" not in values:
        values["language"] = context["language"]  # the file's (``load_scenarios`` passes it)
    return {**values, "expectations": tuple(expectations)}


def _unique_expectation_ids(scenario: Scenario) -> None:
    unique_ids(scenario.expectations)


# One ``[[scenario]]`` entry is a ``Scenario`` (``types.scenarios``), its expectations written as
# ``expect`` and ``expect_not`` (``expectation_items``).
declare(
    Scenario,
    FileForm(
        omit=frozenset({"expectations"}),
        optional=frozenset({"language"}),
        rules={
            "id": (after(scenario_id),),
            "question": (after(question_text),),
            "language": (WrittenAs(Language),),
            "reference": (after(none_when_blank),),
            "status": (WrittenAs(Literal["draft", "accepted"]),),
        },
        extra={"expect": list[ScenarioItem], "expect_not": list[ScenarioItem]},
        after=(_unique_expectation_ids,),
        finish=_expectations_and_language,
    ),
)


def scenario_file(location: Path, language: str) -> Path:
    """``location`` is a folder of ``<language>.toml`` files, or one file."""
    return location / f"{language}.toml" if location.is_dir() else location


def load_scenarios(location: Path, language: str, skipped: list[Skipped] | None = None) -> list[Scenario]:
    """The scenarios of one language. A file that cannot be read raises; so does the first
    broken ``[[scenario]]`` entry, unless ``skipped`` is given: then each broken entry is left
    out and listed there, so one half-written scenario does not stop the others."""
    path = scenario_file(location, language)
    where = str(path)
    data = read(ScenarioFile, read_toml(path, "scenario file"), where, top_level=True)
    file_language = data.language or language
    scenarios: list[Scenario] = []
    seen: set[str] = set()
    for index, table in enumerate(data.scenario, start=1):
        try:
            scenario = _scenario(table, f"{where}: scenario #{index}", file_language, seen)
        except ConfigError as exc:
            if skipped is None:
                raise
            sid = table.get("id")
            skipped.append(Skipped(sid if isinstance(sid, str) else f"#{index}", exc))
            continue
        seen.add(scenario.id)
        scenarios.append(scenario)
    if not scenarios:
        if skipped:
            raise skipped[0].error  # nothing left to run: the first problem is the error
        raise ConfigError(f"{where} has no [[scenario]] entries")
    return scenarios


def _scenario(table: dict[str, Any], at: str, file_language: str, seen: set[str]) -> Scenario:
    """One entry; it is named by its id in messages once the id is a valid one."""
    sid = table.get("id")
    named = f"{at.rsplit(': ', 1)[0]}: scenario {sid!r}" if isinstance(sid, str) and ID.match(sid) else at
    if sid in seen:
        raise ConfigError(f"{at}: id {sid!r} is used twice")
    return read(Scenario, table, named, language=file_language)


def pick_scenarios(
    scenarios: list[Scenario], ids: list[str] | None, skipped: list[Skipped] | None = None
) -> list[Scenario]:
    """The scenarios with these ids (all when empty); an id whose entry was skipped as broken
    is that entry's error."""
    return pick_named(scenarios, ids, lambda s: s.id, "scenario", skipped or ())


def adhoc_scenario(question: str, language: str) -> Scenario:
    """A one-off scenario from a question typed by the operator."""
    return Scenario(id="adhoc", question=question.strip(), language=language, tags=("adhoc",))
