"""`bidbox publish`: the system written for the tools players use elsewhere (issue 14).

Each format is a module of :mod:`bidbox.formats`; this module only parses the command
line, reads the tree once and writes the file. A path that cannot be written is a one-line
error, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bidbox.api import get_regulation, load_system
from bidbox.cli.validate import nonempty
from bidbox.errors import BidboxError, SystemFileError, shown
from bidbox.files import describe_error, write_file
from bidbox.lang import parse_options

if TYPE_CHECKING:
    from bidbox.sim.deals import Boards
    from bidbox.sim.match import BoardResult, MatchSpec

FORMATS = ("html", "pdf", "bboalert", "bml", "bss", "card-ebu", "card-wbf")
BINARY = {"pdf"}
PRINTABLE = {"html", "pdf", "card-ebu", "card-wbf"}
EXTENSIONS = {"bboalert": ".txt", "bml": ".bml", "bss": ".bss"}


def render(system_name: str, fmt: str, options: list[str] | None = None,
           regulation: str = "sbu", depth: int | None = None, pdf: bool = False
           ) -> str | bytes:
    """The file of one format for a system, as text (bytes for PDF). ``pdf`` prints the
    HTML formats (notes, cards) to PDF."""
    from bidbox.formats.tree import read_tree

    system = load_system(system_name, parse_options(options)).compiled
    reg = get_regulation(regulation)
    tree = read_tree(system, reg, depth)
    if fmt == "bboalert":
        from bidbox.formats.bboalert import write_bboalert

        return write_bboalert(tree)
    if fmt == "bml":
        from bidbox.formats.bml import write_bml

        return write_bml(tree)
    if fmt == "bss":
        from bidbox.formats.bss import write_bss

        return write_bss(tree)
    if fmt in ("html", "pdf", "card-ebu", "card-wbf"):
        from bidbox.formats import html

        if fmt in ("html", "pdf") and (pdf or fmt == "pdf"):
            return html.notes_pdf(tree)  # printed twice: the contents get page numbers
        page = (html.notes_html(tree) if fmt in ("html", "pdf")
                else html.card_html(tree, fmt.removeprefix("card-")))
        return html.html_to_pdf(page) if pdf else page
    raise BidboxError(f"unknown format '{fmt}': use one of {', '.join(FORMATS)}")


def cmd_publish(args: argparse.Namespace) -> int:
    if args.depth is not None and args.depth < 1:
        raise BidboxError(f"--depth {args.depth}: give 1 or more rounds of our calls")
    out = args.output
    if args.format in BINARY and out in (None, "-"):
        raise BidboxError(f"--format {args.format} writes a binary file: name it with -o PATH")
    # A card (or the notes) written to a .pdf path is printed to PDF.
    pdf = bool(out) and str(out).lower().endswith(".pdf") and args.format in PRINTABLE
    if out and str(out).lower().endswith(".pdf") and args.format not in PRINTABLE:
        raise BidboxError(f"--format {args.format} is text, not PDF: give -o a "
                          f"{EXTENSIONS[args.format]} path")
    content = render(args.system, args.format, args.option, args.regulation, args.depth, pdf)
    if out in (None, "-"):
        assert isinstance(content, str)
        sys.stdout.write(content)
        return 0
    path = Path(out)
    try:
        write_file(path, content)  # whole or not at all
    except OSError as err:
        raise BidboxError(f"cannot write '{path}': {describe_error(err)} (nothing written "
                          "there)") from None
    print(f"wrote {path} ({args.format}, {len(content):,} "
          f"{'bytes' if isinstance(content, bytes) else 'characters'})")
    return 0


def draft_from(path: Path) -> tuple[str, list[str], list[str]]:
    """(draft system text, calls whose meaning was not inferred, input left out) of a BML
    or BBOalert file; the kind is read from the file (a BBOalert file starts with its
    header), not guessed from the name alone."""
    from bidbox.formats.bboalert import bboalert_draft
    from bidbox.formats.bml import read_bml_draft
    from bidbox.formats.draft import write_draft

    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        text = path.read_text(encoding="latin-1")
    except OSError as err:
        raise BidboxError(f"cannot read '{path}': {err.strerror or err}") from None
    if text.lstrip().startswith("BBOalert"):
        draft = bboalert_draft(text, str(path))
    elif path.suffix.lower() != ".txt":  # BML, whatever its name
        draft = read_bml_draft(text, str(path))
    else:
        raise BidboxError(f"'{path}': a BBOalert file begins with the line 'BBOalert'; "
                          "name a BML file .bml")
    if not draft.roots:
        raise BidboxError(f"'{path}': no calls found (a BML bidding table or BBOalert "
                          "records)")
    system, unknown = write_draft(draft)
    return system, unknown, draft.skipped


def cmd_import(args: argparse.Namespace) -> int:
    from bidbox.lang.compiler import compile_text

    source = Path(args.file)
    system, unknown, skipped = draft_from(source)
    out = Path(args.output)
    try:
        write_file(out, system)  # whole or not at all
    except OSError as err:
        raise BidboxError(f"cannot write '{out}': {describe_error(err)} (nothing written "
                          "there)") from None
    calls = sum(1 for line in system.splitlines()
                if line.strip() and not line.lstrip().startswith(("#", "(", "system",
                                                                  "title", "source")))
    print(f"wrote {out}: {calls} calls, {calls - len(unknown)} with a meaning inferred "
          f"from the text, {len(unknown)} marked '# draft:'")
    for line in unknown[: args.show]:
        print(f"  not inferred: {shown(line, 400)}")  # the notes' bytes, escaped
    if len(unknown) > args.show:
        print(f"  ... and {len(unknown) - args.show} more (all marked in the file)")
    for line in skipped[: args.show]:
        print(f"  left out: {shown(line, 400)}")
    try:
        compile_text(system, str(out))
    except BidboxError as err:
        first = str(err).splitlines()[0]
        if isinstance(err, SystemFileError) and err.diagnostics:
            # the summary line alone ("1 problem in system file:") named no place
            first += " " + str(err.diagnostics[0]).splitlines()[0]
        print(f"the draft does not compile yet: {first}")
        return 1
    return 0


# --- boards out: `bidbox deal --system` and `bidbox simulate --pbn` -------------------------
def write_dealt_boards(boards: Boards, ns_name: str, ew_name: str | None, path: Path,
                       regulation: str = "sbu") -> int:
    """Dealt boards bid by a system (``ew_name`` for East-West, default the same), written
    as PBN or LIN (by the extension) with each alerted call's note; the number written."""
    from bidbox.formats.pbn import bid_boards, write_boards

    ns = load_system(ns_name).compiled
    ew = load_system(ew_name).compiled if ew_name else ns
    out = bid_boards(dealt_records(boards), ns, ew, get_regulation(regulation),
                     keep_original=False)
    write_boards(out, path)
    return len(out)


def dealt_records(boards: Boards) -> list[Any]:
    """Dealt boards as endplay Boards (number, dealer, vulnerability, deal), for the
    writers of :mod:`bidbox.formats.pbn`."""
    from endplay.types import Board, Deal, Player

    from bidbox.sim.deals import to_endplay_vul

    return [Board(Deal(boards.pbn(row)), board_num=int(boards.numbers[row]),
                  vul=to_endplay_vul(boards.vul(row)), dealer=Player(int(boards.dealer(row))))
            for row in range(len(boards))]


def write_match_boards(results: Sequence[BoardResult], spec: MatchSpec, path: Path,
                       regulation: str = "sbu") -> int:
    """Both tables of every board of a match as PBN or LIN (by the extension): the
    auction each table bid, every alerted call with its note from the caller's system,
    the contract and its double-dummy tricks as the result; table 1 (A North-South) is
    the Open room, table 2 the Closed room. Returns the number of tables written."""
    from bidbox.core.auction import Auction
    from bidbox.core.seats import Seat, Vulnerability
    from bidbox.formats.alerting import AlertReader
    from bidbox.formats.pbn import annotated_board, write_boards

    reg = get_regulation(regulation)
    tables = spec.table_systems()
    readers = [AlertReader(systems, reg) for systems in tables]
    names = {"a": spec.a.label, "b": spec.b.label}
    event = f"bidbox simulate: A {names['a']} v B {names['b']}"
    records = []
    for result in results:
        dealer, vul = Seat.parse(result.dealer), Vulnerability.parse(result.vul)
        for k, table in enumerate(result.tables):
            auction = Auction.parse(table.auction, dealer, vul)
            ns, ew = names[table.ns], ("silent" if spec.uncontested else names[table.ew])
            info = {"Event": event, "Room": ("Open", "Closed")[k], "North": ns,
                    "South": ns, "East": ew, "West": ew, "Scoring": "IMP",
                    "Score": f"NS {table.ns_score}"}
            records.append(annotated_board(result.deal, auction, tables[k], reg,
                                           result.board, info, table.tricks, readers[k]))
    write_boards(records, path)
    return len(records)


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("publish", help="the system as HTML/PDF notes, convention cards, "
                                       "BBOalert, BML or BSS")
    p.add_argument("--system", required=True, type=nonempty,
                   help="a shipped system's name or a .bbx path")
    p.add_argument("--format", required=True, choices=FORMATS)
    p.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                   help="switch on a system option (repeatable)")
    p.add_argument("--regulation", default="sbu", help="alerting rules (default sbu)")
    p.add_argument("--depth", type=int, default=None,
                   help="only the first N rounds of our calls (default: the whole tree)")
    p.add_argument("-o", "--output", type=nonempty,
                   help="the file to write (default: standard output); a .pdf path prints "
                        "the notes or a card to PDF")
    p.set_defaults(func=cmd_publish)

    p = sub.add_parser("import", help="a draft system file from BML or BBOalert notes")
    p.add_argument("file", type=nonempty, help="FILE.bml or a BBOalert FILE.txt")
    p.add_argument("-o", "--output", required=True, type=nonempty,
                   help="the draft .bbx to write")
    p.add_argument("--show", type=int, default=20,
                   help="how many unread calls to list (default 20)")
    p.set_defaults(func=cmd_import)
