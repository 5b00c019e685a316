"""The optional parts of a verdict some views show, typed: how it was re-judged, and what the
judge said call by call when the verdict took several (the rubric's yes/no checks, a metric's
steps). Each is read once here from a judgment's ``details``, forgiving of verdicts stored by
earlier releases, so a view asks ``verdict.rejudge`` or ``verdict.replies`` and never a key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The keys of ``details`` these parts are read from.
REJUDGE, PROBES, TRACE = "rejudge", "probes", "trace"


@dataclass(frozen=True)
class Rejudge:
    """A verdict made by re-judging a stored turn rather than in the dialogue."""

    model: str  # the judge's model, as recorded ("None" when it was not)
    edited_prompt: bool  # judged with a prompt edited in the TUI, not the prompt file


@dataclass(frozen=True)
class JudgeReply:
    """One call of a verdict made of several, numbered as stored."""

    number: int
    name: str  # the check (``claim``) or the step (``statements``); "?" when not recorded
    error: str  # why the call failed, "" when it did not
    question: str | None  # a yes/no check's question; None for a step
    replies: tuple[str, ...]  # what the judge replied, in order (empty: nothing)


def rejudge_of(details: Mapping[str, Any]) -> Rejudge | None:
    raw = details.get(REJUDGE)
    if not isinstance(raw, dict):
        return None
    return Rejudge(model=str(raw.get("model")), edited_prompt=bool(raw.get("edited_prompt")))


def _probe(number: int, probe: dict[str, Any]) -> JudgeReply:
    reply = probe.get("reply", probe.get("sampled", ""))  # verdicts stored before "reply"
    return JudgeReply(
        number=number,
        name=str(probe.get("check", "?")),
        error=str(probe["error"]) if probe.get("error") else "",
        question=str(probe.get("question", "")),
        replies=(str(reply),) if reply else (),
    )


def _step(number: int, record: dict[str, Any]) -> JudgeReply:
    return JudgeReply(
        number=number,
        name=str(record.get("step", "?")),
        error=str(record["error"]) if record.get("error") else "",
        question=None,
        replies=tuple(str(r) for r in record.get("replies") or ()),
    )


def replies_of(details: Mapping[str, Any]) -> tuple[JudgeReply, ...]:
    """The rubric's yes/no checks when it recorded any, else a metric's steps; () for a verdict of
    one call (its raw reply says it all)."""
    probes, trace = details.get(PROBES), details.get(TRACE)
    if isinstance(probes, list) and probes:
        return tuple(_probe(n, p) for n, p in enumerate(probes, start=1) if isinstance(p, dict))
    if isinstance(trace, list) and trace:
        return tuple(_step(n, r) for n, r in enumerate(trace, start=1) if isinstance(r, dict))
    return ()


__all__ = ["PROBES", "REJUDGE", "TRACE", "JudgeReply", "Rejudge", "rejudge_of", "replies_of"]
