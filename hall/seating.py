"""Seating draws: tables for a session that avoid repeated opponents as far as possible, seat winds drawn.

:func:`draw` starts from random tables and swaps players between tables while the number of repeated
pairs (players who met in an earlier session) does not grow, with restarts; the best draw is kept. For
16 players and 4 sessions it finds a draw with no repeated opponent. Within each table the seat winds are
drawn (seat 0 = East, the first dealer). With ``allow_three`` the players who do not fill tables of four sit
at tables of three (000 §3.1: when the rule set allows it).

:func:`draw_report` is the full draw: the table sizes each rule set plays (:class:`TableRules`: Siamese MCR
three or two, 003 lines 2229-2273; Red two to four, 001 line 8; Sichuan an incomplete table of three, or of one
or two that plays no game and is seated last, 000 lines 503-513), players of one region kept apart (000 line
184, «по принципу непересечения»), nobody at an incomplete table twice (000 line 513) — every constraint a
cost of the same bounded local search, so the draw always ends, and what it could not honour is said
(:attr:`Draw.unmet`).
"""
from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.game.protocols import RuleSet


Met = Counter[tuple[str, str]]  # how often each pair of players (in name order) sat at one table


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


def met(history: Iterable[Sequence[Sequence[str]]]) -> Met:
    """How often each pair of players sat at one table in the sessions of ``history``."""
    c: Met = Counter()
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


def _random_tables(players: Sequence[str], sizes: Sequence[int], rng: random.Random) -> list[list[str]]:
    """The players shuffled and cut into tables of these sizes, in order (a search's starting point)."""
    order = list(players)
    rng.shuffle(order)
    tables, i = [], 0
    for n in sizes:
        tables.append(order[i:i + n])
        i += n
    return tables


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
            plan.append(_random_tables(players, sizes, rng))
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



# --- the full draw: table sizes per rule set, regions, incomplete tables -------------------------------------
REGION_WEIGHT = 20  # one pair of one region at a table costs as much as this many repeated meetings
SMALL_AGAIN_WEIGHT = 20  # a player at an incomplete table a second time (000 line 513)


@dataclass(frozen=True)
class TableRules:
    """The tables a rule set plays: ``sizes`` (the players its wall is for), ``preferred`` (the usual table),
    ``bye`` (a table of one or two that plays no game and gets a fixed result, seated last: 000 §3.1.4)."""

    sizes: tuple[int, ...] = (4,)
    preferred: int = 4
    bye: bool = False

    @classmethod
    def of(cls, profile: RuleSet) -> TableRules:
        sizes = []
        for n in (2, 3, 4):
            try:
                profile.wall_spec(n)
            except ValueError:
                continue
            sizes.append(n)
        # 000 §3.1.4 (lines 508-513): Sichuan's table of one or two; the others have no such rule (its data)
        return cls(tuple(sizes), 4 if 4 in sizes else max(sizes), bye=profile.incomplete_table_bye)


@dataclass
class Draw:
    tables: list[list[str]]  # players by seat; an incomplete table of one or two (a bye) last
    unmet: list[str] = field(default_factory=list)  # the constraints the draw could not honour, one line each
    bye: list[str] = field(default_factory=list)  # the players of the table that plays no game


def plan_sizes(n: int, rules: TableRules) -> list[int]:
    """The table sizes for ``n`` players: as many usual tables as possible, the fewest others; a bye table of
    one or two only where nothing else seats everybody (000 §3.1: play at three rather than not at all)."""

    options = sorted(set(rules.sizes) | ({1, 2} if rules.bye else set()), reverse=True)
    best: list[tuple[int, int, tuple[int, ...]] | None] = [(0, 0, ())]  # by players: (byes, unusual, sizes)
    for k in range(1, n + 1):  # bottom-up (no recursion, whatever the number of players)
        out = None
        for size in options:
            rest = best[k - size] if size <= k else None
            if rest is None:
                continue
            is_bye = size not in rules.sizes
            if is_bye and rest[0]:
                continue  # one bye table at most
            cand = (rest[0] + is_bye, rest[1] + (size != rules.preferred and not is_bye),
                    tuple(sorted((*rest[2], size), reverse=True)))
            if out is None or cand[:2] < out[:2]:
                out = cand
        best.append(out)
    got = best[n]
    if got is None:
        words = {2: "two", 3: "three", 4: "four"}
        plays = " or ".join(words[k] for k in rules.sizes)
        raise SeatingError(f"{n} players cannot be seated: this rule set plays only {plays} at a table: register "
                           "substitutes (or withdraw players)")
    return list(got[2])


def draw_report(players: Sequence[str], history: Iterable[Sequence[Sequence[str]]] = (), *, rng: random.Random,
                rules: TableRules = TableRules(), regions: Mapping[str, str] | None = None,
                ranking: Sequence[str] = (), steps: int = 20000, restarts: int = 8) -> Draw:
    """One session's draw honouring every constraint it can; ``ranking`` (best first) puts the lowest-ranked
    players without an earlier bye at the bye table (000 §3.1.4: «должен быть последним»)."""
    players = list(players)
    if len(set(players)) != len(players):
        raise SeatingError("a player is listed twice")
    history = [list(map(list, s)) for s in history]
    sizes = plan_sizes(len(players), rules)
    regions = {p: r for p, r in (regions or {}).items() if r}
    small_before = {p for s in history for t in s if len(t) != rules.preferred for p in t}
    unmet: list[str] = []
    bye: list[str] = []
    if sizes and sizes[-1] not in rules.sizes:  # the bye table: the lowest ranked who had none (000 line 513)
        k = sizes.pop()
        order = [p for p in ranking if p in players] + [p for p in players if p not in ranking]
        fresh = [p for p in reversed(order) if p not in small_before]
        again = [p for p in reversed(order) if p in small_before]
        bye = (fresh + again)[:k]
        for p in bye:
            if p in small_before:
                unmet.append(f"{p} sits at an incomplete table again: every player has had one (000 §3.1.4)")
        players = [p for p in players if p not in bye]
    seen = met(history)
    best: list[list[str]] | None = None
    best_cost = None
    for _ in range(restarts):
        tables = _random_tables(players, sizes, rng)
        cost = sum(_table_cost(t, seen, regions, small_before, rules) for t in tables)
        since = 0
        for _ in range(steps if len(tables) > 1 else 0):
            if cost == 0 or since > 1500:
                break
            since += 1
            a, b = rng.sample(range(len(tables)), 2)
            i, j = rng.randrange(len(tables[a])), rng.randrange(len(tables[b]))
            old = _table_cost(tables[a], seen, regions, small_before, rules) + \
                _table_cost(tables[b], seen, regions, small_before, rules)
            tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
            new = _table_cost(tables[a], seen, regions, small_before, rules) + \
                _table_cost(tables[b], seen, regions, small_before, rules)
            if new > old:
                tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                continue
            if new < old:
                since = 0
            cost += new - old
        if best_cost is None or cost < best_cost:
            best, best_cost = [t[:] for t in tables], cost
        if best_cost == 0:
            break
    assert best is not None
    unmet += unmet_of(best, history, rules, regions)
    for t in best:
        rng.shuffle(t)  # seat winds drawn at each table
    best.sort(key=len, reverse=True)  # incomplete tables last (000 §3.1.3: the missing player is North)
    if bye:
        best.append(bye)
    return Draw(best, unmet, bye)


def unmet_of(tables: Sequence[Sequence[str]], history: Iterable[Sequence[Sequence[str]]], rules: TableRules,
             regions: Mapping[str, str] | None = None) -> list[str]:
    """What a draw does not honour, one line each: players of one region together, a second incomplete table,
    opponents meeting again."""
    history = [list(map(list, s)) for s in history]
    seen = met(history)
    regions = {p: r for p, r in (regions or {}).items() if r}
    small_before = {p for s in history for t in s if len(t) != rules.preferred for p in t}
    out: list[str] = []
    for t in tables:
        if len(t) not in rules.sizes:
            continue  # the bye table: said when it was chosen
        same = [(a, b) for a, b in itertools.combinations(sorted(t), 2) if a in regions and regions[a] == regions.get(b)]
        out += [f"{a} and {b} of one region ({regions[a]}) share a table (000 §2.4.1)" for a, b in same]
        if len(t) != rules.preferred:
            out += [f"{p} sits at an incomplete table again (000 §3.1)" for p in sorted(t) if p in small_before]
        out += [f"{a} and {b} meet again" for a, b in itertools.combinations(sorted(t), 2) if seen[(a, b)]]
    return out


def _table_cost(t: Sequence[str], seen: Met, regions: Mapping[str, str], small_before: set[str],
                rules: TableRules) -> int:
    cost = 0
    for a, b in itertools.combinations(t, 2):
        cost += seen[_pair(a, b)]
        if a in regions and regions[a] == regions.get(b):
            cost += REGION_WEIGHT
    if len(t) != rules.preferred:
        cost += SMALL_AGAIN_WEIGHT * sum(1 for p in t if p in small_before)
    return cost
