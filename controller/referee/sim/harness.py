"""The whole stack, hand after hand: what ``mahjong-table simulate`` runs.

For each hand of each table: the MCU emulator shuffles and throws the dice (its dice motor; the dice lie in
the middle of the table for the camera), the bots play the ground truth at the table with those dice
(:mod:`.truth`, faults at random moments with ``faults``), each moment is filmed with a real table's
nuisances and read by vision (:class:`.observe.CameraObserver`, a random tile style and camera pose per
hand; a tile rendered unreadable on purpose), the call buttons are pressed as the bots call, the referee
follows, the operator answers its questions from the truth, and the refereed hand is compared with the
truth payment by payment and verdict by verdict (:func:`.play.referee_hand`).

Hands are independent and seeded (``seed``, the table, the hand's number), so any number of worker
processes gives the same reports.
"""
from __future__ import annotations

import asyncio
import random
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from controller.referee.sim.compare import HandReport
from rules.events import JSONObject
from rules.game.protocols import RuleSet


def all_tables() -> tuple[str, ...]:
    """Every table a simulation runs with ``all``: each tournament rule set of the registry (not ``basic``, its
    data says so) at each of its tables, the most players first (Sichuan at four and three, Siamese at
    three and two, Red at four, three and two)."""
    from rules.profiles import registry

    out: list[str] = []
    for name in registry.tournament_names():
        for n in sorted(registry.get(name).players, reverse=True):
            out.append(TableSpec(name, n).label)
    return tuple(out)


@dataclass(frozen=True)
class TableSpec:
    """One simulated table: the rule set (its registry name: hands are seeded by it) and its players."""

    profile: str
    players: int

    @property
    def rules(self) -> RuleSet:
        from rules.profiles import registry

        return registry.get(self.profile)

    @property
    def label(self) -> str:
        return self.profile if self.players == 4 else f"{self.profile}@{self.players}"

    @staticmethod
    def parse(text: str) -> TableSpec:
        """``PROFILE`` or ``PROFILE@PLAYERS``; ValueError naming what is wrong."""
        from rules.profiles import registry

        name, _, n = text.partition("@")
        known = registry.tournament_names()
        if name not in known:
            raise ValueError(f"unknown profile {name!r}; known: {', '.join(known)}")
        profile = registry.get(name)
        players = int(n) if n.isdigit() else (3 if profile.capabilities.two_hands else 4)
        try:
            profile.wall_spec(players)
        except ValueError as exc:
            raise ValueError(f"{text}: {exc}") from None
        return TableSpec(name, players)


def tables(texts: list[str]) -> list[TableSpec]:
    out: list[TableSpec] = []
    for t in texts:
        for x in (all_tables() if t == "all" else (t,)):
            spec = TableSpec.parse(x)
            if spec not in out:
                out.append(spec)
    return out


@dataclass
class TableSummary:
    """One table's hands, summed up (the simulate command's table row, its JSON object)."""

    table: str
    hands: int = 0
    events: int = 0
    frames: int = 0
    questions: int = 0
    questions_planned: int = 0
    injected: int = 0
    flagged: int = 0
    missed: int = 0
    false: int = 0
    mismatches: int = 0
    redealt: int = 0
    judged: int = 0
    seconds: float = 0.0
    vision_s: float = 0.0
    cpu_slowdown: float | None = None  # a Pi-class CPU (simulate --cpu-slowdown K): reads K times slower
    frames_read: int = 0
    frames_dropped: int = 0
    queue_wait_max: float = 0.0
    read_max: float = 0.0
    latencies: list[float] = field(default_factory=list)  # ms, per observation: the change -> the verdict
    read_cpu_ms: list[float] = field(default_factory=list)  # ms of CPU per frame read, here (not stretched)
    faults: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    asked: list[JSONObject] = field(default_factory=list)  # every question, with its hand (--verbose)

    def add(self, r: HandReport) -> None:
        self.hands += 1
        self.events += r.events
        self.frames += r.frames
        self.questions += r.questions
        self.questions_planned += r.questions_planned
        self.injected += r.injected
        self.flagged += r.flagged
        self.missed += len(r.missed)
        self.false += len(r.false)
        self.mismatches += 1 if r.mismatches else 0
        self.redealt += r.redealt
        self.judged += len(r.judged)
        self.seconds += r.seconds
        self.vision_s += r.vision_s
        self.frames_read += r.frames_read
        self.frames_dropped += r.frames_dropped
        self.queue_wait_max = max(self.queue_wait_max, r.queue_wait_max)
        self.read_max = max(self.read_max, r.read_max)
        self.latencies += r.latencies
        self.read_cpu_ms += r.read_cpu_ms
        self.faults.update(r.faults)
        self.asked += r.asked
        for what, items in (("missed", r.missed), ("false", r.false), ("settlement", r.mismatches)):
            self.problems += [f"{r.hand_id} {what}: {x}" for x in items]

    @property
    def ok(self) -> bool:
        return not (self.missed or self.false or self.mismatches)

    def latency_ms(self) -> dict[str, float]:
        """The verdict latency (a Pi-class CPU: the change's camera time to the referee's verdict): p50, p95,
        max in ms."""
        s = sorted(self.latencies)
        if not s:
            return {"p50": 0.0, "p95": 0.0, "max": 0.0}

        def at(p: float) -> float:
            return round(s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))], 1)

        return {"p50": at(50), "p95": at(95), "max": round(s[-1], 1)}

    def to_json(self) -> JSONObject:
        out = self._json()
        if self.cpu_slowdown is not None:
            out |= {"cpu_slowdown": self.cpu_slowdown, "frames_read": self.frames_read,
                    "frames_dropped": self.frames_dropped, "verdict_latency_ms": self.latency_ms(),
                    "queue_wait_max_ms": round(self.queue_wait_max * 1e3, 1), "read_max_ms": round(self.read_max * 1e3, 1)}
        return out

    def _json(self) -> JSONObject:
        return {"table": self.table, "hands": self.hands, "events": self.events, "frames": self.frames,
                "questions": self.questions, "questions_unreadable": self.questions_planned,
                "questions_other": self.questions - self.questions_planned,
                "violations": {"injected": self.injected, "flagged": self.flagged, "missed": self.missed,
                               "false": self.false},
                "faults": dict(sorted(self.faults.items())), "settlement_mismatches": self.mismatches,
                "redealt": self.redealt, "judge_corrections": self.judged, "seconds": round(self.seconds, 2),
                "problems": self.problems, "ok": self.ok, "questions_asked": self.asked}


def hand_seed(seed: int, table: str, i: int) -> int:
    return zlib.crc32(f"{seed}/{table}/{i}".encode())


def throw_dice(spec: TableSpec, dealer: int, seed: int) -> tuple[tuple[int, int], ...]:
    """The MCU emulator (its seed: the hand's) collects, shuffles, raises the walls and pulses the dice motor
    as the table service drives it; the dice as they fell. A link fault (a loaded machine) is retried with
    a fresh emulator: the same seed, the same dice."""
    from controller.backends import BackendFault
    from controller.backends.mcu import McuBackend
    from controller.service import dice_throws, stacks_per_seat

    async def cycle() -> tuple[tuple[int, int], ...]:
        b = McuBackend("emulator", time_scale=2000.0, emulator_seed=seed)
        await b.start()
        try:
            await b.collect()
            n, stacks = stacks_per_seat(spec.profile, spec.players, dealer)  # (fewer players: still four walls)
            await b.configure(n, stacks)
            await b.shuffle()
            await b.raise_walls()
            out = []
            for _ in range(dice_throws(spec.profile, spec.players)):
                await b.dice(600)
                d = b.physical_dice()
                out.append((int(d[0]), int(d[1])) if d else (1, 1))
            return tuple(out)
        finally:
            await b.close()

    for attempt in range(3):
        try:
            return asyncio.run(cycle())
        except BackendFault as exc:  # (not picklable across processes: re-raised as a plain error)
            if attempt == 2:
                raise RuntimeError(f"the MCU emulator failed: {exc}") from None
    raise AssertionError("unreachable")


def styles_for(profile: RuleSet | str) -> list[str]:
    """The tile styles a table of ``profile`` may use (its flowers must be in the set)."""
    from vision.conventions import conventions
    from vision.tile_render import available_styles, load_style

    return [s for s in available_styles() if not conventions(profile).flowers or "1f" in load_style(s).glyphs]


def run_hand(spec: TableSpec, seed: int, i: int, faults: bool, style: str | None = None, camera: bool = True,
             unreadable: int = 1, slowdown: float | None = None) -> HandReport:
    """One hand of ``spec`` through the whole stack (see the module's docstring); ``slowdown``: a Pi-class
    CPU, each vision read taking that many times its measured time (:mod:`.observe`)."""
    import time

    from controller.referee.sim.observe import CameraObserver, ExactObserver
    from controller.referee.sim.play import playable_truth, referee_hand
    from vision.scene_game import view_seats

    t0 = time.perf_counter()
    profile = spec.rules
    rng = random.Random(hand_seed(seed, spec.label, i))
    seats = profile.wall_spec(spec.players).seats
    dealer = seats[i % len(seats)]
    dice = throw_dice(spec, dealer, hand_seed(seed, spec.label + "/dice", i)) if camera else None
    truth, redeals = playable_truth(profile, rng.randrange(1 << 31), hand_id=f"{spec.label}-{seed}-{i}",
                                    dealer=dealer, players=spec.players, dice=dice, faults=faults)
    discards = sorted(truth.timeline.discard_times)
    marks = set(rng.sample(discards, min(unreadable, len(discards))))
    n = view_seats(spec.profile, spec.players)
    cam: CameraObserver | None = None
    obs: CameraObserver | ExactObserver
    if camera:
        st = style or rng.choice(styles_for(spec.profile))
        obs = cam = CameraObserver(spec.profile, n, style=st, seed=rng.randrange(1 << 31), unreadable=marks,
                                   slowdown=slowdown)
    else:
        obs = ExactObserver(spec.profile, n, marks)
    _, rep = referee_hand(profile, truth, obs, planned_questions=len(marks), players=spec.players)
    rep.redealt = redeals
    _mark_planned(rep, list(obs.smudged))
    rep.vision_s = cam.vision_s if cam is not None else 0.0
    rep.frames_read = cam.read if cam is not None else 0
    if slowdown is None or cam is None:
        rep.latencies = list(cam.settle_ms) if cam is not None else []
    else:  # (the referee_hand's: the change's camera time -> the verdict)
        rep.frames_dropped = cam.queue_dropped
        rep.queue_wait_max = max(cam.queue_wait, default=0.0)
        rep.read_max = max(cam.read_s, default=0.0)
        rep.read_cpu_ms = [x / slowdown * 1e3 for x in cam.read_s]
    rep.seconds = time.perf_counter() - t0
    return rep


def _mark_planned(rep: HandReport, smudged: list[tuple[int, int]]) -> None:
    """Mark the question each tile made unreadable on purpose raised (a pond tile question about its seat
    and place): the listing tells them from the others."""
    for seat, index in smudged:
        q = next((q for q in rep.asked if "planned" not in q and q["kind"] == "tile" and q["zone"] == "pond"
                  and q["seat"] == seat and q["index"] == index), None)
        if q is not None:
            q["planned"] = True
    for q in rep.asked:
        q.setdefault("planned", False)


def _job(args: tuple[TableSpec, int, int, bool, str | None, bool, float | None]) -> tuple[str, HandReport]:
    spec, seed, i, faults, style, camera, slowdown = args
    return spec.label, run_hand(spec, seed, i, faults, style, camera, slowdown=slowdown)


def simulate(specs: list[TableSpec], hands: int, seed: int, *, faults: bool = False, style: str | None = None,
             camera: bool = True, workers: int = 1, slowdown: float | None = None) -> Iterator[tuple[str, HandReport]]:
    """Every hand of every table, as it finishes (``workers`` processes; ``slowdown``: a Pi-class CPU)."""
    jobs = [(spec, seed, i, faults, style, camera, slowdown) for spec in specs for i in range(hands)]
    if workers <= 1:
        for j in jobs:
            yield _job(j)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(_job, jobs)


def summarize(specs: list[TableSpec], results: Iterator[tuple[str, HandReport]],
              tick: Callable[[], None] = lambda: None, slowdown: float | None = None) -> dict[str, TableSummary]:
    out = {s.label: TableSummary(s.label, cpu_slowdown=slowdown) for s in specs}
    for label, rep in results:
        out[label].add(rep)
        tick()
    return out
