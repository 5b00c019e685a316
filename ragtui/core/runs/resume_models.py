"""The models a resumed run continues with: the ones its sessions (and its plan) recorded.

Every session stores the model each role used (``config.roles``), and a run's plan the models
it was planned with. ``ragtui run --resume`` continues a dialogue with those rather than asking
for ``--model`` again (a server listing several models would otherwise refuse to guess), so the
second half of a dialogue is never run by other models than its first. ``--model`` still wins.
"""

from __future__ import annotations

from ..config.settings import Config
from ..store import run_plan
from ..store.store import Store
from ..types.errors import RagtuiError


def recorded_models(store: Store, run_id: str) -> dict[str, str]:
    """role → the one model the run's sessions and plan recorded for it. Roles that ran the
    embedded model are left out (it is chosen by having no endpoint, not by name). Empty for an
    unknown run; a role recorded with two models is refused (only ``--model`` can choose)."""
    found: dict[str, set[str]] = {}
    for session in store.sessions(run_id=run_id):
        for role, endpoint in (session.config.get("roles") or {}).items():
            if isinstance(endpoint, dict) and not endpoint.get("embedded") and endpoint.get("model"):
                found.setdefault(role, set()).add(str(endpoint["model"]))
    for entry in run_plan.entries(store, run_id):
        if entry.session_id is None:  # the plan's models matter only for what has no session yet
            for role, model in entry.models.items():
                found.setdefault(role, set()).add(model)
    mixed = {role: sorted(models) for role, models in found.items() if len(models) > 1}
    if mixed:
        shown = "; ".join(f"{role}: {', '.join(models)}" for role, models in sorted(mixed.items()))
        raise RagtuiError(
            f"run {run_id} in database {store.path} was run with several models ({shown})",
            "choose the model to continue with: pass --model NAME",
        )
    return {role: models.pop() for role, models in found.items()}


def use_recorded_models(config: Config, models: dict[str, str]) -> None:
    """Make each role's recorded model the config's choice for it (above ``[endpoint]``,
    ``OPENAI_MODEL`` and discovery; below ``--model``, which the caller checks)."""
    for role, model in models.items():
        if role in config.roles:
            config.roles[role].model = model
