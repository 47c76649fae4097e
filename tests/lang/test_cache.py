"""Compiled systems cached on disk: a second load is a cache hit, a changed include or a
damaged file is a miss (never an error), and two writers at once leave a whole entry."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from bidbox.lang import cache, load_system
from bidbox.lang.system import Node, System

SYSTEM = 'system demo\ninclude "raises.bbx"\n1H hcp 12+, 5+H\n  use raises(H)\n'
RAISES = "module raises(M: suit)\n  2{M} hcp 6-9, 3+{M}\n  3{M} hcp 10-12, 4+{M}\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("BIDBOX_CACHE_DIR", str(where))
    monkeypatch.delenv("BIDBOX_NO_CACHE", raising=False)
    cache.stats.reset()
    return where


@pytest.fixture
def system_file(tmp_path: Path) -> Path:
    (tmp_path / "raises.bbx").write_text(RAISES)
    path = tmp_path / "demo.bbx"
    path.write_text(SYSTEM)
    return path


def calls(node: Node) -> list[str]:
    return [f"{e.call} {e.shows}" for e in node.calls]


def tree(system: System) -> list[str]:
    return [f"{n.label}: {calls(n)}" for n in system.nodes()]


def test_a_second_load_comes_from_the_cache(folder: Path, system_file: Path) -> None:
    first = load_system(str(system_file))
    assert (cache.stats.hits, cache.stats.misses, cache.stats.stores) == (0, 1, 1)
    assert len(list(folder.glob("*.system"))) == 1
    second = load_system(str(system_file))
    assert cache.stats.hits == 1
    assert tree(second) == tree(first)
    assert calls(second.root.calls[0].node) == ["2H hcp 6-9, 3+H", "3H hcp 10-12, 4+H"]


def test_options_make_their_own_entries(folder: Path, tmp_path: Path) -> None:
    path = tmp_path / "o.bbx"
    path.write_text('system o\noption five "x"\n1H hcp 12+, 4+H [unless five]\n'
                    '1H hcp 12+, 5+H [if five]\n')
    assert str(load_system(str(path)).root.calls[0].shows) == "hcp 12+, 4+H"
    assert str(load_system(str(path), {"five": True}).root.calls[0].shows) == "hcp 12+, 5+H"
    assert cache.stats.hits == 0
    assert str(load_system(str(path), {"five": True}).root.calls[0].shows) == "hcp 12+, 5+H"
    assert cache.stats.hits == 1


def test_a_changed_include_or_file_invalidates(folder: Path, system_file: Path) -> None:
    load_system(str(system_file))
    (system_file.parent / "raises.bbx").write_text(RAISES.replace("6-9", "5-9"))
    changed = load_system(str(system_file))
    assert cache.stats.hits == 0 and cache.stats.misses == 2
    assert calls(changed.root.calls[0].node)[0] == "2H hcp 5-9, 3+H"
    system_file.write_text(SYSTEM.replace("hcp 12+", "hcp 11+"))
    assert str(load_system(str(system_file)).root.calls[0].shows) == "hcp 11+, 5+H"
    assert cache.stats.hits == 0
    load_system(str(system_file))
    assert cache.stats.hits == 1


def test_a_changed_base_invalidates(folder: Path, tmp_path: Path) -> None:
    (tmp_path / "s.bbx").write_text('system s\nbase "nb.bbx"\n1NT hcp 15-17\n')
    (tmp_path / "nb.bbx").write_text("1H hcp 12+, 5+H\n")
    first = load_system(str(tmp_path / "s.bbx")).base
    assert first is not None and [str(e.call) for e in first.root.calls] == ["1H"]
    (tmp_path / "nb.bbx").write_text("1S hcp 12+, 5+S\n")
    base = load_system(str(tmp_path / "s.bbx")).base
    assert base is not None and [str(e.call) for e in base.root.calls] == ["1S"]


@pytest.mark.parametrize("damage", ["garbage", "truncate", "flip", "other key", "empty"])
def test_a_damaged_entry_is_ignored_and_replaced(folder: Path, system_file: Path,
                                                 damage: str) -> None:
    good = tree(load_system(str(system_file)))
    (entry,) = folder.glob("*.system")
    data = entry.read_bytes()
    if damage == "garbage":
        entry.write_bytes(b"\x80\x04not a pickle at all")
    elif damage == "truncate":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        entry.write_bytes(data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:])
    elif damage == "other key":
        entry.write_bytes(data.replace(data.split(b"\n")[1], b"0" * 64, 1))
    else:
        entry.write_bytes(b"")
    assert tree(load_system(str(system_file))) == good  # compiled again, no error
    assert cache.stats.hits == 0 and cache.stats.ignored == 1
    assert tree(load_system(str(system_file))) == good
    assert cache.stats.hits == 1  # the damaged file was replaced


def test_no_cache_and_an_unwritable_folder(folder: Path, system_file: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BIDBOX_NO_CACHE", "1")
    load_system(str(system_file))
    load_system(str(system_file))
    assert not folder.exists() and cache.stats.hits == 0
    monkeypatch.delenv("BIDBOX_NO_CACHE")
    blocker = folder.parent / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("BIDBOX_CACHE_DIR", str(blocker / "cache"))
    assert calls(load_system(str(system_file)).root)  # still compiles, nothing stored
    assert cache.stats.stores == 0


def test_a_cached_system_pickles_as_a_plain_one(folder: Path, system_file: Path) -> None:
    import pickle

    load_system(str(system_file))
    cached = load_system(str(system_file))
    assert cache.stats.hits == 1
    again = pickle.loads(pickle.dumps(cached))
    assert type(again.root) is Node and tree(again) == tree(cached)


def _writer(path: str, folder: str, barrier: multiprocessing.synchronize.Barrier) -> None:
    os.environ["BIDBOX_CACHE_DIR"] = folder
    from bidbox.lang import cache as child_cache
    from bidbox.lang.compiler import compile_text

    text = Path(path).read_text()
    depends: dict[str, str | None] = {}
    system = compile_text(text, path, None, depends=depends)
    key = child_cache.cache_key(path, text, None)
    barrier.wait()
    for _ in range(20):
        child_cache.store(key, depends, system)


def test_two_processes_writing_at_once_leave_a_loadable_entry(folder: Path,
                                                              system_file: Path) -> None:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    workers = [context.Process(target=_writer, args=(str(system_file), str(folder), barrier))
               for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    assert len(list(folder.glob("*.system"))) == 1
    assert not list(folder.glob(".tmp-*"))  # no half-written files left behind
    loaded = load_system(str(system_file))
    assert cache.stats.hits == 1
    assert calls(loaded.root.calls[0].node) == ["2H hcp 6-9, 3+H", "3H hcp 10-12, 4+H"]


def test_the_shipped_tosr_round_trips_through_the_cache(folder: Path) -> None:
    compiled = load_system("tosr")
    cached = load_system("tosr")
    assert cache.stats.hits == 1
    assert tree(cached) == tree(compiled)
    # Deep entries are read on demand, and carry their meaning and place intact.
    deep = [e for n in cached.nodes() for e in n.calls if len(e.auction) > 12]
    assert deep and all(e.location.file.endswith("tosr.bbx") for e in deep)


def test_clear_deletes_the_entries(folder: Path, system_file: Path) -> None:
    load_system(str(system_file))
    assert cache.clear() == 1
    assert not list(folder.glob("*.system"))
    load_system(str(system_file))
    assert cache.stats.hits == 0 and cache.stats.stores == 2


def test_a_path_loads_like_its_text_and_a_missing_one_is_named(folder: Path,
                                                                system_file: Path) -> None:
    assert tree(load_system(system_file)) == tree(load_system(str(system_file)))
    from bidbox.errors import BidboxError
    with pytest.raises(BidboxError, match="no-such-system"):
        load_system(system_file.parent / "no-such-system")
