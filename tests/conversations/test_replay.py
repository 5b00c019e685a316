"""Replaying imported conversations against the bot under test, two ways, against the fake
server: a replay re-sends exactly the real customer's messages; N+1 sends the real history
(the human agent's answer included, notes left out) and records one new answer per tested turn;
`ragtui compare` pairs each conversation (or tested turn) with the original."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from ragtui.cli.main import main
from stand_ins.fake_openai import Reply

from ..conftest import BOT, endpoint_toml

CONVERSATIONS = [
    {
        "id": "c1",
        "messages": [
            {"role": "user", "content": "My parcel has not arrived."},
            {"role": "assistant", "content": "Let me pass you to a colleague."},
            {"role": "agent", "content": "Hi, Mika here: I have resent it today."},
            {"role": "system", "content": "internal: refund flagged"},
            {"role": "user", "content": "Thanks. When will it come?"},
            {"role": "assistant", "content": "Within three days, by courier."},
            {"role": "user", "content": "Great, that is all."},
        ],
    },
    {
        "id": "c2",
        "messages": [
            {"role": "user", "content": "Do you ship to Canada?"},
            {"role": "assistant", "content": "Yes, we do."},
        ],
    },
]
CUSTOMER = {
    "c1": ["My parcel has not arrived.", "Thanks. When will it come?", "Great, that is all."],
    "c2": ["Do you ship to Canada?"],
}


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text('language = "en"\nmax_turns = 5\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url))
    chats = tmp_path / "chats.jsonl"
    chats.write_text("".join(json.dumps(c) + "\n" for c in CONVERSATIONS), encoding="utf-8")
    assert main(["import", str(chats), "--config", str(path), "--run-id", "real"]) == 0
    assert server.chat_requests() == []  # the import sent nothing to any model
    return path


def cli(config_file: Path, *args: str) -> int:
    return main([args[0], "--config", str(config_file), *args[1:]])


def rows(db: Path, sql: str, *params: object) -> list[tuple]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute(sql, params).fetchall()


def said(content: str) -> str:
    """A message as the customer wrote it: the built-in bot sends the newest one after the
    passages it retrieved."""
    return content.split("Customer's message:\n", 1)[-1].strip()


def bot_conversations(server) -> list[list[tuple[str, str]]]:
    """What the bot was sent, request by request: (role, content), the system prompt left out."""
    return [
        [(m["role"], said(m["content"])) for m in body["messages"] if m["role"] != "system"]
        for body in server.chat_requests(BOT)
    ]


def newest_run(db: Path) -> str:
    return rows(db, "SELECT run_id FROM sessions ORDER BY id DESC LIMIT 1")[0][0]


def test_replay_resends_exactly_the_real_customer_messages_and_compare_pairs_them(
    config_file, server, tmp_path, capsys
):
    server.set_default(BOT, Reply("The new bot's answer."))
    assert cli(config_file, "run", "--replay", "real") == 0
    out = capsys.readouterr().out
    db = tmp_path / "runs.db"
    new = newest_run(db)
    # Each request's last message is the real customer's, in order; the history is the new bot's own.
    sent: dict[str, list[str]] = {"c1": [], "c2": []}
    for messages in bot_conversations(server):
        key = "c1" if messages[0][1] == CUSTOMER["c1"][0] else "c2"
        assert messages[-1][0] == "user"
        sent[key].append(messages[-1][1])
        assert [text for role, text in messages if role == "assistant"] == ["The new bot's answer."] * (
            len(messages) // 2
        )
    assert sent == CUSTOMER
    stored = rows(
        db,
        "SELECT s.scenario_id, s.persona_name, s.replay_of IS NOT NULL, m.text FROM messages m "
        "JOIN sessions s ON s.id = m.session_id WHERE s.run_id = ? AND m.role = 'user' ORDER BY s.id, m.turn",
        new,
    )
    assert [(r[0], r[3]) for r in stored] == [(k, t) for k in ("c1", "c2") for t in CUSTOMER[k]]
    assert {(r[1], r[2]) for r in stored} == {("real-customer", 1)}
    assert "run " + new in out
    # compare: each conversation beside its replay; the original was never judged: unscored side.
    status = cli(config_file, "compare", "real", new)
    out = capsys.readouterr().out
    assert status == 0, out
    assert "c1 × real-customer" in out and "c2 × real-customer" in out
    assert "base real: real conversations whose answers are not judged yet" in out
    assert "no scenario × persona in common" not in out


def test_next_turn_sends_the_real_history_and_records_one_answer(config_file, server, tmp_path, capsys):
    server.set_default(BOT, Reply("It will come on Friday."))
    assert cli(config_file, "run", "--replay", "real", "--at-turn", "2") == 0
    out = capsys.readouterr().out
    db = tmp_path / "runs.db"
    c2 = rows(db, "SELECT id FROM sessions WHERE run_id = 'real' AND scenario_id = 'c2'")[0][0]
    assert f"conversation c2 (session {c2}) has 1 turn(s); turn 2 skipped" in out
    # One request to the bot: the real history, the agent's answer as an assistant message, no note.
    assert bot_conversations(server) == [
        [
            ("user", "My parcel has not arrived."),
            ("assistant", "Let me pass you to a colleague."),
            ("assistant", "Hi, Mika here: I have resent it today."),
            ("user", "Thanks. When will it come?"),
        ]
    ]
    new = newest_run(db)
    sessions = rows(db, "SELECT id, scenario_id, scenario, config, turns FROM sessions WHERE run_id = ?", new)
    assert len(sessions) == 1
    sid, scenario_id, scenario, config, turns = sessions[0]
    assert scenario_id == "c1" and turns == 2
    assert json.loads(scenario)["reference"] == "Within three days, by courier."
    assert json.loads(config)["next_turn"]["at_turn"] == 2
    messages = rows(db, "SELECT turn, role, text FROM messages WHERE session_id = ? ORDER BY id", sid)
    assert messages == [(2, "user", "Thanks. When will it come?"), (2, "bot", "It will come on Friday.")]
    assert rows(db, "SELECT COUNT(*) FROM judgments WHERE session_id = ? AND metric = 'rubric'", sid) == [(1,)]
    # show: the real answer beside the new one
    assert cli(config_file, "show", str(sid)) == 0
    shown = capsys.readouterr().out
    assert "N+1: answers turn 2 of session" in shown and "Within three days, by courier." in shown
    assert "It will come on Friday." in shown
    # compare: the original's turn 2 beside the N+1 answer
    status = cli(config_file, "compare", "real", new)
    out = capsys.readouterr().out
    assert status == 0, out
    assert "c1 · turn 2 ×" in out and "unscored" in out
    assert "c2 · turn" not in out  # c2 has no turn 2: not tested, not paired


def test_next_turn_at_every_turn_pairs_each_turn(config_file, server, tmp_path, capsys):
    assert cli(config_file, "run", "--replay", "real", "--at-turn", "all") == 0
    capsys.readouterr()
    db = tmp_path / "runs.db"
    new = newest_run(db)
    tested = rows(
        db,
        "SELECT scenario_id, json_extract(config, '$.next_turn.at_turn') FROM sessions WHERE run_id = ? ORDER BY id",
        new,
    )
    assert tested == [("c1", 1), ("c1", 2), ("c1", 3), ("c2", 1)]
    assert len(server.chat_requests(BOT)) == 4
    assert cli(config_file, "compare", "real", new) == 0
    out = capsys.readouterr().out
    for label in ("c1 · turn 1", "c1 · turn 2", "c1 · turn 3", "c2 · turn 1"):
        assert label in out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--replay", "real", "--at-turn", "0"), "--at-turn 0: turns are numbered from 1"),
        (("--replay", "real", "--at-turn", "two"), "--at-turn 'two' is not a turn number"),
        (("--replay", "nothing-here", "--at-turn", "2"), "no run 'nothing-here'"),
        (("--at-turn", "2"), "--at-turn only applies to a replay of an imported run"),
        (("--replay", "real", "--at-turn", "9"), "run real: no conversation has a turn 9"),
    ],
)
def test_bad_at_turn_is_one_line_and_writes_nothing(config_file, server, tmp_path, capsys, args, said):
    db = tmp_path / "runs.db"
    before = rows(db, "SELECT COUNT(*) FROM sessions")
    assert cli(config_file, "run", *args) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1, err
    assert rows(db, "SELECT COUNT(*) FROM sessions") == before
    assert server.chat_requests(BOT) == []


def test_at_turn_on_a_run_ragtui_ran_is_refused(config_file, server, tmp_path, capsys):
    assert cli(config_file, "run", "--replay", "real") == 0  # a replay: a simulated run
    capsys.readouterr()
    assert cli(config_file, "run", "--replay", "last", "--at-turn", "1") == 2
    err = capsys.readouterr().err
    assert "--at-turn needs an imported run" in err and len(err.strip().splitlines()) == 1


async def test_an_interrupted_next_turn_session_resumes_with_the_real_history(engine, store, server):
    from ragtui.core.runs.next_turn import plan_next_turn

    chats = store.path.parent / "chats.jsonl"
    chats.write_text("".join(json.dumps(c) + "\n" for c in CONVERSATIONS), encoding="utf-8")
    assert main(["import", str(chats), "--db", str(store.path), "--run-id", "real"]) == 0
    plan = plan_next_turn(store, "real", 2)
    (created,) = plan.builder()(engine, "n1")  # created, never run: as a run killed before its turn
    store.set_status(created.session_id, "interrupted", "interrupted", None)
    resumed = engine.resume_dialogue(created.session_id)
    assert (resumed.turn, resumed.max_turns) == (1, 2)
    async for _event in resumed.run():
        pass
    (sent,) = bot_conversations(server)
    assert sent[1:3] == [
        ("assistant", "Let me pass you to a colleague."),
        ("assistant", "Hi, Mika here: I have resent it today."),
    ]
    assert [(m.turn, m.role) for m in store.session(created.session_id).messages] == [(2, "user"), (2, "bot")]
