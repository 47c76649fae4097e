"""The ``bidbox`` command line: argument parsing, output, and one place for user errors.

User errors (any :class:`BidboxError`) print one or two lines and exit 2; they never
show a traceback. Each sub-command parses its arguments, calls the Python API
(:mod:`bidbox.api`, the same functions a library user calls) and prints the result.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from bidbox.api import Explanation, System, get_regulation, load_system
from bidbox.cli.validate import BidboxArgumentParser, nonempty
from bidbox.core import Auction, Hand, Seat, Vulnerability
from bidbox.errors import BidboxError, IllegalAuctionError
from bidbox.evaluate import all_measures, evaluate_hand
from bidbox.lang import SystemFileError, parse_options, shipped_systems
from bidbox.rules import Regulation

Handler = Callable[[argparse.Namespace], int]


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


# --- eval ----------------------------------------------------------------------
def cmd_eval(args: argparse.Namespace) -> int:
    hand = Hand.parse(args.hand)
    values = evaluate_hand(hand)
    if args.json:
        _print_json(values)
        return 0
    print(f"hand {hand.pbn()}")
    described = {m.name: m.description for m in all_measures()}
    width = max(len(k) for k in values)
    for name, value in values.items():
        shown = value if not isinstance(value, list) else " ".join(str(v) for v in value)
        print(f"  {name:<{width}}  {shown!s:<14} {described[name]}")
    return 0


# --- auction -------------------------------------------------------------------
def auction_report(text: str, dealer: Seat, vul: Vulnerability) -> dict[str, Any]:
    """The JSON form of `bidbox auction`: legality, whose turn, legal calls, contract."""
    try:
        auction = Auction.parse(text, dealer, vul)
        error = None
    except BidboxError as err:
        # Report the legal prefix so the caller still sees where the auction stands.
        error = str(err)
        auction = Auction(dealer, vul)
        from bidbox.core import split_calls

        for token in split_calls(text):
            try:
                auction = auction.add(token)
            except BidboxError:
                break
    contract = auction.contract
    return {
        "legal": error is None,
        "error": error,
        "next_seat": None if auction.is_ended else str(auction.next_seat),
        "legal_calls": [str(c) for c in auction.legal_calls()],
        "ended": auction.is_ended,
        "contract": str(contract) if contract else None,
        "passed_out": auction.is_passed_out,
        "declarer": str(contract.declarer) if contract else None,
        "passed_hands": sorted(str(s) for s in auction.passed_hands()),
        "calls": [{"seat": str(auction.seat_of(i)), "call": str(c)}
                  for i, c in enumerate(auction.calls)],
    }


def cmd_auction(args: argparse.Namespace) -> int:
    report = auction_report(args.calls, Seat.parse(args.dealer), Vulnerability.parse(args.vul))
    if args.json:
        _print_json(report)  # the legal prefix, for a program; the error also on stderr
    if report["error"]:
        raise IllegalAuctionError(args.calls, report["error"])
    if args.json:
        return 0
    for row in report["calls"]:
        print(f"  {row['seat']}  {row['call']}")
    if report["ended"]:
        declarer = f" by {report['declarer']}" if report["declarer"] else ""
        print(f"ended: {report['contract']}{declarer}")
    else:
        print(f"{report['next_seat']} to call; legal: {' '.join(report['legal_calls'])}")
    return 0


# --- systems, bid, explain, lint ------------------------------------------------------
def _systems_for(args: argparse.Namespace) -> tuple[System, System]:
    """(ours, theirs): --system for both sides, or --ns / --ew (--them) for each; --option
    applies to every one. Each file is compiled once per command."""
    options = parse_options(getattr(args, "option", None))
    cache: dict[str, System] = {}

    def get(name: str) -> System:
        if name not in cache:
            cache[name] = load_system(name, options)
        return cache[name]

    default = getattr(args, "system", None)
    ns = getattr(args, "ns", None) or default
    ew = getattr(args, "ew", None) or getattr(args, "them", None) or default
    if ns is None or ew is None:
        raise BidboxError("name a system: --system NAME (or --ns NAME and --ew NAME)")
    return get(ns), get(ew)


def cmd_systems(args: argparse.Namespace) -> int:
    shipped = shipped_systems()
    if args.json:
        _print_json([{"name": s.name, "title": s.title, "source": s.source,
                      "file": s.path.name,
                      "options": [{"name": n, "values": list(v), "description": d}
                                  for n, v, d in s.options]} for s in shipped])
        return 0
    for s in shipped:
        print(f"{s.name:<14} {s.title}")
        print(f"{'':<14} source: {s.source}")
        for name, values, description in s.options:
            choices = f" = {' | '.join(values)}" if values else ""
            print(f"{'':<14} option {name}{choices}: {description}")
    return 0


def _regulation(args: argparse.Namespace) -> Regulation:
    return get_regulation(getattr(args, "regulation", "sbu"))  # '' is an error, not sbu


def cmd_bid(args: argparse.Namespace) -> int:
    ours, theirs = _systems_for(args)
    regulation = _regulation(args)
    bid = ours.bid(args.hand, args.auction or "", dealer=args.dealer, vul=args.vul,
                   opponents=theirs, regulation=regulation)
    if args.json:
        _print_json(bid.to_json())
        return 0
    from bidbox.engine.wording import forcing_said

    source = getattr(bid, "source", None)
    flag = f" ({source})" if bid.fallback and source else (
        " (fallback)" if bid.fallback else "")
    # One forcing word: not added when the meaning says it ("invitational, invitational").
    forcing = (f", {bid.forcing}" if bid.forcing and not forcing_said(bid.meaning, bid.forcing)
               else "")
    alert = ", alert" if bid.alert else ""
    print(f"{bid.seat} bids {bid.call}{flag}: {bid.meaning}{forcing}{alert}")
    _print_wrapped("  why: ", bid.reason)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    ours, _ = _systems_for(args)
    report = ours.check(_regulation(args))
    level = args.level
    if args.json:
        _print_json(report.to_json(level))
        return 0
    verdict = report.verdict
    print(f"{report.system} under {report.regulation.upper()}: "
          f"{'level ' + str(verdict) if verdict else 'not permitted at any level'}")
    shown = report.findings if level is None else report.violations(level)
    if getattr(args, "verdict_only", False):
        shown = [f for f in shown if f.level is None or f.level > 1]
    for f in shown:
        where = f"{f.auction} {f.call}".strip()
        lvl = f"level {f.level}" if f.level else "no level"
        witness = f" e.g. {f.witness}" if f.witness else ""
        print(f"  {where:<16} {lvl:<9} {f.rule} ({f.section}): {f.message}{witness}")
    if level is not None:
        ok = not shown
        print(f"permitted at level {level}: {'yes' if ok else 'no'}")
        return 0 if ok else 1
    return 0


def cmd_card(args: argparse.Namespace) -> int:
    ours, _ = _systems_for(args)
    card = ours.card(_regulation(args))
    if args.json:
        _print_json(card)
        return 0
    print(card["title"])
    for section in ("basic", "responses", "unusual", "alertable", "leads", "signals",
                    "discards"):
        value = card.get(section)
        if not value:
            continue
        print(f"\n{section.upper()}")
        if isinstance(value, list):
            for item in value:
                print(f"  - {item if isinstance(item, str) else _card_row(item)}")
        else:
            print(f"  {value}")
    return 0


def _card_row(item: dict[str, str]) -> str:
    return f"{item['auction']}: {item['meaning']} [{item['rule']}]"


MEANING_WIDTH = 56
FORCING_WIDTH = 18
INDENT = " " * 17


def cmd_explain(args: argparse.Namespace) -> int:
    ns, ew = _systems_for(args)
    explanation = ns.explain(args.auction or "", dealer=args.dealer, vul=args.vul,
                             opponents=ew, regulation=_regulation(args))
    if args.json:
        _print_json(explanation.to_json())
        return 0
    print(format_explanation(explanation, show_all=args.all))
    return 0


def format_explanation(explanation: Explanation, show_all: bool = False) -> str:
    """The text ``bidbox explain`` prints: one row per call (passes outside the system
    folded away unless ``show_all``), meanings word-wrapped in their column, the telling
    denials, then what each seat and each partnership is known to hold."""
    from bidbox.engine.wording import forcing_said

    out = [f" #  seat call  {'meaning':<{MEANING_WIDTH}} {'forcing':<{FORCING_WIDTH}} alert"]
    for c in explanation.calls:
        if c.call.kind.name == "PASS" and c.entry is None and not show_all:
            continue
        decision = c.decision
        meaning = c.meaning + (f" [{c.source or 'placement'}]" if c.fallback else "")
        # One forcing word: the column stays empty when the meaning already says it.
        forcing = str(c.forcing) if c.forcing and not forcing_said(meaning, c.forcing) else ""
        alert = "yes" if c.alert else "no"
        lines = _wrap(meaning, MEANING_WIDTH) or [""]
        out.append(f"{c.index + 1:>2}  {c.seat!s:<4} {c.call!s:<5} "
                   f"{lines[0]:<{MEANING_WIDTH}} {forcing:<{FORCING_WIDTH}} "
                   f"{alert}: {c.alert_rule}{' [override]' if decision.override else ''}"
                   f"{' [Stop card]' if c.stop_card else ''}")
        out.extend(INDENT + extra for extra in lines[1:])
        if c.denial_words:
            out.extend(INDENT + extra for extra in
                       _wrap("; ".join(c.denial_words), MEANING_WIDTH + FORCING_WIDTH))
        if c.note:
            out.extend(INDENT + extra for extra in
                       _wrap(f"note: {c.note}", MEANING_WIDTH + FORCING_WIDTH))
    out.append("Known now")
    for seat, known in explanation.knowledge.items():
        out.extend(_wrapped(f"  {seat}: ", known.summary()))
    for side, words in explanation.partnerships.items():
        first, second = side.seats
        out.extend(_wrapped(f"  {first}+{second}: ", words))
    return "\n".join(out)


def _wrapped(head: str, text: str, width: int = 96) -> list[str]:
    lines = _wrap(text, width - len(head)) or [""]
    return [head + lines[0]] + [" " * len(head) + extra for extra in lines[1:]]


def _print_wrapped(head: str, text: str, width: int = 96) -> None:
    print("\n".join(_wrapped(head, text, width)))


def _wrap(text: str, width: int) -> list[str]:
    """Lines of at most ``width`` characters, broken between words (a word longer than
    the line stands alone rather than being cut)."""
    import textwrap

    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)


def cmd_lint(args: argparse.Namespace) -> int:
    try:
        ours, _ = _systems_for(args)
    except SystemFileError as err:
        if args.json:
            _print_json({"errors": [{"message": d.message, "location": str(d.location)}
                                    for d in err.diagnostics], "findings": []})
            return 1
        raise
    findings = ours.lint()
    if args.json:
        _print_json({"errors": [], "findings": [f.to_json() for f in findings]})
        return 0
    for f in findings:
        witness = f" e.g. {f.witness}" if f.witness else ""
        print(f"{f.location}: {f.severity}: {f.code}: {f.message}{witness} [{f.method}]")
    print(f"{len(findings)} finding(s)")
    return 0


# --- demo (make run) -----------------------------------------------------------
def cmd_demo(args: argparse.Namespace) -> int:
    """What `make run` shows: a hand measured, an auction walked, and, for each shipped
    system, a hand bid, an auction explained and the regulation's verdict."""
    sample = "AKQ2.J54.T9.8765"
    print(f"$ bidbox eval {sample}")
    cmd_eval(argparse.Namespace(hand=sample, json=False))
    calls = "1C P 1H X 2H P P 3D P 3H P P P"
    print(f"\n$ bidbox auction \"{calls}\" --dealer N --vul ns")
    cmd_auction(argparse.Namespace(calls=calls, dealer="N", vul="ns", json=False))
    tours = {"sbu-level1": ("K432.AQ32.32.K32", "1NT P", "1NT P 2C P 2H"),
             "tosr": ("KQ2.AQ8732.32.K2", "1C P", "1C P 1H P 1S")}
    shipped = {s.name for s in shipped_systems()}
    for name, (hand, before, auction) in tours.items():
        if name not in shipped:
            continue
        common = {"system": name, "option": None, "json": False, "dealer": "N",
                  "vul": "none", "regulation": "sbu"}
        print(f"\n$ bidbox bid --system {name} --hand {hand} --auction \"{before}\"")
        cmd_bid(argparse.Namespace(**common, them=None, hand=hand, auction=before))
        print(f"\n$ bidbox explain --system {name} --auction \"{auction}\"")
        cmd_explain(argparse.Namespace(**common, ns=None, ew=None, auction=auction, all=False))
        print(f"\n$ bidbox check --system {name} --regulation sbu")
        cmd_check(argparse.Namespace(**common, level=None, verdict_only=True))
    return 0


# --- parser --------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = BidboxArgumentParser(
        prog="bidbox",
        description="Bridge bidding systems as executable data.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("eval", help="every measure of one hand (PBN order S.H.D.C)")
    p.add_argument("hand", help="e.g. AKQ2.J54.T9.8765; '-' or nothing for a void")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("auction", help="check an auction under the Laws")
    p.add_argument("calls", help='e.g. "1C P 1H X"')
    p.add_argument("--dealer", default="N", help="N, E, S or W (default N)")
    p.add_argument("--vul", default="none", type=nonempty,
                   help="none, ns, ew or both (default none)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_auction)

    p = sub.add_parser("systems", help="the shipped systems and their options")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_systems)

    def system_args(p: argparse.ArgumentParser, both_sides: bool) -> None:
        p.add_argument("--system", type=nonempty,
                       help="a shipped system's name or a .bbx path")
        if both_sides:
            p.add_argument("--ns", type=nonempty, help="North-South's system (default --system)")
            p.add_argument("--ew", type=nonempty, help="East-West's system (default --system)")
        p.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                       help="switch on a system option (repeatable)")
        p.add_argument("--json", action="store_true")

    def table_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--auction", default="", help='calls so far, e.g. "1C P"')
        p.add_argument("--dealer", default="N", help="N, E, S or W (default N)")
        p.add_argument("--vul", default="none", type=nonempty,
                       help="none, ns, ew or both (default none)")

    p = sub.add_parser("bid", help="the call a system prescribes for a hand")
    system_args(p, both_sides=False)
    p.add_argument("--them", type=nonempty, help="the opponents' system (default: the same)")
    p.add_argument("--hand", required=True, help="PBN S.H.D.C of the seat to call")
    p.add_argument("--regulation", default="sbu", help="alerting rules (default sbu)")
    table_args(p)
    p.set_defaults(func=cmd_bid)

    p = sub.add_parser("explain", help="what each call shows and what each seat holds")
    system_args(p, both_sides=True)
    table_args(p)
    p.add_argument("--all", action="store_true", help="also show passes outside the system")
    p.add_argument("--regulation", default="sbu", help="alerting rules (default sbu)")
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("check", help="licensing level under a regulation, with witnesses")
    system_args(p, both_sides=False)
    p.add_argument("--regulation", default="sbu", help="the regulation (default sbu)")
    p.add_argument("--level", type=int, choices=range(1, 6), help="report what breaks this level")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("card", help="convention card content generated from the system")
    system_args(p, both_sides=False)
    p.add_argument("--regulation", default="sbu", help="the regulation for alerts")
    p.set_defaults(func=cmd_card)

    p = sub.add_parser("lint", help="compile errors, unreachable calls, holes")
    system_args(p, both_sides=False)
    p.set_defaults(func=cmd_lint)

    from bidbox.cli.sim_commands import add_parsers as add_sim_parsers

    add_sim_parsers(sub)
    from bidbox.cli.diff_commands import add_parsers as add_diff_parsers
    add_diff_parsers(sub)
    from bidbox.cli.export_commands import add_parsers as add_export_parsers
    add_export_parsers(sub)
    from bidbox.cli.web_commands import add_parsers as add_web_parsers
    add_web_parsers(sub)

    p = sub.add_parser("demo", help="a short tour (what `make run` shows)")
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.func
    try:
        code = handler(args)
        sys.stdout.flush()  # a failing write shows here, not as a traceback at exit
        return code
    except BidboxError as err:
        print(f"bidbox {args.command}: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _discard_stdout()
        return 0
    except OSError as err:  # most often stdout (a full disk, /dev/full)
        _discard_stdout()
        what = f"'{err.filename}'" if err.filename else "cannot write the output"
        print(f"bidbox {args.command}: error: {what}: {err.strerror or err}", file=sys.stderr)
        return 2


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so the flush at exit cannot fail again with the same
    unwritable output (Python would print 'Exception ignored' and exit 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout without a file descriptor (captured in tests)
        pass


if __name__ == "__main__":
    sys.exit(main())
