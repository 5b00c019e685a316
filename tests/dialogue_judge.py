"""A scripted judge for the dialogue metrics: replies chosen by the JSON schema's title, each
title's replies served in order (the last one repeats), so a test states what every step says.
Resolution's one-token steps keep their old titles (``intent_check``, ``handover_check``): a
scripted ``{"satisfied": "yes"}`` is answered as the one word yes, a number as P(yes)."""

from __future__ import annotations

import json
from collections.abc import Callable

from stand_ins.fake_openai import Reply
from tests.fakes.rubric_checks import dialogue_step

from .conftest import check_answers, verdict, yes_no_reply


def by_schema(**replies: object) -> Callable[[dict], Reply]:
    """``by_schema(intents={"intents": [...]}, intent_check=[{...}, {...}])``: a title maps to
    one reply or a list served in order. The rubric's yes/no checks (no JSON schema) are answered
    as the shared fake judge answers them, for a turn score of 0.8."""
    queues = {title: list(value) if isinstance(value, list) else [value] for title, value in replies.items()}

    rubric = check_answers(4)

    def respond(body: dict) -> Reply:
        step = dialogue_step(body) if "response_format" not in body else None
        if step is not None:
            queue = queues.get(step)
            if not queue:
                return Reply(f"no scripted reply for {step!r}")
            return step_reply(queue.pop(0) if len(queue) > 1 else queue[0])
        if "response_format" not in body:
            return rubric(body)
        fmt = body.get("response_format") or {}
        title = (fmt.get("json_schema") or {}).get("name", "")
        if title == "rubric_verdict" and title not in queues:
            return Reply(verdict(4))
        queue = queues.get(title)
        if not queue:
            return Reply(f"no scripted reply for {title!r}")
        value = queue.pop(0) if len(queue) > 1 else queue[0]
        return Reply(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))

    return respond


def step_reply(value: object) -> Reply:
    """A one-token step's answer: from a scripted step dict (its yes/no field), a P(yes), or text."""
    if isinstance(value, dict):
        answer = next((v for k, v in value.items() if k != "reason"), "no")
        value = 1.0 if answer == "yes" else 0.0
    if isinstance(value, int | float):
        return yes_no_reply(float(value))
    return Reply(str(value))
