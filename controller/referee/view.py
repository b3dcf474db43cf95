"""The public view of a refereed hand: what anyone at or around the table may see — never a concealed tile
before it is shown. The web page (and the hall) project it; :func:`public_view` is JSON-ready."""
from __future__ import annotations

from typing import TYPE_CHECKING

from controller.referee.verdicts import verdict_lines
from rules.events import ClaimTimed, JSONObject, Violation

if TYPE_CHECKING:
    from controller.referee.core import Referee


def public_view(ref: Referee, verdicts: int = 12) -> JSONObject:
    """The hand as the referee follows it: seats (ponds, sets, flowers, counts, shown hands), the claim
    window open now, the question waiting for an answer, the latest verdicts (English and Russian), the
    settlement and who has signed it."""
    st = ref.machine.state
    seats: list[JSONObject] = []
    for s in st.seats if st.seat_state else ():  # (none before the hand's start reached the referee)
        ss = st.seat_state[s]
        seats.append({
            "seat": s,
            "pond": [str(t) for t, taken in zip(ss.pond, ss.pond_claimed) if not taken],
            "melds": [str(m) for m in ss.melds],
            "flowers": [str(f) for f in ss.flowers],
            "concealed": ss.n_concealed,
            "revealed": [str(t) for t in ss.tiles()] if ss.revealed else [],
            "riichi": ss.riichi,
            "missing_suit": ss.missing_suit,
            "won": ss.won,
            "dead": ss.dead,
        })
    w = ref.window
    q = ref.open_question
    out = [e for e in ref.outputs if isinstance(e, Violation)][-verdicts:]
    claims = [e for e in ref.outputs if isinstance(e, ClaimTimed)][-4:]
    settled = st.settled
    confirmed = ref.confirmed
    return {
        "hand_id": ref.hand_id,
        "profile": ref.name,
        "phase": st.phase,
        "dealer": st.dealer,
        "current": st.current,
        "wall_remaining": st.wall_remaining if st.wall is not None else None,
        "dora_indicators": list(ref.indicators),
        "seats": seats,
        "window": None if w is None else {"discarder": w.discarder, "tile": w.tile, "opened": w.t_open,
                                          "closes": w.deadline, "rob": w.rob},
        "question": None if q is None else {"id": q.event.question_id, "kind": q.event.kind, "seat": q.event.seat,
                                            "en": q.event.message, "ru": q.event.message_ru,
                                            "choices": list(q.event.choices)},
        "verdicts": [{"seat": v.seat, "code": v.code, "rule": v.rule, "en": verdict_lines(v, ref.profile)[0],
                      "ru": verdict_lines(v, ref.profile)[1], "t": v.t_mono} for v in out],
        "claims": [{"seat": c.seat, "kind": c.kind, "delay": c.delay, "late": c.late} for c in claims],
        "settlement": None if settled is None else {"deltas": list(settled.deltas),
                                                    "payments": [dict(p) for p in settled.payments]},
        "signed": sorted(ref.confirm_seats),
        "confirmed": None if confirmed is None else {"by": confirmed.by, "deltas": list(confirmed.deltas)},
        "revision": ref.revision,
    }
