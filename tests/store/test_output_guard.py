"""Every file ragtui writes for a person goes through one guard and one atomic write
(core/files/output_file.py): no output option can destroy the database in use — by its path, a
symlink, a hard link or its -wal/-shm files — nor any other SQLite file; a missing folder is one
line naming the option; and a write that fails part-way (a full disk) leaves the old file as it
was, with no temporary file behind."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.files import atomic
from ragtui.core.files.output_file import check_output, write_output
from ragtui.core.text.text_safety import json_line
from ragtui.core.types.errors import RagtuiError

from ..conftest import copy_of, endpoint_toml, isolated_main, record_run

# Each output option, as the command line a person types (OUT is where the file goes).
OUTPUTS: dict[str, tuple[str, ...]] = {
    "--csv (export)": ("export", "--run", "last", "--csv", "OUT"),
    "--csv (compare)": ("compare", "previous", "last", "--csv", "OUT"),
    "--markdown (compare)": ("compare", "previous", "last", "--markdown", "OUT"),
    "--junit (compare)": ("compare", "previous", "last", "--junit", "OUT"),
    "--junit (run)": ("run", "-s", "id-linking", "-p", "calm", "--junit", "OUT"),
    "--markdown (run)": ("run", "-s", "id-linking", "-p", "calm", "--markdown", "OUT"),
    "--jsonl (labels export)": ("labels", "export", "--jsonl", "OUT"),
    "--batch-file (rejudge)": ("rejudge", "--run", "last", "--batch-file", "OUT"),
}


def option_of(case: str) -> str:
    return case.split()[0]


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 220)
    monkeypatch.setattr(output.console_err, "_width", 220)


@pytest.fixture(scope="session")
def two_runs_and_a_label(_server, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two runs of id-linking × calm (one turn each) and a label on session 1, recorded once per
    worker."""
    folder = tmp_path_factory.mktemp("two-runs")
    for _ in range(2):
        db = record_run(_server, folder, "-s", "id-linking", "-p", "calm", settings="max_turns = 1")
    assert isolated_main(folder, ["--db", str(db), "label", "1", "1", "--score", "4"]) == 0
    return db


@pytest.fixture
def record(server, tmp_path: Path, two_runs_and_a_label: Path) -> Callable[..., int]:
    """A copy of the database with two runs and a label; returns a function running a ragtui
    command on it."""
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\nmax_turns = 1\n' + endpoint_toml(server.base_url), encoding="utf-8")
    db = copy_of(two_runs_and_a_label, tmp_path / "runs.db")

    def ragtui(*args: str) -> int:
        return main(["--config", str(config), "--db", str(db), *args])

    ragtui.db = db  # type: ignore[attr-defined]
    return ragtui


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def contents(db: Path) -> str:
    """What the database holds (its bytes move with WAL checkpoints; its rows must not)."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return hashlib.sha256("\n".join(conn.iterdump()).encode()).hexdigest()


def command(case: str, target: Path) -> list[str]:
    return [str(target) if part == "OUT" else part for part in OUTPUTS[case]]


def other_database(tmp_path: Path) -> Path:
    other = tmp_path / "team.sqlite"
    with contextlib.closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE keep (x)")
        conn.execute("INSERT INTO keep VALUES ('precious')")
        conn.commit()
    return other


@pytest.mark.parametrize("case", list(OUTPUTS))
def test_every_output_option_refuses_every_database(case: str, record, tmp_path: Path, capsys):
    db: Path = record.db
    symlink = tmp_path / "looks-harmless.csv"
    symlink.symlink_to(db)
    hardlink = tmp_path / "hard-link.out"
    os.link(db, hardlink)
    other = other_database(tmp_path)
    targets = [
        db,
        symlink,
        hardlink,
        db.with_name(db.name + "-wal"),
        db.with_name(db.name + "-shm"),
        other,
        other.with_name(other.name + "-journal"),
    ]
    capsys.readouterr()
    recorded, other_bytes = contents(db), sha256(other)
    for target in targets:
        assert record(*command(case, target)) == 2, target
        err = " ".join(capsys.readouterr().err.split())
        assert f"refusing to write {option_of(case)} to" in err, (target, err)
        assert "nothing was written" in err
        # Nothing was run or written: the refusal comes before any work.
        assert contents(db) == recorded, target
        assert sha256(other) == other_bytes, target
    with contextlib.closing(sqlite3.connect(other)) as conn:
        assert conn.execute("SELECT x FROM keep").fetchall() == [("precious",)]


@pytest.mark.parametrize("case", list(OUTPUTS))
def test_every_output_option_names_a_missing_folder(case: str, record, tmp_path: Path, capsys):
    capsys.readouterr()
    assert record(*command(case, tmp_path / "no-such-folder" / "out.txt")) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"{option_of(case)} {tmp_path / 'no-such-folder' / 'out.txt'}: the folder" in err
    assert "does not exist" in err
    assert not (tmp_path / "no-such-folder").exists()


def fill_the_disk_after(limit: int):
    """A write that stops with ENOSPC after ``limit`` bytes, as a full disk does."""

    def write_all(handle, data: bytes) -> None:  # noqa: ANN001
        handle.write(data[:limit])
        handle.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    return write_all


@pytest.mark.parametrize("case", list(OUTPUTS))
def test_a_full_disk_keeps_the_old_file(case: str, record, tmp_path: Path, capsys, monkeypatch):
    target = tmp_path / "report.out"
    old = "the report people already have\n" * 300
    target.write_text(old, encoding="utf-8")
    target.chmod(0o640)
    monkeypatch.setattr(atomic, "_write_all", fill_the_disk_after(4096))
    capsys.readouterr()
    assert record(*command(case, target)) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"cannot write {option_of(case)} {target}" in err and "No space left on device" in err
    assert "unchanged" in err
    assert target.read_text(encoding="utf-8") == old
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []


@pytest.mark.parametrize("case", list(OUTPUTS))
def test_every_output_option_writes_over_its_own_old_file(case: str, record, tmp_path: Path, capsys):
    """The guard refuses databases only: an earlier report is replaced, keeping its permissions."""
    target = tmp_path / "report.out"
    target.write_text("last week's report", encoding="utf-8")
    target.chmod(0o640)
    capsys.readouterr()
    assert record(*command(case, target)) in (0, 1)  # 1: a gate or a regression, not a write error
    assert target.read_text(encoding="utf-8-sig") != "last week's report"
    assert target.stat().st_size > 0
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_new_file_gets_the_usual_permissions(tmp_path: Path):
    target = write_output(tmp_path / "new.md", "# hi\n", option="--markdown")
    umask = os.umask(0o022)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_text_keeps_its_own_line_endings(tmp_path: Path):
    target = write_output(tmp_path / "x.csv", "a,b\r\nc,d\r\n", option="--csv")
    assert target.read_bytes() == b"a,b\r\nc,d\r\n"


def test_a_folder_is_refused_by_name(tmp_path: Path):
    with pytest.raises(RagtuiError, match="--junit .* is a folder"):
        check_output(tmp_path, option="--junit")


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path: Path, monkeypatch):
    target = tmp_path / "r.csv"
    target.write_text("old", encoding="utf-8")

    def interrupted(handle, data: bytes) -> None:  # noqa: ANN001
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic, "_write_all", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_output(target, "new", option="--csv")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.csv"]


def test_jsonl_escapes_controls_and_keeps_the_text():
    text = "ok \x9b31m bidi \u202e end\x7f sep\u2028 ja 日本語"
    line = json_line({"response": text})
    assert not any(ch in line for ch in "\x9b\u202e\x7f\u2028")
    assert "日本語" in line  # readable UTF-8, not \\u-escaped everywhere
    assert json.loads(line) == {"response": text}


def test_labels_export_writes_no_raw_controls(server, record, tmp_path: Path):
    """Model text with C1 controls, DEL and U+202E reaches the JSONL escaped, and reads back exact."""
    hostile = "Open \x9b31mSettings\x7f \u202eevil"
    with contextlib.closing(sqlite3.connect(record.db)) as conn:
        conn.execute("UPDATE messages SET text = ? WHERE role = 'bot' AND turn = 1 AND session_id = 1", (hostile,))
        conn.commit()
    target = tmp_path / "labels.jsonl"
    assert record("labels", "export", "--jsonl", str(target)) == 0
    raw = target.read_text(encoding="utf-8")
    assert not any(ch in raw for ch in "\x9b\x7f\u202e")
    assert json.loads(raw.splitlines()[0])["response"] == hostile
