"""Boards for the simulation lab: dealt at random, filtered by a constraint, or read from PBN.

A simulation plays *boards*, not bare deals: each has a number, and with it a dealer and a
vulnerability, because openings and scores depend on both. Dealt boards follow the standard
16-board cycle (board number = deal index + 1); boards read from a PBN file keep their own
dealer and vulnerability, so real events can be replayed as they were played.

The hands stay in the batch form of :class:`~bidbox.evaluate.DealBatch` (suit masks), so
the batch bidder and the measures read them without conversion; endplay is used only at the
edges (PBN in and out, double dummy).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.core.boardtext import (
    LinFileError,
    decode_board_bytes,
    original_line,
    pbn_for_endplay,
    read_lin_records,
)
from bidbox.core.hand import Hand
from bidbox.core.seats import Seat, Vulnerability
from bidbox.engine.features import HandFeatures
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.errors import BidboxError, plain_reason, shown
from bidbox.errors import BoardFileError as BoardFileError
from bidbox.errors import DealConstraintError as DealConstraintError
from bidbox.evaluate.dealer import DealBatch, deal_batch
from bidbox.files import describe_error, write_file
from bidbox.lang.constraint_parser import parse_constraint
from bidbox.lang.constraints import And, Constraint, NameRef, Not, Or, substitute

VULNERABILITIES: tuple[Vulnerability, ...] = tuple(Vulnerability)
"""Vulnerabilities by the small integer code kept in :attr:`Boards.vuls`."""

_CYCLE_VUL = (Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH)


def board_dealer(number: int) -> Seat:
    """The dealer of board ``number`` in the standard cycle: 1 N, 2 E, 3 S, 4 W, 5 N..."""
    return Seat((number - 1) % 4)


def board_vulnerability(number: int) -> Vulnerability:
    """The vulnerability of board ``number`` in the standard 16-board cycle.

    Each group of four boards rotates the sequence None, NS, EW, Both by one more step,
    which is how boards 1-16 read None NS EW Both / NS EW Both None / EW Both None NS /
    Both None NS EW.
    """
    i = number - 1
    return _CYCLE_VUL[(i + (i // 4) % 4) % 4]


@dataclass(frozen=True)
class Boards:
    """Boards to play: deals as suit masks with their numbers, dealers and vulnerabilities.

    ``masks[i, seat, suit]`` as in :class:`DealBatch`; ``dealers[i]`` is a :class:`Seat`
    value and ``vuls[i]`` an index into :data:`VULNERABILITIES`. ``source`` names where
    the deals came from (``seed:S`` or ``pbn:<digest>``): with the deal index it is the
    key under which results are stored, so a rerun finds what an earlier run finished.
    ``places`` says where each board was read from, for error messages.
    """

    masks: npt.NDArray[np.int16]
    numbers: npt.NDArray[np.int32]
    dealers: npt.NDArray[np.int8]
    vuls: npt.NDArray[np.int8]
    source: str
    indices: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    places: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        n = self.masks.shape[0]
        if self.masks.shape[1:] != (4, 4):
            raise ValueError(f"board masks must have shape (n, 4, 4), not {self.masks.shape}")
        if len(self.indices) == 0 and n:
            object.__setattr__(self, "indices", np.arange(n, dtype=np.int64))
        for name in ("numbers", "dealers", "vuls", "indices"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} has {len(getattr(self, name))} rows for {n} deals")

    def __len__(self) -> int:
        return int(self.masks.shape[0])

    def take(self, rows: Sequence[int] | npt.NDArray[np.int64]) -> Boards:
        """The boards at positions ``rows``, keeping their deal indices (the store key)."""
        pick = np.asarray(rows, dtype=np.int64)
        places = tuple(self.places[i] for i in pick) if self.places else ()
        return Boards(self.masks[pick], self.numbers[pick], self.dealers[pick],
                      self.vuls[pick], self.source, self.indices[pick], places)

    def deals(self) -> DealBatch:
        return DealBatch(self.masks)

    def dealer(self, row: int) -> Seat:
        return Seat(int(self.dealers[row]))

    def vul(self, row: int) -> Vulnerability:
        return VULNERABILITIES[int(self.vuls[row])]

    def pbn(self, row: int) -> str:
        """The PBN deal string of one board, North first."""
        return self.deals().pbn(row)

    def place(self, row: int) -> str:
        """Where a board comes from, for messages: 'file.pbn:120 (board 7)' or 'board 7'."""
        where = f"board {int(self.numbers[row])}"
        return f"{self.places[row]} ({where})" if self.places else where

    def table_groups(self) -> list[tuple[Seat, Vulnerability, npt.NDArray[np.int64]]]:
        """Rows grouped by (dealer, vulnerability): the batch bidder takes one of each."""
        key = self.dealers.astype(np.int64) * 4 + self.vuls.astype(np.int64)
        return [(Seat(int(k) // 4), VULNERABILITIES[int(k) % 4], np.flatnonzero(key == k))
                for k in np.unique(key)]


def _cycle_boards(masks: npt.NDArray[np.int16], source: str) -> Boards:
    numbers = np.arange(1, len(masks) + 1, dtype=np.int32)
    dealers = np.array([int(board_dealer(int(b))) for b in numbers], dtype=np.int8)
    vuls = np.array([VULNERABILITIES.index(board_vulnerability(int(b))) for b in numbers],
                    dtype=np.int8)
    return Boards(masks, numbers, dealers, vuls, source)


_SHOWN = 80
"""Characters of a --where constraint quoted back in an error (the column says where)."""


def north_filter(text: str) -> Constraint:
    """Read a ``--where`` constraint (system-file language) for North's hand.

    Free suit variables mean "some suit" (``5+M`` is five cards in either major); names
    defined inside system files (``opener``) are not known here and are rejected.
    """
    shown = text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "..."
    placeholder = _PLACEHOLDER.search(text)
    if placeholder:
        # parsed as a suit named '{Z}', it failed only while dealing, naming no --where
        raise DealConstraintError(
            f"--where \"{shown}\" at column {placeholder.start() + 1}: "
            f"'{_short(placeholder.group())}' is a module's parameter, known only inside "
            "that module: write what it stands for (a suit: 5+S or 5+M; a number: 15)")
    try:
        constraint = substitute(parse_constraint(text), {})
    except BidboxError as err:
        col = getattr(err, "col", None)
        at = f" at column {col}" if col else ""
        raise DealConstraintError(f"--where \"{shown}\"{at}: {err}") from None
    names = sorted(_names(constraint))
    if names:
        raise DealConstraintError(
            f"--where \"{shown}\": '{_short(names[0])}' is not a measure; names defined in a "
            "system file (def) are not known here: write the constraint out, e.g. \"hcp 12+, 5+M\"")
    return constraint


_PLACEHOLDER = re.compile(r"\{[^{}]*\}?")
"""A module's parameter (``{Z}``, ``{al+1}``): a ``--where`` is read outside any module."""


def _names(c: Constraint) -> set[str]:
    if isinstance(c, NameRef):
        return {c.name}
    if isinstance(c, And | Or):
        return set().union(*(_names(i) for i in c.items))
    if isinstance(c, Not):
        return _names(c.item)
    return set()


_NORTH_DEALS = TableContext(1, False, False, False)
"""North as dealer, nobody vulnerable, not a passed hand: the table a ``--where`` reads."""


MAX_BOARDS = 1_000_000
"""Boards one run may deal: dealing holds them all in memory (about half a kilobyte per
board while dealing), so a mistyped count cannot exhaust the machine. More boards: run
again with another seed."""

MAX_SEED = 2**64 - 1
"""Seeds are 0 to 2**64-1 (numpy's generator takes no negative seed)."""


BYTES_PER_DEALT_BOARD = 4_096
"""Memory one board takes in ``bidbox deal``: measured (tracemalloc) at 0.55 KB while
dealing and 1.9 KB at the peak of writing the PBN file; doubled for what endplay's C side
holds that Python does not see."""

BYTES_PER_PLAYED_BOARD = 16_384
"""Memory one board takes in a match: measured 1.5 KB for its result, 0.7 KB for its JSON
in the store, 0.55 KB dealt; a whole run grew by about 24 KB a board from 200 to 600
boards, most of it the bidder's caches, which level off. The report and the plots read
every result at once, so this is held until the end."""

MEMORY_SHARE = 0.8
"""The part of the free memory one run may plan to use: the rest is for the system, the
other programs and the error of the estimates above."""


def available_memory() -> int | None:
    """Free memory in bytes, as the kernel estimates it (``MemAvailable`` in
    /proc/meminfo, counting caches it can drop); None where there is no such file."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _size(count: float) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20)):
        if count >= scale:
            return f"{count / scale:,.1f} {unit}"
    return f"{count / 1024:,.0f} KB"


def check_deal_arguments(count: int, seed: int, count_name: str = "count",
                         seed_name: str = "seed",
                         bytes_per_board: int = BYTES_PER_DEALT_BOARD) -> None:
    """Refuse a count or seed the dealer cannot take, naming the argument; and a count
    whose boards (``bytes_per_board`` each) would not fit in the free memory, saying how
    many would."""
    if count < 0:
        raise DealConstraintError(f"{count_name} must be 0 or more, not {count}")
    if count > MAX_BOARDS:
        raise DealConstraintError(
            f"{count_name} {count:,} is more than the {MAX_BOARDS:,} boards one run may deal "
            "(all of them are held in memory while dealing): deal several files with "
            "different seeds")
    free = available_memory()
    if free is not None and count * bytes_per_board > MEMORY_SHARE * free:
        fit = int(MEMORY_SHARE * free // bytes_per_board)
        raise DealConstraintError(
            f"{count_name} {count:,} needs about {_size(count * bytes_per_board)} of memory "
            f"and {_size(free)} is free: {fit:,} boards fit; run several smaller batches "
            "with different seeds")
    if not 0 <= seed <= MAX_SEED:
        raise DealConstraintError(f"{seed_name} must be a whole number from 0 to 2**64-1, "
                                  f"not {_short(str(seed))}")


def _short(text: str, most: int = 40) -> str:
    return text if len(text) <= most else text[:most - 3] + "..."


def _round_seed(seed: int, round_no: int) -> int:
    return int(np.random.SeedSequence([seed, round_no]).generate_state(1)[0])


def deal_boards(count: int, seed: int, where: Constraint | None = None,
                max_deals: int = 2_000_000) -> Boards:
    """Deal ``count`` boards from ``seed``; with ``where``, keep deals whose North meets it.

    Without a filter, deal ``i`` is deal ``i`` of ``deal_batch(n, seed)`` for every
    ``n > i``, so a longer run with the same seed extends a shorter one (and resumes it).
    With a filter, deals are drawn in rounds, each from a seed derived from ``seed`` and
    the round number, so the result is still fixed by the seed.
    """
    check_deal_arguments(count, seed)
    if where is None:
        return _cycle_boards(deal_batch(count, seed).masks, f"seed:{seed}")
    predicate = compile_predicate(where)
    kept: list[npt.NDArray[np.int16]] = []
    have = dealt = round_no = 0
    rate = 1.0
    while have < count:
        if dealt >= max_deals:
            raise DealConstraintError(
                f"--where \"{where}\": only {have} of {dealt:,} dealt hands met it; "
                f"{count} were asked for (loosen the constraint or ask for fewer)")
        size = int(min(max_deals - dealt, max(1000, 1.2 * (count - have) / rate)))
        batch = deal_batch(size, _round_seed(seed, round_no)).masks
        hit = predicate(HandFeatures(batch[:, int(Seat.N), :]), _NORTH_DEALS)
        kept.append(batch[hit])
        have += int(hit.sum())
        dealt += size
        round_no += 1
        rate = max(have / dealt, 1e-4)
    masks = np.concatenate(kept)[:count]
    digest = hashlib.sha256(str(where).encode()).hexdigest()[:12]
    return _cycle_boards(masks, f"seed:{seed}:where:{digest}")


# --- PBN -------------------------------------------------------------------------------
def _pbn_decoder() -> Any:
    """endplay's PBN decoder, taught to keep ``[Dealer]`` and each board's first line.

    endplay reads ``[Dealer]`` only on boards that have an auction or a contract; a board
    file of bare deals (what ``bidbox deal`` writes) would otherwise fall back to the
    board-number cycle even when its dealer tag says otherwise.
    """
    from endplay.parsers.pbn import PBNDecoder

    class BoardDecoder(PBNDecoder):
        def __init__(self) -> None:
            super().__init__()  # type: ignore[no-untyped-call, unused-ignore]

        def clear(self) -> None:
            super().clear()
            self.dealer_tags: list[str | None] = []
            self.line_numbers: list[int] = []
            self.deal_tags: list[str | None] = []  # as written: endplay merges a card twice

        def _parse_none(self, curline: str) -> Any:
            if curline.startswith("[") and not self.curtags:
                self.board_start = self.lineno  # the first tag of a new board
            return super()._parse_none(curline)

        def _tags_to_board(self) -> Any:
            board = super()._tags_to_board()
            if board is not None:
                tags = {k.lower(): v for k, v in self.curtags.items()}
                value = tags.get("dealer", {}).get("value")
                if value == "#":
                    previous = {k.lower(): v for k, v in self.prevtags.items()}
                    value = previous.get("dealer", {}).get("value")
                self.dealer_tags.append(value)
                self.line_numbers.append(getattr(self, "board_start", self.lineno))
                self.deal_tags.append(tags.get("deal", {}).get("value"))
            return board

    return BoardDecoder()


_MAX_BOARD_NUMBER = 2**31 - 1
"""The largest board number (Boards keeps them as int32)."""


def read_pbn_boards(path: Path, limit: int | None = None,
                    skipped: list[tuple[int, str]] | None = None,
                    records: list[Any] | None = None) -> Boards:
    """The boards of a PBN file (endplay's parser), with their own dealer and vulnerability.

    A board without ``[Dealer]`` or ``[Vulnerable]`` takes them from its board number by
    the standard cycle; a board without a complete 52-card deal, or one the parser
    refuses (a tag value it cannot read), is an error that names the file and the line.
    Given ``skipped``, such a board is left out instead and its error added to the list
    (with the board's place in the file, 0-based, or -1 for a board the parser refused):
    a replay of thousands of boards from other programs reads the rest. Given
    ``records``, the endplay boards of the rows returned are appended to it (their
    auctions, notes and tables), so a reader of those needs no second parse.
    """
    try:
        data = path.read_bytes()
    except OSError as err:
        raise BoardFileError(f"cannot read board file '{path}': {err.strerror}") from None
    # Any line ends, boards without a blank line between them (issue 17: a CR file read
    # as no boards, unseparated boards as the first alone) and annotation glyphs ($1).
    text, added = pbn_for_endplay(decode_board_bytes(data))
    parsed, decoder = _parse_pbn(path, text, added, skipped)
    if limit is not None:
        parsed = parsed[:limit]
    if not parsed:
        raise BoardFileError(f"{path}: no boards found (a PBN file has [Deal \"...\"] tags)")
    masks = np.zeros((len(parsed), 4, 4), dtype=np.int16)
    numbers = np.zeros(len(parsed), dtype=np.int32)
    dealers = np.zeros(len(parsed), dtype=np.int8)
    vuls = np.zeros(len(parsed), dtype=np.int8)
    places = []
    kept = np.ones(len(parsed), dtype=bool)
    for row, board in enumerate(parsed):
        line = original_line(decoder.line_numbers[row], added) if row < len(
            decoder.line_numbers) else 0
        try:
            places.append(_read_board(path, row, line, board, decoder, masks, numbers,
                                      dealers, vuls))
        except BoardFileError as err:
            if skipped is None:
                raise
            skipped.append((row, str(err)))
            kept[row] = False
    if not kept.all():
        masks, numbers, dealers, vuls = masks[kept], numbers[kept], dealers[kept], vuls[kept]
    if records is not None:
        records.extend(board for board, keep in zip(parsed, kept, strict=True) if keep)
    digest = hashlib.sha256(data).hexdigest()[:16]
    return Boards(masks, numbers, dealers, vuls, f"pbn:{digest}", places=tuple(places))


_PARSE_ERRORS = (ValueError, RuntimeError, KeyError, IndexError, TypeError, AttributeError)
"""What endplay's PBN parser raises for text it cannot read (its PBNDecodeError is a
ValueError)."""


def _parse_pbn(path: Path, text: str, added: list[int],
               skipped: list[tuple[int, str]] | None) -> tuple[list[Any], Any]:
    """endplay's boards of ``text`` and the decoder that read them (its per-board dealer
    and deal tags and first lines). A file the parser refuses is an error; given
    ``skipped``, its boards are read one at a time instead and each refused board is
    left out with its error (endplay stops at the first bad board of a file)."""
    decoder = _pbn_decoder()
    try:
        return decoder.parse_file(StringIO(text)), decoder
    except _PARSE_ERRORS as err:
        if skipped is None:
            raise _parse_error(path, err, decoder, added, 0) from None
    merged = SimpleNamespace(dealer_tags=[], deal_tags=[], line_numbers=[])
    boards: list[Any] = []
    refused: list[BoardFileError] = []
    for start, chunk in _pbn_chunks(text):
        one = _pbn_decoder()
        try:
            got = one.parse_file(StringIO(chunk))
        except _PARSE_ERRORS as err:
            refused.append(_parse_error(path, err, one, added, start))
            continue
        boards += got
        merged.dealer_tags += one.dealer_tags
        merged.deal_tags += one.deal_tags
        merged.line_numbers += [n + start for n in one.line_numbers]
    if not boards and refused:
        raise refused[0]  # nothing readable: the file is not kept, and says why
    skipped.extend((-1, str(err)) for err in refused)
    return boards, merged


def _parse_error(path: Path, err: Exception, decoder: Any, added: list[int],
                 start: int) -> BoardFileError:
    """The parser's error as one naming the file's line (``start``: lines before the
    text the decoder read)."""
    from endplay.parsers.pbn import PBNDecodeError

    if isinstance(err, PBNDecodeError):
        return BoardFileError(f"{path}:{original_line(err.lineno + start, added)}: "
                              f"{plain_reason(err)} in '{shown(err.line.strip())}'")
    # A tag value it cannot convert fails when the board is complete, lines later: name
    # the board's first line.
    line = getattr(decoder, "board_start", decoder.lineno)
    return BoardFileError(f"{path}:{original_line(line + start, added)}: cannot read the "
                          f"board from this line: {plain_reason(err)}")


def _pbn_chunks(text: str) -> list[tuple[int, str]]:
    """The blank-line separated parts of ``text`` (boards, after ``pbn_for_endplay``),
    each with the number of lines before it."""
    out: list[tuple[int, str]] = []
    lines = text.split("\n")
    begin = None
    for k, line in enumerate([*lines, ""]):
        if line.strip():
            begin = k if begin is None else begin
        elif begin is not None:
            out.append((begin, "\n".join(lines[begin:k]) + "\n"))
            begin = None
    return out


def read_board_file(path: Path, limit: int | None = None) -> Boards:
    """The boards of a PBN file (:func:`read_pbn_boards`) or a LIN file
    (:func:`read_lin_deals`), by the extension."""
    if path.suffix.lower() == ".lin":
        return read_lin_deals(path, limit)
    return read_pbn_boards(path, limit)


def read_lin_deals(path: Path, limit: int | None = None) -> Boards:
    """The deals of a LIN file, a BBO hand record or a vugraph match
    (``core.boardtext.read_lin_records``), with their dealers and vulnerabilities. A
    deal played in both rooms of a match is one board here (its first room's): a
    simulation plays each deal at two tables itself."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise BoardFileError(f"cannot read board file '{path}': {err.strerror}") from None
    try:
        records = read_lin_records(decode_board_bytes(data), str(path), play=False)
    except LinFileError as err:
        raise BoardFileError(str(err)) from None
    rows: list[tuple[npt.NDArray[np.int16], int, int, int, str]] = []
    seen: set[tuple[bytes, int, int]] = set()
    for cut, record in records:
        number = record.board_num or len(rows) + 1
        where = f"{path}:{cut.line} (board {cut.label or number})"
        masks = np.zeros((4, 4), dtype=np.int16)
        _deal_masks(record.deal, masks, where)
        _check_cards(None, masks, where)
        dealer = int(record.dealer)  # a LIN deal (md|) always names its dealer
        vul = VULNERABILITIES.index(from_endplay_vul(record.vul) if record.vul is not None
                                    else board_vulnerability(number))
        key = (masks.tobytes(), dealer, vul)
        if key in seen:
            continue  # the other room of a deal already read
        seen.add(key)
        rows.append((masks, number, dealer, vul, f"{path}:{cut.line}"))
        if limit is not None and len(rows) >= limit:
            break
    if not rows:
        raise BoardFileError(f"{path}: no boards found (a LIN board has a deal, md|...|)")
    digest = hashlib.sha256(data).hexdigest()[:16]
    return Boards(np.array([r[0] for r in rows], dtype=np.int16),
                  np.array([r[1] for r in rows], dtype=np.int32),
                  np.array([r[2] for r in rows], dtype=np.int8),
                  np.array([r[3] for r in rows], dtype=np.int8),
                  f"lin:{digest}", places=tuple(r[4] for r in rows))


def _read_board(path: Path, row: int, line: int, board: Any, decoder: Any,
                masks: npt.NDArray[np.int16], numbers: npt.NDArray[np.int32],
                dealers: npt.NDArray[np.int8], vuls: npt.NDArray[np.int8]) -> str:
    """One board of :func:`read_pbn_boards` into row ``row`` of the arrays; its place."""
    number = board.board_num if board.board_num else row + 1
    if not 1 <= number <= _MAX_BOARD_NUMBER:
        raise BoardFileError(f"{path}:{line} (board {row + 1} of the file): [Board "
                             f"\"{_short(str(number))}\"]: a board number is 1 to "
                             f"{_MAX_BOARD_NUMBER:,}")
    where = f"{path}:{line} (board {number})"
    _check_cards(decoder.deal_tags[row] if row < len(decoder.deal_tags) else None,
                 masks[row], where)  # as written, before endplay's merged hands
    _deal_masks(board.deal, masks[row], where)
    _check_cards(None, masks[row], where)
    numbers[row] = number
    tag = decoder.dealer_tags[row] if row < len(decoder.dealer_tags) else None
    try:
        dealer = Seat.parse(tag) if tag and tag != "?" else board_dealer(number)
    except BidboxError as err:
        raise BoardFileError(f"{where}: [Dealer]: {err}") from None
    dealers[row] = int(dealer)
    vul = board.vul  # endplay falls back to the board number's cycle itself
    vuls[row] = VULNERABILITIES.index(from_endplay_vul(vul) if vul is not None
                                      else board_vulnerability(number))
    return f"{path}:{line}"


def _deal_masks(deal: Any, into: npt.NDArray[np.int16], where: str) -> None:
    """An endplay deal's four hands into ``into`` (seat by suit); a hand that is not 13
    cards is an error naming ``where``."""
    from endplay.types import Player

    for seat in Seat:
        try:
            into[int(seat)] = Hand.parse(deal[Player(int(seat))].to_pbn()).suits
        except BidboxError as err:
            raise BoardFileError(f"{where}: {seat}'s hand: {err}; a board needs all 52 "
                                 "cards, 13 in each hand") from None


def _check_cards(written: str | None, hands: npt.NDArray[np.int16], where: str) -> None:
    """A card twice in one suit as written ('AK87A', which endplay merges) or in two
    hands is an error naming the board and the card, before it reaches DDS (which
    stopped the whole batch with "Cards duplicated" and no board)."""
    if written and ":" in written:
        first, _, rest = written.partition(":")
        try:
            start: Seat | None = Seat.parse(first)
        except BidboxError:
            start = None
        for number, text in enumerate(rest.split()[:4]):
            try:
                Hand.parse(text)
            except BidboxError as err:
                if "twice" in str(err):
                    seat = f"{Seat((start + number) % 4)}'s" if start is not None else "a"
                    raise BoardFileError(f"{where}: {seat} hand: {err}") from None
    for suit in range(4):
        for rank in range(13):
            holders = [seat for seat in Seat if int(hands[int(seat), suit]) >> rank & 1]
            if len(holders) > 1:
                card = "SHDC"[suit] + "23456789TJQKA"[rank]
                raise BoardFileError(f"{where}: the card {card} is in both {holders[0]}'s and "
                                     f"{holders[1]}'s hands")


def from_endplay_vul(vul: Any) -> Vulnerability:
    """bidbox's vulnerability for endplay's ``Vul``."""
    from endplay.types import Vul

    return {Vul.none: Vulnerability.NONE, Vul.ns: Vulnerability.NS, Vul.ew: Vulnerability.EW,
            Vul.both: Vulnerability.BOTH}[vul]


def to_endplay_vul(vul: Vulnerability) -> Any:
    """endplay's ``Vul`` for a vulnerability (for scoring and par)."""
    from endplay.types import Vul

    return {Vulnerability.NONE: Vul.none, Vulnerability.NS: Vul.ns,
            Vulnerability.EW: Vul.ew, Vulnerability.BOTH: Vul.both}[vul]


def write_pbn_boards(boards: Boards, path: Path) -> None:
    """Write boards with ``[Board]``, ``[Dealer]``, ``[Vulnerable]`` and ``[Deal]`` (endplay)."""
    from endplay.parsers import pbn
    from endplay.types import Board, Deal, Player

    records = [Board(Deal(boards.pbn(row)), board_num=int(boards.numbers[row]),
                     vul=to_endplay_vul(boards.vul(row)),
                     dealer=Player(int(boards.dealer(row))))
               for row in range(len(boards))]
    try:
        write_file(path, pbn.dumps(records))  # whole or not at all: never a cut-short board
    except OSError as err:
        raise BoardFileError(f"cannot write '{path}': {describe_error(err)} (nothing "
                             "written there)") from None


__all__ = [
    "BYTES_PER_DEALT_BOARD",
    "BYTES_PER_PLAYED_BOARD",
    "MAX_BOARDS",
    "MAX_SEED",
    "VULNERABILITIES",
    "BoardFileError",
    "Boards",
    "DealConstraintError",
    "available_memory",
    "board_dealer",
    "board_vulnerability",
    "check_deal_arguments",
    "deal_boards",
    "from_endplay_vul",
    "north_filter",
    "read_board_file",
    "read_lin_deals",
    "read_pbn_boards",
    "to_endplay_vul",
    "write_pbn_boards",
]
