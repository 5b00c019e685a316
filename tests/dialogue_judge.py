"""A scripted judge for the dialogue metrics: replies chosen by the JSON schema's title, each
title's replies served in order (the last one repeats), so a test states what every step says."""

from __future__ import annotations

import json
from collections.abc import Callable

from ragtui.testing.fake_openai import Reply

from .conftest import check_answers, verdict


def by_schema(**replies: object) -> Callable[[dict], Reply]:
    """``by_schema(intents={"intents": [...]}, intent_check=[{...}, {...}])``: a title maps to
    one reply or a list served in order. The rubric's yes/no checks (no JSON schema) are answered
    as the shared fake judge answers them, for a turn score of 0.8."""
    queues = {title: list(value) if isinstance(value, list) else [value] for title, value in replies.items()}

    rubric = check_answers(4)

    def respond(body: dict) -> Reply:
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
