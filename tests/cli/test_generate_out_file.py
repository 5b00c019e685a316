"""`ragtui scenarios generate --out FILE` loses nothing: run again onto a reviewed drafts file it
merges (every accept, edit and reject kept, new drafts added, said in one line); any other
existing file is replaced only with --force; it never writes into the documents folder, where it
would replace a help article or leave its reply cache among them; `scenarios --check` fails on a
quote its source does not bear out and on a source file that is not there; and an --n more than
the passages support says so."""

# ruff: noqa: F811 (the fixtures of test_scenarios_generate, imported by name)

from __future__ import annotations

import json
import re

import pytest

from ragtui.cli.main import main
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.generate.review import accept, write_review
from ragtui.core.knowledge.folder import read_folder

from ..conftest import JUDGE
from .test_scenarios_generate import config_path, generate, help_folder, writer  # noqa: F401

pytestmark = pytest.mark.usefixtures("server")


def test_generating_again_onto_a_reviewed_drafts_file_keeps_every_review_decision(
    server, help_folder, config_path, tmp_path, capsys
):
    server.set_default(JUDGE, writer())
    out = tmp_path / "mine.toml"
    assert generate(config_path, help_folder, out, "--n", "6") == 0
    first = load_scenarios(out, "en")
    assert len(first) >= 4
    accepted, edited, rejected = first[0].id, first[1].id, first[2].id
    # the Drafts screen's own writes: accept, edit, reject
    accept(out, accepted)
    write_review(out, edited, question="What does a refund cost me, as a yearly customer?", reference="$4 a month.")
    write_review(out, rejected, reject=True)
    capsys.readouterr()

    assert generate(config_path, help_folder, out, "--n", "6") == 0
    printed = capsys.readouterr().out
    after = {s.id: s for s in load_scenarios(out, "en")}
    assert after[accepted].status == "accepted"
    assert after[edited].question == "What does a refund cost me, as a yearly customer?"
    assert after[edited].reference == "$4 a month."
    assert rejected not in after
    assert set(after) == {s.id for s in first} - {rejected}
    merged = next(line for line in printed.splitlines() if line.startswith("Merged into"))
    assert "0 new draft(s) added" in merged and "kept as reviewed (1 accepted)" in merged
    assert "1 rejected before" in merged and "Wrote" not in printed

    # the help centre grew: its new article's drafts are added after the reviewed ones
    (help_folder / "shipping.md").write_text("# Shipping\n\nOrders ship from Osaka within two working days.\n")
    assert generate(config_path, help_folder, out, "--n", "24") == 0
    grown = load_scenarios(out, "en")
    assert [s.id for s in grown[: len(after)]] == list(after)
    assert rejected not in {s.id for s in grown}
    assert any(s.source is not None and s.source.file == "shipping.md" for s in grown[len(after) :])
    assert after[accepted].status == "accepted" and grown[1].question == after[edited].question


def test_an_existing_file_that_is_not_a_drafts_file_is_replaced_only_with_force(
    server, help_folder, config_path, tmp_path, capsys
):
    server.set_default(JUDGE, writer())
    out = tmp_path / "notes.toml"
    notes = 'title = "my notes"\n'
    out.write_text(notes, encoding="utf-8")
    assert generate(config_path, help_folder, out, "--n", "2", "--kinds", "factual") == 2
    err = capsys.readouterr().err
    assert f"--out {out} exists and is not a scenario file" in err and "--force" in err
    assert err.count("\n") == 1 and out.read_text(encoding="utf-8") == notes
    assert server.chat_requests(JUDGE) == []  # refused before any call
    assert generate(config_path, help_folder, out, "--n", "2", "--kinds", "factual", "--force") == 0
    assert all(s.draft for s in load_scenarios(out, "en"))


@pytest.mark.parametrize("where", ["refunds.md", "new.toml", "sub/linked.toml"])
def test_out_inside_the_documents_folder_is_refused_and_nothing_is_written(
    server, help_folder, config_path, tmp_path, capsys, where
):
    server.set_default(JUDGE, writer())
    (help_folder / "sub").mkdir()
    before = {p: p.read_bytes() for p in help_folder.rglob("*") if p.is_file()}
    out = help_folder / where
    assert generate(config_path, help_folder, out, "--n", "2", "--kinds", "factual") == 2
    err = capsys.readouterr().err
    assert "inside the documents folder" in err and err.count("\n") == 1
    assert {p: p.read_bytes() for p in help_folder.rglob("*") if p.is_file()} == before  # nothing written
    assert server.chat_requests(JUDGE) == []


def test_a_symlink_into_the_documents_folder_is_refused(server, help_folder, config_path, tmp_path, capsys):
    server.set_default(JUDGE, writer())
    article = help_folder / "refunds.md"
    text = article.read_text(encoding="utf-8")
    link = tmp_path / "mine.toml"
    link.symlink_to(article)
    assert generate(config_path, help_folder, link, "--n", "2", "--kinds", "factual", "--force") == 2
    assert "inside the documents folder" in capsys.readouterr().err
    assert article.read_text(encoding="utf-8") == text


def test_the_reply_cache_is_beside_out_and_never_read_as_a_document(server, help_folder, config_path, tmp_path):
    server.set_default(JUDGE, writer())
    out = tmp_path / "mine.toml"
    assert generate(config_path, help_folder, out, "--n", "2", "--kinds", "factual") == 0
    cache = tmp_path / ".mine.toml.replies.jsonl"
    assert cache.is_file() and not list(help_folder.glob(".*"))
    # a cache an older version left in a documents folder is named, not read
    (help_folder / cache.name).write_bytes(cache.read_bytes())
    read = read_folder(help_folder)
    assert cache.name not in {d.path for d in read.documents}
    skipped = {s.path: s.reason for s in read.skipped}
    assert "reply cache" in skipped[cache.name]


def test_scenarios_check_fails_on_a_quote_not_in_its_source_and_a_source_file_that_does_not_exist(
    server, help_folder, config_path, tmp_path, capsys
):
    server.set_default(JUDGE, writer())
    out = tmp_path / "drafts.toml"
    assert generate(config_path, help_folder, out, "--n", "3", "--kinds", "factual") == 0
    config_path.write_text(
        config_path.read_text(encoding="utf-8").replace(
            "max_turns = 1\n", f'max_turns = 1\nknowledge = "{help_folder}"\n'
        ),
        encoding="utf-8",
    )
    check = ["scenarios", "--check", str(out), "--config", str(config_path)]
    capsys.readouterr()
    assert main(check) == 0
    text = out.read_text(encoding="utf-8")
    first = load_scenarios(out, "en")[0]
    assert first.source is not None
    out.write_text(text.replace(json.dumps(first.source.quote), '"Refunds are always paid within one hour."', 1))
    assert main(check) == 2
    err = capsys.readouterr().err
    assert f"scenario {first.id!r}: its quote is not in its source passage in {first.source.file}" in err
    assert "1 problem(s)" in err

    out.write_text(text.replace(f'file = "{first.source.file}"', 'file = "nowhere.md"', 1), encoding="utf-8")
    assert main(check) == 2
    err = capsys.readouterr().err
    assert f"scenario {first.id!r}: its source file nowhere.md does not exist in" in err


def test_an_n_beyond_what_the_passages_support_is_capped_and_said(server, config_path, tmp_path, capsys):
    folder = tmp_path / "help"
    folder.mkdir()
    for i in range(15):
        (folder / f"a{i:02}.md").write_text(f"# Article {i}\n\nThe answer to question {i} is {i} days.\n")
    assert len(read_folder(folder).passages) == 15
    assert generate(config_path, folder, tmp_path / "x.toml", "--n", "500", "--estimate") == 0
    printed = capsys.readouterr().out
    # 15 passages × the 3 kinds a one-sentence article can answer (no steps, no case, no second
    # sentence), and a probe every sixth item
    assert "--n 500 is more than 15 passage(s) support in these kinds: planned 54" in printed
    assert "Plan: 54 item(s)" in printed
    # an upper bound, said as one: items dropped early make few of their calls
    assert re.search(r"up to \d+ model call\(s\) and [\d,]+ tokens", printed)


def test_kinds_no_passage_can_answer_are_refused_before_any_call(server, config_path, tmp_path, capsys):
    folder = tmp_path / "help"
    folder.mkdir()
    (folder / "a.md").write_text("# Shipping\n\nOrders arrive in 2 to 4 days.\n", encoding="utf-8")
    assert generate(config_path, folder, tmp_path / "x.toml", "--n", "3", "--kinds", "conditional,procedural") == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "has a part that can answer an item of these kinds (conditional, procedural)" in err
    assert "Traceback" not in err and not (tmp_path / "x.toml").exists()
    assert not server.chat_requests(JUDGE)
