"""Shared start-up for the CLI and the TUI: config + overrides → endpoints, store, personas,
scenarios; plus a quick reachability check of each endpoint before a batch starts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..config.limits import MAX_CONCURRENCY, MAX_TURNS, count_text
from ..config.settings import LANGUAGES, Config, load_config
from ..models.endpoints import Endpoint, resolve_endpoints
from ..registry.metrics import EXPECTATION_RATE, RESOLUTION_RATE, gate_metric
from ..store.store import Store
from ..text.number_text import setting_text
from ..types.errors import ConfigError


@dataclass
class Overrides:
    """Command-line flags; ``None`` leaves the config's value alone."""

    config_path: Path | None = None
    db: Path | None = None
    model: str | None = None
    language: str | None = None
    max_turns: int | None = None
    concurrency: int | None = None
    threshold: float | None = None
    min_resolution_rate: float | None = None
    min_expectation_rate: float | None = None
    metrics: list[str] = field(default_factory=list)
    scenarios: Path | None = None  # a scenario file or folder instead of the config's
    knowledge: Path | None = None  # a knowledge folder instead of the config's


def load_effective_config(overrides: Overrides) -> Config:
    config = load_config(overrides.config_path)
    if overrides.db is not None:
        config.database = overrides.db
    for name in ("scenarios", "knowledge"):  # a generated file and its help centre, without a config edit
        path = getattr(overrides, name)
        if path is not None:
            if not path.exists():
                raise ConfigError(
                    f"--{name} {path} does not exist", f"give an existing {'file' if name == 'scenarios' else 'folder'}"
                )
            setattr(config, name, path)
    if overrides.language is not None:
        if overrides.language not in LANGUAGES:
            raise ConfigError(f"--language must be one of {', '.join(LANGUAGES)}, got {overrides.language!r}")
        config.language = overrides.language
    for name in ("max_turns", "concurrency"):
        value = getattr(overrides, name)
        if value is not None:
            if value < 1:
                raise ConfigError(f"--{name.replace('_', '-')} must be at least 1, got {value}")
            # The config's ceiling holds for the flag too (a 31-digit count fits no SQLite integer).
            ceiling = MAX_TURNS if name == "max_turns" else MAX_CONCURRENCY
            if value > ceiling:
                flag = f"--{name.replace('_', '-')}"
                raise ConfigError(
                    f"{flag} must be at most {ceiling}, got {count_text(value)}", f"give {ceiling} or fewer"
                )
            setattr(config, name, value)
    if overrides.threshold is not None:
        if not 0.0 <= overrides.threshold <= 1.0:
            raise ConfigError(f"--threshold must be between 0 and 1, got {overrides.threshold}")
        config.threshold = overrides.threshold
    if overrides.metrics:
        config.metrics = overrides.metrics
    if overrides.min_resolution_rate is not None:
        if not 0.0 <= overrides.min_resolution_rate <= 1.0:
            raise ConfigError(
                f"--min-resolution-rate must be between 0 and 1, got {setting_text(overrides.min_resolution_rate)}"
            )
        # The resolution rate is made by one metric's verdicts: its gate needs them.
        resolution = gate_metric(RESOLUTION_RATE)
        if overrides.min_resolution_rate > 0 and resolution not in config.dialogue_metrics:
            raise ConfigError(
                f"--min-resolution-rate needs the {resolution} verdict, but the config's dialogue_metrics leaves it out",
                f'add "{resolution}" to dialogue_metrics',
            )
        config.min_resolution_rate = overrides.min_resolution_rate
    if overrides.min_expectation_rate is not None:
        if not 0.0 <= overrides.min_expectation_rate <= 1.0:
            raise ConfigError(
                f"--min-expectation-rate must be between 0 and 1, got {setting_text(overrides.min_expectation_rate)}"
            )
        config.min_expectation_rate = overrides.min_expectation_rate
    # The expectation rate is made by one metric's verdicts: its gate needs them.
    expectations = gate_metric(EXPECTATION_RATE)
    if config.min_expectation_rate > 0 and expectations not in config.dialogue_metrics:
        raise ConfigError(
            f"min_expectation_rate needs the {expectations} verdict, but the config's dialogue_metrics leaves it out",
            f'add "{expectations}" to dialogue_metrics',
        )
    return config


def endpoints_for(config: Config, overrides: Overrides) -> dict[str, Endpoint]:
    return resolve_endpoints(config, overrides.model)


def open_store(config: Config, *, read_only: bool = False) -> Store:
    """The config's database; ``read_only`` for commands that only read it: they create nothing
    and work on a database in a read-only folder."""
    store = Store.open_read_only(config.database) if read_only else Store.open(config.database)
    # Every verdict read shows its judge's agreement as the card says now, under the config's floor.
    # Imported here: ``ragtui``'s first frame imports this module and needs no metric module.
    from ..judge_quality.card_lookup import install_card_lookup

    return install_card_lookup(store, config.min_judge_agreement)


async def check_reachable(endpoints: dict[str, Endpoint], timeout: float = 5.0) -> None:
    """Check each distinct endpoint before a batch (``models/preflight.py``), so a dead URL, a
    rejected key, a gateway's 400 or a web page where the API should be fails the batch with one
    clear line instead of one failure per dialogue."""
    from ..models.preflight import check_endpoints  # the HTTP client: not before the TUI's first frame

    await check_endpoints(endpoints, timeout)
