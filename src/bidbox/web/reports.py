"""The simulation lab's results folders, read for the web app's report pages.

``bidbox simulate --out DIR`` leaves in DIR the results store (``sim.sqlite``), the report
of the match (``report.json``, or ``report-KEY.json`` for a second match into the same
folder) and its plots (``imps.png``, ``openings.png``, ``opening_hcp.png``, ``hcp.png``,
named in the report's ``files``). The server is given one results root; the reports it
lists are those in the root itself and in its sub-folders up to :data:`DEPTH` levels down.

A report is named by its path under the root without ``.json`` (``run1/report``,
``run1/report-3f2a9c1d``, or ``report`` for one in the root), so a name is all a URL
needs. Every name is resolved and checked to stay inside the root: a name with ``..``
or a link pointing out of the root is refused, so the pages cannot read other files.
"""

from __future__ import annotations

import json
import re
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bidbox.errors import NotAResultsFolderError as NotAResultsFolderError
from bidbox.errors import ReportNotFoundError as ReportNotFoundError
from bidbox.sim.runner import REPORT_NAME
from bidbox.sim.store import STORE_NAME, ResultStore, StoreError

PLOTS = ("imps", "openings", "opening_hcp", "hcp")
"""The lab's figures (:mod:`bidbox.sim.plots`), by the stem of the file it writes."""
DEPTH = 2
"""How far below the results root report folders are looked for (``root/set/run``)."""
PLOT_SUFFIXES = (".png", ".svg")
REQUIRED_KEYS = ("boards", "imps_per_board", "ci95", "opening_frequencies", "systems")
_REPORT_FILE = re.compile(r"report(-[0-9a-f]{1,64})?\.json")


@dataclass(frozen=True)
class ReportEntry:
    """One report found under the root: its name, folder and the file's modification time."""

    name: str
    folder: Path
    path: Path
    modified: float


def is_results_folder(folder: Path) -> bool:
    """Whether ``folder`` is what ``simulate --out`` writes: a store or a report in it."""
    return (folder / STORE_NAME).is_file() or any(_report_files(folder))


def _report_files(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir()
                      if p.is_file() and _REPORT_FILE.fullmatch(p.name))
    except OSError:
        return []


def list_reports(root: Path) -> list[ReportEntry]:
    """Every report under ``root`` (the root and DEPTH levels of sub-folders), newest first."""
    root = root.resolve()
    found: list[ReportEntry] = []
    level = [root]
    for _ in range(DEPTH + 1):
        below: list[Path] = []
        for folder in level:
            if folder != root and root not in folder.resolve().parents:
                continue  # a link out of the root: its reports could not be opened
            for path in _report_files(folder):
                found.append(_entry(root, path))
            try:
                below.extend(sorted(p for p in folder.iterdir()
                                    if p.is_dir() and not p.name.startswith(".")))
            except OSError:
                continue
        level = below
    return sorted(found, key=lambda e: (-e.modified, e.name))


def _entry(root: Path, path: Path) -> ReportEntry:
    name = path.relative_to(root).with_suffix("").as_posix()
    return ReportEntry(name, path.parent, path, path.stat().st_mtime)


def shown(name: str, width: int = 80) -> str:
    """A name as an error message quotes it: cut short, so a huge URL is not echoed."""
    return name if len(name) <= width else name[:width] + "..."


def _inside(root: Path, relative: str) -> Path:
    """``root/relative`` resolved, refused when it leaves the root or cannot be a path."""
    if not relative or relative.startswith("/") or "\\" in relative or "\0" in relative:
        raise NotAResultsFolderError(f"'{shown(relative)}': give a report's name as listed "
                                     "under /api/reports")
    if len(relative) > 1024 or any(len(part) > 255 for part in relative.split("/")):
        raise NotAResultsFolderError(f"'{shown(relative)}' is too long to be a report's name")
    root = root.resolve()
    try:
        target = (root / relative).resolve()
    except (OSError, RuntimeError) as err:  # a loop of links
        raise NotAResultsFolderError(f"'{shown(relative)}': {err}") from None
    if target != root and root not in target.parents:
        raise NotAResultsFolderError(f"'{shown(relative)}' is outside the results folder")
    return target


def find_report(root: Path, name: str) -> ReportEntry:
    """The report called ``name``; a results folder's name stands for its ``report.json``.

    Unknown names are :class:`ReportNotFoundError`; a folder or file that is not the
    lab's is :class:`NotAResultsFolderError`, with the reason.
    """
    target = _inside(root, name)
    if target.is_dir():
        if not is_results_folder(target):
            raise NotAResultsFolderError(
                f"'{shown(name)}' is a folder but not a simulation results folder (no "
                f"{REPORT_NAME} or {STORE_NAME} in it: `bidbox simulate --out DIR` makes one)")
        files = _report_files(target)
        if not files:
            raise ReportNotFoundError(f"'{shown(name)}' holds a results store but no report yet "
                                      "(the run has not finished)")
        main = target / REPORT_NAME
        return _entry(root.resolve(), main if main in files else files[0])
    path = target.with_name(target.name + ".json")
    if not path.is_file():
        if target.exists():
            raise NotAResultsFolderError(f"'{shown(name)}' is not a simulation report")
        raise ReportNotFoundError(f"no report '{shown(name)}' in the results folder")
    if not _REPORT_FILE.fullmatch(path.name):
        raise NotAResultsFolderError(f"'{shown(name)}' is not a simulation report (reports are "
                                     "report.json or report-KEY.json)")
    return _entry(root.resolve(), path)


def load_report(entry: ReportEntry) -> dict[str, Any]:
    """The report's JSON with the page's additions under ``"web"``: its name and the plots
    that belong to it.

    Plots are written just before their report; a second match into the same folder
    overwrites them, so a plot newer than this report belongs to another match and is
    left out (its name goes to ``stale_plots``).
    """
    try:
        data = json.loads(entry.path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise NotAResultsFolderError(f"'{entry.name}' cannot be read as a report: {err}"
                                     ) from None
    if not isinstance(data, dict):
        raise NotAResultsFolderError(f"'{entry.name}' is not a simulation report "
                                     "(not a JSON object)")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise NotAResultsFolderError(f"'{entry.name}' is not a simulation report (it lacks "
                                     f"{', '.join(missing)})")
    plots: list[str] = []
    stale: list[str] = []
    for file in data.get("files") or []:
        path = entry.folder / str(file)
        if path.suffix not in PLOT_SUFFIXES or not path.is_file():
            continue
        (plots if path.stat().st_mtime <= entry.modified + 1 else stale).append(path.name)
    folder = entry.name.rpartition("/")[0]
    urls = [f"/sim/plots/{folder + '/' if folder else ''}{p}" for p in plots]
    rendered = False
    if not plots and data.get("match") and (entry.folder / STORE_NAME).is_file():
        # No plots of its own (--no-plots, or overwritten by a later match): the store
        # still holds its boards, so the lab's plots module can draw them on request.
        plots, rendered = [f"{p}.png" for p in PLOTS], True
        urls = [f"/sim/render/{entry.name}/{p}.png" for p in PLOTS]
    data["web"] = {"name": entry.name, "folder": folder, "plots": plots,
                   "stale_plots": stale, "rendered": rendered, "plot_urls": urls}
    return data


_render_lock = threading.Lock()  # matplotlib's pyplot is not thread-safe
_rendered: OrderedDict[tuple[str, float, str], bytes] = OrderedDict()
_RENDER_CACHE = 32


def render_plot(entry: ReportEntry, data: dict[str, Any], file: str) -> bytes:
    """One of the lab's plots of this report, drawn from the boards in its store.

    The boards are those the report was built from (its match key and deal source, deal
    index below the boards requested); if the store no longer holds exactly them the
    plot is refused rather than drawn from other boards. Drawings are kept in memory
    (a few, keyed by the report file's modification time).
    """
    from bidbox.sim import plots as lab_plots
    from bidbox.sim.report import MatchReport

    stem = file.removesuffix(".png")
    if not file.endswith(".png") or stem not in PLOTS:
        raise ReportNotFoundError(f"no plot '{shown(file)}': the plots are "
                                  f"{', '.join(p + '.png' for p in PLOTS)}")
    key = (str(entry.path), entry.modified, stem)
    with _render_lock:
        if key in _rendered:
            _rendered.move_to_end(key)
            return _rendered[key]
        match, _, source = str(data.get("match", "")).partition(":")
        count = int(data.get("boards_requested") or data["boards"])
        try:
            with ResultStore(entry.folder) as store:
                results = store.load(match, source, count)
        except (StoreError, OSError, ValueError, KeyError) as err:
            raise NotAResultsFolderError(f"'{entry.name}': its store cannot be read: {err}"
                                         ) from None
        if len(results) != data["boards"]:
            raise NotAResultsFolderError(
                f"'{entry.name}': its store holds {len(results)} of the report's "
                f"{data['boards']} boards, so its plots cannot be drawn again")
        public = ("boards", "imps_per_board", "ci95", "aggressiveness",
                  "opening_frequencies", "fallback_rate", "seconds", "dds_seconds")
        try:
            report = MatchReport(
                boards=int(data["boards"]), imps_per_board=float(data["imps_per_board"]),
                ci95=(float(data["ci95"][0]), float(data["ci95"][1])),
                aggressiveness=data["aggressiveness"],
                opening_frequencies=data["opening_frequencies"],
                fallback_rate=data["fallback_rate"], seconds=float(data["seconds"]),
                dds_seconds=float(data["dds_seconds"]),
                extra={k: v for k, v in data.items() if k not in public and k != "web"})
            with tempfile.TemporaryDirectory() as scratch:
                path = Path(scratch) / file
                if stem == "imps":
                    lab_plots.plot_imps(results, report, path)
                elif stem == "openings":
                    lab_plots.plot_openings(report, path)
                elif stem == "opening_hcp":
                    lab_plots.plot_opening_hcp(results, report, path)
                else:
                    lab_plots.plot_hcp(results, report, path)
                image = path.read_bytes()
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise NotAResultsFolderError(f"'{entry.name}' lacks what the plot needs: {err}"
                                         ) from None
        _rendered[key] = image
        if len(_rendered) > _RENDER_CACHE:
            _rendered.popitem(last=False)
        return image


def plot_file(root: Path, folder: str, file: str) -> Path:
    """A plot of a results folder (``folder`` empty for the root itself)."""
    if (Path(file).suffix not in PLOT_SUFFIXES or "/" in file or file.startswith(".")
            or len(file) > 255):
        raise NotAResultsFolderError(f"'{shown(file)}' is not a plot (PNG or SVG)")
    where = _inside(root, folder) if folder else root.resolve()
    if not where.is_dir() or not is_results_folder(where):
        raise NotAResultsFolderError(f"'{shown(folder)}' is not a simulation results folder")
    path = where / file
    if not path.is_file():
        raise ReportNotFoundError(f"no plot '{shown(file)}' in '{shown(folder) or '.'}'")
    return path


def summary(entry: ReportEntry) -> dict[str, Any]:
    """One line of the list: the name and the headline figures (or why it cannot be read)."""
    out: dict[str, Any] = {"name": entry.name, "modified": entry.modified}
    try:
        data = load_report(entry)
    except NotAResultsFolderError as err:
        return {**out, "error": str(err)}
    out.update({k: data.get(k) for k in ("boards", "imps_per_board", "ci95", "systems",
                                          "mode", "source")})
    return out


__all__ = ["DEPTH", "NotAResultsFolderError", "ReportEntry", "ReportNotFoundError",
           "find_report", "is_results_folder", "list_reports", "load_report", "plot_file",
           "render_plot", "summary"]
