"""Prompt templates under ``prompts/<language>/<kind>.toml`` with named ``{{slots}}``.

Each kind declares which keys its file has and exactly which slots each key uses. A template
that names a slot the code does not fill, or leaves out one it must show, is rejected on load
with the file, key and slot named — a typo in a prompt should never silently send ``{{qustion}}``
to a model. Filling is a single pass, so text inside a value (a bot reply that contains
``{{context}}``, say) is never expanded again: untrusted text stays data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ..config import paths
from ..config.toml_io import read_toml
from ..types.errors import ConfigError
from ..types.product import Product

SLOT = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")

# kind → key → the exact set of slots that key must use. "description" is free text.
PROMPT_KINDS: dict[str, dict[str, frozenset[str]]] = {
    "user_simulator": {
        "greeting": frozenset(),
        "system": frozenset({"persona", "question"}),
        "unnamed_product": frozenset(),
        "unnamed_support": frozenset(),
    },
    "bot_rag": {
        "system": frozenset(),  # fixed rules first; each turn's passages travel with its message
        "turn": frozenset({"context", "message"}),
        "no_context": frozenset(),
        "earlier_context": frozenset(),
        "unnamed_product": frozenset(),
        "unnamed_support": frozenset(),
    },
    "judge_rubric": {
        "system": frozenset(),  # fixed prefix first, so a server's prompt cache can reuse it
        "user": frozenset({"context", "history", "question", "response"}),
        "retry": frozenset(),
    },
    # The rubric's yes/no checks (metrics/rubric_probes.py): fixed system, the turn, then one
    # check at a time and the answer cue.
    "judge_probes": {
        "system": frozenset(),
        "on_context": frozenset({"context", "question"}),
        "on_response": frozenset({"response"}),
        "on_exchange": frozenset({"history", "question", "response"}),
        "on_claim": frozenset({"context", "claim"}),
        "context_answers": frozenset(),
        "says_unknown": frozenset(),
        "addresses": frozenset(),
        "complete": frozenset(),
        "other_company": frozenset(),
        "polite": frozenset(),
        "claim": frozenset(),
        "answer": frozenset(),
    },
    # One yes/no question about one bot answer and one expectation (metrics/dialogue/
    # expectation_judge.py): fixed system text, the dialogue as a shared prefix, then the check.
    # Here rather than only on the metric class so the judge loads before any metric declares it;
    # the ``expectations`` metric declares the same schema (``EXPECTATION_PROMPTS``).
    "metric_expectations": {
        "system": frozenset(),
        "dialogue": frozenset({"dialogue"}),
        "passages": frozenset({"context"}),
        "must": frozenset({"question", "answer", "expectation"}),
        "must_not": frozenset({"question", "answer", "act"}),
        # Optional: the levers' other wordings (ExpectationJudge.second_phrasing, .wide_act, .act_contrast).
        "must_again": frozenset({"question", "answer", "expectation"}),
        "must_not_again": frozenset({"question", "answer", "act"}),
        "must_not_wide": frozenset({"question", "answer", "act"}),
        "must_not_contrast": frozenset({"question", "answer", "act"}),
        "retry": frozenset(),
    },
    # The metrics' own templates (metric_faithfulness, …) are declared by each metric class
    # (``MetricInfo.prompts``, ragtui.core.registry.metrics); ``prompt_schema`` finds them there.
    # Checks on the simulated customer's messages, and the corrections for its one retry.
    # Writing scenarios from the knowledge base (core/generate): the writer's request per planned
    # item, its one retry in the right language, the judge's check that a reference follows from
    # its quote, and what an out-of-scope probe expects of the bot.
    "scenario_generate": {
        "system": frozenset(),
        "grounded": frozenset({"kind", "title", "passage", "answer"}),
        "kind_factual": frozenset(),
        "kind_procedural": frozenset(),
        "kind_conditional": frozenset(),
        "kind_two_questions": frozenset(),
        "kind_distracting_detail": frozenset(),
        "kind_situational": frozenset(),
        "out_of_scope": frozenset({"topics", "absent"}),
        "probe_topics": frozenset(),
        "follow_up": frozenset({"question", "reference", "title", "passage"}),
        "probe_any_topic": frozenset(),
        "probe_expect_not_topic": frozenset({"topic"}),
        "wrong_language": frozenset(),
        "entails_system": frozenset(),
        "entails": frozenset({"quote", "reference"}),
        "probe_expect": frozenset(),
        "probe_expect_not": frozenset({"detail"}),
        # The judge's second yes/no on a reference: does it answer the question asked?
        "answers_system": frozenset(),
        "answers": frozenset({"question", "reference"}),
        # A question that is not a question, or not of its kind (core/generate/question_shape):
        # the writer is told what is wrong and asked once more.
        "again_not_a_question": frozenset(),
        "again_one_question": frozenset(),
        "again_no_story": frozenset(),
        "again_no_detail": frozenset(),
        "again_no_situation": frozenset(),
        "again_same_twice": frozenset(),
        "again_placeholder": frozenset(),
        "again_not_theirs": frozenset(),
        "again_vocabulary": frozenset(),
        "again_echo": frozenset(),
        # The round trip: the question answered again from the passage alone, and the judge's
        # yes/no on whether that answer and the reference give the same answer.
        "fresh_answer": frozenset({"question", "title", "passage"}),
        "same_answer_system": frozenset(),
        "same_answer": frozenset({"question", "first", "second"}),
        # A fact of the quote too long for a `contains` (a sentence), judged instead.
        "contains_as_judged": frozenset({"text"}),
        # An expectation that failed its proof (core/generate/proof.py), rewritten once.
        "rewrite_expect": frozenset({"question", "reference", "expectation", "problem"}),
        "rewrite_expect_not": frozenset({"question", "reference", "expectation", "problem"}),
        # A prohibition is proven on the reference with one sentence added that breaks it.
        "violation": frozenset({"question", "reference", "act"}),
        # Every expectation must hold on the shortest right answer too, in other words.
        "short_answer": frozenset({"question", "reference"}),
        "problem_short_fails": frozenset(),
        "problem_right_fails": frozenset(),
        "problem_wrong_passes": frozenset(),
        "problem_break_passes": frozenset(),
        # A probe's expectations are proven on a canned right answer and a canned wrong one.
        "probe_right_answer": frozenset(),
        "probe_wrong_answer": frozenset(),
    },
    # The realism blind test (core/runs/realism/blind_test.py): two customer messages, one real,
    # one simulated; the judge answers A or B with one token.
    "realism_blind": {
        "system": frozenset(),
        "pair": frozenset({"first", "second"}),
        "retry": frozenset(),
    },
    # Mining a real conversation (core/generate/mining.py): the writer's request for its scenario
    # and its customer's persona, and the corrections of its one retry.
    "scenario_mine": {
        "system": frozenset(),
        "conversation": frozenset({"conversation", "turn_two"}),
        "no_turn_two": frozenset(),
        "placeholders": frozenset(),
        "wrong_language": frozenset(),
    },
    "simulator_check": {
        "system": frozenset(),
        "role": frozenset({"persona", "agent", "message"}),
        "done": frozenset({"question", "answer"}),
        "correction_agent": frozenset(),
        "correction_persona": frozenset(),
        "correction_done": frozenset(),
    },
}


# The team's product (``[product]`` in ragtui.toml), filled in when the bot's and the simulated
# customer's templates are loaded: any of their keys may use these, none has to.
PRODUCT_SLOTS = frozenset({"product", "support"})
PRODUCT_KINDS = frozenset({"user_simulator", "bot_rag"})
# How to speak of an unnamed product or channel: optional, so a prompt folder copied before they
# existed still loads; a file without them takes the bundled file's words for its language.
OPTIONAL_KEYS = frozenset(
    {"unnamed_product", "unnamed_support", "must_again", "must_not_again", "must_not_wide", "must_not_contrast"}
)
# Keys a kind gained after its first release. A team's prompt folder copied before then lacks
# them; instead of refusing the whole folder after an upgrade, each missing one is taken from the
# bundled file of the same kind and language (the template names them in ``borrowed``). A key
# the kind had from the start is still required: leaving one out is a mistake worth naming.
ADDED_LATER: dict[str, frozenset[str]] = {
    "scenario_generate": frozenset(
        {
            "probe_topics",
            "follow_up",
            "probe_any_topic",
            "probe_expect_not_topic",
            "answers_system",
            "answers",
            "again_not_a_question",
            "again_one_question",
            "again_no_story",
            "again_no_detail",
            "contains_as_judged",
            "rewrite_expect",
            "rewrite_expect_not",
            "problem_right_fails",
            "problem_wrong_passes",
            "probe_right_answer",
            "probe_wrong_answer",
            "violation",
            "short_answer",
            "problem_short_fails",
            "problem_break_passes",
            "again_no_situation",
            "again_same_twice",
            "again_placeholder",
            "again_not_theirs",
            "again_vocabulary",
            "again_echo",
            "fresh_answer",
            "same_answer_system",
            "same_answer",
        }
    ),  # fmt: skip
}


def prompt_schema(kind: str) -> Mapping[str, frozenset[str]]:
    """The keys of template ``kind`` and the exact slots each uses: the engine's own kinds
    above, or the kind a registered metric declares."""
    if kind in PROMPT_KINDS:
        return PROMPT_KINDS[kind]
    # Imported here: the metrics import this module, and loading a config must not load them.
    from ..registry.metrics import prompt_schema as metric_prompt_schema

    schema = metric_prompt_schema(kind)
    if schema is None:
        raise ConfigError(f"no metric declares the prompt template kind {kind!r}")
    return schema


@dataclass(frozen=True)
class PromptTemplate:
    kind: str
    language: str
    path: Path | None
    parts: dict[str, str]
    description: str = ""
    borrowed: tuple[str, ...] = ()  # keys the file lacked, taken from the bundled file (ADDED_LATER)

    def render(self, key: str, **values: str) -> str:
        """Fill ``key``'s slots with ``values`` (all of them, nothing else)."""
        expected = prompt_schema(self.kind)[key]
        if set(values) != expected:
            raise ValueError(f"{self.kind}.{key} takes slots {sorted(expected)}, got {sorted(values)}")
        return SLOT.sub(lambda m: values[m.group(1)], self.parts[key])

    def for_product(self, product: Product) -> PromptTemplate:
        """The template with the product's name and support channel written in (the file's
        ``unnamed_product`` / ``unnamed_support`` when the config names none). Double braces in
        a name become single ones: the filled text is rendered again per turn, and a name must
        never be read as a slot."""
        if self.kind not in PRODUCT_KINDS:
            return self
        named = {"product": product.name, "support": product.support}
        values = {
            slot: value.replace("{{", "{").replace("}}", "}") if value else self._unnamed(slot)
            for slot, value in named.items()
        }

        def fill(text: str) -> str:
            return SLOT.sub(lambda m: values.get(m.group(1), m.group(0)), text)

        return replace(self, parts={key: fill(text) for key, text in self.parts.items()})

    def _unnamed(self, slot: str) -> str:
        key = f"unnamed_{slot}"
        if key in self.parts:
            return self.parts[key].strip()
        bundled = load_prompt(paths.bundled_dir("prompts"), self.language, self.kind)
        return bundled.parts[key].strip()


def prompt_path(prompts_dir: Path, language: str, kind: str) -> Path:
    return prompts_dir / language / f"{kind}.toml"


def load_prompt(prompts_dir: Path, language: str, kind: str) -> PromptTemplate:
    """Load and validate one template file."""
    path = prompt_path(prompts_dir, language, kind)
    if not path.is_file():
        raise ConfigError(
            f"prompt template {path} does not exist",
            f"create it, or point 'prompts' in the config at a folder with {language}/{kind}.toml",
        )
    return parse_prompt(read_toml(path, "prompt template"), kind, language, path)


def parse_prompt(data: dict[str, object], kind: str, language: str, path: Path | None) -> PromptTemplate:
    """Validate parsed TOML against the kind's keys and slots (also used for edited prompts)."""
    where = str(path) if path else f"{kind} prompt"
    spec = prompt_schema(kind)
    allowed = set(spec) | {"description"}
    for key in data:
        if key not in allowed:
            raise ConfigError(f"{where}: unknown key {key!r}", f"allowed keys: {', '.join(sorted(allowed))}")
    parts: dict[str, str] = {}
    borrowed: list[str] = []
    for key, slots in spec.items():
        value = data.get(key)
        if value is None and key in OPTIONAL_KEYS:
            continue
        if value is None and key in ADDED_LATER.get(kind, ()):
            bundled = paths.bundled_dir("prompts")
            if path is None or path.parent.parent.resolve() != bundled.resolve():
                parts[key] = load_prompt(bundled, language, kind).parts[key]
                borrowed.append(key)
                continue
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"{where}: key {key!r} is missing or empty", "it must be a non-empty string")
        used = set(SLOT.findall(value))
        if kind in PRODUCT_KINDS:
            used -= PRODUCT_SLOTS  # filled in at load (for_product), allowed in every key
        unknown = sorted(used - slots)
        if unknown:
            may_use = slots | (PRODUCT_SLOTS if kind in PRODUCT_KINDS else frozenset())
            allowed_slots = ", ".join("{{" + s + "}}" for s in sorted(may_use)) or "none"
            raise ConfigError(
                f"{where}: key {key!r} uses unknown slot {{{{{unknown[0]}}}}}", f"slots allowed here: {allowed_slots}"
            )
        missing = sorted(slots - used)
        if missing:
            raise ConfigError(
                f"{where}: key {key!r} is missing slot {{{{{missing[0]}}}}}", "add it where the value belongs"
            )
        parts[key] = value
    description = data.get("description", "")
    return PromptTemplate(
        kind, language, path, parts, description if isinstance(description, str) else "", borrowed=tuple(borrowed)
    )


@dataclass(frozen=True)
class PromptSet:
    """The three templates a dialogue needs, in one language."""

    simulator: PromptTemplate
    bot: PromptTemplate
    judge: PromptTemplate
    # Where they came from, so the other metrics can load their own templates (and few-shot
    # examples) from the same folder, in the same language, only when they are chosen.
    directory: Path | None = None

    @classmethod
    def load(cls, prompts_dir: Path, language: str, product: Product | None = None) -> PromptSet:
        """``product``: the config's (``Config.product()``); unnamed when not given, for the
        callers that use only the judge's template."""
        product = product or Product()
        return cls(
            simulator=load_prompt(prompts_dir, language, "user_simulator").for_product(product),
            bot=load_prompt(prompts_dir, language, "bot_rag").for_product(product),
            judge=load_prompt(prompts_dir, language, "judge_rubric"),
            directory=prompts_dir,
        )
