"""The matching helpers against brute force and networkx on random graphs."""

from itertools import permutations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.events.pairing.matching import can_pair_all, exact_matching, min_cost_assignment


@st.composite
def graphs(draw):
    n = draw(st.sampled_from([0, 2, 4, 6, 8, 10, 12, 16]))
    density = draw(st.floats(min_value=0.05, max_value=1.0))
    seed = draw(st.integers(min_value=0, max_value=10**6))
    import random

    rng = random.Random(seed)
    kinds = [rng.choice([0, 0, 0, 1, 2]) for _ in range(n)]
    edges = {
        (i, j)
        for i in range(n)
        for j in range(i + 1, n)
        if rng.random() < density and not (kinds[i] == kinds[j] != 0)
    }
    return n, kinds, edges


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_completability_is_exact(graph):
    n, kinds, edges = graph
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    expected = 2 * len(nx.max_weight_matching(g, maxcardinality=True)) == n

    def legal(a, b):
        return (min(a, b), max(a, b)) in edges

    assert can_pair_all(list(range(n)), legal, lambda a: kinds[a]) == expected


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=6).flatmap(
        lambda n: st.lists(
            st.lists(st.one_of(st.none(), st.integers(-50, 50)), min_size=n, max_size=n),
            min_size=n,
            max_size=n,
        )
    )
)
def test_assignment_is_optimal(cost):
    n = len(cost)
    best = None
    for perm in permutations(range(n)):
        if all(cost[i][perm[i]] is not None for i in range(n)):
            total = sum(cost[i][perm[i]] for i in range(n))
            best = total if best is None else min(best, total)
    got = min_cost_assignment(cost)
    assert (None if got is None else sum(cost[i][got[i]] for i in range(n))) == best


def test_exact_matching_pairs_as_many_as_possible_then_by_weight():
    # 0-1 weight 10, 2-3 weight 10, 1-2 weight 100: the single heavy edge loses to two pairs.
    w = {(0, 1): 10, (2, 3): 10, (1, 2): 100}
    pairs, left = exact_matching([0, 1, 2, 3], lambda a, b: w.get((min(a, b), max(a, b))))
    assert sorted(pairs) == [(0, 1), (2, 3)] and left == []
