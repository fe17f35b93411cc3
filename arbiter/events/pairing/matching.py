"""Matching helpers: an exact maximum-weight matching on small sets (networkx, Edmonds'
blossom algorithm) and a fast, exact-when-it-matters test of whether a set of players can
still be paired completely ("completability").

The completability test first tries a greedy pass that pairs the most constrained players
first, then repairs dead ends with short augmenting paths (u-x, y-v for a pair x-y); only
when both fail does it run the exact blossom algorithm, so its answer is always right and is
fast on the near-complete graphs of real events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import networkx as nx

T = TypeVar("T")


def exact_matching(
    nodes: Sequence[T], weight: Callable[[T, T], int | None]
) -> tuple[list[tuple[T, T]], list[T]]:
    """Maximum-cardinality, then maximum-weight matching. Returns (pairs, unmatched)."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(nodes)))
    for i in range(len(nodes)):
        a = nodes[i]
        for j in range(i + 1, len(nodes)):
            w = weight(a, nodes[j])
            if w is not None:
                graph.add_edge(i, j, weight=w)
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = []
    seen = set()
    for i, j in mate:
        i, j = min(i, j), max(i, j)
        pairs.append((nodes[i], nodes[j]))
        seen.update((i, j))
    position = {id(p): i for i, p in enumerate(nodes)}
    pairs.sort(key=lambda pq: min(position[id(pq[0])], position[id(pq[1])]))
    return pairs, [nodes[i] for i in range(len(nodes)) if i not in seen]


def can_pair_all(
    nodes: Sequence[T],
    legal: Callable[[T, T], bool],
    kind: Callable[[T], int],
) -> bool:
    """True when `nodes` has a perfect matching in the graph of `legal` pairs.

    `kind` classifies each node for the greedy order: 1 = can only take white, 2 = can only
    take black, 0 = either (two nodes of the same kind 1 or 2 are never legal together),
    3 = neither (never legal with anyone under the strict rules).
    """
    n = len(nodes)
    if n % 2:
        return False
    if n == 0:
        return True
    lists: dict[int, list[T]] = {0: [], 1: [], 2: [], 3: []}
    for p in nodes:
        lists[kind(p)].append(p)
    if lists[3] or len(lists[1]) > n // 2 or len(lists[2]) > n // 2:
        return False
    mate: dict[int, T] = {}
    pointers = {0: 0, 1: 0, 2: 0}
    order = {1: (2, 0), 2: (1, 0), 0: (0, 1, 2)}
    unmatched: list[T] = []
    for k in (1, 2, 0):
        for p in lists[k]:
            if id(p) in mate:
                continue
            found = None
            for other in order[k]:
                seq = lists[other]
                i = pointers[other]
                while i < len(seq) and id(seq[i]) in mate:
                    i += 1
                pointers[other] = i
                for q in seq[i:]:
                    if q is not p and id(q) not in mate and legal(p, q):
                        found = q
                        break
                if found is not None:
                    break
            if found is None:
                unmatched.append(p)
                mate[id(p)] = p  # parked; repaired below
            else:
                mate[id(p)] = found
                mate[id(found)] = p
    if not unmatched:
        return True
    for p in unmatched:
        del mate[id(p)]
    pairs = {}
    for p in nodes:
        q = mate.get(id(p))
        if q is not None and id(p) < id(q):
            pairs[id(p)] = (p, q)
    left = list(unmatched)
    while left:
        u = left.pop()
        partner = next((v for v in left if legal(u, v)), None)
        if partner is not None:
            left.remove(partner)
            pairs[id(u)] = (u, partner)
            continue
        done = False
        for key, (x, y) in list(pairs.items()):
            for a, b in ((x, y), (y, x)):
                if legal(u, a):
                    v = next((v for v in left if legal(v, b)), None)
                    if v is not None:
                        del pairs[key]
                        left.remove(v)
                        pairs[id(u)] = (u, a)
                        pairs[id(v)] = (v, b)
                        done = True
                        break
            if done:
                break
        if not done:
            return _exact_perfect(nodes, legal)
    return True


def _exact_perfect(nodes: Sequence[T], legal: Callable[[T, T], bool]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(range(len(nodes)))
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            if legal(nodes[i], nodes[j]):
                graph.add_edge(i, j)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)


def min_cost_assignment(cost: list[list[int | None]]) -> list[int] | None:
    """Hungarian algorithm (shortest augmenting paths with potentials), O(n^3): for a square
    matrix, the column given to each row at least total cost; None entries are forbidden.
    Returns None when every complete assignment uses a forbidden entry."""
    n = len(cost)
    if n == 0:
        return []
    finite = [c for row in cost for c in row if c is not None]
    if not finite:
        return None
    big = (max(abs(c) for c in finite) + 1) * (n + 1) * 4
    a = [[big if c is None else c for c in row] for row in cost]
    inf = float("inf")
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    p = [0] * (n + 1)  # p[j]: row (1-based) assigned to column j
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = inf
            j1 = 0
            row = a[i0 - 1]
            ui0 = u[i0]
            for j in range(1, n + 1):
                if not used[j]:
                    cur = row[j - 1] - ui0 - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    result = [0] * n
    for j in range(1, n + 1):
        result[p[j] - 1] = j - 1
    if any(cost[i][result[i]] is None for i in range(n)):
        return None
    return result
