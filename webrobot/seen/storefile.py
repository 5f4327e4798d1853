"""The checkpoint file of a seen-store: one file, written atomically, read back checked.

:func:`save_store` writes any store of :mod:`webrobot.seen.stores` (and a
near-duplicate index, :class:`~webrobot.seen.simhash.NearIndex`) to one file
atomically (temporary file, then ``os.replace``): a magic line, a JSON header,
then the store's byte sections, each with its CRC-32. :func:`load_store` reads it
back and raises :class:`~webrobot.seen.stores.StoreFileError` with a clear message
for a missing, truncated, corrupted or foreign file. No Scrapy here.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any

from webrobot.seen.simhash import NearIndex
from webrobot.seen.stores import BloomStore, ExactStore, FirstSeenIndex, StoreFileError

FILE_MAGIC = b"webrobot-seen-store\n"
FILE_VERSION = 1

_KINDS: dict[str, Any] = {
    ExactStore.kind: ExactStore,
    BloomStore.kind: BloomStore,
    FirstSeenIndex.kind: FirstSeenIndex,
    NearIndex.kind: NearIndex,
}

Stored = ExactStore | BloomStore | FirstSeenIndex | NearIndex


def _from_state(header: dict[str, Any], sections: list[memoryview]) -> Stored:
    kind = header.get("kind")
    if kind not in _KINDS:
        raise StoreFileError(f"unknown store kind {kind!r}")
    try:
        return _KINDS[kind].from_state(header, sections)  # type: ignore[no-any-return]
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, StoreFileError):
            raise
        raise StoreFileError(f"{kind} store: bad header ({exc})") from None


def save_store(store: Stored, path: str | os.PathLike[str], **extra: Any) -> int:
    """Write ``store`` to ``path`` atomically; ``extra`` goes into the header. Returns bytes written."""
    header, sections = store.to_state()
    views = [memoryview(s).cast("B") for s in sections]
    header = {
        "format": FILE_MAGIC.decode().strip(), "version": FILE_VERSION, **extra, **header,
        "sections": [len(v) for v in views], "crc32": [zlib.crc32(v) for v in views],
    }  # fmt: skip
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    head = FILE_MAGIC + json.dumps(header, sort_keys=True).encode("ascii") + b"\n"
    with tmp.open("wb") as f:
        f.write(head)
        for view in views:
            f.write(view)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, target)
    return len(head) + sum(len(v) for v in views)


def read_header(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The JSON header of a store file (cheap: the data is not read)."""
    with Path(path).open("rb") as f:
        return _parse_head(f.read(len(FILE_MAGIC)), f.readline(1 << 20), path)


def _parse_head(magic: bytes, line: bytes, path: Any) -> dict[str, Any]:
    if magic != FILE_MAGIC:
        raise StoreFileError(f"{path}: not a webrobot store file")
    try:
        header = json.loads(line)
    except ValueError:
        raise StoreFileError(f"{path}: unreadable header") from None
    if not isinstance(header, dict) or header.get("version") != FILE_VERSION:
        raise StoreFileError(f"{path}: unsupported store file version")
    return header


def load_store(path: str | os.PathLike[str]) -> Stored:
    """Read a store written by :func:`save_store`; :class:`StoreFileError` if unusable."""
    try:
        data = memoryview(Path(path).read_bytes())
    except OSError as exc:
        raise StoreFileError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    end = bytes(data[len(FILE_MAGIC) : len(FILE_MAGIC) + (1 << 20)]).find(b"\n")
    if end < 0:
        raise StoreFileError(f"{path}: not a webrobot store file")
    start = len(FILE_MAGIC) + end + 1
    header = _parse_head(bytes(data[: len(FILE_MAGIC)]), bytes(data[len(FILE_MAGIC) : start]), path)
    sizes, crcs = header.get("sections"), header.get("crc32")
    if not isinstance(sizes, list) or not isinstance(crcs, list) or len(sizes) != len(crcs):
        raise StoreFileError(f"{path}: bad section table")
    if start + sum(sizes) != len(data):
        raise StoreFileError(
            f"{path}: truncated or padded ({len(data)} bytes, expected {start + sum(sizes)})"
        )
    sections = []
    for size, crc in zip(sizes, crcs, strict=True):
        section = data[start : start + size]
        if zlib.crc32(section) != crc:
            raise StoreFileError(f"{path}: checksum mismatch (corrupted file)")
        sections.append(section)
        start += size
    try:
        return _from_state(header, sections)
    except StoreFileError as exc:
        raise StoreFileError(f"{path}: {exc}") from None
