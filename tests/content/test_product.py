"""The team's product in the bot's and the simulated customer's prompts: ``[product]`` in
ragtui.toml names it and its support channel; with the bundled sample the sample's product is
named; with a team's own knowledge base and no ``[product]``, the prompt files' words for an
unnamed product are used — never the sample's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.config.settings import load_config
from ragtui.core.content.prompts import PromptSet, parse_prompt
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.product import Product


def prompts_for(tmp_path: Path, text: str, language: str = "en") -> PromptSet:
    path = tmp_path / "ragtui.toml"
    path.write_text(text, encoding="utf-8")
    config = load_config(path)
    return PromptSet.load(config.prompts, language, config.product())


def system_texts(prompts: PromptSet) -> str:
    return prompts.bot.render("system") + prompts.simulator.render("system", persona="calm", question="Where is it?")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_config_names_the_product_and_its_support_channel(tmp_path: Path, language: str):
    help_centre = tmp_path / "help"
    help_centre.mkdir()
    text = system_texts(
        prompts_for(
            tmp_path,
            f'knowledge = "{help_centre}"\n[product]\nname = "Kumo Coffee"\nsupport = "hello@kumo.example"\n',
            language,
        )
    )
    assert "Kumo Coffee" in text and "hello@kumo.example" in text and "Tsumugi" not in text


@pytest.mark.parametrize(("language", "unnamed"), [("en", "this service"), ("ja", "このサービス")])
def test_a_team_s_knowledge_base_without_a_product_never_gets_the_sample_s_name(tmp_path: Path, language, unnamed):
    (tmp_path / "help").mkdir()
    text = system_texts(prompts_for(tmp_path, f'knowledge = "{tmp_path / "help"}"\n', language))
    assert "Tsumugi" not in text and unnamed in text


def test_the_bundled_sample_names_its_own_product(tmp_path: Path):
    assert "customer support desk of Tsumugi." in system_texts(prompts_for(tmp_path, 'language = "en"\n'))


def test_a_name_with_slot_braces_stays_text_and_the_product_table_is_checked(tmp_path: Path):
    prompts = PromptSet.load(load_config(None).prompts, "en", Product("Acme {{question}}", ""))
    assert "Acme {question}" in prompts.bot.render("system")  # never read as a slot
    with pytest.raises(ConfigError, match=r"\[product\].*unknown key 'channel'"):
        prompts_for(tmp_path, '[product]\nchannel = "x"\n')


def test_product_slots_are_only_for_the_bot_and_the_customer():
    judge = {"system": "Judge {{product}}.", "user": "{{context}}{{history}}{{question}}{{response}}", "retry": "again"}
    with pytest.raises(ConfigError, match=r"unknown slot \{\{product\}\}"):
        parse_prompt(judge, "judge_rubric", "en", None)


def test_a_prompt_folder_from_before_the_product_keys_still_loads(tmp_path: Path):
    """A team's copy of the prompts without unnamed_product / unnamed_support takes the bundled
    words for its language."""
    bundled = load_config(None).prompts
    folder = tmp_path / "prompts" / "en"
    folder.mkdir(parents=True)
    for kind in ("bot_rag", "user_simulator", "judge_rubric"):
        text = (bundled / "en" / f"{kind}.toml").read_text(encoding="utf-8")
        kept = [line for line in text.splitlines() if not line.startswith(("unnamed_product", "unnamed_support"))]
        (folder / f"{kind}.toml").write_text("\n".join(kept) + "\n", encoding="utf-8")
    prompts = PromptSet.load(tmp_path / "prompts", "en", Product())
    assert "customer support desk of this service." in prompts.bot.render("system")
