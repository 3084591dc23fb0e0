"""The Python API: `run` and `compile` an xla program on numpy arrays.

    import xla_opt
    results = xla_opt.run(program, a, b)                     # -> list[np.ndarray]
    f = xla_opt.compile(program, entry="main")               # -> callable
    results = f(a, b)

`program` is MLIR text, a path to a `.mlir` file, or a parsed `ModuleOp`. Inputs are
checked against the entry function's signature before anything runs: a wrong count,
dtype or shape is a `ValueError` naming the argument.

Replicas (collectives, replica_id): `replicas=N` runs N replicas of the entry function
and returns one result list per replica. Each input is either one value for every
replica or, stacked on a new leading axis of size N, one value per replica:

    per_replica = xla_opt.run(program, np.array([[1.0, 2.5], [3.0, 5.25]], np.float32), replicas=2)
    per_replica[1]                                           # replica 1's results

Host queues: `infeed=` gives the elements infeed ops read (each a tuple of arrays, or
one array), and a list passed as `outfeed=` receives the elements outfeed ops write
(each a tuple of arrays); with replicas=N both hold one such list per replica. Both
backends use the same queues (the jit backend calls back into Python for them, and
for its collectives when its replicas are threads). With launcher="mpi" replica r is
rank r of an MPI job, on either backend (xla_opt/mpi_launch.py), without host queues.

Partitions: a program of N partitions (`mhlo.num_partitions = N`, as `jax.jit` with
shardings exports it) runs partitioned (`xla-spmd-partition`) on N devices, as threads
or MPI ranks, on either backend; it takes and returns global arrays
(xla_opt/partitions.py). `partitions=1` runs it whole. Inside an MPI job of N ranks
(the site's `mpirun`), `f(*shards, local=True)` with launcher="mpi" runs this rank's
device on its own shards and returns its result shards, so no rank ever holds a global
value; `f.partitions.arguments[i].slices(rank)` says which part of input i a rank holds.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from xla_opt import lazy_attributes

if TYPE_CHECKING:  # imported where used: a compile the disk's executable cache has needs no xDSL
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.dialects.func import FuncOp

    from xla_opt.runtime.executable_cache import Lowered

# What this module exports from others, imported on first use (as xla_opt/__init__.py does).
_REEXPORTED = {
    "ProgramError": "xla_opt.diagnostics",
    "load_program": "xla_opt.loading",
    "import_stablehlo": "xla_opt.loading",
    "is_stablehlo_text": "xla_opt.loading",
    "check_inputs": "xla_opt.signatures",
    "check_inputs_against": "xla_opt.signatures",
    "find_function": "xla_opt.signatures",
}


__getattr__ = lazy_attributes(__name__, _REEXPORTED)


__all__ = ["BACKENDS", "CompiledFunction", "compile", "optimize", "run", *_REEXPORTED]  # noqa: PLE0604

BACKENDS = ("interpreter", "jit")
LAUNCHERS = ("threads", "mpi")  # how replicas=N runs: threads of this process, or MPI ranks


def check_callees_defined(entry: FuncOp, name: str = "<program>") -> None:
    """Both backends run only functions the program defines: a call (func.call or
    xla.call) reachable from `entry` of a declaration, an external function, is a
    ProgramError at the call."""
    from xdsl.dialects.func import CallOp, FuncOp
    from xdsl.traits import SymbolTable

    from xla_opt.diagnostics import ProgramError, op_diagnostic
    from xla_opt.dialects import xla

    diagnostics = []
    seen, pending = {entry}, [entry]
    while pending:
        for op in pending.pop().walk():
            if not isinstance(op, CallOp | xla.CallOp):
                continue
            callee = SymbolTable.lookup_symbol(op, op.callee)
            if not isinstance(callee, FuncOp) or callee in seen:
                continue
            if callee.is_declaration:
                message = f"calls {op.callee}, which has no body (external functions cannot run)"
                diagnostics.append(op_diagnostic(op, message, name))
            seen.add(callee)
            pending.append(callee)
    if diagnostics:
        raise ProgramError("\n".join(map(str, diagnostics)))


class CompiledFunction:
    """A program's entry function, ready to call on numpy arrays (on `replicas`
    replicas: then a call returns one result list per replica)."""

    def __init__(
        self,
        module: ModuleOp,
        entry: str | None,
        backend: str,
        replicas: int = 1,
        launcher: str = "threads",
        replica_timeout: float | None = None,
        partitions: int | None = None,
    ):
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend '{backend}'; expected one of {', '.join(BACKENDS)}")
        if launcher not in LAUNCHERS:
            raise ValueError(f"unknown launcher '{launcher}'; expected one of {', '.join(LAUNCHERS)}")
        self.launcher = launcher
        self._rank_program: Any = None
        self.replica_timeout = replica_timeout_seconds(replica_timeout)
        if isinstance(replicas, bool) or not isinstance(replicas, int) or replicas < 1:
            raise ValueError(f"the number of replicas must be a positive integer, got {replicas!r}")
        from xla_opt.signatures import find_function

        self.module = module
        self.backend = backend
        self.replicas = replicas
        self.function = find_function(module, default_entry(module, entry))
        self.entry = self.function.sym_name.data
        self._bf16_parameters = bf16_parameters(self.function)  # raw records may stand for them
        check_callees_defined(self.function)
        # A program of N partitions runs its per-device program on N devices (partitions.py),
        # as threads or as MPI ranks; partitions=1 runs the global program whole instead,
        # the reference.
        from xla_opt.passes.transforms.xla_spmd_partition import num_partitions

        declared = num_partitions(module)
        if partitions is not None and partitions not in (1, declared):
            raise ValueError(
                f"the program has {declared} partitions: partitions= is {declared} or 1 (whole), got {partitions}"
            )
        self.partitions = None
        if declared > 1 and partitions != 1 and replicas == 1:
            from xla_opt.partitions import partitioned  # the partitioner: only for such programs

            self.partitions = partitioned(module, self.entry)
        if self.partitions is not None:
            if backend == "jit" and launcher == "threads":
                from xla_opt.runtime.executable import JitFunction

                self.jit = JitFunction(self.partitions.module, self.entry, host_collectives=True)
            return
        if launcher == "mpi":
            return  # every rank compiles or interprets the program itself (mpi_launch.py)
        self._run: Callable[[list[Any]], tuple[Any, ...]] = (
            self._jit_runner() if backend == "jit" else self._interpreter_runner()
        )

    @classmethod
    def from_lowered(
        cls, program: Any, lowered: Lowered, replica_timeout: float | None = None, name: str | None = None
    ) -> CompiledFunction:
        """`program`'s entry on the jit backend, as the executable cache kept it: its
        code loaded, `module` and `function` parsed from `program` when first asked for
        (a call on arrays of the parameters' dtypes and shapes does not)."""
        self = cls.__new__(cls)
        self.launcher, self.backend, self.replicas, self.partitions = "threads", "jit", 1, None
        self._rank_program = None
        self.replica_timeout = replica_timeout_seconds(replica_timeout)
        self.entry = lowered.entry
        # The JIT function reads the signature from the same parse, but holds no reference to
        # this object: a cycle through it would leave LLVM's modules and contexts to the
        # garbage collector, which may free a context before its module (a crash).
        self._source = source = _ProgramSource(program, lowered.entry, name)
        self.jit = lowered.jit(source.signature)
        self._bf16_parameters = bf16_specs(self.jit.input_specs)
        self._run = self.jit.call_checked
        return self

    def __getattr__(self, name: str) -> Any:
        if name in ("module", "function") and "_source" in self.__dict__:  # from_lowered's
            source = self.__dict__["_source"]
            self.module, self.function = source.module(), source.function()
            return self.__dict__[name]
        raise AttributeError(f"'CompiledFunction' object has no attribute {name!r}")

    def _jit_runner(self) -> Callable[[list[Any]], tuple[Any, ...]]:
        """The compiled entry; for N > 1 replicas, one program whose collectives are host
        calls, run by N threads (`_run_replicas`)."""
        from xdsl.dialects.builtin import IntegerAttr, i32

        from xla_opt.runtime.executable import JitFunction

        if self.replicas == 1:
            self.jit = JitFunction(self.module, self.entry)
        else:
            module = self.module.clone()
            module.attributes["xla.num_replicas"] = IntegerAttr(self.replicas, i32)
            self.jit = JitFunction(module, self.entry, host_collectives=True)
        return self.jit.call_checked

    def _interpreter_runner(self) -> Callable[[list[Any]], tuple[Any, ...]]:
        from xla_opt.interpreter import interpret

        return lambda inputs: interpret(self.module, self.entry, inputs)

    def _run_replicas(self, inputs: list[list[Any]], context: Any) -> list[tuple[Any, ...]]:
        """Several replicas, or host queues: one thread per replica sharing `context`
        (the interpreter's, or one compiled program whose host calls use it)."""
        if self.backend == "jit":
            from xla_opt.interpreter.replicas import run_on_replicas

            return run_on_replicas(context, lambda r: tuple(self.jit.call_checked(inputs[r], context, r)))
        from xla_opt.interpreter import interpret_replicas

        return interpret_replicas(self.module, self.entry, inputs, context)

    def __call__(
        self,
        *arrays: Any,
        infeed: Sequence[Any] | None = None,
        outfeed: list[Any] | None = None,
        local: bool = False,
    ) -> list[Any]:
        """The entry function's results (a list), or with replicas=N a list of N such
        lists, replica by replica. See the module docstring for `infeed`/`outfeed`, and
        for `local` (this MPI rank's shards in, its result shards out)."""
        if local:
            return self._run_local(arrays)
        n = self.replicas
        if any(self._bf16_parameters):
            arrays = tuple(raw_bf16_as_bf16(self._bf16_parameters, arrays))
        if n == 1 and self.__dict__.get("jit") is not None and self.partitions is None:
            inputs = [self.jit.checked_inputs(arrays)]  # exact arrays need no signature (executable_cache.py)
        else:
            inputs = check_replica_inputs(self.function, arrays, n)
        if self.partitions is not None:
            return self._run_partitions(inputs[0], infeed, outfeed)
        if self.launcher == "mpi":
            return self._run_mpi(inputs, infeed, outfeed)
        if n == 1 and infeed is None and outfeed is None:
            return list(self._run(inputs[0]))
        from xla_opt.interpreter.replicas import ReplicaContext

        if infeed is None:
            feeds = {}
        elif n == 1:
            feeds = {0: list(infeed)}
        else:
            if len(infeed) != n:
                raise ValueError(f"infeed: expected one list of elements per replica ({n}), got {len(infeed)}")
            feeds = {r: list(elements) for r, elements in enumerate(infeed)}
        context = ReplicaContext(n, infeed=feeds, timeout=self.replica_timeout)
        results = self._run_replicas(inputs, context)
        if outfeed is not None:
            if n == 1:
                outfeed.extend(context.outfeed[0])
            else:
                outfeed.extend(context.outfeed[r] for r in range(n))
        if n == 1:
            return list(results[0])
        return [list(r) for r in results]

    def _run_partitions(self, inputs: list[Any], infeed: Any, outfeed: Any) -> list[Any]:
        """Each device's shards through the per-device program, on N replicas (threads of
        the interpreter, or MPI ranks); the global results put back together."""
        program = self.partitions
        assert program is not None
        host_queues = any(op.name in ("xla.infeed", "xla.outfeed") for op in program.module.walk())
        if infeed or (outfeed is not None and host_queues):
            raise ValueError("a partitioned program runs without host queues (infeed/outfeed)")
        shards = program.split(inputs)
        if self.launcher == "mpi":
            from xla_opt.mpi_launch import run_replicas_mpi

            per_device = run_replicas_mpi(program.text, self.entry, self.backend, shards, self.replica_timeout)
        else:
            from xla_opt.interpreter import interpret_replicas
            from xla_opt.interpreter.replicas import ReplicaContext, run_on_replicas

            context = ReplicaContext(program.devices, timeout=self.replica_timeout)
            if self.backend == "jit":
                per_device = run_on_replicas(context, lambda r: tuple(self.jit.call_checked(shards[r], context, r)))
            else:
                per_device = interpret_replicas(program.module, self.entry, shards, context)
        return program.assemble(per_device)

    def _run_local(self, shards: Sequence[Any]) -> list[Any]:
        """This MPI rank's device of a partitioned program, on its own shards: the
        per-device entry's results, with no global value on any rank (the ranks are the
        job's, started by the site's `mpirun`)."""
        from xla_opt.mpi_launch import RankProgram, in_mpi_job

        program = self.partitions
        if program is None or self.launcher != "mpi" or not in_mpi_job():
            raise ValueError(
                "local=True runs one MPI rank's shards of a partitioned program: it needs a program of "
                "several partitions, launcher='mpi', and this process started by mpirun as one of its ranks"
            )
        from xla_opt.signatures import check_inputs

        inputs = check_inputs(program.function, shards)
        if self._rank_program is None:  # prepared on the first call (compiled, on the jit backend)
            self._rank_program = RankProgram(
                program.text, self.entry, self.backend, program.devices, self.replica_timeout
            )
        return list(self._rank_program(inputs))

    def _run_mpi(self, inputs: list[list[Any]], infeed: Any, outfeed: Any) -> list[Any]:
        """Replica r as rank r of an MPI job (xla_opt/mpi_launch.py)."""
        from xla_opt.mpi_launch import run_replicas_mpi

        if infeed is not None or outfeed is not None:
            raise ValueError("the MPI launcher runs without host queues (infeed/outfeed)")
        results = run_replicas_mpi(str(self.module), self.entry, self.backend, inputs, self.replica_timeout)
        return list(results[0]) if self.replicas == 1 else [list(r) for r in results]


class _ProgramSource:
    """A program the executable cache compiled, parsed when first needed."""

    def __init__(self, program: Any, entry: str, name: str | None = None):
        self.program, self.entry, self.name = program, entry, name
        self._module: ModuleOp | None = None

    def module(self) -> ModuleOp:
        if self._module is None:
            from xla_opt.loading import load_program

            self._module = load_program(self.program, self.name)
        return self._module

    def function(self) -> FuncOp:
        from xla_opt.signatures import find_function

        return find_function(self.module(), self.entry)

    def signature(self) -> Any:
        return self.function().function_type


def default_entry(module: ModuleOp, entry: str | None) -> str:
    """The entry function's name: `entry`, else @main, else the module's only public
    function (`Builder("f")` builds @f, and its callees as private functions)."""
    from xdsl.dialects.func import FuncOp

    if entry is not None:
        return entry
    functions = [op for op in module.body.ops if isinstance(op, FuncOp)]
    if any(f.sym_name.data == "main" for f in functions):
        return "main"
    public = [f.sym_name.data for f in functions if f.sym_visibility is None or f.sym_visibility.data != "private"]
    return public[0] if len(public) == 1 else "main"


def raw_bf16_as_bf16(bf16: list[bool], arrays: Sequence[Any]) -> list[Any]:
    """numpy has no bf16: an ml_dtypes bfloat16 array saved with np.save loads back as
    raw 2-byte records (dtype V2). Passed for a bf16 parameter (`bf16`, by
    `bf16_parameters`), such an array is read as bf16, as `xla-run --input` reads it."""
    import ml_dtypes

    def as_bf16(a: Any) -> Any:
        raw = isinstance(a, np.ndarray) and a.dtype.kind == "V" and a.dtype.itemsize == 2 and not a.dtype.fields
        return a.view(ml_dtypes.bfloat16) if raw else a

    if not any(bf16):  # the common case
        return list(arrays)
    return [as_bf16(a) if is_bf16 else a for a, is_bf16 in zip(arrays, bf16)] + list(arrays[len(bf16) :])


def bf16_parameters(function: FuncOp) -> list[bool]:
    """Which of the function's parameters are bf16 tensors."""
    from xla_opt.signatures import input_specs

    return bf16_specs(input_specs(function.function_type))


def bf16_specs(specs: Sequence[tuple[np.dtype, tuple[int, ...]] | None]) -> list[bool]:
    """Which of the parameters of these `input_specs` are bf16 tensors."""
    import ml_dtypes

    return [spec is not None and spec[0] == ml_dtypes.bfloat16 for spec in specs]


def optimize(program: str | os.PathLike | ModuleOp, pipeline: str, name: str | None = None) -> ModuleOp:
    """Run a pass pipeline (`xla-opt -p`'s syntax: `canonicalize,cse`, `xla-to-llvm`,
    `pass{option=value}`, or MLIR's `builtin.module(func.func(cse))`) on a program
    (text, a path or a module, which is left unchanged) and return the resulting
    module. Errors are `ProgramError`s with the diagnostics `xla-opt` prints: an
    unknown pass, a bad option, a verifier failure after a pass, each
    `file:line:col: error: ...`."""
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.utils.exceptions import DiagnosticException

    from xla_opt.context import make_context, multiverse
    from xla_opt.diagnostics import DiagnosticError, ProgramError, one_line
    from xla_opt.loading import load_program
    from xla_opt.pass_manager import PassManager, PipelineError, parse_pipeline_text, pipeline_diagnostic

    name = name or (str(program) if isinstance(program, os.PathLike) else "<program>")
    module = load_program(program.clone() if isinstance(program, ModuleOp) else program, name)
    try:
        try:
            passes = parse_pipeline_text(pipeline, multiverse().all_passes)
        except PipelineError as e:
            raise DiagnosticError([pipeline_diagnostic(pipeline, e)]) from None
        PassManager(make_context(), file=name).run(passes, module)
    except DiagnosticError as e:
        # as xla-opt prints them: an error of no line (the pipeline's) names only its file
        lines = (str(d) if d.line else f"{d.file}: {d.severity}: {d.message}" for d in e.diagnostics)
        raise ProgramError("\n".join(lines)) from None
    except DiagnosticException as e:
        raise ProgramError(f"{name}: error: {one_line(e)}") from None
    return module


def replica_timeout_seconds(value: float | None) -> float:
    """Seconds a replica waits for the others in a collective or recv before its run
    fails (a deadlock among threads is found at once; MPI ranks cannot see each other's
    state, so there the wait is what ends one): `value`, else XLA_OPT_REPLICA_TIMEOUT,
    else 120."""
    from xla_opt.interpreter.timeout import DEFAULT_TIMEOUT

    if value is None:
        text = os.environ.get("XLA_OPT_REPLICA_TIMEOUT", "").strip()
        try:
            value = float(text) if text else DEFAULT_TIMEOUT
        except ValueError:
            raise ValueError(f"XLA_OPT_REPLICA_TIMEOUT must be a number of seconds, got {text!r}") from None
    if not value > 0:
        raise ValueError(f"the replica timeout must be a positive number of seconds, got {value!r}")
    return float(value)


def check_replica_inputs(func: FuncOp, arrays: Sequence[Any], replicas: int) -> list[list[Any]]:
    """Validate inputs for `replicas` replicas: each input is one value for all of them
    or (a leading axis of size `replicas`, or a list for tuple types) one per replica.
    Returns each replica's argument list."""
    from xla_opt.signatures import check_inputs

    if replicas == 1:
        return [check_inputs(func, arrays)]
    from xdsl.dialects.builtin import TensorType

    from xla_opt.interpreter.dtypes import check_value, scalar_dtype

    inputs = func.function_type.inputs.data
    name = func.sym_name.data
    if len(arrays) != len(inputs):
        raise ValueError(f"@{name} takes {len(inputs)} inputs, got {len(arrays)}")
    per_replica: list[list[Any]] = [[] for _ in range(replicas)]
    for i, (a, t) in enumerate(zip(arrays, inputs)):
        what = f"input #{i} of @{name}"
        try:
            values = [check_value(a, t, what)] * replicas
        except ValueError as whole:
            if isinstance(t, TensorType) or scalar_dtype(t) is not None:  # a scalar: a 0-d array
                shape = tuple(t.get_shape()) if isinstance(t, TensorType) else ()
                arr = a if isinstance(a, np.ndarray) else np.asarray(a)
                if arr.shape == (replicas, *shape):
                    values = [check_value(arr[r].copy(), t, f"{what} for replica {r}") for r in range(replicas)]
                elif arr.shape != shape:
                    raise ValueError(
                        f"{what}: expected shape {list(shape)} (for every replica) or "
                        f"{[replicas, *shape]} (one per replica), got {list(arr.shape)}"
                    ) from None
                else:
                    raise whole from None
            elif isinstance(a, list) and len(a) == replicas:
                values = [check_value(v, t, f"{what} for replica {r}") for r, v in enumerate(a)]
            else:
                raise whole from None
        for r in range(replicas):
            per_replica[r].append(values[r])
    return per_replica


def compile(  # noqa: A001 - mirrors jax.jit / torch.compile naming
    program: str | os.PathLike | ModuleOp,
    entry: str | None = None,
    backend: str = "interpreter",
    replicas: int = 1,
    launcher: str = "threads",
    replica_timeout: float | None = None,
    partitions: int | None = None,
    name: str | None = None,
) -> CompiledFunction:
    """The entry function of `program` (by default @main, or the only function),
    callable on numpy arrays; with replicas=N a call
    runs N replicas and returns a list of N result lists: as threads of this process
    (launcher="threads") or as the ranks of an MPI job (launcher="mpi"). A program of
    N partitions (`mhlo.num_partitions`) runs partitioned on N devices, taking and
    returning global arrays; partitions=1 runs it whole. On the jit backend, a program
    compiled before, in this process or another, is not lowered again
    (xla_opt/runtime/executable_cache.py). `name` is the program's in diagnostics (a
    path's own by default)."""
    key = None
    if backend == "jit" and replicas == 1 and launcher == "threads" and partitions is None:
        from xla_opt.runtime import executable_cache

        data = executable_cache.program_bytes(program)  # read once: the key, then the prefetch
        key = executable_cache.key_of(data, entry) if data is not None else None
        if key is not None and (lowered := executable_cache.load(key)) is not None:
            return CompiledFunction.from_lowered(program, lowered, replica_timeout, name)
        if data is not None:
            from xla_opt.runtime.binding import prefetch_by_text

            prefetch_by_text(data.decode(errors="replace"))
    from xla_opt.loading import load_program

    compiled = CompiledFunction(
        load_program(program, name), entry, backend, replicas, launcher, replica_timeout, partitions
    )
    if key is not None and compiled.partitions is None and (lowered := executable_cache.Lowered.of(compiled.jit)):
        executable_cache.store(key, lowered)
    return compiled


def run(
    program: str | os.PathLike | ModuleOp,
    *arrays: Any,
    entry: str | None = None,
    backend: str = "interpreter",
    replicas: int = 1,
    infeed: Sequence[Any] | None = None,
    outfeed: list[Any] | None = None,
    launcher: str = "threads",
    replica_timeout: float | None = None,
    partitions: int | None = None,
    local: bool = False,
) -> list[Any]:
    """Run the entry function of `program` (by default @main, or the only public
    function) on `arrays`.

    Returns the list of its results; with replicas=N (> 1), a list of N result lists,
    `results[r][i]` being result i of replica r. `infeed`/`outfeed`: see the module
    docstring."""
    return compile(
        program,
        entry=entry,
        backend=backend,
        replicas=replicas,
        launcher=launcher,
        replica_timeout=replica_timeout,
        partitions=partitions,
    )(*arrays, infeed=infeed, outfeed=outfeed, local=local)
