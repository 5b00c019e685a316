"""The two reports: a run (``ragtui report``) and a comparison (``ragtui compare --html``)."""

from __future__ import annotations

from collections.abc import Mapping

from ...store.store import Store
from ...types.agreement_floor import AgreementFloor
from ..compare import Comparison
from .data import run_view
from .page import compare_page, run_page


def run_report_html(
    store: Store,
    run_id: str,
    thresholds: Mapping[str, float],
    min_resolution_rate: float = 0.0,
    floor: AgreementFloor | None = None,
    gate_low_agreement: bool = False,
    prices: Mapping[str, tuple[float, float]] | None = None,
    extra: tuple[str, ...] = (),
) -> str:
    """``extra``: more sections, already HTML (``realism_section``), after the run's own."""
    view = run_view(store, run_id, thresholds, min_resolution_rate, floor, gate_low_agreement, prices)
    return run_page(view, extra)


def compare_report_html(
    comparison: Comparison,
    base_store: Store,
    new_store: Store,
    thresholds: Mapping[str, float],
    prices: Mapping[str, tuple[float, float]] | None = None,
) -> str:
    """The comparison's summary and regressions, then NEW's whole report."""
    view = run_view(new_store, comparison.new_run, thresholds, floor=comparison.floor, prices=prices)
    return compare_page(comparison, view, base_store.path.name if base_store.path else "")
