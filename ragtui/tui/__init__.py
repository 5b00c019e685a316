"""The Textual TUI. ``run_tui`` is what ``ragtui`` with no subcommand starts.

Only this package imports Textual; ``ragtui.core`` stays importable without it. Start-up is
split so the first frame comes quickly: the config and the database are opened here (a problem
with either is one line and exit 2), the app shows its screen at once, and the model endpoints,
the embedded model and the engine (the OpenAI client and the metrics) come after, while the
header says "connecting…".
"""

from __future__ import annotations

from ..core.runs.bootstrap import Overrides

__all__ = ["run_tui"]


def run_tui(overrides: Overrides) -> int:
    """Open the app; a setup error (config, database) is one line on stderr and exit 2.

    An endpoint problem is *not* fatal: the app opens anyway, says what to set, and stays
    usable for reading sessions and editing personas.
    """
    from ..core.runs.bootstrap import load_effective_config, open_store
    from ..core.types.errors import RagtuiError
    from .app import RagtuiApp

    try:
        config = load_effective_config(overrides)
        store = open_store(config)
    except RagtuiError as exc:
        from ..core.text.text_safety import error_line

        error_line(f"ragtui: error: {exc}")
        return 2
    app = RagtuiApp(config, None, store, overrides=overrides)
    try:
        app.run()
    finally:
        if app.local_model is not None:
            app.local_model.stop()
        store.close()
    return 0
