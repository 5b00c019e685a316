"""Bad input to `ragtui import`: one line naming the file and the line or row, exit status 2, and
nothing written — no new database, and an existing one exactly as it was."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from ragtui.cli.main import main

GOOD = '{"id": "ok", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}\n'


def run_import(tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["import", *argv, "--db", str(tmp_path / "r.db")])
    out = capsys.readouterr()
    return status, out.out, out.err


def refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one error line; asserts exit 2, a single line, no traceback, no database made."""
    status, out, err = run_import(tmp_path, capsys, *argv)
    assert status == 2, (out, err)
    assert err.count("\n") == 1 and err.startswith("ragtui: error: "), err
    assert "Traceback" not in err and not (tmp_path / "r.db").exists()
    return err


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return str(path)


def test_a_csv_without_a_role_column(tmp_path, capsys):
    path = write(tmp_path, "t.csv", "conversation_id,text\n1,hello\n")
    err = refused(tmp_path, capsys, path)
    assert f"{path} row 1: no role (who spoke) column; the columns are 'conversation_id', 'text'" in err
    assert "--columns role=COLUMN" in err


def test_a_columns_option_naming_no_column(tmp_path, capsys):
    path = write(tmp_path, "t.csv", "conversation_id,speaker,text\n1,user,hello\n")
    err = refused(tmp_path, capsys, path, "--columns", "role=author")
    assert f"{path} row 1: --columns role=author: no such column" in err
    assert "is not FIELD=COLUMN" in refused(tmp_path, capsys, path, "--columns", "who=speaker")


def test_an_unknown_role_names_the_file_and_row(tmp_path, capsys):
    path = write(tmp_path, "t.csv", "conversation_id,role,text\n1,user,hi\n1,bot,hello\n2,user,hi\n2,wizard,poof\n")
    err = refused(tmp_path, capsys, path)
    assert f"{path} row 5: unknown role 'wizard'" in err and "--role WORD=customer" in err
    jsonl = write(tmp_path, "c.jsonl", GOOD + '{"id": "b", "messages": [{"role": "narrator", "content": "x"}]}\n')
    assert f"{jsonl} line 2: unknown role 'narrator'" in refused(tmp_path, capsys, jsonl)


def test_a_conversation_with_no_customer_message(tmp_path, capsys):
    path = write(tmp_path, "c.jsonl", GOOD + '{"id": "b", "messages": [{"role": "assistant", "content": "hello?"}]}\n')
    assert f"{path} line 2: conversation 'b' has no customer message" in refused(tmp_path, capsys, path)
    # a customer message that is empty is no customer message either
    blank = write(
        tmp_path, "d.jsonl", '{"messages": [{"role": "user", "content": "  "}, {"role": "bot", "content": "x"}]}'
    )
    assert f"{blank} line 1: this conversation has no customer message" in refused(tmp_path, capsys, blank)


def test_a_file_that_is_not_utf8_says_so_and_encoding_reads_it(tmp_path, capsys):
    text = "conversation_id,role,text\n1,お客様,届きません\n1,担当者,確認します\n"
    path = write(tmp_path, "sjis.csv", text.encode("cp932"))
    err = refused(tmp_path, capsys, path)
    assert f"{path} row 2: not UTF-8 text (byte 0x" in err and "--encoding" in err and "cp932" in err
    status, out, _err = run_import(tmp_path, capsys, path, "--encoding", "cp932")
    assert status == 0 and "imported 1 conversation(s)" in out
    assert "not an encoding" in refused(tmp_path / "x", capsys, path, "--encoding", "klingon")


def test_a_binary_file_and_a_utf16_file(tmp_path, capsys):
    assert "a binary file, not text" in refused(tmp_path, capsys, write(tmp_path, "b.jsonl", b"\x00\x01\x02" * 10))
    wide = write(tmp_path, "w.csv", "conversation_id,role,text\n".encode("utf-16"))
    assert "a UTF-16 or UTF-32 file" in refused(tmp_path, capsys, wide)


def test_broken_json_names_its_line(tmp_path, capsys):
    path = write(tmp_path, "c.jsonl", GOOD + "{not json\n")
    assert f"{path} line 2: not JSON (" in refused(tmp_path, capsys, path)
    export = write(
        tmp_path,
        "e.json",
        '{"conversations": [\n{"id": 1, "source": {"author": {"type": "user"}, "body": "hi"}},\n{"id": 2,,}\n]}',
    )
    assert f"{export} line 3: not valid JSON" in refused(tmp_path, capsys, export)
    odd = write(tmp_path, "o.json", json.dumps([{"id": 1, "source": {"author": {"type": "robot"}, "body": "hi"}}]))
    assert "has author type 'robot'" in refused(tmp_path, capsys, odd)


def test_the_rows_of_a_conversation_must_be_together(tmp_path, capsys):
    path = write(tmp_path, "t.csv", "conversation_id,role,text\n1,user,a\n2,user,b\n1,bot,c\n")
    err = refused(tmp_path, capsys, path)
    assert f"{path} row 4: conversation '1' goes on here after other conversations (it began at row 2)" in err
    assert "sort the rows by conversation id" in err


def test_the_same_conversation_id_twice(tmp_path, capsys):
    path = write(tmp_path, "c.jsonl", GOOD + GOOD)
    assert f"{path} line 2: conversation 'ok' again (it first appears at line 1)" in refused(tmp_path, capsys, path)


def test_a_missing_file_a_folder_and_an_unknown_format(tmp_path, capsys):
    assert "does not exist" in refused(tmp_path, capsys, str(tmp_path / "nope.jsonl"))
    assert "is a folder" in refused(tmp_path, capsys, str(tmp_path))
    other = write(tmp_path, "c.xlsx", "x")
    err = refused(tmp_path, capsys, other)
    assert "does not know the conversation format of a .xlsx file" in err and "jsonl (.jsonl .ndjson)" in err
    assert "--format 'xml' is not a conversation format" in refused(tmp_path, capsys, other, "--format", "xml")
    assert "needs conversation files" in refused(tmp_path, capsys)
    assert "must be WORD=SPEAKER" in refused(tmp_path, capsys, other, "--role", "Kumo=robot")


def table_counts(path: Path) -> dict[str, int]:
    with closing(sqlite3.connect(path)) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables}


def test_a_bad_file_after_good_ones_writes_nothing_at_all(tmp_path, capsys):
    first = write(tmp_path, "first.jsonl", GOOD)
    status, _out, _err = run_import(tmp_path, capsys, first)
    assert status == 0
    before = table_counts(tmp_path / "r.db")
    good = write(tmp_path, "good.jsonl", GOOD.replace('"ok"', '"ok2"'))
    bad = write(
        tmp_path,
        "bad.csv",
        "conversation_id,role,text\n" + "".join(f"{i},user,hi\n" for i in range(50)) + "x,alien,?\n",
    )
    status, _out, err = run_import(tmp_path, capsys, good, bad)
    assert status == 2 and f"{bad} row 52: unknown role 'alien'" in err
    assert table_counts(tmp_path / "r.db") == before


def test_a_run_id_already_in_the_database_is_refused(tmp_path, capsys):
    first = write(tmp_path, "first.jsonl", GOOD)
    assert run_import(tmp_path, capsys, first, "--run-id", "real")[0] == 0
    other = write(tmp_path, "other.jsonl", GOOD.replace('"ok"', '"x"'))
    status, _out, err = run_import(tmp_path, capsys, other, "--run-id", "real")
    assert status == 2 and "run real is already in" in err
    assert run_import(tmp_path, capsys, other, "--run-id", "last")[0] == 2


def test_a_file_changed_while_it_is_imported_is_refused_and_leaves_no_database(tmp_path, monkeypatch):
    """Between the check and the store the file's bytes changed: the hash read while storing
    differs, the transaction is rolled back, and the database this import made is removed."""
    from ragtui.core.runs import importing

    path = tmp_path / "c.jsonl"
    path.write_text(GOOD, encoding="utf-8")
    real = importing.read_conversations

    def changing(file, options, on_bytes=None):
        if on_bytes is not None:  # the storing read: the file has been edited since it was checked
            file.write_text(GOOD.replace("hello", "HELLO"), encoding="utf-8")
        return real(file, options, on_bytes)

    monkeypatch.setattr(importing, "read_conversations", changing)
    with pytest.raises(importing.ConversationFileError, match="changed while it was being imported"):
        importing.import_conversations(tmp_path / "r.db", importing.ImportRequest([path]))
    assert not (tmp_path / "r.db").exists()
