"""What compiled code calls that the runtime provides, bound before LLVM compiles it.

A lowered module declares every function it calls and does not define. `bind_names` binds
each of those `declarations` the lowering declared through lowering/kernels/libraries.py
or as a host call:

* an entry of a kernel library (the GEMM and convolution micro-kernels, a radix sort's
  variant, the non-temporal stores): the library is compiled once per process, for this
  host (`Library.build` with `HostTarget`), and the name bound to the entry's address;
* the thread count and libgomp's entry points: threads.py loads libgomp (or serial
  stand-ins) and the counter;
* an MPI wrapper: mpi.py loads libmpi, compiles the wrappers for its ABI and makes the
  communicators of the groupings the lowering numbered;
* a host call (`__xla_host_...`, `__xla_native_...`): host_calls.py binds a callback or
  a native custom-call wrapper.

Anything else a module declares (libc, libm, LLVM's intrinsics) is the process's.
"""

from __future__ import annotations

import os
import re
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import llvmlite.binding as llvm

from xla_opt.lowering.kernels import fft, gemm, libraries, sort
from xla_opt.lowering.kernels.libraries import Library
from xla_opt.lowering.kernels.mpi import Abi
from xla_opt.runtime import mpi, threads
from xla_opt.runtime.cpu import cpu_features, initialize_llvm, l1_data_cache_bytes
from xla_opt.runtime.llvm import NativeModule, SharedJobs, compile_library

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

# The prefixes of the functions a host call declares (host_call_name): only these names
# need the lowering's registry of call sites, and with it xDSL.
HOST_CALL_PREFIXES = ("__xla_host_", "__xla_native_")


@dataclass
class Bindings:
    """What binding a module found: the host calls and libraries it calls."""

    host_calls: set[str] = field(default_factory=set)
    libraries: set[str] = field(default_factory=set)

    @property
    def calls_host(self) -> bool:
        """Whether the code calls back into Python (it then runs on a worker thread)."""
        return bool(self.host_calls)

    def update(self, other: Bindings) -> None:
        self.host_calls |= other.host_calls
        self.libraries |= other.libraries


class HostTarget:
    """This host as the libraries' `Target`: the CPU's features and L1 data cache, whether
    libgomp runs parallel regions (loaded on first ask) and the ABI of the MPI library
    mpi4py loaded."""

    @property
    def cpu_features(self) -> str:
        initialize_llvm()
        return cpu_features()

    @property
    def l1_data_bytes(self) -> int:
        return l1_data_cache_bytes()

    @property
    def parallel(self) -> bool:
        return threads.load()

    def mpi_abi(self) -> Abi:
        return mpi.abi()


HOST = HostTarget()
_lock = threading.Lock()
# library name -> its compiled module (kept alive), or the compile under way
_compiled: dict[str, Future[NativeModule]] = {}
# library name -> its parts while they compile: a thread that waits for the library
# compiles the parts not started yet (llvm.compile_library)
_parts: dict[str, SharedJobs] = {}


def load_library(library: Library) -> NativeModule:
    """`library` compiled for this host, once per process (a compile another thread
    started is waited for)."""
    if library is libraries.MPI:
        return mpi.load(lambda: library.build(HOST))
    with _lock:
        compiled = _compiled.get(library.name)
        compiling = compiled is None
        if compiling:
            compiled = _compiled[library.name] = Future()
    if compiling:
        try:
            native = compile_library(
                library.build(HOST), library.opt_level, library.vectorize, lambda jobs: _started(library, jobs)
            )
            compiled.set_result(native)
        except BaseException as e:  # noqa: BLE001 - raised by result(), here and to whoever waits
            with _lock:
                del _compiled[library.name]  # the next load tries again
            compiled.set_exception(e)
        finally:
            with _lock:
                _parts.pop(library.name, None)
    else:
        with _lock:
            parts = _parts.get(library.name)
        if parts is not None:
            parts.help()  # the parts its compile has not started yet, compiled here
    return compiled.result()


def _started(library: Library, parts: SharedJobs) -> None:
    with _lock:
        _parts[library.name] = parts


# Libraries not compiled ahead: the thread count and libgomp's serial stand-ins are a few
# lines of IR, MPI's wrappers need the MPI library loaded where they are bound.
_NOT_PREFETCHED = (libraries.THREADS, libraries.OPENMP, libraries.MPI)


def prefetch(library: Library) -> None:
    """Start compiling `library` on a thread of its own unless it is compiled or
    compiling: the lowering declares a library as soon as it calls it (`on_declare`),
    and LLVM (which lets go of the GIL) compiles it while Python lowers the rest of the
    program. With an empty disk cache the f32 GEMM takes ~1.4 s and the FFTs ~1.6 s, a
    third of a first compile that waited for them at the end. Not a daemon thread: the
    interpreter waits for it at exit rather than leave LLVM running."""
    if library in _NOT_PREFETCHED:
        return
    with _lock:
        if library.name in _compiled:
            return
    threading.Thread(target=_load_quietly, args=(library,), name=f"xla-opt-{library.name}").start()


def _load_quietly(library: Library) -> None:
    try:
        load_library(library)
    except BaseException:  # noqa: BLE001, S110 - raised again where the library is bound
        pass


libraries.on_declare(prefetch)


# The kernel libraries a program's text shows it calls: (a pattern the text has, an
# element type it names, the libraries). A guess: the lowering decides (a dot may be
# small enough for loops). A convolution dilated in its input (JAX's transposed
# convolution, the input gradient of a strided one) is one convolution per phase
# (convert-xla-to-linalg's convolution forms), and a phase of one tap is a GEMM.
_CALLED_BY_TEXT = (
    (re.compile(r"dot_general|\.dot "), "f32", (libraries.GEMM_F32,)),
    (re.compile(r"lhs_dilat(?:e|ion) = \[[\d, ]*\b(?!1\b)\d+"), "f32", (libraries.GEMM_F32,)),
)


def prefetch_by_text(text: str) -> None:
    """Start compiling the kernel libraries `text` (a program's source) shows it calls,
    before it is even parsed (`_CALLED_BY_TEXT`, and the sorts of `sorts_in_text`):
    with an empty disk cache their compile (0.2-0.5 s) then runs on another CPU beside
    the import of the compiler, the parse and the lowering, not from where the lowering
    declares them. Only where the process has a CPU to spare: on one CPU a wrong guess
    would delay the compile."""
    if len(os.sched_getaffinity(0)) < 2:
        return
    for pattern, element, called in _CALLED_BY_TEXT:
        if element in text and pattern.search(text):
            for library in called:
                prefetch(library)
    for variant in sorts_in_text(text):
        prefetch(libraries.sort_library(variant))
    for library in conv_libraries_in_text(text):
        prefetch(library)
    if (library := fft_library_in_text(text)) is not None:
        prefetch(library)


# A convolution's layouts as text: StableHLO's `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`,
# or ours `kernel_output_feature_dimension = 3, ... output_feature_dimension = 3,
# output_spatial_dimensions = [1, 2]`.
_STABLEHLO_CONV = re.compile(r"convolution\([^)]*\)\s*dim_numbers\s*=\s*\[[^\]]*\]x\[([^\]]*)\]->\[([^\]]*)\]")
_XLA_CONV = re.compile(
    r"kernel_output_feature_dimension = (\d+), kernel_spatial_dimensions = \[[\d, ]*\], "
    r"output_batch_dimension = \d+, output_feature_dimension = (\d+), output_spatial_dimensions = \[([\d, ]*)\]"
)


def conv_libraries_in_text(text: str) -> list[Library]:
    """The f32 convolution kernels a program's text shows it calls, by side: rows
    (side 1) for a convolution whose output and kernel both have their output features
    innermost (a forward NHWC convolution, its weight gradient), columns (side 0) for
    the others (NCHW; an NHWC input gradient, whose kernel JAX lays out [0, 1, o, i]),
    as linalg-conv-to-kernel was seen to decide. A guess, as the others."""
    if "f32" not in text:
        return []
    sides = set()
    for kernel, output in _STABLEHLO_CONV.findall(text):
        innermost = [spec.replace(" ", "").split(",")[-1] for spec in (kernel, output)]
        sides.add(int(innermost == ["o", "f"]))
    for kernel_feature, feature, spatial in _XLA_CONV.findall(text):
        last = 1 + len([d for d in spatial.split(",") if d.strip()])
        sides.add(int(int(kernel_feature) == last and int(feature) == last))
    return [libraries.CONV_F32_BY_SIDE[side] for side in sorted(sides)]


# An FFT as text, StableHLO's or ours: its type, lengths, operand and result types.
_TENSOR = r"tensor<((?:\d+x)*)(complex<\w+>|\w+)>"
_FFT = re.compile(
    r"\.fft\s+%[\w#]+,\s*(?:fft_)?type\s*=\s*(\w+),\s*(?:fft_)?length\s*=\s*\[([\d,\s]*)\]\s*:\s*"
    rf"\({_TENSOR}\)\s*->\s*{_TENSOR}"
)


def fft_library_in_text(text: str) -> Library | None:
    """The FFT kernel library a program's text shows it calls: the one convert-xla-to-
    linalg makes of its FFTs (`fft.kernel_calls` of each), read off the text. A guess:
    a pass before may change an FFT's shapes (a partition of a sharded program)."""
    calls = []
    for fft_type, lengths, dims, element, result_dims, result_element in _FFT.findall(text):
        shape = [int(d) for d in dims.split("x") if d]
        result_shape = [int(d) for d in result_dims.split("x") if d]
        found = fft.kernel_calls(
            fft_type,
            shape,
            result_shape,
            [int(v) for v in lengths.replace(" ", "").split(",") if v],
            fft.ELEMENT_NAMES.get(element),
            fft.ELEMENT_NAMES.get(result_element),
        )
        calls += found or []
    return libraries.fft_library(*fft.library_need(calls)) if calls else None


# What JAX writes for a sort and a top-k, as text: a stablehlo.sort's operands,
# dimension, comparator and types; chlo.top_k's k and operand type.
_SORT = re.compile(
    r'"stablehlo\.sort"\(([^)]*)\)\s*<\{dimension = (\d+)[^}]*\}>\s*\(\{(.*?)\}\)\s*:\s*\(([^)]*)\)', re.DOTALL
)
_TOP_K = re.compile(r"chlo\.top_k\((%[\w#]+)[^)]*k = (\d+)\)\s*:\s*tensor<([^>]*)>")
_COMPARE = re.compile(r"stablehlo\.compare\s+(\w+),\s*(%[\w#]+),\s*(%[\w#]+)(?:,\s*(\w+))?")
_ELEMENTS = {"f16": ("f", 16), "bf16": ("bf", 16), "f32": ("f", 32), "f64": ("f", 64)}


def _element(spelling: str) -> tuple[str, int, str] | None:
    """(kind, width, the order of JAX's comparator) of a tensor's element type."""
    if spelling in _ELEMENTS:
        return (*_ELEMENTS[spelling], "float")
    if (integer := re.fullmatch(r"(u?)i(8|16|32|64)", spelling)) is not None:
        return "i", int(integer[2]), "unsigned" if integer[1] else "signed"
    return None


def sorts_in_text(text: str) -> list[sort.SortVariant | sort.TopKVariant]:
    """The sort and top-k kernels a program's text shows it calls, as JAX writes them:
    a stablehlo.sort of one key whose comparator is JAX's (one LT or GT compare; a
    float's zeros and NaNs canonicalized first), with positions when it has payloads;
    a chlo.top_k small enough for the selection kernel (of the k smallest when its
    operand is a float negation). A guess, as convert-xla-to-linalg
    decides (`SortToRadixKernel`): a sort whose payloads nothing reads takes no
    positions there, and a comparator of another form, or several keys, is not
    guessed."""
    found: list[sort.SortVariant | sort.TopKVariant] = []
    for operands, dimension, comparator, types in _SORT.findall(text):
        compares = _COMPARE.findall(comparator)
        ordering = [c for c in compares if c[0] in ("LT", "GT")]
        shapes = re.findall(r"tensor<((?:\d+x)*)(\w+)>", types)
        if len(ordering) != 1 or not shapes or (element := _element(shapes[0][1])) is None:
            continue
        dims = [int(d) for d in shapes[0][0].split("x") if d]
        n = dims[int(dimension)] if int(dimension) < len(dims) else 0
        kind, width, ctype = element
        if ctype == "float" and not any(c[0] == "NE" and c[1] == c[2] for c in compares):
            # not JAX's canonicalizing comparator: a bare total order, else no guess
            ctype = "totalorder" if ordering[0][3] == "TOTALORDER" else ""
        if n < sort.RADIX_MIN_LENGTH or not ctype:
            continue
        digits = sort.radix_digit_bits(n, width)
        found.append(sort.SortVariant(kind, width, ctype, ordering[0][0] == "GT", digits, operands.count("%") > 1))
    for operand, k, spelled in _TOP_K.findall(text):
        *dims, name = spelled.split("x")
        element = _element(name)
        if element is None or not dims or not all(d.isdigit() for d in dims):
            continue
        n = int(dims[-1])
        if sort.takes_top_k_kernel(int(k), n):
            kind, width, ctype = element
            # the k smallest, top_k(-x): x's k smallest ascending (xla-fold-sort-negation)
            negated = ctype == "float" and re.search(rf"^\s*{re.escape(operand)} = stablehlo\.negate ", text, re.MULTILINE)
            found.append(sort.TopKVariant(kind, width, "totalorder" if ctype == "float" else ctype, not negated))
    return list(dict.fromkeys(found))


def declarations(module: ModuleOp) -> list[str]:
    """The functions a lowered (llvm dialect) module declares without defining them."""
    from xdsl.dialects import llvm as llvm_dialect

    return [
        op.sym_name.data for op in module.body.block.ops if isinstance(op, llvm_dialect.FuncOp) and not op.body.blocks
    ]


def bind_names(names: list[str]) -> Bindings:
    """Make every function of `names` (a lowered module's `declarations`) that the
    runtime provides resolvable by the JIT (see the module doc); what was bound."""
    bindings = Bindings()
    uses_mpi = False
    for name in names:
        if name.startswith(HOST_CALL_PREFIXES):
            from xla_opt.lowering.conversions.convert_xla_to_linalg.host_calls import declared_host_call
            from xla_opt.runtime import host_calls

            if (host := declared_host_call(name)) is not None:
                host_calls.bind_host_call(name, *host)
                bindings.host_calls.add(name)
                continue
        if (found := libraries.resolve(name)) is None:
            continue
        library, symbol = found
        bindings.libraries.add(library.name)
        if library in (libraries.THREADS, libraries.OPENMP):
            threads.load()  # registers the count and libgomp's (or serial) entry points
            continue
        llvm.add_symbol(name, load_library(library).address(symbol))
        uses_mpi |= library is libraries.MPI
    if uses_mpi:
        mpi.bind_communicators()
    return bindings


def kernel_shape(element: gemm.Element | None = None, wide: bool = True) -> gemm.KernelShape:
    """The micro-kernel shape for the host CPU's features and an element type (`gemm.F32`
    by default, `gemm.F64` or `gemm.I32`); without `wide`, of vectors of at most 256 bits."""
    return gemm.shape_for(HOST.cpu_features, element or gemm.F32, wide, HOST.l1_data_bytes)
