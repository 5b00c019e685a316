"""Judging the judge: how far each metric's judge agrees with people, and what ragtui does about it.

- ``labelled``, ``calibration``, ``calibration_store``, ``agreement``, ``label_agreement``,
  ``expectation_agreement``, ``dialogue_agreement``: run a metric over labelled items and measure
  its agreement (Spearman, κ, F1 …) with people's labels;
- ``judge_card`` and ``card_*``: the judge card — each judge's measured agreement per metric and
  language, ``ragtui judge-card --measure``, and the lookup that puts it on every verdict
  (``card_lookup``, ``dialogue_card``);
- ``fit``, ``fit_store``, ``shipped_fits``: fitting a judge's raw scores to people's scale and
  applying the fit at run time;
- ``rejudge``, ``rejudge_batch``, ``judge_run``, ``no_passages``: judging stored turns again (one
  turn, a run, a run in bulk through a batch API) and judging a run never judged.

It sits above ``core/metrics`` (it builds and runs metrics; no metric imports it) and below the
engine, the runs and the front ends, which read its figures.
"""
