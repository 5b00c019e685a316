"""The engine stores the expectations verdict for a finished dialogue whose scenario has
expectations or to which a policy applies, and none at all otherwise."""

from __future__ import annotations

from ragtui.core.dialogue.engine import Engine
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.types.expectations import Expectation, results_from_details
from ragtui.core.types.scenarios import Scenario


async def finished_verdicts(engine: Engine, scenario: Scenario, persona) -> dict:  # noqa: ANN001
    dialogue = engine.new_dialogue(scenario, persona, max_turns=1)
    async for _event in dialogue.run():
        pass
    return {j.metric: j for j in engine.store.session(dialogue.session_id).dialogue_judgments}


async def test_no_expectations_and_no_policy_store_no_verdict(engine: Engine, persona, server):
    verdicts = await finished_verdicts(engine, Scenario("plain", "How do I link?", "en", tags=("account",)), persona)
    assert "resolution" in verdicts and "expectations" not in verdicts


async def test_a_policy_alone_is_checked_on_every_answer(config, store, persona, server):
    config.policies = (Expectation("no-fax", "fax", "contains", "must_not", "policy", ("account",)),)
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        verdicts = await finished_verdicts(engine, Scenario("plain", "How?", "en", tags=("account",)), persona)
        (result,) = results_from_details(verdicts["expectations"].details)
        assert (result.expectation.id, result.status) == ("no-fax", "kept")
        untagged = await finished_verdicts(engine, Scenario("other", "How?", "en", tags=("billing",)), persona)
        assert "expectations" not in untagged  # the policy's tags do not select it
    finally:
        await engine.aclose()


async def test_the_scenario_snapshot_carries_its_expectations(engine: Engine, scenario, persona, server):
    assert scenario.expectations  # the bundled id-linking scenario
    verdicts = await finished_verdicts(engine, scenario, persona)
    ids = [r.expectation.id for r in results_from_details(verdicts["expectations"].details)]
    assert ids == [e.id for e in scenario.expectations]
    (session,) = engine.store.sessions()
    assert Scenario.from_dict(session.scenario) == scenario
