"""Replay: a customer who re-sends a recorded dialogue's messages, verbatim and in order.

Two bot versions then answer exactly the same conversation, so a score change is the bot's,
not the simulated customer's. The recording cannot always be reused to the end:
- it *ran out*: the recorded dialogue stopped (error, cancel, fewer turns) before this one;
- it *ended in DONE*: the recorded customer was satisfied by the old bot's answer; whether
  the new bot's answer satisfies them is exactly what is unknown.
Either is noted on the session. With ``then_simulate`` the simulator takes over from that
turn (it decides about DONE itself); without it, a recording that ran out stops the dialogue
(``replay_end``) and a recorded DONE is replayed as recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..types.turns import is_done


class ReplayEnded(Exception):
    """The recording has no message for this turn and the simulator may not take over."""


@dataclass
class ReplayScript:
    source_session_id: int
    messages: list[str]  # the recorded customer messages, turn 1 first
    then_simulate: bool = False
    handed_over: bool = False  # the simulator writes every turn from here on
    notes: list[str] = field(default_factory=list)

    def next_message(self, turn: int) -> str | None:
        """The recorded message for ``turn``; None when the simulator takes over from here.
        Raises ReplayEnded when the recording ran out and nothing may take over."""
        if self.handed_over:
            return None
        source = f"session {self.source_session_id}"
        if turn > len(self.messages):
            if self.then_simulate:
                self.handed_over = True
                self.notes.append(
                    f"the recording of {source} ran out after turn {len(self.messages)}; "
                    f"the simulator took over from turn {turn}"
                )
                return None
            self.notes.append(f"the recording of {source} ran out after turn {len(self.messages)}; stopped there")
            raise ReplayEnded
        text = self.messages[turn - 1]
        if turn > 1 and is_done(text):
            if self.then_simulate:
                self.handed_over = True
                self.notes.append(
                    f"the recording of {source} ended in DONE at turn {turn}; the simulator took over from there"
                )
                return None
            self.notes.append(f"the recording of {source} ended in DONE at turn {turn}; replayed as recorded")
        return text

    @property
    def note(self) -> str | None:
        return "; ".join(self.notes) or None
