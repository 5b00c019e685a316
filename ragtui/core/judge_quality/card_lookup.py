"""The judge card as a store's ``AgreementLookup`` (``types.judge_key``): each verdict read shows
the entry that decides its gate now (``judge_card.entry_for`` under the config's floor).

Looked up once per judge and prompt, and again after any write to the database by this or
another process (SQLite's ``data_version`` and the connection's change count): a TUI open while
``ragtui judge-card --measure`` runs in another terminal shows the new figures on its next read.
"""

from __future__ import annotations

from typing import Any

from ..store.store import Store
from ..types.agreement_floor import AgreementFloor


class CardLookup:
    def __init__(self, store: Store, floor: AgreementFloor) -> None:
        self.store = store
        self.floor = floor
        self._found: dict[tuple[str, str, str], dict[str, Any] | None] = {}
        self._seen: tuple[int, int] | None = None

    def __call__(self, metric: str, model: str, fingerprint: str) -> dict[str, Any] | None:
        seen = self.store.database_state()
        if seen != self._seen:
            self._found.clear()
            self._seen = seen
        key = (metric, model, fingerprint)
        if key not in self._found:
            # Imported at the first verdict read, not when the store opens: the card reads the
            # metric registry, and the TUI's first frame shows no verdict.
            from .judge_card import entry_for

            entry = entry_for(self.store, metric, model, fingerprint, self.floor)
            self._found[key] = entry.to_dict() if entry is not None else None
        return self._found[key]


def install_card_lookup(store: Store, floor: AgreementFloor) -> Store:
    """``store`` reading every verdict's agreement from the card under ``floor``."""
    store.agreement_lookup = CardLookup(store, floor)
    return store
