"""The trust level of a verdict (``records.agreement_floor``): its judge's measured agreement
with people against the floor, boundaries included, for details old and new."""

from __future__ import annotations

import pytest

from ragtui.core.types.agreement_floor import AgreementFloor, decides_gate, floor_words, short_agreement, trust_level

FLOOR = AgreementFloor(spearman=0.5, kappa=0.4)


def details(value: object, figure: str = "spearman", **more: object) -> dict[str, object]:
    entry: dict[str, object] = {
        "metric": "rubric",
        "language": "en",
        "model": "m",
        "fingerprint": "f",
        "figure": figure,
    }
    entry.update({"value": value, "n": 18, "on": "labels.jsonl", "source": "calibrate", **more})
    return {"agreement": entry}


@pytest.mark.parametrize(
    ("value", "figure", "level"),
    [
        (0.5, "spearman", "measured"),  # at the floor: measured
        (0.4999, "spearman", "low"),
        (0.9, "spearman", "measured"),
        (-0.2, "spearman", "low"),
        (0.4, "kappa", "measured"),  # κ has its own floor
        (0.45, "kappa", "measured"),
        (0.39, "kappa", "low"),
        (0, "spearman", "low"),  # an int figure is a figure
        (None, "spearman", "low"),  # measured, but too few labels for a figure
        (None, "kappa", "low"),
    ],
)
def test_trust_level_against_the_floor(value: object, figure: str, level: str):
    assert trust_level(details(value, figure), FLOOR) == level


def test_without_an_entry_a_verdict_is_unmeasured_not_low():
    assert trust_level({}, FLOOR) == "unmeasured"
    assert trust_level(None, FLOOR) == "unmeasured"
    assert trust_level({"agreement": "broken"}, FLOOR) == "unmeasured"
    assert short_agreement({"conclusion": "fine"}) == "unmeasured"


def test_old_details_without_an_interval_and_new_ones_with_it():
    old = details(0.1)  # stored before the 95% interval was carried: no low, no high
    assert short_agreement(old) == "Spearman 0.10 (n=18)"
    new = details(0.62, "kappa", low=0.41, high=0.8)
    assert short_agreement(new) == "κ 0.62 [0.41–0.80] (n=18)"
    assert trust_level(new, FLOOR) == "measured"
    assert short_agreement(details(0.7, low=None, high=None)) == "Spearman 0.70 (n=18)"


def test_a_bool_is_no_figure_and_the_floor_is_named():
    assert trust_level(details(True), FLOOR) == "low"
    assert floor_words(details(0.1), FLOOR) == "Spearman 0.10 < floor 0.5"
    assert floor_words(details(None, "kappa"), FLOOR) == "κ unknown < floor 0.4"
    assert trust_level(details(0.1), AgreementFloor(spearman=0.1)) == "measured"


def test_a_figure_on_too_few_labelled_items_is_low_whatever_it_says():
    # Two items in the right order give Spearman 1.00: the bundled sets' smallest halves.
    tiny = details(1.0, n=2)
    assert trust_level(tiny, FLOOR) == "low"
    assert floor_words(tiny, FLOOR) == "Spearman 1.00 on only 2 labelled items (< 10)"
    assert trust_level(details(1.0, n=10), FLOOR) == "measured"
    assert trust_level(tiny, AgreementFloor(items=2)) == "measured"
    assert trust_level(details(0.9, n=None), FLOOR) == "low"  # no count: not known to be enough


@pytest.mark.parametrize(
    ("value", "low", "level"),
    [
        (0.56, -0.07, "low"),  # faithfulness ja on the old card: over the floor, its interval is not
        (0.81, 0.35, "low"),
        (0.88, 0.54, "measured"),  # the interval's lower bound clears the floor
        (0.7, 0.5, "measured"),  # at the floor: measured
        (0.6, None, "low"),  # interval keys but no bound (too few items for one): no evidence
    ],
)
def test_the_floor_reads_the_intervals_lower_bound(value: float, low: float | None, level: str):
    assert trust_level(details(value, low=low, high=0.95), FLOOR) == level


def test_a_kappa_reads_its_bootstrap_interval_too_and_the_reason_names_it():
    wide = details(0.39 + 0.1, "kappa", low=0.0, high=0.82)
    assert trust_level(wide, FLOOR) == "low"
    assert floor_words(wide, FLOOR) == "κ 0.49, but its 95% CI starts at 0.00 < floor 0.4"
    assert floor_words(details(0.6, low=None, high=None), FLOOR) == (
        "Spearman 0.60, too few items for an interval to clear floor 0.5"
    )


def test_a_quick_or_small_measurement_never_decides_a_gate():
    entry = details(0.9, n=30, low=0.8, high=0.95)["agreement"]
    assert decides_gate(entry, FLOOR)
    assert not decides_gate({**entry, "quick": True}, FLOOR)
    assert not decides_gate({**entry, "n": 4}, FLOOR)
    assert decides_gate({**entry, "n": 4}, AgreementFloor(items=4))
