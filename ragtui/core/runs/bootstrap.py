"""Shared start-up for the CLI and the TUI: config + overrides → endpoints, store, personas,
scenarios; plus a quick reachability check of each endpoint before a batch starts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..config.reader import override
from ..config.settings import Config, load_config
from ..registry.metrics import EXPECTATION_RATE, RESOLUTION_RATE, gate_metric
from ..store.store import Store
from ..types.errors import ConfigError

if TYPE_CHECKING:  # resolving endpoints comes after the TUI's first frame
    from ..models.endpoints import Endpoint


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


# The flags that set a config key, checked by that key's own declaration (``Config``), so a value
# the file may not hold is refused on the command line too, in the same words.
FLAGS = {
    "language": "--language",
    "max_turns": "--max-turns",
    "concurrency": "--concurrency",
    "threshold": "--threshold",
    "min_resolution_rate": "--min-resolution-rate",
    "min_expectation_rate": "--min-expectation-rate",
}


def load_effective_config(overrides: Overrides) -> Config:
    config = load_config(overrides.config_path)
    changes: dict[str, object] = {name: getattr(overrides, name) for name in FLAGS}
    changes = {name: value for name, value in changes.items() if value is not None}
    if overrides.db is not None:
        changes["database"] = overrides.db
    for name in ("scenarios", "knowledge"):  # a generated file and its help centre, without a config edit
        path = getattr(overrides, name)
        if path is not None:
            if not path.exists():
                raise ConfigError(
                    f"--{name} {path} does not exist", f"give an existing {'file' if name == 'scenarios' else 'folder'}"
                )
            changes[name] = path
    if overrides.metrics:
        changes["metrics"] = overrides.metrics
    config = override(config, changes, FLAGS)
    if overrides.min_resolution_rate:  # the file's own gate was checked when it was read
        _needs_verdict(config, RESOLUTION_RATE, FLAGS["min_resolution_rate"])
    if config.min_expectation_rate > 0:
        _needs_verdict(config, EXPECTATION_RATE, "min_expectation_rate")
    return config


def _needs_verdict(config: Config, role: str, where: str) -> None:
    """A rate is made by one metric's verdicts, so its gate needs them. The registry is asked only
    when a gate is on: consulting it loads every metric, which a first frame never needs."""
    metric = gate_metric(role)
    if metric not in config.dialogue_metrics:
        raise ConfigError(
            f"{where} needs the {metric} verdict, but the config's dialogue_metrics leaves it out",
            f'add "{metric}" to dialogue_metrics',
        )


def endpoints_for(config: Config, overrides: Overrides) -> dict[str, Endpoint]:
    from ..models.endpoints import resolve_endpoints

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
