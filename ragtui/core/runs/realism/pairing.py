"""Which REAL and SIM conversations the blind test sets side by side: two about the same need.

- **By scenario**, where both runs played the same scenario (its id, on sessions whose opening is
  the scenario's text): the same need by construction. Within a scenario the conversations are
  shuffled with the seeded RNG and matched in turn.
- **By opening**, for the rest: every remaining SIM opening against every remaining REAL one
  (character trigram Dice), matched greedily from the most alike down, each conversation used once.

A pair shows each side's first reply of the customer's own (the message after the opening, the
simulator's words rather than the scenario file's) when both have one, else both openings; two
identical texts are left out (there is nothing to tell apart). The ``limit`` best pairs are kept:
scenario pairs first, then by how alike their openings are.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass

from ...text.text_similarity import dice, normalise
from .conversations import Conversation, CustomerMessage, Side
from .similarity import dice_matrix


@dataclass(frozen=True)
class Pair:
    real: Conversation
    sim: Conversation
    real_message: CustomerMessage
    sim_message: CustomerMessage
    how: str  # "scenario" | "opening"
    similarity: float  # Dice of the two openings
    shown: str  # "reply" | "opening": which messages the judge sees


@dataclass(frozen=True)
class Pairing:
    pairs: list[Pair]
    candidates: int  # pairs found before the limit
    identical: int  # pairs left out: the two shown texts were the same


def _scenario_played(c: Conversation) -> bool:
    return not c.opening.own


def _shown(real: Conversation, sim: Conversation) -> tuple[CustomerMessage, CustomerMessage, str]:
    r, s = real.blind_message(), sim.blind_message()
    if r is not None and s is not None:
        return r, s, "reply"
    return real.opening, sim.opening, "opening"


def pair_conversations(real: Side, sim: Side, *, limit: int, seed: int) -> Pairing:
    rng = random.Random(seed)
    matched: list[tuple[Conversation, Conversation, str]] = []
    by_scenario: dict[str, tuple[list[Conversation], list[Conversation]]] = defaultdict(lambda: ([], []))
    for c in real.conversations:
        by_scenario[c.scenario_id][0].append(c)
    for c in sim.conversations:
        by_scenario[c.scenario_id][1].append(c)
    used: set[tuple[str, int]] = set()
    for scenario_id in sorted(by_scenario):
        reals, sims = by_scenario[scenario_id]
        if not reals or not sims or not any(map(_scenario_played, reals + sims)):
            continue  # a scenario id names a need only on dialogues played from that scenario
        reals, sims = reals[:], sims[:]
        rng.shuffle(reals)
        rng.shuffle(sims)
        for r, s in zip(reals, sims, strict=False):
            matched.append((r, s, "scenario"))
            used.update({("real", r.session_id), ("sim", s.session_id)})
    rng.shuffle(matched)
    rest_real = [c for c in real.conversations if ("real", c.session_id) not in used]
    rest_sim = [c for c in sim.conversations if ("sim", c.session_id) not in used]
    matrix = dice_matrix([c.opening.text for c in rest_real], [c.opening.text for c in rest_sim])
    scored = sorted(
        (
            (matrix[i][j], r.session_id, s.session_id, r, s)
            for i, r in enumerate(rest_real)
            for j, s in enumerate(rest_sim)
        ),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    taken_real: set[int] = set()
    taken_sim: set[int] = set()
    for _, rid, sid, r, s in scored:
        if rid in taken_real or sid in taken_sim:
            continue
        taken_real.add(rid)
        taken_sim.add(sid)
        matched.append((r, s, "opening"))
    pairs: list[Pair] = []
    identical = 0
    for r, s, how in matched:
        real_message, sim_message, shown = _shown(r, s)
        if normalise(real_message.text) == normalise(sim_message.text):
            identical += 1
            continue
        pairs.append(Pair(r, s, real_message, sim_message, how, dice(r.opening.text, s.opening.text), shown))
    return Pairing(pairs[:limit], len(pairs), identical)
