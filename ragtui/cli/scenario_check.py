"""``ragtui scenarios --check [FILES]``: every scenario file and the config's policies, validated.

Checks the bundled scenario files and the configured ones (each language), or only FILES, and
the config's ``[[policy]]`` tables (a config that does not load is its own one-line error before
this runs). Prints one line per problem — a file that cannot be read, a broken ``[[scenario]]``
entry, a policy whose tags select no scenario, a generated scenario whose source passage changed
or vanished from the knowledge folder — and exits 2 on any; else a line per file read with its
counts, then ``N scenarios, M expectations, K policies: all valid`` (the sums of those lines: a
file named twice is read once). A folder among FILES stands for its language files.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.text import Text

from ..core.config.expectation_items import unmatched_policies
from ..core.config.settings import LANGUAGES, Config
from ..core.content.picking import Skipped
from ..core.content.scenarios import load_scenarios, scenario_file
from ..core.generate.source_drift import source_problems
from ..core.knowledge.folder import knowledge_root, read_folder
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.types.errors import RagtuiError
from ..core.types.scenarios import Scenario
from .output import console, error_line


def files_to_check(config: Config, given: list[Path]) -> list[tuple[Path, str]]:
    """(file, language) pairs, each file once: FILES (language from the file, "en" by default; a
    folder's language files), else the files of the languages the project uses: in the configured
    folder, each language's file that is there, and the config's language's whether or not (a
    missing one is a problem). An English-only folder is not asked for a ja.toml; the bundled
    sample is checked when it is the configured one."""
    if given:
        pairs: dict[Path, tuple[Path, str]] = {}
        for path in given:
            for file, language in _given(path):
                pairs.setdefault(file.resolve(), (file, language))  # named twice: read (and counted) once
        return list(pairs.values())
    location = config.scenarios
    if not location.is_dir():
        return [(location, config.language)]
    found: dict[Path, str] = {}
    for language in LANGUAGES:
        path = scenario_file(location, language)
        if path.is_file() or language == config.language:
            found.setdefault(path.resolve(), language)
    return list(found.items())


def _given(path: Path) -> list[tuple[Path, str]]:
    """A FILE as (file, language) pairs: a folder is each language file in it (it held only
    en.toml's scenarios before, whatever else it had); a folder with none is refused."""
    if not path.is_dir():
        return [(path, _language_of(path))]
    files = [(path / f"{language}.toml", language) for language in LANGUAGES]
    present = [(file, language) for file, language in files if file.is_file()]
    if not present:
        names = " or ".join(file.name for file, _ in files)
        raise RagtuiError(
            f"scenario folder {path} has no {names}", f"name the scenario files, or a folder holding {names}"
        )
    return present


def _source_drift(config: Config, scenarios: list[Scenario]) -> list[str]:
    """Generated scenarios whose passage changed or vanished in the configured knowledge folder."""
    generated = [s for s in scenarios if s.source is not None]
    if not generated:
        return []
    problems = []
    for language in sorted({s.language for s in generated}):
        root = knowledge_root(config.knowledge, language)
        try:
            passages = read_folder(root).passages
        except RagtuiError as exc:
            return [f"cannot check the generated scenarios' sources: {exc}"]
        problems += source_problems([s for s in generated if s.language == language], passages, str(root))
    return problems


def _language_of(path: Path) -> str:
    return path.stem if path.stem in LANGUAGES else "en"


def check_scenarios(args: argparse.Namespace, overrides: Overrides) -> int:
    config = bootstrap.load_effective_config(overrides)  # a broken policy fails here, in one line
    problems: list[str] = []
    scenarios: list[Scenario] = []
    counts: list[str] = []  # per file read: what the totals add up
    for path, language in files_to_check(config, list(args.files or [])):
        skipped: list[Skipped] = []
        try:
            read = load_scenarios(path, language, skipped)
        except RagtuiError as exc:
            if not skipped:  # the file itself (missing, not TOML, no entries)
                problems.append(str(exc))
            read = []
        scenarios += read
        counts.append(f"{path}: {len(read)} scenarios, {sum(len(s.expectations) for s in read)} expectations")
        problems += [str(s.error) for s in skipped]
    problems += _source_drift(config, scenarios)
    configured = [s for s in scenarios if not args.files] or scenarios
    for policy in unmatched_policies(config.policies, [s.tags for s in configured]):
        problems.append(
            f"{config.source or 'config'}: policy {policy.id!r} tags {', '.join(policy.tags)} match no scenario"
        )
    for problem in problems:
        error_line(problem)
    if problems:
        error_line(f"{len(problems)} problem(s)")
        return 2
    for count in counts:
        console.print(Text(count, style="dim"), soft_wrap=True)
    expectations = sum(len(s.expectations) for s in scenarios)
    line = f"{len(scenarios)} scenarios, {expectations} expectations, {len(config.policies)} policies: all valid"
    console.print(Text(line), soft_wrap=True)
    return 0
