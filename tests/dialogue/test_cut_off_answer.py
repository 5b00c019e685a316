"""A bot answer that outruns ``reply_timeout`` while still streaming is kept as far as it got,
marked cut off, and judged: an out-of-scope probe's invented procedure shows in its first
sentences, and ending the dialogue as an error with an empty answer would leave the very
hallucination it was written to catch without a verdict. The fake server streams the answer's
first pieces and then stalls, well inside ``timeout`` and past a short ``reply_timeout``."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.config.bot_config import parse_bot
from ragtui.core.dialogue.engine import Engine
from ragtui.core.dialogue.events import DialogueDone, Failure, MessageDone
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.export import sessions_to_csv
from ragtui.core.types.calls import CUT_AT_REPLY_TIMEOUT
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, endpoint_toml

INVENTED = "Gift cards are sold in the app: open Settings > Wallet > Gift cards and tap Buy, then choose an amount."
CHUNK = 10
SENT = INVENTED[: 4 * CHUNK]  # the four pieces streamed before the stall


def stalled_answer() -> Reply:
    """Four pieces of the invented procedure at once, then nothing: only reply_timeout ends it."""
    return Reply(INVENTED, chunk_chars=CHUNK, stall_after_chunks=4)


@pytest.mark.parametrize("bot_type", ["builtin", "openai"])
async def test_an_answer_cut_off_by_reply_timeout_is_kept_marked_and_judged(
    config, store, scenario, persona, server, bot_type
):
    config.roles["bot"].reply_timeout = 1.5  # timeout (each wait for data) stays 10 s
    if bot_type == "openai":  # a team's OpenAI-compatible bot, its own reply_timeout
        table = {"type": "openai", "base_url": server.base_url, "model": BOT, "reply_timeout": 1.5, "max_retries": 0}
        config.bot = parse_bot(table, "t.toml: [bot]", Path("."))
    config.max_turns = 1
    server.script(BOT, stalled_answer())
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        events = [e async for e in engine.new_dialogue(scenario, persona).run()]
    finally:
        await engine.aclose()
    assert not [e for e in events if isinstance(e, Failure)]
    done = events[-1]
    assert isinstance(done, DialogueDone) and done.stop_reason == "max_turns" and done.error is None
    (answer,) = [e for e in events if isinstance(e, MessageDone) and e.role == "bot"]
    assert answer.text == SENT and answer.finish_reason == CUT_AT_REPLY_TIMEOUT

    session = store.session(done.session_id)
    bot = next(m for m in session.messages if m.role == "bot")
    assert bot.text == SENT and bot.cut_at_reply_timeout and not bot.cut_by_limit
    assert bot.cut == "cut off at reply_timeout, judged as it stands"
    assert session.partials == []  # it is the answer, not a failure's record
    # judged on what the customer read: the judge was shown the cut-off answer, and scored it
    assert any(SENT in json.dumps(b["messages"]) for b in server.chat_requests(JUDGE))
    assert session.judgments and all(j.score is not None for j in session.judgments)
    assert session.score is not None and session.unscored_turns == 0

    (row,) = csv.DictReader(sessions_to_csv([session]).splitlines())
    assert row["assistant1"] == SENT and row["cut_at_reply_timeout"] == "assistant1"
    assert row["cut_by_token_limit"] == "" and row["stop_reason"] == "max_turns"


async def test_an_answer_with_nothing_streamed_by_reply_timeout_is_still_the_dialogue_s_error(
    config, store, scenario, persona, server
):
    config.roles["bot"].reply_timeout = 0.5
    server.script(BOT, Reply(INVENTED, hang=True))
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        events = [e async for e in engine.new_dialogue(scenario, persona).run()]
    finally:
        await engine.aclose()
    done = events[-1]
    assert isinstance(done, DialogueDone) and done.stop_reason == "error"
    assert "reply_timeout 0.5 s" in (done.error or "")
    assert [m.role for m in store.session(done.session_id).messages] == ["user"]


def test_run_show_export_and_the_report_mark_the_cut_off_answer(server, tmp_path: Path, capsys):
    config = tmp_path / "ragtui.toml"
    config.write_text(
        'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\n'
        + endpoint_toml(server.base_url).replace(f'model = "{BOT}"', f'model = "{BOT}"\nreply_timeout = 1.5')
    )
    server.script(BOT, stalled_answer())
    assert main(["run", "--config", str(config), "-s", "id-linking", "-p", "calm"]) in (0, 1)
    capsys.readouterr()
    assert main(["show", "1", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "cut off at reply_timeout" in out and SENT in " ".join(out.split()).replace("│ ", "")
    assert "PARTIAL" not in out
    exported = tmp_path / "runs.csv"
    assert main(["export", "--run", "last", "--csv", str(exported), "--config", str(config)]) == 0
    (row,) = csv.DictReader(exported.read_text(encoding="utf-8-sig").splitlines())
    assert row["cut_at_reply_timeout"] == "assistant1" and row["assistant1"] == SENT
    html = tmp_path / "report.html"
    assert main(["report", "last", "--html", str(html), "--config", str(config)]) == 0
    assert "bot · turn 1 · cut off at reply_timeout" in html.read_text(encoding="utf-8")
