"""A compiled entry function, called on numpy arrays: the JIT backend.

Calling convention (lowering/conversions/xla_bufferize.py): the entry function takes
one pointer per input, then one pointer per result, and writes the results. A scalar
parameter or result (`i32`, `f32`...) is a rank-0 buffer: it takes a numpy scalar (or a
0-d array, or a Python number) and gives a numpy scalar. Before any
native call, inputs are checked against the program's signature (count, dtype, shape)
and made C-contiguous; outputs are freshly allocated numpy arrays (or a dropped large
result's buffer, reused). A program that calls the host runs on a worker thread
(host_calls.py).
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from xla_opt.runtime.allocator import keep_freed_memory
from xla_opt.runtime.program import CompiledProgram, StageTimes, compile_program

if TYPE_CHECKING:
    from xdsl.dialects.builtin import FunctionType, ModuleOp


def _address(array: np.ndarray) -> int:
    """The address of a contiguous array's data: through the buffer protocol (0.6 us)
    where the array exports a writable, non-empty buffer; else numpy's ctypes view (2 us:
    three of them were a quarter of a small call). Read-only arrays, empty ones and
    ml_dtypes' types (no buffer format) take the second way."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(array))
    except (TypeError, ValueError, BufferError):
        return array.ctypes.data


REUSE_MIN_BYTES = 1 << 16  # results at least this large may reuse a dropped one's buffer

# Result buffers of at least ALIGN_MIN_BYTES start on a cache line (numpy's allocator
# gives 16 bytes): a 32-byte vector access at 16 mod 32 straddles two lines every other
# time, which halves the speed of a loop over data in L1 (a while loop updating a 4 KiB
# result 1000 times in place: 82 us at 16 mod 32, 38 us aligned). Aligning costs ~1.8 us
# per result, so small ones keep numpy's allocation.
ALIGNMENT = 64
ALIGN_MIN_BYTES = 1 << 12


def _unreferenced(result: np.ndarray) -> bool:
    """Whether only `_output_buffers` holds a previous result: the `spare` list, its `old`
    and the argument make 3 references. An aligned result is a view of a padded
    allocation, which the caller's views of it have as their `base` instead of the
    result (numpy collapses view chains): that allocation must be the result's alone
    (its `base` attribute, `base` here and the argument)."""
    if sys.getrefcount(result) != 4:  # the three, and this function's parameter
        return False
    base = result.base
    return base is None or sys.getrefcount(base) == 3


def aligned_empty(shape: tuple[int, ...], dtype: np.dtype, count: int) -> np.ndarray:
    """An uninitialized C-contiguous array of `count` elements whose data starts at a
    multiple of ALIGNMENT bytes (a view into a slightly larger allocation)."""
    pad = -(-ALIGNMENT // dtype.itemsize)
    raw = np.empty(count + pad, dtype)
    start = -_address(raw) % ALIGNMENT // dtype.itemsize
    return raw[start : start + count].reshape(shape)


def memory_limit() -> int:
    """The bytes a process may allocate here: the machine's memory, or less under an
    address-space limit (`ulimit -v`)."""
    import resource

    limit = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return min(limit, soft) if soft != resource.RLIM_INFINITY else limit


def check_buffers_fit(module: ModuleOp, limit: int | None = None) -> None:
    """A value larger than memory (say a 78 GiB splat constant the interpreter keeps as
    a broadcast view) is a located error before compiling: compiled code would have to
    materialize it, and a failed allocation there cannot be reported."""
    from xdsl.dialects.builtin import TensorType

    from xla_opt.diagnostics import DiagnosticError, op_diagnostic
    from xla_opt.dialects.xla.element_types import bit_width

    limit = memory_limit() if limit is None else limit
    for op in module.walk():
        for result in op.results:
            t = result.type
            if not isinstance(t, TensorType) or not t.get_shape():
                continue
            size = int(np.prod(t.get_shape(), dtype=object)) * max(1, bit_width(t.get_element_type()) // 8)
            if size > limit:
                message = (
                    f"its result {t} takes {size / 2**30:.1f} GiB, more than the "
                    f"{limit / 2**30:.1f} GiB this process may allocate"
                )
                raise DiagnosticError([op_diagnostic(op, message)])


Spec = tuple[tuple[int, ...], np.dtype]  # a result's shape and numpy dtype
InputSpec = tuple[np.dtype, tuple[int, ...]] | None  # signatures.input_specs' entries


class JitFunction:
    """A compiled entry function callable on numpy arrays."""

    def __init__(
        self,
        xla_module: ModuleOp,
        entry: str,
        times: StageTimes | None = None,
        replica_id: int | None = None,
        host_collectives: bool = False,
    ):
        """Compile @`entry` of `xla_module`. A module of N > 1 replicas is compiled for
        one replica, `replica_id` (an MPI rank's own: its collectives become MPI calls),
        or with `host_collectives` for replicas that are threads of this process (its
        collectives become host calls; one program for every replica)."""
        from xdsl.dialects.builtin import TensorType

        from xla_opt.diagnostics import DiagnosticError
        from xla_opt.interpreter.dtypes import numpy_dtype, scalar_dtype
        from xla_opt.lowering.conversions.xla_bufferize import is_scalar
        from xla_opt.signatures import find_function, input_specs

        self.entry = entry
        fn = find_function(xla_module, entry)
        self.signature = fn.function_type
        for t in (*self.signature.inputs.data, *self.signature.outputs.data):
            if not isinstance(t, TensorType) and not is_scalar(t):
                raise ValueError(f"the jit backend passes tensors and scalars across @{entry}'s boundary; got {t}")
        out_specs = [
            (tuple(t.get_shape()), numpy_dtype(t.get_element_type()))  # type: ignore[attr-defined]
            if isinstance(t, TensorType) else ((), scalar_dtype(t))
            for t in self.signature.outputs.data
        ]  # fmt: skip
        # the results returned as numpy scalars (scalar results: rank-0 buffers)
        scalar_results = [i for i, t in enumerate(self.signature.outputs.data) if is_scalar(t)]
        self.times = times or StageTimes()
        keep_freed_memory()  # a call's temporary buffers stay mapped for the next (allocator.py)
        try:
            check_buffers_fit(xla_module)
            linalg: dict[str, Any] = {}
            if replica_id is not None:
                linalg["replica_id"] = replica_id
            if host_collectives:
                linalg["host_collectives"] = True
            options: dict[str, dict[str, Any]] = {"xla-inline-calls": {"entry": entry}}
            if linalg:
                options["convert-xla-to-linalg"] = linalg
            program = compile_program(xla_module, self.times, options)
        except DiagnosticError as e:
            raise NotImplementedError(f"the jit backend cannot compile @{entry}:\n{e}") from None
        self._load(program, out_specs, scalar_results, input_specs(self.signature))

    @classmethod
    def from_lowered(
        cls,
        entry: str,
        program: CompiledProgram,
        out_specs: list[Spec],
        scalar_results: list[int],
        in_specs: list[InputSpec],
        signature: Callable[[], FunctionType],
    ) -> JitFunction:
        """@`entry` of a program lowered before (executable_cache.py), its code compiled
        from `program`'s LLVM IR; `signature` gives the entry's type when a call's
        inputs are not exactly `in_specs` (a Python number, a list) and must be checked
        against it (which parses the program: a hit in the cache needs no xDSL)."""
        self = cls.__new__(cls)
        self.entry = entry
        self._signature = signature
        self.times = StageTimes()
        keep_freed_memory()
        self._load(program, out_specs, scalar_results, in_specs)
        return self

    def __getattr__(self, name: str) -> Any:
        if name == "signature" and "_signature" in self.__dict__:  # from_lowered's: read on demand
            self.signature = self._signature()
            return self.signature
        raise AttributeError(f"'JitFunction' object has no attribute {name!r}")

    def _load(
        self, program: CompiledProgram, out_specs: list[Spec], scalar_results: list[int], in_specs: list[InputSpec]
    ) -> None:
        """Take `program`'s code and what calls need to know of the entry's signature."""
        self.program = program
        self.out_specs = out_specs
        self._scalar_results = scalar_results
        self.input_specs = in_specs
        # per result: its shape, dtype and, when it is to be aligned, its element count
        self._out_allocations = [
            (shape, dtype, count if count * dtype.itemsize >= ALIGN_MIN_BYTES else 0)
            for shape, dtype in out_specs
            for count in [int(np.prod(shape, dtype=np.int64))]
        ]
        self.native, self.llvm_ir = program.native, program.llvm_ir
        self.calls_host = program.bindings.calls_host
        self._spare: list[np.ndarray | None] = []  # the last results, for _output_buffers
        self._spare_lock = threading.Lock()
        n_args = len(in_specs) + len(out_specs)
        self._cfunc = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * n_args))(self.native.address(self.entry))

    def checked_inputs(self, arrays: Sequence[Any]) -> list[Any]:
        """`arrays` checked against the signature (`check_inputs_against`); arrays that
        are exactly the parameters' dtypes and shapes pass as they are, without it."""
        specs = self.input_specs
        if len(arrays) == len(specs) and all(
            type(a) is np.ndarray and spec is not None and (a.dtype, a.shape) == spec for a, spec in zip(arrays, specs)
        ):
            return list(arrays)
        from xla_opt.signatures import check_inputs_against

        return check_inputs_against(self.signature, arrays, self.entry)

    def __call__(self, *arrays: Any) -> list[np.ndarray]:
        return self.call_checked(self.checked_inputs(arrays))

    def call_checked(self, inputs: list[np.ndarray], context: Any = None, replica: int = 0) -> list[np.ndarray]:
        """Run on inputs already checked against the signature. `context` (a
        ReplicaContext) holds the host queues, channels and collectives' rendezvous the
        program's host calls use, `replica` which of its replicas this call is; a fresh
        one-replica context by default."""
        inputs = [np.ascontiguousarray(a) for a in inputs]
        outputs = self._output_buffers()
        pointers = [*map(_address, inputs), *map(_address, outputs)]
        if self.calls_host:
            from xla_opt.runtime.host_calls import run_with_host

            run_with_host(self._cfunc, pointers, context, replica)
        else:
            self._cfunc(*pointers)
        with self._spare_lock:
            self._spare = [o if o.nbytes >= REUSE_MIN_BYTES else None for o in outputs]
        for i in self._scalar_results:
            outputs[i] = outputs[i][()]
        return outputs

    def _output_buffers(self) -> list[np.ndarray]:
        """Fresh result arrays, except that a large result of the previous call that
        nothing references any more (its refcount is ours alone: no variable, view or
        container of the caller's holds it) is handed out again. A fresh large numpy
        array is new mmapped memory whose every page faults on first write (a 16 MiB
        result: ~1 ms of a 4 ms call), which XLA avoids by reusing its buffers too."""
        with self._spare_lock:
            spare, self._spare = self._spare, []
        outputs = []
        for i, (shape, dtype, count) in enumerate(self._out_allocations):
            old = spare[i] if i < len(spare) else None
            if old is not None and _unreferenced(old):
                outputs.append(old)
            else:
                outputs.append(aligned_empty(shape, dtype, count) if count else np.empty(shape, dtype))
            old = None
        return outputs
