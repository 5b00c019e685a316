"""The HTTP bot against a faulty loopback server: every bad response becomes one BotError
line with the status and a bounded snippet, retries happen as configured, secrets never show."""

from __future__ import annotations

import json

import pytest

from ragtui.core.bots.errors import SNIPPET_CHARS, BotError
from ragtui.core.bots.http_bot import HttpBot
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.turns import Utterance

from ..bot_servers import FaultyServer, http_bot

HISTORY = [Utterance("user", "How do I link my account?")]


async def failure(bot: HttpBot, deltas: list[str] | None = None) -> BotError:
    try:
        with pytest.raises(BotError) as info:
            await bot.answer(HISTORY, on_delta=deltas.append if deltas is not None else None)
    finally:
        await bot.aclose()
    message = str(info.value)
    assert "\n" not in message and len(info.value.snippet) <= SNIPPET_CHARS
    return info.value


async def test_non_json_names_the_status_and_shows_the_start_of_the_body(faulty: FaultyServer):
    error = await failure(http_bot(faulty.url("nonjson")))
    assert "did not send JSON" in str(error) and "HTTP 200" in str(error)
    assert error.snippet.startswith("<html><body>Internal portal login")


async def test_non_utf8_is_an_error_not_mangled_text(faulty: FaultyServer):
    assert "not valid UTF-8" in str(await failure(http_bot(faulty.url("latin1"))))


async def test_answer_path_that_matches_nothing(faulty: FaultyServer):
    error = await failure(http_bot(faulty.url("nomatch"), answer_path="data.answer"))
    assert "answer_path 'data.answer' matches nothing" in str(error)
    assert "somewhere else" in error.snippet


async def test_answer_path_that_reaches_an_object(faulty: FaultyServer):
    assert "is a dict, not text" in str(await failure(http_bot(faulty.url("notext"))))


async def test_404_is_not_retried(faulty: FaultyServer):
    error = await failure(http_bot(faulty.url("missing"), max_retries=3))
    assert error.status == 404 and "HTTP 404" in str(error) and "no route /missing" in str(error)
    assert len(faulty.requests) == 1


async def test_500_then_success_is_retried(faulty: FaultyServer):
    bot = http_bot(faulty.url("flaky"), max_retries=1)
    answer = await bot.answer(HISTORY)
    await bot.aclose()
    assert answer.text == "Fine." and faulty.counts["flaky"] == 2


async def test_429_is_retried(faulty: FaultyServer):
    bot = http_bot(faulty.url("limited"), max_retries=1)
    assert (await bot.answer(HISTORY)).text == "Fine."
    await bot.aclose()


async def test_500_forever_gives_up_after_the_retries(faulty: FaultyServer):
    error = await failure(http_bot(faulty.url("broken"), max_retries=2))
    assert error.status == 500 and "HTTP 500" in str(error) and "boom" in error.snippet
    assert error.snippet.endswith("…") and len(faulty.requests) == 3


async def test_redirect_to_another_host_is_refused(faulty: FaultyServer):
    error = await failure(http_bot(faulty.url("redirect-away")))
    assert "redirected to another host (localhost instead of 127.0.0.1)" in str(error)
    assert [path for path, _, _ in faulty.requests] == ["/redirect-away"]


async def test_redirect_on_the_same_host_is_followed(faulty: FaultyServer):
    bot = http_bot(faulty.url("redirect-same"))
    assert (await bot.answer(HISTORY)).text == "Fine."
    await bot.aclose()
    assert [path for path, _, _ in faulty.requests] == ["/redirect-same", "/ok"]


async def test_timeout(faulty: FaultyServer):
    error = await failure(http_bot(faulty.url("hang"), timeout=0.3))
    assert "did not answer within 0.3 s" in str(error)


async def test_timeout_while_streaming(faulty: FaultyServer):
    error = await failure(http_bot(faulty.url("hang"), timeout=0.3, stream="sse"))
    assert "did not answer within 0.3 s" in str(error)


@pytest.mark.parametrize("route", ["big", "big-undeclared"])
async def test_a_response_over_the_cap_is_refused(faulty: FaultyServer, route: str):
    error = await failure(http_bot(faulty.url(route)))
    assert f"over the limit of {5 * 1024 * 1024}" in str(error)


async def test_reset_mid_stream(faulty: FaultyServer):
    deltas: list[str] = []
    error = await failure(http_bot(faulty.url("reset"), stream="sse", max_retries=0), deltas)
    assert "broke off the response" in str(error) and deltas == ["Half"]


async def test_a_broken_stream_is_retried_and_carries_what_arrived(faulty: FaultyServer):
    from ragtui.core.models.llm import stream_restarted

    restarts: list[int] = []
    stream_restarted.set(lambda attempt, _reason: restarts.append(attempt))
    deltas: list[str] = []
    error = await failure(http_bot(faulty.url("reset"), stream="sse", max_retries=2), deltas)
    assert restarts == [2, 3] and deltas == ["Half"] * 3
    assert getattr(error, "partial", None) == "Half" and getattr(error, "attempts", None) == 3


async def test_connection_refused_is_retried_then_reported(faulty: FaultyServer):
    faulty.shutdown()
    faulty.server_close()
    error = await failure(http_bot(faulty.url("ok"), max_retries=1))
    assert "cannot reach" in str(error) and "after 2 attempt(s)" in str(error)


async def test_secrets_in_headers_never_appear_in_errors(faulty: FaultyServer, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SUPPORT_BOT_TOKEN", "tok-SECRET-123456")
    monkeypatch.setenv("SUPPORT_API_KEY", "key-SECRET-abcdef")
    bot = http_bot(
        faulty.url("unauthorized"),
        headers={"Authorization": "Bearer ${SUPPORT_BOT_TOKEN}", "X-Api-Key": "${SUPPORT_API_KEY}"},
    )
    error = await failure(bot)
    _, headers, _ = faulty.requests[0]
    assert headers["Authorization"] == "Bearer tok-SECRET-123456"  # it was sent…
    assert "SECRET" not in str(error) and "SECRET" not in error.snippet  # …and never shown
    assert "***" in error.snippet and error.status == 401
    assert "SECRET" not in json.dumps(bot.public())


async def test_a_missing_variable_is_a_config_error_naming_it(faulty: FaultyServer):
    bot = http_bot(faulty.url("ok"), headers={"Authorization": "Bearer ${NOT_SET_ANYWHERE}"})
    with pytest.raises(ConfigError, match="NOT_SET_ANYWHERE"):
        await bot.answer(HISTORY)
    await bot.aclose()
