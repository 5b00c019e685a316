"""The scenarios and personas a run (or its estimate) asked for, loading past broken files.

A persona file or scenario entry that is broken is named on one warning line and left out,
so one half-written file does not stop every run; when it is one the command line asks for
(``-p NAME``, ``-s ID``), its problem is the error.
"""

from __future__ import annotations

from ..core.config.expectation_items import unmatched_policies
from ..core.config.settings import Config
from ..core.content.persona_folders import folders_of, load_merged
from ..core.content.personas import pick_personas
from ..core.content.picking import Skipped
from ..core.content.scenarios import load_scenarios, pick_scenarios
from ..core.types.errors import ConfigError
from ..core.types.personas import Persona
from ..core.types.scenarios import Scenario
from .output import error_line


def pick_content(
    config: Config,
    scenario_ids: list[str],
    persona_names: list[str],
    *,
    warn: bool = True,
    include_drafts: bool = False,
) -> tuple[list[Scenario], list[Persona]]:
    """(scenarios, personas) chosen; ``warn`` False for a worker process, whose parent warns.
    Draft scenarios (generated, not yet accepted) run when named with ``-s`` or with
    ``include_drafts``; otherwise they are left out, and said so."""
    skipped_personas: list[Skipped] = []
    skipped_scenarios: list[Skipped] = []
    personas = load_merged(folders_of(config), config.language, skipped_personas)
    scenarios = load_scenarios(config.scenarios, config.language, skipped_scenarios)
    check_policy_tags(config, scenarios)
    chosen_personas = pick_personas(personas, persona_names, skipped_personas)
    chosen_scenarios = pick_scenarios(scenarios, scenario_ids, skipped_scenarios)
    drafts = [s for s in chosen_scenarios if s.draft]
    if drafts and not scenario_ids and not include_drafts:
        chosen_scenarios = [s for s in chosen_scenarios if not s.draft]
        if warn:
            error_line(
                f"ragtui: {len(drafts)} draft scenario(s) left out (generated, not yet accepted); "
                '--include-drafts runs them; a person accepts one by setting its status = "accepted"'
            )
        if not chosen_scenarios:
            raise ConfigError(
                f"every scenario in {config.scenarios} is a draft",
                'set status = "accepted" on the ones you reviewed, or run them anyway with --include-drafts',
            )
    if not chosen_personas and skipped_personas:
        raise skipped_personas[0].error  # nothing left to run: the first broken file is the error
    if warn:
        for kind, skipped in (("persona", skipped_personas), ("scenario", skipped_scenarios)):
            for s in skipped:
                error_line(f"ragtui: warning: skipped {kind} {s.name!r}: {s.error}")
    return chosen_scenarios, chosen_personas


def check_policy_tags(config: Config, scenarios: list[Scenario]) -> None:
    """A ``[[policy]]`` whose tags select none of the scenarios is a typo, caught before any call."""
    for policy in unmatched_policies(config.policies, [s.tags for s in scenarios]):
        raise ConfigError(
            f"{config.source or 'config'}: policy {policy.id!r} tags {', '.join(policy.tags)} match no scenario "
            f"in {config.scenarios}",
            "fix the tags, or drop them so the policy applies to every scenario",
        )
