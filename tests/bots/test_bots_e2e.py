"""End to end: ``ragtui run`` against the reference HTTP bot and a Python bot, a failing bot
ending the dialogue with ``error`` while keeping what was recorded and never storing a secret,
``ragtui serve-bot`` as a process, and the doctor probe."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from rich.console import Console

from ragtui.cli.bot_probe_view import print_bot_probe
from ragtui.cli.main import main
from ragtui.core.bots.probe import probe_bot
from ragtui.core.bots.reference_server import ReferenceServer, builtin_factory
from ragtui.core.config.bot_config import parse_bot
from ragtui.core.config.settings import Config
from ragtui.core.dialogue.engine import Engine
from ragtui.core.dialogue.events import DialogueDone, Failure
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.store import Store
from stand_ins.fake_openai import FakeOpenAIServer, Reply

from ..bot_servers import FaultyServer
from ..conftest import BOT, JUDGE, USER, check_answers, interruptible

TOKEN = "tok-NEVER-STORED-987654"


@pytest.fixture
def reference(config: Config, server: FakeOpenAIServer) -> Iterator[ReferenceServer]:
    with ReferenceServer(builtin_factory(config, resolve_endpoints(config)["bot"])) as ref:
        yield ref


def write_config(tmp_path: Path, server: FakeOpenAIServer, bot_table: str) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        f'language = "en"\nmax_turns = 2\nconcurrency = 2\ndatabase = "runs.db"\n'
        f'[endpoint]\nbase_url = "{server.base_url}"\nmax_retries = 0\ntimeout = 10\n'
        f'[roles.user]\nmodel = "{USER}"\n[roles.judge]\nmodel = "{JUDGE}"\n' + bot_table,
        encoding="utf-8",
    )
    return path


def test_run_against_the_reference_http_bot_stores_its_passages(
    reference: ReferenceServer, server: FakeOpenAIServer, tmp_path: Path, capsys
):
    path = write_config(
        tmp_path,
        server,
        f'[bot]\ntype = "http"\nurl = "{reference.url}"\nstream = "sse"\n'
        'body = { question = "{{question}}", history = "{{history}}", stream = true }\n',
    )
    status = main(["run", "--config", str(path), "-s", "id-linking", "-p", "calm", "-p", "angry"])
    assert status == 0, capsys.readouterr()
    store = Store.open(tmp_path / "runs.db")
    sessions = store.sessions()
    assert len(sessions) == 2 and {s.stop_reason for s in sessions} == {"max_turns"}
    session = store.session(sessions[0].id)
    bots = [m for m in session.messages if m.role == "bot"]
    assert len(bots) == 2 and all(m.passages for m in bots)
    assert "linked-services" in bots[0].passages[0].doc_id and bots[0].model == BOT
    # The bot's passages were the judge's context.
    assert bots[0].passages[0].text[:40] in session.judgments[0].prompt[-1]["content"]
    assert session.config["bot_settings"]["type"] == "http"
    store.close()


def test_run_against_a_python_bot_next_to_the_config(server: FakeOpenAIServer, tmp_path: Path, capsys):
    (tmp_path / "e2e_team_bot.py").write_text(
        "def rag(query, history, prompt=None):\n"
        "    return {'answer': 'Use Settings.', 'passages': [{'title': 'Guide', 'text': 'Settings > Account', 'source': 'kb/g'}]}\n",
        encoding="utf-8",
    )
    path = write_config(tmp_path, server, '[bot]\ntype = "python"\ntarget = "e2e_team_bot:rag"\n')
    assert main(["run", "--config", str(path), "-s", "outage", "-p", "calm"]) == 0, capsys.readouterr()
    store = Store.open(tmp_path / "runs.db")
    session = store.session(store.sessions()[0].id)
    bot_message = next(m for m in session.messages if m.role == "bot")
    assert bot_message.text == "Use Settings." and bot_message.passages[0].doc_id == "kb/g"
    store.close()


async def test_a_failing_bot_ends_the_dialogue_with_error_and_no_secret_is_kept(
    config: Config, store: Store, scenario, persona, monkeypatch: pytest.MonkeyPatch, server: FakeOpenAIServer
):
    monkeypatch.setenv("SUPPORT_BOT_TOKEN", TOKEN)
    server.set_default(JUDGE, check_answers(4))
    with FaultyServer() as faulty:
        config.bot = parse_bot(
            {
                "type": "http",
                "url": faulty.url("unauthorized"),
                "headers": {"Authorization": "Bearer ${SUPPORT_BOT_TOKEN}"},
                "max_retries": 0,
            },
            "t.toml: [bot]",
            Path("."),
        )
        engine = Engine(config, resolve_endpoints(config), store)
        dialogue = engine.new_dialogue(scenario, persona)
        events = [event async for event in dialogue.run()]
        await engine.aclose()
    failure = next(e for e in events if isinstance(e, Failure))
    done = events[-1]
    assert failure.role == "bot" and "HTTP 401" in failure.message and "***" in failure.message
    assert isinstance(done, DialogueDone) and done.stop_reason == "error"
    session = store.session(dialogue.session_id)
    assert [m.role for m in session.messages] == ["user"]  # the customer's message is kept
    assert session.stop_reason == "error" and "HTTP 401" in (session.error or "")
    assert TOKEN not in json.dumps(engine.public_config())
    assert TOKEN not in str(events)
    store.close()
    assert TOKEN.encode() not in Path(config.database).read_bytes()


def test_serve_bot_process_answers_and_stops_on_ctrl_c(server: FakeOpenAIServer, tmp_path: Path):
    path = tmp_path / "ragtui.toml"
    path.write_text(
        f'language = "en"\n[roles.bot]\nbase_url = "{server.base_url}"\nmodel = "{BOT}"\n', encoding="utf-8"
    )
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "ragtui", "serve-bot", "--port", "0", "--config", str(path)]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, preexec_fn=interruptible
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = line.split(" on ")[-1].strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/chat"), line
        reply = httpx.post(
            url, json={"question": "How do I link my ID?", "history": [], "session_id": "s1"}, timeout=120
        )
        assert reply.status_code == 200 and reply.json()["passages"]
        process.send_signal(signal.SIGINT)
        # Generous bounds, not timing assertions: a loaded machine once took over 10 s here.
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        assert "stopped" in out and "Traceback" not in err
    finally:
        if process.poll() is None:
            process.kill()


def test_probe_shows_the_raw_response_and_what_was_extracted(
    reference: ReferenceServer, config: Config, server: FakeOpenAIServer
):
    server.script(BOT, Reply("[bold]Use[/] Settings"))
    config.bot = parse_bot({"type": "http", "url": reference.url}, "t.toml: [bot]", Path("."))
    result = probe_bot(config, resolve_endpoints(config), "How do I link my Google account?")
    assert result.ok and result.status == 200 and result.answer == "[bold]Use[/] Settings"
    assert result.passages and result.raw.startswith('{"answer": "[bold]Use[/] Settings"')
    console = Console(record=True, width=200)
    print_bot_probe(result, console)
    shown = console.export_text()
    assert "[bold]Use[/] Settings" in shown and "status: 200" in shown and "passages: " in shown


def test_probe_of_a_failing_bot_reports_instead_of_raising(config: Config):
    with FaultyServer() as faulty:
        config.bot = parse_bot({"type": "http", "url": faulty.url("nomatch"), "answer_path": "x"}, "t", Path("."))
        result = probe_bot(config, resolve_endpoints(config))
    assert not result.ok and result.status == 200 and "matches nothing" in (result.error or "")
    assert "somewhere else" in result.raw
    console = Console(record=True, width=200)
    print_bot_probe(result, console)
    assert "FAILED" in console.export_text()


def test_probe_of_a_python_bot_shows_what_it_returned(config: Config, tmp_path: Path):
    (tmp_path / "probe_team_bot.py").write_text(
        "def rag(query, history):\n    return {'answer': 'ok', 'sources': [{'content': 'c', 'title': 't'}]}\n",
        encoding="utf-8",
    )
    config.bot = parse_bot({"type": "python", "target": "probe_team_bot:rag"}, "t", tmp_path)
    result = probe_bot(config, resolve_endpoints(config), "hello")
    assert result.ok and result.status is None and result.content_type == "dict"
    assert result.raw == '{"answer": "ok", "sources": [{"content": "c", "title": "t"}]}'
    assert [(p.title, p.text) for p in result.passages] == [("t", "c")]
