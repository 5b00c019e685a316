"""Turning what the user typed (a run id, a unique prefix, ``last``, ``previous``) into a run id."""

from __future__ import annotations

from ..errors import RagtuiError
from ..record.store import Store


def resolve_run(store: Store, ref: str) -> str:
    """The run id ``ref`` names; a RagtuiError naming the database when it names none."""
    runs = store.run_ids()
    where = f"database {store.path}" if store.path else "the database"
    if not runs:
        raise RagtuiError(f"{where} has no runs yet", "start one with `ragtui run`")
    if ref == "last":
        return runs[-1]
    if ref == "previous":
        if len(runs) < 2:
            raise RagtuiError(f"{where} has only one run ({runs[-1]}), so there is no previous one", "run again")
        return runs[-2]
    if ref in runs:
        return ref
    matches = [r for r in runs if r.startswith(ref)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise RagtuiError(f"run {ref!r} is ambiguous in {where}: {', '.join(matches[:5])}", "type more of the id")
    raise RagtuiError(f"no run {ref!r} in {where}", "list them with `ragtui runs`; `last` and `previous` work too")
