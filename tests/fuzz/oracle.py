"""Running fuzz cases and judging their outcomes.

* `check_program`: a generated program on the interpreter, the JIT and (with JAX) XLA;
  the results must agree (see `compare`).
* `check_mutant`: a mutated program through parse+verify, the printer round trip, the
  lowering pipeline stage by stage and both backends; every outcome must be a located
  diagnostic or a correct run. `check_cli`: the `xla-opt` driver on it never shows a
  traceback or an internal error.
* `Worker`: a subprocess that runs cases one by one with a time limit each, so that a
  hang or a crash of native code is reported as a finding with its program instead of
  stopping the run (`python -m tests.fuzz worker` is its other end).

A case's result is a `CaseResult`: its program text, its failures (each a `Failure`
with a kind, the stage where it happened and a message) and notes (what was skipped,
and why).
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import IntegerAttr, i32

from tests.fuzz.program_gen import DTYPES, ELEMENT_OF_DTYPE, RTOL, GeneratedProgram, TensorT, Value, make_inputs

NARROW_INTS = frozenset(np.dtype(DTYPES[e]) for e in ("i4", "ui4", "i2", "ui2"))
ML_FLOATS = frozenset(DTYPES[e] for e in DTYPES if e == "bf16" or e.startswith(("f8", "f6", "f4")))

ROOT = Path(__file__).resolve().parents[2]
MAX_REPLICAS = 4  # the most replicas a generated program runs on

# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------


@dataclass
class Failure:
    # "crash" (an unexpected exception or a dead worker), "mismatch" (results differ),
    # "invalid" (IR that does not verify: a generated program, or a pass's output),
    # "not-located" (a diagnostic without file:line:col), "hang", "cli" (xla-opt misbehaves)
    kind: str
    stage: str  # where: "verify", "interpreter", "jit", "xla", "pass <name>", "xla-opt ..."
    message: str

    @property
    def signature(self) -> tuple[str, str, str]:
        """What a smaller reproducer must still show: the kind, the stage and, for
        crashes, the exception type; for invalid IR, the start of the verifier's message."""
        detail = ""
        if self.kind == "crash":
            detail = self.message.split(":", 1)[0]
        elif self.kind == "invalid":
            detail = re.sub(r"\d+", "N", self.message.rsplit("error: ", 1)[-1])[:40]
        return self.kind, self.stage, detail

    def __str__(self) -> str:
        return f"[{self.kind} in {self.stage}] {self.message}"


@dataclass
class CaseResult:
    case: str  # e.g. "program seed 17"
    text: str
    failures: list[Failure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    inputs: list[np.ndarray] | None = None
    seconds: float = 0.0

    def report(self) -> str:
        lines = [f"{self.case}: {len(self.failures)} failure(s)"]
        lines += [f"  {f}" for f in self.failures]
        lines += ["--- program ---", self.text.rstrip()]
        if self.inputs is not None:
            lines += ["--- inputs ---", *(f"  #{i}: {describe_array(a)}" for i, a in enumerate(self.inputs))]
        return "\n".join(lines)


def describe_array(a: np.ndarray) -> str:
    with np.printoptions(threshold=50, precision=9):
        return f"np.array({a.tolist()!r}, dtype=np.{a.dtype})" if a.size <= 50 else f"{a.dtype}{list(a.shape)}"


def _exception_text(e: BaseException) -> str:
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    where = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
    at = f" (at {Path(where.filename).name}:{where.lineno} in {where.name})" if where else ""
    return f"{type(e).__name__}: {first[:300]}{at}"


LOCATED = re.compile(r"^\S+:\d+:\d+: error: ", re.MULTILINE)


# --------------------------------------------------------------------------------------
# Comparing results
# --------------------------------------------------------------------------------------


def compare(
    got: np.ndarray,
    want: np.ndarray,
    rtol: float,
    flush_denormals: bool = False,
    bitwise: bool = False,
    reordered: bool = False,
    magnitude: float = 0.0,
) -> str | None:
    """None when `got` agrees with `want`, else what differs. Integers and booleans
    exactly; floats: NaN at the same positions and the rest equal (-0 == +0), or, with
    a tolerance `rtol` > 0 (values that may differ by rounding), within rtol relative
    to the largest magnitude of `want` (cancellation), infinities matched by values
    near the type's limit and NaN by infinities (an intermediate overflow: inf - inf
    on one side only). `flush_denormals`: denormals count as zeros (XLA flushes them).
    `bitwise`: floats must have the same bits (signs of zeros, NaN against a number),
    for values only moved around, never computed; any NaN matches any NaN. `reordered`:
    computed from sums or products taken in a different order on each side, where an
    overflow on one side only can turn into NaN (0 * inf) and a zero's sign into an
    infinity's (1 / -0): a NaN or an infinity matches anything, and
    the tolerance is relative to `magnitude` too (a bound on the sum of the magnitudes
    of what was summed: a reordered sum's rounding error scales with its terms, not with
    its result, which cancellation can make small; `input_magnitude`). Complex numbers:
    each part so, relative to the largest modulus of `want`."""
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return f"got {got.dtype}{list(got.shape)}, expected {want.dtype}{list(want.shape)}"
    options = (rtol, flush_denormals, bitwise, reordered, magnitude)
    if want.dtype.kind == "c":
        finite = np.abs(want[np.isfinite(want)])
        floor = float(finite.max()) if finite.size else 0.0
        bad = _mismatches(got.real, want.real, *options, floor) | _mismatches(got.imag, want.imag, *options, floor)
        if reordered:
            # a part that is not finite on one side waives the whole element: log of an
            # exact 0 is -inf + 0j, of a tiny negative number left by the other order
            # -32 + pi j (fuzz seed 601275: the log of an FFT of a constant)
            bad &= np.isfinite(got) & np.isfinite(want)
    else:
        bad = _mismatches(got, want, *options)
    if not bad.any():
        return None
    where = [tuple(int(i) for i in ix) for ix in np.argwhere(bad)[:4]]
    shown = ", ".join(f"{list(ix)}: got {got[ix]!r}, expected {want[ix]!r}" for ix in where)
    return f"{int(bad.sum())} of {bad.size} elements differ ({shown})"


def _mismatches(
    got: np.ndarray,
    want: np.ndarray,
    rtol: float,
    flush_denormals: bool,
    bitwise: bool,
    reordered: bool,
    magnitude: float,
    floor: float = 0.0,
) -> np.ndarray:
    """Where real (or integer) `got` and `want` differ (see `compare`); `floor`: the
    least magnitude the tolerance is relative to."""
    if want.dtype in NARROW_INTS or want.dtype.kind in "biu":
        return np.asarray(got.astype(np.int64) != want.astype(np.int64) if want.dtype.kind != "b" else got != want)
    if bitwise:
        bits = f"uint{want.dtype.itemsize * 8}"
        # a NaN's sign and payload are not specified where it is computed (0 % 0 is
        # -nan in native code, nan in numpy), so NaNs match NaNs
        both_nan = np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64))
        return (np.ascontiguousarray(got).view(bits) != np.ascontiguousarray(want).view(bits)) & ~both_nan
    g, w = got.astype(np.float64), want.astype(np.float64)
    if flush_denormals:
        tiny = float(ml_dtypes.finfo(want.dtype).smallest_normal)
        g, w = (np.where(np.abs(x) < tiny, 0.0, x) for x in (g, w))
    nan_g, nan_w = np.isnan(g), np.isnan(w)
    both = ~(nan_g | nan_w)
    if not rtol:
        return (nan_g != nan_w) | (both & (g != w))
    finite = np.abs(w[np.isfinite(w)])
    scale = max(1.0, float(finite.max()) if finite.size else 1.0, floor)
    if reordered:
        scale = max(scale, magnitude)
    largest = float(ml_dtypes.finfo(want.dtype).max)
    limit = largest / (2 if want.dtype.itemsize == 1 else 16)  # near overflow: as good as infinite
    with np.errstate(invalid="ignore", over="ignore"):
        close = np.isclose(g, w, rtol=rtol, atol=rtol * scale)
        huge = (np.abs(g) > limit) & (np.abs(w) > limit) & (np.sign(g) == np.sign(w))
    overflowed = (nan_g & np.isinf(w)) | (nan_w & np.isinf(g))
    if reordered:
        # any non-finite value matches: besides 0 * inf, a sum that is -0 in one order
        # and +0 (or a tiny number) in another becomes -inf and +inf (or a number)
        # through a reciprocal (fuzz seed 100794: rsqrt of a triangular solve's -0)
        overflowed = ~np.isfinite(g) | ~np.isfinite(w)
    return ((nan_g != nan_w) & ~overflowed) | (both & ~(close | huge | overflowed))


def check_undetermined(got: np.ndarray, v: Value) -> str | None:
    """A value the spec does not determine (rng_uniform, rng_normal): its type, and
    ("range", a, b) every element in [a, b), ("finite",) no NaN or infinity."""
    got = np.asarray(got)
    want = DTYPES[v.elem]
    if got.dtype != want or got.shape != v.shape:
        return f"got {got.dtype}{list(got.shape)}, expected {want}{list(v.shape)}"
    if v.check[0] == "range":
        low, high = v.check[1], v.check[2]
        x = got.astype(np.float64) if got.dtype.kind == "f" or got.dtype in ML_FLOATS else got.astype(object)
        bad = ~((x >= low) & (x < high))  # NaN is outside too
        if bad.any():
            return f"{int(bad.sum())} of {bad.size} elements outside [{low}, {high}): {got[bad][:4]!r}"
    elif v.check[0] == "finite":
        bad = ~np.isfinite(got.astype(np.float64))
        if bad.any():
            return f"{int(bad.sum())} of {bad.size} elements are not finite: {got[bad][:4]!r}"
    return None


# --------------------------------------------------------------------------------------
# Generated programs
# --------------------------------------------------------------------------------------


def xla_available() -> tuple[bool, str]:
    """Whether XLA (through JAX) can serve as an oracle, and why not."""
    import importlib.util

    if importlib.util.find_spec("jax") is None:
        return False, "JAX is not installed (pip install jax): XLA is not compared"
    from xla_opt import xla_oracle

    if not xla_oracle.available():
        return False, "JAX's XLA CPU backend does not load: XLA is not compared"
    return True, ""


def run_backend(
    module, inputs: Sequence[np.ndarray], backend: str, entry: str = "main", replicas: int = 1
) -> list[np.ndarray] | list[list[np.ndarray]]:
    """The results; with replicas > 1 (inputs stacked per replica), one list per replica."""
    import xla_opt

    out = xla_opt.compile(module, entry=entry, backend=backend, replicas=replicas)(*inputs)
    if replicas > 1:
        return [[np.asarray(r) for r in rs] for rs in out]
    return [np.asarray(r) for r in out]


def check_program(
    program: GeneratedProgram, inputs: Sequence[np.ndarray], use_xla: bool, verify_stages: bool = True
) -> CaseResult:
    """The generated program on the interpreter, the JIT and XLA, compared (replica by
    replica when it runs on several); `verify_stages`: also lower it stage by stage,
    verifying each stage's output."""
    import xla_opt

    text = program.text
    result = CaseResult(f"program seed {program.seed}", text, inputs=list(inputs))
    if program.replicas > 1:
        result.notes.append(f"replicas: {program.replicas}")
    try:
        module = xla_opt.load_program(text, name="<fuzz>")
    except Exception as e:  # noqa: BLE001 - a generated program must verify
        result.failures.append(Failure("invalid", "verify", _exception_text(e)))
        return result
    if verify_stages:
        lowered, options = module, None
        if program.replicas > 1:  # replicas as threads: collectives are host calls (as the API lowers them)
            lowered = module.clone()
            lowered.attributes["xla.num_replicas"] = IntegerAttr(program.replicas, i32)
            options = {"convert-xla-to-linalg": {"host_collectives": True}}
        _check_lowering(lowered, result, expect_complete=True, options=options)
    try:
        want = per_replica(run_backend(module, inputs, "interpreter", replicas=program.replicas), program.replicas)
    except Exception as e:  # noqa: BLE001
        result.failures.append(Failure("crash", "interpreter", _exception_text(e)))
        return result
    try:
        got = per_replica(run_backend(module, inputs, "jit", replicas=program.replicas), program.replicas)
    except Exception as e:  # noqa: BLE001 - every generated op is in the JIT's op set
        result.failures.append(Failure("crash", "jit", _exception_text(e)))
        got = None
    magnitude = input_magnitude(inputs)  # for the reordered values of either comparison
    for r in range(program.replicas):
        where = f" (replica {r})" if program.replicas > 1 else ""
        _check_undetermined(result, want[r], program.results, f"interpreter{where}")
        if got is not None:
            _compare_all(result, got[r], want[r], program.results, "jit", magnitude, where)
    if use_xla:
        _check_xla(result, program, inputs, want, magnitude)
    return result


def per_replica(results: list, replicas: int) -> list[list[np.ndarray]]:
    return results if replicas > 1 else [results]


def input_magnitude(inputs: Sequence[np.ndarray]) -> float:
    """A bound on the sum of the magnitudes of the terms of a reduction over an input:
    the largest finite magnitude of any input times the largest input's element count
    (seed 9410481: the f32 sum of 17 integers among them -2^31 and 2^31 - 1 is -7 in one
    order and -8 in another; its terms' magnitudes, not its result, set its error)."""
    bound = 0.0
    for a in map(np.asarray, inputs):
        if a.size == 0 or a.dtype.kind == "b":
            continue
        try:  # ml_dtypes' floats (kind V) convert too
            x = np.abs(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
        except (TypeError, ValueError):
            continue
        finite = x[np.isfinite(x)]
        if finite.size:
            bound = max(bound, float(finite.max()) * a.size)
    return bound


def _compare_all(
    result: CaseResult,
    got: list,
    want: list,
    values: Sequence[Value],
    backend: str,
    magnitude: float = 0.0,
    where: str = "",
) -> None:
    if len(got) != len(want):
        result.failures.append(Failure("mismatch", backend, f"{len(got)} results, the interpreter gives {len(want)}"))
        return
    for i, (g, w, v) in enumerate(zip(got, want, values)):
        if v.check:
            problem = check_undetermined(g, v)
        else:
            problem = compare(
                g, w, v.rtol, bitwise=v.bits_exact and not v.approx, reordered=v.reordered, magnitude=magnitude
            )
        if problem:
            result.failures.append(
                Failure("mismatch", backend, f"result #{i} ({v.name}: {v.type}){where} vs the interpreter: {problem}")
            )


def _check_undetermined(result: CaseResult, values: list, described: Sequence[Value], where: str) -> None:
    """The interpreter's own undetermined values (rng) are in their range too."""
    for i, (w, v) in enumerate(zip(values, described)):
        if v.check and (problem := check_undetermined(w, v)):
            result.failures.append(Failure("mismatch", "interpreter", f"result #{i} ({v.name}: {v.type}) {where}: "
                                           f"{problem}"))  # fmt: skip


def _check_xla(
    result: CaseResult, program: GeneratedProgram, inputs: Sequence[np.ndarray], want: list, magnitude: float
) -> None:
    """XLA on the results it must agree on: the program is cut down to them first, so
    that XLA never sees the excluded computations (its constant folder has crashed on
    some of them). `want`: the interpreter's results, one list per replica."""
    from xla_opt.passes.conversions.convert_xla_to_stablehlo import to_stablehlo_text

    import xla_opt

    values = program.results
    kept = [i for i, v in enumerate(values) if not v.xla_skip]
    skipped = sorted({reason for v in values for reason in v.xla_skip})
    if skipped:
        left_out = sorted(set(range(len(values))) - set(kept))
        result.notes.append(f"xla: results {left_out} not compared: " + "; ".join(skipped))
    if not kept:
        return
    sub = program.restricted([values[i] for i in kept])
    by_name = dict(zip((a.name for a in program.args), inputs))
    try:
        module = xla_opt.load_program(sub.text, name="<fuzz>")
        if program.replicas > 1:
            module.attributes["mhlo.num_partitions"] = IntegerAttr(program.replicas, i32)
        text = to_stablehlo_text(module, entry="main")
        if program.replicas > 1:
            text = as_cross_replica(text, program.replicas)
    except Exception as e:  # noqa: BLE001 - every generated op has a StableHLO export
        result.failures.append(Failure("crash", "xla export", _exception_text(e)))
        return
    try:
        got = run_xla(text, [by_name[a.name] for a in sub.args], program.replicas)
    except Exception as e:  # noqa: BLE001
        result.failures.append(Failure("crash", "xla", f"XLA rejects the exported program: {_exception_text(e)}"))
        return
    result.notes.append(
        "xla: compared every result"
        if len(kept) == len(values)
        else f"xla: compared {len(kept)} of {len(values)} results"
    )
    for r in range(program.replicas):
        where = f" (replica {r})" if program.replicas > 1 else ""
        for g, i in zip(got[r], kept):
            v = values[i]
            if v.check:
                problem = check_undetermined(g, v)
            else:
                problem = compare(
                    g, want[r][i], v.rtol_xla, flush_denormals=True, reordered=v.reordered, magnitude=magnitude
                )
            if problem:
                result.failures.append(
                    Failure("mismatch", "xla", f"result #{i} ({v.name}: {v.type}){where} vs the interpreter: {problem}")
                )


def as_cross_replica(text: str, replicas: int) -> str:
    """The export of a program of N replicas, made with `mhlo.num_partitions = N` (the
    exporter's collectives are cross-partition ones: a single-device program has none),
    turned into XLA's cross-replica form: N replicas of one partition, replica_id, and
    collectives without channels, whose groups are replica ids."""
    text = re.sub(r"channel_handle = #stablehlo\.channel_handle<[^>]*>, ?", "", text)
    text = re.sub(r",? ?use_global_device_ids", "", text)
    text = text.replace("stablehlo.partition_id", "stablehlo.replica_id")
    text = text.replace(f"mhlo.num_partitions = {replicas} : i32", "mhlo.num_partitions = 1 : i32")
    return text.replace("mhlo.num_replicas = 1 : i32", f"mhlo.num_replicas = {replicas} : i32")


def run_xla(text: str, inputs: Sequence[np.ndarray], replicas: int) -> list[list[np.ndarray]]:
    """XLA's results, one list per replica: a program of N replicas runs on N CPU
    devices (the worker starts JAX with enough of them), each replica on its slice of
    the stacked inputs."""
    from xla_opt import xla_oracle

    if replicas == 1:
        return [xla_oracle.run_stablehlo(text, *inputs)]
    import jax
    from jax._src import compiler, xla_bridge
    from jax._src.lib import xla_client
    from jax._src.sharding_impls import GSPMDSharding

    backend = xla_bridge.get_backend("cpu")
    devices = tuple(backend.devices()[:replicas])
    if len(devices) < replicas:
        raise RuntimeError(f"{replicas} replicas need {replicas} CPU devices, JAX has {len(devices)} (XLA_FLAGS)")
    options = compiler.get_compile_options(
        num_replicas=replicas, num_partitions=1, device_assignment=np.arange(replicas).reshape(replicas, 1)
    )
    executable = backend.compile_and_load(text, xla_client.DeviceList(devices), options)
    # each device holds its replica's own value (a "replicated" array whose copies differ)
    sharding = GSPMDSharding.get_replicated(devices)
    with jax.enable_x64(True):
        arrays = [
            jax.make_array_from_single_device_arrays(
                a.shape[1:], sharding, [jax.device_put(np.array(a[r], order="C"), d) for r, d in enumerate(devices)]
            )
            for a in map(np.asarray, inputs)
        ]
        outputs = executable.execute_sharded(arrays).disassemble_into_single_device_arrays()
        return [[np.asarray(per_device[r]) for per_device in outputs] for r in range(replicas)]


# --------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------

# Ops a single-device run without host queues or random state cannot evaluate
# deterministically: the mutant is parsed, verified and lowered, but not run.
UNRUNNABLE_OPS = {
    "xla.rng_uniform", "xla.rng_normal", "xla.rng_bit_generator", "xla.custom_call", "xla.infeed",
    "xla.outfeed", "xla.send", "xla.recv", "xla.all_gather", "xla.all_reduce", "xla.all_to_all",
    "xla.collective_permute", "xla.reduce_scatter",
}  # fmt: skip
MAX_LOWERED_ELEMENTS = 1_000_000  # mutants with larger tensors are only verified
MAX_RUN_ELEMENTS = 4096  # ... are not run (the interpreter's regions run per element)


# How each KNOWN_BUG_AVOIDANCE entry shows in a mutant's failure, for the bugs a
# mutation can reach (a failure that matches an entry present is filed as known).
KNOWN_BUG_MATCHERS: dict[str, Callable[[str, Failure], bool]] = {
    "empty_slice_lowering": lambda text, f: (
        f.kind == "invalid" and f.stage == "pass convert-xla-to-linalg" and "xla.slice" in text
    ),
    "narrow_tuple_widening": lambda text, f: (
        f.stage == "pass xla-widen-narrow-types" and "'xla.tuple' op inferred result type" in f.message
    ),
    "write_in_place_loop_state": lambda text, f: (
        f.kind == "mismatch"
        and f.stage.startswith("jit")
        and "xla.while" in text
        and ("xla.sort" in text or "xla.gather" in text)
    ),
    "narrow_float_rng": lambda text, f: f.kind == "mismatch" and "outside [" in f.message and "xla.rng_uniform" in text,
    "narrow_dimension_size": lambda text, f: (
        "dimension_size' op is not lowered to linalg" in f.message
        and any(f"x{t}>" in text or f"<{t}>" in text for t in ("i4", "ui4", "i2", "ui2", "f8", "f6", "f4"))
    ),
    "empty_unsigned_constant_collective": lambda text, f: (
        f.kind == "crash" and f.stage.startswith("jit") and "Cannot cast array data" in f.message
    ),
    "computation_not_inlined_unlocated": lambda text, f: (
        f.kind == "crash" and "DiagnosticException: cannot lower a computation to scalar code" in f.message
    ),
    "complex_expm1_overflow": lambda text, f: (
        f.kind == "mismatch" and "nanj" in f.message and "xla.exponential_minus_one" in text and "complex" in text
    ),
    "uneven_groups_partition_export": lambda text, f: (
        "rows of an integer matrix must have the same length" in (f.message)
    ),
    "unused_tuple_not_lowered": lambda text, f: "'xla.tuple' op is not lowered to linalg" in f.message,
    "complex_logistic_overflow": lambda text, f: (
        f.kind == "mismatch" and "nan" in f.message and "xla.logistic" in text and "complex" in text
    ),
    "narrow_int_rng_interpreter": lambda text, f: (
        f.stage.startswith("interpreter") and "Unsupported dtype" in f.message and "xla.rng_uniform" in text
    ),
}


def file_known_bugs(result: CaseResult) -> CaseResult:
    """Move the failures that match a KNOWN_BUG_AVOIDANCE entry to the notes."""
    from tests.fuzz import KNOWN_BUG_AVOIDANCE

    kept = []
    for f in result.failures:
        name = next((n for n, matches in KNOWN_BUG_MATCHERS.items()
                     if n in KNOWN_BUG_AVOIDANCE and matches(result.text, f)), None)  # fmt: skip
        if name:
            result.notes.append(f"known bug {name}: {f}")
        else:
            kept.append(f)
    result.failures = kept
    return result


def tensor_types(module) -> list:
    from xdsl.dialects.builtin import TensorType

    found = []
    for op in module.walk():
        for v in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
            if isinstance(v.type, TensorType):
                found.append(v.type)
    return found


def _largest_tensor(module) -> int:
    from xla_opt.dialects.shapes.common import num_elements

    return max((num_elements([max(d, 0) for d in t.get_shape()]) for t in tensor_types(module)), default=0)


def as_tensor_t(t) -> TensorT | None:
    """The generator's type of an xDSL tensor type, or None (complex, tuple, token...)."""
    from xdsl.dialects.builtin import TensorType

    from xla_opt.interpreter.dtypes import numpy_dtype

    if not isinstance(t, TensorType):
        return None
    try:
        name = ELEMENT_OF_DTYPE[numpy_dtype(t.get_element_type())]
    except (TypeError, KeyError):
        return None
    if name not in DTYPES or any(d < 0 for d in t.get_shape()):
        return None
    return TensorT(tuple(t.get_shape()), name)


def standalone(module, entry: str):
    """A copy of `module` with only `entry` and the functions it calls; when `entry`
    returns nothing, it returns every tensor its body computes at the top level (the
    lit examples compute values they do not return)."""
    from xdsl.dialects.builtin import FunctionType, SymbolRefAttr, TensorType
    from xdsl.dialects.func import FuncOp, ReturnOp
    from xdsl.rewriter import Rewriter

    module = module.clone()
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)}
    keep, todo = set(), [entry]
    while todo:
        name = todo.pop()
        if name in keep or name not in functions:
            continue
        keep.add(name)
        for op in functions[name].walk():
            for attr in (*op.properties.values(), *op.attributes.values()):
                if isinstance(attr, SymbolRefAttr):
                    todo.append(attr.root_reference.data)
    for name, f in functions.items():
        if name not in keep:
            module.body.block.erase_op(f)
    func = functions[entry]
    if not func.function_type.outputs.data and func.body.blocks:
        block = func.body.blocks[0]
        values = [r for op in block.ops for r in op.results if isinstance(r.type, TensorType)]
        if isinstance(block.last_op, ReturnOp):
            Rewriter.replace_op(block.last_op, ReturnOp(*values))
            func.function_type = FunctionType.from_lists(list(func.function_type.inputs.data), [v.type for v in values])
    return module


def check_mutant(text: str, seed: int, case: str = "mutant") -> CaseResult:
    """Every outcome must be a located diagnostic or a correct run (see the module
    docstring)."""
    result = CaseResult(case, text)
    _check_mutant(text, seed, result)
    return result


def _check_mutant(text: str, seed: int, result: CaseResult) -> None:
    import xla_opt
    from xla_opt.diagnostics import ProgramError

    try:
        module = xla_opt.load_program(text, name="<mutant>")
    except ProgramError as e:
        _check_located(result, "verify", str(e))
        result.notes.append("outcome: diagnostic")
        return
    except RecursionError:
        result.notes.append("outcome: nests too deeply")
        return
    except Exception as e:  # noqa: BLE001
        result.failures.append(Failure("crash", "verify", _exception_text(e)))
        return
    try:
        printed = str(module)
        xla_opt.load_program(printed, name="<printed>")
    except Exception as e:  # noqa: BLE001 - what we print must parse back
        result.failures.append(Failure("crash", "print round trip", _exception_text(e)))
    largest = _largest_tensor(module)
    if largest > MAX_LOWERED_ELEMENTS:
        result.notes.append(f"outcome: verified (a tensor of {largest} elements is not lowered or run)")
        return
    _check_lowering(module, result)
    if largest > MAX_RUN_ELEMENTS:
        result.notes.append(f"not run: a tensor of {largest} elements")
        return
    _check_runs(module, seed, result)


def _check_located(result: CaseResult, stage: str, message: str) -> None:
    if not LOCATED.search(message):
        result.failures.append(Failure("not-located", stage, f"diagnostic without file:line:col: {message[:300]}"))


def _check_lowering(module, result: CaseResult, expect_complete: bool = False, options: dict | None = None) -> None:
    """The pipeline stage by stage: each stage ends in a diagnostic (a failure when
    `expect_complete`: generated programs use lowered ops only) or valid IR."""
    from xdsl.utils.exceptions import DiagnosticException
    from xla_opt.lowering.xla_to_llvm import stage_passes

    from xla_opt.context import make_context
    from xla_opt.diagnostics import DiagnosticError, verify_module

    lowered = module.clone()
    ctx = make_context()
    for name, stage in stage_passes(options=options):
        try:
            stage.apply(ctx, lowered)
        except (DiagnosticError, DiagnosticException) as e:
            if expect_complete:
                result.failures.append(Failure("crash", f"pass {name}", _exception_text(e)))
            elif isinstance(e, DiagnosticError):
                _check_located(result, f"pass {name}", str(e))
                result.notes.append(f"lowering: diagnostic in {name}")
            else:  # the driver prints it as `file: error: ...`
                result.notes.append(f"lowering: xDSL diagnostic in {name}: {str(e)[:200]}")
            return
        except Exception as e:  # noqa: BLE001
            result.failures.append(Failure("crash", f"pass {name}", _exception_text(e)))
            return
        diags = verify_module(lowered, "<lowered>")
        if diags:
            result.failures.append(Failure("invalid", f"pass {name}", f"the pass produced invalid IR: {diags[0]}"))
            return
    result.notes.append("lowering: complete")


def _check_runs(module, seed: int, result: CaseResult) -> None:
    """Each function that can run: the interpreter and the JIT on random inputs."""
    from xdsl.dialects.func import FuncOp

    for func in [op for op in module.ops if isinstance(op, FuncOp) and op.body.blocks]:
        entry = func.sym_name.data
        if {op.name for op in func.walk()} & UNRUNNABLE_OPS:
            continue
        alone = standalone(module, entry)
        functions = [op for op in alone.ops if isinstance(op, FuncOp)]
        signature = next(f for f in functions if f.sym_name.data == entry).function_type
        arg_types = [as_tensor_t(t) for t in signature.inputs.data]
        outputs = [as_tensor_t(t) for t in signature.outputs.data]
        if None in arg_types or None in outputs or not outputs:
            continue  # tuples, tokens, complex numbers: the JIT's boundary passes real tensors
        inputs = make_inputs(arg_types, seed)
        want = _run_or_fail(result, alone, inputs, "interpreter", entry)
        got = _run_or_fail(result, alone, inputs, "jit", entry)
        if want is None or got is None:
            continue
        result.notes.append(f"ran @{entry} on both backends")
        undetermined = _non_strict_sort_comparator(alone) or _cholesky_of_a_non_finite_factor(alone, want)
        if undetermined:
            result.notes.append(f"@{entry}: results not compared: {undetermined}")
            continue
        if len(got) != len(want):
            result.failures.append(
                Failure("mismatch", f"jit @{entry}", f"{len(got)} results, the interpreter {len(want)}")
            )
            continue
        for i, (g, w) in enumerate(zip(got, want)):
            # no flags here: floats get their type's tolerance (transcendental functions)
            problem = compare(g, w, RTOL.get(outputs[i].elem, 0.0))
            if problem:
                result.failures.append(
                    Failure("mismatch", f"jit @{entry}", f"result #{i} vs the interpreter: {problem}")
                )


def _non_strict_sort_comparator(module) -> str | None:
    """Why the order a sort in `module` gives is not determined, or None. The spec asks
    of a sort's comparator a strict weak order; one returning a comparison EQ, NE, GE
    or LE (a mutation of LT or GT) is not one, and with it each backend's order is its
    algorithm's (mutant seed 826680: a stable sort by NE). An EQ inside a lexicographic
    comparator (`a0 < b0 or a0 == b0 and a1 < b1`) is not the returned value."""
    from xla_opt.dialects import xla

    for sort in module.walk():
        if not isinstance(sort, xla.SortOp):
            continue
        returned = sort.comparator.block.last_op.operands[0].owner
        if isinstance(returned, xla.CompareOp):
            direction = returned.comparison_direction.data.value
            if direction not in ("LT", "GT"):
                return f"a sort's comparator returns a comparison {direction}, not a strict weak order"
    return None


def _cholesky_of_a_non_finite_factor(module, want: list[np.ndarray]) -> str | None:
    """Why results of a program with a Cholesky decomposition are not determined, or
    None: the spec leaves the factor of a matrix that is not symmetric (Hermitian)
    positive definite to the implementation; a NaN or an infinity among the
    interpreter's results of such a program is taken as the sign of one (mutant seed
    826999: a Gram matrix of inputs with an infinity, NaN on the JIT where numpy's
    factor is partly finite)."""
    from xla_opt.dialects import xla

    if not any(isinstance(op, xla.CholeskyOp) for op in module.walk()):
        return None
    inexact = [w for w in want if np.issubdtype(np.asarray(w).dtype, np.inexact)]
    if any(not np.isfinite(np.asarray(w, dtype=np.complex128)).all() for w in inexact):
        return "a Cholesky factor of a matrix that is not positive definite (a result is not finite)"
    return None


def _run_or_fail(result: CaseResult, module, inputs, backend: str, entry: str) -> list[np.ndarray] | None:
    """The results, or None after recording why there are none: a located ProgramError
    (a program that verifies but cannot run, e.g. calling a declaration) or the JIT
    declining ops outside its op set (NotImplementedError naming them); anything else
    is a bug."""
    from xla_opt.lowering.conversions.convert_xla_to_linalg import LOWERED_OPS

    from xla_opt.diagnostics import ProgramError

    try:
        return run_backend(module, inputs, backend, entry)
    except ProgramError as e:
        _check_located(result, f"{backend} @{entry}", str(e))
        result.notes.append(f"{backend} @{entry}: diagnostic")
    except NotImplementedError as e:
        outside = {op.name for op in module.walk() if op.name.startswith("xla.")} - LOWERED_OPS
        if backend != "jit" or ("not lowered" not in str(e) and "cannot compile" not in str(e)):
            result.failures.append(Failure("crash", f"{backend} @{entry}", _exception_text(e)))
        elif not outside:
            result.notes.append(f"jit @{entry}: declined although every op is in LOWERED_OPS: {str(e)[:200]}")
    except Exception as e:  # noqa: BLE001
        result.failures.append(Failure("crash", f"{backend} @{entry}", _exception_text(e)))
    return None


# --------------------------------------------------------------------------------------
# The xla-opt driver
# --------------------------------------------------------------------------------------

CLI_VARIANTS: tuple[tuple[str, ...], ...] = (
    (),
    ("--print-op-generic",),
    ("-p", "canonicalize,cse"),
    ("-p", "xla-to-llvm"),
    ("-t", "stablehlo"),
    ("-t", "llvm"),
)


def check_cli(text: str, result: CaseResult, variants: Sequence[Sequence[str]] = CLI_VARIANTS) -> None:
    """xla-opt on the program: exit code 0 or 1, no traceback, no internal error, and a
    located diagnostic when it fails."""
    from xla_opt.opt_main import main

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.mlir"
        path.write_text(text)
        for variant in variants:
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main([str(path), *variant])
                except BaseException as e:  # noqa: BLE001 - main must not raise
                    code = f"raised {_exception_text(e)}"
            stage = "xla-opt " + " ".join(variant) if variant else "xla-opt"
            stderr = err.getvalue().replace(str(path), "fuzz.mlir")
            if code not in (0, 1):
                result.failures.append(Failure("cli", stage, f"exit code {code}: {stderr[:300]}"))
            elif "Traceback" in stderr or "Traceback" in out.getvalue():
                result.failures.append(Failure("cli", stage, f"printed a traceback: {stderr[-300:]}"))
            elif "internal error" in stderr:
                result.failures.append(Failure("cli", stage, stderr.strip()[:300]))
            elif code == 1 and not re.search(r"^\S+(:\d+:\d+)?: error: ", stderr, re.MULTILINE):
                result.failures.append(Failure("cli", stage, f"failed without a diagnostic: {stderr[:300]!r}"))


# --------------------------------------------------------------------------------------
# The worker subprocess
# --------------------------------------------------------------------------------------


def _write_message(stream, obj: Any) -> None:
    data = pickle.dumps(obj)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _read_exactly(fd: int, n: int, deadline: float | None) -> bytes | None:
    chunks, remaining = [], n
    while remaining:
        if deadline is not None:
            timeout = deadline - time.monotonic()
            if timeout <= 0 or not select.select([fd], [], [], timeout)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def _read_message(fd: int, deadline: float | None = None) -> Any:
    header = _read_exactly(fd, 8, deadline)
    if header is None:
        raise EOFError
    body = _read_exactly(fd, struct.unpack("<Q", header)[0], deadline)
    if body is None:
        raise EOFError
    return pickle.loads(body)


class Worker:
    """A `python -m tests.fuzz worker` subprocess that runs requests (see
    `handle_request`) one at a time; a request that takes longer than `timeout`
    seconds is reported as a hang and the worker is restarted."""

    def __init__(self, timeout: float = 60.0):
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None
        self.log: Path | None = None  # the worker's stderr: its last words if it dies

    def _start(self) -> subprocess.Popen:
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        # XLA runs a program of N replicas on N host devices (JAX reads this when it starts)
        flags = env.get("XLA_FLAGS", "")
        if "xla_force_host_platform_device_count" not in flags:
            env["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={MAX_REPLICAS}".strip()
        fd, name = tempfile.mkstemp(prefix="fuzz-worker-", suffix=".log")
        self.log = Path(name)
        try:
            return subprocess.Popen(
                [sys.executable, "-m", "tests.fuzz", "worker"], cwd=ROOT, env=env,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=fd, start_new_session=True,
            )  # fmt: skip
        finally:
            os.close(fd)

    def run(self, request: dict, timeout: float | None = None) -> CaseResult:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self._start()
        proc = self.proc
        _write_message(proc.stdin, request)
        deadline = time.monotonic() + (timeout or self.timeout)
        try:
            return _read_message(proc.stdout.fileno(), deadline)
        except TimeoutError:
            self.close()
            text = request_text(request)
            seconds = timeout or self.timeout
            if request["op"] == "mutant" and "xla.while" in text:
                # a mutated loop may legitimately never end (a counter that counts away)
                note = f"timeout after {seconds:.0f} s: inconclusive (a mutated while loop need not terminate)"
                return CaseResult(request_name(request), text, notes=[note])
            return CaseResult(
                request_name(request), text, [Failure("hang", "timeout", f"no result within {seconds:.0f} s")]
            )
        except EOFError:
            code = proc.wait()
            died = Failure("crash", "worker process", f"the worker died with exit code {code}: {self._log_tail()}")
            self.close()
            return file_known_bugs(CaseResult(request_name(request), request_text(request), [died]))

    def _log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-500:].strip() if self.log else ""
        except OSError:
            return ""

    def close(self) -> None:
        """Stop the worker (the next request starts a new one)."""
        if self.proc is not None:
            if self.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)  # our own worker's session only
            self.proc.wait()
            for pipe in (self.proc.stdin, self.proc.stdout):
                with contextlib.suppress(OSError):
                    pipe.close()
        if self.log is not None:
            self.log.unlink(missing_ok=True)
        self.proc, self.log = None, None


def request_name(request: dict) -> str:
    return request.get("name") or f"{request['op']} seed {request.get('seed')}"


def request_text(request: dict) -> str:
    """The program of a request (regenerated from its seed if need be)."""
    if "text" in request:
        return request["text"]
    if "program" in request:
        return request["program"].text
    if request["op"] == "program":
        from tests.fuzz.program_gen import generate_program

        return generate_program(request["seed"], focus=request.get("focus")).text
    from tests.fuzz.mutate import make_mutant

    return make_mutant(request["seed"]).text


def handle_request(request: dict, use_xla: bool) -> CaseResult:
    """Run one request in this process:
    {"op": "program", "seed": s}                          a generated program
      ("focus": "xla.sort": one that holds this op)
    {"op": "program", "program": p, "inputs": [...]}      a given (e.g. reduced) one
      (options: "xla": False skips XLA, "stages": False the stage-by-stage lowering)
    {"op": "mutant", "seed": s, "cli": bool}              a mutant of the corpus
    {"op": "mutant", "text": t, "seed": s, "cli": bool}   a given mutant text
    """
    start = time.perf_counter()
    if request["op"] == "program":
        from tests.fuzz.program_gen import generate_program

        program = request.get("program") or generate_program(request["seed"], focus=request.get("focus"))
        inputs = request.get("inputs")
        if inputs is None:
            inputs = program.inputs()
        result = check_program(program, inputs, use_xla and request.get("xla", True), request.get("stages", True))
    else:
        text, origin = request.get("text"), "given text"
        if text is None:
            from tests.fuzz.mutate import make_mutant

            mutant = make_mutant(request["seed"])
            text, origin = (mutant.text, f"{mutant.origin}; mutations: {'; '.join(mutant.mutations)}")
        result = check_mutant(text, request["seed"], request_name(request))
        result.notes.insert(0, f"origin: {origin}")
        if request.get("cli"):
            check_cli(text, result)
        file_known_bugs(result)
    result.case = request_name(request)
    result.seconds = time.perf_counter() - start
    return result


def serve() -> None:
    """The worker's loop: requests on stdin, results on stdout (the protocol's only
    user: everything else printed goes to stderr)."""
    protocol_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # stray prints (ours, LLVM's) must not corrupt the protocol
    sys.stdout = sys.stderr
    use_xla, reason = xla_available()
    if use_xla:
        # JAX's CPU backend starts before any llvmlite JIT (see tests/conftest.py)
        import jax

        jax.config.update("jax_platforms", "cpu")
        jax.devices()
    stdin = sys.stdin.buffer.fileno()
    while True:
        try:
            request = _read_message(stdin)
        except EOFError:
            return
        try:
            result = handle_request(request, use_xla)
            if not use_xla and request["op"] == "program":
                result.notes.append(reason)
        except Exception:  # noqa: BLE001 - a bug of the fuzzer itself, reported as such
            result = CaseResult(request_name(request), "", [Failure("crash", "fuzzer", traceback.format_exc())])
        _write_message(protocol_out, result)
