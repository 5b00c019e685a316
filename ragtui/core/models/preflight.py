"""The check before a batch (``ragtui run``) and in ``ragtui doctor``: is each endpoint an
OpenAI-compatible API that takes this key?

``GET /models`` first: cheap, no tokens. A refused connection, a rejected key, a 400 (a gateway's
answer to a wrong key) or an HTML page fails with what is wrong. When its answer proves nothing
either way (no such route on some gateways, a server error, not a model list), a chat stream is
opened with a one-word prompt and dropped after its first event, so an HTML page or a refusal
there fails here too rather than in every dialogue. A server error is retried at most once
here: a gateway has usually retried its upstream already, and a check must answer quickly.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from ..types.errors import EndpointError
from .endpoints import Endpoint
from .http_answer import models_answer, transport_error
from .llm import ChatClient, ClientPool

if TYPE_CHECKING:
    import httpx

CHECK_RETRIES = 1


async def check_endpoint(
    endpoint: Endpoint, pool: ClientPool, timeout: float = 5.0, listed: dict[tuple[str, str], bool] | None = None
) -> None:
    """Raise the EndpointError saying what is wrong with ``endpoint``, if anything is.
    ``listed`` remembers per (URL, key) whether GET /models listed models, so roles sharing a
    server ask it once."""
    import httpx  # here, not at the top: the TUI's first frame must not wait for it

    if endpoint.base_url is None:
        return
    listed = {} if listed is None else listed
    server = (endpoint.base_url, endpoint.api_key)
    if server not in listed:
        try:
            async with httpx.AsyncClient(timeout=timeout) as client:
                response = await client.get(
                    endpoint.base_url + "/models", headers={"Authorization": f"Bearer {endpoint.api_key}"}
                )
        except httpx.HTTPError as exc:
            raise transport_error(endpoint.role, endpoint.base_url, exc, timeout) from None
        answer = _models_answer(endpoint, response)
        listed[server] = isinstance(answer, list)
    if not listed[server]:
        await checked(endpoint, pool).check()


def checked(endpoint: Endpoint, pool: ClientPool) -> ChatClient:
    """A client for ``endpoint`` that retries a failed request at most once."""
    quick = dataclasses.replace(endpoint, max_retries=min(endpoint.max_retries, CHECK_RETRIES))
    return pool.client_for(quick)


async def check_endpoints(endpoints: dict[str, Endpoint], timeout: float = 5.0) -> None:
    """Check each distinct endpoint (URL, key, model) once; raise the first problem found."""
    seen: set[tuple[str, str, str]] = set()
    listed: dict[tuple[str, str], bool] = {}
    pool = ClientPool(lanes=1)
    try:
        for endpoint in endpoints.values():
            key = (endpoint.base_url or "", endpoint.api_key, endpoint.model)
            if endpoint.base_url is None or key in seen:
                continue
            seen.add(key)
            await check_endpoint(endpoint, pool, timeout, listed)
    finally:
        await pool.aclose()


async def unreachable_roles(endpoints: dict[str, Endpoint], timeout: float = 5.0) -> dict[str, str]:
    """Each role whose endpoint does not answer ``GET /models`` as an API would (no connection,
    a refused key, a web page), with the one line saying why; each server asked once. No chat
    request: this is the TUI's check at start, which must cost nothing and move no script."""
    import httpx  # here, not at the top: the TUI's first frame must not wait for it

    found: dict[str, str] = {}
    said: dict[tuple[str, str], tuple[str, str | None]] = {}  # server → (the role asked, problem)
    async with httpx.AsyncClient(timeout=timeout) as client:
        for role, endpoint in endpoints.items():
            if endpoint.base_url is None:
                continue
            server = (endpoint.base_url, endpoint.api_key)
            if server not in said:
                said[server] = (endpoint.role, await _models_problem(client, endpoint, timeout))
            asked, problem = said[server]
            if problem is not None:  # the line names this role, though the server was asked once
                found[role] = problem.replace(f"the {asked} endpoint", f"the {endpoint.role} endpoint", 1)
    return found


async def _models_problem(client: Any, endpoint: Endpoint, timeout: float) -> str | None:
    import httpx

    assert endpoint.base_url is not None
    try:
        response = await client.get(
            endpoint.base_url + "/models", headers={"Authorization": f"Bearer {endpoint.api_key}"}
        )
    except httpx.HTTPError as exc:
        return str(transport_error(endpoint.role, endpoint.base_url, exc, timeout))
    try:
        _models_answer(endpoint, response)
    except EndpointError as exc:
        return str(exc)
    return None


def _models_answer(endpoint: Endpoint, response: httpx.Response) -> list[str] | str:
    """What a ``GET /models`` reply says for ``endpoint`` (raises EndpointError on a refusal)."""
    return models_answer(
        endpoint.role,
        endpoint.base_url or "",
        endpoint.api_key_env,
        response.status_code,
        response.headers.get("content-type") or "",
        response.text,
        endpoint.api_key,
    )
