"""Tests for the config file (config.py, toml_io.py) and endpoint resolution (endpoints.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from ragtui.core.config import paths
from ragtui.core.config.settings import Config, EndpointConfig, load_config, parse_config
from ragtui.core.config.toml_io import read_toml
from ragtui.core.models.endpoints import (
    EMBEDDED_MODEL,
    OPENAI_URL,
    PLACEHOLDER_KEY,
    resolve_endpoint,
    resolve_endpoints,
)
from ragtui.core.text.redaction import redact_url
from ragtui.core.types.errors import ConfigError, RagtuiError

SECRET = "sk-secret-123"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The host's OpenAI variables, ./ragtui.toml and user config dir must not leak in."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "MY_GATEWAY_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(tmp_path / "xdg" / name.lower()))
    monkeypatch.chdir(tmp_path)


def write_config(tmp_path: Path, text: str, name: str = "ragtui.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load(tmp_path: Path, text: str) -> Config:
    path = write_config(tmp_path, text)
    return parse_config(read_toml(path, "config file"), path)


FULL_CONFIG = """
language = "ja"
max_turns = 5
threshold = 0.5
concurrency = 2
top_k = 6
metrics = ["rubric"]
database = "data/ragtui.db"
personas = "my-personas"
scenarios = "sc/ja.toml"
knowledge = "kb"
prompts = "../shared/prompts"

[endpoint]
base_url = "http://localhost:11434/v1"
model = "qwen2.5:7b"
api_key_env = "MY_GATEWAY_KEY"
timeout = 30

[roles.judge]
model = "gpt-4o-mini"
temperature = 0.0

[roles.user]
temperature = 1

[embedded]
model_path = "models/m.gguf"
ctx_size = 4096
port = 8099
"""


# -- defaults and parsing ---------------------------------------------------------------------


def test_defaults(tmp_path: Path) -> None:
    config = Config()
    assert config.language == "en"
    assert config.max_turns == 3
    assert config.threshold == 0.7
    assert config.concurrency == 4
    assert config.top_k == 4
    assert config.metrics == ["rubric"]
    assert config.database == tmp_path / "xdg" / "xdg_data_home" / "ragtui" / "ragtui.db"
    assert config.personas == paths.bundled_dir("personas")
    assert config.prompts == paths.bundled_dir("prompts")
    assert config.knowledge == paths.bundled_dir("sample_data") / "knowledge"
    assert config.scenarios == paths.bundled_dir("sample_data") / "scenarios"
    assert set(config.roles) == {"user", "bot", "judge"}
    assert config.role("judge") == EndpointConfig()
    assert config.embedded.model_path is None
    assert config.source is None


def test_load_config_without_any_file_gives_defaults() -> None:
    """No --config, no ./ragtui.toml, no user config: the built-in defaults."""
    config = load_config(None)
    assert config.source is None
    assert config.max_turns == 3


def test_load_config_finds_local_file(tmp_path: Path) -> None:
    path = write_config(tmp_path, "max_turns = 7\n")
    config = load_config(None)
    assert config.source == path
    assert config.max_turns == 7


def test_load_config_missing_explicit_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match="does not exist") as info:
        load_config(missing)
    assert str(missing) in str(info.value)


def test_full_config_file(tmp_path: Path) -> None:
    config = load(tmp_path, FULL_CONFIG)
    assert config.source == tmp_path / "ragtui.toml"
    assert config.language == "ja"
    assert (config.max_turns, config.concurrency, config.top_k) == (5, 2, 6)
    assert config.threshold == 0.5
    assert config.metrics == ["rubric"]
    assert config.endpoint == EndpointConfig(
        base_url="http://localhost:11434/v1", model="qwen2.5:7b", api_key_env="MY_GATEWAY_KEY", timeout=30.0
    )
    assert isinstance(config.endpoint.timeout, float)
    assert config.roles["judge"] == EndpointConfig(model="gpt-4o-mini", temperature=0.0)
    assert config.roles["user"].temperature == 1.0
    assert isinstance(config.roles["user"].temperature, float)
    assert config.roles["bot"] == EndpointConfig()
    assert config.embedded.ctx_size == 4096
    assert config.embedded.port == 8099


def test_relative_paths_resolve_against_config_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths in the file are relative to the file, not to wherever ragtui was started."""
    folder = tmp_path / "project"
    folder.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    config = load(folder, FULL_CONFIG)
    base = folder.resolve()
    assert config.database == base / "data" / "ragtui.db"
    assert config.personas == base / "my-personas"
    assert config.scenarios == base / "sc" / "ja.toml"
    assert config.knowledge == base / "kb"
    assert config.prompts == tmp_path.resolve() / "shared" / "prompts"
    assert config.embedded.model_path == base / "models" / "m.gguf"


def test_absolute_path_is_kept(tmp_path: Path) -> None:
    target = (tmp_path / "abs" / "db.sqlite").resolve()
    config = load(tmp_path, f'database = "{target.as_posix()}"\n')
    assert config.database == target


def test_invalid_toml_names_file_and_line(tmp_path: Path) -> None:
    path = write_config(tmp_path, 'language = "en"\nmax_turns = = 3\n')
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert str(path) in message
    assert "line 2" in message


def test_unknown_top_level_key(tmp_path: Path) -> None:
    """A typo at the top level fails loudly, naming the file, the key and what is allowed."""
    with pytest.raises(ConfigError) as info:
        load(tmp_path, "max_turn = 3\n")
    message = str(info.value)
    assert str(tmp_path / "ragtui.toml") in message
    assert "'max_turn'" in message
    assert "max_turns" in info.value.hint
    assert "threshold" in info.value.hint


def test_unknown_role_name(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, '[roles.critic]\nmodel = "x"\n')
    message = str(info.value)
    assert str(tmp_path / "ragtui.toml") in message
    assert "'critic'" in message
    assert info.value.hint == "allowed keys: bot, judge, user"


def test_unknown_key_inside_role(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, '[roles.judge]\nmodle = "x"\n')
    message = str(info.value)
    assert str(tmp_path / "ragtui.toml") in message
    assert "[roles.judge]" in message
    assert "'modle'" in message
    assert "model" in info.value.hint
    assert "api_key_env" in info.value.hint


@pytest.mark.parametrize("table", ["[roles.judge]", "[endpoint]"])
def test_api_key_in_file_is_rejected(tmp_path: Path, table: str) -> None:
    """Keys never live in config files; the error points at api_key_env instead."""
    with pytest.raises(ConfigError) as info:
        load(tmp_path, f'{table}\napi_key = "{SECRET}"\n')
    message = str(info.value)
    assert "api_key" in message
    assert "api_key_env" in message
    assert str(tmp_path / "ragtui.toml") in message
    assert SECRET not in message


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('threshold = "high"\n', "threshold must be int or float, got str 'high'"),
        ("threshold = true\n", "threshold must be int or float"),
        ("threshold = 1.5\n", "threshold must be between 0 and 1"),
        ("max_turns = 0\n", "max_turns must be at least 1, got 0"),
        ("max_turns = 101\n", "max_turns must be at most 100, got 101 — set 100 or fewer"),
        ("max_turns = 1234567890123456789012345678901\n", "max_turns must be at most 100, got 1.23457e+30"),
        ("concurrency = 100000\n", "concurrency must be at most 256, got 100000 — set 256 or fewer"),
        ("repeat = 101\n", "repeat must be at most 100, got 101 — set 100 or fewer"),
        ("max_turns = 2.5\n", "max_turns must be int"),
        ("top_k = -1\n", "top_k must be at least 1"),
        ('language = "fr"\n', "language must be one of ja, en"),
        ("metrics = [1]\n", "metrics[1] must be str, got int 1"),
        ("[roles.judge]\ntemperature = 3\n", "temperature must be between 0 and 2, got 3"),
        ('[roles.judge]\ntemperature = "hot"\n', "temperature must be int or float"),
        ("[endpoint]\ntimeout = 0\n", "timeout must be positive"),
        ("[endpoint]\nmax_tokens = -5\n", "max_tokens must be positive"),
        ('roles = { judge = "gpt" }\n', "[roles.judge] must be dict"),
    ],
)
def test_wrong_types_and_ranges(tmp_path: Path, text: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text)
    message = str(info.value)
    assert fragment in message
    assert str(tmp_path / "ragtui.toml") in message


def test_endpoint_defaults_merge_under_role(tmp_path: Path) -> None:
    """A role inherits every [endpoint] setting it does not set itself."""
    config = load(
        tmp_path,
        '[endpoint]\nbase_url = "http://gw.local/v1"\nmodel = "shared"\ntemperature = 0.5\nmax_tokens = 256\n'
        '[roles.judge]\nmodel = "judge-model"\ntemperature = 0.0\n',
    )
    judge = config.role("judge")
    assert judge.base_url == "http://gw.local/v1"
    assert judge.model == "judge-model"
    assert judge.temperature == 0.0  # 0.0 is a value, not "unset"
    assert judge.max_tokens == 256
    bot = config.role("bot")
    assert (bot.model, bot.temperature) == ("shared", 0.5)


# -- endpoint resolution ----------------------------------------------------------------------


def test_no_env_no_url_is_embedded() -> None:
    endpoints = resolve_endpoints(Config())
    assert set(endpoints) == {"user", "bot", "judge"}
    for endpoint in endpoints.values():
        assert endpoint.embedded is True
        assert endpoint.base_url is None
        assert endpoint.model == EMBEDDED_MODEL
        assert "demo quality" in endpoint.label
        assert endpoint.api_key == PLACEHOLDER_KEY
    assert endpoints["user"].temperature == 0.7
    assert endpoints["judge"].temperature == 0.2


def test_embedded_ignores_model_override() -> None:
    """--model names a model on a server; the embedded model is always the bundled one."""
    assert resolve_endpoint(Config(), "bot", "gpt-4o").model == EMBEDDED_MODEL


def test_openai_base_url_with_model_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://localhost:8080/v1/")
    endpoints = resolve_endpoints(Config(), model_override="llama3")
    for endpoint in endpoints.values():
        assert endpoint.embedded is False
        assert endpoint.base_url == "http://localhost:8080/v1"
        assert endpoint.model == "llama3"
        assert endpoint.label == "llama3"


def test_model_override_beats_config_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = load(tmp_path, '[endpoint]\nbase_url = "http://localhost:8080/v1"\nmodel = "from-file"\n')
    assert resolve_endpoint(config, "judge").model == "from-file"
    assert resolve_endpoint(config, "judge", "from-cli").model == "from-cli"


def test_openai_base_url_without_model_names_a_dead_server_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no model named, ragtui asks the server which it serves; when nothing answers, the
    error says so (naming the role and host:port) instead of asking for --model."""
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    with pytest.raises(RagtuiError) as info:
        resolve_endpoint(Config(), "judge")
    message = str(info.value)
    assert "judge endpoint" in message and f"connection refused at 127.0.0.1:{port}" in message
    assert "--model" not in message


def test_openai_api_key_alone_means_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    endpoint = resolve_endpoint(Config(), "bot", "gpt-4o-mini")
    assert endpoint.base_url == OPENAI_URL
    assert "api.openai.com" in endpoint.base_url
    assert endpoint.embedded is False
    assert endpoint.api_key == SECRET
    assert endpoint.api_key_env == "OPENAI_API_KEY"


def test_explicit_key_env_unset(tmp_path: Path) -> None:
    """Naming a variable that is not set is a mistake even for a local server."""
    config = load(
        tmp_path, '[endpoint]\nbase_url = "http://localhost:8080/v1"\nmodel = "m"\napi_key_env = "MY_GATEWAY_KEY"\n'
    )
    with pytest.raises(ConfigError) as info:
        resolve_endpoint(config, "judge")
    message = str(info.value)
    assert "MY_GATEWAY_KEY" in message
    assert "judge" in message


def test_explicit_key_env_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_GATEWAY_KEY", SECRET)
    config = load(
        tmp_path, '[endpoint]\nbase_url = "http://localhost:8080/v1"\nmodel = "m"\napi_key_env = "MY_GATEWAY_KEY"\n'
    )
    endpoint = resolve_endpoint(config, "judge")
    assert endpoint.api_key == SECRET
    assert endpoint.public()["key_set"] is True


def test_hosted_openai_without_key(tmp_path: Path) -> None:
    config = load(tmp_path, '[endpoint]\nbase_url = "https://api.openai.com/v1"\nmodel = "gpt-4o"\n')
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        resolve_endpoint(config, "bot")


def test_local_url_without_key_gets_placeholder(tmp_path: Path) -> None:
    config = load(tmp_path, '[endpoint]\nbase_url = "http://127.0.0.1:11434/v1"\nmodel = "qwen"\n')
    endpoint = resolve_endpoint(config, "user")
    assert endpoint.api_key == PLACEHOLDER_KEY
    assert endpoint.public()["key_set"] is False
    assert endpoint.temperature == 0.7


def test_public_and_repr_never_show_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The key may sit in the Endpoint, but nothing stored or shown may contain it."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    endpoint = resolve_endpoint(Config(), "judge", "gpt-4o-mini")
    assert endpoint.api_key == SECRET
    public = endpoint.public()
    assert SECRET not in repr(endpoint)
    assert SECRET not in str(endpoint)
    assert SECRET not in str(public)
    assert public["key_set"] is True
    assert public["api_key_env"] == "OPENAI_API_KEY"


def test_public_redacts_credentials_in_url(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gateways sometimes carry keys in the URL; public() must drop them too."""
    monkeypatch.setenv("OPENAI_BASE_URL", f"https://user:{SECRET}@gateway.example.com/v1?api_key={SECRET}")
    public = resolve_endpoint(Config(), "judge", "gpt-4o-mini").public()
    assert SECRET not in str(public)
    assert public["base_url"] == "https://***@gateway.example.com/v1?***"


def test_repr_redacts_credentials_in_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", f"https://user:{SECRET}@gateway.example.com/v1?api_key={SECRET}")
    endpoint = resolve_endpoint(Config(), "judge", "gpt-4o-mini")
    assert SECRET not in repr(endpoint)


def test_public_of_embedded_endpoint() -> None:
    public = resolve_endpoint(Config(), "bot").public()
    assert public["base_url"] == "embedded"
    assert public["embedded"] is True
    assert public["key_set"] is False


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://alice:pw@example.com/v1", "https://***@example.com/v1"),
        ("https://example.com:8443/v1?key=abc&x=1", "https://example.com:8443/v1?***"),
        ("http://u:p@localhost:8080/v1?token=t#frag", "http://***@localhost:8080/v1?***"),
        ("http://localhost:8080/v1", "http://localhost:8080/v1"),
    ],
)
def test_redact_url(url: str, expected: str) -> None:
    redacted = redact_url(url)
    assert redacted == expected
    for secret in ("alice", "pw", "abc", "token"):
        assert secret not in redacted


def test_redact_url_keeps_ipv6_brackets() -> None:
    assert redact_url("http://u:p@[::1]:8080/v1?k=1") == "http://***@[::1]:8080/v1?***"


def test_min_judge_agreement_defaults_and_overrides(tmp_path: Path):
    assert (Config().min_judge_agreement.spearman, Config().min_judge_agreement.kappa) == (0.5, 0.4)
    assert Config().gate_low_agreement is False
    config = load(tmp_path, "gate_low_agreement = true\n[min_judge_agreement]\nkappa = 0.6\n")
    assert (config.min_judge_agreement.spearman, config.min_judge_agreement.kappa) == (0.5, 0.6)
    assert config.gate_low_agreement is True


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[min_judge_agreement]\nspearman = 1.5\n", "[min_judge_agreement] spearman must be between -1 and 1"),
        ('[min_judge_agreement]\nkappa = "high"\n', "[min_judge_agreement] kappa must be int or float"),
        ("[min_judge_agreement]\nkapa = 0.4\n", "[min_judge_agreement]: unknown key 'kapa'"),
        ("min_judge_agreement = 0.5\n", "[min_judge_agreement] must be dict, got float 0.5"),
        ("[min_judge_agreement]\nitems = 0\n", "[min_judge_agreement] items must be at least 1"),
        ("[min_judge_agreement]\nitems = 2.5\n", "[min_judge_agreement] items must be int"),
        ('gate_low_agreement = "yes"\n', "gate_low_agreement must be bool"),
    ],
)
def test_min_judge_agreement_errors_name_the_key(tmp_path: Path, text: str, named: str):
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text)
    assert named in str(info.value) and "ragtui.toml" in str(info.value)
