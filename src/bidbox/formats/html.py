"""HTML system notes and convention cards (Jinja2 templates), and PDF through Chromium.

The notes show the whole tree: each call with its meaning, forcing status, the
regulation's alert decision with its rule, and the line of the system file it comes
from; the options chosen and the errata file beside the system. The page is browsable
(collapsible calls, a search box, links to each call's continuations) and printable.

The cards follow the layouts of the EBU 20B and the WBF convention card; every field is
filled from the meanings (ranges and lengths measured exactly on the hand profiles),
and a field the system cannot fill says so instead of staying blank.
"""

from __future__ import annotations

import html as html_escape
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bidbox.core.calls import Call, Strain
from bidbox.errors import PublishError as PublishError
from bidbox.formats.tree import PublishedCall, PublishedTree, Token, call_order
from bidbox.rules.card import convention_card, opening_hcp

SUITS = {"C": ("♣", "club"), "D": ("♦", "diamond"), "H": ("♥", "heart"), "S": ("♠", "spade")}
NOT_FILLED = "not in the system file"


def _environment() -> Any:
    import jinja2

    env = jinja2.Environment(loader=jinja2.PackageLoader("bidbox.formats", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["suits"] = suit_html
    return env


def suit_html(text: str) -> Any:
    """Escape ``text`` and write calls in it (``2C``, ``1NT``, ``!S``) with coloured suit
    symbols."""
    from markupsafe import Markup

    escaped = html_escape.escape(text, quote=False)

    def symbol(letter: str) -> str:
        glyph, name = SUITS[letter]
        return f'<span class="suit {name}">{glyph}</span>'

    out = re.sub(r"\b([1-7])(NT|N|C|D|H|S)\b(?![-+])",
                 lambda m: m.group(1) + (symbol(m.group(2)) if m.group(2) in SUITS else "NT"),
                 escaped)
    out = re.sub(r"!([CDHS])", lambda m: symbol(m.group(1)), out)
    return Markup(out)


def call_label(call: Call) -> str:
    text = str(call)
    return {"P": "Pass", "X": "Dbl", "XX": "Rdbl"}.get(text, text)


# --- the notes -------------------------------------------------------------------------
@dataclass
class NoteRow:
    """One line of the printed tree: a call of ours, or a call of theirs that heads the
    calls made over it."""

    id: str
    ours: bool
    label: str
    meaning: str = ""
    forcing: str = ""
    alert: bool = False
    alert_rule: str = ""
    alert_reason: str = ""
    source: str = ""
    auction: str = ""
    children: list[NoteRow] = field(default_factory=list)
    expanded: bool = False  # shown open on loading

    @property
    def search_text(self) -> str:
        return f"{self.auction} {self.meaning}".lower()


def _rows(calls: list[PublishedCall], counter: list[int]) -> list[NoteRow]:
    """Calls in print order, grouped under the opponents' call that precedes them (their
    pass is left unwritten)."""
    groups: dict[Token | None, list[PublishedCall]] = {}
    for published in calls:
        last = published.path[-1] if published.path else None
        key = last if last is not None and not last.ours and not last.implicit else None
        groups.setdefault(key, []).append(published)
    out: list[NoteRow] = []
    for token, members in sorted(groups.items(), key=lambda kv: _token_order(kv[0])):
        rows = [_row(m, counter) for m in sorted(members, key=lambda m: call_order(m.call))]
        if token is None:
            out.extend(rows)
            continue
        counter[0] += 1
        label = call_label(token.call) if token.call is not None else f"any {token.pattern}"
        if token.pattern == "any":
            label = "any call"
        out.append(NoteRow(f"n{counter[0]}", False, f"({label})", "their call",
                           children=rows, auction=members[0].auction_text))
    return out


def _token_order(token: Token | None) -> tuple[int, int]:
    if token is None:
        return (0, 0)
    if token.call is None:
        return (2, 0)
    return (1, call_order(token.call))


def _row(published: PublishedCall, counter: list[int]) -> NoteRow:
    counter[0] += 1
    decision = published.decision
    forcing = published.entry.forcing
    location = published.entry.location
    return NoteRow(
        id=f"n{counter[0]}", ours=True, label=call_label(published.call),
        meaning=" ".join(published.text.split()),
        forcing=str(forcing) if forcing is not None else "",
        alert=decision.alert, alert_rule=f"{decision.rule} ({decision.section})",
        alert_reason=decision.reason, source=f"{Path(location.file).name}:{location.line}",
        auction=published.auction_text,
        children=_rows(published.children, counter))


@dataclass
class NotesTable:
    id: str
    title: str
    rows: list[NoteRow]


def errata_html(system_file: str) -> Any:
    """The errata file beside a system file, rendered from its plain markdown (headings,
    numbered and bulleted items, emphasis, code), or None when there is none."""
    from markupsafe import Markup

    path = Path(system_file)
    errata = path.with_name(path.name.removesuffix(".bbx") + ".errata.md")
    if not errata.exists():
        return None
    out: list[str] = []
    paragraph: list[str] = []
    in_list = False

    def inline(text: str) -> str:
        text = html_escape.escape(text, quote=False)
        text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
        text = re.sub(r"(?<!\*)\*(?!\s)(.+?)\*", r"<em>\1</em>", text)
        return re.sub(r"`([^`]+)`", r"<code>\1</code>", text)

    def flush() -> None:
        nonlocal in_list
        if paragraph:
            if in_list:
                out.append(f"<li>{inline(' '.join(paragraph))}</li>")
            else:
                out.append(f"<p>{inline(' '.join(paragraph))}</p>")
            paragraph.clear()

    for line in errata.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^(#{1,4})\s+(.*)", line)
        item = re.match(r"^\s*(?:\d+\.|[-*])\s+(.*)", line)
        if heading:
            flush()
            if in_list:
                out.append("</ol>")
                in_list = False
            level = min(len(heading.group(1)) + 2, 6)
            out.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif item:
            flush()
            if not in_list:
                out.append("<ol>")
                in_list = True
            paragraph.append(item.group(1))
        elif not line.strip():
            flush()
            if in_list:
                out.append("</ol>")
                in_list = False
        else:
            paragraph.append(line.strip())
    flush()
    if in_list:
        out.append("</ol>")
    return Markup("\n".join(out))


def _tables(tree: PublishedTree) -> list[NotesTable]:
    counter = [0]
    ours = [r for r in tree.roots if not r.path]
    theirs = [r for r in tree.roots if r.path]
    tables = [NotesTable("openings", "Our openings", _rows(ours, counter))]
    if theirs:
        tables.append(NotesTable("defence", "When they open", _rows(theirs, counter)))
    return tables


def _expand(rows: list[NoteRow], prefix: str) -> None:
    for row in rows:
        if row.auction == prefix or row.auction.startswith(prefix + " ") or \
                prefix.startswith(row.auction + " "):
            row.expanded = True
        _expand(row.children, prefix)


def notes_html(tree: PublishedTree, printable: bool = False, expand: str | None = None,
               pages: Mapping[str, int] | None = None) -> str:
    """The HTML notes of the whole tree: every call open when ``printable``, else the
    calls on the way to and below the auction ``expand`` ("1NT P 2C"). ``pages`` gives
    the printed page of each contents entry (by its anchor); a printable page keeps the
    room for the numbers without it, so adding them moves nothing."""
    system = tree.system
    options = [{"name": name, "value": system.selected.get(name), "description": decl.description}
               for name, decl in system.options.items()]
    tables = _tables(tree)
    if expand:
        for table in tables:
            _expand(table.rows, " ".join(expand.split()))
    count = sum(1 for _ in tree.calls())
    alerted = sum(1 for c in tree.calls() if c.alert)
    return str(_environment().get_template("notes.html.j2").render(
        system=system, regulation=tree.regulation.name.upper(), options=options,
        tables=tables, errata=errata_html(system.file), printable=printable,
        count=count, alerted=alerted, pages=pages or {},
        card_notes={k: system.notes.get(k, "") for k in ("leads", "signals", "discards")}))


# --- convention cards ------------------------------------------------------------------
@dataclass
class OpeningLine:
    call: str
    meaning: str
    hcp: str
    min_length: str
    artificial: bool
    alert: str
    forcing: str
    responses: list[str]
    contexts: str


def _contexts_text(published: PublishedCall) -> str:
    if published.everywhere:
        return ""
    seats = sorted({s for s, _, _ in published.contexts})
    vuls = {v for _, v, _ in published.contexts}
    parts = []
    if len(seats) < 4:
        parts.append("seat " + ",".join(str(s) for s in seats))
    if len(vuls) == 1:
        parts.append("vulnerable" if True in vuls else "not vulnerable")
    return "; ".join(parts) or "some contexts"


def _opening(published: PublishedCall, responses: int = 8) -> OpeningLine:
    st = published.shape
    call = published.call
    if call.is_bid and call.strain is not None and call.strain.is_suit:
        lo, _ = published.length_range(call.strain)
        min_length = str(lo)
    elif call.strain is Strain.NT:
        min_length = "balanced" if "balanced" in published.text else "-"
    else:
        min_length = "-"
    forcing = published.entry.forcing
    kids = sorted((c for c in published.children if c.path[-1].implicit),
                  key=lambda c: call_order(c.call))
    return OpeningLine(
        call=call_label(call), meaning=" ".join(published.text.split()),
        hcp=(opening_hcp(published.system, published.entry) or "-") if st.possible else "-",
        min_length=min_length,
        artificial=published.is_artificial,
        alert=f"{published.decision.rule}" if published.alert else "",
        forcing=str(forcing) if forcing is not None else "",
        responses=[f"{call_label(k.call)}: {' '.join(k.text.split())}" for k in kids[:responses]],
        contexts=_contexts_text(published))


def card_data(tree: PublishedTree) -> dict[str, Any]:
    """Every field of the cards, from the meanings; the keys the card templates read."""
    system = tree.system
    card = convention_card(system, tree.regulation)
    ours = sorted((r for r in tree.roots if not r.path), key=lambda r: call_order(r.call))
    openings = [_opening(r) for r in ours if r.call.is_bid]
    one_nt = [o for o, r in zip(openings, [r for r in ours if r.call.is_bid], strict=True)
              if str(r.call) == "1NT"]
    two_level = [o for o, r in zip(openings, [r for r in ours if r.call.is_bid], strict=True)
                 if r.call.level == 2 and str(r.call) != "2NT"]
    others = [o for o in openings if o not in one_nt and o not in two_level]
    defence: list[dict[str, str]] = []
    for root in sorted((r for r in tree.roots if r.path), key=lambda r: (
            call_order(r.path[0].call) if r.path[0].call else 99, call_order(r.call))):
        theirs = root.path[0]
        defence.append({"after": f"({call_label(theirs.call)})" if theirs.call else "(any)",
                        "call": call_label(root.call), "meaning": " ".join(root.text.split()),
                        "alert": root.decision.rule if root.alert else ""})
    slam: dict[str, str] = {}
    competitive: list[dict[str, str]] = []
    for published in tree.calls():
        tags = set(published.entry.tags)
        for tag in ("blackwood", "gerber", "keycard", "control", "cue", "quantitative"):
            if tag in tags and tag not in slam:
                slam[tag] = f"{published.auction_text}: {' '.join(published.text.split())}"
        interfered = any(not t.ours and not t.implicit for t in published.path)
        if interfered and published.path[0].ours and published.alert and \
                len(competitive) < 40:
            competitive.append({"auction": published.auction_text,
                                "meaning": " ".join(published.text.split()),
                                "rule": published.decision.rule})
    special = [o for o in openings if o.artificial or o.alert]
    return {
        "system": system, "title": system.title, "name": system.name,
        "regulation": tree.regulation.name.upper(),
        "options": {k: v for k, v in system.selected.items() if v},
        "basic": card["basic"], "unusual": card["unusual"], "alertable": card["alertable"],
        "openings": openings, "one_nt": one_nt, "two_level": two_level, "others": others,
        "defence": defence, "slam": slam, "competitive": competitive, "special": special,
        "leads": system.notes.get("leads", "") or NOT_FILLED,
        "signals": system.notes.get("signals", "") or NOT_FILLED,
        "discards": system.notes.get("discards", "") or NOT_FILLED,
        "not_filled": NOT_FILLED,
    }


CARD_LAYOUTS = {"ebu": "card-ebu.html.j2", "wbf": "card-wbf.html.j2"}


def card_html(tree: PublishedTree, layout: str) -> str:
    """A convention card in the EBU 20B ("ebu") or WBF ("wbf") layout."""
    if layout not in CARD_LAYOUTS:
        raise PublishError(f"unknown card layout '{layout}': use ebu or wbf")
    return str(_environment().get_template(CARD_LAYOUTS[layout]).render(**card_data(tree)))


# --- PDF and screenshots ---------------------------------------------------------------
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")


def find_browser() -> str | None:
    """Headless Chromium on this machine, if any."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def _run_browser(args: list[str], page: str, timeout: float = 300) -> None:
    browser = find_browser()
    if browser is None:
        raise PublishError("PDF and screenshots need headless Chromium: install the "
                           "'chromium' package")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "page.html"
        source.write_text(page, encoding="utf-8")
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu",
                   "--no-first-run", f"--user-data-dir={tmp}/profile", *args,
                   source.as_uri()]
        try:
            done = subprocess.run(command, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise PublishError(f"Chromium did not finish within {timeout:.0f} s") from None
        if done.returncode != 0:
            raise PublishError("Chromium failed: "
                               + done.stderr.decode("utf-8", "replace").strip()[-300:])


def html_to_pdf(page: str) -> bytes:
    """The page printed to PDF by headless Chromium (A4, its headings as the outline)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.pdf"
        _run_browser([f"--print-to-pdf={out}", "--no-pdf-header-footer",
                      "--generate-pdf-document-outline"], page)
        if not out.exists():
            raise PublishError("Chromium wrote no PDF")
        return out.read_bytes()


_DEST = re.compile(r'^\s*(\d+)\s+\[.*\]\s+"(.*)"\s*$')


def pdf_destinations(pdf: bytes) -> dict[str, int] | None:
    """The page of each named destination of a PDF (Chromium names one for every
    anchor a link points to), read by poppler's ``pdfinfo -dests``; None without it."""
    tool = shutil.which("pdfinfo")
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "in.pdf"
        path.write_bytes(pdf)
        done = subprocess.run([tool, "-dests", str(path)], capture_output=True, timeout=300,
                              check=False)
    if done.returncode != 0:
        return None
    out: dict[str, int] = {}
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        m = _DEST.match(line)
        if m:
            out[m.group(2)] = int(m.group(1))
    return out


def notes_pdf(tree: PublishedTree, passes: int = 3) -> bytes:
    """The notes printed to PDF with page numbers in the contents. Chromium does not
    implement CSS ``target-counter()``, so the page is printed, the page of every
    contents target read back from the PDF's named destinations, and printed again with
    the numbers in the room the first print kept for them; a print that moved a target
    is repeated (at most ``passes`` prints). Without poppler's ``pdfinfo`` the contents
    have no numbers."""
    pdf = html_to_pdf(notes_html(tree, printable=True))
    pages = pdf_destinations(pdf)
    if pages is None:
        return pdf
    for _ in range(passes - 1):
        pdf = html_to_pdf(notes_html(tree, printable=True, pages=pages))
        again = pdf_destinations(pdf) or {}
        if again == pages:
            break
        pages = again
    return pdf


def screenshot(page: str, path: Path, width: int = 1200, height: int = 900) -> None:
    """A PNG of the page as headless Chromium shows it."""
    _run_browser([f"--screenshot={path}", f"--window-size={width},{height}",
                  "--hide-scrollbars"], page)
    if not path.exists():
        raise PublishError(f"Chromium wrote no screenshot to '{path}'")


def rendered_dom(page: str) -> str:
    """The page's DOM after its scripts ran, as headless Chromium serialises it."""
    browser = find_browser()
    if browser is None:
        raise PublishError("rendering needs headless Chromium: install 'chromium'")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "page.html"
        source.write_text(page, encoding="utf-8")
        done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                               f"--user-data-dir={tmp}/profile", "--dump-dom",
                               source.as_uri()], capture_output=True, timeout=300, check=False)
        if done.returncode != 0:
            raise PublishError("Chromium failed: "
                               + done.stderr.decode("utf-8", "replace").strip()[-300:])
        return done.stdout.decode("utf-8", "replace")


__all__ = ["NOT_FILLED", "PublishError", "card_data", "card_html", "errata_html",
           "find_browser", "html_to_pdf", "notes_html", "notes_pdf", "pdf_destinations",
           "rendered_dom", "screenshot", "suit_html"]
