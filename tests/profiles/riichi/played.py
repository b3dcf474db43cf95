"""Riichi hands played through the hand machine to the outcomes the procedural vectors describe
(``tests.game.table_script.Table``): exhaustive draws with chosen tenpai seats, wins on a discard (one
or two winners), self-drawn wins, chombo, riichi declarations. Dealer: seat 0 throughout."""
from __future__ import annotations

from rules.events import Won
from rules.game.state import HandState
from rules.profiles import registry
from tests.game.table_script import Table

RIICHI = registry.get("riichi-ema2016")

# ready (tenpai) and not-ready hands per seat, pairwise compatible (no fifth copy in any combination)
TENPAI = {0: "123m456m789m1122p", 1: "123p456p789p1133s", 2: "123s456s789s5577m", 3: "678m678p678s2255z"}
NOTEN = {0: "159m258p369s1246z", 1: "268m147p147s3567z", 2: "37m369p258s12z577z", 3: "48m147p258s13z667z"}
EXTRA = "9s"  # the dealer's fourteenth tile, his first discard
# waiting on 5s/8s with a yaku: tanyao (all simples) for seats 0 and 3; tanyao + pinfu + iipeikou (3900)
# for seat 2; pinfu and riichi (2000) for seat 3's riichi hand
TANYAO_0 = "234m567m345p55s67s"
TANYAO_3 = "345m678p234s66p67s"
IIPEIKOU_2 = "223344m567p67s88p"
PINFU_3 = "123m345p234s99p67s"
SAFE = "3z3z3z3z5z5z5z5z7z7z7z7z"  # drawn and discarded by everyone: no one waits on them


def exhaustive(tenpai: list[int], options: dict[str, int] | None = None) -> HandState:
    """Everyone draws and discards the tile drawn until the wall is empty; ``tenpai`` seats are ready."""
    hands = {s: (TENPAI if s in tenpai else NOTEN)[s] for s in range(4)}
    hands[0] += EXTRA
    t = Table(RIICHI, hands=hands, options=options)
    t.discard(EXTRA)
    t.exhaust()
    assert t.st.tenpai_declared == tuple(tenpai)
    return t.finish()


def ron(discarder: int, winners: list[int], options: dict[str, int] | None = None) -> HandState:
    """``discarder`` discards 8s at his first turn (the dealer: at once) and ``winners`` win on it."""
    hands = {0: NOTEN[0] + EXTRA}
    waits = {0: TANYAO_0 + EXTRA, 1: TANYAO_3, 3: TANYAO_3 if 1 not in winners else TANYAO_0}
    for w in winners:
        hands[w] = waits[w]
    if discarder == 0:
        hands[0] = NOTEN[0].replace("369s", "368s") + EXTRA
        t = Table(RIICHI, hands=hands, options=options)
        t.discard("8s")
    else:
        t = Table(RIICHI, hands=hands, draws="1z" * (discarder - 1) + "8s", options=options)
        t.discard(EXTRA)
        for _ in range(discarder):
            t.discard()
    t.ron(*winners)
    return t.finish()


def tsumo(winner: int, options: dict[str, int] | None = None) -> HandState:
    """``winner`` (not the dealer) draws his winning tile at his first turn: menzen tsumo."""
    hands = {0: NOTEN[0] + EXTRA, winner: TENPAI[winner]}
    t = Table(RIICHI, hands=hands, draws="1z" * (winner - 1) + "1s" * (winner == 1) + "5m" * (winner == 2),
              options=options)
    t.discard(EXTRA)
    for _ in range(winner - 1):
        t.discard()
    t.tsumo()
    return t.finish()


def chombo(offender: int, options: dict[str, int] | None = None) -> HandState:
    """``offender`` declares a self-drawn win with a hand that is not one (a false win: chombo)."""
    t = Table(RIICHI, hands={0: NOTEN[0] + EXTRA, offender: NOTEN[offender] + (EXTRA if offender == 0 else "")},
              options=options)
    if offender == 0:
        t.ok(Won(seat=0, tile=EXTRA))
    else:
        t.discard(EXTRA)
        for _ in range(offender - 1):
            t.discard()
        drawn = t.draw()
        t.ok(Won(seat=offender, tile=str(drawn)))
    return t.finish()
