"""``ragtui serve-bot``: the built-in RAG bot over HTTP (see ``core.bots.reference_server``)."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from rich.text import Text

from ..core.bots.reference_server import ReferenceServer, builtin_factory
from ..core.config.settings import Config
from ..core.models.endpoints import Endpoint, resolve_endpoint
from ..core.runs import bootstrap
from ..core.runs.bootstrap import Overrides
from ..core.types.errors import RagtuiError
from .arg_checks import check_port
from .command_table import help_of
from .model_start import embedded_model
from .output import console


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "serve-bot",
        help=help_of("serve-bot"),
        description="POST /chat {question, history, session_id} → {answer, passages}; "
        '"stream": true (or ?stream=1) for server-sent events. Ctrl-C stops.',
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    parser.add_argument(
        "--language", default=argparse.SUPPRESS, choices=("ja", "en"), help="language of the bot's prompt and knowledge"
    )
    parser.add_argument(
        "--config",
        default=argparse.SUPPRESS,
        type=Path,
        help="config TOML (the bot role's endpoint, knowledge, prompts)",
    )
    parser.add_argument("--model", default=argparse.SUPPRESS, help="model name for the bot (overrides the config)")
    parser.set_defaults(handler=serve_bot)


def serve_bot(args: argparse.Namespace, overrides: Overrides) -> int:
    check_port(args.port)
    config = bootstrap.load_effective_config(overrides)
    endpoint = resolve_endpoint(config, "bot", overrides.model)
    with embedded_model(config, {"bot": endpoint}):
        server = ReferenceServer(builtin_factory(config, endpoint), args.host, args.port)
        try:
            asyncio.run(_serve(server, config, endpoint))
        except KeyboardInterrupt:
            console.print(Text("ragtui serve-bot: stopped"))
    return 0


async def _serve(server: ReferenceServer, config: Config, endpoint: Endpoint) -> None:
    try:
        await server.open()
    except OSError as exc:  # typically the port is taken
        raise RagtuiError(
            f"cannot listen on {server.host}:{server.port}: {exc.strerror or exc}",
            "pick another --port (0: any free one)",
        ) from None
    line = Text(f"Serving the built-in RAG bot ({endpoint.label}, {config.language}) on {server.url}")
    console.print(line, soft_wrap=True)
    if server.host not in ("127.0.0.1", "localhost", "::1"):
        console.print(
            Text(f"Bound to {server.host}: anyone who can reach this machine can use the bot.", style="yellow")
        )
    console.print(
        Text('POST {"question": ..., "history": [...], "session_id": ...}; Ctrl-C stops.', style="dim"), soft_wrap=True
    )
    await server.serve_until_stopped()
