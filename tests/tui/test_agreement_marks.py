"""Every score a person reads in the TUI carries its judge's agreement: a Versions card and the
verdict line of the label dialog and the to-label queue mark a low-agreement judge's score with ≈
and say so; a trusted or unmeasured one reads as before."""

from __future__ import annotations

from ragtui.core.metrics import PRIMARY_METRIC
from ragtui.core.metrics.base import Judgment
from ragtui.core.store.store import Store
from ragtui.core.types.agreement_floor import AgreementFloor
from ragtui.tui.dialogs.label_dialog import verdict_summary
from ragtui.tui.formatting import version_column
from stand_ins.synthetic_runs import write_dialogue

LOW = {"metric": PRIMARY_METRIC, "language": "en", "model": "j", "fingerprint": "f", "figure": "spearman",
       "value": 0.1, "n": 30, "on": "labels.jsonl", "source": "calibrate"}  # fmt: skip


def test_a_low_agreement_verdict_is_marked_on_its_version_card_and_in_the_label_line(store: Store):
    session_id = write_dialogue(store, "r", "refund", "calm", [0.4])
    bot = store.session(session_id).messages[1]
    store.add_judgment(session_id, bot.id, 1, Judgment(PRIMARY_METRIC, 0.4, {"agreement": LOW}, raw_reply="x"))
    session = store.session(session_id)
    floor = AgreementFloor()
    newest = session.latest_judgments()[(1, PRIMARY_METRIC)]
    assert str(version_column(newest, None, 0.7, floor)).startswith("≈0.40")
    assert "≈0.40 (low agreement)" in verdict_summary(session, 1, floor=floor)
    first = next(j for j in session.judgments if j.version == 1)  # judged unmeasured: as before
    assert str(version_column(first, None, 0.7, floor)).startswith("0.40")
    assert "≈" not in verdict_summary(session, 1)  # no floor given: no mark
