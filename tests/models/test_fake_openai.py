"""Tests for the fake OpenAI server, driven through the official ``openai`` client.

Using the real client is the point: these tests pin down that the fake is close enough to the
real API for the client's parsing, streaming, retry and timeout paths, which is what ragtui's
own tests rely on.

What the ``openai`` client (3.x, on ``httpx2``) raises, as established here:

* a stream cut mid-body (``Reply(cut_after_chunks=N)``): ``openai.APIConnectionError`` while
  iterating, caused by ``httpx2.RemoteProtocolError`` ("peer closed connection without
  sending complete message body (incomplete chunked read)"), sync and async alike; a
  non-streaming request whose connection is dropped raises the same exception at ``create()``
  ("Server disconnected without sending a response.");
* a server that never answers (``Reply(hang=True)``) with ``timeout=0.5``:
  ``openai.APITimeoutError`` (a subclass of ``APIConnectionError``), caused by
  ``httpx2.ReadTimeout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import math
import socket
import threading
from collections.abc import Iterator

import openai
import pytest

from stand_ins.fake_openai import FakeOpenAIServer, Reply, demo_responder, schema_responder

API_KEY = "sk-test-key"
USER = [{"role": "user", "content": "hello there"}]


@pytest.fixture(scope="module")
def shared_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def server(shared_server: FakeOpenAIServer) -> FakeOpenAIServer:
    """One server for the module, reset per test: clear() exists for exactly this use."""
    shared_server.clear()
    return shared_server


@pytest.fixture(scope="module")
def client(shared_server: FakeOpenAIServer) -> Iterator[openai.OpenAI]:
    # Shared because building an OpenAI client costs ~0.1 s (SSL context and all).
    with openai.OpenAI(base_url=shared_server.base_url, api_key=API_KEY, max_retries=0, timeout=5) as sync_client:
        yield sync_client


def test_non_stream_reply(server: FakeOpenAIServer, client: openai.OpenAI) -> None:
    server.script("bot", Reply("hello world"))

    completion = client.chat.completions.create(model="bot", messages=USER)

    assert completion.object == "chat.completion"
    assert completion.model == "bot"
    choice = completion.choices[0]
    assert (choice.message.role, choice.message.content, choice.finish_reason) == ("assistant", "hello world", "stop")
    assert completion.usage is not None
    assert completion.usage.prompt_tokens == math.ceil(len("hello there") / 4)
    assert completion.usage.completion_tokens == math.ceil(len("hello world") / 4)
    assert completion.usage.total_tokens == completion.usage.prompt_tokens + completion.usage.completion_tokens


def test_stream_reassembles_text_and_reports_usage(server: FakeOpenAIServer, client: openai.OpenAI) -> None:
    text = "The quick brown fox jumps over the lazy dog."
    server.script("bot", Reply(text, chunk_chars=5))

    chunks = list(
        client.chat.completions.create(model="bot", messages=USER, stream=True, stream_options={"include_usage": True})
    )

    assert all(chunk.object == "chat.completion.chunk" for chunk in chunks)
    assert chunks[0].choices[0].delta.role == "assistant"
    content = [chunk.choices[0].delta.content for chunk in chunks if chunk.choices and chunk.choices[0].delta.content]
    assert "".join(content) == text
    assert len(content) == math.ceil(len(text) / 5)
    assert [chunk.choices[0].finish_reason for chunk in chunks if chunk.choices][-1] == "stop"
    final = chunks[-1]
    assert final.choices == []
    assert final.usage is not None
    assert final.usage.completion_tokens == math.ceil(len(text) / 4)
    assert all(chunk.usage is None for chunk in chunks[:-1])


def test_stream_without_include_usage_has_no_usage_chunk(server: FakeOpenAIServer, client: openai.OpenAI) -> None:
    server.script("bot", Reply("abc"))

    chunks = list(client.chat.completions.create(model="bot", messages=USER, stream=True))

    assert all(chunk.choices and chunk.usage is None for chunk in chunks)


def test_script_queues_are_fifo_per_model_then_fall_back(server: FakeOpenAIServer, client: openai.OpenAI) -> None:
    seen: list[dict] = []

    def echo_model(body: dict) -> Reply:
        seen.append(body)
        return Reply(f"responder for {body['model']}")

    server.script("a", Reply("a1"), Reply("a2"))
    server.script("b", Reply("b1"), echo_model)
    server.set_default("a", Reply("a default"))

    def ask(model: str) -> str | None:
        return client.chat.completions.create(model=model, messages=USER).choices[0].message.content

    assert [ask("b"), ask("a"), ask("b"), ask("a"), ask("a"), ask("a")] == [
        "b1",
        "a1",
        "responder for b",
        "a2",
        "a default",
        "a default",
    ]
    assert seen[0]["messages"] == USER
    # Model "b" has no default and no global default is set: schema_responder answers.
    assert ask("b") == "Reply to: hello there"
    server.set_default(None, Reply("global"))
    assert ask("b") == "global"
    assert ask("a") == "a default"


@pytest.mark.parametrize(("status", "exception"), [(429, openai.RateLimitError), (500, openai.InternalServerError)])
@pytest.mark.parametrize("stream", [False, True])
def test_error_statuses_surface_as_openai_errors(
    server: FakeOpenAIServer, client: openai.OpenAI, status: int, exception: type[openai.APIStatusError], stream: bool
) -> None:
    server.script("bot", Reply(status=status, error_message="slow down", headers={"retry-after": "0"}))

    with pytest.raises(exception) as caught:
        client.chat.completions.create(model="bot", messages=USER, stream=stream)

    error = caught.value
    assert error.status_code == status
    assert "slow down" in error.message
    assert isinstance(error.body, dict)
    assert error.body["message"] == "slow down"
    assert error.body["type"] == ("requests" if status == 429 else "server_error")
    assert error.response.headers["retry-after"] == "0"


def test_client_retries_on_429_then_succeeds(server: FakeOpenAIServer) -> None:
    # openai 3.x ignores "retry-after: 0" (it only honours 0 < delay) and backs off ~0.5 s;
    # "retry-after-ms" lets the retry happen at once.
    server.script("bot", Reply(status=429, headers={"retry-after-ms": "1"}), Reply("after retry"))
    with openai.OpenAI(base_url=server.base_url, api_key=API_KEY, max_retries=1) as retrying:
        completion = retrying.chat.completions.create(model="bot", messages=USER)

    assert completion.choices[0].message.content == "after retry"
    assert len(server.chat_requests("bot")) == 2


def test_cut_stream_raises_api_connection_error(server: FakeOpenAIServer, client: openai.OpenAI) -> None:
    """The client yields the chunks that arrived, then raises APIConnectionError (caused by
    httpx2.RemoteProtocolError: incomplete chunked read)."""
    server.script("bot", Reply("0123456789abcdef", chunk_chars=4, cut_after_chunks=2))

    received: list[str] = []
    with pytest.raises(openai.APIConnectionError) as caught:
        for chunk in client.chat.completions.create(model="bot", messages=USER, stream=True):
            received.append(chunk.choices[0].delta.content or "")

    assert not isinstance(caught.value, openai.APITimeoutError)
    assert "".join(received) == "01234567"
    assert "RemoteProtocolError" in type(caught.value.__cause__).__name__
    # The server keeps serving on fresh connections afterwards.
    assert client.chat.completions.create(model="bot", messages=USER).choices[0].message.content


def test_dropped_non_stream_request_raises_api_connection_error(
    server: FakeOpenAIServer, client: openai.OpenAI
) -> None:
    server.script("bot", Reply(cut_after_chunks=0))

    with pytest.raises(openai.APIConnectionError):
        client.chat.completions.create(model="bot", messages=USER)


@pytest.mark.asyncio
async def test_cut_stream_raises_api_connection_error_async(server: FakeOpenAIServer) -> None:
    server.script("bot", Reply("0123456789", chunk_chars=2, cut_after_chunks=3))
    received: list[str] = []
    async with openai.AsyncOpenAI(base_url=server.base_url, api_key=API_KEY, max_retries=0) as async_client:
        stream = await async_client.chat.completions.create(model="bot", messages=USER, stream=True)
        with pytest.raises(openai.APIConnectionError):
            async for chunk in stream:
                received.append(chunk.choices[0].delta.content or "")

    assert "".join(received) == "012345"


def test_hang_with_client_timeout_raises_api_timeout_error(server: FakeOpenAIServer) -> None:
    """A request that is never answered raises APITimeoutError (caused by httpx2.ReadTimeout)."""
    server.script("bot", Reply(hang=True))
    impatient = openai.OpenAI(base_url=server.base_url, api_key=API_KEY, max_retries=0, timeout=0.5)
    with impatient, pytest.raises(openai.APITimeoutError):
        impatient.chat.completions.create(model="bot", messages=USER)


def test_stop_closes_hanging_connections() -> None:
    received = threading.Event()

    def hang(body: dict) -> Reply:
        received.set()
        return Reply(hang=True)

    fake = FakeOpenAIServer(default=hang).start()
    try:
        payload = json.dumps({"model": "bot", "messages": USER}).encode()
        with socket.create_connection(("127.0.0.1", fake.port), timeout=5) as sock:
            sock.sendall(
                b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n%s" % (len(payload), payload)
            )
            assert received.wait(5)
            fake.stop()
            # stop() aborts the connection, which the client may see as RST rather than EOF.
            with contextlib.suppress(ConnectionResetError):
                assert sock.recv(1024) == b""
    finally:
        fake.stop()


def test_delays_are_applied_server_side(server: FakeOpenAIServer, client: openai.OpenAI) -> None:
    server.script("bot", Reply("abcdef", chunk_chars=2, delay_first=0.05, delay_per_chunk=0.02))

    stream = client.chat.completions.create(model="bot", messages=USER, stream=True)
    text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)

    assert text == "abcdef"


JUDGE_SCHEMA = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["pass", "fail"]},
        "score": {"type": "integer", "enum": [1, 2, 3, 4, 5]},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "reason": {"type": "string", "minLength": 10},
        "flags": {"type": "array", "items": {"$ref": "#/$defs/Flag"}, "minItems": 2},
        "escalate": {"type": "boolean"},
        "note": {"anyOf": [{"type": "null"}, {"type": "string"}]},
        "turns": {"type": "integer", "minimum": 3},
    },
    "required": ["verdict", "score", "reason", "flags"],
    "additionalProperties": False,
    "$defs": {
        "Flag": {
            "type": "object",
            "properties": {"kind": {"type": "string", "enum": ["tone", "accuracy"]}, "weight": {"type": "integer"}},
            "required": ["kind", "weight"],
        }
    },
}


def _check_judge_instance(instance: dict) -> None:
    assert set(instance) == set(JUDGE_SCHEMA["properties"])
    assert instance["verdict"] == "pass"
    assert instance["score"] == 5  # integer enums pick the maximum
    assert instance["confidence"] == 0
    assert isinstance(instance["reason"], str) and len(instance["reason"]) >= 10
    assert len(instance["flags"]) == 2
    assert all(flag == {"kind": "tone", "weight": 1} for flag in instance["flags"])
    assert instance["escalate"] is True
    assert isinstance(instance["note"], str)
    assert instance["turns"] == 3


def test_schema_responder_builds_valid_instances() -> None:
    body = {
        "model": "judge",
        "messages": USER,
        "response_format": {"type": "json_schema", "json_schema": {"name": "verdict", "schema": JUDGE_SCHEMA}},
    }
    _check_judge_instance(json.loads(schema_responder(body).text))

    assert json.loads(schema_responder({"messages": USER, "response_format": {"type": "json_object"}}).text) == {
        "ok": True
    }
    long_message = {"role": "user", "content": "x" * 100}
    assert schema_responder({"messages": [*USER, long_message]}).text == "Reply to: " + "x" * 40
    assert schema_responder({"messages": []}).text == "ok"


def test_schema_responder_through_the_client(server: FakeOpenAIServer, client: openai.OpenAI) -> None:
    completion = client.chat.completions.create(
        model="judge",
        messages=USER,
        response_format={"type": "json_schema", "json_schema": {"name": "verdict", "schema": JUDGE_SCHEMA}},
    )

    content = completion.choices[0].message.content
    assert content is not None
    _check_judge_instance(json.loads(content))


@pytest.mark.asyncio
async def test_fifty_concurrent_streams(server: FakeOpenAIServer) -> None:
    def echo(body: dict) -> Reply:
        return Reply(f"answer to {body['messages'][-1]['content']}")

    server.set_default("bot", echo)

    async with openai.AsyncOpenAI(base_url=server.base_url, api_key=API_KEY, max_retries=0) as async_client:

        async def ask(index: int) -> str:
            stream = await async_client.chat.completions.create(
                model="bot",
                messages=[{"role": "user", "content": f"question {index}"}],
                stream=True,
                stream_options={"include_usage": True},
            )
            return "".join([chunk.choices[0].delta.content or "" async for chunk in stream if chunk.choices])

        answers = await asyncio.gather(*(ask(index) for index in range(50)))

    assert answers == [f"answer to question {index}" for index in range(50)]
    assert len(server.chat_requests("bot")) == 50


def test_requests_are_recorded(server: FakeOpenAIServer, client: openai.OpenAI) -> None:
    client.chat.completions.create(model="bot", messages=USER, temperature=0.2)
    client.chat.completions.create(model="other", messages=USER)

    first = server.requests[0]
    assert (first.method, first.path) == ("POST", "/v1/chat/completions")
    assert first.headers["authorization"] == f"Bearer {API_KEY}"
    assert first.headers["content-type"] == "application/json"
    assert first.body == {"model": "bot", "messages": USER, "temperature": 0.2}
    assert [body["model"] for body in server.chat_requests()] == ["bot", "other"]
    assert server.chat_requests("other") == [{"model": "other", "messages": USER}]

    server.script("bot", Reply("queued"))
    server.clear()
    assert server.requests == [] and server.chat_requests() == []
    assert client.chat.completions.create(model="bot", messages=USER).choices[0].message.content != "queued"


def test_models_list(server: FakeOpenAIServer, client: openai.OpenAI) -> None:
    server.script("alpha", Reply())
    server.set_default("beta", Reply())

    assert [model.id for model in client.models.list()] == ["alpha", "beta", "fake-model"]


def test_keep_alive_unknown_paths_and_connection_close(server: FakeOpenAIServer) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        connection.request("GET", "/v1/nope")
        response = connection.getresponse()
        error = json.loads(response.read())
        assert response.status == 404
        assert set(error["error"]) >= {"message", "type", "code"}
        assert error["error"]["type"] == "invalid_request_error"

        # Same socket again (keep-alive), then ask the server to close it.
        connection.request("GET", "/v1/models", headers={"Connection": "close"})
        response = connection.getresponse()
        assert response.status == 200
        assert response.getheader("connection") == "close"
        assert json.loads(response.read())["object"] == "list"
    finally:
        connection.close()
    assert [request.path for request in server.requests] == ["/v1/nope", "/v1/models"]


def test_invalid_json_body_is_a_400(server: FakeOpenAIServer) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        connection.request(
            "POST", "/v1/chat/completions", body=b"{not json", headers={"Content-Type": "application/json"}
        )
        response = connection.getresponse()
        assert response.status == 400
        assert json.loads(response.read())["error"]["type"] == "invalid_request_error"
    finally:
        connection.close()


def test_the_standalone_servers_demo_answers_judge_checks_with_probabilities() -> None:
    """`python -m stand_ins.fake_openai` serves demo_responder: a one-token check that asks
    for logprobs gets a yes/no distribution (deterministic per request), anything else the
    schema responder's reply."""
    check = {
        "messages": [{"role": "user", "content": "Does the reply answer the question? Answer yes or no:"}],
        "max_tokens": 1,
        "logprobs": True,
        "top_logprobs": 5,
    }
    first, again = demo_responder(check), demo_responder(check)
    assert first.logprobs == again.logprobs and first.logprobs is not None
    token, top = first.logprobs[0]
    assert set(top) == {"yes", "no"} and token in top
    assert abs(sum(math.exp(lp) for lp in top.values()) - 1.0) < 1e-9
    other = demo_responder({**check, "messages": [{"role": "user", "content": "Another turn. yes or no?"}]})
    assert other.logprobs is not None and other.logprobs[0][1] != top
    chat = {"messages": [{"role": "user", "content": "How do I reset my password?"}]}
    assert demo_responder(chat).text == schema_responder(chat).text
