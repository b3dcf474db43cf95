"""The referee on a Pi-class CPU (issue 29): the same refereed hands (``simulate --faults``: the whole stack,
bots' faults included) with every vision read taking 1, 3 and 6 times its measured time on this machine — a
Raspberry Pi 5 is about 2-3 times slower per core than an x86 test machine, a Pi 4 about 5 — in one run.

The camera films at 10 frames a second in camera time while the reader works; a one-frame queue keeps the
newest frame, so a slow reader drops frames instead of falling behind (``controller.referee.sim.observe``).
Per slowdown: the verdict latency (the change's camera time → the referee's verdict, its own work stretched
too) p50 and p95 against the 1x run's, the frames dropped against the frames the camera took, and the hands
refereed wrong (settlement mismatches + missed + false verdicts) against the hands played.
"""
from __future__ import annotations

from bench.common import Row

SLOWDOWNS = (1.0, 3.0, 6.0)
CLASS = {1.0: "this machine", 3.0: "Pi 5 class", 6.0: "Pi 4 class"}


def run(quick: bool = False) -> list[Row]:
    from controller.referee.sim.harness import simulate, summarize, tables

    specs = tables(["mcr", "riichi-ema2016"] if quick else ["sichuan-mpl2025", "mcr", "riichi-ema2016", "red"])
    hands = 1 if quick else 3
    got = {}
    cpus: dict[float, list[float]] = {}
    for k in SLOWDOWNS:
        summary = summarize(specs, simulate(specs, hands, 11, faults=True, slowdown=k), slowdown=k)
        lat: list[float] = []
        cpu: list[float] = []
        frames = read = dropped = wrong = played = 0
        read_max = 0.0
        for s in summary.values():
            lat += s.latencies
            cpu += s.read_cpu_ms
            frames += s.frames
            read += s.frames_read
            dropped += s.frames_dropped
            wrong += s.mismatches + s.missed + s.false
            played += s.hands
            read_max = max(read_max, s.read_max)
        got[k] = (sorted(lat), frames, read, dropped, wrong, played, read_max)
        cpus[k] = sorted(cpu)

    def pct(xs: list[float], p: float) -> float:
        return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))] if xs else float("nan")

    base = got[1.0][0]
    tabs = ", ".join(s.label for s in specs)
    cpu = cpus[1.0]
    note = (f"{len(cpu)} frames read at 1x ({tabs}): CPU time of CameraReader.process on this machine (one thread); "
            f"x3 / x5 / x6 of it is what a Pi 5 / Pi 4 / this run's 6x read takes")
    rows: list[Row] = [
        Row("vision read per frame (incremental), CPU p50", pct(cpu, 50), "ms", 100.0, "camera frame interval at 10 fps",
            note),
        Row("vision read per frame (incremental), CPU p95", pct(cpu, 95), "ms", 100.0, "camera frame interval at 10 fps",
            note),
        Row("vision read per frame (incremental), CPU max", pct(cpu, 100), "ms", 100.0, "camera frame interval at 10 fps",
            note),
    ]
    for k in SLOWDOWNS:
        lat, frames, read, dropped, wrong, played, read_max = got[k]
        name = f"referee at {k:g}x CPU ({CLASS[k]})"
        note = (f"{played} hands ({tabs}, seed 11, faults), {len(lat)} observations, {read} frames read of {frames}, "
                f"longest read {read_max * 1e3:.0f} ms, latency max {pct(lat, 100):.0f} ms")
        ref = ("camera frame interval at 10 fps", 100.0) if k == 1.0 else ("the same hands at 1x (p50)", pct(base, 50))
        rows.append(Row(f"{name}: verdict latency p50", pct(lat, 50), "ms", ref[1], ref[0], note))
        ref = ("camera frame interval at 10 fps", 100.0) if k == 1.0 else ("the same hands at 1x (p95)", pct(base, 95))
        rows.append(Row(f"{name}: verdict latency p95", pct(lat, 95), "ms", ref[1], ref[0], note))
        rows.append(Row(f"{name}: frames dropped (reader busy)", float(dropped), "frames", float(frames),
                        "frames the camera took", note))
        rows.append(Row(f"{name}: refereeing errors", float(wrong), "errors", float(played),
                        "hands played", "settlement mismatches + missed + false verdicts; must be 0"))
    return rows
