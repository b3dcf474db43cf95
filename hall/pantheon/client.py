"""Pantheon's public API: Twirp, JSON over HTTP POST at ``{mimir}/v2/common.Mimir/<Rpc>``.

Headers: ``X-Auth-Token`` (the token of the person acting, a referee or an administrator of the event),
``X-Current-Person-Id``, ``X-Current-Event-Id``. Bodies are the proto3 JSON of the messages of
``Common/proto/mimir.proto`` and ``atoms.proto`` (lowerCamelCase field names; a field at its default is left
out of an answer). A Twirp error answer is ``{"code", "msg", "meta"}`` with an HTTP status from the code;
Pantheon answers most of its refusals (a failed authentication, a round it will not record) as ``internal``
with the reason in ``msg``, an unknown event as ``not_found``.

:class:`PantheonError` tells an answer (Pantheon refused: ``kind`` ``auth``, ``event`` or ``refused``) from no
answer (``kind`` ``unreachable``: try again later).
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict, cast

import aiohttp

from rules.events import JSONObject

AUTH_RE = re.compile(r"auth|token|logged in|privileges|access|permission", re.I)
EVENT_RE = re.compile(r"event", re.I)


# --- what the hall reads of Pantheon's answers (proto3 JSON: a field at its default is left out) ----------------
class ScoreDelta(TypedDict, total=False):
    playerId: int
    score: int


class RoundState(TypedDict, total=False):
    """``RoundState`` (``PreviewRound``'s ``state``): the score changes by player."""

    scoresDelta: list[ScoreDelta]


class GameConfig(TypedDict, total=False):
    eventTitle: str


class SessionPlayer(TypedDict, total=False):
    id: int


class SessionInfo(TypedDict, total=False):
    """A game being played (``GetCurrentSessions``)."""

    sessionHash: str
    players: list[SessionPlayer]


class _Events(TypedDict, total=False):
    events: list[JSONObject]


class _Started(TypedDict, total=False):
    sessionHash: str


class _Preview(TypedDict, total=False):
    state: RoundState


class _Rounds(TypedDict, total=False):
    rounds: list[JSONObject]


class _Sessions(TypedDict, total=False):
    sessions: list[SessionInfo]


class PantheonError(RuntimeError):
    def __init__(self, kind: str, message: str, code: str = "", status: int = 0):
        self.kind, self.code, self.status = kind, code, status
        super().__init__(message)

    @property
    def answered(self) -> bool:
        """Pantheon gave an answer (a refusal), as opposed to no answer at all."""
        return self.kind != "unreachable"


@dataclass(frozen=True)
class PantheonConfig:
    url: str  # Mimir's base URL, e.g. https://mimir.riichimahjong.org
    token: str
    person_id: int
    event_id: int
    timeout_s: float = 10.0

    def endpoint(self, rpc: str) -> str:
        return f"{self.url.rstrip('/')}/v2/common.Mimir/{rpc}"

    @property
    def headers(self) -> dict[str, str]:
        return {"Content-Type": "application/json", "X-Twirp": "true", "X-Auth-Token": self.token,
                "X-Current-Person-Id": str(self.person_id), "X-Current-Event-Id": str(self.event_id)}


def classify(status: int, body: object) -> PantheonError:
    """A Twirp error answer as a :class:`PantheonError`."""
    if not isinstance(body, dict) or "code" not in body:
        if status in (502, 503, 504):
            return PantheonError("unreachable", f"HTTP {status} from the proxy in front of Pantheon", "", status)
        return PantheonError("refused", f"HTTP {status}: not a Twirp answer", "", status)
    code, msg = str(body.get("code", "")), str(body.get("msg", ""))
    if code in ("unauthenticated", "permission_denied") or AUTH_RE.search(msg):
        kind = "auth"
    elif code == "not_found" and EVENT_RE.search(msg):
        kind = "event"
    elif code in ("unavailable", "deadline_exceeded"):
        kind = "unreachable"
    else:
        kind = "refused"
    return PantheonError(kind, msg or code, code, status)


class Mimir:
    """One aiohttp session to Pantheon's Mimir; ``await call(rpc, payload)`` → the answer's JSON object."""

    def __init__(self, cfg: PantheonConfig):
        self.cfg = cfg
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> Mimir:
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.cfg.timeout_s))
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()

    async def call(self, rpc: str, payload: Mapping[str, object]) -> JSONObject:
        assert self._session is not None, "use 'async with Mimir(cfg)'"
        try:
            async with self._session.post(self.cfg.endpoint(rpc), data=json.dumps(payload),
                                          headers=self.cfg.headers) as r:
                text = await r.text()
                status = r.status
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            raise PantheonError("unreachable", f"{self.cfg.url}: {exc or type(exc).__name__}") from None
        try:
            body = json.loads(text) if text else {}
        except ValueError:
            body = None
        if status != 200:
            raise classify(status, body)
        if not isinstance(body, dict):
            raise PantheonError("refused", f"{rpc}: the answer is not JSON", "", status)
        return body

    # --- the calls the hall makes (messages of mimir.proto); each answer typed as the message it is ------------
    async def game_config(self) -> GameConfig:
        return cast(GameConfig, await self.call("GetGameConfig", {"eventId": self.cfg.event_id}))

    async def my_events(self) -> list[JSONObject]:
        return list(cast(_Events, await self.call("GetMyEvents", {})).get("events", []))

    async def start_game(self, players: list[int]) -> str:
        ans = cast(_Started, await self.call("StartGame", {"eventId": self.cfg.event_id, "players": players}))
        return str(ans.get("sessionHash", ""))

    async def preview_round(self, session_hash: str, round_data: JSONObject) -> RoundState:
        ans = await self.call("PreviewRound", {"sessionHash": session_hash, "roundData": round_data})
        return cast(RoundState, dict(cast(_Preview, ans).get("state", {})))

    async def add_round(self, session_hash: str, round_data: JSONObject) -> JSONObject:
        return await self.call("AddRound", {"sessionHash": session_hash, "roundData": round_data})

    async def end_game(self, session_hash: str) -> JSONObject:
        return await self.call("EndGame", {"sessionHash": session_hash})

    async def add_penalty(self, player_id: int, amount: int, reason: str) -> JSONObject:
        return await self.call("AddPenalty", {"eventId": self.cfg.event_id, "playerId": player_id,
                                              "amount": amount, "reason": reason})

    async def call_referee(self, table_index: int) -> JSONObject:
        return await self.call("CallReferee", {"tableIndex": table_index, "eventId": self.cfg.event_id})

    async def all_rounds(self, session_hash: str) -> list[JSONObject]:
        ans = await self.call("GetAllRounds", {"sessionHash": session_hash})
        return list(cast(_Rounds, ans).get("rounds", []))

    async def current_sessions(self, player_id: int) -> list[SessionInfo]:
        ans = await self.call("GetCurrentSessions", {"playerId": player_id, "eventId": self.cfg.event_id})
        return list(cast(_Sessions, ans).get("sessions", []))


def score_deltas(state: RoundState) -> dict[int, int]:
    """``RoundState.scores_delta`` by player id (a zero score is left out of proto3 JSON: 0)."""
    return {int(x.get("playerId", 0)): int(x.get("score", 0)) for x in state.get("scoresDelta", [])}


async def check(cfg: PantheonConfig) -> tuple[bool, str]:
    """One line: is the event reachable and the token valid?"""
    async with Mimir(cfg) as m:
        try:
            conf = await m.game_config()
        except PantheonError as exc:
            what = {"event": f"event {cfg.event_id} unknown", "unreachable": "unreachable"}.get(exc.kind, "refused")
            return False, f"pantheon: {cfg.url}: {what}: {exc}"
        title = conf.get("eventTitle", "")
        try:
            await m.my_events()
        except PantheonError as exc:
            what = "token refused" if exc.kind == "auth" else exc.kind
            return False, f"pantheon: event {cfg.event_id} {title!r} reachable, {what}: {exc}"
    return True, f"pantheon: event {cfg.event_id} {title!r} reachable at {cfg.url}, token valid (person {cfg.person_id})"
