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

# The parts of a session's replay note (stored, so their wording is part of the record), which
# ``replay_summary`` counts by.
RAN_OUT = "ran out after turn"
ENDED_DONE = "ended in DONE at turn"
TOOK_OVER = "the simulator took over"
STOPPED = "stopped there"
AS_RECORDED = "replayed as recorded"


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
                    f"the recording of {source} {RAN_OUT} {len(self.messages)}; {TOOK_OVER} from turn {turn}"
                )
                return None
            self.notes.append(f"the recording of {source} {RAN_OUT} {len(self.messages)}; {STOPPED}")
            raise ReplayEnded
        text = self.messages[turn - 1]
        if turn > 1 and is_done(text):
            if self.then_simulate:
                self.handed_over = True
                self.notes.append(f"the recording of {source} {ENDED_DONE} {turn}; {TOOK_OVER} from there")
                return None
            self.notes.append(f"the recording of {source} {ENDED_DONE} {turn}; {AS_RECORDED}")
        return text

    @property
    def note(self) -> str | None:
        return "; ".join(self.notes) or None


def replay_summary(notes: list[str | None]) -> str:
    """A replay run's sessions' notes counted by what happened, each as its note says it: a
    recorded DONE re-sent is the whole recording reused, not one that could not be; "" when no
    session has a note. Read with the sessions' own notes, which give the turns."""
    kinds = {
        "re-sent a recorded DONE as recorded (whether the new answers satisfied the customer is not known)": (
            ENDED_DONE,
            AS_RECORDED,
        ),
        f"did not reuse a recorded DONE ({TOOK_OVER} at that turn)": (ENDED_DONE, TOOK_OVER),
        "stopped where the recording ran out": (RAN_OUT, STOPPED),
        f"went on past the end of the recording ({TOOK_OVER})": (RAN_OUT, TOOK_OVER),
    }
    # A session's note joins its notes with "; " (each "the recording of …"): one kind each.
    each = [note.split("; the recording of ") for note in notes if note]
    parts = []
    for said, (what, then) in kinds.items():
        count = sum(1 for session in each if any(f"{what} " in n and then in n for n in session))
        if count:
            parts.append(f"{count} {said}")
    return "; ".join(parts)
