"""Compare two versions of a system: what changed in the tree, and which hands now bid
differently.

*Now* is the version under test (``--system``), *was* the one it is compared against
(``--against``): two files, a file and itself at a git revision, or one file under two
option settings.

- **Structure**: the two compiled trees are walked side by side; a call is matched by its
  call and its seat/vulnerability guard, a defence by the opponents' call it answers.
  A call whose meaning, forcing status, tags or priority place differ is *changed*, and
  is shown with both generated descriptions and both source lines.
- **Behaviour**: dealt deals are bid at two tables by the batch bidder, *now* North-South
  against *was* at the first, the reverse at the second. Where the two auctions part, one
  seat held the same cards after the same calls and the two versions chose differently:
  that first divergence is the change (later differences follow from it). Sampled by
  construction; the dealer's opening, which every deal reaches with an unconditioned
  hand, is also computed exactly over the profile space when the opening meanings allow.

The DD cost of the changed deals is the simulation lab's business (``sim.diff_cost``):
this module may not import it, and it needs no more than the auctions computed here.
"""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.core.auction import Auction
from bidbox.core.calls import Call
from bidbox.core.hand import Hand
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.batch import bid_batch
from bidbox.engine.decide import choose_at_node
from bidbox.engine.explain import measure_knowledge
from bidbox.engine.features import Features, HandFeatures, sample_hands
from bidbox.engine.inference import facts_by_seat, read_auction
from bidbox.engine.predicates import TableContext
from bidbox.engine.profiles import EXACT_MEASURES, ProfileSpace, profile_space
from bidbox.engine.walk import candidates
from bidbox.engine.witness import witness_hand
from bidbox.errors import BidboxError
from bidbox.errors import DiffInputError as DiffInputError
from bidbox.evaluate.dealer import DealBatch
from bidbox.lang.compiler import compile_text
from bidbox.lang.diagnostics import decode_system_text, read_system_file
from bidbox.lang.loader import load_system, system_path
from bidbox.lang.system import CallEntry, Node, System

Options = tuple[tuple[str, str | bool], ...]


# --- inputs ------------------------------------------------------------------------------
@dataclass(frozen=True)
class SystemVersion:
    """One side of a diff: what the user named, the file, its text, options, the system.

    ``revision`` is the git revision the text was read at (None: the file as it is now).
    """

    label: str
    path: Path
    text: str
    options: Options
    revision: str | None
    system: System

    def describe(self) -> dict[str, Any]:
        return {"system": self.label, "file": str(self.path), "revision": self.revision,
                "options": dict(self.options)}


def load_version(argument: str, options: Mapping[str, str | bool] | None = None,
                 name: str = "--system") -> SystemVersion:
    """A shipped name, a ``.bbx`` path, or either as ``NAME@REV`` (the file at a git
    revision, read with ``git show`` in the file's repository). ``name`` is the
    command-line argument, so an error can say which one is wrong."""
    chosen: Options = tuple(sorted((options or {}).items()))
    spec, revision = _split_revision(argument)
    try:
        path = system_path(spec).resolve()
    except BidboxError as err:
        raise DiffInputError(f"{name} '{argument}': {err}") from None
    if revision is None:
        system = load_system(str(path), dict(chosen))
        return SystemVersion(argument, path, read_system_file(path), chosen, None, system)
    text = _git_show(path, revision, name, argument)
    system = compile_text(text, f"{path}@{revision}", dict(chosen), base_dir=path.parent)
    return SystemVersion(argument, path, text, chosen, revision, system)


def _split_revision(argument: str) -> tuple[str, str | None]:
    """``path@rev`` into its parts; a name that is itself a file keeps its '@'."""
    if "@" not in argument or Path(argument).is_file():
        return argument, None
    spec, _, revision = argument.rpartition("@")
    return spec, revision.strip() or None


def _git_show(path: Path, revision: str, name: str, argument: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(path.parent), "show",
                               f"{revision}:./{path.name}"],
                              capture_output=True, timeout=60, check=False)
    except FileNotFoundError:
        raise DiffInputError(f"{name} '{argument}': reading a revision needs git, which is "
                             "not installed (or not on PATH)") from None
    except (OSError, subprocess.TimeoutExpired) as err:
        raise DiffInputError(f"{name} '{argument}': git failed: {err}") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = said[0] if said else f"git exited with status {done.returncode}"
        raise DiffInputError(f"{name} '{argument}': cannot read '{path.name}' at revision "
                             f"'{revision}': {reason}")
    return decode_system_text(done.stdout, f"{path}@{revision}")


# --- structure ---------------------------------------------------------------------------
@dataclass(frozen=True)
class MeaningText:
    """One version of a call, as a person compares it."""

    meaning: str
    shows: str
    requires: str | None
    forcing: str | None
    tags: tuple[str, ...]
    location: str
    line: str

    @classmethod
    def of(cls, entry: CallEntry) -> MeaningText:
        guard = str(entry.guard)
        shows = str(entry.shows) if guard == "any" else f"{entry.shows} (when {guard})"
        return cls(entry.text(), shows, None if entry.requires is None else str(entry.requires),
                   None if entry.forcing is None else entry.forcing.value, entry.tags,
                   str(entry.location), entry.location.text.strip())

    def to_json(self) -> dict[str, Any]:
        return {"meaning": self.meaning, "shows": self.shows, "requires": self.requires,
                "forcing": self.forcing, "tags": list(self.tags), "location": self.location,
                "line": self.line}


@dataclass(frozen=True)
class CallChange:
    """A call added, removed or changed at a node; ``what`` names the changed parts."""

    call: str
    change: str  # "added", "removed", "changed"
    was: MeaningText | None
    now: MeaningText | None
    what: tuple[str, ...] = ()
    nodes: int = 0  # nodes with calls below an added or removed call

    def to_json(self) -> dict[str, Any]:
        return {"call": self.call, "change": self.change,
                "was": None if self.was is None else self.was.to_json(),
                "now": None if self.now is None else self.now.to_json(),
                "what": list(self.what), "nodes": self.nodes}


@dataclass(frozen=True)
class NodeChange:
    """An auction node of the tree added, removed, or present in both with changes."""

    auction: str  # the tree path as written ('' for the opening)
    change: str  # "added", "removed", "changed"
    calls: tuple[CallChange, ...] = ()
    order: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # (was, now) when reordered
    nodes: int = 1  # for an added or removed node: how many nodes its subtree holds

    def to_json(self) -> dict[str, Any]:
        return {"auction": self.auction, "change": self.change,
                "calls": [c.to_json() for c in self.calls],
                "order": None if self.order is None else {"was": list(self.order[0]),
                                                          "now": list(self.order[1])},
                "nodes": self.nodes}


def _entry_key(entry: CallEntry) -> tuple[str, str]:
    return (str(entry.call), str(entry.guard))


def _keyed(node: Node) -> dict[tuple[str, str], CallEntry]:
    out: dict[tuple[str, str], CallEntry] = {}
    for entry in node.ordered():
        out.setdefault(_entry_key(entry), entry)  # a duplicate line never wins (tried later)
    return out


def _differences(was: CallEntry, now: CallEntry) -> tuple[str, ...]:
    parts = []
    if str(was.shows) != str(now.shows):
        parts.append("shows")
    if str(was.requires) != str(now.requires):
        parts.append("requires")
    if was.forcing != now.forcing:
        parts.append("forcing")
    if set(was.tags) != set(now.tags):
        parts.append("tags")
    if was.alert != now.alert:
        parts.append("alert")
    if was.text() != now.text():
        parts.append("description")
    return tuple(parts)


def _size(node: Node) -> int:
    """Nodes with calls in a subtree: what an added or removed branch brings."""
    return sum(1 for n in node.walk() if n.calls)


def structural_diff(now: System, was: System) -> list[NodeChange]:
    """Every node of the two trees that differs, walked side by side from the opening."""
    out: list[NodeChange] = []
    stack: list[tuple[Node, Node]] = [(was.root, now.root)]
    while stack:
        old, new = stack.pop()
        before, after = _keyed(old), _keyed(new)
        calls: list[CallChange] = []
        for key, entry in before.items():
            if key not in after:
                calls.append(CallChange(key[0], "removed", MeaningText.of(entry), None,
                                        nodes=_size(entry.node)))
                if entry.node.calls:
                    out.append(NodeChange(entry.node.label, "removed", nodes=_size(entry.node)))
        for key, entry in after.items():
            if key not in before:
                calls.append(CallChange(key[0], "added", None, MeaningText.of(entry),
                                        nodes=_size(entry.node)))
                if entry.node.calls:
                    out.append(NodeChange(entry.node.label, "added", nodes=_size(entry.node)))
                continue
            what = _differences(before[key], entry)
            if what:
                calls.append(CallChange(key[0], "changed", MeaningText.of(before[key]),
                                        MeaningText.of(entry), what))
            stack.append((before[key].node, entry.node))
        common = [k for k in before if k in after]
        order_was = [k for k in (_entry_key(e) for e in old.ordered()) if k in after]
        order_now = [k for k in (_entry_key(e) for e in new.ordered()) if k in before]
        order = None
        if order_was != order_now and len(common) > 1:
            order = (tuple(k[0] for k in order_was), tuple(k[0] for k in order_now))
        theirs_was = {o.pattern: o for o in old.opp}
        theirs_now = {o.pattern: o for o in new.opp}
        for pattern, opp in theirs_was.items():
            if pattern not in theirs_now:
                out.append(NodeChange(opp.node.label, "removed", nodes=_size(opp.node)))
        for pattern, opp in theirs_now.items():
            if pattern not in theirs_was:
                out.append(NodeChange(opp.node.label, "added", nodes=_size(opp.node)))
            else:
                stack.append((theirs_was[pattern].node, opp.node))
        if calls or order is not None:
            out.append(NodeChange(new.label, "changed", tuple(calls), order))
    return sorted(out, key=lambda c: (len(c.auction.split()), c.auction, c.change))


# --- behaviour ---------------------------------------------------------------------------
@dataclass
class BehaviourChange:
    """Deals whose two tables first part at the same point with the same two calls."""

    auction: str  # the calls before the changed one ('' for the dealer's opening)
    was: str
    now: str
    count: int
    witness: str  # the caller's hand, PBN
    witness_deal: str
    dealer: Seat
    vul: Vulnerability
    reach: int = 0  # deals on which a table passed through ``auction`` (and went on)
    exact: float | None = None  # the exact probability, where computed
    method: str = "sampled"
    explanation: dict[str, dict[str, str]] = field(default_factory=dict)


@dataclass
class Behaviour:
    """Both tables' auctions of every deal and the first divergences."""

    deals: int
    now_ns: list[Auction]  # table 1: now North-South, was East-West
    was_ns: list[Auction]  # table 2: the reverse
    changed: npt.NDArray[np.bool_]
    changes: list[BehaviourChange]
    exact_openings: dict[str, Any]

    @property
    def changed_share(self) -> float:
        return float(self.changed.mean()) if self.deals else 0.0


def bid_two_tables(now: System, was: System, masks: npt.NDArray[np.int16],
                   dealers: Sequence[Seat], vuls: Sequence[Vulnerability],
                   progress: bool | None = None) -> tuple[list[Auction], list[Auction]]:
    """Every deal at both tables through the batch bidder, one batch per (dealer, vul).
    ``progress`` None shows a bar only on a terminal."""
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    n = len(masks)
    tables: tuple[list[Auction | None], list[Auction | None]] = ([None] * n, [None] * n)
    groups: dict[tuple[Seat, Vulnerability], list[int]] = {}
    for row in range(n):
        groups.setdefault((dealers[row], vuls[row]), []).append(row)
    seatings = ({Side.NS: now, Side.EW: was}, {Side.NS: was, Side.EW: now})
    bar = tqdm(total=2 * n, unit="table", desc="diff: bidding",
               disable=(not progress) if progress is not None else None)
    try:
        for (dealer, vul), rows in groups.items():
            pick = np.asarray(rows, dtype=np.int64)
            deals = DealBatch(masks[pick])
            for table, systems in zip(tables, seatings, strict=True):
                result = bid_batch(deals, systems, dealer, vul)
                for auction, index, _ in result.groups:
                    for i in index:
                        table[int(pick[i])] = auction
                bar.update(len(rows))
    finally:
        bar.close()
    one = [a for a in tables[0] if a is not None]
    two = [a for a in tables[1] if a is not None]
    if len(one) != n or len(two) != n:
        raise RuntimeError("the batch bidder left deals without an auction")
    return one, two


def _first_difference(a: Auction, b: Auction) -> int | None:
    for i, (x, y) in enumerate(zip(a.calls, b.calls, strict=False)):
        if x != y:
            return i
    return None if len(a.calls) == len(b.calls) else min(len(a.calls), len(b.calls))


def behaviour_diff(now: System, was: System, masks: npt.NDArray[np.int16],
                   dealers: Sequence[Seat], vuls: Sequence[Vulnerability],
                   explain_top: int = 12, progress: bool | None = None) -> Behaviour:
    """Bid ``masks`` (deals as ``(n, 4 seats, 4 suits)`` suit masks, with each deal's dealer
    and vulnerability) at both tables and collect where the versions part."""
    now_ns, was_ns = bid_two_tables(now, was, masks, dealers, vuls, progress)
    n = len(masks)
    changed = np.zeros(n, dtype=bool)
    kinds: dict[tuple[tuple[Call, ...], str, str], BehaviourChange] = {}
    deals = DealBatch(masks)
    for row in range(n):
        one, two = now_ns[row], was_ns[row]
        i = _first_difference(one, two)
        if i is None:
            continue
        changed[row] = True
        seat = one.seat_of(i)
        # Table 1 seats *now* North-South: its call there is the new version's.
        new, old = (one, two) if seat.side is Side.NS else (two, one)
        key = (one.calls[:i], str(old.calls[i]), str(new.calls[i]))
        kind = kinds.get(key)
        if kind is None:
            kinds[key] = BehaviourChange(" ".join(str(c) for c in one.calls[:i]), key[1],
                                         key[2], 1, deals.hand(row, seat).pbn(),
                                         deals.pbn(row), dealers[row], vuls[row])
        else:
            kind.count += 1
    _count_reach(kinds, now_ns, was_ns)
    exact = exact_opening_changes(now, was)
    for (prefix, old_call, new_call), kind in kinds.items():
        if not prefix and (old_call, new_call) in exact["changes"]:
            kind.exact = exact["changes"][(old_call, new_call)][0]
            kind.method = exact["method"]
    # Opening changes too rare for the sample still belong to the exact list.
    for (old_call, new_call), (probability, witness) in exact["changes"].items():
        if ((), old_call, new_call) not in kinds and witness is not None:
            kinds[((), old_call, new_call)] = BehaviourChange(
                "", old_call, new_call, 0, witness, "", Seat.N, Vulnerability.NONE, n,
                probability, exact["method"])
    changes = sorted(kinds.values(), key=lambda k: (-(k.exact if k.exact is not None
                                                      else k.count / max(n, 1)),
                                                    k.auction, k.was, k.now))
    memo: dict[tuple[str, str, str], str] = {}
    for kind in changes[:explain_top]:
        kind.explanation = explain_change(now, was, kind, memo)
    summary = {"method": exact["method"], "changed": exact["changed"],
               "decided_by_notes": exact["decided"]}
    return Behaviour(n, now_ns, was_ns, changed, changes, summary)


def _count_reach(kinds: Mapping[tuple[tuple[Call, ...], str, str], BehaviourChange],
                 one: Sequence[Auction], two: Sequence[Auction]) -> None:
    """For each changed point, the deals on which either table passed through it."""
    wanted = {prefix for prefix, _, _ in kinds}
    reached: Counter[tuple[Call, ...]] = Counter()
    for a, b in zip(one, two, strict=True):
        seen = {a.calls[:k] for k in range(len(a.calls)) if a.calls[:k] in wanted}
        seen |= {b.calls[:k] for k in range(len(b.calls)) if b.calls[:k] in wanted}
        reached.update(seen)
    for (prefix, _, _), kind in kinds.items():
        kind.reach = reached[prefix]


def explain_change(now: System, was: System, kind: BehaviourChange,
                   memo: dict[tuple[str, str, str], str] | None = None
                   ) -> dict[str, dict[str, str]]:
    """What each of the two calls tells partner under each version: its meaning, the calls
    it denies, and the caller's known HCP and lengths after it (negative inference in),
    where the auction reads in that version."""
    memo = {} if memo is None else memo
    out: dict[str, dict[str, str]] = {}
    for call in dict.fromkeys((kind.was, kind.now)):
        readings: dict[str, str] = {}
        for name, system in (("was", was), ("now", now)):
            key = (name, kind.auction, call)
            if key not in memo:
                memo[key] = _reading(system, kind, call)
            if memo[key]:
                readings[name] = memo[key]
        out[call] = readings
    return out


def _reading(system: System, kind: BehaviourChange, call: str) -> str:
    try:
        auction = Auction.parse(f"{kind.auction} {call}".strip(), kind.dealer, kind.vul)
        readings = read_auction(auction, {Side.NS: system, Side.EW: system})
    except BidboxError:
        return ""
    last = readings[-1]
    meaning = last.entry.text() if last.entry is not None else "judgement (not in the notes)"
    denies = " ".join(str(e.call) for e in last.denied)
    seat = auction.seat_of(len(auction.calls) - 1)
    known = measure_knowledge(facts_by_seat(readings)[seat])
    parts = [meaning]
    if denies:
        parts.append(f"denies {denies}")
    if known.consistent:
        shown = [f"{_num(*known.ranges['hcp'])} HCP"]
        shown += [f"{_num(*known.ranges[s])}{s}" for s in "SHDC"
                  if known.ranges[s] != (0.0, 13.0)]
        method = "" if known.method == "exact" else " (sampled)"
        parts.append("known: " + ", ".join(shown) + method)
    return "; ".join(parts)


def _num(lo: float, hi: float) -> str:
    return f"{int(lo)}" if lo == hi else f"{int(lo)}-{int(hi)}"


def _space_for(system: System, other: System) -> tuple[Features, str]:
    used: set[str] = set()
    for s in (system, other):
        for entry in s.root.calls:
            used |= entry.choose.measures()
    if used <= EXACT_MEASURES:
        return profile_space(), "exact"
    pool = sample_hands()
    return pool, f"sampled ({pool.n:,} hands)"


def _opening_labels(system: System, space: Features, ctx: TableContext,
                    vul: Vulnerability) -> npt.NDArray[np.int16]:
    """The notes' opening call of each point (ladder rank, -1 pass), -2 for judgement's."""
    labels = np.full(space.n, -2, dtype=np.int16)
    default = {e.call for e in candidates(system.root, ctx) if e.is_default_pass}
    skip = frozenset(default)
    for entry, hit in choose_at_node(system.root, space, ctx, Auction(Seat.N, vul), skip):
        labels[hit] = entry.call.rank if entry.call.is_bid else -1
    return labels


def exact_opening_changes(now: System, was: System) -> dict[str, Any]:
    """The dealer's opening compared point by point over the profile space (or the fixed
    pool of dealt hands, when an opening meaning reads where the cards are), averaged over
    the four vulnerabilities, which the board cycle deals equally often to each dealer.

    Only hands both versions' notes decide are counted: a hand left to judgement in
    either version is bid by the trick model, which the profile space cannot run; its
    changes come from the sample only. ``decided`` is the share counted.
    """
    space, method = _space_for(now, was)
    weight = (space.probability if isinstance(space, ProfileSpace)
              else np.full(space.n, 1.0 / space.n))
    changes: dict[tuple[str, str], list[Any]] = {}
    decided = changed = 0.0
    for vul in (Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH):
        ctx = TableContext(1, vul.is_vulnerable(Seat.N), vul.is_vulnerable(Seat.E), False)
        old = _opening_labels(was, space, ctx, vul)
        new = _opening_labels(now, space, ctx, vul)
        both = (old > -2) & (new > -2)
        decided += float(weight[both].sum()) / 4
        differ = both & (old != new)
        changed += float(weight[differ].sum()) / 4
        pairs = np.unique(np.stack([old[differ], new[differ]], axis=1), axis=0)
        for o, w in pairs:
            mask = differ & (old == o) & (new == w)
            key = (_call_name(int(o)), _call_name(int(w)))
            slot = changes.setdefault(key, [0.0, None])
            slot[0] += float(weight[mask].sum()) / 4
            if slot[1] is None:
                slot[1] = _point_hand(space, mask, weight)
    return {"method": method, "decided": decided, "changed": changed,
            "changes": {k: (v[0], v[1]) for k, v in changes.items()}}


def _call_name(rank: int) -> str:
    return "P" if rank < 0 else str(Call.from_rank(rank))


def _point_hand(space: Features, mask: npt.NDArray[np.bool_],
                weight: npt.NDArray[np.float64]) -> str | None:
    """A hand at the likeliest point of ``mask``."""
    i = int(np.argmax(np.where(mask, weight, -1.0)))
    if isinstance(space, ProfileSpace):
        hand = witness_hand(space.lengths[i], int(space.hcp[i]), int(space.controls[i]))
        return None if hand is None else hand.pbn()
    assert isinstance(space, HandFeatures)
    row = space.masks[i]
    return Hand((int(row[0]), int(row[1]), int(row[2]), int(row[3]))).pbn()


def change_to_json(kind: BehaviourChange, deals: int) -> dict[str, Any]:
    """One entry of the public ``changes`` list."""
    sampled = kind.count / deals if deals else 0.0
    return {"auction": kind.auction, "was": kind.was, "now": kind.now,
            "probability": kind.exact if kind.exact is not None else sampled,
            "method": kind.method, "sampled_share": sampled, "deals": kind.count,
            "reach": kind.reach / deals if deals else 0.0,
            "witness": kind.witness, "witness_deal": kind.witness_deal or None,
            "dealer": str(kind.dealer) if kind.witness_deal else None,
            "vul": str(kind.vul) if kind.witness_deal else None,
            "explanation": kind.explanation}


__all__ = ["Behaviour", "BehaviourChange", "CallChange", "DiffInputError", "MeaningText",
           "NodeChange", "SystemVersion", "behaviour_diff", "bid_two_tables", "change_to_json",
           "exact_opening_changes", "explain_change", "load_version", "structural_diff"]
