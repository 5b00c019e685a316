"""Wiring the embedded model into a run: start it when a role has no endpoint, point those
roles at it, and give them token limits a 1.5B model on two cores can afford."""

from __future__ import annotations

import importlib.util

from ..config import Config
from ..errors import RagtuiError
from .endpoints import Endpoint
from .local_model import LocalModel, LocalModelSettings, StageProgress

# A small local model rambles; a customer line or an answer past these lengths is noise, and
# every token costs ~40 ms on two cores. The judge sets its own limit (metrics.rubric).
EMBEDDED_MAX_TOKENS = {"user": 160, "bot": 400}


def needs_embedded(endpoints: dict[str, Endpoint]) -> bool:
    return any(e.embedded and e.base_url is None for e in endpoints.values())


def start_embedded(config: Config, endpoints: dict[str, Endpoint], progress: StageProgress | None = None) -> LocalModel:
    """Start the embedded model and point every embedded role at it. The caller stops it."""
    if importlib.util.find_spec("xllamacpp") is None:
        raise RagtuiError(
            "The embedded offline model's runtime (xllamacpp) is not installed",
            "install it with: pip install 'ragtui[embedded]', or point ragtui at an endpoint "
            "(OPENAI_BASE_URL=... and --model NAME)",
        )
    model = LocalModel(LocalModelSettings.from_config(config.embedded))
    url = model.start(progress)
    attach(endpoints, url)
    return model


def attach(endpoints: dict[str, Endpoint], base_url: str) -> None:
    """Point the embedded roles at ``base_url`` (also after a restart on a new port)."""
    for role, endpoint in endpoints.items():
        if endpoint.embedded:
            endpoint.base_url = base_url
            if endpoint.max_tokens is None and role in EMBEDDED_MAX_TOKENS:
                endpoint.max_tokens = EMBEDDED_MAX_TOKENS[role]
