"""Shared fixtures: a fake OpenAI-compatible server on 127.0.0.1 and an engine wired to it.

Each role talks to the server under its own model name (``fake-user``, ``fake-bot``,
``fake-judge``), so a test scripts each role separately with ``server.script(model, ...)``.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from ragtui.core.config.settings import Config, EndpointConfig
from ragtui.core.content.personas import load_personas
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.dialogue.engine import Engine
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.store import Store
from stand_ins.fake_openai import FakeOpenAIServer, Reply, level_reply
from tests.fakes.rubric_checks import check_line, check_name

from .bot_servers import FaultyServer

USER, BOT, JUDGE = "fake-user", "fake-bot", "fake-judge"

# Without a terminal Rich takes its width from COLUMNS, read once when ragtui's consoles are
# made (ragtui.cli.output, imported by the tests after this file): pinned to Rich's own default
# here, so neither the tests' output nor the ragtui processes they start depend on the width of
# the terminal the suite was started from.
os.environ["COLUMNS"] = "80"


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the README's ``pytest``): two workers per core. Most tests wait — on the fake
    server over loopback, a ragtui subprocess, SQLite, a Textual frame — rather than compute: with
    one worker per core the suite kept about 1.15 of two cores busy (docs/testing.md)."""
    return 2 * (os.cpu_count() or 1)


def verdict(overall: int = 4, **overrides: object) -> str:
    """A well-formed rubric reply with every criterion at ``overall`` unless overridden."""
    data: dict[str, object] = {"steps": ["checked the passages"], "conclusion": "fine"}
    data.update({c: overall for c in ("understanding", "relevance", "completeness", "correctness", "coherence")})
    data["overall"] = overall
    data.update(overrides)
    return json.dumps(data)


def check_answers(overall: float, **forced: float):
    """A judge answering the rubric's yes/no checks (by their English wording) so the combined
    overall comes out at ``overall`` (1–5): a grounded, polite, on-topic answer whose
    completeness (or, below 3.4, relevance) is set to reach it. ``forced`` pins a check's P(yes)
    by name (``says_unknown=1.0``)."""
    base = (overall - 1) / 4
    complete, addresses = ((base - 0.6) / 0.4, 1.0) if base >= 0.6 else (0.0, base / 0.6)
    values = {"says_unknown": 0.0, "other_company": 0.0, "complete": complete, "addresses": addresses, **forced}

    def respond(body: dict) -> Reply:
        if "response_format" in body:  # the whole-verdict judge (re-judging with an edited prompt)
            return Reply(verdict(round(overall)))
        return yes_no_reply(values.get(check_name(body), 1.0))

    return respond


def turns_judged(*overalls: float | None):
    """A judge for several turns in order: each turn's checks answered by ``check_answers``;
    None makes that turn's first check unanswerable (the turn is unscored)."""
    state = {"turn": -1}

    def respond(body: dict) -> Reply:
        if "information needed" in check_line(body):
            state["turn"] += 1  # every turn starts with the context_answers check
        overall = overalls[min(max(state["turn"], 0), len(overalls) - 1)]
        return Reply("(unparsable)") if overall is None else check_answers(overall)(body)

    return respond


def endpoint_toml(base_url: str) -> str:
    """The config tables that point every role at the fake server under its own model name."""
    return f"""
[endpoint]
base_url = "{base_url}"
max_retries = 0
timeout = 10

[roles.user]
model = "{USER}"
[roles.bot]
model = "{BOT}"
[roles.judge]
model = "{JUDGE}"
"""


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test may see the developer's OpenAI variables, config or home folders."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    for name in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(tmp_path / "xdg" / name.lower()))


@pytest.fixture
def faulty() -> Iterator[FaultyServer]:
    """A misbehaving bot server on 127.0.0.1 (tests/bot_servers.py), scripted per test."""
    with FaultyServer() as server:
        yield server


@pytest.fixture(scope="session")
def _server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as server:
        yield server


def reset(server: FakeOpenAIServer) -> None:
    """The fake server as every test starts with it: no log, no script, plain replies for the
    customer and the bot, a passing verdict for the judge."""
    server.clear()
    server.set_default(USER, Reply("Thanks, but what about my other account?"))
    server.set_default(BOT, Reply("Go to Settings > Account > Linked services."))
    server.set_default(JUDGE, check_answers(4))


@pytest.fixture
def server(_server: FakeOpenAIServer) -> Iterator[FakeOpenAIServer]:
    """The shared fake server, reset for this test: plain replies for the customer and the
    bot, a passing verdict for the judge, unless the test scripts otherwise."""
    reset(_server)
    yield _server
    _server.clear()


def record_run(server: FakeOpenAIServer, folder: Path, *picks: str, settings: str = "", bot: str | None = None) -> Path:
    """``ragtui run`` (in process) of ``picks`` against the fake server's default replies (the
    ``server`` fixture's, the bot's first reply ``bot`` if given), recorded into ``folder``, with
    the environment as ``_isolated_env`` leaves it; returns the database."""
    config = folder / "ragtui.toml"
    config.write_text(f'language = "en"\ndatabase = "ragtui.db"\n{settings}\n' + endpoint_toml(server.base_url))
    reset(server)
    if bot is not None:
        server.script(BOT, Reply(bot))
    status = isolated_main(folder, ["run", "--config", str(config), *picks])
    reset(server)  # as the test that asked for the recording (its setup may be under way) found it
    assert status == 0, f"recording {picks} failed with exit status {status}"
    return folder / "ragtui.db"


def isolated_main(folder: Path, argv: list[str]) -> int:
    """``ragtui`` in process with ``argv``, in the environment ``_isolated_env`` gives a test
    (its XDG folders under ``folder``), for a fixture that outlives one test."""
    from ragtui.cli.main import main

    with pytest.MonkeyPatch.context() as env:
        for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
            env.delenv(name, raising=False)
        for name in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
            env.setenv(name, str(folder / "xdg" / name.lower()))
        return main(argv)


@pytest.fixture(scope="session")
def recorded_dialogue(_server: FakeOpenAIServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One finished dialogue, recorded once per worker: what the TUI's New session + auto-run
    records (scenario ``useless``, persona ``angry``, 3 turns, every verdict passing). Tests read
    it in place; a test that writes takes a copy (``copy_of``)."""
    return record_run(_server, tmp_path_factory.mktemp("recorded-dialogue"), "-s", "useless", "-p", "angry")


@pytest.fixture(scope="session")
def recorded_pair(_server: FakeOpenAIServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`ragtui run -s outage -p calm -p angry` with 2 turns (every verdict 4/5, 0.80), recorded
    once per worker."""
    folder = tmp_path_factory.mktemp("recorded-pair")
    return record_run(_server, folder, "-s", "outage", "-p", "calm", "-p", "angry", settings="max_turns = 2")


def copy_of(database: Path, to: Path) -> Path:
    """A copy of a recorded database at ``to``, for a test that writes to it."""
    to.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(database, to)
    return to


@pytest.fixture
def config(server: FakeOpenAIServer, tmp_path: Path) -> Config:
    cfg = Config(language="en", database=tmp_path / "ragtui.db")
    # A generous per-request timeout: on a busy machine a fake reply can take seconds, and a test
    # whose request hangs on purpose ends it by cancelling, never by waiting this out.
    cfg.endpoint = EndpointConfig(base_url=server.base_url, timeout=60.0, max_retries=0)
    cfg.roles["user"].model = USER
    cfg.roles["bot"].model = BOT
    cfg.roles["judge"].model = JUDGE
    return cfg


@pytest.fixture
def store(config: Config) -> Iterator[Store]:
    s = Store.open(config.database)
    yield s
    s.close()


@pytest.fixture
async def engine(config: Config, store: Store) -> AsyncIterator[Engine]:
    e = Engine(config, resolve_endpoints(config), store)
    yield e
    await e.aclose()


@pytest.fixture
def scenario(config: Config):
    return next(s for s in load_scenarios(config.scenarios, "en") if s.id == "id-linking")


@pytest.fixture
def persona(config: Config):
    return next(p for p in load_personas(config.personas, "en") if p.name == "calm")


def interruptible() -> None:
    """``preexec_fn`` of a child the test interrupts with SIGINT: a shell that starts the test run
    in the background (``… &``) ignores SIGINT, and the children would inherit that."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def yes_no_reply(p: float) -> Reply:
    """A one-token yes/no answer with P(yes) = ``p`` (a certain answer carries one token only)."""
    return level_reply({"yes": p, "no": 1 - p} if 0 < p < 1 else {"yes" if p >= 1 else "no": 1.0})
