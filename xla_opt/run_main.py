"""`xla-run`: run an xla program on .npy inputs and print (or save) its results.

    xla-run prog.mlir --input a.npy b.npy            # print each result
    xla-run prog.mlir --random-inputs --seed 3       # inputs drawn from the signature
    xla-run prog.mlir --input a.npy --output-dir out # write out/result_0.npy, ...
    xla-run prog.mlir --input x.npy --replicas 2     # x: one value, or one per replica
    xla-run sharded.mlir --input x.npy               # N partitions: run partitioned on N devices

With --replicas N, an input is either a value of the parameter's type (given to every
replica) or has one more, leading axis of size N (row r goes to replica r); results are
printed replica by replica, and --output-dir stacks them the same way (result_<i>.npy
has a leading axis of size N). A tuple result i is written as result_<i>_<j>.npy;
token results are printed only. Outfeed elements are printed after the results.

A program of N partitions (`mhlo.num_partitions = N`: `jax.jit` with shardings) runs
partitioned on N devices (threads, or MPI ranks with --launcher mpi), on global inputs,
printing the global results; --partitions 1 runs it whole.

Errors print one line `xla-run: error: ...` (program errors: the located diagnostics
`file:line:col: error: ...`) on stderr and exit 1; never a traceback. Set
XLA_OPT_TRACEBACK=1 to see the traceback of an internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
from xdsl.dialects.builtin import TensorType, TupleType

from xla_opt.api import BACKENDS, LAUNCHERS, ProgramError, compile
from xla_opt.diagnostics import one_line, silence_broken_pipe
from xla_opt.interpreter.dtypes import Token, is_ml_dtype, numpy_dtype, scalar_dtype
from xla_opt.interpreter.replicas import ReplicaError

PROG = "xla-run"


class UsageError(Exception):
    """A user error: printed as `xla-run: error: message`."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG,
        description="Run an xla program (MLIR text) on numpy inputs with the reference interpreter.",
    )
    p.add_argument(
        "file",
        metavar="FILE",
        help="the program (MLIR text, or HLO text and the formats of docs/formats.md); '-' reads stdin",
    )
    p.add_argument("--entry", default="main", help="the function to run (default: main)")
    p.add_argument(
        "--input",
        dest="inputs",
        metavar="NPY",
        action="extend",
        nargs="+",
        default=[],
        help="a .npy file per parameter, in order (repeat or list several)",
    )
    p.add_argument("--random-inputs", action="store_true", help="draw the inputs at random from the signature")
    p.add_argument("--seed", type=int, default=0, help="the seed of --random-inputs (default: 0)")
    p.add_argument("--output-dir", metavar="DIR", help="write result_<i>.npy files into DIR instead of printing")
    p.add_argument(
        "--backend", default="interpreter", help=f"the backend ({', '.join(BACKENDS)}; default: interpreter)"
    )
    p.add_argument("--replicas", type=int, default=1, metavar="N", help="run N replicas (default: 1)")
    p.add_argument(
        "--replica-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long a replica waits for the others in a collective or recv before the run fails "
        "(default: XLA_OPT_REPLICA_TIMEOUT, else 120)",
    )
    p.add_argument(
        "--partitions",
        type=int,
        default=None,
        metavar="N",
        help="a program of N partitions runs partitioned on N devices (the default); 1 runs it whole",
    )
    p.add_argument(
        "--launcher",
        default="threads",
        choices=LAUNCHERS,
        help="how the replicas run: threads of this process (default) or the ranks of an MPI job "
        "(mpirun -np N, started here unless already inside one)",
    )
    return p


# --------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------


def _read_program(name: str) -> tuple[str | bytes, str]:
    try:
        data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as e:
        raise UsageError(f"cannot open input file '{name}': {e.strerror}") from None
    from xla_opt.loading import is_binary_program

    if is_binary_program(data):  # MLIR bytecode, a serialized jax.export: load_program reads the bytes
        return data, "<stdin>" if name == "-" else name
    try:
        return data.decode("utf-8"), "<stdin>" if name == "-" else name
    except UnicodeDecodeError:
        raise UsageError(f"'{name}' is not valid UTF-8 text") from None


def _load_npy(path: str, param: Any) -> np.ndarray:
    try:
        with open(path, "rb") as f:
            magic = f.read(6)
        if magic != b"\x93NUMPY":
            raise UsageError(f"'{path}' is not a .npy file")
        array = np.load(path, allow_pickle=False)
    except OSError as e:
        raise UsageError(f"cannot read input '{path}': {e.strerror or one_line(e)}") from None
    except (ValueError, EOFError) as e:
        raise UsageError(f"'{path}' is not a valid .npy file: {one_line(e)}") from None
    # ml_dtypes' types (bfloat16, the 8-, 6- and 4-bit floats, int4...) are saved as
    # raw records of their byte size: view them as the parameter's type
    if isinstance(param, TensorType) and array.dtype.kind == "V" and not array.dtype.names:
        expected = numpy_dtype(param.get_element_type())
        if is_ml_dtype(expected) and array.dtype.itemsize == expected.itemsize:
            array = array.view(expected)
    return array


def _random_value(rng: np.random.Generator, t: Any, lead: tuple[int, ...]) -> Any:
    if isinstance(t, TupleType):
        if lead:
            values = [_random_value(rng, t, ()) for _ in range(lead[0])]
            return values
        return tuple(_random_value(rng, et, ()) for et in t.types.data)
    scalar = scalar_dtype(t)  # i32, f32...: drawn as a rank-0 tensor
    if not isinstance(t, TensorType) and scalar is None:
        return Token()
    dtype = scalar if scalar is not None else numpy_dtype(t.get_element_type())
    shape = lead + (tuple(t.get_shape()) if isinstance(t, TensorType) else ())
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dtype.kind in "iu":
        low = 0 if dtype.kind == "u" else -10
        return rng.integers(low, 11, shape).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _random_inputs(function: Any, seed: int, replicas: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    lead = (replicas,) if replicas > 1 else ()
    return [_random_value(rng, t, lead) for t in function.function_type.inputs.data]


# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------


def _describe(value: Any) -> str:
    if isinstance(value, np.generic):  # a scalar result (i32, f32...), shown as a 0-d array
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        return f"{value.dtype}{list(value.shape)}"
    if isinstance(value, tuple):
        return "tuple(" + ", ".join(_describe(v) for v in value) + ")"
    return "token"


def _print_value(label: str, value: Any, out: Any) -> None:
    if isinstance(value, np.generic):  # a scalar result
        value = np.asarray(value)
    if isinstance(value, tuple):
        print(f"{label}: {_describe(value)}", file=out)
        for j, v in enumerate(value):
            _print_value(f"{label}[{j}]", v, out)
    elif isinstance(value, np.ndarray):
        print(f"{label}: {_describe(value)}", file=out)
        print(np.array2string(value, separator=", "), file=out)
    else:
        print(f"{label}: token", file=out)


def _stack(values: list[Any]) -> Any:
    """Replicas' values of one result, stacked on a leading axis (tuples elementwise)."""
    values = [np.asarray(v) if isinstance(v, np.generic) else v for v in values]  # scalar results
    first = values[0]
    if isinstance(first, tuple):
        return tuple(_stack([v[j] for v in values]) for j in range(len(first)))
    if isinstance(first, np.ndarray):
        return np.stack(values)
    return first


def _save(directory: Path, name: str, value: Any, out: Any) -> None:
    if isinstance(value, np.generic):  # a scalar result
        value = np.asarray(value)
    if isinstance(value, tuple):
        for j, v in enumerate(value):
            _save(directory, f"{name}_{j}", v, out)
    elif isinstance(value, np.ndarray):
        path = directory / f"{name}.npy"
        # numpy writes some of ml_dtypes' types with a descriptor it cannot read back
        # ('<f1' for float8): raw records of their size, which --input views back
        stored = value.view(np.dtype(f"V{value.dtype.itemsize}")) if is_ml_dtype(value.dtype) else value
        try:
            np.save(path, stored, allow_pickle=False)
        except OSError as e:
            raise UsageError(f"cannot write '{path}': {e.strerror}") from None
        print(f"wrote {path}: {_describe(value)}", file=out)
    else:
        print(f"{name}: token (not written)", file=out)


def _run(args: argparse.Namespace) -> int:
    if args.replicas < 1:
        raise UsageError(f"--replicas must be at least 1, got {args.replicas}")
    if args.seed < 0:
        raise UsageError(f"--seed must be non-negative, got {args.seed}")
    if args.random_inputs and args.inputs:
        raise UsageError("--input and --random-inputs exclude each other")
    if args.backend not in BACKENDS:
        raise UsageError(f"unknown backend '{args.backend}'; expected one of {', '.join(BACKENDS)}")
    text, name = _read_program(args.file)
    f = compile(  # a program the JIT compiled before is not parsed or lowered again
        text,
        name=name,
        entry=args.entry,
        backend=args.backend,
        replicas=args.replicas,
        launcher=args.launcher,
        replica_timeout=args.replica_timeout,
        partitions=args.partitions,
    )
    params = f.function.function_type.inputs.data
    if args.random_inputs:
        inputs = _random_inputs(f.function, args.seed, args.replicas)
    else:
        if len(args.inputs) != len(params):
            raise UsageError(f"@{args.entry} takes {len(params)} inputs, got {len(args.inputs)} --input files")
        inputs = [_load_npy(path, t) for path, t in zip(args.inputs, params)]
    outfeed: list[Any] = []
    # host queues are the interpreter's; other backends run without them
    host_queues = args.backend == "interpreter" and args.launcher == "threads"
    results = f(*inputs, outfeed=outfeed if host_queues else None)
    if not host_queues:
        outfeed = [] if args.replicas == 1 else [[] for _ in range(args.replicas)]
    per_replica = [results] if args.replicas == 1 else results
    feeds = [outfeed] if args.replicas == 1 else outfeed

    out = sys.stdout
    if args.output_dir:
        directory = Path(args.output_dir)
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageError(f"cannot create output directory '{directory}': {e.strerror}") from None
        for i in range(len(per_replica[0])):
            values = [rs[i] for rs in per_replica]
            _save(directory, f"result_{i}", values[0] if args.replicas == 1 else _stack(values), out)
    else:
        for r, rs in enumerate(per_replica):
            prefix = f"replica {r} " if args.replicas > 1 else ""
            for i, value in enumerate(rs):
                _print_value(f"{prefix}result #{i}", value, out)
    for r, elements in enumerate(feeds):
        prefix = f"replica {r} " if args.replicas > 1 else ""
        for k, element in enumerate(elements):
            _print_value(f"{prefix}outfeed #{k}", element, out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The console script; returns the exit status (exits with it when argv is None)."""
    code = 1
    try:
        code = _run(_parser().parse_args(argv))
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
    except ProgramError as e:  # located diagnostics, one per line
        print(str(e), file=sys.stderr)
    except SystemExit as e:  # --help
        code = 0 if not e.code else 1
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:  # the reader of stdout went away (`| head`)
        code = silence_broken_pipe()
    except RecursionError:
        print(f"{PROG}: error: the program nests too deeply", file=sys.stderr)
    except (ValueError, ReplicaError) as e:  # bad inputs, unknown entry, a failed replica
        print(f"{PROG}: error: {_with_replica(e)}", file=sys.stderr)
    except Exception as e:  # noqa: BLE001 - never show a traceback to users
        if os.environ.get("XLA_OPT_TRACEBACK"):
            raise
        print(f"{PROG}: error: {type(e).__name__}: {_with_replica(e)}", file=sys.stderr)
    sys.stdout.flush()
    if argv is None:
        sys.exit(code)
    return code


def _with_replica(e: BaseException) -> str:
    replica = getattr(e, "replica", None)
    text = one_line(str(e)) or type(e).__name__
    return f"replica {replica}: {text}" if replica is not None else text


if __name__ == "__main__":
    main()
