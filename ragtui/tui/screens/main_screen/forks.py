"""f: fork the open session after a turn the person picks (``dialogs.fork_screen``), continuing
live as a new session — with another persona, or another bot model."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ....core.content.picking import Skipped
from ....core.registry.bots import uses_bot_role
from ....core.store.lineage import lineage_lines
from ....core.types.errors import RagtuiError
from ...dialogs.fork_screen import ForkRequest, ForkScreen

if TYPE_CHECKING:
    from ....core.dialogue.state_machine import Dialogue
    from .host import MainHost

    _Base = MainHost
else:
    _Base = object


class Forks(_Base):
    # Declared again here: mypy takes an assignment in a subclass of a protocol as a new
    # declaration, typed by the first value assigned, unless the subclass declares it.
    dialogue: Dialogue | None

    def action_fork(self) -> None:
        engine = self.ragtui.engine
        if self.session_id is None:
            self.notify_plain("No session open: open one with o, then press f to fork it.", "warning")
            return
        if engine is None:
            self.notify_plain(self.ragtui.problem or "No endpoint: a fork continues live.", "warning")
            return
        if self.running:
            self.notify_plain("A dialogue is running: pause (p) or cancel (c) it first.", "warning")
            return
        try:
            session = self.ragtui.store.session(self.session_id)
            # Imported on the first fork: reading personas is not needed for the first frame.
            from ....core.content.persona_folders import folders_of, load_merged

            skipped: list[Skipped] = []  # a broken persona file is left out: the fork can use the others
            personas = load_merged(folders_of(self.ragtui.config), session.language, skipped)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        for s in skipped:
            self.notify_plain(f"Skipped persona {s.name!r}: {s.error}", "warning")
        last = max((m.turn for m in session.messages), default=0)
        if last == 0:
            self.notify_plain("This session has no turn yet to fork from.", "warning")
            return
        bot_endpoint = engine.endpoints.get("bot")
        model = bot_endpoint.model if bot_endpoint is not None and uses_bot_role(self.ragtui.config.bot.type) else None
        screen = ForkScreen(session.id, last, personas, session.persona_name, model)
        self.app.push_screen(screen, self._start_fork)

    def _start_fork(self, request: ForkRequest | None) -> None:
        engine = self.ragtui.engine
        if request is None or engine is None or self.session_id is None:
            return
        note: dict[str, object] | None
        bot, note = None, None
        if request.bot_model is not None:
            endpoint = dataclasses.replace(engine.endpoints["bot"], model=request.bot_model)
            roles = {role: e.public() for role, e in {**engine.endpoints, "bot": endpoint}.items()}
            try:
                from ....core.bots.factory import build_bot  # the LLM client: not at start-up

                bot = build_bot(
                    self.ragtui.config,
                    {**engine.endpoints, "bot": endpoint},
                    engine.pool,
                    engine.prompts,
                    lambda: engine.knowledge,
                )
            except RagtuiError as exc:
                self.notify_plain(str(exc), "error")
                return
            note = {"roles": roles}
        try:
            dialogue = engine.fork_dialogue(
                self.session_id, request.turn, persona=request.persona, bot=bot, config_note=note
            )
            session = self.ragtui.store.session(dialogue.session_id)
            lineage = lineage_lines(self.ragtui.store, session)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        self.dialogue = dialogue
        self.view.replay(session)
        self.refresh_state()
        self.set_status(f"Session #{session.id}: {'; '.join(lineage)}. s: step · a: auto-run")
        self.notify_plain(f"Forked session #{session.id} from #{session.parent_session_id} after turn {request.turn}")


__all__ = ["Forks"]
