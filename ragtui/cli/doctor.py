"""``ragtui doctor``: which endpoint and model each role uses, whether it answers, the embedded
model's state, and what to do about anything that is wrong. Exit 0 when all is well, 2 if not.
Each endpoint and the bot under test get ``--timeout`` seconds (30 by default) to answer."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib.util
import os
import time
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text

from ..core.bots.probe import BotProbeResult, aprobe_bot, probe_question
from ..core.config.limits import DOCTOR_WAIT, MAX_DOCTOR_WAIT
from ..core.config.settings import Config
from ..core.models.endpoints import Endpoint, resolve_each
from ..core.models.llm import ClientPool
from ..core.models.local_model import LocalModel, available_memory, log_path
from ..core.models.local_model_file import find_chunks, verified_cached_model
from ..core.models.preflight import CHECK_RETRIES, check_endpoint, checked
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.text.number_text import setting_text, tenths_text
from ..core.types.errors import RagtuiError
from .bot_probe_view import print_bot_probe
from .model_start import embedded_model
from .output import console, say_discovered


@dataclass
class Check:
    what: str
    ok: bool
    detail: str
    fix: str = ""


def embedded_checks(config: Config) -> list[Check]:
    """The embedded model's state without starting it."""
    checks = [
        Check(
            "runtime (xllamacpp)",
            importlib.util.find_spec("xllamacpp") is not None,
            "installed" if importlib.util.find_spec("xllamacpp") else "not installed",
            "pip install 'ragtui[embedded]'",
        )
    ]
    if config.embedded.model_path is not None:
        path = config.embedded.model_path
        checks.append(Check("model file (configured)", path.is_file(), str(path), "fix [embedded] model_path"))
        return checks
    cached = verified_cached_model()
    if cached is not None:
        checks.append(Check("model file", True, f"assembled, SHA-256 verified: {cached}"))
    else:
        try:
            find_chunks()
            checks.append(Check("model file", True, "chunk packages installed; assembled on first start (~5 s)"))
        except RagtuiError as exc:
            checks.append(Check("model file", False, exc.message, exc.hint))
    free = available_memory()
    if free is not None:
        checks.append(
            Check(
                "memory", free > 2_500_000_000, f"{tenths_text(free / 1e9)} GB available, ~2.5 GB needed", "free memory"
            )
        )
    return checks


def server_checks(model: LocalModel) -> list[Check]:
    """The shared server and who is attached to it: pid, command and since when."""
    state = model.state
    rss = model.rss_bytes()
    if state is None:
        return [Check("running", False, "not running", f"see {log_path()}")]
    slots = model.busy_slots()
    busy = f"{slots[0]} of {slots[1]}" if slots else f"? of {state.parallel}"
    checks = [
        Check(
            "running",
            True,
            f"pid {state.pid}, port {state.port}, {busy} slots busy, {state.threads} threads, "
            f"context {state.ctx_size} tokens, RSS {tenths_text((rss or 0) / 1e9)} GB, log {state.log}",
        )
    ]
    now = time.time()
    for lease in model.attached():
        me = " (this doctor)" if lease.pid == os.getpid() else ""
        keep = f", keep warm {setting_text(lease.keep_alive)} s after" if lease.keep_alive else ""
        checks.append(
            Check(f"attached: pid {lease.pid}", True, f"{lease.command}{me} — for {_ago(now - lease.since)}{keep}")
        )
    return checks


def _ago(seconds: float) -> str:
    seconds = max(int(seconds), 0)
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"


def check_wait(seconds: float) -> float:
    """``--timeout``: over 0 (and a number: argparse takes ``nan`` and ``inf`` as floats)."""
    if not 0 < seconds <= MAX_DOCTOR_WAIT:
        raise RagtuiError(
            f"--timeout must be over 0 and at most {setting_text(MAX_DOCTOR_WAIT)} seconds, got {setting_text(seconds)}",
            f"the default is {setting_text(DOCTOR_WAIT)}",
        )
    return seconds


def no_answer(what: str, seconds: float) -> str:
    return f"{what} did not answer within {setting_text(seconds)} s (ragtui doctor --timeout SECONDS waits longer)"


async def probe(
    endpoint: Endpoint,
    pool: ClientPool,
    listed: dict[tuple[str, str], bool] | None = None,
    wait: float = DOCTOR_WAIT,
) -> Check:
    """What is wrong with the endpoint itself (``preflight``), then one tiny chat completion:
    proves the URL, the key and the model name together. A failed request is retried at most
    once: a gateway has usually retried its upstream already. Both together get ``wait`` seconds."""
    started = time.perf_counter()
    try:
        async with asyncio.timeout(wait):
            await check_endpoint(endpoint, pool, timeout=min(5.0, wait), listed=listed)
            reply = await checked(endpoint, pool).complete(
                [{"role": "user", "content": "Reply with the word OK."}], max_tokens=8
            )
    except TimeoutError:
        what = f"the {endpoint.role} endpoint {endpoint.base_url or 'embedded model'} ({endpoint.model})"
        return Check(
            f"{endpoint.role}: answers", False, no_answer(what, wait), "is the server up and the model loaded?"
        )
    except RagtuiError as exc:
        return Check(f"{endpoint.role}: answers", False, exc.message, exc.hint)
    seconds = time.perf_counter() - started
    said = " ".join(reply.text.split())[:40]
    model = f"{reply.served_model} answering for {reply.model}" if reply.served_model else reply.model
    return Check(f"{endpoint.role}: answers", True, f"in {tenths_text(seconds)} s ({model}): {said!r}")


def render(title: str, checks: list[Check]) -> None:
    table = Table(title=title, title_justify="left", show_header=False, box=None, padding=(0, 1))
    for check in checks:
        mark = Text("ok  ", style="green") if check.ok else Text("FAIL", style="bold red")
        detail = Text(check.detail)
        if not check.ok and check.fix:
            detail.append(f"\n→ {check.fix}", style="yellow")
        table.add_row(mark, Text(check.what, style="bold"), detail)
    console.print(table)


async def doctor(args: argparse.Namespace, overrides: Overrides) -> int:
    wait = check_wait(getattr(args, "timeout", DOCTOR_WAIT))
    config = bootstrap.load_effective_config(overrides)
    config_line = f"config: {config.source or 'none (defaults and environment)'} · database: {config.database}"
    console.print(Text(config_line, style="dim"))
    # Every role is resolved and checked, whatever the others do: one run shows all that is wrong.
    resolved = resolve_each(config, overrides.model)
    endpoints = {role: e for role, e in resolved.items() if isinstance(e, Endpoint)}
    say_discovered(endpoints)
    roles = [
        Check(role, True, f"{e.label} at {e.public()['base_url']} (key: ${e.api_key_env})")
        if isinstance(e, Endpoint)
        else Check(role, False, e.message, e.hint)
        for role, e in resolved.items()
    ]
    render("Roles", roles)
    checks: list[Check] = []
    if any(e.embedded for e in endpoints.values()):
        checks = embedded_checks(config)
        render("Embedded model", checks)
        if not all(c.ok for c in checks):
            return 2
    results: list[Check] = []
    with embedded_model(config, endpoints) as model:
        if model is not None:
            render("Embedded server (shared by every ragtui process of this user)", server_checks(model))
        pool = ClientPool()
        try:
            seen: dict[tuple[str | None, str], Check] = {}
            listed: dict[tuple[str, str], bool] = {}
            for endpoint in endpoints.values():
                key = (endpoint.base_url, endpoint.model)
                if key not in seen:
                    seen[key] = await probe(endpoint, pool, listed, wait)
                    results.append(seen[key])
                else:
                    results.append(Check(f"{endpoint.role}: answers", seen[key].ok, "same endpoint and model as above"))
        finally:
            await pool.aclose()
        if results:
            render("Endpoints", results)
        # The bot under test, asked one question: the raw response and what the mapping took.
        console.print(Text("Bot under test", style="bold"))
        if isinstance(resolved.get("bot"), RagtuiError):
            bot = BotProbeResult(config.bot.type, "", error="not asked: its role's endpoint is wrong (see Roles)")
        else:  # at most one retry here too: a doctor must answer quickly
            quick = {
                r: dataclasses.replace(e, max_retries=min(e.max_retries, CHECK_RETRIES)) for r, e in endpoints.items()
            }
            question = probe_question(config)
            try:
                async with asyncio.timeout(wait):
                    bot = await aprobe_bot(config, quick, question)
            except TimeoutError:
                bot = BotProbeResult(config.bot.type, question, error=no_answer("the bot under test", wait))
        print_bot_probe(bot)
    healthy = all(c.ok for c in roles + results) and bot.ok
    console.print(
        Text("All good." if healthy else "Something needs fixing: see FAIL above.", style="green" if healthy else "red")
    )
    return 0 if healthy else 2
