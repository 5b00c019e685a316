"""The new-session dialog's last choice, kept across restarts in a small JSON file in the user's
state folder (``$XDG_STATE_HOME/ragtui/tui-state.json``).

Only names are kept (scenario id or free question, persona, metrics): the dialog looks them up
again in the files it lists, so a renamed or deleted persona simply is not preselected. Trials are
not kept here: the file is shared by every TUI of the user, and trials chosen in one multiplied
the cost of a plain start in another, unseen. Each TUI keeps its own (``remembered``); a
``trials`` entry written by an older ragtui is ignored.
A missing or unreadable file means "no last choice"; a write that fails leaves the old file as
it was (the atomic write) and is logged, never shown as an error: it is a convenience.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path

from ..core.config import paths
from ..core.files.atomic import atomic_write_bytes

log = logging.getLogger("ragtui")
STATE_FILE = "tui-state.json"


@dataclass(frozen=True)
class LastChoice:
    scenario_id: str = ""
    persona: str = ""
    question: str = ""  # a free question, when one was typed
    metrics: tuple[str, ...] = ()
    auto_run: bool = False


def state_path() -> Path:
    return paths.state_dir() / STATE_FILE


def _read_all(path: Path) -> dict[str, object]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load_last_choice(path: Path | None = None) -> LastChoice | None:
    raw = _read_all(path or state_path()).get("new_session")
    if not isinstance(raw, dict):
        return None
    try:
        metrics = tuple(str(m) for m in raw.get("metrics", ()) if isinstance(m, str))
        return LastChoice(
            scenario_id=str(raw.get("scenario_id", "")),
            persona=str(raw.get("persona", "")),
            question=str(raw.get("question", "")),
            metrics=metrics,
            auto_run=bool(raw.get("auto_run", False)),
        )
    except (TypeError, ValueError):
        return None


def save_last_choice(choice: LastChoice, path: Path | None = None) -> None:
    target = path or state_path()
    data = _read_all(target)
    entry = asdict(choice)
    entry["metrics"] = list(choice.metrics)
    data["new_session"] = entry
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(target, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    except OSError as exc:
        log.warning("could not keep the new-session choice in %s: %s", target, exc)
