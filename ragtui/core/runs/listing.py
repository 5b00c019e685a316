"""Every run at a glance, and how scores moved across runs of the same scenario set.

Aggregates are computed in SQL (one pass over ``sessions``), so listing stays quick however
many dialogues the database holds. A run's *scenario set* is the set of scenario × persona
pairs it ran: runs of the same set are the ones whose scores belong on one trend line.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from ..metrics import PRIMARY_METRIC
from ..registry.metrics import RESOLUTION_RATE, gate_metric, success_outcomes
from ..store import run_listing
from ..store.dialogue_verdicts import ResolutionRate
from ..store.ownership import owner_alive
from ..store.store import Store
from ..types.agreement_floor import AgreementFloor
from ..types.stored import Owner
from .gate import GATED_STOPS
from .low_agreement import low_rubric_sessions
from .pass_k import RunPassK, Trial, group_trials
from .passing import TurnVerdict, metric_means_of, resolved_of, turn_verdict

BLOCKS = "▁▂▃▄▅▆▇█"
TREND_RUNS = 16  # the newest runs a trend draws, one block each: the column stays narrow


def sparkline(values: list[float | None]) -> str:
    """Scores 0–1 as unicode blocks on a fixed 0–1 scale (so a flat line means flat scores,
    not a rescaled wiggle: 0.28 then 0.28 is ``▃▃``); a run with no score is a gap. The one
    sparkline of ragtui: `ragtui runs`, `runs --pairs` and the TUI's Runs all draw with it."""
    out = []
    for v in values:
        if v is None:
            out.append(" ")
        else:
            out.append(BLOCKS[min(int(max(v, 0.0) * len(BLOCKS)), len(BLOCKS) - 1)])
    return "".join(out)


@dataclass
class RunSummary:
    run_id: str
    started: str
    dialogues: int  # planned: its sessions, and the dialogues of its plan that never started
    score: float | None  # mean of the scored dialogues' scores
    unscored: int  # finished with no score (never one that did not finish: that is interrupted)
    language: str
    models: dict[str, str | None]
    bot: str
    scenario_set: str  # short hash of the sorted scenario × persona pairs
    pairs: int  # distinct scenario × persona pairs
    replay_of_run: str | None = None
    trend: list[float | None] = field(default_factory=list)  # run scores of this set, up to this run
    # Newest resolution verdict per dialogue; None: no dialogue of the run has one (missing).
    resolution: ResolutionRate | None = None
    resolution_trend: list[float | None] = field(default_factory=list)  # resolution rates of this set
    # The run's trials (one a pair without `--repeat`): its pass rate and, with repeats, pass^k.
    trials: RunPassK | None = None
    # dialogue metric → the mean score of its newest verdicts (None: none scored); a metric with
    # no verdict in the run is absent. Every dialogue metric, a plugin's too.
    verdict_means: dict[str, float | None] = field(default_factory=dict)
    # Every scored dialogue's rubric judge agrees with people under the floor: its score is ≈,
    # drawn neither red nor green, as in the run summary (only when the listing is given a floor).
    low: bool = False
    # Not finished and run by no process: killed mid-dialogue, paused, or planned and never started
    # (`ragtui run --resume` continues them all). A run still going has none.
    interrupted: int = 0

    @property
    def pass_rate(self) -> float | None:
        """pass^1, the one pass rate every view shows: over the dialogues that ran to the end, the
        share of each pair's trials that passed (``passing``: scored at the threshold, every
        ``--metric`` at its mark, and resolved when a resolution was scored), averaged over pairs — what compare's pass rate is over the pairs
        two runs share. None when no dialogue ran to the end, or none was judged (an imported run
        before ``ragtui judge``): 0% would say every dialogue failed, when none was scored."""
        if self.trials is None or self.score is None:
            return None
        return self.trials.estimate(1)

    @property
    def repeated(self) -> bool:
        """Some pair ran more than one trial (`ragtui run --repeat K`)."""
        return self.trials is not None and self.trials.trials > 1

    @property
    def resolution_rate(self) -> float | None:
        return self.resolution.rate if self.resolution is not None else None


def resolution_by_run(store: Store) -> dict[str, ResolutionRate]:
    """run id → its resolution rate from each dialogue's newest verdict of the metric that makes
    it (``gates = RESOLUTION_RATE``); runs with no such verdict at all are absent (missing, which
    is not unscored)."""
    metric = gate_metric(RESOLUTION_RATE)
    successes = success_outcomes(metric)
    counts: dict[str, list[int]] = {}
    for run_id, score, outcome in run_listing.outcomes_by_run(store, metric):
        c = counts.setdefault(run_id, [0, 0, 0])
        if score is None:
            c[2] += 1
        else:
            c[1] += 1
            c[0] += outcome in successes
    return {run_id: ResolutionRate(*c) for run_id, c in counts.items()}


def verdict_means_by_run(store: Store) -> dict[str, dict[str, float | None]]:
    """run id → dialogue metric → the mean score of each dialogue's newest verdict of it (an
    unscored or skipped verdict is left out of the mean, never 0; None when none is scored)."""
    means: dict[str, dict[str, float | None]] = {}
    for run_id, metric, mean in run_listing.dialogue_means(store):
        means.setdefault(run_id, {})[metric] = mean
    return means


def trials_by_run(store: Store) -> dict[str, RunPassK]:
    """run id → its counted dialogues as trials (pass rate, pass^k); read from ``sessions`` and the
    newest resolution verdicts, no transcript loaded."""
    return {run_id: run_trials(store, run_id) for run_id in run_listing.run_ids(store)}


def run_trials(store: Store, run_id: str) -> RunPassK:
    """pass^k of the run's counted dialogues (one trial a pair for a run without repeats), each
    read by the one definition of "passed" (``passing``) from ``sessions``, the newest resolution
    verdicts and the ``--metric`` turn verdicts — no transcript loaded."""
    resolved: dict[int, bool | None] = {}
    for session_id, score, outcome in run_listing.outcomes_of_run(store, run_id, gate_metric(RESOLUTION_RATE)):
        resolved[session_id] = resolved_of(outcome, score)
    rows = run_listing.finished_sessions(store, run_id, GATED_STOPS)
    verdicts = _metric_verdicts(store, run_id)
    return group_trials(
        Trial(
            scenario,
            persona,
            trial,
            score,
            threshold,
            resolved.get(sid),
            all(m.holds for m in metric_means_of(verdicts.get(sid, []), json.loads(metrics or "[]")).values()),
        )
        for sid, scenario, persona, trial, score, threshold, metrics in rows
    )


def _metric_verdicts(store: Store, run_id: str) -> dict[int, list[TurnVerdict]]:
    """session id → the newest verdict per turn of each metric other than the rubric (the
    ``--metric`` ones a dialogue's pass reads); sessions without any are absent."""
    newest: dict[tuple[int, int, str], TurnVerdict] = {}
    for session_id, turn, metric, score, mark, skipped in run_listing.turn_verdicts(store, run_id, PRIMARY_METRIC):
        newest[(session_id, turn, metric)] = turn_verdict(turn, metric, score, {"threshold": mark, "skipped": skipped})
    out: dict[int, list[TurnVerdict]] = {}
    for (session_id, _turn, _metric), verdict in newest.items():
        out.setdefault(session_id, []).append(verdict)
    return out


def interrupted_by_run(store: Store, never_started: dict[str, int]) -> dict[str, int]:
    """run id → its dialogues that did not finish and that no process runs: sessions whose process
    is gone (or paused), and — unless a process still runs the run — the dialogues of its plan that
    never got a session. A killed run's never-started dialogues are interrupted, not unscored."""
    stopped: dict[str, int] = {}
    live: set[str] = set()
    for run_id, status, pid, host, started, heartbeat in run_listing.unfinished_sessions(store):
        owner = Owner(pid, host, started) if pid is not None and host is not None else None
        if status == "running" and owner_alive(owner, heartbeat):
            live.add(run_id)
        else:
            stopped[run_id] = stopped.get(run_id, 0) + 1
    for run_id, never in never_started.items():
        if run_id not in live:
            stopped[run_id] = stopped.get(run_id, 0) + never
    return stopped


def never_started_by_run(store: Store) -> dict[str, int]:
    """run id → the dialogues of its plan that have no session (yet, or ever)."""
    return run_listing.never_started(store)


def low_runs(store: Store, floor: AgreementFloor) -> set[str]:
    """The runs whose scored dialogues' rubric judges all agree with people under ``floor``."""
    scored: dict[str, list[int]] = {}
    for session_id, run_id in run_listing.scored_sessions(store):
        scored.setdefault(run_id, []).append(session_id)
    low = low_rubric_sessions(store, [sid for ids in scored.values() for sid in ids], floor)
    return {run_id for run_id, ids in scored.items() if all(sid in low for sid in ids)}


def list_runs(store: Store, floor: AgreementFloor | None = None) -> list[RunSummary]:
    """Every run, oldest first, with its trend over earlier runs of the same scenario set; with
    ``floor``, which runs' scores come from a low-agreement judge."""
    rows = run_listing.runs(store)
    pairs: dict[str, set[tuple[str, str]]] = {}
    for run_id, scenario, persona in run_listing.pairs(store):
        pairs.setdefault(run_id, set()).add((scenario, persona))
    replays = run_listing.replayed_runs(store)
    configs = run_listing.session_configs(store, [r[6] for r in rows])
    resolutions = resolution_by_run(store)
    trials = trials_by_run(store)
    verdict_means = verdict_means_by_run(store)
    lows = low_runs(store, floor) if floor is not None else set()
    never_started = never_started_by_run(store)
    interrupted = interrupted_by_run(store, never_started)
    out: list[RunSummary] = []
    history: dict[str, list[float | None]] = {}
    rate_history: dict[str, list[float | None]] = {}
    for run_id, started, count, avg, unscored, languages, first_id in rows:
        config = configs.get(first_id, {})
        key = hashlib.sha1(json.dumps(sorted(pairs.get(run_id, ())), ensure_ascii=False).encode()).hexdigest()[:8]
        history.setdefault(key, []).append(avg)
        resolution = resolutions.get(run_id)
        rate_history.setdefault(key, []).append(resolution.rate if resolution is not None else None)
        out.append(
            RunSummary(
                run_id=run_id,
                started=started,
                dialogues=count + never_started.get(run_id, 0),
                score=avg,
                unscored=unscored,
                language=languages or "",
                models={role: info.get("model") for role, info in config.get("roles", {}).items()},
                bot=str(config.get("bot") or ""),
                scenario_set=key,
                pairs=len(pairs.get(run_id, ())),
                replay_of_run=replays.get(run_id),
                trend=list(history[key]),
                resolution=resolution,
                resolution_trend=list(rate_history[key]),
                trials=trials.get(run_id),
                verdict_means=verdict_means.get(run_id, {}),
                low=run_id in lows,
                interrupted=interrupted.get(run_id, 0),
            )
        )
    return out


@dataclass
class PairTrend:
    scenario_id: str
    persona_name: str
    points: list[tuple[str, float | None]]  # (run id, dialogue score), oldest run first

    @property
    def scores(self) -> list[float | None]:
        return [score for _run, score in self.points]


def pair_trends(store: Store, run_ids: list[str] | None = None) -> list[PairTrend]:
    """Score per scenario × persona across runs (all runs, or ``run_ids``), oldest run first;
    a pair run twice in one run contributes the mean of its scored dialogues."""
    if run_ids is not None and not run_ids:
        return []
    rows = run_listing.pair_scores(store, run_ids)
    trends: dict[tuple[str, str], PairTrend] = {}
    for scenario, persona, run_id, avg, _first in rows:
        trends.setdefault((scenario, persona), PairTrend(scenario, persona, [])).points.append((run_id, avg))
    return list(trends.values())
