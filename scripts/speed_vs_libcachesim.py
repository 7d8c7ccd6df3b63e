#!/usr/bin/env python3
"""cachelab against libCacheSim 0.3.5, whole process each, on the same generated traces.

What it measures (issue 18's table), each figure the median of `--runs` interleaved runs:

1. Speed and peak memory, policy by policy, on Zipf 0.9 traces with image-like sizes
   (`--sizes images`) of 20M requests over 1M objects and 100M requests over 5M objects, plain
   oracleGeneral and zstd-compressed, at 10 % of the working set (bytes):
   - cachelab: `cachelab run --trace T --policy P --capacity BYTES --format csv --out FILE`, from
     start to the CSV renamed into place;
   - libCacheSim: a Python process that imports libcachesim, opens the same file with its
     TraceReader and runs the C engine (`cache.process_trace`), at the hash power that was fastest
     for LRU on that trace. Its engine time alone is reported too.
   - the floor: `../shared/tools/floor.c` (when it is there) built with `cc -O2 -march=native`,
     run alternating with cachelab's runs (a .zst row on its plain file, which the floor maps):
     one prefetched hash lookup per request, what any simulator must do at least; the row gives
     its seconds and cachelab's multiple of them.
   Both count the same misses, or the row says NO.
2. Memory independent of the number of requests: the 20M trace and the same trace repeated five
   times (100M requests over the same objects), peak RSS of both tools.
5. `--sections objects`: bytes per cached object, every object of a 1M-request trace cached.
3. A sweep: every policy but ttl (12) × 10 capacities (1 %…10 %) over the 20M trace in one cachelab
   command, against the runs libCacheSim has (its 11 shared policies × 10) one after another in
   one Python process.
4. `--sections billion`: generate a 1,000,000,000-request zstd trace with cachelab and replay it with LRU
   (time, peak memory).

Peak memory is the child's maximum resident set, as GNU time (`/usr/bin/time`) reports it. Traces are generated
once into `--work` and reused. The tables are printed and, with `--out`, written to a file
(temporary name, renamed). Run it through `scripts/speed-vs-libcachesim`, which provides a
virtualenv with libcachesim, on a machine doing nothing else.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conformance import PolicyFacts, build_cachelab  # noqa: E402

SPEED_POLICIES = ["lru", "fifo", "clock", "sieve", "s3fifo", "arc", "twoq", "lfu"]
# The sweep: every cachelab policy but ttl (which needs a lifetime). libCacheSim has all but `size`.
SWEEP_POLICIES = ["lru", "fifo", "lfu", "size", "clock", "sieve", "twoq", "s3fifo", "arc", "wtinylfu", "gdsf",
                  "belady"]
SWEEP_PERCENTS = list(range(1, 11))

# name: (requests, objects)
# 2m: a short run, where each process's start-up is a large share of the whole (issue 45).
TRACES = {"2m": (2_000_000, 100_000), "20m": (20_000_000, 1_000_000), "100m": (100_000_000, 5_000_000)}
BILLION = (1_000_000_000, 10_000_000)

LCS_RUN = """
import sys, time
started = time.perf_counter()
import libcachesim as lcs
path, name, capacity, power = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
reader = lcs.TraceReader(path, lcs.TraceType.ORACLE_GENERAL_TRACE, lcs.ReaderInitParam(ignore_obj_size=False))
# power 0: the class's own default, which the sampling policies need to sample as cachelab does
cache = getattr(lcs, name)(capacity, hashpower=power) if power else getattr(lcs, name)(capacity)
engine = time.perf_counter()
miss_ratio, _ = cache.process_trace(reader)
engine = time.perf_counter() - engine
print(cache._cache.n_req, round(miss_ratio * cache._cache.n_req), engine)
"""

LCS_SWEEP = """
import sys, time
import libcachesim as lcs
path, power = sys.argv[1], int(sys.argv[2])
reader = lcs.TraceReader(path, lcs.TraceType.ORACLE_GENERAL_TRACE, lcs.ReaderInitParam(ignore_obj_size=False))
for line in sys.stdin:
    name, capacity = line.split()
    cache = getattr(lcs, name)(int(capacity), hashpower=power)
    started = time.perf_counter()
    miss_ratio, _ = cache.process_trace(reader)
    print(name, capacity, round(miss_ratio * cache._cache.n_req), time.perf_counter() - started, flush=True)
    del cache
"""


def progress(message: str) -> None:
    print(f"[speed] {message}", file=sys.stderr, flush=True)


@dataclass
class Measured:
    seconds: float
    peak_bytes: int
    misses: int
    engine: float = 0.0  # libCacheSim: process_trace alone


TIME = "/usr/bin/time"  # GNU time, Debian's `time` package


class TimedOut(RuntimeError):
    """A child ran past its time limit and was killed."""


def run_child(command: list[str], timeout: float, stdin: str | None = None) -> tuple[str, float, int]:
    """Runs `command`; (stdout, wall seconds, peak RSS bytes). Raises on failure or timeout.

    The peak comes from GNU time, the child's parent: a child forked from this (possibly large)
    Python process would report this process's resident set as its own peak (Linux keeps the
    pre-exec high-water mark in ru_maxrss).
    """
    with tempfile.NamedTemporaryFile(prefix="peak-", suffix=".txt") as peak_file:
        started = time.perf_counter()
        child = subprocess.Popen([TIME, "-f", "%M", "-o", peak_file.name, *command],
                                 stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            out, err = child.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            raise TimedOut(f"timed out after {timeout:.0f} s: {' '.join(command)}") from None
        elapsed = time.perf_counter() - started
        if child.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({child.returncode}): {err.strip()[-2000:]}")
        peak_text = Path(peak_file.name).read_text().split()
    return out, elapsed, int(peak_text[-1]) * 1024


def csv_rows(text: str) -> list[dict[str, str]]:
    import csv  # noqa: PLC0415
    import io  # noqa: PLC0415

    return list(csv.DictReader(io.StringIO(text)))


# The floor of a replay (../shared/tools/floor.c beside the repository): read the oracleGeneral
# file, one prefetched open-addressing lookup per request, insert when absent.
FLOOR_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "tools" / "floor.c"


class Bench:
    def __init__(self, binary: Path, work: Path, runs: int, timeout: float, python: str) -> None:
        facts = PolicyFacts.of(binary)  # cachelab's name -> libCacheSim's class; which draw randomly
        self.classes, self.randomized = facts.classes, facts.randomized
        self.binary, self.work, self.runs, self.timeout, self.python = binary, work, runs, timeout, python
        self.floor_binary = self.build_floor()
        self.floor_slots: dict[Path, int] = {}

    def build_floor(self) -> Path | None:
        """The floor program built from FLOOR_SOURCE (cc -O2 -march=native), or None without it."""
        if not FLOOR_SOURCE.exists():
            progress(f"no {FLOOR_SOURCE}: the speed table has no floor column")
            return None
        binary = self.work / "floor"
        subprocess.run(["cc", "-O2", "-march=native", "-o", str(binary), str(FLOOR_SOURCE)], check=True)
        return binary

    def floor(self, trace: Path) -> Measured | None:
        """One run of the floor program on `trace` (a .zst trace: on its plain file, which the floor
        reads mapped), its table sized up until the trace's objects fit."""
        if self.floor_binary is None:
            return None
        plain = trace.with_name(trace.name.replace(".zst", ".bin")) if trace.name.endswith(".zst") else trace
        slots = self.floor_slots.get(plain, 21)
        while True:
            try:
                out, seconds, peak = run_child([str(self.floor_binary), str(plain), str(slots)], timeout=self.timeout)
            except RuntimeError as error:
                if "table too small" in str(error) and slots < 30:
                    slots += 1
                    continue
                raise
            self.floor_slots[plain] = slots
            return Measured(seconds, peak, int(out.split()[3]))  # its misses: the objects

    # Traces

    def generate(self, name: str, requests: int, objects: int, suffix: str = ".oracleGeneral.bin") -> Path:
        path = self.work / f"{name}{suffix}"
        if path.exists():
            return path
        command = [str(self.binary), "trace", "generate", "--scenario", "zipf", "--requests", str(requests),
                   "--objects", str(objects), "--alpha", "0.9", "--sizes", "images", "--seed", "7", "--out",
                   str(path)]
        _, seconds, peak = run_child(command, timeout=self.timeout * 20)
        progress(f"generated {path} in {seconds:.1f} s (peak {peak / 2**20:.0f} MiB)")
        return path

    def compress(self, plain: Path) -> Path:
        path = plain.with_name(plain.name.replace(".bin", ".zst"))
        if not path.exists():
            _, seconds, _ = run_child([str(self.binary), "trace", "convert", str(plain), str(path)],
                                      timeout=self.timeout * 20)
            progress(f"compressed {path} in {seconds:.1f} s ({path.stat().st_size / 2**20:.0f} MiB)")
        return path

    def repeated(self, plain: Path, times: int) -> Path:
        """The trace `times` times over, times shifted forward, next uses pointing across copies."""
        import numpy as np  # noqa: PLC0415 - libcachesim's dependency

        path = plain.with_name(plain.name.replace(".oracleGeneral.bin", f"-x{times}.oracleGeneral.bin"))
        if path.exists():
            return path
        record = np.dtype([("time", "<u4"), ("id", "<u8"), ("size", "<u4"), ("next", "<i8")])
        one = np.fromfile(plain, dtype=record)
        count = len(one)
        _, first = np.unique(one["id"], return_index=True)
        first_of = dict(zip(one["id"][first].tolist(), (first + 1).tolist()))  # 1-based, as the field
        last = one["next"] < 0
        wrap = np.fromiter((first_of[key] for key in one["id"][last].tolist()), dtype=np.int64, count=int(last.sum()))
        span = int(one["time"].max()) + 1
        temporary = path.with_name(path.name + ".partial")
        with open(temporary, "wb") as out:
            for copy in range(times):
                block = one.copy()
                block["time"] += copy * span
                block["next"][~last] += copy * count
                block["next"][last] = wrap + (copy + 1) * count if copy + 1 < times else -1
                block.tofile(out)
        temporary.rename(path)
        progress(f"wrote {path} ({times} × {count:,} requests)")
        return path

    # Runs

    def cachelab(self, trace: Path, policies: list[str], capacities: list[str], out: Path) -> tuple[Measured, list]:
        command = [str(self.binary), "run", "--trace", str(trace), "--policy", ",".join(policies),
                   "--capacity", ",".join(capacities), "--format", "csv", "--out", str(out), "--no-progress"]
        _, seconds, peak = run_child(command, timeout=self.timeout * 10)
        rows = csv_rows(out.read_text())
        return Measured(seconds, peak, int(rows[0]["misses"])), rows

    def libcachesim(self, trace: Path, policy: str, capacity: int, power: int) -> Measured:
        command = [self.python, "-c", LCS_RUN, str(trace), self.classes[policy], str(capacity), str(power)]
        out, seconds, peak = run_child(command, timeout=self.timeout)
        _, misses, engine = out.split()
        return Measured(seconds, peak, int(misses), float(engine))

    def best_power(self, trace: Path, capacity: int, powers: list[int]) -> int:
        timed = []
        for power in powers:
            engine = statistics.median(self.libcachesim(trace, "lru", capacity, power).engine for _ in range(2))
            timed.append((engine, power))
            progress(f"{trace.name}: libCacheSim LRU at hash power {power}: {engine:.2f} s")
        return min(timed)[1]

    def capacity(self, trace: Path, percent: int) -> int:
        """The bytes cachelab resolves `percent` % of the working set to (libCacheSim gets the same)."""
        _, rows = self.cachelab(trace, ["fifo"], [f"{percent}%"], self.work / "capacity.csv")
        return int(rows[0]["capacity_bytes"])


def median_of(samples: list[Measured]) -> Measured:
    return Measured(statistics.median(s.seconds for s in samples), max(s.peak_bytes for s in samples),
                    samples[0].misses, statistics.median(s.engine for s in samples))


def floor_cells(floors: list[Measured], ours: Measured) -> str:
    """The floor's median seconds and cachelab's multiple of it, or two empty cells."""
    if not floors:
        return " | "
    floor = statistics.median(f.seconds for f in floors)
    return f"{floor:.2f} | {ours.seconds / floor:.1f}×"


def mib(value: int) -> str:
    return f"{value / 2**20:,.0f} MiB"


def speed(bench: Bench, traces: list[Path], policies: list[str], powers: list[int],
          each_run: bool = False) -> list[str]:
    lines = ["| trace | policy | libCacheSim s (engine s) | cachelab s | speedup | floor s | × floor | "
             "peak libCacheSim | peak cachelab | misses equal |", "|---|---|---|---|---|---|---|---|---|---|"]
    # With `each_run`: every interleaved pair, and each side's fastest run against the other's.
    pairs = ["| trace | policy | run | libCacheSim s | cachelab s | speedup |", "|---|---|---|---|---|---|"]
    power_of: dict[str, int] = {}
    for trace in traces:
        base = trace.name.split(".")[0]
        capacity = bench.capacity(trace, 10)
        if base not in power_of:
            power_of[base] = bench.best_power(trace, capacity, powers)
        power = power_of[base]
        for policy in policies:
            # A sampling policy samples libCacheSim's hash table, whose layout its hash power sets:
            # it runs at its default, the table cachelab replicates (`ChainedHashTable`,
            # `BlockedChainTable`).
            policy_power = 0 if bench.classes[policy] in bench.randomized else power
            ours, theirs, floors = [], [], []
            for _ in range(bench.runs):  # interleaved, so drift hits all alike
                ours.append(bench.cachelab(trace, [policy], [str(capacity)], bench.work / "run.csv")[0])
                floor = bench.floor(trace)
                if floor is not None:
                    floors.append(floor)
                try:
                    theirs.append(bench.libcachesim(trace, policy, capacity, policy_power))
                except TimedOut:
                    break  # one run over the limit is enough to say so; the others would be too
            if len(theirs) < len(ours):
                b = median_of(ours)
                lines.append(f"| {trace.name} | {policy} | > {bench.timeout:.0f} (not finished) | {b.seconds:.2f} | "
                             f"> {bench.timeout / b.seconds:.0f}× | {floor_cells(floors, b)} | | {mib(b.peak_bytes)} | "
                             "no reference |")
                progress(lines[-1])
                continue
            a, b = median_of(theirs), median_of(ours)
            same = "yes" if a.misses == b.misses else f"NO ({a.misses} vs {b.misses})"
            lines.append(f"| {trace.name} | {policy} | {a.seconds:.2f} ({a.engine:.2f}) | {b.seconds:.2f} | "
                         f"{a.seconds / b.seconds:.2f}× | {floor_cells(floors, b)} | {mib(a.peak_bytes)} | "
                         f"{mib(b.peak_bytes)} | {same} |")
            progress(lines[-1])
            for run, (x, y) in enumerate(zip(theirs, ours), start=1):
                pairs.append(f"| {trace.name} | {policy} | {run} | {x.seconds:.2f} | {y.seconds:.2f} | "
                             f"{x.seconds / y.seconds:.2f}× |")
            fastest = (min(x.seconds for x in theirs), min(y.seconds for y in ours))
            pairs.append(f"| {trace.name} | {policy} | fastest of each | {fastest[0]:.2f} | {fastest[1]:.2f} | "
                         f"{fastest[0] / fastest[1]:.2f}× |")
    if each_run:
        lines += ["", "Each run, interleaved:", ""] + pairs
    return lines


def memory_independence(bench: Bench, plain: Path, repeated: Path, powers: list[int]) -> list[str]:
    lines = ["| trace | requests | policy | peak libCacheSim | peak cachelab |", "|---|---|---|---|---|"]
    capacity = bench.capacity(plain, 10)
    power = bench.best_power(plain, capacity, powers[-1:])
    for trace in (plain, repeated):
        requests = trace.stat().st_size // 24
        for policy in ("lru", "s3fifo"):
            ours = bench.cachelab(trace, [policy], [str(capacity)], bench.work / "run.csv")[0]
            theirs = bench.libcachesim(trace, policy, capacity, power)
            lines.append(f"| {trace.name} | {requests:,} | {policy} | {mib(theirs.peak_bytes)} | "
                         f"{mib(ours.peak_bytes)} |")
            progress(lines[-1])
    return lines


def sweep(bench: Bench, trace: Path, powers: list[int]) -> list[str]:
    capacities = [f"{p}%" for p in SWEEP_PERCENTS]
    out = bench.work / "sweep.csv"
    ours, rows = bench.cachelab(trace, SWEEP_POLICIES, capacities, out)
    progress(f"cachelab sweep: {len(rows)} runs in {ours.seconds:.1f} s, peak {mib(ours.peak_bytes)}")
    power = bench.best_power(trace, int(rows[0]["capacity_bytes"]), powers[-1:])
    shared = [row for row in rows if row["policy"] in bench.classes]
    jobs = "".join(f"{bench.classes[row['policy']]} {row['capacity_bytes']}\n" for row in shared)
    text, seconds, peak = run_child([bench.python, "-c", LCS_SWEEP, str(trace), str(power)],
                                    timeout=bench.timeout * len(shared), stdin=jobs)
    theirs = [line.split() for line in text.splitlines()]
    unequal = [f"{row['policy']}@{row['capacity_bytes']}: {t[2]} vs {row['misses']}"
               for row, t in zip(shared, theirs) if int(t[2]) != int(row["misses"])]
    lines = ["| tool | runs | wall s | peak memory | misses equal |", "|---|---|---|---|---|",
             f"| libCacheSim, one after another | {len(theirs)} | {seconds:.1f} | {mib(peak)} | "
             f"{'all' if not unequal else 'NO: ' + '; '.join(unequal[:5])} |",
             f"| cachelab, one command (`--policy {','.join(SWEEP_POLICIES)} --capacity 1%,…,10%`) | {len(rows)} | "
             f"{ours.seconds:.1f} | {mib(ours.peak_bytes)} | |"]
    # libCacheSim's W-TinyLFU sizes its sketch from the capacity (gigabytes here) and dominates its
    # sweep; the same sweep without it on either side is the fairer figure.
    fair = [p for p in SWEEP_POLICIES if p != "wtinylfu"]
    ours_fair, rows_fair = bench.cachelab(trace, fair, capacities, bench.work / "sweep-fair.csv")
    wtiny = sum(float(t[3]) for t in theirs if t[0] == bench.classes["wtinylfu"])
    theirs_fair = seconds - wtiny
    lines += [f"| libCacheSim without W-TinyLFU (the engine time of its 10 W-TinyLFU runs taken off) | "
              f"{len(theirs) - 10} | {theirs_fair:.1f} | | |",
              f"| cachelab without W-TinyLFU | {len(rows_fair)} | {ours_fair.seconds:.1f} | "
              f"{mib(ours_fair.peak_bytes)} | |",
              "", f"cachelab's {len(rows)} runs in {ours.seconds:.1f} s against libCacheSim's {len(theirs)} in "
              f"{seconds:.1f} s: {seconds / ours.seconds:.2f}× (libCacheSim has no `size`, so it did "
              f"{len(rows) - len(theirs)} runs fewer). Without W-TinyLFU: {theirs_fair:.1f} s against "
              f"{ours_fair.seconds:.1f} s, {theirs_fair / ours_fair.seconds:.2f}×."]
    progress(lines[-1])
    return lines


def billion(bench: Bench, lcs_too: bool, powers: list[int]) -> list[str]:
    requests, objects = BILLION
    started = time.perf_counter()
    trace = bench.generate("zipf-1b", requests, objects, suffix=".oracleGeneral.zst")
    generated = time.perf_counter() - started
    # 10 % of the working set: a pass of its own on a billion requests, so use the 20M trace's
    # mean object size (the same size distribution) times the objects.
    capacity = 20 * 2**30
    ours = bench.cachelab(trace, ["lru"], [str(capacity)], bench.work / "billion.csv")[0]
    lines = ["| tool | requests | objects | file | wall s | peak memory |", "|---|---|---|---|---|---|",
             f"| cachelab LRU, {capacity / 2**30:.0f} GiB | {requests:,} | {objects:,} | "
             f"{trace.stat().st_size / 2**30:.1f} GiB zstd | {ours.seconds:.1f} | {mib(ours.peak_bytes)} |"]
    if lcs_too:
        theirs = bench.libcachesim(trace, "lru", capacity, powers[-1])
        lines.append(f"| libCacheSim LRU | {requests:,} | {objects:,} | same | {theirs.seconds:.1f} | "
                     f"{mib(theirs.peak_bytes)} |")
    lines.append("")
    lines.append(f"Generating it took {generated:.0f} s (0 when reused). Misses: {ours.misses:,}.")
    progress(" ".join(lines[2:]))
    return lines


LCS_MEMORY_PROBE = """
import sys, libcachesim as lcs
def anon():
    for line in open('/proc/self/status'):
        if line.startswith('RssAnon:'):
            return int(line.split()[1]) * 1024
path, name, capacity, power = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
reader = lcs.TraceReader(path, lcs.TraceType.ORACLE_GENERAL_TRACE, lcs.ReaderInitParam(ignore_obj_size=True))
before = anon()
cache = getattr(lcs, name)(capacity, hashpower=power)
cache.process_trace(reader)
print(anon() - before, cache.get_n_obj())
"""


def bytes_per_object(bench: Bench, policies: list[str]) -> list[str]:
    """Bytes per cached object with every object of a 1M-request Zipf trace cached (unit mode).

    libCacheSim: the anonymous memory its process grew by creating the cache and replaying, hash
    table included (the smallest that needs no resize), per object held. cachelab: its
    `metadata_bytes` column (every allocation of the cache's bookkeeping, counted) per entry.
    """
    objects = 100_000
    trace = bench.generate("zipf-1m", 1_000_000, objects)
    power = max(objects - 1, 1).bit_length()
    lines = ["| policy | libCacheSim B/object | cachelab B/object |", "|---|---|---|"]
    for policy in policies:
        try:
            out, _, _ = run_child([bench.python, "-c", LCS_MEMORY_PROBE, str(trace), bench.classes[policy],
                                   str(objects), str(power)], timeout=bench.timeout)
            grown, held = (int(value) for value in out.split())
            theirs = f"{grown / held:.0f}" if held else "n/a (holds none at the end)"
        except TimedOut:
            theirs = f"not finished in {bench.timeout:.0f} s"
        out_file = bench.work / "objects.csv"
        run_child([str(bench.binary), "run", "--trace", str(trace), "--policy", policy, "--size-mode", "unit",
                   "--capacity", str(objects), "--no-latency", "--format", "csv", "--out", str(out_file)],
                  timeout=bench.timeout)
        row = csv_rows(out_file.read_text())[0]
        # A policy that knows the future (BeladySize) lets every object go before the trace ends:
        # nothing is held, and bytes per object mean nothing.
        entries = int(row["entries"])
        ours = f"{int(row['metadata_bytes']) / entries:.0f}" if entries else "n/a (holds none at the end)"
        lines.append(f"| {policy} | {theirs} | {ours} |")
        progress(lines[-1])
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/speed-vs-libcachesim",
        description="cachelab against libCacheSim 0.3.5, whole process each, on the same generated traces.")
    parser.add_argument("--cachelab", type=Path, help="cachelab binary (default: build it in release mode)")
    parser.add_argument("--traces", default="20m,100m", help="which Zipf traces: 2m, 20m, 100m (default: %(default)s)")
    parser.add_argument("--policies", default=",".join(SPEED_POLICIES), help="policies for the speed table")
    parser.add_argument("--no-zst", action="store_true", help="skip the zstd-compressed copies")
    parser.add_argument("--sections", default="speed,memory,sweep",
                        help="speed, memory, sweep, billion, objects (bytes per cached object; "
                        "default: %(default)s)")
    parser.add_argument("--billion-libcachesim", action="store_true", help="also replay the billion with libCacheSim")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs per figure; the median counts")
    parser.add_argument("--each-run", action="store_true",
                        help="also list every interleaved pair of the speed table, and each side's fastest run")
    parser.add_argument("--hashpowers", default="20,22,24", help="libCacheSim hash powers to try on LRU")
    parser.add_argument("--timeout", type=float, default=600, help="seconds one libCacheSim run may take")
    parser.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "cachelab-speed",
                        help="where the traces are generated and kept (default: %(default)s)")
    parser.add_argument("--out", type=Path, help="also write the tables here (markdown)")
    args = parser.parse_args(argv)

    import libcachesim as lcs  # noqa: PLC0415 - only the venv has it

    if not os.access(TIME, os.X_OK):
        print(f"{TIME} is missing; on Debian: apt-get install time", file=sys.stderr)
        return 2
    if getattr(lcs, "__version__", "?") != "0.3.5":
        print(f"libcachesim {getattr(lcs, '__version__', '?')} is installed; need 0.3.5", file=sys.stderr)
        return 2
    sections = set(args.sections.split(","))
    powers = [int(p) for p in args.hashpowers.split(",")]
    args.work.mkdir(parents=True, exist_ok=True)
    binary = args.cachelab or build_cachelab()
    bench = Bench(binary, args.work, args.runs, args.timeout, sys.executable)
    machine = f"{os.cpu_count()} cores, {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB"
    report = [f"Measured {time.strftime('%Y-%m-%d')} on {os.uname().machine} Linux, {machine}, "
              f"`scripts/speed-vs-libcachesim {' '.join(argv)}`", ""]

    plains = [bench.generate(f"zipf-{name}", *TRACES[name]) for name in args.traces.split(",") if name]
    if "speed" in sections:
        traces = [t for p in plains for t in ([p] if args.no_zst else [p, bench.compress(p)])]
        report += ["### Speed and peak memory, whole process, 10 % of the working set", ""]
        report += speed(bench, traces, args.policies.split(","), powers, args.each_run) + [""]
    if "memory" in sections:
        report += ["### Peak memory against the number of requests", ""]
        report += memory_independence(bench, plains[0], bench.repeated(plains[0], 5), powers) + [""]
    if "sweep" in sections:
        report += [f"### A sweep over {plains[0].name}", ""] + sweep(bench, plains[0], powers) + [""]
    if "objects" in sections:
        report += ["### Bytes per cached object (1M requests, 100k objects, all cached)", ""]
        report += bytes_per_object(bench, args.policies.split(",")) + [""]
    if "billion" in sections:
        report += ["### A billion requests", ""] + billion(bench, args.billion_libcachesim, powers) + [""]

    text = "\n".join(report) + "\n"
    print(text)
    if args.out:
        temporary = args.out.with_name(args.out.name + ".partial")
        temporary.write_text(text)
        temporary.rename(args.out)
    return 1 if "| NO" in text or "NO:" in text else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
