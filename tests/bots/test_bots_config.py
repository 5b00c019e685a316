"""The ``[bot]`` table and the JSON path syntax: typos fail loudly, naming the file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.config.settings import load_config
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.text.json_path import JsonPath
from ragtui.core.types.errors import ConfigError, RagtuiError


def load(tmp_path: Path, text: str):
    path = tmp_path / "ragtui.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path)


def error(tmp_path: Path, text: str) -> str:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text)
    return str(info.value)


def test_default_is_the_builtin_bot(tmp_path: Path):
    assert load(tmp_path, 'language = "en"\n').bot.type == "builtin"
    assert load(tmp_path, '[bot]\ntype = "builtin"\n').bot.http is None


def test_http_bot_with_defaults(tmp_path: Path):
    config = load(tmp_path, '[bot]\ntype = "http"\nurl = "http://127.0.0.1:8765/chat"\n')
    http = config.bot.http
    assert http is not None and http.method == "POST" and http.stream == "none"
    assert http.body == {"question": "{{question}}", "history": "{{history}}", "session_id": "{{session_id}}"}
    assert str(http.answer_path) == "answer" and str(http.passages.path) == "passages"
    assert (http.timeout, http.max_retries, http.max_response_bytes) == (60.0, 2, 5 * 1024 * 1024)


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('type = "http"\nurl = "http://x/chat"\nanswer = "a"', "[bot] (type http): unknown key 'answer'"),
        ('type = "builtin"\nurl = "http://x/chat"', "[bot] (type builtin): unknown key 'url'"),
        ('type = "grpc"', "type must be one of builtin, http, openai, python"),
        ('type = "http"', "[bot] (type http): missing key 'url'"),
        ('type = "http"\nurl = "ftp://x"', "url must start with http"),
        ('type = "http"\nurl = "http://x"\nanswer_path = "a..b"', "[bot] answer_path: JSON path 'a..b'"),
        ('type = "http"\nurl = "http://x"\nstream = "ws"', "stream must be one of none, sse, text"),
        ('type = "http"\nurl = "http://x"\nbody = { q = "{{query}}" }', "body.q: unknown slot {{query}}"),
        ('type = "http"\nurl = "http://x"\nbody = { q = "past: {{history}}" }', "body.q: {{history}} is a list"),
        ('type = "http"\nurl = "http://x"\nheaders = { X-Q = "{{question}}" }', "only {{session_id}} and {{turn}}"),
        ('type = "http"\nurl = "http://x"\nheaders = { Authorization = "Bearer abc" }', "holds a literal credential"),
        ('type = "http"\nurl = "http://x"\nheaders = { X-Api-Key = "$KEY" }', "written ${NAME}"),
        ('type = "http"\nurl = "http://x"\ntimeout = 0', "timeout must be positive"),
        ('type = "openai"\nbase_url = "http://x/v1"', "[bot] (type openai): missing key 'model'"),
        ('type = "openai"\nbase_url = "http://x/v1"\nmodel = "m"\napi_key = "sk"', "api_key is not read from files"),
        ('type = "python"\ntarget = "my_bot"', "target must look like 'module:function'"),
        ('type = "python"\ntarget = "m:f"\nhistory_format = "xml"', "history_format must be one of"),
    ],
)
def test_errors_name_the_file_and_the_key(tmp_path: Path, table: str, expected: str):
    message = error(tmp_path, "[bot]\n" + table + "\n")
    assert str(tmp_path / "ragtui.toml") in message
    assert expected in message


def test_header_secrets_stay_as_variable_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SUPPORT_BOT_TOKEN", "tok-123456")
    config = load(
        tmp_path,
        '[bot]\ntype = "http"\nurl = "http://x/chat"\nheaders = { Authorization = "Bearer ${SUPPORT_BOT_TOKEN}" }\n',
    )
    assert config.bot.http is not None
    assert config.bot.http.headers == {"Authorization": "Bearer ${SUPPORT_BOT_TOKEN}"}  # expanded per request


def test_python_bot_imports_from_the_config_folder(tmp_path: Path):
    config = load(tmp_path, '[bot]\ntype = "python"\ntarget = "my_bot:rag"\n')
    assert config.bot.python is not None and config.bot.python.search_path == tmp_path


def test_a_bot_of_the_teams_own_needs_no_bot_role(tmp_path: Path):
    """With an HTTP bot the bot role is unused: no model name needed, no embedded model started."""
    text = (
        '[endpoint]\nbase_url = "http://127.0.0.1:9/v1"\n[roles.user]\nmodel = "u"\n[roles.judge]\nmodel = "j"\n'
        '[bot]\ntype = "http"\nurl = "http://127.0.0.1:8765/chat"\n'
    )
    assert set(resolve_endpoints(load(tmp_path, text))) == {"user", "judge"}
    # Without [bot] the built-in bot needs the bot role: ragtui asks the server for its model,
    # and a dead server is named for what it is before anything about models.
    with pytest.raises(RagtuiError, match="bot endpoint .*connection refused"):
        resolve_endpoints(load(tmp_path, text.split("[bot]")[0]))


# -- JSON paths ---------------------------------------------------------------------------------

DOCUMENT = {
    "data": {"reply": {"text": "hi"}},
    "sources": [{"content": "a", "title": "A"}, {"content": "b"}],
    "odd.key": 1,
    "list": [1, 2, 3],
}


@pytest.mark.parametrize(
    ("path", "found"),
    [
        ("data.reply.text", ["hi"]),
        ("$.data.reply.text", ["hi"]),
        ("sources[*].content", ["a", "b"]),
        ("sources[*].title", ["A"]),
        ("sources[1]", [{"content": "b"}]),
        ("list[-1]", [3]),
        ('["odd.key"]', [1]),
        ("data[*]", [{"text": "hi"}]),
        ("missing.key", []),
        ("list[7]", []),
        ("$", [DOCUMENT]),
    ],
)
def test_json_path_find(path: str, found: list):
    assert JsonPath.parse(path).find(DOCUMENT) == found


@pytest.mark.parametrize("bad", ["a..b", "a.", "a[", "a[x]", "a]b", "a[0]b"])
def test_json_path_syntax_errors(bad: str):
    with pytest.raises(ValueError, match="JSON path"):
        JsonPath.parse(bad)
