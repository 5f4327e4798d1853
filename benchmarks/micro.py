"""Shared helpers of the micro-benchmarks (``benchmarks/bench_*.py``).

A micro-benchmark is a module runnable as ``python -m benchmarks.bench_<name>``:
it prints a readable table, and one ``BENCH-RESULT {json}`` line per issue
target it checks (keys ``target``, ``measured``, ``met`` and optionally
``note``), which ``python -m benchmarks.run`` gathers into its targets table.
It runs fewer iterations when ``WEBROBOT_BENCH_QUICK`` is set (``--quick``),
and the fewest that still run every code path when ``WEBROBOT_BENCH_SMOKE`` is
set (``--smoke``, the test suite's run: numbers too small to judge a target).
"""

from __future__ import annotations

import gc
import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

RESULT_PREFIX = "BENCH-RESULT "
QUICK_ENV = "WEBROBOT_BENCH_QUICK"
SMOKE_ENV = "WEBROBOT_BENCH_SMOKE"
SMOKE_NOTE = "smoke run: too small to judge"


def smoke() -> bool:
    """The smallest run of the same code (``benchmarks.run --smoke``): targets are not judged."""
    return bool(os.environ.get(SMOKE_ENV))


def quick() -> bool:
    """A short run (``benchmarks.run --quick``, and ``--smoke``, which is shorter still)."""
    return smoke() or bool(os.environ.get(QUICK_ENV))


def size(full: int, quick_size: int, smoke_size: int) -> int:
    """How many inputs or iterations: the full run's, ``--quick``'s or ``--smoke``'s."""
    return smoke_size if smoke() else quick_size if quick() else full


def per_call(func: Callable[[Any], Any], inputs: Sequence[Any], repeat: int | None = None,
             min_seconds: float | None = None) -> float:  # fmt: skip
    """Seconds per call of ``func`` over ``inputs``: the best of ``repeat``
    rounds (the least disturbed by other processes), each round calling it on
    every input at least once and for at least ``min_seconds``."""
    if smoke():  # one pass over the inputs: the code runs, the time is not judged
        repeat, min_seconds = 1, 0.0
    if repeat is None:
        repeat = 2 if quick() else 5
    if min_seconds is None:
        min_seconds = 0.02 if quick() else 0.3
    best = float("inf")
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            calls = 0
            started = time.perf_counter()
            while True:
                for item in inputs:
                    func(item)
                calls += len(inputs)
                elapsed = time.perf_counter() - started
                if elapsed >= min_seconds:
                    break
            best = min(best, elapsed / calls)
    finally:
        if gc_was_on:
            gc.enable()
    return best


def fmt_time(seconds: float) -> str:
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    return f"{seconds * 1e3:.2f} ms"


def print_table(title: str, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    rows = [[str(cell) for cell in row] for row in rows]
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)
    ]
    print(title)
    print("  " + "  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for row in rows:
        print("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)))


def report_target(target: str, measured: str, met: bool | None, note: str = "") -> None:
    """One line for the harness's targets table (``met=None``: not judged, as
    always in a smoke run)."""
    if smoke():
        met, note = None, f"{note}; {SMOKE_NOTE}" if note else SMOKE_NOTE
    data: dict[str, Any] = {"target": target, "measured": measured, "met": met}
    if note:
        data["note"] = note
    print(RESULT_PREFIX + json.dumps(data), flush=True)
