"""The public conversation sets bundled in sample_data/conversations/public/ import cleanly: every
conversation and message arrives, and the personal data they carry (ABCD's synthetic customers
give their e-mail address and phone number) is nowhere in the database. Each data file is named
in the licence file beside it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ragtui.core.store.imported import imports_of_run
from ragtui.core.store.store import Store
from ragtui.core.text.pii import fold

from .test_import import EMAIL_LIKE, every_text, import_files

PUBLIC = Path(__file__).parents[2] / "sample_data" / "conversations" / "public"
DATA = sorted(PUBLIC.glob("*.jsonl"))
# As the customers wrote them in abcd_sample.jsonl; the phone is also in an agent action note.
RAW = ["cminh730@email.com", "aphoenix939@email.com"]
PHONE_DIGITS = "9776252661"


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_public_sets_import_whole_with_no_email_or_phone_in_the_database(tmp_path, capsys):
    assert [p.name for p in DATA] == ["abcd_sample.jsonl", "taskmaster4_coffee.jsonl"]
    expected = {p.name: (len(lines(p)), sum(len(c["messages"]) for c in lines(p))) for p in DATA}
    out = import_files(tmp_path, capsys, *DATA, extra=("--run-id", "public"))
    total = sum(n for n, _m in expected.values()), sum(m for _n, m in expected.values())
    assert f"imported {total[0]} conversation(s), {total[1]} message(s)" in out

    store = Store.open(tmp_path / "r.db")
    try:
        records = {Path(r.path).name: r for r in imports_of_run(store, "public")}
        assert {name: (r.conversations, r.messages) for name, r in records.items()} == expected
        assert records["abcd_sample.jsonl"].redactions["email"] == 2
        assert records["abcd_sample.jsonl"].redactions["phone"] == 2  # once said, once in the note
        assert not any(records["taskmaster4_coffee.jsonl"].redactions.values())  # it holds no personal data
        assert len(store.run_sessions("public")) == total[0]
    finally:
        store.close()

    texts = every_text(tmp_path / "r.db")
    assert any("Details of <phone-1> have been entered." in v for _t, _c, v in texts)
    for table, column, value in texts:
        folded = fold(value)
        assert not EMAIL_LIKE.search(folded), (table, column, value)
        assert not any(raw in folded.lower() for raw in RAW), (table, column, value)
        assert PHONE_DIGITS not in re.sub(r"[^0-9]", "", folded), (table, column, value)


def test_every_public_data_file_is_named_in_the_licence_file_beside_it():
    licences = (PUBLIC / "LICENSES.md").read_text(encoding="utf-8")
    for path in DATA:
        assert f"`{path.name}`" in licences, path.name
