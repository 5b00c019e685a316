"""The Textual TUI. ``run_tui`` is what ``ragtui`` with no subcommand starts.

Only this package imports Textual; ``ragtui.core`` stays importable without it.
"""

from __future__ import annotations

import contextlib

from ..core.bootstrap import Overrides, endpoints_for, load_effective_config, open_store
from ..core.errors import RagtuiError

__all__ = ["run_tui"]


def run_tui(overrides: Overrides) -> int:
    """Open the app; a setup error (config, database) is one line on stderr and exit 2.

    An endpoint problem is *not* fatal: the app opens anyway, says what to set, and stays
    usable for reading sessions and editing personas.
    """
    from ..cli.model_start import embedded_model
    from ..cli.output import error_line
    from .app import RagtuiApp

    try:
        config = load_effective_config(overrides)
        store = open_store(config)
    except RagtuiError as exc:
        error_line(f"ragtui: error: {exc}")
        return 2
    endpoint_error: str | None = None
    local_model = None
    try:
        endpoints = endpoints_for(config, overrides)
    except RagtuiError as exc:
        endpoints, endpoint_error = {}, f"No usable endpoint: {exc}"
    try:
        with contextlib.ExitStack() as stack:
            if endpoints and endpoint_error is None:
                # Started before the app so its progress shows on the plain terminal; a model
                # that cannot start leaves the app usable for sessions and personas.
                try:
                    local_model = stack.enter_context(embedded_model(config, endpoints))
                except RagtuiError as exc:
                    endpoint_error = f"The embedded model could not start: {exc}"
            RagtuiApp(config, endpoints, store, endpoint_error=endpoint_error, local_model=local_model).run()
    finally:
        store.close()
    return 0
