"""Which roles' endpoints did not answer when the TUI started, and what to say about it.

``ragtui run`` checks every endpoint before its first dialogue; the TUI must not make its first
frame wait for that, so the app asks each server in the background once the engine is ready
(``preflight.unreachable_roles``: one ``GET /models`` per server, no chat request). A role
found unreachable is named in the header, said in the status line, and a step that would call
it says so before sending; the first reply that role sends clears it. Free of Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.dialogue.progress import ROLE_NAMES
from .safe_text import one_line

if TYPE_CHECKING:
    from ..core.config.settings import Config
    from ..core.dialogue.events import Event
    from ..core.dialogue.state_machine import Dialogue
    from ..core.models.endpoints import Endpoint


def roles_to_check(config: Config, endpoints: dict[str, Endpoint]) -> dict[str, Endpoint]:
    """The endpoints dialogues will call: not the bot role's when the bot is another type (an
    HTTP service, a Python function), nor the embedded model's, which ragtui started itself."""
    from ..core.registry.bots import uses_bot_role

    uses_bot = uses_bot_role(config.bot.type)
    return {role: e for role, e in endpoints.items() if not e.embedded and (role != "bot" or uses_bot)}


def status_note(unreachable: dict[str, str]) -> str:
    """The status line's warning: the roles by name, and why the first one failed."""
    names = " and ".join(ROLE_NAMES.get(role, role) for role in unreachable)
    why = one_line(next(iter(unreachable.values())), 140)
    return f"⚠ Not reachable at start: {names} endpoint ({why})."


def next_call(dialogue: Dialogue) -> str | None:
    """The role whose endpoint the next step calls; None when it calls none (the scenario's
    first question, a replayed customer message)."""
    role = dialogue.phase.value
    if role == "finished" or (role == "user" and (dialogue.turn == 0 or dialogue.replay is not None)):
        return None
    return role


def before_step(dialogue: Dialogue, unreachable: dict[str, str]) -> str | None:
    """What to say before sending a step to an endpoint found unreachable at start."""
    role = next_call(dialogue)
    if role is None or role not in unreachable:
        return None
    name = ROLE_NAMES.get(role, role)
    return f"The {name} endpoint did not answer at start ({one_line(unreachable[role], 200)}); trying it now."


def answered(event: Event) -> str | None:
    """The role an event shows has answered (its endpoint is reachable after all), if any."""
    from ..core.dialogue.events import MessageDone, VerdictReady

    if isinstance(event, MessageDone) and event.usage is not None:
        return event.role
    if isinstance(event, VerdictReady) and event.judgment.error is None:
        return "judge"
    return None
