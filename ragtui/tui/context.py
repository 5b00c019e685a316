"""What the screens need from the app.

Screens reach the shared services (config, store, endpoints, engine) through ``services(app)``
and the ``TuiServices`` protocol instead of importing the app module for its type, so the TUI's
modules import one way only: the app imports the screens, never the reverse. A screen that has
news for the app (a session deleted) posts a Textual message, which bubbles up to the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from textual.app import App

    from ..core.config.settings import Config
    from ..core.dialogue.engine import Engine
    from ..core.models.endpoints import Endpoint
    from ..core.store.store import Store


class TuiServices(Protocol):
    """The app's shared state, as screens see it (``RagtuiApp`` provides it)."""

    config: Config
    store: Store
    endpoints: dict[str, Endpoint]
    engine: Engine | None
    problem: str | None  # why dialogues cannot run, when they cannot
    connecting: str | None  # what is being connected, until the engine is ready
    remembered: dict[str, Any]  # dialogs' last choices (new session, re-judge)
    unreachable: dict[str, str]  # role → why its endpoint did not answer at start (reachability.py)

    @property
    def running_session(self) -> int | None:
        """The session a dialogue is running in right now, if any."""
        ...


def services(app: App[Any]) -> TuiServices:
    """The running app's shared state; every ragtui screen runs inside a ``RagtuiApp``."""
    return cast("TuiServices", app)
