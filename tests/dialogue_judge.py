"""A scripted judge for the dialogue metrics: replies chosen by the JSON schema's title, each
title's replies served in order (the last one repeats), so a test states what every step says."""

from __future__ import annotations

import json
from collections.abc import Callable

from ragtui.testing.fake_openai import Reply

from .conftest import verdict


def by_schema(**replies: object) -> Callable[[dict], Reply]:
    """``by_schema(intents={"intents": [...]}, intent_check=[{...}, {...}])``: a title maps to
    one reply or a list served in order. The rubric always gets a passing verdict."""
    queues = {title: list(value) if isinstance(value, list) else [value] for title, value in replies.items()}

    def respond(body: dict) -> Reply:
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
