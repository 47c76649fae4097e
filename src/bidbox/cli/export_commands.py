"""`bidbox publish`: the system written for the tools players use elsewhere (issue 14).

Each format is a module of :mod:`bidbox.formats`; this module only parses the command
line, reads the tree once and writes the file. A path that cannot be written is a one-line
error, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bidbox.api import get_regulation, load_system
from bidbox.errors import BidboxError
from bidbox.lang import parse_options

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

        page = (html.notes_html(tree, printable=pdf or fmt == "pdf") if fmt in ("html", "pdf")
                else html.card_html(tree, fmt.removeprefix("card-")))
        return html.html_to_pdf(page) if pdf or fmt == "pdf" else page
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
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    except OSError as err:
        raise BidboxError(f"cannot write '{path}': {err.strerror or err}") from None
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
        out.write_text(system, encoding="utf-8")
    except OSError as err:
        raise BidboxError(f"cannot write '{out}': {err.strerror or err}") from None
    calls = sum(1 for line in system.splitlines()
                if line.strip() and not line.lstrip().startswith(("#", "(", "system",
                                                                  "title", "source")))
    print(f"wrote {out}: {calls} calls, {calls - len(unknown)} with a meaning inferred "
          f"from the text, {len(unknown)} marked '# draft:'")
    for line in unknown[: args.show]:
        print(f"  not inferred: {line}")
    if len(unknown) > args.show:
        print(f"  ... and {len(unknown) - args.show} more (all marked in the file)")
    for line in skipped[: args.show]:
        print(f"  left out: {line}")
    try:
        compile_text(system, str(out))
    except BidboxError as err:
        first = str(err).splitlines()[0]
        print(f"the draft does not compile yet: {first}")
        return 1
    return 0


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("publish", help="the system as HTML/PDF notes, convention cards, "
                                       "BBOalert, BML or BSS")
    p.add_argument("--system", required=True, help="a shipped system's name or a .bbx path")
    p.add_argument("--format", required=True, choices=FORMATS)
    p.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                   help="switch on a system option (repeatable)")
    p.add_argument("--regulation", default="sbu", help="alerting rules (default sbu)")
    p.add_argument("--depth", type=int, default=None,
                   help="only the first N rounds of our calls (default: the whole tree)")
    p.add_argument("-o", "--output", help="the file to write (default: standard output); "
                   "a .pdf path prints the notes or a card to PDF")
    p.set_defaults(func=cmd_publish)

    p = sub.add_parser("import", help="a draft system file from BML or BBOalert notes")
    p.add_argument("file", help="FILE.bml or a BBOalert FILE.txt")
    p.add_argument("-o", "--output", required=True, help="the draft .bbx to write")
    p.add_argument("--show", type=int, default=20,
                   help="how many unread calls to list (default 20)")
    p.set_defaults(func=cmd_import)
