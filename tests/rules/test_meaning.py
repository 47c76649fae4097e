"""The rules' measuring helpers agree with the engine's compiled predicates."""

from __future__ import annotations

from functools import cache

import numpy as np

from bidbox.engine.explain import sample_hands
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.engine.profiles import EXACT_MEASURES, profile_space
from bidbox.engine.walk import tried_before
from bidbox.lang import load_system
from bidbox.lang.constraints import Constraint, conjoin, disjoin, negate
from bidbox.rules.meaning import fits, relax, shape_stats, stats


@cache
def meanings() -> list[tuple[Constraint, TableContext]]:
    """Openings and first responses of the SBU system, each with its negative inference."""
    system = load_system("sbu-level1")
    out = []
    nodes = [(1, system.root)] + [(3, e.node) for e in system.root.ordered()[:6]]
    for seat, node in nodes:
        ctx = TableContext(seat, seat == 3, False, False)
        for entry in node.ordered():
            before = [e.choose for e in tried_before(node, entry, ctx)]
            parts = [entry.shown] + ([negate(disjoin(before))] if before else [])
            out.append((conjoin(parts), ctx))
    return out


def test_packed_masks_give_the_compiled_predicates_answer() -> None:
    assert len(meanings()) > 50
    for space in (profile_space(), sample_hands()):
        for c, ctx in meanings():
            if space is profile_space() and not c.measures() <= EXACT_MEASURES:
                continue
            want = compile_predicate(c)(space, ctx)
            assert np.array_equal(fits(space, c, ctx), want), str(c)
            assert np.array_equal(fits(space, c, ctx), want), f"memo: {c}"


def test_relaxed_meanings_hold_for_more_hands_and_bound_lengths_below() -> None:
    pool = sample_hands()
    sampled = [(c, ctx) for c, ctx in meanings() if not c.measures() <= EXACT_MEASURES]
    assert sampled
    for c, ctx in sampled:
        loose = relax(c)
        assert loose.measures() <= EXACT_MEASURES
        inside = compile_predicate(c)(pool, ctx)
        assert not (inside & ~compile_predicate(loose)(pool, ctx)).any(), str(c)
        true, bound = stats(c, ctx), stats(loose, ctx)
        if true.possible:
            assert all(bound.min_length(i) <= true.min_length(i) for i in range(4))
            assert shape_stats(c, ctx).possible


def test_ranges_read_on_packed_masks_are_the_fitting_hands_min_and_max() -> None:
    """The packed reading (every row at once on a few bytes, or a binary search on the
    whole mask) gives the least and most HCP and length of the fitting hands."""
    from bidbox.rules.meaning import _masks_of

    for space in (profile_space(), sample_hands()):
        masks = _masks_of(space)
        hcp, lengths = space.value("hcp"), space.value("lengths")
        checked = 0
        for c, ctx in meanings()[::5]:
            if space is profile_space() and not c.measures() <= EXACT_MEASURES:
                continue
            mask = compile_predicate(c)(space, ctx)
            if not mask.any():
                assert not masks.bounds(np.packbits(mask)).possible
                continue
            want = ((int(hcp[mask].min()), int(hcp[mask].max())),
                    tuple((int(lengths[mask, i].min()), int(lengths[mask, i].max()))
                          for i in range(4)))
            for gather in (0, 1 << 40):  # binary search; every row at once
                masks.GATHER = gather
                got = masks.bounds(np.packbits(mask))
                assert (got.hcp, got.lengths) == want, (str(c), gather)
            checked += 1
        masks.GATHER = type(masks).GATHER
        assert checked > 5
