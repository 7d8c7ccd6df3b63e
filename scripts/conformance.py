#!/usr/bin/env python3
"""Checks cachelab's miss counts, every policy libCacheSim has, against libCacheSim 0.3.5.

For every trace, size mode (bytes, unit), capacity (1%, 5%, 10% of the working set) and policy,
the reference miss count comes from libCacheSim's C engine (the PyPI package `libcachesim==0.3.5`)
and is compared with `cachelab run ... --format csv`. Prints one table row per configuration and
exits 1 on any difference or cachelab failure, 2 on a usage or input error, 0 otherwise.

Run it through `scripts/conformance`, which provides a virtualenv with libcachesim. See
scripts/README.md for the libCacheSim semantics this relies on.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import csv
import json
import io
import multiprocessing
import os
import re
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_TRACES_DIR = REPO.parent / "shared" / "traces"

FORMATS = ("oracle-general", "csv", "txt")
# The policies come from cachelab itself (`cachelab policies --format json`, `PolicyFacts.of`):
# their names, libCacheSim's class for each exact one, which need the future and which draw randomly.
MODES = ("bytes", "unit")
PERCENTS = (1, 5, 10)  # capacities, as % of each trace's working set

# The shared traces, with the working sets (objects, bytes) they must give.
DEFAULT_TRACES = (
    ("cloudPhysicsIO.oracleGeneral.bin", "oracle-general", None, (48_974, 2_029_769_728)),
    ("cloudPhysicsIO.csv", "csv", "time=2,id=5,size=4", (48_974, 2_029_769_728)),
    ("cloudPhysicsIO.txt", "txt", None, (48_974, 48_974)),
)

_progress_stream = sys.stderr


def progress(message: str) -> None:
    print(f"[conformance] {message}", file=_progress_stream, flush=True)


@dataclass
class PolicyFacts:
    """What cachelab states about its policies (`cachelab policies --format json`), the one home of
    the list: this script keeps none of its own."""

    classes: dict[str, str]  # cachelab's name -> libCacheSim's class, for every policy equal to one
    # libCacheSim classes that read each request's next use, which only an oracleGeneral file carries
    # (on csv/txt input they silently give nonsense): their reference runs on an oracleGeneral
    # rendition of the same parsed requests (`oracle_reader`); cachelab still reads the original file.
    needs_oracle: set[str]
    # libCacheSim classes that draw from its random generator, whose state is per OS thread, starts
    # at 0xdeadbeef and carries on from run to run: each reference is computed in a new thread, the
    # cache built inside it (Cacheus draws in its constructor), so that it starts where cachelab's
    # does. (Every reference runs that way; for these it is what makes the reference reproducible.)
    randomized: set[str]

    @staticmethod
    def of(binary: Path) -> PolicyFacts:
        out = subprocess.run([str(binary), "policies", "--format", "json"], check=True, capture_output=True,
                             text=True).stdout
        facts = [fact for fact in json.loads(out) if fact["libcachesim"]]
        return PolicyFacts(
            classes={fact["name"]: fact["libcachesim"] for fact in facts},
            needs_oracle={fact["libcachesim"] for fact in facts if fact["needs_future"]},
            randomized={fact["libcachesim"] for fact in facts if fact["draws_randomly"]},
        )


class InputError(Exception):
    """A trace or option the script cannot check faithfully."""


# --------------------------------------------------------------------------------------------
# Traces, read by libCacheSim's own readers (the script reads none itself)
# --------------------------------------------------------------------------------------------


@dataclass
class Columns:
    """A column spec as cachelab's CSVColumns reads it: time=N,id=N,size=N[,header=..][,delimiter=..]."""

    id: int
    time: int | None = None
    size: int | None = None
    header: str = "auto"
    delimiter: str = ","

    @staticmethod
    def parse(spec: str) -> "Columns":
        values: dict[str, str] = {}
        for entry in spec.split(","):
            key, sep, value = entry.partition("=")
            key, value = key.strip().lower(), value.strip()
            if not sep or key in values:
                raise InputError(f"column spec {spec!r}: bad or repeated entry {entry!r}")
            values[key] = value
        names = {"comma": ",", "tab": "\t", "space": " ", "semicolon": ";", "pipe": "|"}
        try:
            delimiter = values.pop("delimiter", ",")
            columns = Columns(
                id=int(values.pop("id")),
                time=int(values.pop("time")) if "time" in values else None,
                size=int(values.pop("size")) if "size" in values else None,
                header=values.pop("header", "auto").lower(),
                delimiter=names.get(delimiter.lower(), delimiter),
            )
        except (KeyError, ValueError) as error:
            raise InputError(f"column spec {spec!r}: needs id=N, and numbers for time/size ({error})")
        if values or columns.header not in ("auto", "true", "false") or len(columns.delimiter) != 1:
            raise InputError(f"column spec {spec!r}: unknown key or value")
        return columns


@dataclass
class TraceSpec:
    path: Path
    format: str
    columns: str | None
    expected_working_set: tuple[int, int] | None = None  # (objects, bytes) the trace must give
    generated: bool = False  # made by cachelab for this run (the Zipf and scroll traces)

    @property
    def name(self) -> str:
        return self.path.name


@dataclass
class ParsedTrace:
    """The requests libCacheSim counts, as libCacheSim's own reader reads them: (id, size) pairs
    (size-0 requests dropped, as libCacheSim drops them), and the working set it counts."""

    spec: TraceSpec
    ids: list[int]
    sizes: list[int]
    columns: Columns | None = None
    # The working set libCacheSim reads in each size mode (objects in unit mode, bytes in bytes mode).
    working_set: dict[str, int] = field(default_factory=dict)
    unique_objects: int = 0


def read_trace(lcs, spec: TraceSpec, log: io.TextIOBase | None) -> ParsedTrace:
    """Reads `spec` with libCacheSim's reader, in bytes mode: this script reads no trace itself, so
    the reference replays exactly what libCacheSim reads, and cachelab's own reader is checked by
    the request counts agreeing."""
    columns = None
    if spec.format == "csv":
        if spec.columns is None:
            raise InputError(f"{spec.path}: a csv trace needs a column spec, e.g. {spec.path}:csv:time=2,id=5,size=4")
        columns = Columns.parse(spec.columns)
    trace = ParsedTrace(spec, [], [], columns=columns)
    # Never call reader.close(): the binding's destructor closes it too (double free).
    with c_stderr_to(log):
        reader = open_reader(lcs, trace, "bytes")
        for request in reader:
            trace.ids.append(request.obj_id)
            trace.sizes.append(request.obj_size)
        objects, bytes_ = reader.get_working_set_size()
    del reader
    trace.unique_objects = objects
    trace.working_set = {"bytes": bytes_, "unit": objects}
    return trace


def hash_power(objects: int) -> int:
    """A hash power for libCacheSim's table that fits a trace of `objects` objects (two buckets or
    more per object, at least 2^16). Its default table is far larger than these traces need, and
    making and walking it took most of each reference's time (the DocC article Continuous
    integration has the figures). Only where a key lands in the table depends on it, so
    a policy that never samples the table counts the same misses whatever the power (the check
    itself confirms it: every row is still compared with cachelab's count)."""
    return max(16, objects.bit_length() + 1)


def capacity_for(percent: int, working: int) -> int:
    # floor(percent% of the working set), in exact integer arithmetic.
    return working * percent // 100


# --------------------------------------------------------------------------------------------
# libCacheSim
# --------------------------------------------------------------------------------------------


@contextlib.contextmanager
def c_stderr_to(log: io.TextIOBase | None):
    """Sends what the C library writes to fd 2 (its INFO/WARN lines) to a temporary file."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            if log is not None:
                sink.seek(0)
                log.write(sink.read().decode(errors="replace"))


def open_reader(lcs, trace: ParsedTrace, mode: str):
    unit = mode == "unit"
    spec = trace.spec
    if spec.format == "oracle-general":
        params = lcs.ReaderInitParam(ignore_obj_size=unit)
        return lcs.TraceReader(str(spec.path), lcs.TraceType.ORACLE_GENERAL_TRACE, params)
    if spec.format == "txt":
        params = lcs.ReaderInitParam(ignore_obj_size=unit, obj_id_is_num=True, obj_id_is_num_set=True)
        return lcs.TraceReader(str(spec.path), lcs.TraceType.PLAIN_TXT_TRACE, params)
    columns = trace.columns
    assert columns is not None
    # header=auto: libCacheSim looks at the first line itself.
    params = lcs.ReaderInitParam(
        ignore_obj_size=unit,
        has_header=columns.header == "true",
        has_header_set=columns.header != "auto",
        delimiter=columns.delimiter,
        obj_id_is_num=True,
        obj_id_is_num_set=True,
    )
    params.obj_id_field = columns.id
    params.time_field = columns.time or 0  # 0 = not read
    params.obj_size_field = columns.size or 0  # 0 = not read: every size is 1
    return lcs.TraceReader(str(spec.path), lcs.TraceType.CSV_TRACE, params)


_oracle_files: dict[int, Path] = {}


def oracle_reader(lcs, trace: ParsedTrace, mode: str):
    """A reader of `trace`'s requests written as oracleGeneral, next_access_vtime computed as
    libCacheSim's own files hold it (1-based index of the next request for the id, -1 = never).
    The file is written once per trace, in a temporary folder."""
    path = _oracle_files.get(id(trace))
    if path is None:
        next_use = [-1] * len(trace.ids)
        seen: dict[int, int] = {}
        for index in range(len(trace.ids) - 1, -1, -1):
            next_use[index] = seen.get(trace.ids[index], -1)
            seen[trace.ids[index]] = index + 1
        path = Path(tempfile.mkdtemp(prefix="cachelab-conformance-oracle-")) / f"{trace.spec.name}.oracleGeneral.bin"
        # Times are 0: Belady does not read them. Sizes fit u32 (cachelab refuses larger ones too).
        path.write_bytes(b"".join(
            struct.pack("<IQIq", 0, obj_id, size, nxt) for obj_id, size, nxt in zip(trace.ids, trace.sizes, next_use)))
        _oracle_files[id(trace)] = path
    params = lcs.ReaderInitParam(ignore_obj_size=mode == "unit")
    return lcs.TraceReader(str(path), lcs.TraceType.ORACLE_GENERAL_TRACE, params)


@dataclass
class Row:
    trace: ParsedTrace
    mode: str
    percent: int | None  # None: an absolute capacity given with --capacities
    capacity: int
    policy: str
    requests: int = 0
    misses: int = 0
    cachelab_requests: int | None = None
    cachelab_misses: int | None = None
    cachelab_capacity: int | None = None
    status: str = ""
    detail: str = ""
    reference: bool = True  # False: libCacheSim's run crashed or timed out (status NOREF, never a pass)


class NoReference(Exception):
    """A reference run that crashed or did not finish in time: its row gets no reference."""


def run_isolated(job, timeout: float):
    """Runs `job()` in a forked child process, in a new thread of it (libCacheSim's generator is
    thread-local: a new thread starts at its seed, as a cachelab cache does), and returns its result. libCacheSim can crash the
    process (LFUDA segfaults on an empty bucket) or run for hours (LFUDA's scan of its priorities,
    ClockPro's hands): raises NoReference if the child dies or is not done after `timeout` seconds
    (it is then killed). The child works on copies of the parent's objects, readers included."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def child():
        outcome: list = []

        def body():
            try:
                outcome.append((True, job()))
            except BaseException as error:  # noqa: BLE001 - reported by the parent
                outcome.append((False, f"{type(error).__name__}: {error}"))

        thread = threading.Thread(target=body, name="libcachesim-reference")
        thread.start()
        thread.join()
        sender.send(outcome[0])

    process = context.Process(target=child, name="libcachesim-reference", daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            process.kill()
            raise NoReference(f"no result after {timeout:.0f} s")
        try:
            ok, value = receiver.recv()
        except EOFError:
            process.join()
            raise NoReference(f"the process died (exit code {process.exitcode})") from None
    finally:
        process.join()
        receiver.close()
    if not ok:
        raise NoReference(f"it failed: {value}")
    return value


def compute_reference(
    traces: list[ParsedTrace],
    capacities: list[str],
    verbose: bool,
    policies: tuple[str, ...],
    needs_oracle: set[str],
    randomized: set[str],
    timeout: float = 600,
) -> list[Row]:
    import libcachesim as lcs  # noqa: PLC0415 - only the venv has it

    version = getattr(lcs, "__version__", "?")
    if version != "0.3.5":
        raise InputError(f"libcachesim {version} is installed; the reference is 0.3.5 (run scripts/conformance)")
    log = sys.stderr if verbose else None
    rows: list[Row] = []
    for trace in traces:
        for mode in MODES:
            objects, bytes_ = trace.unique_objects, trace.working_set["bytes"]
            # Never call reader.close(): the binding's destructor closes it too (double free).
            with c_stderr_to(log):
                reader = open_reader(lcs, trace, mode)
            working = bytes_ if mode == "bytes" else objects
            power = hash_power(objects)
            oracle = None  # opened on first use, for the policies that need it
            for text in capacities:
                percent = int(text[:-1]) if text.endswith("%") else None
                capacity = int(text) if percent is None else capacity_for(percent, working)
                if capacity < 1:
                    progress(f"{trace.spec.name} {mode} {text}: capacity rounds to 0, skipped")
                    continue
                for policy in policies:
                    if policy == "S3FIFO" and int(capacity * 0.1) <= 0:
                        # libCacheSim aborts the process: its small queue (10 %) rounds to 0.
                        progress(f"{trace.spec.name} {mode} {label(percent, capacity)} S3FIFO: libCacheSim "
                                 "refuses a capacity under 10, skipped")
                        continue
                    if policy == "WTinyLFU" and int(0.2 * (capacity - int(capacity * 0.01))) <= 0:
                        # libCacheSim exits: its SLRU main's probation segment rounds to 0.
                        progress(f"{trace.spec.name} {mode} {label(percent, capacity)} WTinyLFU: libCacheSim "
                                 "refuses a capacity under 5, skipped")
                        continue
                    if policy == "LFUDA" and trace.spec.generated:
                        # libCacheSim's LFUDA gives no reference on the generated traces: on the
                        # Zipf trace a run did not end in 240 s (it scans its priorities one by
                        # one), and on the scroll traces it crashes (SIGSEGV, an empty minimum
                        # bucket at an eviction). On the shared traces it ends in under a second.
                        progress(f"{trace.spec.name} {mode} {label(percent, capacity)} LFUDA: libCacheSim "
                                 "gives no reference on the generated traces, skipped")
                        continue
                    started = time.monotonic()
                    source = reader
                    if policy in needs_oracle:
                        with c_stderr_to(log):
                            oracle = oracle or oracle_reader(lcs, trace, mode)
                        source = oracle

                    # A policy that draws samples libCacheSim's table, whose layout the hash power
                    # sets: it keeps the class's default, the table cachelab replicates.
                    keywords = {} if policy in randomized else {"hashpower": power}

                    def job(policy=policy, capacity=capacity, source=source, keywords=keywords):
                        # Built in the thread that runs it: Cacheus draws when it is made.
                        cache = getattr(lcs, policy)(int(capacity), **keywords)  # an int: a float is read as a ratio
                        miss_ratio, _byte_miss_ratio = cache.process_trace(source)
                        return miss_ratio, cache._cache.n_req  # one per cache.get, i.e. per request counted

                    try:
                        with c_stderr_to(log):
                            miss_ratio, requests = run_isolated(job, timeout)
                    except NoReference as error:
                        rows.append(Row(trace, mode, percent, capacity, policy, reference=False,
                                        status="NOREF", detail=f"libCacheSim's reference: {error}"))
                        progress(f"reference {trace.spec.name} {mode} {label(percent, capacity)} {policy}: "
                                 f"NO REFERENCE ({error})")
                        continue
                    misses = round(miss_ratio * requests)
                    rows.append(Row(trace, mode, percent, capacity, policy, requests, misses))
                    progress(
                        f"reference {trace.spec.name} {mode} {label(percent, capacity)} {policy}: "
                        f"{misses} misses of {requests} ({time.monotonic() - started:.2f} s)"
                    )
            del reader, oracle
    return rows


# --------------------------------------------------------------------------------------------
# cachelab
# --------------------------------------------------------------------------------------------


def build_cachelab() -> Path:
    progress("building cachelab: swift build -c release --scratch-path .build-release")
    started = time.monotonic()
    command = ["swift", "build", "-c", "release", "--scratch-path", ".build-release", "--product", "cachelab"]
    result = subprocess.run(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-20000:])
        raise InputError(f"swift build failed with exit code {result.returncode}")
    progress(f"built in {time.monotonic() - started:.0f} s")
    return REPO / ".build-release" / "release" / "cachelab"


def run_cachelab(binary: Path, rows: list[Row], timeout: float) -> None:
    """Runs one trace in one size mode at every policy and capacity of `rows`, in one cachelab
    process (one parse of the trace), and checks each row against its CSV line."""
    spec, mode = rows[0].trace.spec, rows[0].mode
    policies = ",".join(dict.fromkeys(row.policy.lower() for row in rows))
    capacities = ",".join(dict.fromkeys(str(row.capacity) for row in rows))
    command = [
        str(binary), "run",
        "--policy", policies,
        "--capacity", capacities,
        "--size-mode", mode,
        "--trace", str(spec.path),
        "--trace-format", spec.format,
    ]  # fmt: skip
    if spec.columns:
        command += ["--columns", spec.columns]
    # Only the counts are compared: no latency model (in a debug build it is most of a replay).
    command += ["--no-latency", "--format", "csv"]
    invocation = " ".join(command)

    def fail(status: str, detail: str) -> None:
        for row in rows:
            row.status, row.detail = status, detail

    try:
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return fail("FAIL", f"timed out after {timeout:.0f} s: {invocation}")
    if result.returncode != 0:
        return fail("FAIL", f"exit {result.returncode}: {invocation}\n{result.stderr.strip()[-2000:]}")
    # One CSV line per (policy, capacity); the cross product may hold lines no row asked for.
    records: dict[tuple[str, int], dict[str, str]] = {}
    try:
        for record in csv.DictReader(io.StringIO(result.stdout)):
            records[(record["policy"], int(record["capacity_bytes"]))] = record
    except (KeyError, ValueError) as error:
        return fail("FAIL", f"unreadable output ({error}): {invocation}\n{result.stdout[:2000]}")
    for row in rows:
        record = records.get((row.policy.lower(), row.capacity))
        if not row.reference:
            # Nothing to compare with: the row stays NOREF, cachelab's count shown for reading.
            if record is not None and record.get("misses", "").isdigit():
                row.cachelab_misses = int(record["misses"])
            continue
        row.detail = invocation
        if record is None:
            row.status, row.detail = "FAIL", f"no CSV line for {row.policy.lower()} at {row.capacity}: {invocation}"
            continue
        row.cachelab_capacity = row.capacity
        try:
            row.cachelab_misses = int(record["misses"])
            row.cachelab_requests = int(record["requests"])
        except (KeyError, ValueError) as error:
            row.status, row.detail = "FAIL", f"unreadable output ({error}): {invocation}"
            continue
        problems = []
        if row.cachelab_misses != row.misses:
            problems.append(f"misses {row.cachelab_misses} != {row.misses} ({row.cachelab_misses - row.misses:+d})")
        if row.cachelab_requests != row.requests:
            problems.append(f"requests {row.cachelab_requests} != {row.requests}")
        row.status = "DIFF" if problems else "OK"
        row.detail = "; ".join(problems) + (f"\n    {invocation}" if problems else "")


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------


def label(percent: int | None, capacity: int) -> str:
    return f"{capacity:,}" if percent is None else f"{percent}% = {capacity:,}"


def print_table(rows: list[Row], with_cachelab: bool) -> None:
    headers = ["trace", "mode", "capacity", "policy", "requests", "ref misses", "ref miss ratio"]
    if with_cachelab:
        headers += ["cachelab misses", "result"]
    table = []
    for row in rows:
        cells = [
            row.trace.spec.name,
            row.mode,
            label(row.percent, row.capacity),
            row.policy,
            f"{row.requests:,}" if row.reference else "-",
            f"{row.misses:,}" if row.reference else "-",
            f"{row.misses / row.requests:.4f}" if row.reference else "-",
        ]
        if with_cachelab:
            cells += ["-" if row.cachelab_misses is None else f"{row.cachelab_misses:,}", row.status]
        table.append(cells)
    widths = [max(len(headers[i]), *(len(cells[i]) for cells in table)) for i in range(len(headers))]
    right = {"capacity", "requests", "ref misses", "ref miss ratio", "cachelab misses"}

    def line(cells):
        return "| " + " | ".join(
            c.rjust(w) if h in right else c.ljust(w) for c, w, h in zip(cells, widths, headers)
        ) + " |"

    print(line(headers))
    print("|" + "|".join(("-" * (w + 1) + ":") if h in right else ("-" * (w + 2)) for w, h in zip(widths, headers)) + "|")
    for cells in table:
        print(line(cells))
    sys.stdout.flush()


def distinct_replays(rows: list[Row]) -> list[Row]:
    """The rows left after dropping each row that replays the same requests as an earlier one.

    The shared trace comes in three encodings with one id sequence: in unit mode all three are one
    replay, and the text encoding (no sizes) is that replay in bytes mode too. Keeping one of each
    halves the golden test's time and loses no configuration.
    """
    replay_of: dict[int, tuple[int, int, int]] = {}  # id(trace) -> (ids, sizes, unit) fingerprints
    seen: set[tuple[int, int, int, str]] = set()
    kept = []
    for row in rows:
        trace = row.trace
        if id(trace) not in replay_of:
            replay_of[id(trace)] = (hash(tuple(trace.ids)), hash(tuple(trace.sizes)), hash((1,) * len(trace.sizes)))
        ids, sizes, unit = replay_of[id(trace)]
        key = (ids, sizes if row.mode == "bytes" else unit, row.capacity, row.policy)
        if key not in seen:
            seen.add(key)
            kept.append(row)
    return kept


GOLDEN_HEADER = """\
# Generated by `scripts/conformance --reference-only --golden <this file>`: do not edit by hand.
# Miss counts computed by libCacheSim 0.3.5 (pip install libcachesim==0.3.5) for @POLICIES@
# on libCacheSim's public traces in ../shared/traces, in bytes and unit mode, at 1%, 5% and 10%
# of each trace's working set (floor; bytes = sum of each object's first-seen size). A row that
# would replay the same requests as an earlier one (the encodings share one id sequence) is left out.
trace\tformat\tcolumns\tsize mode\tpercent\tcapacity\tpolicy\trequests\tmisses
"""


def golden_table(rows: list[Row]) -> str:
    """The rows as the tab-separated table GoldenCountsTests reads (Tests/CacheLabTests/Golden)."""
    policies = ", ".join(dict.fromkeys(row.policy for row in rows))
    lines = []
    for row in rows:
        spec = row.trace.spec
        fields = (spec.name, spec.format, spec.columns or "", row.mode, row.percent, row.capacity,
                  row.policy.lower(), row.requests, row.misses)
        lines.append("\t".join(str(field) for field in fields))
    return GOLDEN_HEADER.replace("@POLICIES@", policies) + "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def parse_trace_argument(text: str) -> TraceSpec:
    """PATH[:format[:columns]]; the path itself may hold colons."""
    parts = text.split(":")
    if len(parts) >= 3 and parts[-2] in FORMATS:
        return TraceSpec(Path(":".join(parts[:-2])), parts[-2], parts[-1] or None)
    if len(parts) >= 2 and parts[-1] in FORMATS:
        return TraceSpec(Path(":".join(parts[:-1])), parts[-1], None)
    path = Path(text)
    lowered = path.name.lower()
    if lowered.endswith(".oraclegeneral.bin") or lowered.endswith(".oraclegeneral"):
        return TraceSpec(path, "oracle-general", None)
    if lowered.endswith(".txt"):
        return TraceSpec(path, "txt", None)
    if lowered.endswith(".csv"):
        return TraceSpec(path, "csv", None)
    raise InputError(f"--trace {text}: cannot tell the format; write PATH:FORMAT[:COLUMNS], FORMAT in {FORMATS}")


# Traces cachelab writes itself, replayed by both simulators: (file name, cachelab trace generate
# arguments, format, columns). Zipf has independent requests; recipe-scroll has the scroll
# model's reuse pattern and realistic photo sizes.
GENERATED_TRACES = [
    ("zipf.oracleGeneral.bin", ["--scenario", "zipf", "--requests", "200000", "--objects", "20000",
                                "--alpha", "0.8", "--seed", "11"], "oracle-general", None),
    ("zipf.csv", ["--scenario", "zipf", "--requests", "200000", "--objects", "20000", "--alpha", "0.8",
                  "--seed", "11", "--format", "csv"], "csv", "time=1,id=2,size=3"),
    ("flinger.oracleGeneral.bin", ["--scenario", "flinger", "--seed", "3"], "oracle-general", None),
    ("mixed-population.csv", ["--scenario", "mixed-population", "--seed", "3", "--format", "csv"], "csv", "time=1,id=2,size=3"),
]


def generate_traces(binary: Path, directory: Path) -> list[TraceSpec]:
    specs = []
    for name, arguments, fmt, columns in GENERATED_TRACES:
        path = directory / name
        subprocess.run([str(binary), "trace", "generate", *arguments, "--out", str(path)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        progress(f"generated {path}")
        specs.append(TraceSpec(path, fmt, columns, generated=True))
    return specs


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/conformance",
        description="Compare cachelab's miss counts with libCacheSim 0.3.5's, policy by policy.",
    )
    parser.add_argument(
        "--traces-dir", type=Path, default=DEFAULT_TRACES_DIR,
        help=f"folder of the shared cloudPhysicsIO traces (default: {DEFAULT_TRACES_DIR})")
    parser.add_argument(
        "--trace", action="append", default=[], metavar="PATH[:FORMAT[:COLUMNS]]",
        help="an extra trace; FORMAT is oracle-general, csv or txt (default: from the extension); "
        "COLUMNS as cachelab's --columns, e.g. time=2,id=5,size=4 (required for csv)")
    parser.add_argument("--only-extra", action="store_true", help="check only the --trace files, not the shared ones")
    parser.add_argument(
        "--no-generated", action="store_true",
        help="skip the traces cachelab generates (zipf and recipe-scroll, in oracleGeneral and CSV form)")
    parser.add_argument(
        "--capacities", default=",".join(f"{p}%" for p in PERCENTS), metavar="C[,C...]",
        help="capacities: N%% of each working set, or an absolute number of bytes/objects (default: %(default)s)")
    parser.add_argument("--cachelab", type=Path, help="cachelab binary (default: build it in release mode)")
    parser.add_argument("--reference-only", action="store_true", help="print libCacheSim's table; do not run cachelab")
    parser.add_argument("--golden", type=Path, metavar="FILE",
                        help="write the reference rows as the table GoldenCountsTests reads")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="cachelab runs at once")
    parser.add_argument(
        "--timeout", type=float, default=1200, help="seconds allowed for one cachelab process (one trace, one size mode)"
    )
    parser.add_argument(
        "--reference-timeout", type=float, default=600, metavar="SECONDS",
        help="seconds allowed for one libCacheSim run (one trace, size mode, capacity and policy); a run "
        "that crashes or takes longer gives its row no reference (NOREF), which fails the check (default: %(default)s)")
    parser.add_argument("--verbose", action="store_true", help="show libCacheSim's own log lines")
    parser.add_argument(
        "--policies", metavar="NAME[,NAME...]",
        help="cachelab policy names to check (default: every one equal to a libCacheSim policy, as "
        "`cachelab policies` lists them)")
    args = parser.parse_args(argv)
    started = time.monotonic()

    try:
        specs: list[TraceSpec] = []
        if not args.only_extra:
            for name, fmt, columns, expected in DEFAULT_TRACES:
                path = args.traces_dir / name
                if not path.is_file():
                    raise InputError(f"{path} is missing (give --traces-dir, or --only-extra with --trace)")
                specs.append(TraceSpec(path, fmt, columns, expected))
        specs += [parse_trace_argument(text) for text in args.trace]
        # cachelab states the policies (even for --reference-only) and generates the extra traces.
        binary = args.cachelab or build_cachelab()
        if not binary.is_file():
            raise InputError(f"{binary}: no such cachelab binary")
        facts = PolicyFacts.of(binary)
        if not args.no_generated:
            specs += generate_traces(binary, Path(tempfile.mkdtemp(prefix="cachelab-conformance-")))
        if not specs:
            raise InputError("no traces to check")

        traces = []
        for spec in specs:
            if not spec.path.is_file():
                raise InputError(f"{spec.path}: no such file")
            import libcachesim as lcs  # noqa: PLC0415 - only the venv has it

            trace = read_trace(lcs, spec, sys.stderr if args.verbose else None)
            if not trace.ids:
                raise InputError(f"{spec.path}: libCacheSim reads no requests")
            objects, bytes_ = trace.unique_objects, trace.working_set["bytes"]
            if spec.expected_working_set and (objects, bytes_) != spec.expected_working_set:
                raise InputError(
                    f"{spec.name}: working set {objects} objects / {bytes_} bytes, expected "
                    f"{spec.expected_working_set[0]} / {spec.expected_working_set[1]}"
                )
            progress(f"{spec.name} ({spec.format}): {len(trace.ids)} requests, {objects} objects, {bytes_} bytes")
            traces.append(trace)

        capacities = [text.strip() for text in args.capacities.split(",") if text.strip()]
        if not capacities or not all(re.fullmatch(r"[0-9]+%?", text) for text in capacities):
            raise InputError(f"--capacities {args.capacities}: expected e.g. 1%,5%,10% or 4096")
        names = ([name.strip().lower() for name in args.policies.split(",") if name.strip()]
                 if args.policies is not None else list(facts.classes))
        unknown = [name for name in names if name not in facts.classes]
        if unknown or not names:
            raise InputError(f"--policies {args.policies}: unknown {', '.join(unknown) or 'empty list'}; "
                             f"choose from {', '.join(facts.classes)}")
        rows = compute_reference(traces, capacities, args.verbose, tuple(facts.classes[n] for n in names),
                                 facts.needs_oracle, facts.randomized, args.reference_timeout)
        unreferenced = [row for row in rows if not row.reference]
        progress(f"reference done: {len(rows)} rows in {time.monotonic() - started:.1f} s")

        if args.golden:
            shared = [row for row in rows if row.trace.spec.expected_working_set and row.percent is not None]
            if len(shared) != len(rows):
                progress("--golden: rows of --trace files and absolute capacities are left out")
            if any(not row.reference for row in shared):
                progress("--golden: rows without a reference (NOREF) are left out")
                shared = [row for row in shared if row.reference]
            shared = distinct_replays(shared)
            args.golden.parent.mkdir(parents=True, exist_ok=True)
            args.golden.write_text(golden_table(shared))
            progress(f"wrote {args.golden} ({len(shared)} rows)")

        if args.reference_only:
            print_table(rows, with_cachelab=False)
            for row in unreferenced:
                print(f"NOREF: {row.trace.spec.name} {row.mode} {label(row.percent, row.capacity)} {row.policy}: "
                      f"{row.detail}", file=sys.stderr)
            progress(f"finished in {time.monotonic() - started:.1f} s")
            return 1 if unreferenced else 0

        cachelab_started = time.monotonic()
        # One cachelab process per trace and size mode, every policy and capacity in it.
        groups: dict[tuple[int, str], list[Row]] = {}
        for row in rows:
            groups.setdefault((id(row.trace), row.mode), []).append(row)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {pool.submit(run_cachelab, binary, group, args.timeout): group for group in groups.values()}
            checked = 0
            for future in concurrent.futures.as_completed(futures):
                future.result()
                group = futures[future]
                checked += len(group)
                ok = sum(row.status == "OK" for row in group)
                progress(
                    f"cachelab {checked}/{len(rows)} {group[0].trace.spec.name} {group[0].mode}: "
                    f"{ok} of {len(group)} equal"
                )
        progress(f"cachelab runs done in {time.monotonic() - cachelab_started:.1f} s")
    except InputError as error:
        print(f"conformance: {error}", file=sys.stderr)
        return 2

    print_table(rows, with_cachelab=True)
    bad = [row for row in rows if row.status != "OK"]
    for row in bad:
        print(
            f"{row.status}: {row.trace.spec.name} {row.mode} {label(row.percent, row.capacity)} {row.policy}: "
            f"{row.detail}",
            file=sys.stderr,
        )
    ok = len(rows) - len(bad)
    elapsed = time.monotonic() - started
    missing = sum(not row.reference for row in rows)
    summary = (
        f"conformance: {ok} of {len(rows)} configurations give libCacheSim's miss count, {len(bad) - missing} differ"
        + (f", {missing} have no reference (libCacheSim crashed or timed out)" if missing else "")
    )
    print(summary)
    progress(f"finished in {elapsed:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
