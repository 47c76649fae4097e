"""The Scottish Bridge Union regulation: alerting (2.3), the Stop card (2.4 §4) and
licensing levels 1-5 (sections 3-8), decided from the compiled meanings.

Readings where the handbook contradicts itself are stated where they are applied:
- Doubles follow the May 2002 amendment (2.3.4 §2, also in the foreword §3): a takeout
  double of a natural suit bid at the one to three level, before partner has called or
  after partner has only passed, is the default and not alerted; every other double
  defaults to penalty; any other meaning is alerted. Examples in 2.3.4 §7-§9 written
  before the amendment ((1H) X takeout alerted, (3S) X penalty not alerted, a reopening
  takeout double alerted) are read by the amended rule.
- "Perhaps less if the suit is good" (4 §2) does not relax the Rule of 18, which 3.3 §3
  and 6.2 §2 apply to every opening of one of a suit at every level.
- A call is read in its auction (2.2 §1): a bid in a suit its side has shown (three or
  more cards) or agreed offers to play there, whatever its own constraint says; so does
  completing partner's transfer (2.3.2 §2). After partner's relay or ask only an agreed
  suit counts, since the bid answers a question. The hand types of overall strength
  that a natural response or rebid also admits ("or 16+ with nothing else to bid") do
  not make it conventional (2.2 §1; 2.3.6 §1 leaves a forcing new suit unalerted).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import product
from typing import ClassVar

from bidbox.core.auction import Auction
from bidbox.core.calls import PASS, Call, CallKind, Strain
from bidbox.core.findings import Finding
from bidbox.core.seats import Seat, Vulnerability
from bidbox.engine.explain import SUIT_KEYS
from bidbox.engine.judgement import judged_control_bid, judged_convention
from bidbox.engine.predicates import TableContext
from bidbox.engine.profiles import EXACT_MEASURES
from bidbox.engine.walk import guard_holds, table_context, tried_before
from bidbox.errors import BidboxError
from bidbox.lang.constraints import (
    ANY,
    Constraint,
    Context,
    Flag,
    MeasureRange,
    PatternIs,
    conjoin,
    disjoin,
    negate,
    terms,
)
from bidbox.lang.system import CallEntry, Forcing, Node, System
from bidbox.rules.meaning import (
    find_hand,
    hand_types,
    is_strong,
    shape_stats,
    share_where,
    stats,
)
from bidbox.rules.regulation import AlertDecision, CallSituation, CheckReport, licence_finding

CONVENTIONAL_TAGS = frozenset({
    "artificial", "relay", "ask", "transfer", "puppet", "control", "cue", "cuebid", "stayman",
    "blackwood", "gerber", "keycard", "michaels", "unusual", "splinter", "multi", "denial",
    "step", "inquiry", "exclusion", "game-try", "rescue", "baron", "fourth-suit",
})
CONTROL_TAGS = frozenset({"control", "cue", "cuebid", "splinter"})
TAKEOUT_TAGS = frozenset({"takeout", "negative", "responsive"})
PENALTY_TAGS = frozenset({"penalty", "lead-directing", "lightner"})

SBU_BALANCED = PatternIs(((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2)))
SBU_NT_EXTENDED = PatternIs(((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2), (5, 4, 2, 2),
                             (6, 3, 2, 2)))
STRONG = disjoin([MeasureRange("hcp", 16, None), MeasureRange("playing_tricks", 8, None)])


def _two_suited_54() -> Constraint:
    """At least 5-4 in two suits (5440 included): what Michaels and the unusual NT show."""
    from bidbox.lang.constraints import SuitRange

    pairs = []
    for a in SUIT_KEYS:
        for b in SUIT_KEYS:
            if a != b:
                pairs.append(conjoin([SuitRange("lengths", a, 5, None),
                                      SuitRange("lengths", b, 4, None)]))
    return disjoin(pairs)


TWO_SUITED_54 = _two_suited_54()


def tags_of(entry: CallEntry | None) -> set[str]:
    """Tags without their suit argument: 'transfer(H)' counts as 'transfer'."""
    if entry is None:
        return set()
    return {t.split("(")[0] for t in entry.tags}


def is_jump(before: Auction, call: Call) -> bool:
    """A bid at a higher level than the minimum for its strain (2.4 §4)."""
    if not call.is_bid or call.strain is None:
        return False
    last = before.last_bid
    if last is None or last.strain is None:
        return call.level > 1
    minimum = last.level if call.strain > last.strain else last.level + 1
    return call.level > minimum


@dataclass(frozen=True)
class Reading:
    natural: bool
    reason: str


# Measures of overall strength: a hand type that reads only these says nothing about the
# strain bid ("an agreement as to overall strength does not make a call a convention",
# 2.2 §1).
STRENGTH_MEASURES = frozenset({"hcp", "controls", "aces", "kings", "playing_tricks",
                               "quick_tricks", "ltc", "roman_losers", "context"})
# Tags a completion of partner's transfer may carry and still be natural (2.3.2 §2).
COMPLETION_TAGS = frozenset({"artificial", "answer"})
# Partner's calls that ask a question: the next bid answers it rather than naming a strain.
ASKING_TAGS = frozenset({"relay", "ask", "inquiry", "puppet"})


def _is_strength_only(c: Constraint) -> bool:
    return c != ANY and c.measures() <= STRENGTH_MEASURES


def shape_types(entry: CallEntry, shown: Constraint, ctx: TableContext,
                after_a_bid: bool) -> list[Constraint]:
    """The hand types that make up what a call shows about shape, each with the call's
    negative inference (``shown``).

    A natural call that also serves the stronger hands with no better call ("four or
    more diamonds, or 16+ with nothing else to bid") is still natural: the catch-all is
    an agreement on overall strength only (2.2 §1), and a forcing new suit that a strong
    hand may make stays natural (2.3.6 §1). So after a bid, hand types that read only
    strength and start no lower than the shaped ones are set aside; an opening keeps them
    (a 2C that may be any 23+ hand is the strong artificial opening, not a club suit).
    """
    raw = hand_types(entry.shows)
    pairs = [(r, conjoin([r, shown])) for r in raw]
    pairs = [(r, t) for r, t in pairs if shape_stats(t, ctx).possible]
    if not pairs:
        return [shown]
    shaped = [t for r, t in pairs if not _is_strength_only(r)]
    strength = [t for r, t in pairs if _is_strength_only(r)]
    if after_a_bid and shaped and strength:
        floor = min(shape_stats(t, ctx).hcp[0] for t in shaped)
        if all(shape_stats(t, ctx).hcp[0] >= floor for t in strength):
            return shaped
    return [t for _, t in pairs]


def _shortest(types: list[Constraint], ctx: TableContext, suit_index: int) -> int:
    return min(shape_stats(t, ctx).min_length(suit_index) for t in types)


def read_bid(entry: CallEntry | None, call: Call, situation: CallSituation | None,
             ctx: TableContext, meaning: Constraint | None = None) -> Reading:
    """Natural or conventional by the definition of 2.2 §1-§2, from the meaning (with its
    negative inference when known: the hands that really make the call) read in its
    auction when ``situation`` is given: a call in a strain the partnership has already
    shown or agreed shows willingness to play there, whatever its own constraint says."""
    if entry is None:
        # Judgement's Blackwood and its answers are conventions, as the handbook's own
        # example of an alerted 4NT says; every other judged call is natural.
        judged = (judged_convention(situation.auction, situation.entries, situation.index)
                  if situation is not None else None)
        if judged is not None:
            return Reading(False, f"conventional (judgement's {judged})")
        return Reading(True, "outside the system: taken as natural")
    tags = tags_of(entry)
    if situation is not None:
        completed = _completes_transfer(situation)
        if completed is not None and not (tags - COMPLETION_TAGS) & CONVENTIONAL_TAGS:
            return Reading(True, f"completes partner's transfer to {completed}: willingness "
                                 "to play there (2.3.2 §2)")
    conventional = tags & CONVENTIONAL_TAGS
    if conventional:
        return Reading(False, f"conventional ({sorted(conventional)[0]})")
    if entry.shows == ANY:
        return Reading(True, "shows nothing but willingness to play there")
    if meaning is None:
        meaning = situation.meaning() if situation is not None else None
    shown = meaning if meaning is not None else entry.shown
    st = shape_stats(shown, ctx)
    if not st.possible:
        return Reading(True, "no hand fits this meaning")
    if call.strain is Strain.NT:
        if situation is not None and _is_forcing_nt_response(situation):
            return Reading(False, "a forcing 1NT response to an opening of one of a suit")
        long = [SUIT_KEYS[i] for i in range(4) if st.min_length(i) >= 5]
        if long:
            return Reading(False, f"a no-trump bid that shows {'/'.join(long)} length")
        if share_where(shown, Flag("balanced"), ctx) == 0.0:
            return Reading(False, "a no-trump bid that shows an unbalanced hand type")
        return Reading(True, "a no-trump bid showing willingness to play there")
    assert call.strain is not None
    k = call.strain.suit_index
    after_a_bid = situation is not None and _first_bid(situation) >= 0
    types = shape_types(entry, shown, ctx, after_a_bid)
    shortest = _shortest(types, ctx, k)
    already = _suits_bid_by(situation) if situation is not None else set()
    others = [SUIT_KEYS[i] for i in range(4)
              if i != k and _shortest(types, ctx, i) >= 4 and SUIT_KEYS[i] not in already]
    if others and "canape" not in tags:
        return Reading(False, f"promises {'/'.join(others)} as well as {call.strain}")
    if shortest >= 3:
        return Reading(True, f"shows {shortest}+ cards in {call.strain}")
    agreed = _shown_by_partnership(situation, k) if situation is not None else None
    if agreed is not None:
        return Reading(True, f"willingness to play in {call.strain}, {agreed} (2.2 §1)")
    return Reading(False, f"may hold only {shortest} card(s) in {call.strain}")


def _completes_transfer(s: CallSituation) -> str | None:
    """The suit of partner's transfer that this bid completes (or super-accepts), if any:
    partner's last call carries a ``transfer(X)`` tag and this is a bid in X."""
    partner_last = s.index - 2
    if partner_last < 0 or not s.call.is_bid or s.call.strain is None:
        return None
    entry = s.entries[partner_last]
    if entry is None:
        return None
    wanted = f"transfer({s.call.strain})"
    return str(s.call.strain) if wanted in entry.tags else None


def _shown_by_partnership(s: CallSituation, suit_index: int) -> str | None:
    """Why a bid in this suit shows willingness to play there, when the caller's side has
    already shown three or more cards in it (read as ``read_bid`` reads shape), or None.

    After partner's relay or ask the bid answers a question (a step), so there the suit
    must be agreed: shown by both hands, not only by the one answering."""
    seat = s.auction.seat_of(s.index)
    opening = _first_bid(s)
    shown = {seat: 0, seat.partner: 0}
    for i in range(s.index):
        who = s.auction.seat_of(i)
        entry, meaning = s.entries[i], s.meaning(i)
        if who not in shown or entry is None or meaning is None:
            continue
        ctx = table_context(s.auction, i)
        if not shape_stats(meaning, ctx).possible:
            continue
        n = _shortest(shape_types(entry, meaning, ctx, 0 <= opening < i), ctx, suit_index)
        shown[who] = max(shown[who], n)
    mine, partners = shown[seat], shown[seat.partner]
    if mine >= 3 and partners >= 3:
        return f"agreed: partner has shown {partners}+ cards, this hand {mine}+"
    partner_last = s.index - 2
    asked = partner_last >= 0 and tags_of(s.entries[partner_last]) & ASKING_TAGS
    if asked:
        return None
    if partners >= 3:
        return f"where partner has shown {partners}+ cards"
    if mine >= 3:
        return f"where this hand has shown {mine}+ cards"
    return None


def _suits_bid_by(s: CallSituation) -> set[str]:
    seat = s.auction.seat_of(s.index)
    out = set()
    for i in range(s.index):
        c = s.auction.calls[i]
        if s.auction.seat_of(i) is seat and c.is_bid and c.strain is not None \
                and c.strain is not Strain.NT:
            out.add(str(c.strain))
    return out


def _in_their_suit(s: CallSituation) -> bool:
    """A bid in a strain the opponents have bid: a cue bid of their suit is conventional
    (2.3.2 §1), not the control-showing cue bid of slam bidding (2.3.3 §1)."""
    seat = s.auction.seat_of(s.index)
    return any(s.auction.calls[i].is_bid and s.auction.calls[i].strain is s.call.strain
               for i in range(s.index) if s.auction.seat_of(i).side is not seat.side)


def _is_game(call: Call) -> bool:
    if call.strain is None:
        return False
    if call.strain is Strain.NT:
        return call.level >= 3
    return call.level >= (5 if call.strain.is_minor else 4)


def _first_bid(s: CallSituation) -> int:
    """Position of the opening bid before this call, or -1."""
    return next((i for i in range(s.index) if s.auction.calls[i].is_bid), -1)


def _is_forcing_nt_response(s: CallSituation) -> bool:
    entry = s.entry
    if entry is None or s.call != Call.parse("1NT") or entry.forcing is None:
        return False
    opening = _first_bid(s)
    if opening < 0:
        return False
    seat = s.auction.seat_of(s.index)
    opened_by_partner = s.auction.seat_of(opening) is seat.partner
    first_call_of_mine = not any(s.auction.seat_of(i) is seat and s.auction.calls[i].is_bid
                                 for i in range(s.index))
    open_call = s.auction.calls[opening]
    return (opened_by_partner and first_call_of_mine and open_call.level == 1
            and open_call.strain is not Strain.NT and entry.forcing.is_forcing)


class SBU:
    """The Scottish Bridge Union regulation (seed 000)."""

    name: str = "sbu"
    title: str = "Scottish Bridge Union: alerting and licensing levels 1-5"
    levels: tuple[int, ...] = (1, 2, 3, 4, 5)

    # --- alerting ------------------------------------------------------------------
    def alert(self, situation: CallSituation) -> AlertDecision:
        decision = self._rule(situation)
        decision = replace(decision, stop_card=is_jump(situation.before, situation.call))
        entry = situation.entry
        if entry is not None and entry.alert is not None and entry.alert != decision.alert:
            written = "alert" if entry.alert else "no alert"
            decision = replace(decision, alert=entry.alert, override=True,
                               reason=f"{decision.reason}; the system file says {written} "
                                      f"({entry.location})")
        return decision

    def _rule(self, s: CallSituation) -> AlertDecision:
        call, entry = s.call, s.entry
        if call.kind is CallKind.PASS:
            if entry is not None and entry.is_forcing_pass:
                return AlertDecision(True, "forcing pass", "2.3.4 §6",
                                     "a pass that asks partner to bid or double")
            return AlertDecision(False, "natural pass", "2.3.4 §6",
                                 "a pass that suggests playing in the last contract")
        if call.kind is CallKind.DOUBLE:
            return self._double(s)
        if call.kind is CallKind.REDOUBLE:
            tags = tags_of(entry)
            odd = tags & (CONVENTIONAL_TAGS | TAKEOUT_TAGS | {"optional"})
            if odd:
                return AlertDecision(True, "conventional redouble", "2.3.4 §5",
                                     f"a redouble that is {sorted(odd)[0]}")
            return AlertDecision(False, "natural redouble", "2.3.4 §5",
                                 "a redouble showing willingness to play there")
        reading = read_bid(entry, call, s, s.context)
        if not reading.natural:
            control = bool(tags_of(entry) & CONTROL_TAGS) or (
                entry is None and judged_control_bid(s.auction, s.entries, s.index))
            if control and not _in_their_suit(s):
                return AlertDecision(True, "cue-bid", "2.3.3 §1", reading.reason)
            return AlertDecision(True, "conventional", "2.3.2 §1", reading.reason)
        weak = self._unexpectedly_weak(s)
        if weak:
            return AlertDecision(True, "unexpectedly weak", "2.3.5 §1", weak)
        if self._forcing_raise(s):
            return AlertDecision(True, "forcing raise", "2.3.6 §1",
                                 "a direct raise of an opening one of a suit that is forcing")
        return AlertDecision(False, "natural", "2.3.2 §1", reading.reason)

    def _double(self, s: CallSituation) -> AlertDecision:
        before = s.before
        last_i = before.last_bid_index()
        doubled = before.calls[last_i]
        seat = s.auction.seat_of(s.index)
        partner_calls = [before.calls[i] for i in range(s.index) if before.seat_of(i)
                         is seat.partner]
        partner_only_passed = all(c.kind is CallKind.PASS for c in partner_calls) and all(
            not (e is not None and e.forcing is not None and e.forcing.is_forcing)
            for i, e in enumerate(s.entries[:s.index]) if before.seat_of(i) is seat.partner)
        their = s.entries[last_i]
        # The doubled bid read in its own auction, as its side's alert would read it.
        their_ctx = table_context(s.auction, last_i)
        their_natural = read_bid(their, doubled, replace(s, index=last_i, context=their_ctx),
                                 their_ctx).natural
        takeout_context = (doubled.strain is not Strain.NT and doubled.level <= 3
                           and their_natural and partner_only_passed)
        default = "takeout" if takeout_context else "penalty"
        tags = tags_of(s.entry)
        if "optional" in tags:
            kind = "optional"
        elif tags & TAKEOUT_TAGS:
            kind = "takeout"
        elif tags & PENALTY_TAGS:
            kind = "penalty"
        elif tags & CONVENTIONAL_TAGS:
            kind = sorted(tags & CONVENTIONAL_TAGS)[0]
        elif s.entry is None:
            kind = "penalty"  # judgement doubles for penalty only (PENALTY_DOUBLE_TEXT)
        else:
            kind = default
        where = (f"{doubled} is a natural suit bid at the {doubled.level} level and partner has "
                 "not shown values" if takeout_context else
                 f"outside the takeout cases ({doubled} "
                 f"{'is no-trump' if doubled.strain is Strain.NT else ''}"
                 f"{'is above the three level' if doubled.level > 3 else ''}"
                 f"{'' if their_natural else 'is conventional'}"
                 f"{'' if partner_only_passed else ', partner has called'})")
        where = re.sub(r"\s+", " ", where).replace("( ", "(").replace(" )", ")")
        if kind == default:
            return AlertDecision(False, f"{default} double (default)", "2.3.4 §2",
                                 f"the default meaning here: {where}")
        if kind == "optional":
            return AlertDecision(True, "optional double", "2.3.4 §3",
                                 "partner passes if suitable for defence, bids otherwise")
        return AlertDecision(True, "double deviating from the default", "2.3.4 §2",
                             f"a {kind} double where {default} is the default: {where}")

    def _unexpectedly_weak(self, s: CallSituation) -> str | None:
        entry, call = s.entry, s.call
        if entry is None or call.strain is None:
            return None
        shown = s.meaning() or entry.shown
        st = stats(shown, s.context)
        if not st.possible:
            return None
        before = s.before
        seat = s.auction.seat_of(s.index)
        opening_i = _first_bid(s)
        jump = is_jump(before, call)
        if opening_i < 0:
            if call.level == 2 and call.strain is not Strain.NT and st.hcp[0] < 12 \
                    and not is_strong(shown, s.context):
                return f"a natural two-level opening with as few as {st.hcp[0]} HCP (weak two)"
            return None
        partner_bids = [before.calls[i] for i in range(s.index)
                        if before.seat_of(i) is seat.partner and before.calls[i].is_bid]
        partner_suits = {c.strain for c in partner_bids}
        opponents_suits = {before.calls[i].strain for i in range(s.index)
                           if before.seat_of(i).side is not seat.side and before.calls[i].is_bid}
        if not jump or call.strain is Strain.NT:
            return None
        if call.strain in partner_suits:
            if st.hcp[1] <= 9:
                return f"a jump raise with at most {st.hcp[1]} HCP (weaker than invitational)"
            return None
        # Partner's double counts as partner having called: a jump answer to a takeout
        # double is an answer, not an overcall (2.3.5 §1 lists jump overcalls by the hand
        # that first comes in, and jump shifts by the partner of a hand that has called).
        partner_called = [before.calls[i] for i in range(s.index)
                          if before.seat_of(i) is seat.partner
                          and before.calls[i].kind is not CallKind.PASS]
        our_side_called = any(before.calls[i].kind is not CallKind.PASS for i in range(s.index)
                              if before.seat_of(i).side is seat.side)
        if not our_side_called and s.auction.seat_of(opening_i).side is not seat.side:
            if st.hcp[0] < 12:
                return f"a jump overcall with as few as {st.hcp[0]} HCP (weak jump overcall)"
            return None
        # A jump to game that signs off ("six hearts: to play" opposite 2NT) is what the
        # call is expected to be, not a weak jump shift.
        to_play = entry.forcing is Forcing.SIGNOFF and _is_game(call)
        if partner_called and call.strain not in opponents_suits and st.hcp[1] <= 10 \
                and not to_play:
            return f"a jump in a new suit with at most {st.hcp[1]} HCP (weak jump shift)"
        return None

    def _forcing_raise(self, s: CallSituation) -> bool:
        entry, call = s.entry, s.call
        if entry is None or entry.forcing is None or not entry.forcing.is_forcing:
            return False
        opening_i = _first_bid(s)
        if opening_i < 0:
            return False
        opening = s.auction.calls[opening_i]
        seat = s.auction.seat_of(s.index)
        mine_before = any(s.auction.seat_of(i) is seat and s.auction.calls[i].is_bid
                          for i in range(s.index))
        return (s.auction.seat_of(opening_i) is seat.partner and opening.level == 1
                and opening.strain is not Strain.NT and call.strain is opening.strain
                and not mine_before)

    # --- licensing -----------------------------------------------------------------
    def check(self, system: System) -> CheckReport:
        report = CheckReport(self.name, system.name)
        root = system.root
        one_nt = [e for e in root.ordered() if e.call == Call.parse("1NT")]
        if one_nt:
            report.findings.append(self._one_nt(one_nt, root))
        for entry in root.ordered():
            if entry.call.is_bid and entry.call != Call.parse("1NT"):
                report.findings.extend(_worst([(ctx, self._opening(entry, root, ctx))
                                               for ctx in _judged_contexts(entry, root)]))
        for node, auction in _first_overcall_nodes(root):
            for entry in node.ordered():
                if entry.call.kind is not CallKind.PASS:
                    report.findings.extend(_worst(
                        [(ctx, [self._overcall(entry, auction, node, ctx)])
                         for ctx in _judged_contexts(entry, node)]))
        report.findings.extend(self._other_conventions(system))
        report.findings.extend(self._signals(system))
        return report

    # Conventions outside openings, first overcalls and doubles: Levels 1 and 2 list the
    # ones they allow (4 §15, 5 §4-§10); from Level 3 on responses are free (foreword §6).
    _LISTED: ClassVar[dict[str, tuple[int, str, str]]] = {
        "splinter": (2, "splinter bids", "5 §5"),
        "relay": (3, "relay methods", "foreword §6, 6.1 §3"),
        "puppet": (3, "puppet methods", "foreword §6, 6.1 §3"),
        "exclusion": (3, "exclusion Blackwood", "foreword §6, 6.1 §3"),
        "keycard": (3, "key-card asks", "foreword §6, 6.1 §3"),
    }

    def _other_conventions(self, system: System) -> list[Finding]:
        seen: dict[str, Finding] = {}
        for node in system.nodes():
            if node is system.root:
                continue
            for entry in node.calls:
                for tag in sorted(tags_of(entry)):
                    if tag in self._LISTED and tag not in seen:
                        level, rule, section = self._LISTED[tag]
                        seen[tag] = licence_finding(
                            str(entry.call), entry.node.label, rule, section, level, None,
                            f"{rule} (first at {entry.node.label}, {entry.location}) are "
                            f"permitted from Level {level}", str(entry.location))
        return list(seen.values())

    def _finding(self, entry: CallEntry, auction: str, rule: str, section: str,
                 level: int | None, message: str, bad: Constraint | None = None,
                 ctx: TableContext | None = None) -> Finding:
        witness, method = None, "exact"
        if bad is not None:
            hand = find_hand(bad, ctx or _contexts(entry)[0])
            witness = hand.pbn() if hand else None
            if not bad.measures() <= EXACT_MEASURES:
                method = "sampled (dealt hands)"  # find_hand searched the dealt pool
        return licence_finding(str(entry.call), auction, rule, section, level, witness, message,
                               str(entry.location), method)

    def _opening(self, entry: CallEntry, node: Node, ctx: TableContext) -> list[Finding]:
        call = entry.call
        assert call.strain is not None
        shown, _ = effective(node, entry, ctx)
        out: list[Finding] = []
        label = "(opening)"
        if call.level == 1 and call.strain is not Strain.NT:
            below = conjoin([shown, negate(Flag("rule_of_18"))])
            if stats(below, ctx).possible or not below.measures() <= {"hcp", "lengths"}:
                hand = find_hand(below, ctx)
                if hand is not None:
                    out.append(licence_finding(
                        str(call), label, "Rule of 18", "2.2 §5, 3.3 §3, 6.2 §2", None,
                        hand.pbn(), f"opening {call} includes hands whose HCP plus two longest "
                                    "suits total 17 or less", str(entry.location),
                        "exact" if below.measures() <= EXACT_MEASURES
                        else "sampled (dealt hands)"))
            reading = read_bid(entry, call, None, ctx, shown)
            k = call.strain.suit_index
            shortest = stats(shown, ctx).min_length(k)
            short = conjoin([shown, MeasureRange("hcp", 0, 37),
                             _length_at_most(call.strain, max(shortest, 0))])
            if reading.natural and shortest >= 4:
                out.append(self._finding(entry, label, "natural opening", "4 §2", 1,
                                         f"natural {call} with {shortest}+ cards"))
            elif reading.natural and shortest == 3 and call.strain.is_minor:
                out.append(self._finding(entry, label, "prepared minor", "4 §15", 1,
                                         f"{call} may be a three-card suit"))
            elif call.strain.is_minor:
                out.append(self._finding(entry, label, "one club/diamond: any meaning",
                                         "6.2 §3", 3, f"{call}: {reading.reason}", short, ctx))
            elif reading.natural:
                out.append(self._finding(entry, label, "natural opening of a major", "6.2 §2",
                                         3, f"{call} may be a three-card suit", short, ctx))
            else:
                out.append(self._finding(entry, label, "conventional one of a major",
                                         "6.2 §9", None,
                                         f"an opening {call} may not be conventional: "
                                         f"{reading.reason}", short, ctx))
            return out
        return [self._two_level_up(entry, node, ctx)]

    def _one_nt(self, entries: list[CallEntry], node: Node) -> Finding:
        """All 1NT openings together, since the range may vary only with vulnerability."""
        label = "(opening)"
        pairs = [(e, ctx, effective(node, e, ctx)[0]) for e in entries for ctx in _contexts(e)]
        entry = entries[0]
        not_strong = negate(STRONG)
        for entry, ctx, shown in pairs:
            weak_part = conjoin([shown, not_strong])
            low = conjoin([weak_part, MeasureRange("hcp", None, 8)])
            if find_hand(low, ctx) is not None:
                return self._finding(entry, label, "1NT minimum", "3.3 §3, 6.2 §5", None,
                                     "an opening 1NT must hold at least 9 HCP", low, ctx)
            shape = conjoin([weak_part, negate(SBU_NT_EXTENDED)])
            if find_hand(shape, ctx) is not None:
                return self._finding(entry, label, "1NT balanced", "6.2 §5", None,
                                     "an opening 1NT must be balanced or a strong hand",
                                     shape, ctx)
        entry = entries[0]
        ranges: dict[tuple[bool, bool], set[tuple[int, int]]] = {}
        level1 = True
        reasons = []
        for _, ctx, each in pairs:
            st = stats(each, ctx)
            if not st.possible:
                continue
            ranges.setdefault((ctx.vul, ctx.they_vul), set()).add(st.hcp)
            if st.hcp[1] - st.hcp[0] > 2:
                level1 = False
                reasons.append(f"a {st.hcp[0]}-{st.hcp[1]} range is wider than three points")
            if find_hand(conjoin([each, negate(SBU_BALANCED)]), ctx) is not None:
                level1 = False
                reasons.append("it includes 5422/6322 or strong unbalanced hands")
        if any(len(r) > 1 for r in ranges.values()):
            level1 = False
            reasons.append("the range varies with position at the table")
        if level1:
            return self._finding(entry, label, "1NT opening", "4 §3, 4 §15", 1,
                                 "balanced with a three-point range")
        return self._finding(entry, label, "1NT opening", "6.2 §5", 3,
                             "; ".join(sorted(set(reasons))))

    def _two_level_up(self, entry: CallEntry, node: Node, ctx: TableContext) -> Finding:
        call = entry.call
        assert call.strain is not None
        label = "(opening)"
        shown, types = effective(node, entry, ctx)
        reading = read_bid(entry, call, None, ctx, shown)
        weak = [t for t in types if not is_strong(t, ctx)]
        st = stats(shown, ctx)
        if not weak:
            if call == Call.parse("2C") or reading.natural:
                return self._finding(entry, label, "strong opening", "4 §4-§6", 1,
                                     f"{call}: strong hands only")
            if call in (Call.parse("2C"), Call.parse("2D")):
                return self._finding(entry, label, "strong types", "5 §2", 2,
                                     f"{call}: any combination of strong hands")
            return self._finding(entry, label, "strong types", "6.2 §6", 3,
                                 f"{call}: strong hands")
        if reading.natural and call.strain is not Strain.NT:
            k = call.strain.suit_index
            if call.level >= 3 and st.min_length(k) >= 6:
                return self._finding(entry, label, "pre-empt", "4 §7", 1,
                                     f"natural pre-empt in {call.strain}")
            if call.level == 2 and st.min_length(k) >= 6:
                return self._finding(entry, label, "weak two", "5 §3", 2,
                                     f"natural weak two in {call.strain}")
        if reading.natural and call.strain is Strain.NT and st.hcp[0] >= 16:
            return self._finding(entry, label, "natural no-trump", "4 §6", 1, "natural")
        union = disjoin(weak)
        one = _weak_category(union, call, ctx)
        if one is not None:
            return self._finding(entry, label, "one weak meaning", "6.2 §6", 3,
                                 f"{call}: one weak meaning ({one})")
        groups: dict[str, list[Constraint]] = {}
        for t in weak:
            category = _weak_category(t, call, ctx) or _l4_wide(t, call, ctx)
            if category is None:
                return self._finding(entry, label, "weak meanings", "6.2 §6, 7 §2", None,
                                     f"{call} has a weak meaning in no permitted category: "
                                     f"{_short(t.describe())}", t, ctx)
            group = _l4_group(category)
            if group is None:
                return self._finding(entry, label, "weak meanings", "7 §2", None,
                                     f"{call}: a weak {category} is allowed only as the "
                                     "single weak meaning of Level 3", t, ctx)
            groups.setdefault(group, []).append(t)
        for group, members in groups.items():
            merged = disjoin(members)
            if _l4_group(_weak_category(merged, call, ctx) or _l4_wide(merged, call, ctx)
                         or "") != group:
                return self._finding(entry, label, "weak meanings", "7 §2", None,
                                     f"{call}: its weak {group} hands do not share a "
                                     "specified suit (or avoid the suit bid)", members[-1], ctx)
        if len(groups) <= 3:
            return self._finding(entry, label, "up to three weak meanings", "7 §2", 4,
                                 f"{call}: weak meanings {', '.join(sorted(groups))} "
                                 "(one per category)")
        return self._finding(entry, label, "weak meanings", "7 §2", None,
                             f"{call} has more weak meanings than Level 4 allows", weak[-1], ctx)

    def _overcall(self, entry: CallEntry, auction: Auction, node: Node, ctx: TableContext
                  ) -> Finding:
        call = entry.call
        label = " ".join(f"({c})" if auction.seat_of(i).side is not auction.next_seat.side
                         else str(c) for i, c in enumerate(auction.calls))
        opening = auction.calls[auction.last_bid_index()]
        if call.kind is CallKind.DOUBLE:
            tags = tags_of(entry)
            kinds = [k for k, group in (("takeout", TAKEOUT_TAGS), ("penalty", PENALTY_TAGS),
                                        ("optional", {"optional"})) if tags & group]
            if len(kinds) > 1:
                return self._finding(entry, label, "double", "6.4 §2", None,
                                     f"a double that is both {' and '.join(kinds)}")
            if "penalty" in kinds or (not kinds and opening.strain is Strain.NT):
                # A double that shows willingness to defend is natural (2.2 §2), and natural
                # calls are not restricted by level (3.3 §3).
                return self._finding(entry, label, "natural double", "2.2 §2, 3.3 §3", 1,
                                     "a penalty double")
            if "takeout" in kinds or not kinds:
                return self._finding(entry, label, "takeout double", "4 §8-§10", 1,
                                     "a takeout double")
            return self._finding(entry, label, "double", "6.4 §1-§2", 3,
                                 f"a {'/'.join(kinds)} double")
        assert call.strain is not None
        shown, types = effective(node, entry, ctx)
        reading = read_bid(entry, call, None, ctx, shown)
        weak = [t for t in types if not is_strong(t, ctx)]
        st = stats(shown, ctx)
        if call.strain is opening.strain and call.strain is not Strain.NT:
            if not weak and entry.forcing is not None and entry.forcing.is_forcing:
                return self._finding(entry, label, "strong cue-bid", "4 §15", 1,
                                     "a cue-bid of their suit, strong and forcing")
            if weak and all(share_where(t, TWO_SUITED_54, ctx) == 1.0 for t in weak):
                return self._finding(entry, label, "Michaels cue-bid", "5 §7", 2,
                                     "a two-suited cue-bid")
            return self._finding(entry, label, "cue-bid", "6.3 §4", 3,
                                 "a cue-bid of their suit may have any meaning")
        if call.strain is Strain.NT:
            if reading.natural:
                return self._finding(entry, label, "natural no-trump overcall", "4 §8", 1,
                                     reading.reason)
            if weak and all(share_where(t, TWO_SUITED_54, ctx) == 1.0 for t in weak):
                return self._finding(entry, label, "unusual no-trump", "5 §6", 2,
                                     "a two-suited no-trump overcall")
            return self._finding(entry, label, "conventional no-trump overcall", "6.3 §3", 3,
                                 reading.reason)
        k = call.strain.suit_index
        if reading.natural:
            if is_jump(auction, call) and st.hcp[0] < 12:
                return self._finding(entry, label, "weak jump overcall", "6.3 §3", 3,
                                     f"a natural jump overcall with {st.hcp[0]}+ HCP")
            return self._finding(entry, label, "natural overcall", "4 §8-§10", 1, reading.reason)
        specified = any(st.min_length(i) >= 4 for i in range(4))
        denies = st.lengths[k][1] <= 3
        three = _weak_category(shown, call, ctx) == "three-suiter"
        if three:
            return self._finding(entry, label, "conventional overcall", "6.3 §3", 3,
                                 "a three-suiter with a specified suit of three or more")
        if specified or denies or not weak:
            return self._finding(entry, label, "conventional overcall", "6.3 §2-§3", 3,
                                 "shows four or more cards in a specified suit"
                                 if specified else "denies four cards in the suit bid")
        if opening.strain is Strain.NT or opening.level >= 2:
            return self._finding(entry, label, "defence to 1NT or higher", "7 §4", 4,
                                 reading.reason)
        bad = conjoin([shown, _length_at_least(call.strain, 4)])
        return self._finding(entry, label, "conventional overcall", "6.3 §3", None,
                             "a suit overcall must show 4+ cards in a specified suit or deny "
                             "4+ cards in the suit bid", bad, ctx)

    def _signals(self, system: System) -> list[Finding]:
        text = system.notes.get("signals", "")
        if not text:
            return []
        # Parity signals speak of odd and even *cards*; count signals of an odd or even
        # *number* of cards, which is a different (and permitted) thing.
        parity = re.search(r"\b(odd|even)\s+(spot\s+)?cards?\b|odd\s*[/-]\s*even", text, re.I)
        second = re.search(r"suit.preference|higher|lower", text, re.I)
        if parity and second:
            return [licence_finding("signals", "(card play)", "odd/even signals", "6.5 §2",
                                   None, None, "odd/even signals combined with a second "
                                   "meaning are not permitted")]
        return [licence_finding("signals", "(card play)", "signals", "4 §13, 6.5 §1", 1, None,
                               "signalling agreements written on the card")]


def effective(node: Node, entry: CallEntry, ctx: TableContext
              ) -> tuple[Constraint, list[Constraint]]:
    """The hands that really make ``entry`` at ``node``: its meaning less every call tried
    before it; and the same split into the meaning's hand types."""
    before = [other.choose for other in tried_before(node, entry, ctx)]
    negative = negate(disjoin(before)) if before else ANY
    types = [conjoin([t, negative]) for t in hand_types(entry.shown)]
    types = [t for t in types if stats(t, ctx).possible] or types
    return conjoin([entry.shown, negative]), types


def _short(text: str, limit: int = 140) -> str:
    """A long generated description cut for a one-line finding (the witness shows a hand)."""
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def _length_at_most(strain: Strain, n: int) -> Constraint:
    from bidbox.lang.constraints import SuitRange

    return SuitRange("lengths", str(strain), None, n)


def _length_at_least(strain: Strain, n: int) -> Constraint:
    from bidbox.lang.constraints import SuitRange

    return SuitRange("lengths", str(strain), n, None)


def _contexts(entry: CallEntry) -> list[TableContext]:
    """The table contexts in which an entry exists, dealer first: the auction opened in
    each seat under each vulnerability, read as the walk reads it (the passes before the
    opening are calls). So an opening is never a passed hand's call, and a later call is
    made by a hand that passed before the opening (its side's opener in third or fourth
    seat, or the opponents' opener after its pass), passed later, or has not passed."""
    out: list[TableContext] = []
    for passes, vul in product(range(4), Vulnerability):
        try:
            auction = Auction(Seat.N, vul).extend([PASS] * passes + list(entry.auction[:-1]))
        except BidboxError:
            continue  # a path the compiler wrote that no legal auction follows
        if auction.is_ended:
            continue
        ctx = table_context(auction, len(auction.calls))
        if ctx not in out and guard_holds(entry, ctx):
            out.append(ctx)
    return out or [TableContext(1, False, False, False)]


def _judged_contexts(entry: CallEntry, node: Node) -> list[TableContext]:
    """The contexts of ``entry`` that its node can tell apart: one per distinct answer of
    the node's guards and of the context terms its meanings read (a system whose meanings
    never read the table is judged once, in the dealer's seat with nobody vulnerable)."""
    read = {t for e in node.calls for c in (e.shown, e.requires)
            if c is not None and "context" in c.measures()
            for t in terms(c) if isinstance(t, Context)}
    seen: set[tuple[bool, ...]] = set()
    out: list[TableContext] = []
    for ctx in _contexts(entry):
        key = (*(guard_holds(e, ctx) for e in node.calls), *(t.holds(ctx) for t in read))
        if key not in seen:
            seen.add(key)
            out.append(ctx)
    return out


def _severity(findings: list[Finding]) -> tuple[int, int]:
    """How far from permitted a context's verdicts are: no level at all is worst."""
    levels = [f.level for f in findings]
    return (int(any(level is None for level in levels)),
            max((level for level in levels if level is not None), default=0))


def _worst(per_context: list[tuple[TableContext, list[Finding]]]) -> list[Finding]:
    """The verdicts of the context the regulation treats worst (the first of equals, so a
    call judged alike everywhere keeps its dealer-seat verdict); when that is not the
    first context's verdict, each message names the context."""
    if not per_context:
        return []
    ctx, worst = max(per_context, key=lambda pair: _severity(pair[1]))
    if _severity(worst) == _severity(per_context[0][1]):
        return per_context[0][1]
    return [replace(f, message=f"{f.message} ({_situation(ctx)})") for f in worst]


def _situation(ctx: TableContext) -> str:
    """A table context in words, as a finding names it."""
    passed = (", passed before the opening" if ctx.passed_before_opening
              else ", a passed hand" if ctx.passed else "")
    vul = {(False, False): "neither side vulnerable", (True, True): "both vulnerable",
           (True, False): "vulnerable against not", (False, True): "not vulnerable against "
           "vulnerable"}[ctx.vul, ctx.they_vul]
    return f"in seat {ctx.seat}{passed}, {vul}"


def _weak_category(t: Constraint, call: Call, ctx: TableContext) -> str | None:
    """The SBU weak-meaning category of a hand type (6.2 §6, 7 §2), or None."""
    st = stats(t, ctx)
    if not st.possible:
        return "none"
    mins = [st.min_length(i) for i in range(4)]
    if share_where(t, Flag("three_suited"), ctx) == 1.0 or share_where(
            t, PatternIs(((4, 4, 4, 1), (5, 4, 3, 1), (5, 4, 4, 0))), ctx) == 1.0:
        if max(mins) >= 3:
            return "three-suiter"
        return "any three-suiter" if call == Call.parse("2C") else None
    if share_where(t, Flag("two_suited"), ctx) == 1.0 and max(mins) >= 4:
        return "two-suiter"
    if max(mins) >= 5:
        return "one-suiter"
    if call == Call.parse("2D") and share_where(t, disjoin([
            _length_at_least(Strain.H, 6), _length_at_least(Strain.S, 6)]), ctx) == 1.0:
        return "major one-suiter"
    from bidbox.lang.constraints import SuitFlag

    solid = disjoin([SuitFlag("solid", s) for s in SUIT_KEYS])
    if share_where(t, solid, ctx) == 1.0:
        return "solid suit"
    return None


def _l4_wide(t: Constraint, call: Call, ctx: TableContext) -> str | None:
    """Level 4's wider categories (7 §2): a one-suiter in any suit but the suit bid, a
    two-suiter in two suits other than the suit bid, any three-suiter."""
    from bidbox.lang.constraints import SuitRange

    others = [s for s in SUIT_KEYS if call.strain is Strain.NT or s != str(call.strain)]
    short_in_bid = ANY if call.strain is Strain.NT else SuitRange(
        "lengths", str(call.strain), None, 3)
    if share_where(t, Flag("three_suited"), ctx) == 1.0 or share_where(
            t, PatternIs(((4, 4, 4, 1), (5, 4, 3, 1), (5, 4, 4, 0))), ctx) == 1.0:
        return "any three-suiter"
    if share_where(t, conjoin([Flag("two_suited"), short_in_bid]), ctx) == 1.0:
        return "two-suiter"
    if share_where(t, disjoin([SuitRange("lengths", s, 5, None) for s in others]), ctx) == 1.0:
        return "one-suiter"
    return None


def _l4_group(category: str) -> str | None:
    return {"one-suiter": "one-suiter", "major one-suiter": "one-suiter",
            "two-suiter": "two-suiter", "three-suiter": "three-suiter",
            "any three-suiter": "three-suiter"}.get(category)


def _first_overcall_nodes(root: Node) -> list[tuple[Node, Auction]]:
    """Nodes where the opponents have opened and our side has only passed."""
    out: list[tuple[Node, Auction]] = []

    def visit(node: Node, auction: Auction, we_bid: bool) -> None:
        for opp in node.opp:
            if opp.call is None:
                continue
            try:
                after = auction.add(opp.call)
            except Exception:  # an opponents' call the tree wrote in an impossible place
                continue
            if not we_bid and after.last_bid is not None and not after.is_ended:
                out.append((opp.node, after))
            for entry in opp.node.calls:
                if entry.call.kind is CallKind.PASS and not we_bid:
                    try:
                        visit(entry.node, after.add(entry.call), False)
                    except Exception:
                        continue

    visit(root, Auction(), False)
    return out
