"""`ragtui compare base.db:last new.db:last`: runs in two databases, compared as in one."""

from __future__ import annotations

import re
from pathlib import Path

from ragtui.cli.main import main
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue


def two_databases(tmp_path: Path) -> tuple[Path, Path]:
    base, new = tmp_path / "base.db", tmp_path / "new.db"
    one = Store.open(base)
    write_dialogue(one, "old-0", "outage", "calm", [0.2])  # an older run: `last` is the next one
    write_dialogue(one, "base-1", "outage", "calm", [0.9])
    write_dialogue(one, "base-1", "refund", "calm", [0.4])
    one.close()
    two = Store.open(new)
    write_dialogue(two, "new-1", "outage", "calm", [0.5])
    write_dialogue(two, "new-1", "refund", "calm", [0.8])
    two.close()
    return base, new


def test_runs_in_two_databases_compare_like_runs_in_one(tmp_path: Path, capsys):
    base, new = two_databases(tmp_path)
    md = tmp_path / "compare.md"
    assert main(["compare", f"{base}:last", f"{new}:last", "--markdown", str(md)]) == 1
    out = capsys.readouterr().out
    assert "base-1 → new-1" in out and "1 regression(s), 1 fixed" in out
    assert "outage × calm" in md.read_text(encoding="utf-8")
    # A bare path is its last run; a reference without a file is in the base's database.
    assert main(["compare", str(base), f"{new}:new"]) == 1
    assert "base-1 → new-1" in capsys.readouterr().out
    assert main(["compare", f"{base}:old", f"{new}:last"]) == 0
    assert "old-0 → new-1" in capsys.readouterr().out


def test_the_same_comparison_in_one_database(tmp_path: Path, capsys):
    base, new = two_databases(tmp_path)
    assert main(["compare", f"{base}:base-1", f"{new}:last"]) == 1
    apart = capsys.readouterr().out
    assert main(["merge", str(new), "--db", str(base)]) == 0
    capsys.readouterr()
    assert main(["compare", "--db", str(base), "base-1", "new-1"]) == 1
    together = capsys.readouterr().out
    summary = [line for line in together.splitlines() if re.match(r"(run score|\d+ pair)", line)]
    assert summary and all(line in apart for line in summary)


def test_bad_references_are_one_line_naming_the_file(tmp_path: Path, capsys):
    base, new = two_databases(tmp_path)
    text = tmp_path / "notes.txt"
    text.write_text("hello", encoding="utf-8")
    cases = [
        ([f"{base}:nope", f"{new}:last"], ["no run 'nope'", str(base)]),
        ([f"{base}:last", f"{tmp_path / 'missing.db'}:last"], ["no ragtui database at", "missing.db"]),
        ([f"{base}:last", f"{text}:last"], [str(text)]),
    ]
    for refs, words in cases:
        assert main(["compare", *refs]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and all(w in err for w in words), err
        assert "Traceback" not in err
    assert not (tmp_path / "missing.db").exists()


def test_a_report_is_never_written_over_either_database(tmp_path: Path, capsys):
    base, new = two_databases(tmp_path)
    before = new.read_bytes()
    assert main(["compare", f"{base}:last", f"{new}:last", "--csv", str(new)]) == 2
    assert "refusing to write --csv" in capsys.readouterr().err
    assert new.read_bytes() == before
