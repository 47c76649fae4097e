"""Finding and loading systems: a shipped system by name, or a system file by path."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from os import PathLike
from pathlib import Path

from bidbox.errors import UnknownSystemError as UnknownSystemError
from bidbox.errors import did_you_mean
from bidbox.lang import cache
from bidbox.lang.compiler import compile_text
from bidbox.lang.diagnostics import Diagnostic, Location, SystemFileError, read_system_file
from bidbox.lang.parser import parse_document, split_lines
from bidbox.lang.system import System


def shipped_dir() -> Path:
    return Path(str(resources.files("bidbox") / "systems"))


@dataclass(frozen=True)
class ShippedSystem:
    name: str
    title: str
    source: str
    path: Path
    options: tuple[tuple[str, tuple[str, ...], str], ...]


def shipped_systems(bases: bool = False) -> list[ShippedSystem]:
    """Every system file shipped with bidbox (modules-only files are left out, and natural
    bases, which are walked beside a system rather than played, unless ``bases``)."""
    out = []
    for path in sorted(shipped_dir().glob("*.bbx")):
        doc = parse_document(_header(path.read_text(encoding="utf-8")), str(path))
        if not doc.name or (doc.role == "base" and not bases):
            continue  # a file of shared modules, or a base
        out.append(ShippedSystem(doc.name, doc.title, doc.source, path,
                                 tuple((n, v, d) for n, v, d, _ in doc.options)))
    return out


_HEADER = re.compile(r"(system|title|source|option|role)\b")


def _header(text: str) -> str:
    """Only the header directives of a system file (the other lines blanked, so line
    numbers stay): naming the shipped systems must not read their whole trees."""
    return "\n".join(line if _HEADER.match(line) else "" for line in split_lines(text))


def system_path(name_or_path: str | PathLike[str]) -> Path:
    """The file of a shipped system's name, or the given path if it is a file.

    A folder is never a system: one named like a shipped system (``simulate --out tosr``
    makes one) does not hide that system, and one given by name is said to be a folder
    rather than missing."""
    name_or_path = str(name_or_path)  # a Path is as good as its text
    if not name_or_path.strip():  # Path('') is the current folder
        raise UnknownSystemError("no system named: give a shipped system's name or a .bbx "
                                 "path")
    candidate = Path(name_or_path)
    if candidate.suffix == ".bbx" or candidate.is_file():
        if not candidate.is_file():
            raise UnknownSystemError(_not_a_system_file(name_or_path, candidate))
        return candidate
    shipped = {s.name: s.path for s in shipped_systems(bases=True)}
    if name_or_path in shipped:
        return shipped[name_or_path]
    if candidate.exists():
        raise UnknownSystemError(_not_a_system_file(name_or_path, candidate))
    raise UnknownSystemError(f"unknown system '{name_or_path}'"
                             f"{did_you_mean(name_or_path, shipped)}; shipped: "
                             f"{', '.join(sorted(shipped)) or 'none'} (or give a .bbx path)")


def _not_a_system_file(name: str, path: Path) -> str:
    """Why ``path`` (which is not a regular file) cannot be read as a system: a folder or
    a device is named as such, so the user does not look for a missing file."""
    if path.is_dir():
        return f"'{name}' is a folder, not a system file: give a .bbx file"
    if path.exists():
        return f"'{name}' is not a regular file (a device or a pipe): give a .bbx file"
    return f"no system file '{name}'"


def load_system(name_or_path: str | PathLike[str],
                options: Mapping[str, str | bool] | None = None) -> System:
    """A shipped system or a system file compiled with the given options: from the on-disk
    cache when this text, its includes, the options and the code are unchanged (see
    bidbox.lang.cache), else compiled and cached."""
    path = system_path(name_or_path)
    text = read_system_file(path)
    key = cache.cache_key(str(path), text, options)
    cached = cache.load(key)
    if cached is not None:
        return cached
    depends: dict[str, str | None] = {}
    system = compile_text(text, str(path), options, depends=depends)
    _check_not_empty(system, path)
    cache.store(key, depends, system)
    return system


def _check_not_empty(system: System, path: Path) -> None:
    """A system with no call of ours and no defence is an error: an empty or header-only
    file once loaded, and `check` certified it "level 1"."""
    root = system.root
    if not root.calls and not root.opp:
        raise SystemFileError([Diagnostic(Location(str(path), 1, 1), (
            "the system defines no calls (the file is empty, or only a header or modules): "
            "write the openings at the start of a line, e.g. 1C  hcp 12+ \"opening\""))])


def parse_options(items: list[str] | None) -> dict[str, str | bool]:
    """CLI '--option NAME' / '--option NAME=VALUE' into a mapping."""
    out: dict[str, str | bool] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        out[name.strip()] = value.strip() if sep else True
    return out
