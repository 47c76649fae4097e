"""The ``bidbox`` command line: argument parsing, output, and one place for user errors.

User errors (any :class:`BidboxError`) print one or two lines and exit 2; they never
show a traceback. Each sub-command is a small function that calls the library.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from bidbox.core import Auction, Hand, Seat, Vulnerability
from bidbox.errors import BidboxError
from bidbox.evaluate import all_measures, evaluate_hand

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
        _print_json(report)
        return 0 if report["legal"] else 1
    for row in report["calls"]:
        print(f"  {row['seat']}  {row['call']}")
    if report["error"]:
        print(f"illegal: {report['error']}")
    if report["ended"]:
        declarer = f" by {report['declarer']}" if report["declarer"] else ""
        print(f"ended: {report['contract']}{declarer}")
    else:
        print(f"{report['next_seat']} to call; legal: {' '.join(report['legal_calls'])}")
    return 0 if report["legal"] else 1


# --- demo (make run) -----------------------------------------------------------
def cmd_demo(args: argparse.Namespace) -> int:
    """What `make run` shows: a sample hand measured and a sample auction walked."""
    sample = "AKQ2.J54.T9.8765"
    print(f"$ bidbox eval {sample}")
    cmd_eval(argparse.Namespace(hand=sample, json=False))
    calls = "1C P 1H X 2H P P 3D P 3H P P P"
    print(f"\n$ bidbox auction \"{calls}\" --dealer N --vul ns")
    cmd_auction(argparse.Namespace(calls=calls, dealer="N", vul="ns", json=False))
    return 0


# --- parser --------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bidbox",
                                     description="Bridge bidding systems as executable data.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("eval", help="every measure of one hand (PBN order S.H.D.C)")
    p.add_argument("hand", help="e.g. AKQ2.J54.T9.8765; '-' or nothing for a void")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("auction", help="check an auction under the Laws")
    p.add_argument("calls", help='e.g. "1C P 1H X"')
    p.add_argument("--dealer", default="N", help="N, E, S or W (default N)")
    p.add_argument("--vul", default="none", help="none, ns, ew or both (default none)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_auction)

    p = sub.add_parser("demo", help="a short tour (what `make run` shows)")
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.func
    try:
        return handler(args)
    except BidboxError as err:
        print(f"bidbox {args.command}: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
