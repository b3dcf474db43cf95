"""A stand-in for Pantheon's Mimir in the tests: aiohttp on loopback (port 0) speaking its Twirp JSON as
``Common/proto/mimir.proto`` and ``atoms.proto`` of MahjongPantheon/pantheon define it, field by field.

Requests: ``POST /v2/common.Mimir/<Rpc>``, ``Content-Type: application/json``, the headers ``X-Auth-Token``,
``X-Current-Person-Id``, ``X-Current-Event-Id``; every field is checked against the message's fields and
types (proto3 JSON: lowerCamelCase or the proto name; an unknown field is refused here — stricter than
Pantheon, which ignores it — so a misspelt field fails a test). Answers leave fields at their default out,
as proto3 JSON does. Errors are Twirp's ``{"code", "msg", "meta"}`` as Pantheon gives them: its exceptions
as ``internal`` (HTTP 500) with the reason — a failed authentication, a round it refuses ("This round is
already recorded (or other round index/honba mismatch)", "Ron must have winner and loser") — an unknown event
as ``not_found`` (404). The scores are computed here independently of ``rules/`` (EMA: no kiriage, honba 300 to
every winner, riichi sticks to the first winner in turn order at a double ron; noten 3000), so a preview
compares two computations, not one with itself.
"""
from __future__ import annotations

import asyncio
import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

I32, I32S, BOOL, STR = "int32", "int32[]", "bool", "string"
WIN_FIELDS = {"paoPlayerId": I32, "han": I32, "fu": I32, "yaku": I32S, "dora": I32, "uradora": I32,
              "kandora": I32, "kanuradora": I32, "openHand": BOOL}
MESSAGES: dict[str, dict[str, Any]] = {
    "RonResult": {"roundIndex": I32, "honba": I32, "winnerId": I32, "loserId": I32, **WIN_FIELDS, "riichiBets": I32S},
    "TsumoResult": {"roundIndex": I32, "honba": I32, "winnerId": I32, **WIN_FIELDS, "riichiBets": I32S},
    "MultironWin": {"winnerId": I32, **WIN_FIELDS},
    "MultironResult": {"roundIndex": I32, "honba": I32, "loserId": I32, "multiRon": I32,
                       "wins": ["MultironWin"], "riichiBets": I32S},
    "DrawResult": {"roundIndex": I32, "honba": I32, "riichiBets": I32S, "tempai": I32S},
    "AbortResult": {"roundIndex": I32, "honba": I32, "riichiBets": I32S},
    "ChomboResult": {"roundIndex": I32, "honba": I32, "loserId": I32},
    "NagashiResult": {"roundIndex": I32, "honba": I32, "riichiBets": I32S, "tempai": I32S, "nagashi": I32S},
    "Round": {"ron": "RonResult", "tsumo": "TsumoResult", "multiron": "MultironResult", "draw": "DrawResult",
              "abort": "AbortResult", "chombo": "ChomboResult", "nagashi": "NagashiResult"},  # oneof outcome
    "GamesStartGamePayload": {"eventId": I32, "players": I32S},
    "GamesAddRoundPayload": {"sessionHash": STR, "roundData": "Round"},
    "GamesPreviewRoundPayload": {"sessionHash": STR, "roundData": "Round"},
    "GamesEndGamePayload": {"sessionHash": STR},
    "GamesAddPenaltyPayload": {"eventId": I32, "playerId": I32, "amount": I32, "reason": STR},
    "CallRefereePayload": {"tableIndex": I32, "eventId": I32},
    "GenericEventPayload": {"eventId": I32},
    "PlayersGetMyEventsPayload": {},
    "PlayersGetAllRoundsPayload": {"sessionHash": STR},
    "PlayersGetCurrentSessionsPayload": {"playerId": I32, "eventId": I32},
}
RPCS = {"StartGame": "GamesStartGamePayload", "AddRound": "GamesAddRoundPayload",
        "PreviewRound": "GamesPreviewRoundPayload", "EndGame": "GamesEndGamePayload",
        "AddPenalty": "GamesAddPenaltyPayload", "CallReferee": "CallRefereePayload",
        "GetGameConfig": "GenericEventPayload", "GetMyEvents": "PlayersGetMyEventsPayload",
        "GetAllRounds": "PlayersGetAllRoundsPayload", "GetCurrentSessions": "PlayersGetCurrentSessionsPayload"}
AUTH_FAILED = "Authentication failed! Ask for some assistance from admin team"


class Twirp(Exception):
    def __init__(self, msg: str, code: str = "internal", status: int = 500):
        self.msg, self.code, self.status = msg, code, status


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(x.title() for x in rest)


def check_message(kind: str, value: Any, where: str = "") -> dict[str, Any]:
    """The message ``kind`` decoded from proto3 JSON, every field checked; Twirp 'failed to parse' else."""
    if not isinstance(value, dict):
        raise Twirp(f"failed to parse request json: {where or kind} is not an object")
    spec = MESSAGES[kind]
    out: dict[str, Any] = {}
    for k, v in value.items():
        name = _camel(k)
        if name not in spec:
            raise Twirp(f"failed to parse request json: {kind} has no field {k!r}")
        t = spec[name]
        if t == I32:
            ok = type(v) is int and -2**31 <= v < 2**31
        elif t == I32S:
            ok = isinstance(v, list) and all(type(x) is int for x in v)
        elif t == BOOL:
            ok = type(v) is bool
        elif t == STR:
            ok = isinstance(v, str)
        elif isinstance(t, list):
            ok = isinstance(v, list)
            v = [check_message(t[0], x, f"{where}.{name}") for x in v] if ok else v
        else:
            v = check_message(t, v, f"{where}.{name}")
            ok = True
        if not ok:
            raise Twirp(f"failed to parse request json: {kind}.{name} = {v!r} is not a {t}")
        out[name] = v
    if kind == "Round" and len(out) != 1:
        raise Twirp("Unsupported outcome specified")
    return out


@dataclass
class Session:
    hash: str
    event: int
    players: list[int]
    scores: dict[int, int]
    round_index: int = 1
    honba: int = 0
    riichi: int = 0  # sticks on the table
    rounds: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False

    @property
    def dealer(self) -> int:
        return self.players[(self.round_index - 1) % 4]


def _base(han: int, fu: int) -> int:
    if han < 0:
        return 8000 * -han
    if han >= 13:
        return 8000
    if han >= 11:
        return 6000
    if han >= 8:
        return 4000
    if han >= 6:
        return 3000
    if han >= 5:
        return 2000
    return min(2000, fu * 2 ** (2 + han))


def _up(x: float) -> int:
    return int(-(-x // 100) * 100)


class FakeMimir:
    def __init__(self, event_id: int = 77, players: tuple[int, ...] = (), token: str = "good-token",
                 person_id: int = 5, start_points: int = 30000):
        self.event_id, self.title = event_id, "Refereed tables (test)"
        self.registered = set(players)
        self.tokens = {token: person_id}
        self.expired: set[str] = set()
        self.start_points = start_points
        self.sessions: dict[str, Session] = {}
        self.penalties: list[dict[str, Any]] = []
        self.referee_calls: list[dict[str, Any]] = []
        self.calls: list[tuple[str, dict[str, Any], dict[str, str]]] = []
        self.preview_bias: Callable[[Session, dict[int, int]], dict[int, int]] | None = None
        self.drop_answer: Callable[[str, dict[str, Any]], bool] = lambda rpc, body: False
        self.url = ""
        self._runner: web.AppRunner | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    # --- the server ----------------------------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.StreamResponse:
        rpc = request.match_info["rpc"]
        try:
            if request.content_type != "application/json":
                raise Twirp(f'unexpected Content-Type: "{request.content_type}"', "bad_route", 404)
            if rpc not in RPCS:
                raise Twirp(f"no handler for path {request.path!r}", "bad_route", 404)
            try:
                raw = json.loads(await request.text() or "{}")
            except ValueError:
                raise Twirp("failed to parse request json") from None
            body = check_message(RPCS[rpc], raw)
            headers = {k: request.headers.get(k, "") for k in ("X-Auth-Token", "X-Current-Person-Id",
                                                                "X-Current-Event-Id")}
            self.calls.append((rpc, body, headers))
            if rpc != "GetGameConfig":  # the event's config is public
                tok = headers["X-Auth-Token"]
                if tok not in self.tokens or tok in self.expired \
                        or headers["X-Current-Person-Id"] != str(self.tokens[tok]):
                    raise Twirp("No player logged in" if rpc == "GetMyEvents" else AUTH_FAILED)
            answer = getattr(self, f"rpc_{rpc}")(body, headers)
            if self.drop_answer(rpc, body):  # recorded, but the answer never reaches the client
                raise ConnectionResetError("answer dropped")
            return web.json_response(answer)
        except Twirp as t:
            return web.json_response({"code": t.code, "msg": t.msg, "meta": {}}, status=t.status)
        except ConnectionResetError:
            if request.transport is not None:
                request.transport.close()
            raise

    def _event(self, eid: int) -> None:
        if eid != self.event_id:
            raise Twirp("Event not found", "not_found", 404)

    def _session(self, h: str) -> Session:
        s = self.sessions.get(h)
        if s is None:
            raise Twirp(f"Session {h!r} not found")
        if s.finished:
            raise Twirp("Session is already finished. Can't alter finished sessions")
        return s

    def rpc_GetGameConfig(self, b, _h):  # noqa: N802
        self._event(b.get("eventId", 0))
        return {"eventTitle": self.title, "rulesetTitle": "EMA", "useTimer": True, "gameDuration": 90}

    def rpc_GetMyEvents(self, _b, _h):  # noqa: N802
        return {"events": [{"id": self.event_id, "title": self.title}]}

    def rpc_StartGame(self, b, _h):  # noqa: N802
        self._event(b.get("eventId", 0))
        players = b.get("players", [])
        if len(players) != 4 or len(set(players)) != 4 or not set(players) <= self.registered:
            raise Twirp("Some players are not registered in this event")
        h = secrets.token_hex(6)
        self.sessions[h] = Session(h, self.event_id, list(players), dict.fromkeys(players, self.start_points))
        return {"sessionHash": h}

    def _deltas(self, s: Session, rd: dict[str, Any]) -> tuple[str, dict[int, int], bool]:
        """(outcome, score changes by player id, does the dealer keep the deal)."""
        (outcome, r), = rd.items()
        d = dict.fromkeys(s.players, 0)
        bets = r.get("riichiBets", [])
        for p in bets:
            d[p] -= 1000
        sticks = 1000 * (s.riichi + len(bets))
        dealer = s.dealer
        if outcome in ("ron", "multiron"):
            loser = r.get("loserId", 0)
            wins = r.get("wins", []) if outcome == "multiron" else [r]
            if not loser or any(not w.get("winnerId") for w in wins):
                raise Twirp("Ron must have winner and loser")
            order = sorted(wins, key=lambda w: (s.players.index(w["winnerId"]) - s.players.index(loser)) % 4)
            for i, w in enumerate(order):  # each winner his hand and the counters (004 Rules 4.1, 3.4.10;
                # Pantheon's EMA ruleset: doubleron_honba_atamahane false), the sticks to the first winner
                # in turn, a later winner's own stake back to him
                pts = _up(_base(w.get("han", 0), w.get("fu", 0)) * (6 if w["winnerId"] == dealer else 4))
                pts += 300 * s.honba
                if i == 0:
                    d[w["winnerId"]] += sticks - 1000 * sum(1 for x in order[1:] if x["winnerId"] in bets)
                elif w["winnerId"] in bets:
                    d[w["winnerId"]] += 1000
                d[w["winnerId"]] += pts
                d[loser] -= pts
            return outcome, d, any(w["winnerId"] == dealer for w in wins)
        if outcome == "tsumo":
            w = r.get("winnerId", 0)
            if not w:
                raise Twirp("Tsumo must have winner")
            base = _base(r.get("han", 0), r.get("fu", 0))
            for p in s.players:
                if p != w:
                    pay = _up(base * 2 if (w == dealer or p == dealer) else base) + 100 * s.honba
                    d[p] -= pay
                    d[w] += pay
            d[w] += sticks
            return outcome, d, w == dealer
        if outcome in ("draw", "nagashi"):
            tempai = r.get("tempai", [])
            if 0 < len(tempai) < 4:
                for p in s.players:
                    d[p] += 3000 // len(tempai) if p in tempai else -3000 // (4 - len(tempai))
            return outcome, d, dealer in tempai
        if outcome == "chombo":  # EMA in Pantheon: the chombo is taken from the final score, not paid
            return outcome, dict.fromkeys(s.players, 0), True
        return outcome, d, True  # abort

    def _state(self, s: Session, rd: dict[str, Any], d: dict[int, int], outcome: str) -> dict[str, Any]:
        return {"sessionHash": s.hash, "dealer": s.dealer, "roundIndex": s.round_index, "riichi": s.riichi,
                "honba": s.honba, "scores": [{"playerId": p, "score": s.scores[p] + d[p]} for p in s.players],
                "scoresDelta": [{"playerId": p, **({"score": d[p]} if d[p] else {})} for p in s.players],
                "round": rd, "outcome": "ROUND_OUTCOME_" + outcome.upper()}

    def rpc_PreviewRound(self, b, _h):  # noqa: N802
        s = self._session(b.get("sessionHash", ""))
        outcome, d, _keep = self._deltas(s, b.get("roundData", {}))
        if self.preview_bias is not None:
            d = self.preview_bias(s, d)
        return {"state": self._state(s, b["roundData"], d, outcome)}

    def rpc_AddRound(self, b, _h):  # noqa: N802
        s = self._session(b.get("sessionHash", ""))
        rd = b.get("roundData", {})
        (_o, r), = rd.items()
        if r.get("roundIndex", 0) != s.round_index or r.get("honba", 0) != s.honba:
            raise Twirp("This round is already recorded (or other round index/honba mismatch)")
        outcome, d, keep = self._deltas(s, rd)
        for p in s.players:
            s.scores[p] += d[p]
        s.rounds.append(self._state(s, rd, d, outcome))
        won = outcome in ("ron", "multiron", "tsumo")
        s.riichi = 0 if won else s.riichi + len(r.get("riichiBets", []))
        if outcome not in ("chombo", "abort"):
            s.honba = s.honba + 1 if keep or not won else 0
            if not keep:
                s.round_index += 1
        return {"scores": [{"playerId": p, "score": s.scores[p]} for p in s.players], "round": s.round_index,
                **({"honba": s.honba} if s.honba else {}), **({"riichiBets": s.riichi} if s.riichi else {})}

    def rpc_EndGame(self, b, _h):  # noqa: N802
        s = self._session(b.get("sessionHash", ""))
        s.finished = True
        return {"success": True}

    def rpc_AddPenalty(self, b, _h):  # noqa: N802
        self._event(b.get("eventId", 0))
        if b.get("playerId") not in self.registered:
            raise Twirp("Can't get penalties for unregistered player")
        self.penalties.append(b)
        return {"success": True}

    def rpc_CallReferee(self, b, _h):  # noqa: N802
        self._event(b.get("eventId", 0))
        self.referee_calls.append(b)
        return {"success": True}

    def rpc_GetAllRounds(self, b, _h):  # noqa: N802
        s = self.sessions.get(b.get("sessionHash", ""))
        if s is None:
            raise Twirp("Session not found")
        return {"rounds": s.rounds}

    def rpc_GetCurrentSessions(self, b, _h):  # noqa: N802
        self._event(b.get("eventId", 0))
        pid = b.get("playerId", 0)
        return {"sessions": [{"sessionHash": s.hash, "status": "inprogress",
                              "players": [{"id": p, "title": f"player {p}", "score": s.scores[p]} for p in s.players]}
                             for s in self.sessions.values() if pid in s.players and not s.finished]}

    def rpc_names(self) -> list[str]:
        return [c[0] for c in self.calls]

    # --- running it in a thread (the code under test runs its own event loops) --------------------------------
    def start(self) -> FakeMimir:
        ready = threading.Event()

        def run() -> None:
            self._loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self._loop)
            app = web.Application()
            app.router.add_post(r"/v2/common.Mimir/{rpc:[A-Za-z]+}", self._handle)
            self._runner = web.AppRunner(app, access_log=None)
            self._loop.run_until_complete(self._runner.setup())
            site = web.TCPSite(self._runner, "127.0.0.1", 0)
            self._loop.run_until_complete(site.start())
            port = self._runner.addresses[0][1]
            self.url = f"http://127.0.0.1:{port}"
            ready.set()
            self._loop.run_forever()
            self._loop.run_until_complete(self._runner.cleanup())
            self._loop.close()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        ready.wait(10)
        return self

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)

