"""What the store's helper modules need of the store: its sqlite-utils view (private to this
package: no module outside it touches the connection) and its one write transaction. They are typed against this protocol rather than ``Store``, so ``store.py`` can
call them without the two modules importing each other."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import sqlite_utils

    from ..types.judge_key import AgreementLookup


class Database(Protocol):
    @property
    def _db(self) -> sqlite_utils.Database: ...

    def write(self, action: str, fn: Callable[[], Any]) -> Any: ...

    # Reads each verdict's agreement from the judge card when it is loaded (``types.judge_key``).
    agreement_lookup: AgreementLookup | None
