"""Every library of functions that compiled code calls and the runtime provides, declared
once: its entry points (symbols) and how it is built (its LLVM IR for a target). The
lowering emits calls through these declarations, the runtime binds them:

* a pass that emits a call declares the function in the module by an entry's symbol, or
  by a name of its own (a name per call signature, `func.call` wants its declaration's
  types: `declare_alias(name, library, symbol)`);
* the runtime (xla_opt/runtime/binding.py) walks a lowered module's declarations and
  asks `resolve(name)` which library and entry each one is; it compiles the library
  once per process (`Library.build`) and binds the name to the entry's address.

No regular expression over IR text, no symbol parsed back into parameters: a library
with parameters (a radix sort's variant) is a `Library` value made by the lowering,
registered with the names it declared.

The libraries:
- the GEMM and convolution micro-kernels (`gemm.py`, `conv.py`), in five modules
  compiled on first use (an f32 matmul does not wait for the f64 code, nor for the
  convolutions);
- the radix sorts (`sort.py`), a module per variant;
- the FFTs (`fft.py`), a module per program: the variants and fast radices its FFTs take;
- the non-temporal stores (`stream.py`);
- the thread count, and libgomp's entry points or their one-thread stand-ins (`threads.py`);
- the MPI wrappers (`mpi.py`), built for the MPI library's ABI.
Host calls (custom calls, infeed, outfeed, send, recv) are callbacks into Python, not
compiled code: `convert_xla_to_linalg/host_calls.py` declares them the same way.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from xla_opt.lowering.kernels import conv, fft, gemm, mpi, sort, stream, threads


class Target(Protocol):
    """What a library's LLVM IR depends on besides its own code, as the runtime knows it:
    the host CPU's features (LLVM's `+avx2,+fma,...`) and L1 data cache's size (0 when
    unknown), whether libgomp runs parallel regions (else the kernels are built
    single-thread), and an MPI library's ABI."""

    cpu_features: str
    l1_data_bytes: int
    parallel: bool

    def mpi_abi(self) -> mpi.Abi: ...


@dataclass(frozen=True)
class Library:
    """A library compiled code calls: its name (the runtime keeps one compiled copy per
    name), the symbols it defines that calls may name, and its LLVM IR for a target."""

    name: str
    symbols: tuple[str, ...]
    build: Callable[[Target], str] = field(compare=False)
    key: Hashable = None  # what distinguishes libraries of one kind (a sort's variant)
    # LLVM's optimization level for it; None: by its size, as a program's (`opt_level`)
    opt_level: int | None = None
    vectorize: bool | None = None  # whether LLVM's vectorizers run; None: from O2 up


def _gemm_library(name: str, entries: list[gemm.Entry], opt_level: int | None = None) -> Library:
    def build(target: Target) -> str:
        features = target.cpu_features
        shapes = [
            gemm.shape_for(features, gemm.F32, l1_data_bytes=target.l1_data_bytes),
            gemm.shape_for(features, gemm.F32, wide=False),
            gemm.shape_for(features, gemm.F64),
            gemm.shape_for(features, gemm.I32),
        ]
        return gemm.library_ir(shapes, entries, target.parallel)

    return Library(name, tuple(entry.symbol for entry in entries), build, opt_level=opt_level)


# The micro-kernels in modules compiled on first use, by the element types a program
# computes in (an f32 program does not wait for the f64 code), the f32 ones by entry
# (a matmul does not wait for the convolutions: with an empty disk cache the three in
# one module took 0.68 s, sgemm alone takes 0.18 s). The f32 GEMM's two drivers (wide,
# and narrow for products of few columns) are one module: they share the packing and
# micro-kernel (1,500 of a driver's 2,000 lines), so both compile in 0.35 s where each
# alone took 0.25 s, and a program's text need not tell which it takes. The f32 modules
# are compiled at O1, the level their sum's size gave them: their loops are vector code
# as emitted, which O3 only makes slower to compile (sgemm 0.40 s, sconv 1.05 s).
GEMM_F32 = _gemm_library("gemm-f32", [gemm.SGEMM, gemm.SGEMM_NARROW], opt_level=1)
# the convolution kernel of each side (conv.py), a library each
CONV_F32_BY_SIDE = {
    side: _gemm_library(f"conv-f32-{('columns', 'rows')[side]}", [entry], opt_level=1)
    for side, entry in conv.SCONV_BY_SIDE.items()
}
GEMM_F64 = _gemm_library("gemm-f64", [gemm.DGEMM])
GEMM_HALF = _gemm_library("gemm-f16/bf16", [gemm.HGEMM, gemm.BGEMM])
GEMM_I32 = _gemm_library("gemm-i32", [gemm.IGEMM])
STREAM = Library("stream", stream.SYMBOLS, lambda target: stream.STREAM_IR)
THREADS = Library("threads", (threads.NUM_THREADS, threads.SET_NUM_THREADS), lambda target: threads.COUNTER_IR)
# libgomp's entry points: the system's libgomp, which the runtime loads; where it is
# missing, these one-thread stand-ins.
OPENMP = Library("openmp", threads.GOMP_SYMBOLS, lambda target: threads.SERIAL_GOMP_IR)
MPI = Library("mpi", mpi.SYMBOLS, lambda target: mpi.wrappers_ir(target.mpi_abi()))
FIXED = (GEMM_F32, *CONV_F32_BY_SIDE.values(), GEMM_F64, GEMM_HALF, GEMM_I32, STREAM, THREADS, OPENMP, MPI)


@functools.cache
def fft_library(variants: frozenset[fft.FftVariant], radices: tuple[int, ...]) -> Library:
    """The FFTs of a program: the entries of `variants`, with the fast steps of
    `radices` (`fft.fast_radices` of its lengths), in one module (they share their
    steps); every variant and radix took 1.0 s to compile with an empty disk cache, an
    FFT filter's two variants of radix 8 take 0.45 s. At O1 with the vectorizers (for
    the row passes' loops; the steps are vector code as emitted): it runs as fast as at
    O3 and compiles in three quarters of the time."""
    ordered = tuple(v for v in fft.VARIANTS if v in variants)
    name = "fft-" + "-".join(v.symbol.removeprefix(fft.PREFIX) for v in ordered) + "-r" + "".join(map(str, radices))
    return Library(
        name,
        tuple(v.symbol for v in ordered),
        lambda target: fft.library_ir(target.parallel, ordered, radices),
        (ordered, radices),
        opt_level=1,
        vectorize=True,
    )


def sort_library(variant: sort.SortVariant | sort.TopKVariant) -> Library:
    """The sort (or top-k) of one variant (sort.py), a library of one entry; a sort is
    the vector quicksort where the CPU allows it, else the radix sort."""
    return Library(
        f"sort-{variant.symbol}",
        (variant.symbol,),
        lambda target: sort.sort_ir(variant, target.parallel, target.cpu_features),
        variant,
    )


_lock = threading.Lock()
_NAMES: dict[str, tuple[Library, str]] = {symbol: (library, symbol) for library in FIXED for symbol in library.symbols}


# Told of each library as a lowering declares one of its entries: the runtime starts
# compiling the library then, while the rest of the program is lowered (binding.py's
# `prefetch`). The lowering does not import the runtime; it tells whoever listens.
_listeners: list[Callable[[Library], None]] = []


def on_declare(listener: Callable[[Library], None]) -> None:
    """Call `listener(library)` whenever a library's entry is declared from now on."""
    with _lock:
        if listener not in _listeners:
            _listeners.append(listener)


def _declared(library: Library) -> None:
    with _lock:
        listeners = tuple(_listeners)
    for listener in listeners:
        listener(library)


def declare_alias(name: str, library: Library, symbol: str) -> None:
    """Record that a module's declaration `name` calls `symbol` of `library` (a name of
    the lowering's own: one per call signature)."""
    assert symbol in library.symbols, (symbol, library.name)
    with _lock:
        _NAMES[name] = (library, symbol)
    _declared(library)


def resolve(name: str) -> tuple[Library, str] | None:
    """The library and entry a declared function `name` calls, or None (not ours: libc,
    libm, an LLVM intrinsic, a host call)."""
    with _lock:
        return _NAMES.get(name)


def declare(module: Any, symbol: str, params: Sequence[tuple[str, str]]) -> None:
    """Declare the entry `symbol` in `module` (once) as an external `llvm.func` taking
    `params`, the entry's own (LLVM type, name) list that its library is built from: a
    call and the kernel agree on the arguments by construction. Every entry returns void."""
    from xdsl.dialects import llvm
    from xdsl.dialects.builtin import i64
    from xdsl.traits import SymbolTable

    assert symbol in _NAMES, f"{symbol} is no library's entry"
    _declared(_NAMES[symbol][0])
    if SymbolTable.lookup_symbol(module, symbol) is not None:
        return
    types = [llvm.LLVMPointerType() if ty == "ptr" else i64 for ty, _ in params]
    signature = llvm.LLVMFunctionType(types, llvm.LLVMVoidType())
    module.body.block.add_op(llvm.FuncOp(symbol, signature, linkage=llvm.LinkageAttr("external")))


def describe(name: str) -> dict[str, Any] | None:
    """What a declared function `name` calls, as data (JSON): the library and entry
    `resolve` gives, with what rebuilds the library in another process (`redeclare`);
    None when the name is no library's."""
    if (found := resolve(name)) is None:
        return None
    library, symbol = found
    if library in FIXED:
        return {"library": library.name, "symbol": symbol}
    if library.name.startswith("fft-"):
        variants, radices = library.key
        return {"fft": [dataclasses.asdict(v) for v in variants], "radices": list(radices), "symbol": symbol}
    variant = library.key
    return {"sort": type(variant).__name__, "variant": dataclasses.asdict(variant), "symbol": symbol}


def redeclare(name: str, description: dict[str, Any]) -> None:
    """Record `name` as `describe` described it (in the process that lowered it)."""
    if "library" in description:
        library = next(library for library in FIXED if library.name == description["library"])
    elif "fft" in description:
        variants = frozenset(fft.FftVariant(**v) for v in description["fft"])
        library = fft_library(variants, tuple(description["radices"]))
    else:
        kind = {"SortVariant": sort.SortVariant, "TopKVariant": sort.TopKVariant}[description["sort"]]
        library = sort_library(kind(**description["variant"]))
    declare_alias(name, library, description["symbol"])


def declared_libraries() -> dict[str, Any]:
    """Every library a name is known for, by name (for tests and docs)."""
    with _lock:
        return {library.name: library for library, _ in _NAMES.values()}
