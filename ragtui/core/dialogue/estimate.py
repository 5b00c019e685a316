"""Tokens (and cost) of a planned run before it starts — and what a finished run spent.

Nothing here calls a model. Input tokens come from the real prompts: each planned dialogue is
walked turn by turn through the same message builders the engine uses (the simulator's, the
built-in bot's with its real retrieval, the rubric judge's), with the replies not yet written
stood in by text of the expected length. Output tokens per call are the mean of past calls of
the same model in this database, or an assumed reply length when there are none. Turns per
dialogue are the mean of past dialogues with the same ``max_turns`` and customer model, else
``max_turns`` (an upper bound: customers who say DONE end early).

Token counts use a character heuristic (about 4 characters per token for ASCII text, 1.5 for
other scripts, plus 4 per chat message): close for English on GPT-style tokenizers, rough for
Japanese, and docs/runs.md says so.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

from ..bots.builtin_rag import BuiltinRagBot
from ..config.settings import Config
from ..content.prompts import PromptSet, load_prompt
from ..knowledge.index import KnowledgeBase
from ..metrics import PRIMARY_METRIC
from ..metrics.answer_relevancy import MAX_STATEMENTS
from ..metrics.base import TurnContext
from ..metrics.rubric import CheckedRubricJudge
from ..metrics.rubric_probes import MIN_CLAIM_CHARS
from ..models.endpoints import Endpoint
from ..models.llm import ChatClient, Message
from ..registry.bots import uses_bot_role
from ..registry.metrics import metric_info
from ..store import usage
from ..store.store import Store
from ..text.sentences import split_sentences
from ..types.personas import Persona
from ..types.scenarios import Scenario
from ..types.turns import Utterance
from .simulator import UserSimulator
from .simulator_check import OFF_ROLE_SOURCE

# Reply lengths assumed when no past call of the model is stored (tokens).
ASSUMED_OUTPUT = {"user": 40, "bot": 150, "judge": 20}  # judge: per call (yes/no checks are short)
# Model calls per verdict of each metric besides its per-statement checks are its
# ``MetricInfo.calls``; metrics with ``per_statement`` also ask one yes/no check per statement of
# the answer (``statement_checks.py``), counted as the stand-in answer's sentences, at most
# ``MAX_STATEMENTS``. A dialogue metric's ``calls`` are assumed per dialogue with no past run.
MESSAGE_OVERHEAD = 4  # role markers and separators of one chat message
# With no past run to learn from: the model check of each simulated customer message (calls,
# tokens in, tokens out), and each model-judged dialogue metric (a step listing intents or facts,
# then about two checks), whose prompts hold the transcript.
ASSUMED_CHECK = (1.0, 300.0, 15.0)
# Turns walked through the prompt builders per dialogue. Walking costs more each turn (the
# history grows), so a huge max_turns would keep the estimate busy for hours; the turns after
# these are counted from the last walked one: the same calls and output, and each prompt
# growing by what the last turn's grew.
WALKED_TURNS = 8


def calls_per_verdict(metric: str) -> float:
    info = metric_info(metric)
    return 1 if info is None else info.calls


def per_statement(metric: str) -> bool:
    info = metric_info(metric)
    return info is not None and info.per_statement


def approx_tokens(text: str) -> int:
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return math.ceil(ascii_chars / 4 + (len(text) - ascii_chars) / 1.5)


def message_tokens(messages: list[Message]) -> int:
    return sum(approx_tokens(m.get("content", "")) + MESSAGE_OVERHEAD for m in messages)


@dataclass
class RoleTokens:
    role: str
    model: str
    calls: float = 0.0
    tokens_in: float = 0.0
    tokens_out: float = 0.0
    basis: str = ""  # where the output figure came from
    cost: float | None = None  # None: no price for the model
    # Of tokens_in, those the server computed and those it reused from its prompt cache; None
    # when a call's server did not say (an estimate, or an endpoint that reports no cache).
    computed: float | None = None
    reused: float | None = None

    def add_cost(self, prices: Mapping[str, tuple[float, float]]) -> None:
        price = price_for(prices, self.model)
        if price is not None:
            self.cost = (self.tokens_in * price[0] + self.tokens_out * price[1]) / 1_000_000


@dataclass
class Estimate:
    dialogues: int
    turns_per_dialogue: float
    turns_basis: str
    roles: list[RoleTokens] = field(default_factory=list)
    trials: int = 1  # dialogues per scenario × persona (`ragtui run --repeat K`)

    def repeated(self, trials: int) -> Estimate:
        """The estimate of ``trials`` dialogues per pair: each trial walks the same prompts, so
        every figure is ``trials`` times one trial's (the customer's replies differ; their
        expected length does not)."""
        roles = [
            dataclasses.replace(
                r,
                calls=r.calls * trials,
                tokens_in=r.tokens_in * trials,
                tokens_out=r.tokens_out * trials,
                cost=None if r.cost is None else r.cost * trials,
            )
            for r in self.roles
        ]
        return dataclasses.replace(self, dialogues=self.dialogues * trials, roles=roles, trials=self.trials * trials)

    @property
    def cost(self) -> float | None:
        costs = [r.cost for r in self.roles]
        return None if not costs or any(c is None for c in costs) else sum(c for c in costs if c is not None)


def price_for(prices: Mapping[str, tuple[float, float]], model: str) -> tuple[float, float] | None:
    """The configured (input, output) price per million tokens of ``model`` (exact name first,
    then a dated variant of a configured name: "gpt-4o-mini-2024-07-18" → "gpt-4o-mini")."""
    if model in prices:
        return prices[model]
    matches = [name for name in prices if model.startswith(name + "-")]
    return prices[max(matches, key=len)] if matches else None


def past_output(store: Store, role: str, model: str, metric: str = PRIMARY_METRIC) -> tuple[float | None, int]:
    """Mean completion tokens per call of ``model`` in ``role``, and how many calls it is from."""
    if role == "judge":
        return usage.judge_output(store, model, metric)
    # A customer message kept as off-role was written by the simulator's model all the same.
    sources = ("simulator", OFF_ROLE_SOURCE) if role == "user" else ("bot",)
    return usage.message_output(store, model, sources)


def past_turns(store: Store, max_turns: int, user_model: str) -> tuple[float | None, int]:
    return usage.dialogue_turns(store, max_turns, user_model)


class RunEstimator:
    """Everything an estimate needs that does not depend on the planned dialogues, loaded once
    (the TUI's new-session dialog estimates again for every scenario and persona it shows)."""

    def __init__(self, config: Config, endpoints: dict[str, Endpoint], store: Store | None, metrics: list[str]) -> None:
        self.config = config
        self.prompts = PromptSet.load(config.prompts, config.language, config.product())
        builtin = uses_bot_role(config.bot.type) and "bot" in endpoints
        self.knowledge = KnowledgeBase.from_folder(config.knowledge, config.language) if builtin else None
        self.metrics = metrics
        self.outputs: dict[str, float] = {}
        self.bases: dict[str, tuple[str, str]] = {}  # role → (model, basis of its output figure)
        for role in ("user", "bot", "judge"):
            if role == "bot" and not builtin:
                continue  # the team's own bot: its tokens are not ragtui's to count
            model = endpoints[role].model
            mean, calls = past_output(store, role, model) if store is not None else (None, 0)
            self.outputs[role] = mean if mean is not None else ASSUMED_OUTPUT[role]
            self.bases[role] = (model, f"mean of {calls} past call(s)" if mean is not None else "assumed reply length")
        self.turns, self.turns_basis = float(config.max_turns), f"up to max_turns ({config.max_turns})"
        if store is not None:
            mean_turns, sessions = past_turns(store, config.max_turns, endpoints["user"].model)
            if mean_turns is not None:
                self.turns, self.turns_basis = mean_turns, f"mean of {sessions} past dialogue(s)"
        checked = config.simulator_check == "model"
        past_check = past_check_usage(store, endpoints["user"].model) if store is not None and checked else None
        self.check = past_check or (ASSUMED_CHECK if checked else (0.0, 0.0, 0.0))
        self.check_basis = "mean of past customer messages" if past_check else "assumed check size"
        past_verdicts = past_dialogue_usage(store, endpoints["judge"].model) if store is not None else None
        self.dialogue_verdicts = past_verdicts  # (calls, in, out) per dialogue; None: from the transcript

    def estimate(
        self, scenarios: list[Scenario], personas: list[Persona], metrics: list[str] | None = None
    ) -> Estimate:
        config, prompts, outputs = self.config, self.prompts, self.outputs
        nobody = cast(ChatClient, None)  # message builders only: no client is ever called
        # The rubric a dialogue runs: yes/no checks (one call each, claims included), built here
        # exactly as the judge builds them for the turn.
        judge = CheckedRubricJudge(nobody, load_prompt(config.prompts, config.language, "judge_probes"))
        roles = {role: RoleTokens(role, model, basis=basis) for role, (model, basis) in self.bases.items()}
        whole_turns = max(1, math.ceil(self.turns))
        weight = self.turns / whole_turns  # a mean of 2.4 turns walks 3 and counts each at 0.8
        chosen = self.metrics if metrics is None else metrics
        run_metrics = list(dict.fromkeys([PRIMARY_METRIC, *chosen]))
        judge_calls = sum(calls_per_verdict(m) for m in run_metrics)
        statement_metrics = sum(1 for m in run_metrics if per_statement(m))
        for scenario in scenarios:
            for persona in personas:
                simulator = UserSimulator(nobody, prompts.simulator, persona, scenario)
                bot = BuiltinRagBot(nobody, prompts.bot, self.knowledge, config.top_k) if self.knowledge else None
                history = [Utterance("user", scenario.question)]
                walked = min(whole_turns, WALKED_TURNS)
                per_turn: list[dict[str, tuple[float, float, float]]] = []
                for turn in range(1, walked + 1):
                    before = _totals(roles)
                    if turn > 1:
                        _count(roles["user"], message_tokens(simulator.messages(history)), outputs["user"], weight)
                        history.append(Utterance("user", _stand_in(scenario.question, outputs["user"])))
                    passages = bot.retrieve(history) if bot is not None else []
                    if bot is not None:
                        _count(roles["bot"], message_tokens(bot.messages(history, passages)), outputs["bot"], weight)
                    stand_in = " ".join(p.text for p in passages) or scenario.question
                    answer = _stand_in(stand_in, outputs.get("bot", ASSUMED_OUTPUT["bot"]))
                    context = TurnContext(turn, history[-1].text, answer, passages, history[:-1], config.language)
                    checks = [message_tokens(q.messages) for q in judge.questions(context)]
                    # Other metrics' calls are counted at the mean size of a check's prompt.
                    statements = min(MAX_STATEMENTS, max(1, statement_count(answer))) * statement_metrics
                    calls = len(checks) + judge_calls - 1 + statements
                    judge_in = sum(checks) + (calls - len(checks)) * sum(checks) / max(1, len(checks))
                    _count(roles["judge"], judge_in, outputs["judge"] * calls, weight, calls)
                    history.append(Utterance("bot", answer))
                    per_turn.append(_minus(_totals(roles), before))
                later = whole_turns - walked
                if later > 0:
                    _extrapolate(roles, per_turn[-2], per_turn[-1], later)
                if whole_turns > 1 and self.check[0] > 0:  # each simulated customer message is checked
                    calls, check_in, check_out = self.check
                    check = roles.setdefault(
                        CHECK_STEP, RoleTokens(CHECK_STEP, roles["user"].model, basis=self.check_basis)
                    )
                    _count(check, check_in * calls, check_out * calls, self.turns - 1, calls)
                # The turns not walked lengthen the transcript the dialogue verdicts read.
                extra = later * sum(approx_tokens(u.text) + MESSAGE_OVERHEAD for u in history[-2:])
                self._count_dialogue_verdicts(roles["judge"], history, extra, scenario)
        order = {"user": 0, CHECK_STEP: 1, "bot": 2, "judge": 3}
        ordered = sorted(roles.values(), key=lambda r: order.get(r.role, 4))
        result = Estimate(len(scenarios) * len(personas), self.turns, self.turns_basis, ordered)
        for role in result.roles:
            role.add_cost(config.prices)
        return result

    def _count_dialogue_verdicts(
        self, judge: RoleTokens, history: list[Utterance], extra: float, scenario: Scenario
    ) -> None:
        """The verdicts on the whole dialogue when it ends: as past dialogues of this judge
        cost, else each model-judged metric's assumed calls with the transcript in each prompt
        (the expectations' from the scenario's own, so a scenario without any costs nothing)."""
        if self.dialogue_verdicts is not None:
            calls, tokens_in, tokens_out = self.dialogue_verdicts
        else:
            calls = float(sum(self._dialogue_calls(m, scenario) for m in self.config.dialogue_metrics))
            transcript = sum(approx_tokens(u.text) + MESSAGE_OVERHEAD for u in history) + extra
            tokens_in, tokens_out = calls * (transcript + 200), calls * self.outputs["judge"]
        _count(judge, tokens_in, tokens_out, 1.0, calls)

    def _dialogue_calls(self, metric: str, scenario: Scenario) -> float:
        info = metric_info(metric)
        if info is None:
            return 0.0
        if info.scenario_calls is not None:
            return info.scenario_calls(scenario, self.config.policies, self.turns)
        return info.calls


def past_check_usage(store: Store, model: str) -> tuple[float, float, float] | None:
    """Mean calls and tokens a simulated customer message cost besides itself (its checks, a
    rejected first try), over past messages of ``model``; None when there are none."""
    return usage.check_usage(store, model)


def past_dialogue_usage(store: Store, model: str) -> tuple[float, float, float] | None:
    """Mean calls and tokens of the dialogue verdicts per past dialogue judged by ``model``."""
    return usage.dialogue_usage(store, model)


def estimate_run(
    config: Config,
    endpoints: dict[str, Endpoint],
    scenarios: list[Scenario],
    personas: list[Persona],
    store: Store | None,
    metrics: list[str],
) -> Estimate:
    return RunEstimator(config, endpoints, store, metrics).estimate(scenarios, personas)


def statement_count(answer: str) -> int:
    """How many statements the judge is likely to split ``answer`` into: its sentences (the
    rubric's claim split, without its cap)."""
    return sum(1 for s in split_sentences(answer) if len(s) >= MIN_CLAIM_CHARS)


def _count(role: RoleTokens, tokens_in: float, tokens_out: float, weight: float, calls: float = 1) -> None:
    role.calls += calls * weight
    role.tokens_in += tokens_in * weight
    role.tokens_out += tokens_out * weight


def _totals(roles: dict[str, RoleTokens]) -> dict[str, tuple[float, float, float]]:
    return {name: (r.calls, r.tokens_in, r.tokens_out) for name, r in roles.items()}


def _minus(
    after: dict[str, tuple[float, float, float]], before: dict[str, tuple[float, float, float]]
) -> dict[str, tuple[float, float, float]]:
    return {name: tuple(a - b for a, b in zip(after[name], before[name], strict=True)) for name in after}  # type: ignore[misc]


def _extrapolate(
    roles: dict[str, RoleTokens],
    previous: dict[str, tuple[float, float, float]],
    last: dict[str, tuple[float, float, float]],
    turns: int,
) -> None:
    """Count ``turns`` more turns like the ``last`` walked one, each prompt growing by what the
    last turn's grew over the ``previous`` one's: a closed sum, whatever the number of turns."""
    for name, role in roles.items():
        calls, tokens_in, tokens_out = last[name]
        growth = max(0.0, tokens_in - previous[name][1])
        role.calls += calls * turns
        role.tokens_in += tokens_in * turns + growth * turns * (turns + 1) / 2
        role.tokens_out += tokens_out * turns


def _stand_in(text: str, tokens: float) -> str:
    """Text of about ``tokens`` tokens made from ``text``, standing in for a reply not yet written."""
    if not text:
        text = "reply"
    per_copy = max(1, approx_tokens(text))
    copies = math.ceil(tokens / per_copy)
    joined = " ".join([text] * copies)
    ratio = min(1.0, tokens / max(1, approx_tokens(joined)))
    return joined[: max(1, int(len(joined) * ratio))]


CHECK_STEP = "user check"  # the simulator's checks of a customer message and the re-ask after one failed


def spent(store: Store, run_id: str, prices: Mapping[str, tuple[float, float]]) -> list[RoleTokens]:
    """Tokens a stored run actually used, per role and model, with the cost where priced: sent,
    computed and reused from the server's prompt cache. The simulator's checks of customer
    messages (and a message asked again after failing one) are a step of their own."""
    # Every model call of the run: the messages a model wrote, the calls behind a customer
    # message besides itself (its checks, a rejected first try), turn and dialogue verdicts.
    rows = usage.run_usage(store, run_id, CHECK_STEP)
    out: list[RoleTokens] = []
    order = {"user": 0, CHECK_STEP: 1, "bot": 2, "judge": 3}
    for role, model, calls, tokens_in, tokens_out, reused, computed in sorted(rows, key=lambda r: (order[r[0]], r[1])):
        used = RoleTokens(role, model, calls, tokens_in, tokens_out, "stored usage", computed=computed, reused=reused)
        used.add_cost(prices)
        out.append(used)
    return out
