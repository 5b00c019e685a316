"""Scenarios: the customer's opening question, with an optional reference answer and tags.

``scenarios/<language>.toml`` holds ``[[scenario]]`` tables with ``id``, ``question``,
optional ``reference``, ``tags``, and the team's expectations ``expect`` / ``expect_not``
(see ``expectation_items`` and docs/expectations.md).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, model_validator

from ..config.config_file import Language
from ..config.expectation_items import ScenarioItem, unique_ids
from ..config.toml_io import read_toml
from ..config.validation import TomlTable, invalid, validate
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


class ScenarioFile(TomlTable):
    """``scenarios/<language>.toml``: its entries are read one by one (:class:`ScenarioTable`), so
    one broken entry can be skipped."""

    named_arrays = frozenset({"scenario"})
    language: Language | None = None
    scenario: list[dict[str, Any]] = []
    # The ids of generated drafts a reviewer rejected: generating again does not add them back.
    rejected: list[str] = []


class SourceTable(TomlTable):
    """A generated scenario's ``source``: where its reference comes from."""

    file: str
    heading: str = ""
    page: int | None = None
    quote: str
    passage_hash: str = ""  # empty for a source that is a conversation
    run: str = ""  # a conversation's: its imported run, session, id and line or row in ``file``
    session: int | None = None
    conversation: str = ""
    line: int | None = None
    unit: str = ""

    def source(self) -> ScenarioSource:
        where = (self.run, self.session, self.conversation, self.line, self.unit)
        return ScenarioSource(self.file, self.heading, self.quote, self.passage_hash, self.page, *where)


class FollowUpTable(TomlTable):
    """A scenario's ``follow_up``: the customer's planned turn 2, with its own reference."""

    question: Annotated[str, AfterValidator(question_text)]
    reference: str = ""
    quote: str = ""
    passage_hash: str = ""
    heading: str = ""

    def follow_up(self) -> FollowUp:
        return FollowUp(self.question.strip(), self.reference.strip(), self.quote, self.passage_hash, self.heading)


class ScenarioTable(TomlTable):
    """One ``[[scenario]]`` entry."""

    id: Annotated[str, AfterValidator(scenario_id)]
    question: Annotated[str, AfterValidator(question_text)]
    reference: str = ""
    tags: list[str] = []
    language: Language | None = None
    expect: list[ScenarioItem] = []
    expect_not: list[ScenarioItem] = []
    # A generated scenario: a draft until a person accepts it, its kind and where it came from.
    status: Literal["draft", "accepted"] = "accepted"
    kind: str = ""
    source: SourceTable | None = None
    follow_up: FollowUpTable | None = None

    @model_validator(mode="after")
    def _unique_ids(self) -> ScenarioTable:
        unique_ids([*self.expect, *self.expect_not])
        return self

    def scenario(self, file_language: str) -> Scenario:
        expectations = [e.expectation("must") for e in self.expect] + [
            e.expectation("must_not") for e in self.expect_not
        ]
        language = self.language or file_language
        return Scenario(
            self.id,
            self.question,
            language,
            self.reference.strip() or None,
            tuple(self.tags),
            tuple(expectations),
            status=self.status,
            kind=self.kind,
            source=self.source.source() if self.source is not None else None,
            follow_up=self.follow_up.follow_up() if self.follow_up is not None else None,
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
    data = validate(ScenarioFile, read_toml(path, "scenario file"), where, top_level=True)
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
    return validate(ScenarioTable, table, named).scenario(file_language)


def pick_scenarios(
    scenarios: list[Scenario], ids: list[str] | None, skipped: list[Skipped] | None = None
) -> list[Scenario]:
    """The scenarios with these ids (all when empty); an id whose entry was skipped as broken
    is that entry's error."""
    return pick_named(scenarios, ids, lambda s: s.id, "scenario", skipped or ())


def adhoc_scenario(question: str, language: str) -> Scenario:
    """A one-off scenario from a question typed by the operator."""
    return Scenario(id="adhoc", question=question.strip(), language=language, tags=("adhoc",))
