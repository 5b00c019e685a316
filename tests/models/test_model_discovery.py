"""With a base URL and no model name, the server's ``GET /models`` decides: one model is used
(and said so), several are listed with how to choose, none or a failure keep the clear error."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ragtui.cli.main import main
from ragtui.core.config.settings import Config
from ragtui.core.models.endpoints import discovery_note, resolve_endpoints
from ragtui.core.types.errors import ConfigError, EndpointError


@pytest.fixture
def bare_config(tmp_path) -> Config:
    return Config(language="en", database=tmp_path / "ragtui.db")


@pytest.fixture
def empty_models() -> Iterator[str]:
    """A server whose /models lists nothing."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            body = json.dumps({"object": "list", "data": []}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


def test_the_one_served_model_is_used_and_said(bare_config, server, monkeypatch):
    server.clear()  # the fake server now lists only its default model
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    endpoints = resolve_endpoints(bare_config)
    models = {e.model for e in endpoints.values()}
    assert len(models) == 1 and all(e.discovered for e in endpoints.values())
    note = discovery_note(endpoints) or ""
    assert models.pop() in note and "--model" in note and "OPENAI_MODEL" in note
    gets = [r for r in server.requests if r.method == "GET"]
    assert len(gets) == 1  # asked once for all roles


def test_several_served_models_are_listed_with_how_to_choose(bare_config, server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    with pytest.raises(ConfigError) as caught:
        resolve_endpoints(bare_config)
    message = str(caught.value)
    assert "fake-judge" in message and "models" in message
    assert "--model" in message and "OPENAI_MODEL" in message


def test_a_named_model_needs_no_discovery(bare_config, server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_MODEL", "fake-bot")
    endpoints = resolve_endpoints(bare_config)
    assert {e.model for e in endpoints.values()} == {"fake-bot"} and not any(e.discovered for e in endpoints.values())
    assert not [r for r in server.requests if r.method == "GET"]


def test_a_server_listing_no_models_keeps_the_clear_error(bare_config, empty_models, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", empty_models)
    with pytest.raises(ConfigError, match="no model named for the .* role .*lists no models.*--model NAME"):
        resolve_endpoints(bare_config)


def test_an_unreachable_server_is_named_before_anything_about_models(bare_config, monkeypatch):
    with socket.socket() as s:  # a port nothing listens on: bound, then released
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    refused = f"cannot reach the user endpoint .*connection refused at 127.0.0.1:{port}"
    with pytest.raises(EndpointError, match=refused) as caught:
        resolve_endpoints(bare_config)
    assert "no model" not in str(caught.value) and "--model" not in str(caught.value)


def test_config_command_works_with_only_a_base_url(server, monkeypatch, capsys, tmp_path):
    server.clear()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    assert main(["config"]) == 0
    out, err = capsys.readouterr()
    assert "Using " in err and "the one model" in err
