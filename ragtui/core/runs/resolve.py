"""Turning what the user typed (a run id, a unique prefix, ``last``, ``previous``) into a run id."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..judge_quality.card_lookup import install_card_lookup
from ..store import run_plan
from ..store.store import Store
from ..types.agreement_floor import AgreementFloor
from ..types.errors import RagtuiError, StoreError


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


def resolve_resumable(store: Store, ref: str) -> str:
    """The run ``ragtui run --resume REF`` continues: as ``resolve_run`` (an id, a unique prefix,
    ``last``, ``previous``), and also a run whose plan was stored but whose processes were killed
    before any dialogue started (it has no session, so only its plan names it)."""
    if ref == "last":
        latest = store.latest_run_id()
        if latest is not None:
            return latest
    try:
        return resolve_run(store, ref)
    except RagtuiError:
        if run_plan.entries(store, ref):
            return ref
        raise


@dataclass(frozen=True)
class RunReference:
    """What the user typed for a run: ``REF`` in the database in use, or ``FILE:REF`` in another
    one (``base.db:last``); a bare path to an existing file stands for its ``last`` run."""

    database: Path | None
    ref: str

    def __str__(self) -> str:
        return f"{self.database}:{self.ref}" if self.database is not None else self.ref


def split_reference(text: str) -> RunReference:
    """Split at the last colon: run ids never hold one, paths may (``C:\\runs\\a.db:last``)."""
    path, colon, ref = text.rpartition(":")
    if colon and path and ref:
        return RunReference(Path(path), ref)
    if not colon and Path(text).is_file():
        return RunReference(Path(text), "last")
    return RunReference(None, text)


def open_referenced(
    reference: RunReference, default: Store | None, floor: AgreementFloor | None = None
) -> tuple[Store, str]:
    """The store the reference names (``default`` without a file) and the run id in it; one
    RagtuiError naming the file and the reference when either names nothing. Another database
    opened here reads its verdicts' agreement from its card under ``floor``."""
    if reference.database is None:
        if default is None:
            raise RagtuiError(f"run {reference.ref!r} names no database", "write it as FILE:RUN")
        return default, resolve_run(default, reference.ref)
    if (
        default is not None
        and default.path is not None
        and reference.database.exists()
        and reference.database.resolve() == default.path.resolve()
    ):
        return default, resolve_run(default, reference.ref)
    try:
        store = Store.open_read_only(reference.database)
    except StoreError as exc:
        raise StoreError(f"{reference}: {exc.message}", exc.hint) from None
    if floor is not None:
        install_card_lookup(store, floor)  # its verdicts read against its own card
    try:
        return store, resolve_run(store, reference.ref)
    except RagtuiError:
        store.close()
        raise
