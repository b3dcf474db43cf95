"""The web page's public view: what one state costs to build, beside how often the page may build one.

Whole bot hands are fed to :class:`controller.web.public.PublicHand`; the state (the table as the camera
sees it, the hand machine in table mode, JSON) is built after each event and the figure is the mean build
over the hand and the build at its last event (the largest table). The live page builds a state at most
every ``MIN_GAP_S`` (0.2 s) whatever the event rate, so ``ratio`` = the share of one core the page can take
at its fastest; a real table makes about one event a second (a tenth of that).
"""
from __future__ import annotations

import json
import random
import time

from bench.common import Row
from controller.web.live import MIN_GAP_S
from controller.web.public import PublicHand
from rules.profiles import registry
from rules.simulate import play_hand


def run(quick: bool = False) -> list[Row]:
    rows = []
    for profile in ("riichi-ema2016", "sichuan-mpl2025", "mcr"):
        prof = registry.get(profile)
        rng = random.Random(7)
        hands = [play_hand(prof, random.Random(rng.random()), dealer=0, hand_id=f"h{i}").events
                 for i in range(2 if quick else 8)]
        builds, last, size = [], [], 0
        for h in hands:
            ph = PublicHand(profile)
            for ev in h:
                ph.feed(ev)
                t0 = time.perf_counter()
                text = json.dumps(ph.view())
                builds.append(time.perf_counter() - t0)
            last.append(builds[-1])
            size = max(size, len(text))
        budget = MIN_GAP_S * 1e3
        rows.append(Row(f"public state build, mean over the hand ({profile})", sum(builds) / len(builds) * 1e3, "ms",
                        budget, "the page's fastest refresh"))
        rows.append(Row(f"public state build at the hand's end ({profile})", sum(last) / len(last) * 1e3, "ms",
                        budget, "the page's fastest refresh"))
        rows.append(Row(f"public state, JSON at the hand's end ({profile})", size / 1024, "KiB"))
    rows += _judge_view(quick)
    return rows


def _judge_view(quick: bool) -> list[Row]:
    """The referee's part of the judge's state (controller.web.refereeing.judge_view: the record listed, the
    corrections that still stand found by replaying the record's edits) for whole refereed hands, after two
    judge's corrections, beside the page's fastest refresh."""
    from types import SimpleNamespace

    from controller.referee.sim.play import exact_hand
    from controller.table_machine import S
    from controller.web.refereeing import judge_view
    from rules.events import JudgeCorrection, PondTileSeen

    prof = registry.get("riichi-ema2016")
    times, rows_n = [], 0
    for seed in range(2 if quick else 6):
        ref, _, _ = exact_hand(prof, seed)
        discards = [i for i, e in enumerate(ref.record) if isinstance(e, PondTileSeen)]
        for i in discards[:2]:  # two corrections to replay (a tile put back as it was: the hand unchanged)
            ref.feed(JudgeCorrection(by="bench", op="replace", index=i, event=ref.record[i].to_json(),
                                     t_mono=ref.record[-1].t_mono))
        session = SimpleNamespace(hand_id="h", referee=ref)
        svc = SimpleNamespace(hand_id="h", play_source=SimpleNamespace(session=session),
                              machine=SimpleNamespace(state=S.PLAY))
        t0 = time.perf_counter()
        view = judge_view(svc)
        times.append(time.perf_counter() - t0)
        rows_n = max(rows_n, len(view["record"]))
    return [Row(f"judge's referee view, a whole hand and 2 corrections (riichi, {rows_n} inputs)",
                sum(times) / len(times) * 1e3, "ms", MIN_GAP_S * 1e3, "the page's fastest refresh")]
