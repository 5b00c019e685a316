"""`ragtui import`: real conversations stored as an imported run — no e-mail address, phone number
or card number anywhere in the database, the counts of what was redacted printed, the same file
twice adds nothing, and `ragtui show`, `sessions`, `export`, `runs` and `report` read the run."""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.metrics.dialogue import context_from_session
from ragtui.core.store.imported import imported_parts, imported_session, imports_of_run, run_kind
from ragtui.core.store.store import Store
from ragtui.core.text.pii import fold
from ragtui.core.types.personas import Persona

FILES = Path(__file__).parent / "files"
HOSTILE = [FILES / name for name in ("hostile.jsonl", "hostile.csv", "hostile.tsv", "hostile.json")]
# The four fictional sample files; the public sets in public/ have a test of their own.
SAMPLES = sorted(p for p in (Path(__file__).parents[2] / "sample_data" / "conversations").iterdir() if p.is_file())

# Every piece of personal data written into the hostile files, as written there.
EMAILS = [
    "aiko.sato@example.com",
    "ken@example.jp",
    "ken%40example.jp",
    "r.obrien+shop@example.co.uk",
    "split.line",
    "jo.bloggs@example.net",
    "hanako@example.jp",
    "yuki@example.com",
]
PHONES = ["09011112222", "08033334444", "0666667777", "07012345678", "442079460018", "4155550199", "0355550101"]
PHONES += ["0398765432", "81312345678"]
CARDS = ["4242424242424242", "4012888888881881", "4000056655665556", "378282246310005", "5555555555554444"]
CARDS += ["5105105105105100", "4111111111111111", "6011111111111117"]
EMAIL_LIKE = re.compile(r"[A-Za-z0-9._%+-]+\s*(?:@|%40)\s*[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")


def every_text(database: Path) -> list[tuple[str, str, str]]:
    """(table, column, value) for every text value of every table of the database."""
    out = []
    with closing(sqlite3.connect(database)) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            for row in conn.execute(f"SELECT * FROM {table}"):
                out += [(table, c, v) for c, v in zip(columns, row, strict=True) if isinstance(v, str)]
    return out


def import_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], *files: Path, extra: tuple[str, ...] = ()) -> str:
    status = main(["import", *map(str, files), "--db", str(tmp_path / "r.db"), *extra])
    out = capsys.readouterr()
    assert status == 0, out.err
    return out.out


def test_the_database_holds_no_email_phone_or_card_number_after_an_import(tmp_path, capsys):
    out = import_files(tmp_path, capsys, *HOSTILE)
    texts = every_text(tmp_path / "r.db")
    assert any("<email-1>" in v for _t, _c, v in texts) and any("<card-1>" in v for _t, _c, v in texts)
    for table, column, value in texts:
        folded = fold(value)
        digits = re.sub(r"[^0-9]", "", folded)
        assert not EMAIL_LIKE.search(folded), (table, column, value)
        for raw in EMAILS:
            assert raw.lower() not in folded.lower(), (table, column, value)
        for number in PHONES + CARDS:
            assert number not in digits, (table, column, value)
    assert "imported 8 conversation(s)" in out
    counts = dict(re.findall(r"(\w+) (\d+)", out.split("redacted ")[1].splitlines()[0]))
    assert int(counts["email"]) >= 10 and int(counts["phone"]) >= 10 and int(counts["card"]) == 8
    assert int(counts["postcode"]) >= 2 and int(counts["order"]) >= 3


def test_a_second_import_of_the_same_file_adds_nothing(tmp_path, capsys):
    first = import_files(tmp_path, capsys, HOSTILE[0], HOSTILE[1])
    run = re.search(r"as run (\S+)", first).group(1)
    before = every_text(tmp_path / "r.db")
    again = import_files(tmp_path, capsys, HOSTILE[1], HOSTILE[0])
    assert f"hostile.csv: already imported as run {run}; nothing added" in again
    assert f"hostile.jsonl: already imported as run {run}; nothing added" in again
    assert "imported" not in again.replace("already imported", "")
    assert every_text(tmp_path / "r.db") == before
    # a copy of the file under another name is the same file
    copy = tmp_path / "renamed.jsonl"
    copy.write_bytes(HOSTILE[0].read_bytes())
    assert "already imported as run" in import_files(tmp_path, capsys, copy)
    # with a new file beside it, only the new one is imported, as a new run
    mixed = import_files(tmp_path, capsys, HOSTILE[0], HOSTILE[2])
    assert "already imported" in mixed and "imported 2 conversation(s)" in mixed


def test_the_stored_shape_of_an_imported_run(tmp_path, capsys):
    out = import_files(tmp_path, capsys, *SAMPLES, extra=("--run-id", "real-may"))
    assert "as run real-may" in out
    store = Store.open(tmp_path / "r.db")
    try:
        sessions = store.run_sessions("real-may")
        assert len(sessions) == 12 and {s.kind for s in sessions} == {"imported"}
        assert run_kind(store, "real-may") == "imported"
        assert {s.stop_reason for s in sessions} == {"imported"} and {s.status for s in sessions} == {"finished"}
        chat = next(s for s in sessions if s.scenario_id == "chat-1002")
        assert chat.persona_name == "real-customer" and chat.scenario["kind"] == "imported"
        roles = [(m.turn, m.role, m.source) for m in chat.messages]
        assert roles == [
            (1, "user", "imported_customer"),
            (1, "bot", "imported_bot"),
            (2, "user", "imported_customer"),
            (2, "bot", "imported_bot"),
            (2, "agent", "imported_agent"),
            (2, "note", "imported_note"),
            (3, "user", "imported_customer"),
        ]
        assert chat.turns == 3 and chat.messages[0].text.endswith("please call me on <phone-1>")
        # the conversation as it happened, message by message, and where each one is in a turn
        parts = imported_parts(store, chat.id)
        assert [p.speaker for p in parts] == ["customer", "customer", "bot", "customer", "bot", "agent", "system"] + [
            "customer"
        ]
        by_id = {m.id: m for m in chat.messages}
        first, second = parts[0], parts[1]
        assert first.message_id == second.message_id
        joined = by_id[first.message_id].text
        assert joined[first.text_start : first.text_end] == "My account is locked after I typed the wrong password."
        assert joined[second.text_start : second.text_end] == "I need it today, please call me on <phone-1>"
        greeted = next(s for s in sessions if s.scenario_id == "chat-1001")
        assert [(m.turn, m.role) for m in greeted.messages][:2] == [(0, "bot"), (1, "user")]
        origin = imported_session(store, chat.id)
        assert origin is not None and origin.line == 2 and origin.unit == "line" and origin.format == "jsonl"
        csv_origin = imported_session(store, next(s.id for s in sessions if s.scenario_id == "T-2002"))
        assert csv_origin is not None and (csv_origin.unit, csv_origin.line) == ("row", 6)
        assert csv_origin.started_at == "2024-05-03T18:02:11Z"
        files = imports_of_run(store, "real-may")
        assert {f.format for f in files} == {"jsonl", "csv", "tsv", "intercom"} and all(f.redacted for f in files)
        assert sum(f.conversations for f in files) == 12
        ja = next(s for s in sessions if s.scenario_id == "J-3002")
        assert ja.language == "ja" and [m.role for m in ja.messages] == ["user", "bot", "user", "agent", "note"]
    finally:
        store.close()


def test_show_displays_an_imported_session(tmp_path, capsys):
    import_files(tmp_path, capsys, *SAMPLES)
    store = Store.open(tmp_path / "r.db")
    session_id = next(s.id for s in store.sessions() if s.scenario_id == "184503")
    store.close()
    assert main(["show", str(session_id), "--db", str(tmp_path / "r.db")]) == 0
    out = capsys.readouterr().out
    assert "imported from" in out and "helpdesk.json line 2 (intercom)" in out
    assert "Hi, my linked Photos service shows an error." in out and "<email-1>" in out
    assert "human agent · not judged" in out and "note · not judged" in out
    assert "- Remove Photos and link it again" in out  # the HTML list, as text
    assert "Not judged: an imported conversation" in out


def test_the_run_is_listed_exported_and_reported_like_any_other(tmp_path, capsys):
    import_files(tmp_path, capsys, *SAMPLES, extra=("--run-id", "real"))
    db = str(tmp_path / "r.db")
    assert main(["sessions", "--run", "real", "--db", db]) == 0
    assert "imported" in capsys.readouterr().out
    assert main(["runs", "--db", db]) == 0
    assert "real" in capsys.readouterr().out
    assert main(["export", "--run", "real", "--csv", str(tmp_path / "e.csv"), "--db", db]) == 0
    exported = (tmp_path / "e.csv").read_text(encoding="utf-8")
    assert "<email-1>" in exported and "hana.mori" not in exported
    assert main(["report", "real", "--html", str(tmp_path / "r.html"), "--db", db]) == 0
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "human agent (not judged)" in page


def test_no_redact_must_be_asked_for_and_says_so(tmp_path, capsys):
    out = import_files(tmp_path, capsys, SAMPLES[0], extra=("--no-redact",))
    assert "NOT redacted (--no-redact)" in out
    texts = " ".join(v for _t, _c, v in every_text(tmp_path / "r.db"))
    assert "hana.mori@example.com" in texts
    store = Store.open(tmp_path / "r.db")
    try:
        assert not store._db.execute("SELECT redacted FROM imports").fetchone()[0]
    finally:
        store.close()


def test_names_and_patterns_come_from_the_redact_table(tmp_path, capsys):
    (tmp_path / "ragtui.toml").write_text(
        '[redact]\nnames = ["Sam", "佐藤"]\npatterns = { ticket = "T-[0-9]{4}" }\n', encoding="utf-8"
    )
    out = import_files(tmp_path, capsys, *SAMPLES, extra=("--config", str(tmp_path / "ragtui.toml")))
    assert re.search(r"name [1-9]", out) and re.search(r"ticket [1-9]", out)
    texts = " ".join(v for t, _c, v in every_text(tmp_path / "r.db") if t == "messages")
    assert "Sam from" not in texts and "<name-1> from Tsumugi" in texts and "担当の<name-1>です" in texts
    assert "T-2001" not in " ".join(v for _t, _c, v in every_text(tmp_path / "r.db"))  # the id too


def test_merge_brings_an_imported_run_with_its_provenance(tmp_path, capsys):
    import_files(tmp_path, capsys, SAMPLES[0], extra=("--run-id", "real"))
    assert main(["merge", str(tmp_path / "r.db"), "--db", str(tmp_path / "all.db")]) == 0
    capsys.readouterr()
    store = Store.open(tmp_path / "all.db")
    try:
        sessions = store.run_sessions("real")
        assert sessions and {s.kind for s in sessions} == {"imported"}
        assert imported_session(store, sessions[0].id) is not None
        files = imports_of_run(store, "real")
        assert [f.path for f in files] == [str(SAMPLES[0])]
        assert sum(len(imported_parts(store, s.id)) for s in sessions) == files[0].messages == 24
    finally:
        store.close()
    # the merged copy knows the file: importing it there adds nothing
    again = main(["import", str(SAMPLES[0]), "--db", str(tmp_path / "all.db")])
    assert again == 0 and "already imported as run real" in capsys.readouterr().out


def test_an_older_database_gains_the_kind_and_keeps_its_sessions_simulated(tmp_path):
    path = tmp_path / "old.db"
    store = Store.open(path)
    store.create_session(
        scenario={"id": "s", "question": "q?", "language": "en"},
        persona=Persona("calm", "en", "p"),
        config={},
        language="en",
        max_turns=1,
        threshold=0.7,
        metrics=[],
    )
    store.close()
    with closing(sqlite3.connect(path)) as conn:  # back to version 16, as a ragtui before imports left it
        for table in ("imported_messages", "imported_sessions", "imports"):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("ALTER TABLE sessions DROP COLUMN kind")
        conn.execute("PRAGMA user_version = 16")
        conn.commit()
    store = Store.open(path)
    try:
        assert [s.kind for s in store.sessions()] == ["simulated"]
        assert store._db.execute("SELECT COUNT(*) FROM imports").fetchone()[0] == 0
    finally:
        store.close()


def test_the_sample_files_are_fictional_and_redactable(tmp_path, capsys):
    """The bundled samples import cleanly and every contact detail in them is replaced."""
    out = import_files(tmp_path, capsys, *SAMPLES)
    assert "imported 12 conversation(s)" in out
    stored = json.dumps([v for _t, _c, v in every_text(tmp_path / "r.db")], ensure_ascii=False)
    for raw in ("hana.mori@example.com", "+44 20 7946 0958", "4111 1111 1111 1111", "090-1234-5678", "ORD-20931"):
        assert raw not in stored


def test_a_conversation_id_met_in_two_files_names_two_sessions(tmp_path, capsys):
    one = tmp_path / "jan.jsonl"
    one.write_text('{"id": "T-1", "messages": [{"role": "user", "content": "hi"}]}\n', encoding="utf-8")
    two = tmp_path / "feb.jsonl"
    two.write_text('{"id": "T-1", "messages": [{"role": "user", "content": "again"}]}\n', encoding="utf-8")
    import_files(tmp_path, capsys, one, two, extra=("--run-id", "r"))
    store = Store.open(tmp_path / "r.db")
    try:
        sessions = store.run_sessions("r")
        assert [s.scenario_id for s in sessions] == ["T-1", "T-1 (feb.jsonl)"]
        assert {imported_session(store, s.id).conversation for s in sessions} == {"T-1"}
    finally:
        store.close()


def imported_chat(tmp_path: Path, capsys, conversation: str):
    """The session of ``conversation`` after importing the first sample file as run ``r``."""
    import_files(tmp_path, capsys, SAMPLES[0], extra=("--run-id", "r"))
    store = Store.open(tmp_path / "r.db")
    try:
        return next(s for s in store.run_sessions("r") if s.scenario_id == conversation)
    finally:
        store.close()


def test_a_human_agent_and_a_note_are_never_read_as_the_bots_answer(tmp_path, capsys):
    """What the dialogue verdicts and a continued dialogue read of a session: the agent's words
    and the note of turn 2 are not made the bot's answer to it."""
    chat = imported_chat(tmp_path, capsys, "chat-1002")
    turns = {t.turn: t for t in context_from_session(chat).turns}
    assert turns[2].bot == "I'll pass you to a member of our team."
    assert turns[3].bot is None  # the customer's thanks: no bot answer
    said = [u.text for u in chat.utterances() if u.speaker == "bot"]
    assert not any("Sam from Tsumugi" in t or "assigned to the Accounts team" in t for t in said)


def test_the_dialogue_verdicts_read_the_human_agent_as_a_person_not_as_the_bot(tmp_path, capsys):
    """Whether a conversation was resolved depends on what the agent did (unlocked the account):
    the transcript the dialogue verdicts read holds it, labelled as a human agent; the note does
    not appear, and the agent's words are no bot answer."""
    chat = imported_chat(tmp_path, capsys, "chat-1002")
    context = context_from_session(chat)
    lines = context.transcript().splitlines()
    agent_lines = [line for line in lines if "Sam from Tsumugi" in line]
    assert len(agent_lines) == 1 and agent_lines[0].startswith("[2] Human agent (not the bot): ")
    assert not any("assigned to the Accounts team" in line for line in lines)
    assert all("Sam from Tsumugi" not in (t.bot or "") for t in context.answered)


def test_an_import_fills_a_database_file_left_empty_by_a_stopped_process(tmp_path, capsys):
    # kill -9 while the first command created the file leaves a SQLite file with no table at all
    with closing(sqlite3.connect(tmp_path / "r.db")) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
    assert main(["runs", "--db", str(tmp_path / "r.db")]) == 2
    assert "empty SQLite database" in capsys.readouterr().err
    out = import_files(tmp_path, capsys, SAMPLES[0], extra=("--run-id", "real"))
    assert "imported" in out and "as run real" in out


def test_a_run_nobody_judged_has_no_pass_rate_not_zero(tmp_path, capsys):
    import_files(tmp_path, capsys, *SAMPLES, extra=("--run-id", "real"))
    assert main(["runs", "--db", str(tmp_path / "r.db")]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("real "))
    assert "unscored" in row
    assert "%" not in row  # no "0%": nothing was judged, so nothing failed
