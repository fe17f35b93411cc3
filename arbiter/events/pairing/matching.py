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
    return perfect_matching(nodes, legal, kind) is not None


def perfect_matching(
    nodes: Sequence[T],
    legal: Callable[[T, T], bool],
    kind: Callable[[T], int],
) -> list[int] | None:
    """A perfect matching of `nodes` in the graph of `legal` pairs (mate[i] is the index i
    is paired with), or None when there is none.

    `kind` classifies each node for the greedy order: 1 = can only take white, 2 = can only
    take black, 0 = either (two nodes of the same kind 1 or 2 are never legal together),
    3 = neither (never legal with anyone under the strict rules).

    Greedy first (most constrained players first), then augmenting paths from each player
    left over (a breadth-first search that does not shrink blossoms: whatever it finds is a
    real augmenting path, but it may miss one), then, only if that fails, the exact blossom
    algorithm: so the answer is always exact.
    """
    n = len(nodes)
    if n % 2:
        return None
    if n == 0:
        return []
    lists: dict[int, list[int]] = {0: [], 1: [], 2: [], 3: []}
    for i, p in enumerate(nodes):
        lists[kind(p)].append(i)
    if lists[3] or len(lists[1]) > n // 2 or len(lists[2]) > n // 2:
        return None
    mate = [-1] * n
    pointers = {0: 0, 1: 0, 2: 0}
    order = {1: (2, 0), 2: (1, 0), 0: (0, 1, 2)}
    unmatched: list[int] = []
    for k in (1, 2, 0):
        for i in lists[k]:
            if mate[i] != -1:
                continue
            found = -1
            for other in order[k]:
                seq = lists[other]
                start = pointers[other]
                while start < len(seq) and mate[seq[start]] != -1:
                    start += 1
                pointers[other] = start
                for j in seq[start:]:
                    if j != i and mate[j] == -1 and legal(nodes[i], nodes[j]):
                        found = j
                        break
                if found != -1:
                    break
            if found == -1:
                unmatched.append(i)
                mate[i] = i  # parked until the greedy pass is over
            else:
                mate[i], mate[found] = found, i
    if not unmatched:
        return mate
    for i in unmatched:
        mate[i] = -1
    for u in unmatched:
        if mate[u] == -1 and not _augment(nodes, legal, mate, u):
            if not any(legal(nodes[u], nodes[j]) for j in range(n) if j != u):
                return None  # nobody can play u
            return _exact_perfect(nodes, legal)
    return mate


def _augment(nodes: Sequence[T], legal: Callable[[T, T], bool], mate: list[int], u: int) -> bool:
    """Look for an alternating path from the free node u to another free node, breadth
    first; flip it and return True when found."""
    n = len(nodes)
    found_by: dict[int, int] = {}  # inner node -> the outer node that reached it
    in_outer = {u}
    outer = [u]
    head = 0
    while head < len(outer):
        x = outer[head]
        head += 1
        for y in range(n):
            if y in in_outer or y in found_by or not legal(nodes[x], nodes[y]):
                continue
            if mate[y] == -1:
                a, b = x, y
                while True:
                    previous = mate[a]
                    mate[a], mate[b] = b, a
                    if a == u:
                        return True
                    b = previous
                    a = found_by[previous]
            found_by[y] = x
            z = mate[y]
            if z not in in_outer:
                in_outer.add(z)
                outer.append(z)
    return False


def _exact_perfect(nodes: Sequence[T], legal: Callable[[T, T], bool]) -> list[int] | None:
    graph = nx.Graph()
    graph.add_nodes_from(range(len(nodes)))
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            if legal(nodes[i], nodes[j]):
                graph.add_edge(i, j)
    pairs = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(pairs) != len(nodes):
        return None
    mate = [-1] * len(nodes)
    for i, j in pairs:
        mate[i], mate[j] = j, i
    return mate


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
