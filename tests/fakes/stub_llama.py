"""A stand-in for llama.cpp's server inside the shared embedded-server process (``--backend
stub``): the fake OpenAI server plus what ragtui uses of llama.cpp's own API — ``/health``
without a key, ``/props`` and ``/slots`` with it, and the API key on every other route.

It lets tests run the real process lifecycle (start, attach, leases, SIGKILL, stale state
files) in milliseconds and without the 1.1 GB model. Chat replies come from
``schema_responder``: plain text, or JSON that fits the request's schema (the judge's).
"""

from __future__ import annotations

import asyncio
import hmac

from stand_ins import fake_openai
from stand_ins.fake_openai import FakeOpenAIServer


class StubLlamaServer(FakeOpenAIServer):
    def __init__(self, host: str, port: int, token: str, alias: str, parallel: int) -> None:
        super().__init__(host, port)
        self.token = token
        self.alias = alias
        self.parallel = parallel

    async def _respond(self, request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        keep_alive = request.keep_alive
        path = request.path.split("?")[0].rstrip("/")
        if path in ("/health", "/v1/health"):
            writer.write(fake_openai._json_response(200, {"status": "ok"}, keep_alive))
        elif self.token and not hmac.compare_digest(request.headers.get("authorization", ""), f"Bearer {self.token}"):
            error = {"error": {"code": 401, "message": "Invalid API Key", "type": "authentication_error"}}
            writer.write(fake_openai._json_response(401, error, keep_alive))
        elif path == "/props":
            props = {"model_alias": self.alias, "total_slots": self.parallel, "model_path": "stub"}
            writer.write(fake_openai._json_response(200, props, keep_alive))
        elif path == "/slots":
            slots = [{"id": i, "is_processing": False} for i in range(self.parallel)]
            writer.write(fake_openai._json_response(200, slots, keep_alive))  # type: ignore[arg-type]
        else:
            return await super()._respond(request, reader, writer)
        await writer.drain()
        return keep_alive


def serve(host: str, port: int, token: str, alias: str, parallel: int) -> str:
    """Start serving in a background thread; return the listening address like llama.cpp's."""
    server = StubLlamaServer(host, port, token, alias, parallel)
    server.set_default(None, fake_openai.schema_responder)
    server.start()
    _keep.append(server)
    return f"http://{host}:{server.port}"


_keep: list[StubLlamaServer] = []
