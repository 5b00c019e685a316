"""Baseline for bench_engine.py: replay chat-completion requests with a bare client.

Reads a JSON list of request bodies and sends them with ``concurrency`` workers, each request
streamed and read to the end, exactly as ragtui sends them, but with none of ragtui's work
(prompts, retrieval, parsing, SQLite). Three routes: the openai client's typed
``chat.completions.create`` (what most code uses), its generic ``post`` with dict chunks
(``--raw``), and ragtui's own route (``--sse``: models/sse.py's reader over the lean HTTP/1.1
client of models/http1.py, as ragtui takes it to a plain-http endpoint). Prints the wall time
in seconds as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

import openai


async def replay_sse(base_url: str, bodies: list[dict], concurrency: int) -> float:
    from ragtui.core.models import sse

    lanes = sse.Lanes(600.0, base_url=base_url)  # the route ragtui takes to this URL
    queue: asyncio.Queue[dict] = asyncio.Queue()
    for body in bodies:
        queue.put_nowait(body)

    async def worker() -> None:
        while not queue.empty():
            body = queue.get_nowait()
            stream = await sse.open_stream(lanes.pick(), base_url + "/chat/completions", "bench", body, 0)
            try:
                async for _chunk in stream:
                    pass
            finally:
                await stream.aclose()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    await lanes.aclose()
    return elapsed


async def replay(base_url: str, bodies: list[dict], concurrency: int, raw: bool) -> float:
    client = openai.AsyncOpenAI(base_url=base_url, api_key="bench", max_retries=0)
    queue: asyncio.Queue[dict] = asyncio.Queue()
    for body in bodies:
        queue.put_nowait(body)

    async def worker() -> None:
        while not queue.empty():
            body = dict(queue.get_nowait())
            if raw:  # the same route ragtui's client takes: generic post, chunks as dicts
                stream = await client.post(
                    "/chat/completions", body=body, cast_to=object, stream=True, stream_cls=openai.AsyncStream[dict]
                )
            else:  # the typed route most code uses
                body.pop("stream", None)
                stream = await client.chat.completions.create(stream=True, **body)
            async with stream:
                async for _chunk in stream:
                    pass

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    await client.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--requests", required=True)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--raw", action="store_true", help="use client.post with dict chunks")
    parser.add_argument("--sse", action="store_true", help="use ragtui's httpx + SSE reader, as ragtui does")
    args = parser.parse_args()
    with open(args.requests, encoding="utf-8") as handle:
        bodies = json.load(handle)
    if args.sse:
        seconds = asyncio.run(replay_sse(args.base_url, bodies, args.concurrency))
    else:
        seconds = asyncio.run(replay(args.base_url, bodies, args.concurrency, args.raw))
    print(json.dumps({"seconds": seconds}))


if __name__ == "__main__":
    main()
