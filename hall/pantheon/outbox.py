"""The Pantheon outbox: every call for Pantheon is written down (SQLite, ``synchronous=FULL``) before it is
sent, and leaves only with Pantheon's answer — a restart neither loses nor doubles a round.

Items go out in the order written. Each item of a game (a table's session: ``StartGame``, one ``AddRound``
per hand, ``EndGame``) waits for the one before it; a game held by a refusal or a disagreement holds its
later rounds, other games go on. Before each ``AddRound`` the round is previewed (``PreviewRound``) and
Pantheon's score changes compared with the table's: a disagreement is shown to the judge (``on_problem``,
English and Russian) and not sent, until the judge releases it (:meth:`PantheonOutbox.release`: send as it
is, or skip). A failed authentication or an unknown event holds everything (the config must be fixed).

Doubling: an item is marked ``inflight`` before its request. After a restart (or a request that got no
answer) an ``inflight`` round is reconciled first: if Pantheon holds more rounds of that game
(``GetAllRounds``) than were acknowledged here, it was recorded and is acknowledged without a resend;
Pantheon itself refuses a round whose round index and honba are not the game's current ones ("This round is
already recorded"). An ``inflight`` ``StartGame`` is looked up among the players' current sessions
(``GetCurrentSessions``). ``EndGame``, ``AddPenalty`` and ``CallReferee`` are resent (at least once).
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NotRequired, TypedDict, TypeVar

from hall.pantheon.client import Mimir, PantheonConfig, PantheonError, score_deltas
from hall.pantheon.rounds import HandSummary, deltas_by_player, to_round
from rules.events import JSONObject, JSONValue

_T = TypeVar("_T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game TEXT PRIMARY KEY, players TEXT NOT NULL, session_hash TEXT, round_index INTEGER NOT NULL DEFAULT 0,
    dealer INTEGER
);
CREATE TABLE IF NOT EXISTS items (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE, game TEXT, rpc TEXT NOT NULL,
    body TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'pending', answer TEXT, attempts INTEGER NOT NULL DEFAULT 0,
    force INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, done REAL
);
"""
OPEN = ("pending", "inflight")
HELD = ("refused", "disagree")


class ItemBody(TypedDict, total=False):
    """What an item sends, by its call: ``StartGame`` the players (e-s-w-n), ``AddRound`` the hand, its round and
    our score changes by player (to compare with Pantheon's preview), ``AddPenalty``, ``CallReferee``."""

    players: list[int]
    hand: str
    round: JSONObject
    ours: dict[str, int]
    playerId: int
    amount: int
    reason: str
    tableIndex: int


class Problem(TypedDict):
    """A problem for the director and the judge (English and Russian); a disagreement with both scores."""

    key: str
    game: str | None
    kind: str  # "refused", "disagree"
    text_en: str
    text_ru: str
    ours: NotRequired[dict[int, int]]
    pantheon: NotRequired[dict[int, int]]


@dataclass
class Item:
    seq: int
    key: str
    game: str | None
    rpc: str
    body: ItemBody
    state: str
    answer: JSONValue  # Pantheon's answer as kept (or why it was not sent)
    attempts: int
    force: bool


@dataclass
class DrainReport:
    sent: int = 0  # requests that changed Pantheon (StartGame, AddRound, EndGame, AddPenalty, CallReferee)
    accepted: int = 0  # of them answered with success
    rounds: int = 0  # AddRound accepted
    reconciled: int = 0  # inflight items found already recorded in Pantheon (not sent again)
    refused: int = 0
    disagreements: int = 0
    waiting: int = 0  # items left for later
    error: str = ""  # why the drain stopped early (auth, unknown event, unreachable)
    problems: list[Problem] = field(default_factory=list)

    def line(self) -> str:
        return (f"pantheon: sent {self.sent}, accepted {self.accepted}, refused {self.refused}, "
                f"disagreements {self.disagreements}, waiting {self.waiting}"
                + (f" — {self.error}" if self.error else ""))


class PantheonOutbox:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.RLock()
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def _tx(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                out = fn(self.db)
                self.db.execute("COMMIT")
                return out
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def _put(self, c: sqlite3.Connection, key: str, game: str | None, rpc: str, body: ItemBody) -> bool:
        cur = c.execute("INSERT OR IGNORE INTO items (key, game, rpc, body, created) VALUES (?,?,?,?,?)",
                        (key, game, rpc, json.dumps(body, sort_keys=True), time.time()))
        return cur.rowcount == 1

    # --- what the hall writes -----------------------------------------------------------------------------
    def start_game(self, game: str, players: list[int]) -> bool:
        """A table's game with its players' Pantheon ids by seat (e-s-w-n); False if already written."""
        if len(players) != 4 or len(set(players)) != 4 or not all(isinstance(p, int) and p > 0 for p in players):
            raise ValueError(f"{game}: Pantheon needs four different player ids, got {players}")

        def fn(c: sqlite3.Connection) -> bool:
            c.execute("INSERT OR IGNORE INTO games (game, players) VALUES (?, ?)", (game, json.dumps(players)))
            return self._put(c, f"start:{game}", game, "StartGame", {"players": players})
        return bool(self._tx(fn))

    def add_round(self, game: str, hand: str, summary: HandSummary) -> bool:
        """One refereed hand of ``game``; its round index follows the dealer (a new round when the deal
        passes); False if this hand was already written."""
        key = f"round:{game}/{hand}"

        def fn(c: sqlite3.Connection) -> bool:
            if c.execute("SELECT 1 FROM items WHERE key=?", (key,)).fetchone():
                return False
            row = c.execute("SELECT players, round_index, dealer FROM games WHERE game=?", (game,)).fetchone()
            if row is None:
                raise ValueError(f"{game}: no StartGame written for this game")
            ids, index, dealer = json.loads(row[0]), row[1], row[2]
            index = 1 if index == 0 else index + (1 if summary.dealer != dealer else 0)
            c.execute("UPDATE games SET round_index=?, dealer=? WHERE game=?", (index, summary.dealer, game))
            body: ItemBody = {"hand": hand, "round": to_round(summary, ids, index),
                    "ours": {str(k): v for k, v in deltas_by_player(summary, ids).items()}}
            return self._put(c, key, game, "AddRound", body)
        return bool(self._tx(fn))

    def end_game(self, game: str) -> bool:
        return bool(self._tx(lambda c: self._put(c, f"end:{game}", game, "EndGame", {})))

    def add_penalty(self, key: str, player_id: int, amount: int, reason: str) -> bool:
        body: ItemBody = {"playerId": player_id, "amount": amount, "reason": reason}
        return bool(self._tx(lambda c: self._put(c, f"penalty:{key}", None, "AddPenalty", body)))

    def call_referee(self, key: str, table_index: int) -> bool:
        return bool(self._tx(lambda c: self._put(c, f"referee:{key}", None, "CallReferee",
                                                 {"tableIndex": table_index})))

    # --- reading and the judge's decision -------------------------------------------------------------------
    def items(self, states: tuple[str, ...] | None = None) -> list[Item]:
        with self.lock:
            rows = self.db.execute("SELECT seq, key, game, rpc, body, state, answer, attempts, force FROM items "
                                   "ORDER BY seq").fetchall()
        out = [Item(s, k, g, r, json.loads(b), st, json.loads(a) if a else None, n, bool(f))
               for s, k, g, r, b, st, a, n, f in rows]
        return [i for i in out if states is None or i.state in states]

    def counts(self) -> dict[str, int]:
        with self.lock:
            rows = self.db.execute("SELECT state, COUNT(*) FROM items GROUP BY state").fetchall()
        return {str(state): int(n) for state, n in rows}

    def session_hash(self, game: str) -> str | None:
        with self.lock:
            row = self.db.execute("SELECT session_hash FROM games WHERE game=?", (game,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def release(self, key: str, send: bool = True) -> None:
        """The judge's decision on a held item: send it as it is (no preview check), or skip it."""
        def fn(c: sqlite3.Connection) -> None:
            if send:
                c.execute("UPDATE items SET state='pending', force=1 WHERE key=? AND state IN ('refused','disagree')",
                          (key,))
            else:
                c.execute("UPDATE items SET state='skipped', done=? WHERE key=? AND state IN ('refused','disagree')",
                          (time.time(), key))
        self._tx(fn)

    def _set(self, seq: int, state: str, answer: object = None, bump: bool = False) -> None:
        self._tx(lambda c: c.execute(
            "UPDATE items SET state=?, answer=?, attempts=attempts+?, done=? WHERE seq=?",
            (state, json.dumps(answer, sort_keys=True) if answer is not None else None, int(bump),
             time.time() if state not in OPEN else None, seq)))


def _problem(item: Item, kind: str, en: str, ru: str) -> Problem:
    return {"key": item.key, "game": item.game, "kind": kind, "text_en": en, "text_ru": ru}


class Sender:
    """Sends what the outbox holds, in order, and writes each answer down."""

    def __init__(self, outbox: PantheonOutbox, cfg: PantheonConfig,
                 on_problem: Callable[[Problem], None] | None = None,
                 client: Callable[[PantheonConfig], Mimir] = Mimir):
        self.outbox, self.cfg, self.client = outbox, cfg, client
        self.on_problem = on_problem or (lambda _p: None)

    async def drain(self) -> DrainReport:
        rep = DrainReport()
        held = {i.game for i in self.outbox.items(HELD) if i.game}
        async with self.client(self.cfg) as m:
            for it in self.outbox.items(OPEN):
                if it.game is not None and it.game in held:
                    rep.waiting += 1
                    continue
                try:
                    ok = await self._one(m, it, rep)
                except PantheonError as exc:
                    if exc.kind in ("auth", "event", "unreachable"):
                        rep.error = f"{exc.kind}: {exc}"
                        rep.waiting += len(self.outbox.items(OPEN))
                        if exc.answered:  # Pantheon answered "no": nothing was recorded, send it again later
                            self.outbox._set(it.seq, "pending", {"error": str(exc), "code": exc.code})
                        return rep
                    self.outbox._set(it.seq, "refused", {"error": str(exc), "code": exc.code})
                    rep.refused += 1
                    p = _problem(it, "refused", f"Pantheon refused {it.rpc} ({it.key}): {exc}",
                                 f"Pantheon отклонил {it.rpc} ({it.key}): {exc}")
                    rep.problems.append(p)
                    self.on_problem(p)
                    ok = False
                if not ok and it.game is not None:
                    held.add(it.game)
        return rep

    async def _one(self, m: Mimir, it: Item, rep: DrainReport) -> bool:
        """Send one item; True when it is acknowledged (its game may go on)."""
        ob = self.outbox
        if it.rpc == "StartGame":
            if it.state == "inflight":
                found = await self._find_session(m, it.body["players"])
                if found:
                    self._started(it, found)
                    rep.reconciled += 1
                    return True
            ob._set(it.seq, "inflight", bump=True)
            started = await m.start_game(it.body["players"])
            rep.sent += 1
            self._started(it, started)
            rep.accepted += 1
            return True
        if it.rpc in ("AddRound", "EndGame"):
            h = ob.session_hash(it.game or "")
            if not h:
                rep.waiting += 1
                return False
            if it.rpc == "EndGame":
                ob._set(it.seq, "inflight", bump=True)
                ans = await m.end_game(h)
                rep.sent += 1
                ob._set(it.seq, "accepted", ans)
                rep.accepted += 1
                return True
            if it.state == "inflight":
                done = sum(1 for x in ob.items(("accepted",)) if x.game == it.game and x.rpc == "AddRound")
                if len(await m.all_rounds(h)) > done:  # Pantheon recorded it: the answer was lost, not the round
                    ob._set(it.seq, "accepted", {"reconciled": True})
                    rep.reconciled += 1
                    rep.rounds += 1
                    return True
            if not it.force:
                state = await m.preview_round(h, it.body["round"])
                theirs = score_deltas(state)
                ours = {int(k): int(v) for k, v in it.body["ours"].items()}
                if any(theirs.get(p, 0) != d for p, d in ours.items()):
                    ob._set(it.seq, "disagree", {"ours": ours, "pantheon": theirs})
                    rep.disagreements += 1
                    p = _problem(it, "disagree",
                                 f"Pantheon scores hand {it.body['hand']} differently: ours {ours}, Pantheon {theirs} "
                                 "— not sent; check and release or skip it",
                                 f"Pantheon считает сдачу {it.body['hand']} иначе: у нас {ours}, в Pantheon {theirs} "
                                 "— не отправлено; проверьте и отправьте или пропустите")
                    p["ours"], p["pantheon"] = ours, theirs
                    rep.problems.append(p)
                    self.on_problem(p)
                    return False
            ob._set(it.seq, "inflight", bump=True)
            ans = await m.add_round(h, it.body["round"])
            rep.sent += 1
            ob._set(it.seq, "accepted", ans)
            rep.accepted += 1
            rep.rounds += 1
            return True
        ob._set(it.seq, "inflight", bump=True)
        if it.rpc == "AddPenalty":
            ans = await m.add_penalty(it.body["playerId"], it.body["amount"], it.body["reason"])
        elif it.rpc == "CallReferee":
            ans = await m.call_referee(it.body["tableIndex"])
        else:
            raise PantheonError("refused", f"unknown call {it.rpc}")
        rep.sent += 1
        ob._set(it.seq, "accepted", ans)
        rep.accepted += 1
        return True

    def _started(self, it: Item, session_hash: str) -> None:
        def fn(c: sqlite3.Connection) -> None:
            c.execute("UPDATE games SET session_hash=? WHERE game=?", (session_hash, it.game))
            c.execute("UPDATE items SET state='accepted', answer=?, done=? WHERE seq=?",
                      (json.dumps({"sessionHash": session_hash}), time.time(), it.seq))
        self.outbox._tx(fn)

    async def _find_session(self, m: Mimir, players: list[int]) -> str | None:
        for s in await m.current_sessions(players[0]):
            if [int(p.get("id", 0)) for p in s.get("players", [])] == players:
                return str(s.get("sessionHash", "")) or None
        return None
