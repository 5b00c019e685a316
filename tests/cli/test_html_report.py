"""`ragtui report RUN --html FILE` and `ragtui compare … --html FILE`: one self-contained file,
every stored text escaped, never written over a database."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from ragtui.cli.main import main
from ragtui.core.runs.html_report.assets import SCRIPT, content_security_policy
from ragtui.core.store.labels import save_label
from ragtui.core.store.store import Store
from ragtui.core.types.judgments import Judgment
from stand_ins.synthetic_runs import write_dialogue, write_run

HOSTILE = (
    '<script>window.pwned = 1</script> <a href="javascript:window.pwned=2">click</a> '
    '<img src=x onerror="window.pwned=3"> " onmouseover="window.pwned=4'
)


def hostile_run(path: Path, run_id: str = "r1") -> Path:
    """A run whose bot replies, customer messages, verdict comments and a new kind of dialogue
    verdict all carry markup, alongside ordinary dialogues."""
    store = Store.open(path)
    write_run(store, run_id, 12, seed=3, dialogue_verdicts=True, personas=3)
    sid = write_dialogue(
        store, run_id, "outage", "calm", [0.2, 0.9], customer=lambda turn: f"turn {turn}: {HOSTILE}", verdicts={}
    )
    bot = store._db.execute("SELECT id FROM messages WHERE session_id = ? AND role = 'bot'", [sid]).fetchone()[0]
    store.write("hostile", lambda: store._db.conn.execute("UPDATE messages SET text = ? WHERE id = ?", [HOSTILE, bot]))
    store.add_judgment(sid, bot, 1, Judgment("rubric", 0.1, {"conclusion": HOSTILE}, raw_reply="x"))
    broken = {
        "expectation": {"id": HOSTILE, "text": HOSTILE, "polarity": "must_not", "origin": "policy"},
        "status": "broken",
        "turn": 1,
    }
    details = {"summary": "1 of 2 expectations met " + HOSTILE, "results": [broken]}
    store.add_dialogue_judgment(sid, Judgment("expectations", 0.5, details, raw_reply="x"))
    save_label(store, sid, 1, agree=False, labeller="ana")
    store.close()
    return path


class Collect(HTMLParser):
    """Every element and attribute of the page, to check what the markup holds."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_report_is_self_contained_and_escapes_every_text(tmp_path: Path, capsys):
    db = hostile_run(tmp_path / "runs.db")
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(db), "last", "--html", str(out)]) == 0
    assert "Wrote the report of run r1" in capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    assert "window.pwned" in page  # the text is there, shown …
    assert "<script>window.pwned" not in page and "<img src=x" not in page  # … never as markup
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;" in page
    parser = Collect()
    parser.feed(page)
    scripts = [a for t, a in parser.tags if t == "script"]
    assert len(scripts) == 1 and page.count("<script>") == 1 and SCRIPT in page
    links = []
    for tag, attrs in parser.tags:
        assert tag not in ("img", "iframe", "link", "object", "embed", "form"), tag
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)
            assert name not in ("src", "action") and "javascript:" not in (value or ""), (tag, name)
        if "href" in attrs:  # the only links: to a dialogue of this page, by its number
            assert tag == "a" and re.fullmatch(r"#d\d+", attrs["href"] or ""), attrs
            links.append(attrs["href"])
    assert links and all(f'id="{href[1:]}"' in page for href in links)
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in page
    csp = content_security_policy()
    assert f'content="{csp}"' in page and "default-src 'none'" in csp and "script-src 'sha256-" in csp
    # The summary: run score, resolution, judge model, a new verdict kind shown by its name.
    assert "run score" in page and "resolution rate" in page and "Judge model(s)" in page
    assert "rubric: people agreed with 0 of 1 labelled verdict(s)" in page
    assert ">expectations</td>" in page and "1 of 2 expectations met" in page
    assert page.count('<details class="dlg"') == 13
    assert page.count("<svg") >= 3  # distribution, heat map, trend
    assert 'name="viewport"' in page and "@media (max-width:600px)" in page


def test_filter_keys_are_indices_not_text(tmp_path: Path):
    db = hostile_run(tmp_path / "runs.db")
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(db), "r1", "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    keys = re.findall(r'data-([spof])="([^"]*)"', page)
    assert keys and all(value.isdigit() for _key, value in keys)


def test_report_of_a_trials_run_has_pass_k(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    for trial in (1, 2, 3):
        write_dialogue(store, "t1", "outage", "calm", [0.9], trial=trial)
        write_dialogue(store, "t1", "refund", "calm", [0.9 if trial < 3 else 0.2], trial=trial)
    store.close()
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(tmp_path / "runs.db"), "t1", "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "pass^1 0.83" in page and "pass^3" in page and "trial 3/3" in page


def test_report_is_never_written_over_a_database(tmp_path: Path, capsys):
    db = hostile_run(tmp_path / "runs.db")
    other = hostile_run(tmp_path / "other.db", "r9")
    before = other.read_bytes()
    for target in (db, other):
        assert main(["report", "--db", str(db), "last", "--html", str(target)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "refusing to write --html" in err
    assert other.read_bytes() == before
    assert main(["report", "--db", str(db), "nope", "--html", str(tmp_path / "r.html")]) == 2
    assert "no run 'nope'" in capsys.readouterr().err and not (tmp_path / "r.html").exists()
    assert main(["report", f"{tmp_path / 'missing.db'}:last", "--html", str(tmp_path / "r.html")]) == 2
    assert "no ragtui database at" in capsys.readouterr().err and not (tmp_path / "r.html").exists()


def test_compare_html_names_the_regressions(tmp_path: Path, capsys):
    base, new = tmp_path / "base.db", tmp_path / "new.db"
    one = Store.open(base)
    write_dialogue(one, "b1", "outage", "calm", [0.9])
    write_dialogue(one, "b1", "refund", "calm", [0.9])
    one.close()
    two = hostile_run(new, "n1")
    two_store = Store.open(two)
    write_dialogue(two_store, "n2", "outage", "calm", [0.3])
    write_dialogue(two_store, "n2", "refund", "calm", [0.95])
    two_store.close()
    out = tmp_path / "compare.html"
    assert main(["compare", f"{base}:last", f"{new}:last", "--html", str(out)]) == 1
    capsys.readouterr()
    page = out.read_text(encoding="utf-8")
    assert "Compare b1 → n2" in page and "Regressions (1)" in page and "<td>outage × calm</td>" in page
    assert "Change in score per pair" in page and "Run n2 (new)" in page


def test_compare_html_over_trials_lists_the_drops(tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    for run_id, score in (("b1", 0.9), ("n1", 0.2)):
        for trial in (1, 2, 3, 4, 5):
            write_dialogue(store, run_id, "outage", "calm", [score], trial=trial)
            write_dialogue(store, run_id, "refund", "calm", [0.9], trial=trial)
    store.close()
    out = tmp_path / "compare.html"
    assert main(["compare", "--db", str(tmp_path / "runs.db"), "b1", "n1", "--html", str(out)]) == 1
    capsys.readouterr()
    page = out.read_text(encoding="utf-8")
    assert "Regressions beyond run-to-run noise (1)" in page and "<td>outage × calm</td>" in page
    assert "<td>refund × calm</td>" not in page.split("Change in score per pair")[0]
