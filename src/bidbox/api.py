"""The Python API: load a system, bid a hand, explain an auction, lint and check it.

One facade over the layers, so a library user needs ``import bidbox`` and nothing
else; the CLI is a thin layer over the same functions. It sits where the CLI sits
(above engine, rules and verify) and keeps the compiled ``bidbox.lang.System``
reachable as :attr:`System.compiled` for anything this module does not wrap.

Inputs may be the core types or their notations (a hand as PBN ``S.H.D.C``, an auction
as ``"1NT P 2C"``, a seat as ``"N"``, vulnerability as ``"ns"``); wrong input raises a
:class:`~bidbox.errors.BidboxError` that quotes it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeAlias

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import Call
from bidbox.core.findings import Finding
from bidbox.core.hand import Hand
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.batch import bid_batch
from bidbox.engine.bidder import BidResult, choose_call
from bidbox.engine.decide import PLACEMENT
from bidbox.engine.explain import CallExplanation, SeatKnowledge, explain
from bidbox.engine.explain import Explanation as EngineExplanation
from bidbox.engine.reasons import Reason, explain_choice
from bidbox.errors import AuctionEndedError as AuctionEndedError
from bidbox.errors import DealError as DealError
from bidbox.errors import NotationError, did_you_mean
from bidbox.errors import TableMismatchError as TableMismatchError
from bidbox.errors import UnknownRegulationError as UnknownRegulationError
from bidbox.evaluate.dealer import DealBatch
from bidbox.lang.compiler import compile_text
from bidbox.lang.constraints import Constraint
from bidbox.lang.loader import load_system as compile_system
from bidbox.lang.loader import parse_options
from bidbox.lang.system import CallEntry, Forcing
from bidbox.lang.system import System as CompiledSystem
from bidbox.rules import REGULATIONS
from bidbox.rules.alerts import (
    alert_rule,
    bid_alert_json,
    call_alert_json,
    decide_alerts,
    decide_call_alert,
    explanation_alert_json,
)
from bidbox.rules.card import convention_card
from bidbox.rules.regulation import AlertDecision, CheckReport, Regulation
from bidbox.verify.lint import lint_system

HandLike: TypeAlias = Hand | str
AuctionLike: TypeAlias = Auction | str
SeatLike: TypeAlias = Seat | str
VulLike: TypeAlias = Vulnerability | str
RegulationLike: TypeAlias = Regulation | str
OptionsLike: TypeAlias = Mapping[str, str | bool] | Sequence[str]


# --- coercion of inputs -------------------------------------------------------------
def _seat(value: SeatLike) -> Seat:
    if isinstance(value, Seat):
        return value
    if isinstance(value, str):
        return Seat.parse(value)
    raise TypeError(f"a seat is a Seat or 'N', 'E', 'S', 'W', not {value!r}")


def _vul(value: VulLike) -> Vulnerability:
    if isinstance(value, Vulnerability):
        return value
    if isinstance(value, str):
        return Vulnerability.parse(value)
    raise TypeError(f"vulnerability is a Vulnerability or 'none', 'ns', 'ew', 'both', "
                    f"not {value!r}")


def _hand(value: HandLike) -> Hand:
    if isinstance(value, Hand):
        return value
    if isinstance(value, str):
        return Hand.parse(value)
    raise TypeError(f"a hand is a Hand or a PBN string 'S.H.D.C', not {value!r}")


def _auction(value: AuctionLike, dealer: SeatLike | None, vul: VulLike | None) -> Auction:
    """An auction from text (dealer N and nobody vulnerable unless said) or as given.

    An Auction already carries its dealer and vulnerability; a different one given beside
    it is a mistake worth saying, not a silent choice between the two.
    """
    seat = None if dealer is None else _seat(dealer)
    vulnerability = None if vul is None else _vul(vul)
    if isinstance(value, Auction):
        if seat is not None and seat is not value.dealer:
            raise TableMismatchError(f"the auction '{value}' was dealt by {value.dealer}, "
                                     f"not {seat}: leave out dealer= or build the auction "
                                     "with that dealer")
        if vulnerability is not None and vulnerability is not value.vul:
            raise TableMismatchError(f"the auction '{value}' has vulnerability {value.vul}, "
                                     f"not {vulnerability}: leave out vul= or build the "
                                     "auction with it")
        return value
    if isinstance(value, str):
        return Auction.parse(value, Seat.N if seat is None else seat,
                             Vulnerability.NONE if vulnerability is None else vulnerability)
    raise TypeError(f"an auction is an Auction or calls as text like '1NT P 2C', "
                    f"not {value!r}")


def get_regulation(regulation: RegulationLike) -> Regulation:
    """A regulation by name ('sbu'), or the one given."""
    if not isinstance(regulation, str):
        return regulation
    key = regulation.strip().lower()
    if key not in REGULATIONS:
        raise UnknownRegulationError(f"unknown regulation '{regulation}'"
                                     f"{did_you_mean(key, REGULATIONS)}; known: "
                                     f"{', '.join(REGULATIONS)}")
    return REGULATIONS[key]


def _options(options: OptionsLike | None) -> dict[str, str | bool]:
    if options is None:
        return {}
    if isinstance(options, str):
        return parse_options([options])
    if isinstance(options, Mapping):
        return dict(options)
    return parse_options(list(options))


def parse_deal(text: str) -> dict[Seat, Hand]:
    """A PBN deal 'N:AKQ2.J54.T9.8765 ... ... ...' (hands clockwise from the first seat)."""
    head, sep, body = text.strip().partition(":")
    hands = body.split()
    if not sep or len(hands) != 4:
        raise DealError(f"cannot read deal '{text}': write the first seat, a colon and four "
                        "hands clockwise, e.g. 'N:AKQ2.J54.T9.8765 ...'")
    try:
        first = Seat.parse(head)
    except NotationError as err:
        raise DealError(f"deal '{text}': {err}") from None
    out: dict[Seat, Hand] = {}
    for k, pbn in enumerate(hands):
        try:
            out[first.after(k)] = Hand.parse(pbn)
        except NotationError as err:
            raise DealError(f"deal '{text}': {err}") from None
    for suit, letter in enumerate("SHDC"):
        seen = 0
        for seat in Seat:
            overlap = seen & out[seat].suits[suit]
            if overlap:
                card = "23456789TJQKA"[overlap.bit_length() - 1]
                raise DealError(f"deal '{text}': the {letter}{card} is in two hands")
            seen |= out[seat].suits[suit]
    return out


def deals_batch(deals: DealBatch | Sequence[str]) -> DealBatch:
    """A DealBatch as given, or one built from PBN deal strings."""
    if isinstance(deals, DealBatch):
        return deals
    if isinstance(deals, str):
        deals = [deals]
    masks = np.zeros((len(deals), 4, 4), dtype=np.int16)
    for i, text in enumerate(deals):
        try:
            hands = parse_deal(text)
        except DealError as err:
            raise DealError(f"deal {i + 1}: {err}") from None
        for seat, hand in hands.items():
            masks[i, int(seat)] = hand.suits
    return DealBatch(masks)


def _partner_shows(auction: Auction, systems: Mapping[Side, CompiledSystem], seat: Seat
                   ) -> str | None:
    """What partner's calls have shown, as ``explain`` states it, for a placement's reason;
    None when partner has not called or the calls contradict each other. Worked out only
    here (one hand, a player reading): the batch bidder never asks."""
    if not any(auction.seat_of(i) is seat.partner for i in range(len(auction.calls))):
        return None
    known = explain(auction, systems).knowledge[seat.partner]
    text = known.statement
    if not known.consistent or not text or text == "nothing shown":
        return None
    return text


# --- results -----------------------------------------------------------------------
@dataclass(frozen=True)
class Bid:
    """The call a system prescribes, with the regulation's alert decision merged in.

    ``result`` is the engine's :class:`~bidbox.engine.BidResult` (its ``alert`` is the
    system file's default); ``decision`` is the regulation's, and :attr:`alert` follows it.
    """

    seat: Seat
    auction: Auction  # the auction before the call
    result: BidResult
    decision: AlertDecision
    why: Reason | None = None  # the hand's features that decided it, in words
    partner_shows: str | None = None  # a placement's view of partner, as explain says it

    @property
    def call(self) -> Call:
        return self.result.call

    @property
    def meaning(self) -> str:
        return self.result.meaning

    @property
    def forcing(self) -> Forcing | None:
        return self.result.forcing

    @property
    def fallback(self) -> bool:
        """Whether the notes had no call here and judgement (base or placement) chose one."""
        return self.result.fallback

    @property
    def reason(self) -> str:
        """Why: the hand's features that decided the call and the meaning they fit
        ("13 HCP, 4-3-3-3, balanced: 1NT shows 12-14 balanced"), and where the choice was
        close, the call tried just before and what the hand lacked for it."""
        return self.why.text if self.why is not None else self.result.reason

    @property
    def reason_features(self) -> dict[str, object]:
        """The hand's measures that the deciding meaning read (HCP and shape always)."""
        return dict(self.why.features) if self.why is not None else {}

    @property
    def entry(self) -> CallEntry | None:
        return self.result.entry

    @property
    def tags(self) -> tuple[str, ...]:
        return self.result.entry.tags if self.result.entry else ()

    @property
    def source(self) -> str | None:
        """Where the call came from (system, base, placement), when the engine says."""
        value = getattr(self.result, "source", None)
        return None if value is None else str(value)

    @property
    def alert(self) -> bool:
        return self.decision.alert

    @property
    def alert_rule(self) -> str:
        return alert_rule(self.decision)

    @property
    def stop_card(self) -> bool:
        return self.decision.stop_card

    def to_json(self) -> dict[str, object]:
        """The form ``bidbox bid --json`` prints (its keys are a public contract)."""
        data = replace(self.result, alert=self.decision.alert).to_json()
        if "source" not in data and self.source is not None:
            data["source"] = self.source
        data["reason"] = self.reason
        data["reason_features"] = self.reason_features
        if self.why is not None and self.why.closest is not None:
            data["reason_closest"] = self.why.closest
        if self.partner_shows is not None:
            data["partner_shows"] = self.partner_shows
        return bid_alert_json(data, self.decision)

    def __str__(self) -> str:
        return str(self.call)

    def __repr__(self) -> str:
        return f"<Bid {self.seat} {self.call} after '{self.auction}': {self.meaning}>"


@dataclass(frozen=True)
class ExplainedCall:
    """One call of an explained auction with the regulation's alert decision."""

    result: CallExplanation
    decision: AlertDecision

    @property
    def index(self) -> int:
        return self.result.index

    @property
    def seat(self) -> Seat:
        return self.result.seat

    @property
    def call(self) -> Call:
        return self.result.call

    @property
    def entry(self) -> CallEntry | None:
        return self.result.entry

    @property
    def meaning(self) -> str:
        return self.result.meaning

    @property
    def source(self) -> str | None:
        """"system", "base", or None for a call neither defines (judgement's)."""
        return self.result.source

    @property
    def forcing(self) -> Forcing | None:
        return self.result.forcing

    @property
    def fallback(self) -> bool:
        return self.result.fallback

    @property
    def denies(self) -> tuple[Call, ...]:
        """The calls tried before this one that the hand did not fit."""
        return self.result.denies

    @property
    def note(self) -> str | None:
        return self.result.note

    @property
    def denial_words(self) -> tuple[str, ...]:
        """What the call denies that tells something, as what the hand lacks
        ("denies 12-14 HCP, balanced"), most telling first."""
        return self.result.denial_words

    @property
    def description(self) -> str | None:
        """The description as the system file writes it (:attr:`meaning` is what a
        player reads: errata readings left out, a convention's suits named)."""
        return self.result.description

    @property
    def shows(self) -> Constraint | None:
        """What the call shows, negative inference included (None: outside the system)."""
        return self.result.effective

    @property
    def alert(self) -> bool:
        return self.decision.alert

    @property
    def alert_rule(self) -> str:
        return alert_rule(self.decision)

    @property
    def stop_card(self) -> bool:
        return self.decision.stop_card

    def to_json(self) -> dict[str, object]:
        return call_alert_json(self.result.to_json(), self.decision)

    def __str__(self) -> str:
        return f"{self.seat} {self.call}: {self.meaning}"

    def __repr__(self) -> str:
        return f"<ExplainedCall {self.index + 1} {self.seat} {self.call}: {self.meaning}>"


@dataclass(frozen=True)
class Explanation:
    """What each call of an auction shows, its alert, and what each seat is known to hold."""

    result: EngineExplanation
    decisions: tuple[AlertDecision, ...]

    @property
    def auction(self) -> Auction:
        return self.result.auction

    @property
    def calls(self) -> list[ExplainedCall]:
        return [ExplainedCall(c, d) for c, d in zip(self.result.calls, self.decisions,
                                                    strict=True)]

    @property
    def knowledge(self) -> dict[Seat, SeatKnowledge]:
        return self.result.knowledge

    @property
    def partnerships(self) -> dict[Side, str]:
        """What both seats of a side hold together, where both have shown something."""
        return self.result.partnerships

    def __iter__(self) -> Iterator[ExplainedCall]:
        return iter(self.calls)

    def __len__(self) -> int:
        return len(self.result.calls)

    def __getitem__(self, index: int) -> ExplainedCall:
        return ExplainedCall(self.result.calls[index], self.decisions[index])

    def to_json(self) -> dict[str, object]:
        """The form ``bidbox explain --json`` prints (its keys are a public contract)."""
        return explanation_alert_json(self.result, self.decisions)

    def __repr__(self) -> str:
        return f"<Explanation of '{self.auction}' ({len(self)} calls)>"


# --- the system --------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class System:
    """A compiled bidding system and what can be asked of it.

    Where an auction has two sides, this system plays the side that matters (the seat
    to call for :meth:`bid`, North-South for :meth:`explain` and :meth:`bid_deals`);
    ``opponents`` plays the other, by default this same system.
    """

    compiled: CompiledSystem
    origin: str | None = None  # the name or path it was loaded from

    @classmethod
    def from_text(cls, text: str, file: str = "<text>",
                  options: OptionsLike | None = None) -> System:
        """Compile system-language text (``file`` names it in error messages)."""
        return cls(compile_text(text, file, _options(options)))

    @property
    def name(self) -> str:
        return self.compiled.name

    @property
    def title(self) -> str:
        return self.compiled.title

    @property
    def options(self) -> dict[str, str | bool]:
        """The options it was compiled with, every declared option included."""
        return dict(self.compiled.selected)

    def _sides(self, ours: Side, opponents: System | None) -> dict[Side, CompiledSystem]:
        theirs = (opponents or self).compiled
        other = Side.EW if ours is Side.NS else Side.NS
        return {ours: self.compiled, other: theirs}

    def bid(self, hand: HandLike, auction: AuctionLike = "", *, dealer: SeatLike | None = None,
            vul: VulLike | None = None, opponents: System | None = None,
            regulation: RegulationLike = "sbu", describe_partner: bool = True) -> Bid:
        """The call for ``hand`` held by the seat to call next in ``auction``.

        ``describe_partner``: a placement's reason says first what partner's calls have
        shown, as ``explain`` states it; that costs an explanation of the auction (about
        0.2-0.3 s), which a caller that bids many calls in a row (the web table's robots)
        may leave out."""
        the_hand = _hand(hand)
        the_auction = _auction(auction, dealer, vul)
        if the_auction.is_ended:
            raise AuctionEndedError(f"the auction '{the_auction}' has ended: there is no "
                                    "call to make")
        seat = the_auction.next_seat
        systems = self._sides(seat.side, opponents)
        result = choose_call(the_hand, the_auction, systems)
        decision = decide_call_alert(the_auction, result.call, systems,
                                     get_regulation(regulation))
        shown = (_partner_shows(the_auction, systems, seat)
                 if describe_partner and result.source == PLACEMENT else None)
        why = explain_choice(the_hand, the_auction, systems, result.entry, result.source,
                             result.reason, shown)
        return Bid(seat, the_auction, result, decision, why, shown)

    def explain(self, auction: AuctionLike, *, dealer: SeatLike | None = None,
                vul: VulLike | None = None, opponents: System | None = None,
                regulation: RegulationLike = "sbu") -> Explanation:
        """Every call of ``auction`` read with North-South playing this system."""
        the_auction = _auction(auction, dealer, vul)
        systems = self._sides(Side.NS, opponents)
        result = explain(the_auction, systems)
        return Explanation(result, tuple(decide_alerts(result, get_regulation(regulation))))

    def bid_deals(self, deals: DealBatch | Sequence[str], dealer: SeatLike = Seat.N,
                  vul: VulLike = Vulnerability.NONE, *, opponents: System | None = None
                  ) -> list[Auction]:
        """The auction of every deal, all four seats bid by the batch bidder at once.

        ``deals`` is a :class:`~bidbox.evaluate.DealBatch` or PBN deal strings; the
        auctions come back in the same order.
        """
        batch = deals_batch(deals)
        result = bid_batch(batch, self._sides(Side.NS, opponents), _seat(dealer), _vul(vul))
        return result.auctions()

    def lint(self) -> list[Finding]:
        """Calls no hand can reach and hands with no call, each with a witness."""
        return lint_system(self.compiled)

    def check(self, regulation: RegulationLike = "sbu") -> CheckReport:
        """The licensing verdict under ``regulation``, with a counterexample per violation."""
        return get_regulation(regulation).check(self.compiled)

    def card(self, regulation: RegulationLike = "sbu") -> dict[str, object]:
        """Convention-card content generated from the meanings."""
        return convention_card(self.compiled, get_regulation(regulation))

    def __repr__(self) -> str:
        origin = self.origin if self.origin is not None else self.name
        options = {k: v for k, v in self.compiled.selected.items()
                   if k in self.compiled.options and v != self.compiled.options[k].default}
        extra = f", options={options!r}" if options else ""
        return f"load_system({origin!r}{extra})"


def load_system(name_or_path: str | os.PathLike[str],
                options: OptionsLike | None = None) -> System:
    """A shipped system by name ('sbu-level1', 'tosr') or a ``.bbx`` file, compiled.

    ``options`` is a mapping (``{"weak-twos": True, "nt-range": "15-17"}``) or the CLI's
    ``NAME[=VALUE]`` words.
    """
    origin = os.fspath(name_or_path)
    return System(compile_system(origin, _options(options)), origin)


def as_system(system: System | CompiledSystem | str | os.PathLike[str]) -> System:
    """The facade for a System, a compiled system, or a name or path to load."""
    if isinstance(system, System):
        return system
    if isinstance(system, CompiledSystem):
        return System(system)
    return load_system(system)


def check(system: System | CompiledSystem | str | os.PathLike[str],
          regulation: RegulationLike = "sbu") -> CheckReport:
    """The licensing verdict of ``system`` under ``regulation``."""
    return as_system(system).check(regulation)


__all__ = [
    "AuctionEndedError", "Bid", "DealError", "ExplainedCall", "Explanation",
    "System", "TableMismatchError", "UnknownRegulationError", "as_system", "check",
    "deals_batch", "get_regulation", "load_system", "parse_deal",
]
