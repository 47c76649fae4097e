"""The simulation lab's commands: ``bidbox simulate`` and ``bidbox deal``.

Kept apart from :mod:`bidbox.cli.main` so the lab's many options live beside each other;
:func:`add_parsers` hangs both sub-commands on the main parser.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path
from typing import Any

from bidbox.cli.validate import nonempty
from bidbox.errors import BidboxError
from bidbox.errors import SimulationArgumentError as SimulationArgumentError
from bidbox.lang import parse_options
from bidbox.sim.deals import (
    BYTES_PER_PLAYED_BOARD,
    Boards,
    check_deal_arguments,
    deal_boards,
    north_filter,
    read_board_file,
    read_lin_deals,
    read_pbn_boards,
    write_pbn_boards,
)
from bidbox.sim.match import MatchSpec, SystemRef
from bidbox.sim.parallel import default_workers
from bidbox.sim.runner import MatchRun, run_match

DEFAULT_SEED = 1


def split_options(items: list[str] | None) -> tuple[dict[str, str | bool], dict[str, str | bool]]:
    """``--option`` values for system A and for system B.

    ``NAME[=VALUE]`` applies to both systems; ``a:NAME[=VALUE]`` or ``b:NAME[=VALUE]`` to
    one only, so that a system can be matched against itself with another option.
    """
    both: list[str] = []
    only: dict[str, list[str]] = {"a": [], "b": []}
    for item in items or []:
        head, sep, rest = item.partition(":")
        if sep and head.strip().lower() in only:
            only[head.strip().lower()].append(rest)
        else:
            both.append(item)
    shared = parse_options(both)
    return ({**shared, **parse_options(only["a"])}, {**shared, **parse_options(only["b"])})


def _positive(name: str, value: int | None) -> None:
    if value is not None and value < 1:
        raise SimulationArgumentError(f"{name} must be at least 1, not {value}")


def simulation_boards(args: argparse.Namespace) -> Boards:
    """The boards of a ``simulate`` run: from --boards FILE (.pbn or .lin), or dealt by
    --seed."""
    _positive("--deals", args.deals)
    if args.boards:
        return read_board_file(Path(args.boards), limit=args.deals)
    if args.deals is None:
        raise SimulationArgumentError("say how many boards: --deals N (or --boards FILE.pbn)")
    check_deal_arguments(args.deals, args.seed, "--deals", "--seed", BYTES_PER_PLAYED_BOARD)
    return deal_boards(args.deals, args.seed)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play the match and print its report (text, or JSON with --json)."""
    _positive("--workers", args.workers)
    options_a, options_b = split_options(args.option)
    spec = MatchSpec(SystemRef.resolve(args.a, options_a), SystemRef.resolve(args.b, options_b),
                     uncontested=args.uncontested, par=args.par)
    boards = simulation_boards(args)
    if args.pbn:  # a wrong extension is said now, not after the whole match
        from bidbox.formats.pbn import board_format

        board_format(Path(args.pbn))
    out = Path(args.out) if args.out else None
    run = run_match(spec, boards, out, workers=args.workers, scheduler=args.scheduler,
                    plots=not args.no_plots)
    errors = list(run.write_errors)
    if args.json:
        if args.pbn:
            _write_match_pbn(run, spec, Path(args.pbn), errors)
        print(json.dumps(run.report.to_json(), indent=2))
        return _write_errors(errors, run)
    for line in run.report.lines():
        print(line)
    if args.pbn:
        tables = _write_match_pbn(run, spec, Path(args.pbn), errors)
        if tables is not None:
            print(f"wrote {tables} tables ({len(run.results)} boards) with their alerts to "
                  f"{args.pbn}")
    if run.files:
        print(f"written to {out}: {', '.join(f.name for f in run.files)}")
    elif out is None:
        print("(give --out DIR to keep the results, resume later, and get the plots)")
    return _write_errors(errors, run)


def _write_match_pbn(run: MatchRun, spec: MatchSpec, path: Path, errors: list[str]
                     ) -> int | None:
    """``--pbn``: the tables of every board, or None with the failure added to ``errors``
    (the match is played and stored by now, so it is reported, not raised)."""
    from bidbox.cli.export_commands import write_match_boards

    try:
        return write_match_boards(run.results, spec, path)
    except BidboxError as err:
        text = str(err)
        errors.append(text.removeprefix("cannot write ") if text.startswith("cannot write ")
                      else f"'{path}': {text}")
        return None


def _write_errors(errors: list[str], run: MatchRun) -> int:
    """Status 2 and two lines for files not written: what failed, and what the folder
    holds complete (every file bidbox writes is whole or absent), so a rerun with the
    same arguments writes the rest without playing a board again."""
    if not errors:
        return 0
    print(f"bidbox simulate: error: cannot write {'; '.join(errors)}", file=sys.stderr)
    if run.saved:
        print(f"  saved complete in {run.saved}; a rerun writes the rest without playing "
              "the boards again", file=sys.stderr)
    else:
        print("  (the report above is complete; give --out DIR to keep the results)",
              file=sys.stderr)
    return 2


def cmd_deal(args: argparse.Namespace) -> int:
    """Deal boards (optionally where North meets a constraint) and write them as PBN; or,
    with --boards, bid the boards of a PBN/LIN file with a system and write them with the
    auction beside the one played."""
    if args.boards is not None:
        return _bid_file_boards(args)
    if args.count is None:
        raise SimulationArgumentError("deal: give --count N (or --boards FILE to bid a "
                                      "file's boards)")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    check_deal_arguments(args.count, seed, "--count", "--seed")
    if args.ew and not args.system:
        raise SimulationArgumentError("deal --ew: name North-South's system with --system")
    where = north_filter(args.where) if args.where else None
    boards = deal_boards(args.count, seed, where)
    path = Path(args.output)
    condition = f" where North has {where}" if where is not None else ""
    if args.system:
        from bidbox.cli.export_commands import write_dealt_boards

        write_dealt_boards(boards, args.system, args.ew, path)
        condition += f", bid by {args.system}{' / ' + args.ew if args.ew else ''}"
    elif path.suffix.lower() == ".lin":
        # A .lin path holds LIN: PBN text there was refused by every LIN reader, bidbox's
        # own too. Any other name (a .txt, /dev/stdout) keeps the PBN it always had.
        from bidbox.cli.export_commands import dealt_records
        from bidbox.formats.pbn import write_boards

        write_boards(dealt_records(boards), path)
    else:
        write_pbn_boards(boards, path)
    print(f"wrote {len(boards)} boards to {path} (seed {seed}){condition}", file=sys.stderr)
    return 0


def _bid_file_boards(args: argparse.Namespace) -> int:
    from bidbox.formats.pbn import bid_boards, write_boards
    from bidbox.lang import load_system
    from bidbox.rules import REGULATIONS

    if args.system is None:
        raise SimulationArgumentError("deal --boards: name the system that bids them "
                                      "with --system NAME")
    ns = load_system(args.system)
    ew = load_system(args.ew) if args.ew else ns
    boards = checked_file_boards(Path(args.boards))
    out = bid_boards(boards, ns, ew, REGULATIONS["sbu"])
    path = Path(args.output)
    write_boards(out, path)
    print(f"wrote {len(boards)} boards bid by {ns.name}"
          f"{' / ' + ew.name if ew is not ns else ''} to {path}, each followed by the "
          f"auction played", file=sys.stderr)
    return 0


def checked_file_boards(path: Path) -> list[Any]:
    """The endplay boards of a PBN or LIN file for ``deal --boards``, every deal checked
    as ``simulate --boards`` checks it (52 cards, none twice, a board number and dealer
    that can be read), each problem named by the file's line. endplay's reader alone
    let a card in two hands through to be bid, and named no file or line for a hand
    short of cards. A vugraph LIN file keeps both rooms of a deal: each room's auction
    is written beside the one bid."""
    from bidbox.formats.pbn import board_format, read_boards

    if board_format(path) == "pbn":
        records: list[Any] = []
        read_pbn_boards(path, records=records)
        return records
    read_lin_deals(path)  # checks each deal; it keeps one room of a deal, so read again
    return read_boards(path)


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``simulate`` and ``deal`` to the ``bidbox`` command."""
    p = sub.add_parser(
        "simulate", help="team match of two systems on the same deals, scored double dummy",
        description="Table 1: A North-South, B East-West; table 2 the reverse. Each final "
                    "contract is solved double dummy and scored; IMPs are A's.")
    p.add_argument("--a", required=True, metavar="SYS_A", type=nonempty,
                   help="system A: shipped name or .bbx")
    p.add_argument("--b", required=True, metavar="SYS_B", type=nonempty,
                   help="system B: shipped name or .bbx")
    p.add_argument("--deals", type=int, metavar="N",
                   help="number of boards (with --boards: the first N of the file)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED,
                   help=f"dealing seed (default {DEFAULT_SEED}); results are stored by seed")
    p.add_argument("--boards", metavar="FILE", type=nonempty,
                   help="play the boards of a PBN or LIN file instead (a vugraph LIN file: "
                        "each deal once)")
    p.add_argument("--workers", type=int, default=default_workers(), metavar="K",
                   help="local worker processes (default: one per core; 1 runs in-process)")
    p.add_argument("--scheduler", metavar="ADDRESS", type=nonempty,
                   help="run on a Dask cluster, e.g. tcp://host:8786")
    p.add_argument("--out", metavar="DIR", type=nonempty,
                   help="folder for the results store (resumable), report.json and plots")
    p.add_argument("--uncontested", action="store_true",
                   help="only North-South bid; compare with their best contract alone")
    p.add_argument("--par", action="store_true",
                   help="also compare each table with the double-dummy par (needs a full DD "
                        "table per deal: 5-10x the solving time)")
    p.add_argument("--no-plots", action="store_true", help="do not draw the PNG plots")
    p.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                   help="system option for both systems; a:NAME or b:NAME for one (repeatable)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--pbn", metavar="PATH", type=nonempty,
                   help="also write both tables of every board, each auction with its "
                        "alerts and notes (PBN, or LIN for a .lin path)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("deal", help="deal boards to a PBN file, optionally with a constraint")
    p.add_argument("--count", type=int, metavar="N", help="number of boards")
    p.add_argument("--boards", metavar="IN.pbn", type=nonempty,
                   help="bid the boards of this PBN or LIN file instead of dealing")
    p.add_argument("--system", metavar="NAME", type=nonempty,
                   help="the system that bids the boards (dealt, or with --boards the "
                        "file's): each auction is written with its alerts and notes")
    p.add_argument("--ew", metavar="OTHER", type=nonempty, help="with --system: East-West's system "
                                                 "(default: the same)")
    p.add_argument("--seed", type=int, help="dealing seed (default: a new one, printed)")
    p.add_argument("--where", metavar="CONSTRAINT", type=nonempty,
                   help='North\'s hand in the system language, e.g. "hcp 15-17, balanced"')
    p.add_argument("-o", "--output", required=True, metavar="FILE.pbn", type=nonempty,
                   help="file to write: PBN, or LIN for a .lin path")
    p.set_defaults(func=cmd_deal)


__all__ = ["SimulationArgumentError", "add_parsers", "cmd_deal", "cmd_simulate",
           "split_options"]
