"""The TUI running dialogues against the team's own bot: the reference HTTP bot and a Python
function, configured through ``[bot]`` only."""

from __future__ import annotations

from pathlib import Path

from ragtui.core.bots.reference_server import ReferenceServer, builtin_factory
from ragtui.core.config.bot_config import parse_bot
from ragtui.core.config.settings import Config
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.store import Store
from ragtui.tui.app import RagtuiApp
from stand_ins.fake_openai import Reply

from ..conftest import BOT
from .conftest import SIZE, pane_text
from .test_dialogue_flows import start_session


async def run_one_dialogue(config: Config, store: Store) -> str:
    app = RagtuiApp(config, resolve_endpoints(config), store)
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot, "ctrl+r")  # start and auto-run to the end
        assert "max_turns" in str(app.screen.query_one("#header").render_text())
        return pane_text(app, "bot")


async def test_tui_runs_against_the_reference_http_bot(tui_config: Config, store: Store, server):
    server.set_default(BOT, Reply("Open Settings > Account > Linked services."))
    endpoints = resolve_endpoints(tui_config)
    with ReferenceServer(builtin_factory(tui_config, endpoints["bot"])) as reference:
        tui_config.bot = parse_bot(
            {
                "type": "http",
                "url": reference.url,
                "stream": "sse",
                "body": {"question": "{{question}}", "history": "{{history}}", "stream": True},
            },
            "t.toml: [bot]",
            Path("."),
        )
        shown = await run_one_dialogue(tui_config, store)
    assert "Open Settings > Account > Linked services." in shown
    session = store.session(store.sessions()[0].id)
    assert session.stop_reason == "max_turns"
    assert any(m.passages for m in session.messages if m.role == "bot")  # the first question matches none


async def test_tui_runs_against_a_python_function(tui_config: Config, store: Store, tmp_path: Path):
    (tmp_path / "tui_team_bot.py").write_text(
        "def rag(query, history, prompt=None):\n    return 'From our own bot: ' + query[:20], ['a passage']\n",
        encoding="utf-8",
    )
    tui_config.bot = parse_bot({"type": "python", "target": "tui_team_bot:rag"}, "t.toml: [bot]", tmp_path)
    shown = await run_one_dialogue(tui_config, store)
    assert "From our own bot: " in shown
    session = store.session(store.sessions()[0].id)
    assert [p.text for p in session.messages[1].passages] == ["a passage"]
