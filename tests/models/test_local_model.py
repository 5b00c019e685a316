"""The embedded model: chunk discovery, assembly, integrity errors, and one real smoke test.

The unit tests use tiny fake chunk "distributions" (real ``.dist-info`` directories read by
``importlib.metadata.PathDistribution``), so they run in well under a second without the
1.1 GB model. The smoke test (marker ``embedded``) starts the real llama.cpp server.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
from importlib import metadata
from pathlib import Path

import pytest

from ragtui.core.config import paths
from ragtui.core.models import local_model_file as lmf
from ragtui.core.models.local_model import LocalModel, LocalModelSettings, check_memory, check_port
from ragtui.core.types.errors import ConfigError, EndpointError, RagtuiError

CHUNKS = [b"GGUF" + b"a" * 1000, b"b" * 1500, b"c" * 7]
PAYLOAD = b"".join(CHUNKS)
USER_CACHE = paths.cache_dir()  # read before the autouse fixture points XDG dirs at tmp_path


def _spec(size: int = len(PAYLOAD), sha: str | None = None) -> lmf.ModelSpec:
    return lmf.ModelSpec(
        filename="fake.gguf",
        sha256=sha or hashlib.sha256(PAYLOAD).hexdigest(),
        size=size,
        package_prefix="fake-model-part",
        parts=len(CHUNKS),
        version="0.2.0",
    )


def _make_dist(root: Path, index: int, data: bytes, version: str = "0.2.0") -> metadata.Distribution:
    """Write a minimal installed wheel (dist-info + RECORD with size and hash) for one chunk."""
    mod = f"fake_model_part{index}"
    info = root / f"{mod}-{version}.dist-info"
    (root / mod / "data").mkdir(parents=True)
    info.mkdir()
    (root / mod / "data" / f"part{index:02d}.bin").write_bytes(data)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: fake-model-part{index}\nVersion: {version}\n")
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    (info / "RECORD").write_text(f"{mod}/data/part{index:02d}.bin,sha256={digest},{len(data)}\n{info.name}/RECORD,,\n")
    return metadata.PathDistribution(info)


@pytest.fixture
def fake_dists(tmp_path: Path) -> dict[str, metadata.Distribution]:
    return {f"fake-model-part{i}": _make_dist(tmp_path / "site", i, data) for i, data in enumerate(CHUNKS, start=1)}


def _lookup(dists: dict[str, metadata.Distribution]):
    def lookup(name: str) -> metadata.Distribution:
        if name not in dists:
            raise metadata.PackageNotFoundError(name)
        return dists[name]

    return lookup


@pytest.fixture(autouse=True)
def _cache_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def test_find_chunks_in_order_without_importing(fake_dists) -> None:
    chunks = lmf.find_chunks(_spec(), _lookup(fake_dists))
    assert [c.package for c in chunks] == ["fake-model-part1", "fake-model-part2", "fake-model-part3"]
    assert [c.path.read_bytes() for c in chunks] == CHUNKS
    assert chunks[1].record_sha256 == hashlib.sha256(CHUNKS[1]).hexdigest()


def test_missing_chunk_package_is_named_with_pip_command(fake_dists) -> None:
    del fake_dists["fake-model-part2"]
    with pytest.raises(RagtuiError) as info:
        lmf.find_chunks(_spec(), _lookup(fake_dists))
    assert "fake-model-part2" in info.value.message
    assert "fake-model-part1" not in info.value.message
    assert "pip install 'fake-model-part2==0.2.0'" in info.value.hint


def test_wrong_version_counts_as_missing(tmp_path: Path, fake_dists) -> None:
    fake_dists["fake-model-part3"] = _make_dist(tmp_path / "other", 3, CHUNKS[2], version="0.1.0")
    with pytest.raises(RagtuiError, match="fake-model-part3"):
        lmf.find_chunks(_spec(), _lookup(fake_dists))


def test_truncated_chunk_file_is_reported(fake_dists) -> None:
    chunk = lmf.find_chunks(_spec(), _lookup(fake_dists))[1]
    chunk.path.write_bytes(CHUNKS[1][:10])
    with pytest.raises(RagtuiError, match="fake-model-part2.*truncated"):
        lmf.find_chunks(_spec(), _lookup(fake_dists))


def test_assemble_hashes_reports_progress_and_caches(fake_dists) -> None:
    seen: list[tuple[int, int]] = []
    path = lmf.ensure_model_file(_spec(), lambda d, t: seen.append((d, t)), lookup=_lookup(fake_dists))
    assert path == lmf.cached_model_path(_spec()) and path.read_bytes() == PAYLOAD
    assert seen[-1] == (len(PAYLOAD), len(PAYLOAD))
    assert not list(path.parent.glob("*.tmp"))
    # Second start: stamp + size suffice, the chunk packages are not even looked up.
    assert lmf.ensure_model_file(_spec(), lookup=_lookup({})) == path
    # A replaced file (new mtime, same size) is re-hashed and, being wrong, reassembled.
    path.write_bytes(b"x" * len(PAYLOAD))
    assert lmf.ensure_model_file(_spec(), lookup=_lookup(fake_dists)).read_bytes() == PAYLOAD


def test_hash_mismatch_names_corrupt_chunk_and_leaves_no_file(fake_dists) -> None:
    chunks = lmf.find_chunks(_spec(), _lookup(fake_dists))
    chunks[2].path.write_bytes(b"X" * len(CHUNKS[2]))  # same size, different bytes
    with pytest.raises(RagtuiError) as info:
        lmf.ensure_model_file(_spec(), lookup=_lookup(fake_dists))
    assert "fake-model-part3" in info.value.message
    assert "--force-reinstall" in info.value.hint and "delete" in info.value.hint
    target = lmf.cached_model_path(_spec())
    assert not target.exists() and not list(target.parent.glob("*.tmp"))


def test_pinned_hash_mismatch_without_record_culprit(fake_dists) -> None:
    with pytest.raises(RagtuiError, match="integrity check"):
        lmf.ensure_model_file(_spec(sha="0" * 64), lookup=_lookup(fake_dists))


def test_chunk_sizes_must_add_up(fake_dists) -> None:
    with pytest.raises(RagtuiError, match="add up"):
        lmf.find_chunks(_spec(size=len(PAYLOAD) + 1), _lookup(fake_dists))


def test_configured_model_path_must_exist_and_be_gguf(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        lmf.check_gguf(tmp_path / "nope.gguf")
    bad = tmp_path / "model.bin"
    bad.write_bytes(b"PK\x03\x04 not a gguf")
    with pytest.raises(ConfigError, match="not a GGUF"):
        lmf.check_gguf(bad)
    good = tmp_path / "model.gguf"
    good.write_bytes(b"GGUF\x03\x00\x00\x00")
    assert lmf.check_gguf(good) == good
    # LocalModel.start() validates the configured file before spawning anything.
    with pytest.raises(ConfigError, match="not a GGUF"):
        LocalModel(LocalModelSettings(model_path=bad)).start()


def test_memory_and_port_checks() -> None:
    with pytest.raises(RagtuiError, match="Too little memory"):
        check_memory(minimum=1 << 60)
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        with pytest.raises(RagtuiError, match="cannot listen"):
            check_port("127.0.0.1", busy.getsockname()[1])
    check_port("127.0.0.1", 0)


@pytest.mark.skipif(importlib.util.find_spec("xllamacpp") is None, reason="xllamacpp is not installed")
def test_child_dying_during_load_reports_log_tail(tmp_path: Path) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\0" * 64)  # right magic, unreadable header
    model = LocalModel(LocalModelSettings(model_path=broken, min_available_bytes=0, load_timeout=60))
    with pytest.raises(EndpointError) as info:
        model.start()
    assert "exited while loading" in info.value.message
    assert "failed to load model" in info.value.hint and "llama-server.log" in info.value.hint
    assert not model.is_running and model.pid is None


def _embedded_available() -> str | None:
    if importlib.util.find_spec("xllamacpp") is None:
        return "xllamacpp is not installed (pip install xllamacpp)"
    try:
        lmf.find_chunks()
    except RagtuiError as exc:
        return f"embedded model chunk packages not installed: {exc.message}"
    return None


@pytest.mark.embedded
def test_real_embedded_model_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    reason = _embedded_available()
    if reason:
        pytest.skip(reason)
    openai = pytest.importorskip("openai")
    # Reuse the user's assembled model instead of assembling 1.1 GB into tmp_path again.
    monkeypatch.setenv("XDG_CACHE_HOME", str(USER_CACHE.parent))
    with LocalModel(LocalModelSettings(ctx_size=2048, parallel=1)) as model:
        assert model.base_url and model.base_url.startswith("http://127.0.0.1:")
        assert (model.rss_bytes() or 0) > 500_000_000
        client = openai.OpenAI(base_url=model.base_url, api_key=model.token)
        reply = client.chat.completions.create(
            model=model.model_name,
            max_tokens=8,
            temperature=0,
            messages=[{"role": "user", "content": "Reply with just the word: pong"}],
        )
        assert "pong" in (reply.choices[0].message.content or "").lower()
        pid = model.pid
    assert not model.is_running and pid is not None and not Path(f"/proc/{pid}").exists()
