"""Seating draws: tables for a session that avoid repeated opponents as far as possible, seat winds drawn.

:func:`draw` starts from random tables and swaps players between tables while the number of repeated
pairs (players who met in an earlier session) does not grow, with restarts; the best draw is kept. For
16 players and 4 sessions it finds a draw with no repeated opponent. Within each table the seat winds are
drawn (seat 0 = East, the first dealer). With ``allow_three`` the players who do not fill tables of four sit
at tables of three (000 §3.1: when the rule set allows it).
"""
from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence


class SeatingError(ValueError):
    pass


def table_sizes(n: int, allow_three: bool) -> list[int]:
    if n < 3 or (n < 4 and not allow_three):
        raise SeatingError(f"{n} players cannot fill a table")
    if n % 4 == 0:
        return [4] * (n // 4)
    if not allow_three:
        raise SeatingError(f"{n} players do not fill tables of four and this rule set plays only four at a "
                           "table: register substitutes (or withdraw players)")
    threes = (4 - n % 4) % 4
    if n < 3 * threes:
        raise SeatingError(f"{n} players cannot sit at tables of three and four")
    return [4] * ((n - 3 * threes) // 4) + [3] * threes


def met(history: Iterable[Sequence[Sequence[str]]]) -> Counter:
    """How often each pair of players sat at one table in the sessions of ``history``."""
    c: Counter = Counter()
    for session in history:
        for table in session:
            for a, b in itertools.combinations(sorted(table), 2):
                c[(a, b)] += 1
    return c


def draw(players: Sequence[str], history: Iterable[Sequence[Sequence[str]]] = (), *, rng: random.Random,
         allow_three: bool = False, sessions: int = 1, restarts: int = 8, steps: int = 20000) -> list[list[str]]:
    """Tables (players by seat, seat 0 = East) for the next session; with ``sessions`` > 1 the next sessions
    are drawn together (a later session is never left without a draw free of repeats) and the first is
    returned — :func:`draw_sessions` returns them all."""
    return draw_sessions(players, history, rng=rng, allow_three=allow_three, sessions=sessions,
                         restarts=restarts, steps=steps)[0]


def draw_sessions(players: Sequence[str], history: Iterable[Sequence[Sequence[str]]] = (), *, rng: random.Random,
                  allow_three: bool = False, sessions: int = 1, restarts: int = 8, steps: int = 20000
                  ) -> list[list[list[str]]]:
    """``sessions`` draws at once: a local search (swap two players of one session between two tables while
    the number of repeated meetings does not grow; restarts) over all of them."""
    players = list(players)
    if len(set(players)) != len(players):
        raise SeatingError("a player is listed twice")
    sizes = table_sizes(len(players), allow_three)
    seen = met(history)
    best: list[list[list[str]]] | None = None
    best_cost = None
    for _ in range(restarts):
        plan = []
        for _s in range(sessions):
            order = players[:]
            rng.shuffle(order)
            tables, i = [], 0
            for n in sizes:
                tables.append(order[i:i + n])
                i += n
            plan.append(tables)
        count = Counter(seen)
        for tables in plan:
            for t in tables:
                for pair in itertools.combinations(sorted(t), 2):
                    count[pair] += 1
        cost = sum(n * (n - 1) // 2 for n in count.values())
        since = 0  # steps since the cost last went down: a search that is stuck restarts
        for _ in range(steps if len(sizes) > 1 else 0):
            if cost == 0 or since > 1500:
                break
            since += 1
            tables = plan[rng.randrange(sessions)]
            a, b = rng.sample(range(len(tables)), 2)
            i, j = rng.randrange(len(tables[a])), rng.randrange(len(tables[b]))
            pa, pb = tables[a][i], tables[b][j]
            rest_a = [x for k, x in enumerate(tables[a]) if k != i]
            rest_b = [y for k, y in enumerate(tables[b]) if k != j]
            delta = 0
            for x in rest_a:
                delta -= count[_pair(pa, x)] - 1
                delta += count[_pair(pb, x)]
            for y in rest_b:
                delta -= count[_pair(pb, y)] - 1
                delta += count[_pair(pa, y)]
            if delta > 0:
                continue
            for x in rest_a:
                count[_pair(pa, x)] -= 1
                count[_pair(pb, x)] += 1
            for y in rest_b:
                count[_pair(pb, y)] -= 1
                count[_pair(pa, y)] += 1
            tables[a][i], tables[b][j] = pb, pa
            cost += delta
            if delta < 0:
                since = 0
        if best_cost is None or cost < best_cost:
            best, best_cost = [[t[:] for t in tables] for tables in plan], cost
        if best_cost == 0:
            break
    assert best is not None
    for tables in best:  # seat winds drawn at each table
        for t in tables:
            rng.shuffle(t)
    return best


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)
