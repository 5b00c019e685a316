"""Endpoint errors say what is wrong — a refused connection, a rejected key quoting the server, an
HTML page where the API should be, a URL without a scheme — before anything about models, in
``ragtui run``'s pre-flight check, in model discovery (the TUI's connect step) and in ``ragtui
doctor``, which diagnoses every role. Behind a gateway: its own text is shown, a 400 is final,
retries do not stack on its own, and the model that answered is stored beside the one asked for."""

from __future__ import annotations

import dataclasses
import socket
import sqlite3
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.config.settings import Config
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.types.errors import ConfigError, EndpointError
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, USER, check_answers, endpoint_toml

PAGE = "<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head><body>hello</body></html>"
HTML_LINE = "answered with an HTML page, not an OpenAI-compatible API"
UPSTREAM_401 = (
    "litellm.AuthenticationError: AuthenticationError: OpenAIException - "
    "Incorrect API key provided: sk-upstr*****1234. Received Model Group=fake-bot"
)
GATEWAY_500 = (
    "litellm.InternalServerError: Connection error. Received Model Group=fake-bot "
    "Available Model Group Fallbacks=None LiteLLM Retried: 2 times, LiteLLM Max Retries: 2"
)
KEY = "sk-test-the-real-key-0123456789"


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def config_file(server, tmp_path: Path, monkeypatch) -> Path:
    """Every role on the fake server, retries as a user would leave them (2)."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    path = tmp_path / "ragtui.toml"
    toml = endpoint_toml(server.base_url).replace("max_retries = 0", "max_retries = 2")
    path.write_text(f'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\n{toml}', encoding="utf-8")
    return path


def run(config_file: Path, *extra: str) -> int:
    return main(["run", "--config", str(config_file), "-s", "outage", "-p", "calm", *extra])


def chat_posts(server) -> int:
    return len(server.chat_requests())


# -- refused connection, URL without a scheme ------------------------------------------------


def test_a_refused_port_without_a_model_is_named_not_blamed_on_models(tmp_path, monkeypatch):
    port = closed_port()
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    with pytest.raises(EndpointError) as caught:
        resolve_endpoints(Config(language="en", database=tmp_path / "x.db"))
    text = str(caught.value)
    assert f"connection refused at 127.0.0.1:{port}" in text and "no model" not in text and "--model" not in text


def test_doctor_diagnoses_every_role_of_a_refused_port_and_keeps_going(tmp_path, monkeypatch, capsys):
    port = closed_port()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    assert main(["doctor"]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert "no model named" not in out
    for role in ("user", "bot", "judge"):
        assert f"cannot reach the {role} endpoint" in out
    assert out.count(f"connection refused at 127.0.0.1:{port}") == 3


def test_a_url_without_a_scheme_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_BASE_URL", f"127.0.0.1:{closed_port()}/v1")
    for model in ([], ["--model", "m"]):
        assert main(["run", *model, "--db", str(tmp_path / "x.db"), "-s", "outage", "-p", "calm"]) == 2
        err = capsys.readouterr().err
        assert "has no http:// or https:// scheme" in err and "OPENAI_BASE_URL" in err and "no model" not in err


# -- an HTML page where the API should be -----------------------------------------------------


def test_an_html_server_fails_discovery_preflight_and_doctor_with_the_html_line(
    config_file, server, capsys, monkeypatch
):
    server.answer_everything(Reply(raw=PAGE))
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    with pytest.raises(EndpointError, match=HTML_LINE + r".*base_url right .*/v1"):
        resolve_endpoints(Config(language="en", database=config_file.parent / "x.db"))  # no model: discovery
    assert run(config_file) == 2
    err = capsys.readouterr().err
    assert HTML_LINE in err and "max_retries" not in err and err.count("\n") == 1
    assert chat_posts(server) == 0  # the pre-flight check stopped it
    assert main(["doctor", "--config", str(config_file)]) == 2
    out = " ".join(capsys.readouterr().out.split())
    for role in ("user", "bot", "judge"):
        assert f"the {role} endpoint" in out
    assert out.count(HTML_LINE) >= 3


def test_an_html_chat_endpoint_fails_the_preflight_when_models_proves_nothing(config_file, server, capsys):
    server.set_models_reply(Reply(status=404, error_message="Not Found"))
    server.set_default(USER, Reply(raw=PAGE))
    assert run(config_file) == 2
    err = capsys.readouterr().err
    assert HTML_LINE in err and "user endpoint" in err and err.count("\n") == 1


def test_an_html_chat_answer_in_a_run_is_one_clear_error_sent_once(config_file, server, capsys):
    server.set_default(BOT, Reply(raw=PAGE))
    assert run(config_file, "--no-check") == 2
    out = capsys.readouterr().out
    assert HTML_LINE in " ".join(out.split()) and "max_retries" not in out
    assert len(server.chat_requests(BOT)) == 1


# -- a gateway's own words --------------------------------------------------------------------


def test_a_401_quotes_the_gateway_and_names_the_key_variable_without_the_key(config_file, server, capsys):
    server.set_default(BOT, Reply(status=401, error_message=f"{UPSTREAM_401} (you sent {KEY})"))
    assert run(config_file) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert "Incorrect API key provided: sk-upstr*****1234" in out
    assert "$OPENAI_API_KEY" in out and KEY not in out


def test_doctor_quotes_a_401_for_every_role(config_file, server, capsys):
    server.answer_everything(Reply(status=401, error_message=UPSTREAM_401))
    assert main(["doctor", "--config", str(config_file)]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert out.count("Incorrect API key provided") >= 3 and "$OPENAI_API_KEY" in out and KEY not in out


def test_a_gateway_answering_400_fails_the_preflight_with_its_text(config_file, server, capsys):
    server.answer_everything(Reply(status=400, error_message="No connected db."))
    assert run(config_file) == 2
    err = capsys.readouterr().err
    assert "400: No connected db." in err and err.count("\n") == 1
    assert chat_posts(server) == 0


def test_a_400_is_final_each_call_sent_once(config_file, server, capsys):
    server.set_default(BOT, Reply(status=400, error_message="No connected db."))
    assert run(config_file, "--no-check") == 2
    assert "No connected db." in capsys.readouterr().out
    assert len(server.chat_requests(BOT)) == 1


def test_a_500_the_gateway_already_retried_is_not_retried_again(config_file, server, capsys):
    server.set_default(BOT, Reply(status=500, error_message=GATEWAY_500, headers={"x-litellm-attempted-retries": "2"}))
    assert run(config_file) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert "LiteLLM Retried: 2 times" in out and "already retried" in out
    assert len(server.chat_requests(BOT)) == 1


def test_doctor_retries_a_500_at_most_once(config_file, server, capsys):
    config_file.write_text(config_file.read_text().replace("max_retries = 2", "max_retries = 5"))
    server.set_default(BOT, Reply(status=500, error_message="upstream down", headers={"retry-after-ms": "1"}))
    assert main(["doctor", "--config", str(config_file)]) == 2
    assert "answered 500: upstream down" in " ".join(capsys.readouterr().out.split())
    assert len(server.chat_requests(BOT)) <= 2 + 2  # its check and the bot probe, each tried at most twice


# -- the model that answered ------------------------------------------------------------------


def test_the_answering_model_is_stored_beside_the_requested_one(config_file, server, capsys):
    server.set_default(USER, Reply("Still broken, any news?", model="fake-user-2024-07-18"))
    server.set_default(BOT, Reply("We are on it.", model="fake-bot-2024-07-18"))
    judge = check_answers(4)
    server.set_default(JUDGE, lambda body: dataclasses.replace(judge(body), model="fake-judge-2024-07-18"))
    assert run(config_file) in (0, 1)
    db = sqlite3.connect(config_file.parent / "runs.db")
    rows = db.execute("SELECT role, model, served_model FROM messages WHERE source != 'scenario'").fetchall()
    assert ("bot", BOT, "fake-bot-2024-07-18") in rows
    judged = db.execute("SELECT DISTINCT model, served_model FROM judgments").fetchall()
    assert (JUDGE, "fake-judge-2024-07-18") in judged
    capsys.readouterr()
    assert main(["show", "1", "--config", str(config_file)]) == 0
    out = capsys.readouterr().out
    assert "fake-bot-2024-07-18" in out and "fake-judge-2024-07-18" in out


def test_the_same_model_named_stores_nothing_extra(config_file, server):
    assert run(config_file) in (0, 1)
    db = sqlite3.connect(config_file.parent / "runs.db")
    assert db.execute("SELECT COUNT(*) FROM messages WHERE served_model IS NOT NULL").fetchone()[0] == 0


def test_a_scheme_less_base_url_in_the_config_names_the_file(tmp_path):
    path = tmp_path / "ragtui.toml"
    path.write_text('[endpoint]\nbase_url = "localhost:8080/v1"\nmodel = "m"\n', encoding="utf-8")
    from ragtui.core.config.settings import load_config

    with pytest.raises(ConfigError, match=f"has no http:// or https:// scheme .*{path.name}"):
        resolve_endpoints(load_config(path))
