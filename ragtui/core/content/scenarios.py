"""Scenarios: the customer's opening question, with an optional reference answer and tags.

``scenarios/<language>.toml`` holds ``[[scenario]]`` tables with ``id``, ``question``,
optional ``reference`` and ``tags``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..config import LANGUAGES
from ..errors import ConfigError
from ..toml_io import expect_type, read_toml, reject_unknown_keys
from .picking import pick_named

ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
KEYS = {"id", "question", "reference", "tags", "language"}


@dataclass(frozen=True)
class Scenario:
    id: str
    question: str
    language: str
    reference: str | None = None
    tags: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "question": self.question,
            "language": self.language,
            "reference": self.reference,
            "tags": list(self.tags),
        }


def scenario_file(location: Path, language: str) -> Path:
    """``location`` is a folder of ``<language>.toml`` files, or one file."""
    return location / f"{language}.toml" if location.is_dir() else location


def load_scenarios(location: Path, language: str) -> list[Scenario]:
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
        expect_type(table, dict, at)
        reject_unknown_keys(table, KEYS, at)
        if "id" not in table or "question" not in table:
            raise ConfigError(f"{at}: needs both 'id' and 'question'")
        sid = expect_type(table["id"], str, f"{at} id")
        if not ID.match(sid):
            raise ConfigError(f"{at}: id {sid!r} is not valid", "use letters, digits, '-', '_' or '.'")
        if sid in seen:
            raise ConfigError(f"{at}: id {sid!r} is used twice")
        seen.add(sid)
        question = expect_type(table["question"], str, f"{at} question").strip()
        if not question:
            raise ConfigError(f"{at}: question is empty")
        reference = expect_type(table.get("reference", ""), str, f"{at} reference").strip() or None
        tags = tuple(
            expect_type(t, str, f"{at} tags[]") for t in expect_type(table.get("tags", []), list, f"{at} tags")
        )
        scenario_language = expect_type(table.get("language", file_language), str, f"{at} language")
        if scenario_language not in LANGUAGES:
            raise ConfigError(f"{at}: language must be one of {', '.join(LANGUAGES)}, got {scenario_language!r}")
        scenarios.append(Scenario(sid, question, scenario_language, reference, tags))
    if not scenarios:
        raise ConfigError(f"{where} has no [[scenario]] entries")
    return scenarios


def pick_scenarios(scenarios: list[Scenario], ids: list[str] | None) -> list[Scenario]:
    return pick_named(scenarios, ids, lambda s: s.id, "scenario")


def adhoc_scenario(question: str, language: str) -> Scenario:
    """A one-off scenario from a question typed by the operator."""
    return Scenario(id="adhoc", question=question.strip(), language=language, tags=("adhoc",))
