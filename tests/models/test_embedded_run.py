"""The embedded model wired into a run: one real dialogue turn on it, no orphan server after
the parent is killed, and clear messages when it is not installed.

The ``embedded`` tests start the real llama.cpp server (a few seconds to load, tens of seconds
per turn on two cores); they skip with a reason when the model packages are not installed.
"""

from __future__ import annotations

import importlib.util
import os
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

from ragtui.core.config import paths
from ragtui.core.config.settings import Config
from ragtui.core.content.personas import load_personas
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.dialogue.engine import Engine
from ragtui.core.models.embedded import EMBEDDED_MAX_TOKENS, attach, needs_embedded, start_embedded
from ragtui.core.models.endpoints import EMBEDDED_MODEL, resolve_endpoints
from ragtui.core.models.local_model import LocalModel, LocalModelSettings
from ragtui.core.models.local_model_file import EMBEDDED_MODEL as MODEL_SPEC
from ragtui.core.models.local_model_file import find_chunks
from ragtui.core.store.store import Store
from ragtui.core.types.errors import RagtuiError

USER_CACHE_HOME = paths.cache_dir().parent  # the real cache, read before fixtures move XDG dirs


def embedded_missing() -> str | None:
    if importlib.util.find_spec("xllamacpp") is None:
        return "xllamacpp is not installed (pip install -e '.[embedded]')"
    try:
        find_chunks()
    except RagtuiError as exc:
        return exc.message
    return None


needs_model = pytest.mark.skipif(embedded_missing() is not None, reason=str(embedded_missing()))


@pytest.fixture(scope="module")
def embedded_config(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Config, LocalModel]]:
    """One embedded server for the module, using the real model cache (assembled once) and a
    registry of its own (module fixtures run before the per-test XDG isolation)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(USER_CACHE_HOME))
        mp.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("embedded-state")))
        for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
            mp.delenv(name, raising=False)
        # The smoke test covers one turn; the dialogue verdicts (several more calls) are measured
        # on the embedded model by bench/bench_simulator.py instead of slowing every test run.
        config = Config(language="en", dialogue_metrics=[])
        model = LocalModel(LocalModelSettings(ctx_size=4096, parallel=1))
        model.start()
    try:
        yield config, model
    finally:
        model.stop()


@pytest.mark.embedded
@needs_model
async def test_one_real_turn_on_the_embedded_model(embedded_config, tmp_path: Path):
    """With no endpoint configured, every role resolves to the embedded model and a full turn
    (customer → bot → judge) is stored with a verdict: scored, or unscored with the raw reply."""
    config, model = embedded_config
    endpoints = resolve_endpoints(config)
    assert needs_embedded(endpoints) and all(e.model == EMBEDDED_MODEL for e in endpoints.values())
    assert "demo quality" in endpoints["judge"].label
    attach(endpoints, model.base_url or "", model.token)
    store = Store.open(tmp_path / "embedded.db")
    engine = Engine(config, endpoints, store)
    scenario = next(s for s in load_scenarios(config.scenarios, "en") if s.id == "id-linking")
    persona = next(p for p in load_personas(config.personas, "en") if p.name == "calm")
    try:
        events = [e async for e in engine.new_dialogue(scenario, persona, max_turns=1).run()]
    finally:
        await engine.aclose()
    done = events[-1]
    assert done.stop_reason == "max_turns", getattr(done, "error", None)
    session = store.session(done.session_id)
    bot = session.messages[1]
    assert bot.role == "bot" and bot.text.strip() and bot.passages
    assert bot.model and bot.completion_tokens
    (judgment,) = session.judgments
    assert judgment.raw_reply.strip()
    if judgment.score is None:
        assert judgment.error  # unscored says why and keeps the raw reply; never a silent 0
    else:
        assert 0.2 <= judgment.score <= 1.0 and set(judgment.details["scores"]) >= {"overall"}


ORPHAN_SCRIPT = """
import os, sys
from ragtui.core.models.local_model import LocalModel, LocalModelSettings
model = LocalModel(LocalModelSettings(ctx_size=1024, parallel=1))
model.start()
print(model.pid, flush=True)
sys.stdin.read()  # wait to be killed
"""


@pytest.mark.embedded
@needs_model
def test_no_server_outlives_a_killed_ragtui(tmp_path: Path):
    """SIGKILL skips every cleanup handler in the parent; the child must notice and exit."""
    env = {**os.environ, "XDG_CACHE_HOME": str(USER_CACHE_HOME), "XDG_STATE_HOME": str(tmp_path)}
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHAN_SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        child_pid = int(parent.stdout.readline())  # type: ignore[union-attr]
        child = os.pidfd_open(child_pid)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=30)
    try:
        # A pidfd becomes readable when the process exits: a wait with a deadline, no sleeping.
        readable, _, _ = select.select([child], [], [], 15)
        assert readable, f"llama.cpp server {child_pid} still running 15 s after ragtui was killed"
    finally:
        os.close(child)


def test_missing_runtime_names_the_install_command(monkeypatch: pytest.MonkeyPatch):
    config = Config()
    endpoints = resolve_endpoints(config)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "xllamacpp" else real(name, *a))
    with pytest.raises(RagtuiError, match=r"ragtui\[embedded\]"):
        start_embedded(config, endpoints)


def test_missing_model_packages_name_the_extra():
    def nothing_installed(name: str) -> metadata.Distribution:
        raise metadata.PackageNotFoundError(name)

    with pytest.raises(RagtuiError) as caught:
        find_chunks(MODEL_SPEC, nothing_installed)
    assert "not installed" in caught.value.message and "ragtui[embedded]" in caught.value.hint
    assert "OPENAI_BASE_URL" in caught.value.hint


def test_attach_points_embedded_roles_and_bounds_their_replies(server):
    config = Config()
    config.roles["judge"].base_url = server.base_url
    config.roles["judge"].model = "remote-judge"
    endpoints = resolve_endpoints(config)
    attach(endpoints, "http://127.0.0.1:9/v1")
    assert endpoints["user"].base_url == endpoints["bot"].base_url == "http://127.0.0.1:9/v1"
    assert endpoints["user"].max_tokens == EMBEDDED_MAX_TOKENS["user"]
    assert endpoints["judge"].base_url == server.base_url and endpoints["judge"].max_tokens is None
    assert not needs_embedded(endpoints)


@pytest.mark.embedded
@needs_model
def test_a_crashed_server_restarts_on_the_same_address(embedded_config):
    """The engine's clients keep their URL, so a restart must come back on the same port."""
    _, model = embedded_config
    before = model.base_url
    os.kill(model.pid or 0, signal.SIGKILL)
    model._proc.wait(10)  # type: ignore[union-attr]
    assert not model.is_running
    assert model.restart() == before and model.is_running
