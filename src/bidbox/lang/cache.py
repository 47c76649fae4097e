"""Compiled systems cached on disk, so that loading a system a second time is instant.

A cache entry is keyed by everything the compiled System depends on: the system file's
path and text, the options, bidbox's version and a hash of the source of the packages
that compile it (``lang``, ``core``, ``evaluate``: a code change makes a new key). The
files the compile read besides it (includes, the base) are listed in the entry with a
hash of each, and checked on loading, so editing an included file invalidates it.

Where: ``$BIDBOX_CACHE_DIR`` if set, else the platform's user cache directory
(``platformdirs`` when installed), else ``$XDG_CACHE_HOME/bidbox`` or
``~/.cache/bidbox``. ``BIDBOX_NO_CACHE=1`` turns the cache off. Delete the folder to
clear it.

An entry is our own pickle in our own folder, written to a temporary file beside it and
moved into place with ``os.replace``, so a reader never sees half a file and two
processes writing at once both leave a whole one. It starts with a header naming its key;
a file with another key, a torn or corrupt file, or one that does not unpickle is
ignored (and replaced by the next store), never an error.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import tempfile
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import bidbox
from bidbox.lang.system import Node, System

FORMAT = 2
MAGIC = b"bidbox-compiled-system\n"
MAX_ENTRIES = 64  # older entries (from earlier versions or edits) are pruned beyond this
_PACKAGES = ("lang", "core", "evaluate")


@dataclass
class CacheStats:
    """What the cache did in this process: a second load of a system is a hit."""

    hits: int = 0
    misses: int = 0
    stores: int = 0
    ignored: int = 0  # unreadable, corrupt, foreign or stale files passed over

    def reset(self) -> None:
        self.hits = self.misses = self.stores = self.ignored = 0


stats = CacheStats()


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is turned off."""
    if os.environ.get("BIDBOX_NO_CACHE", "").strip() not in ("", "0"):
        return None
    override = os.environ.get("BIDBOX_CACHE_DIR", "").strip()
    if override:
        return Path(override).expanduser()
    try:
        import platformdirs  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        base = os.environ.get("XDG_CACHE_HOME", "").strip()
        return (Path(base) if base else Path.home() / ".cache") / "bidbox"
    return Path(platformdirs.user_cache_dir("bidbox"))


@cache
def code_fingerprint() -> str:
    """bidbox's version and a hash of the compiling packages' source."""
    digest = hashlib.sha256(bidbox.__version__.encode())
    root = Path(bidbox.__file__).resolve().parent
    for package in _PACKAGES:
        for path in sorted((root / package).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_key(file: str, text: str, options: Mapping[str, str | bool] | None) -> str:
    """The key of a compile: the file as named (a System records it), its text, the
    options and the code that compiles it."""
    digest = hashlib.sha256(f"format {FORMAT}\n{code_fingerprint()}\n{file}\n".encode())
    for name, value in sorted((options or {}).items()):
        digest.update(f"option {name}={value!r}\n".encode())
    digest.update(text.encode("utf-8"))
    return digest.hexdigest()


def _entry_path(folder: Path, key: str) -> Path:
    return folder / f"{key[:40]}.system"


def _current(path: str) -> str | None:
    """The hash of a file's text now (None when it is not there)."""
    from bidbox.lang.compiler import text_hash

    candidate = Path(path)
    try:
        return text_hash(candidate.read_text(encoding="utf-8")) if candidate.is_file() \
            else None
    except (OSError, UnicodeDecodeError):
        return "unreadable"


# --- the entry format ------------------------------------------------------------------
# header line (MAGIC, key), then a pickle of (sha256 of the rest, offsets), then blobs.
# Blob 0 is (depends, system) with the root as a stub; every other blob is one node's
# (calls, opp), whose child nodes are stubs again, or one shared constraint. A bid reads
# the few blobs along its auction, not the whole tree: unpickling all of tosr's 17,000
# nodes would take longer than the rest of a `bidbox bid`.


class LazyNode(Node):
    """A node read from the cache: its calls and opponents' calls are unpickled the first
    time they are looked at. It behaves as a Node (and pickles as a plain one)."""

    _source: tuple[_Reader, int]

    def __getattr__(self, name: str) -> Any:
        if name in ("calls", "opp"):
            reader, index = self.__dict__["_source"]
            reader.fill(self, index)
            return self.__dict__[name]
        raise AttributeError(name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Node, (self.auction, self.ours_last, self.label, self.calls, self.opp))


class _Reader:
    """The blobs of one entry, unpickled on demand (once each)."""

    def __init__(self, data: memoryview, offsets: tuple[int, ...]) -> None:
        self.data = data
        self.offsets = offsets
        self.lock = threading.RLock()

    def blob(self, index: int) -> Any:
        start, end = self.offsets[index], self.offsets[index + 1]
        return _Unpickler(io.BytesIO(self.data[start:end]), self).load()

    def node(self, index: int, auction: tuple[Any, ...], ours_last: bool, label: str
             ) -> LazyNode:
        node = LazyNode.__new__(LazyNode)
        node.__dict__.update(auction=auction, ours_last=ours_last, label=label,
                             _source=(self, index))
        return node

    def fill(self, node: LazyNode, index: int) -> None:
        with self.lock:
            if "calls" in node.__dict__:
                return
            calls, opp = self.blob(index)
            node.__dict__.update(calls=calls, opp=opp)


def _node_stub(*args: Any) -> Any:
    raise pickle.UnpicklingError("a cached node is read through its entry's reader")


class _Unpickler(pickle.Unpickler):
    """Resolves the node stubs to the entry's reader, and loads only bidbox's own classes
    and the few built-ins our entries use: a file in the cache folder is never trusted
    to name other code."""

    def __init__(self, file: io.BytesIO, reader: _Reader) -> None:
        super().__init__(file)
        self.reader = reader

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "_node_stub":
            return self.reader.node
        if module.startswith("bidbox.") or (module, name) in _BUILTINS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"a cache entry names {module}.{name}")


_BUILTINS = {("copyreg", "__newobj__"), ("copyreg", "_reconstructor"),
             ("builtins", "object"), ("builtins", "getattr"), ("builtins", "set"),
             ("builtins", "frozenset")}
BLOB_ENTRIES = 256
"""About this many calls per blob: the nodes nearest a blob's root are stored in it,
the farther ones start blobs of their own."""
SMALL_SUBTREE = 24
"""A subtree of at most this many calls is stored whole where it hangs (not worth a blob)."""


class _Writer:
    """Pickles a System as blobs, each a node's children with the nodes nearest to it
    (breadth first); the rest of the tree hangs from stubs. A per-class dispatch table
    picks the stubs (a persistent_id would be asked about every string and number)."""

    def __init__(self) -> None:
        self.blobs: list[bytes] = [b""]  # blob 0, the System itself, is written last
        self.pending: list[tuple[Node, int]] = []
        self.inline: set[int] = set()
        self.size: dict[int, int] = {}

    def dumps(self, obj: object) -> bytes:
        out = io.BytesIO()
        pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = {Node: self.reduce_node}  # type: ignore[assignment, unused-ignore]
        pickler.dump(obj)
        return out.getvalue()

    def reduce_node(self, node: Node) -> Any:
        if id(node) in self.inline or self.size[id(node)] <= SMALL_SUBTREE:
            return node.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
        index = len(self.blobs)
        self.blobs.append(b"")
        self.pending.append((node, index))
        return (_node_stub, (index, node.auction, node.ours_last, node.label))

    def plan(self, root: Node) -> set[int]:
        """The nodes stored whole in ``root``'s blob (``root``'s own children are)."""
        inline: set[int] = set()
        queue = deque(e.node for e in root.calls)
        queue.extend(o.node for o in root.opp)
        count = len(root.calls) + len(root.opp)
        while queue and count < BLOB_ENTRIES:
            node = queue.popleft()
            inline.add(id(node))
            count += len(node.calls) + len(node.opp)
            queue.extend(e.node for e in node.calls)
            queue.extend(o.node for o in node.opp)
        return inline

    def sizes(self, root: Node) -> None:
        """Calls in each node's subtree (without recursion: trees run deep)."""
        order: list[Node] = []
        stack = [root]
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(e.node for e in node.calls)
            stack.extend(o.node for o in node.opp)
        for node in reversed(order):
            self.size[id(node)] = len(node.calls) + len(node.opp) + sum(
                self.size[id(e.node)] for e in node.calls) + sum(
                self.size[id(o.node)] for o in node.opp)

    def write(self, depends: Mapping[str, str | None], system: System) -> bytes:
        base: System | None = system
        while base is not None:
            self.sizes(base.root)
            base = base.base
        self.size[id(system.root)] = SMALL_SUBTREE + 1  # the root always has a blob
        self.blobs[0] = self.dumps((dict(depends), system))
        while self.pending:
            node, index = self.pending.pop()
            self.inline = self.plan(node)
            self.blobs[index] = self.dumps((node.calls, node.opp))
        offsets = [0]
        for blob in self.blobs:
            offsets.append(offsets[-1] + len(blob))
        body = b"".join(self.blobs)
        index_blob = pickle.dumps((hashlib.sha256(body).hexdigest(), tuple(offsets)),
                                  protocol=pickle.HIGHEST_PROTOCOL)
        return len(index_blob).to_bytes(8, "little") + index_blob + body


def load(key: str) -> System | None:
    """The cached System of ``key``, or None (no entry, or one that cannot be trusted)."""
    folder = cache_dir()
    if folder is None:
        return None
    path = _entry_path(folder, key)
    try:
        data = path.read_bytes()
    except OSError:
        stats.misses += 1
        return None
    system = _decode(data, key)
    if system is None:
        stats.ignored += 1
        stats.misses += 1
        return None
    stats.hits += 1
    return system


def _decode(data: bytes, key: str) -> System | None:
    header = MAGIC + key.encode() + b"\n"
    if not data.startswith(header):
        return None
    view = memoryview(data)[len(header):]
    try:
        size = int.from_bytes(view[:8], "little")
        digest, offsets = pickle.loads(view[8:8 + size])
        body = view[8 + size:]
        if not isinstance(offsets, tuple) or offsets[-1] != len(body) or \
                hashlib.sha256(body).hexdigest() != digest:
            return None
        reader = _Reader(body, offsets)
        entry = reader.blob(0)
    except Exception:  # any damage to our own file means: compile again
        return None
    if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], dict)
            and isinstance(entry[1], System)):
        return None
    depends: dict[str, str | None] = entry[0]
    system: System = entry[1]
    if any(_current(file) != digest for file, digest in depends.items()):
        return None
    return system


def store(key: str, depends: Mapping[str, str | None], system: System) -> None:
    """Write the entry atomically; a cache that cannot be written is silently skipped."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        payload = _Writer().write(depends, system)
    except (pickle.PicklingError, RecursionError, TypeError, AttributeError):
        return
    tmp_name = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=".tmp-", suffix=".system", dir=folder)
        with os.fdopen(fd, "wb") as out:
            out.write(MAGIC + key.encode() + b"\n")
            out.write(payload)
        os.replace(tmp_name, _entry_path(folder, key))
        tmp_name = None
        stats.stores += 1
        _prune(folder)
    except OSError:
        return
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def _prune(folder: Path) -> None:
    """Keep the newest MAX_ENTRIES entries; another process may delete the same files."""
    try:
        entries = sorted(folder.glob("*.system"), key=lambda p: p.stat().st_mtime,
                         reverse=True)
    except OSError:
        return
    for old in entries[MAX_ENTRIES:]:
        with contextlib.suppress(OSError):
            old.unlink()


def clear() -> int:
    """Delete every cache entry; the number deleted."""
    folder = cache_dir()
    if folder is None or not folder.is_dir():
        return 0
    count = 0
    for path in folder.glob("*.system"):
        try:
            path.unlink()
            count += 1
        except OSError:
            pass
    return count


__all__ = ["CacheStats", "cache_dir", "cache_key", "clear", "code_fingerprint", "load",
           "stats", "store"]
