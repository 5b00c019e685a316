"""The palette's "Restart embedded model" command: offered only when the app started the
embedded model, runs off the UI thread, and tells the operator how it went."""

from __future__ import annotations

from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.types.errors import RagtuiError
from ragtui.tui.app import RagtuiApp

from .conftest import SIZE


class StubModel:
    """Stands in for LocalModel: the restart logic itself is tested with the real server."""

    def __init__(self, url: str, fail: bool = False) -> None:
        self.url, self.fail, self.restarts = url, fail, 0

    def restart(self) -> str:
        self.restarts += 1
        if self.fail:
            raise RagtuiError("The embedded model cannot listen on 127.0.0.1:1", "set [embedded] port")
        return self.url


def commands(app: RagtuiApp) -> list[str]:
    return [c.title for c in app.get_system_commands(app.screen)]


async def test_restart_command_only_when_the_app_owns_a_model(tui_config, store):
    app = RagtuiApp(tui_config, resolve_endpoints(tui_config), store)
    async with app.run_test(size=SIZE):
        assert "Restart embedded model" not in commands(app)


async def test_restart_reports_success_and_failure(tui_config, store):
    endpoints = resolve_endpoints(tui_config)
    model = StubModel(endpoints["bot"].base_url or "")
    app = RagtuiApp(tui_config, endpoints, store, local_model=model)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        assert "Restart embedded model" in commands(app)
        app.action_restart_model()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert model.restarts == 1
        assert "Embedded model restarted." in app.notices.messages()
        model.fail = True
        app.action_restart_model()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert any("cannot listen" in n for n in app.notices.messages())
