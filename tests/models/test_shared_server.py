"""One embedded server per user, shared by every ragtui process: attach, detach, keep-alive,
SIGKILL of the last process, stale state files, and a server dying mid-dialogue.

Real processes throughout: the server process is ragtui's own (``local_model_server`` with its
lease supervisor), with ``--backend tests.fakes.stub_llama`` serving a stand-in for llama.cpp so each test takes
milliseconds, not a 2 GB model load. The registry lives in the test's own XDG_STATE_HOME
(conftest). Waiting is done on pidfds or readiness lines with a deadline, never by sleeping.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from ragtui.core.config.settings import Config
from ragtui.core.content.personas import load_personas
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.dialogue.engine import Engine
from ragtui.core.dialogue.events import DialogueDone, Failure, MessageDone
from ragtui.core.models.embedded import ServerRecovery, attach
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.local_model import (
    CTX_PER_SLOT,
    PROMPT_FAMILIES,
    LocalModel,
    LocalModelSettings,
    busy_cpus,
    busy_slots_for,
    cpu_share,
    default_threads,
    slots_for,
    wait_gone,
)
from ragtui.core.models.server_registry import Registry, ServerState, process_start_time
from ragtui.core.store.store import Store
from ragtui.core.types.errors import RagtuiError
from stand_ins.fake_openai import FakeOpenAIServer

DEADLINE = 30.0  # generous bound for a loaded machine; the happy path takes milliseconds


@pytest.fixture
def fake_gguf(tmp_path: Path) -> Path:
    path = tmp_path / "stub.gguf"
    path.write_bytes(b"GGUF\x03\x00\x00\x00")
    return path


@pytest.fixture
def settings(fake_gguf: Path) -> LocalModelSettings:
    return LocalModelSettings(
        model_path=fake_gguf, backend="tests.fakes.stub_llama", min_available_bytes=0, load_timeout=60
    )


def gone(state: ServerState) -> bool:
    return wait_gone(state.pid, state.start, DEADLINE)


ATTACH_SCRIPT = """
import json, sys
from pathlib import Path
from ragtui.core.models.local_model import LocalModel, LocalModelSettings
settings = LocalModelSettings(model_path=Path(sys.argv[1]), backend="tests.fakes.stub_llama", min_available_bytes=0,
                              keep_alive=float(sys.argv[2]))
model = LocalModel(settings)
model.start()
print(json.dumps({"pid": model.pid, "url": model.base_url, "started_here": model.started_here}), flush=True)
sys.stdin.read()  # attached until stdin closes (or until killed)
model.stop()
print("detached", flush=True)
"""


class Attached:
    """A separate ragtui-like process attached to the shared server."""

    def __init__(self, model_path: Path, keep_alive: float = 0.0) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", ATTACH_SCRIPT, str(model_path), str(keep_alive)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ready(self) -> dict:
        line = self.proc.stdout.readline()  # type: ignore[union-attr]
        assert line, f"attaching process exited with {self.proc.wait(DEADLINE)}"
        return json.loads(line)

    def detach(self) -> None:
        self.proc.stdin.close()  # type: ignore[union-attr]
        assert self.proc.stdout.readline().strip() == "detached"  # type: ignore[union-attr]
        self.proc.wait(DEADLINE)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(DEADLINE)


def test_slots_follow_concurrency_and_keep_one_per_prompt_family() -> None:
    assert busy_slots_for(1) == 2 and busy_slots_for(3) == 3 and busy_slots_for(32) == 4
    # At least a slot per prompt family of a dialogue, so none evicts another's cached prompt;
    # the KV cache is sized for the busy slots (idle ones only hold their cached prompt).
    assert slots_for(1) == slots_for(32) == PROMPT_FAMILIES == 6
    settings = LocalModelSettings.from_config(Config().embedded, concurrency=4)
    assert settings.parallel == 6 and settings.ctx_size == 4 * CTX_PER_SLOT
    assert LocalModelSettings.from_config(Config().embedded, concurrency=1).ctx_size == 8192


def test_second_process_attaches_and_the_last_one_out_stops_it(settings: LocalModelSettings) -> None:
    first = LocalModel(settings)
    url = first.start()
    state = first.state
    assert state is not None and first.started_here and first.token
    other = Attached(settings.model_path)  # type: ignore[arg-type]
    try:
        seen = other.ready()
        assert seen == {"pid": state.pid, "url": url, "started_here": False}
        assert {lease.pid for lease in first.attached()} == {os.getpid(), other.proc.pid}
        first.stop()  # another process still uses it
        assert state.alive and Registry().read_state() == state
        other.detach()  # the last one out stops it
        assert gone(state)
        assert Registry().read_state() is None and Registry().leases() == []
    finally:
        first.stop()
        if other.proc.poll() is None:
            other.kill()


def test_two_processes_starting_at_once_share_one_server(settings: LocalModelSettings) -> None:
    procs = [Attached(settings.model_path) for _ in range(3)]  # type: ignore[arg-type]
    try:
        seen = [p.ready() for p in procs]
        assert len({s["pid"] for s in seen}) == 1
        assert sum(s["started_here"] for s in seen) == 1
        state = Registry().read_state()
        assert state is not None
    finally:
        for p in procs:
            p.detach() if p.proc.poll() is None else None
    assert gone(state)


def test_sigkill_of_the_last_process_leaves_no_server(settings: LocalModelSettings) -> None:
    first, second = Attached(settings.model_path), Attached(settings.model_path)  # type: ignore[arg-type]
    first.ready()
    second.ready()
    state = Registry().read_state()
    assert state is not None
    first.kill()  # no cleanup handler runs
    second.kill()
    assert gone(state), "server still running after every attached process was killed"
    assert Registry().read_state() is None


def test_keep_alive_keeps_it_warm_for_the_next_command(settings: LocalModelSettings) -> None:
    warm = replace(settings, keep_alive=60.0)
    first = LocalModel(warm)
    first.start()
    state = first.state
    assert state is not None
    first.stop()
    assert state.alive  # nobody attached, but kept warm
    second = LocalModel(settings)
    second.start()
    assert second.pid == state.pid and not second.started_here
    # keep_alive = 0 for the last one out: it stops now.
    second.stop()
    assert gone(state)


def test_keep_alive_runs_out(settings: LocalModelSettings) -> None:
    short = replace(settings, keep_alive=0.5)
    model = LocalModel(short)
    model.start()
    state = model.state
    assert state is not None
    model.stop()
    assert gone(state)
    assert Registry().read_state() is None


def test_stale_state_of_a_dead_server_is_replaced(settings: LocalModelSettings) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    registry = Registry()
    with FakeOpenAIServer() as other_program:  # the old port now belongs to something else
        stale = ServerState(dead.pid, 1, "127.0.0.1", other_program.port, "old-token", "m", 2, 1, 1024, "log", 0.0)
        registry.write_state(stale)
        model = LocalModel(settings)
        try:
            url = model.start()
            assert model.started_here and url != stale.base_url
            assert registry.read_state() == model.state
        finally:
            model.stop()


def test_state_naming_a_live_process_that_is_not_our_server(settings: LocalModelSettings) -> None:
    """A state file may name a live pid (recycled, or a corrupt file): it is replaced, and
    that process is never signalled."""
    me = os.getpid()
    with FakeOpenAIServer() as other_program:
        Registry().write_state(
            ServerState(me, process_start_time(me) or 0, "127.0.0.1", other_program.port, "t", "m", 2, 1, 1, "l", 0)
        )
        model = LocalModel(settings)
        try:
            model.start()
            assert model.started_here and model.pid != me
        finally:
            model.stop()


def test_a_hung_server_is_replaced(settings: LocalModelSettings) -> None:
    first = LocalModel(settings)
    first.start()
    state = first.state
    assert state is not None
    os.kill(state.pid, signal.SIGSTOP)  # alive, but answers nothing
    deadline = time.monotonic() + DEADLINE
    while _proc_state(state.pid) != "T" and time.monotonic() < deadline:
        time.sleep(0.01)  # waiting for the kernel to stop it, bounded by the deadline
    try:
        second = LocalModel(replace(settings, load_timeout=60))
        second.start()
        assert second.pid != state.pid and gone(state)
    finally:
        os.kill(state.pid, signal.SIGCONT) if state.alive else None
        second.stop()
        first.stop()


def _proc_state(pid: int) -> str:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rfind(")") + 2]


def test_port_in_use_is_named(settings: LocalModelSettings) -> None:
    with FakeOpenAIServer() as busy:
        model = LocalModel(replace(settings, port=busy.port))
        with pytest.raises(RagtuiError, match="cannot listen"):
            model.start()
    assert Registry().leases() == []


def _dialogue(tmp_path: Path, model: LocalModel) -> tuple[Engine, object]:
    config = Config(language="en", max_turns=2)
    endpoints = resolve_endpoints(config)
    attach(endpoints, model.base_url or "", model.token)
    for endpoint in endpoints.values():
        endpoint.max_retries = 0
        endpoint.timeout = 10
    engine = Engine(config, endpoints, Store.open(tmp_path / "shared.db"))
    engine.recover = ServerRecovery(model)
    scenario = next(s for s in load_scenarios(config.scenarios, "en") if s.id == "id-linking")
    persona = next(p for p in load_personas(config.personas, "en") if p.name == "calm")
    return engine, engine.new_dialogue(scenario, persona)


async def test_server_dying_mid_dialogue_is_restarted_and_the_step_retried(
    settings: LocalModelSettings, tmp_path: Path
) -> None:
    model = LocalModel(settings)
    model.start()
    engine, dialogue = _dialogue(tmp_path, model)
    try:
        [e async for e in dialogue.step()]  # turn 1: the scenario's question, no model call
        dead = model.state
        assert dead is not None
        os.kill(dead.pid, signal.SIGKILL)
        assert gone(dead)
        events = [e async for e in dialogue.step()]  # the bot step: fails, restart, retried
        assert not [e for e in events if isinstance(e, Failure)]
        assert [e.role for e in events if isinstance(e, MessageDone)] == ["bot"]
        assert model.pid != dead.pid and model.base_url and model.address == dead.base_url
        events = [e async for e in dialogue.run()]
        assert events[-1].stop_reason == "max_turns"  # type: ignore[union-attr]
    finally:
        await engine.aclose()
        model.stop()


async def test_server_that_cannot_come_back_ends_the_dialogue_naming_the_log(
    settings: LocalModelSettings, tmp_path: Path
) -> None:
    model = LocalModel(settings)
    model.start()
    engine, dialogue = _dialogue(tmp_path, model)
    try:
        [e async for e in dialogue.step()]
        dead = model.state
        assert dead is not None
        os.kill(dead.pid, signal.SIGKILL)
        assert gone(dead)
        broken = tmp_path / "broken.gguf"
        broken.write_bytes(b"not a model")
        model.settings = replace(settings, model_path=broken)
        events = [e async for e in dialogue.run()]
        done = events[-1]
        assert isinstance(done, DialogueDone) and done.stop_reason == "error"
        assert "llama-server.log" in (done.error or "") and "could not be restarted" in (done.error or "")
    finally:
        await engine.aclose()
        model.stop()


def test_the_token_is_required(settings: LocalModelSettings) -> None:
    import urllib.error
    import urllib.request

    with LocalModel(settings) as model:
        state = model.state
        assert state is not None
        with pytest.raises(urllib.error.HTTPError) as denied:
            urllib.request.urlopen(f"http://127.0.0.1:{state.port}/props", timeout=DEADLINE)
        assert denied.value.code == 401
        mode = (Registry().state_file.stat().st_mode) & 0o777
        assert mode == 0o600
        assert state.token not in Path(f"/proc/{state.pid}/cmdline").read_text()
    assert gone(state)


def test_pidfd_wait_does_not_sleep_past_exit() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    start = process_start_time(proc.pid) or 0
    assert not wait_gone(proc.pid, start, 0.01)
    proc.stdin.close()  # type: ignore[union-attr]
    proc.wait(DEADLINE)
    assert wait_gone(proc.pid, start, DEADLINE)


def test_doctor_lists_every_attached_process(settings: LocalModelSettings) -> None:
    from ragtui.cli.doctor import server_checks

    other = Attached(settings.model_path)  # type: ignore[arg-type]
    try:
        other.ready()
        with LocalModel(settings) as model:
            checks = server_checks(model)
            assert checks[0].ok and f"pid {model.pid}" in checks[0].detail and "0 of 2 slots busy" in checks[0].detail
            attached = {c.what: c.detail for c in checks[1:]}
            assert set(attached) == {f"attached: pid {os.getpid()}", f"attached: pid {other.proc.pid}"}
            assert "(this doctor)" in attached[f"attached: pid {os.getpid()}"]
            assert attached[f"attached: pid {other.proc.pid}"].startswith("python -c")
    finally:
        other.detach()


async def test_header_shows_the_role_streaming_now() -> None:
    from textual.app import App, ComposeResult

    from ragtui.tui.widgets.header import SessionHeader, SessionInfo

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield SessionHeader()

    async with Host().run_test() as pilot:
        header = pilot.app.query_one(SessionHeader)
        header.info = SessionInfo(session_id=3, live="bot answering · 57 tok · 9.8 tok/s")
        assert "bot answering · 57 tok · 9.8 tok/s" in header.render_text().plain
        header.info = replace(header.info, live="")
        assert "tok/s" not in header.render_text().plain


@pytest.mark.parametrize(
    ("value", "seconds"), [('"10m"', 600.0), ('"30s"', 30.0), ('"1h"', 3600.0), ("0", 0.0), ("2.5", 2.5)]
)
def test_keep_alive_and_parallel_in_the_config(tmp_path: Path, value: str, seconds: float) -> None:
    from ragtui.core.config.settings import load_config

    path = tmp_path / "ragtui.toml"
    path.write_text(f"concurrency = 8\n[embedded]\nkeep_alive = {value}\nparallel = 3\n", encoding="utf-8")
    config = load_config(path)
    assert config.embedded.keep_alive == seconds and config.embedded.parallel == 3
    settings = LocalModelSettings.from_config(config.embedded, config.concurrency)
    assert settings.keep_alive == seconds and settings.parallel == 3


@pytest.mark.parametrize("value", ['"ten minutes"', '"-5s"', "-1", "true"])
def test_bad_keep_alive_names_the_key(tmp_path: Path, value: str) -> None:
    from ragtui.core.config.settings import load_config
    from ragtui.core.types.errors import ConfigError

    path = tmp_path / "ragtui.toml"
    path.write_text(f"[embedded]\nkeep_alive = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[embedded\] keep_alive") as info:
        load_config(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    ("load", "cpus", "threads"),
    [(0.2, 2, 2), (1.4, 2, 2), (1.6, 2, 1), (6.0, 2, 1), (9.0, 1, 1), (3.0, 8, 8), (7.8, 8, 7)],
)
def test_the_embedded_server_takes_a_thread_fewer_on_a_busy_machine(load, cpus, threads):
    assert default_threads(load=load, cpus=cpus) == threads


def test_the_busy_share_comes_from_two_cpu_time_readings():
    assert cpu_share(((1_000, 4_000), (1_150, 4_200))) == pytest.approx(0.75)
    assert cpu_share(((1_000, 4_000), (1_000, 4_000))) == 0.0  # no time passed: not busy
    assert 0.0 <= busy_cpus(sample_s=0.01) <= (os.cpu_count() or 1)


@pytest.mark.parametrize(("table", "repack"), [("", False), ("repack = false\n", False), ("repack = true\n", True)])
def test_weight_repacking_is_off_unless_the_config_asks_for_it(tmp_path: Path, table: str, repack: bool) -> None:
    import argparse

    pytest.importorskip("xllamacpp")
    from ragtui.core.config.settings import load_config
    from ragtui.core.models.local_model_server import _params

    path = tmp_path / "ragtui.toml"
    path.write_text(f"[embedded]\n{table}", encoding="utf-8")
    settings = LocalModelSettings.from_config(load_config(path).embedded)
    assert settings.repack is repack
    args = argparse.Namespace(
        model="m.gguf", alias="a", host="127.0.0.1", port=0, ctx_size=4096, parallel=2, threads=2, poll=50,
        cache_ram_mib=64, repack=int(settings.repack),
    )  # fmt: skip
    assert _params(args, None).no_extra_bufts is (not repack)


def test_a_repack_that_is_not_true_or_false_names_the_key(tmp_path: Path) -> None:
    from ragtui.core.config.settings import load_config
    from ragtui.core.types.errors import ConfigError

    path = tmp_path / "ragtui.toml"
    path.write_text("[embedded]\nrepack = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[embedded\] repack must be bool"):
        load_config(path)
