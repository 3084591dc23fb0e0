"""`xla_opt_sgemm`: a packed, register-tiled f32 GEMM, emitted as LLVM IR text, and
its f64 twin `xla_opt_dgemm` and narrow-operand variants from the same generator.

    void xla_opt_sgemm(i64 batch, i64 M, i64 N, i64 K,
                       float* A, i64 lda_batch, i64 lda_row, i64 lda_col,
                       float* B, i64 ldb_batch, i64 ldb_row, i64 ldb_col,
                       float* C, i64 ldc_batch, i64 ldc, i64 flags, float* bias)

`xla_opt_dgemm` takes double* A, B and C; `xla_opt_hgemm` (f16) and `xla_opt_bgemm`
(bf16, as its 16 bits) take narrow A and B and a float* C: the packing widens each
element to f32 (exactly), and the product accumulates in f32 (as the unfused lowering
does; rounding C to the narrow type is the caller's).

computes C += A @ B for each of `batch` products: A[i, k] of product b is
A[b * lda_batch + i * lda_row + k * lda_col], B[k, j] is B[b * ldb_batch + k * ldb_row +
j * ldb_col] (so any layout of an operand, transposed or not, is strides: the packing
absorbs it), C[i, j] is C[b * ldc_batch + i * ldc + j]. With the flag OVERWRITE it
computes C = A @ B instead (C is never read); BIAS then adds bias[j] and RELU applies
max(., 0) to each element's final sum, in the micro-kernel's C update (the epilogue
of `relu(x @ W + b)`; `bias` is read only under BIAS).

BLIS's blocking (Goto & van de Geijn): for each NC-column block of B, for each
KC-deep slice, B[pc:pc+KC, jc:jc+NC] is packed into NR-column panels (each panel
KC x NR, row after row); for each MC-row block of A, A[ic:ic+MC, pc:pc+KC] is packed
into MR-row panels (KC x MR, column after column). Both are zero-padded at the edges,
so the MR x NR micro-kernel always runs full: it keeps MR x NR/VW vector accumulators
in registers and, per k, loads NR packed B values, broadcasts MR packed A values and
does MR x NR/VW fused multiply-adds. A full tile is added to C directly; an edge tile
goes through an MR x NR temporary of which only the valid part is added. Full panels
of the common layouts pack as vector copies or in-register transposes (`_pack`).

On several threads (libgomp), a product taller than MC shares each packed B block and
splits its rows (BLIS's ic loop: no panel packed twice, a barrier per depth slice);
a shorter one splits its columns (`blocked_loops`).

The shape follows the host and the element type (`Element`): AVX2 + FMA (16 ymm
registers) takes a 6 x 16 tile of `<8 x float>` or a 6 x 8 tile of `<4 x double>` (12
accumulators, 2 B vectors, 1 broadcast); otherwise a 4 x 8 tile of `<4 x float>` or a
4 x 4 tile of `<2 x double>` with `llvm.fmuladd` (fused only where the CPU has FMA).

The blocking loop, the micro-kernel and the threading serve every entry of the library
(`Entry`: this GEMM, the convolution of `conv.py`): an entry says how its operands are
packed (`Strided` here, the convolution's im2col windows there) and which parameter
counts the columns; `library_ir` puts the entries in one module.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from xla_opt.lowering.kernels.threads import NUM_THREADS  # the one thread count of compiled code

SYMBOL = "xla_opt_sgemm"
PARALLEL_MIN_WORK = 1 << 21  # multiply-adds (~100 us single-thread) before going parallel
ALIGNMENT = 64
PACK_ROWS = 8  # source rows per pass of the unit-stride-across packing (`_pack`)


@dataclass(frozen=True)
class Element:
    """An element type as the kernels see it: its LLVM IR type (bf16 is its 16 bits,
    `i16`, as everywhere in the lowered code), its size in bytes, its intrinsic suffix,
    its BLAS letter (the symbols' `s` of sgemm) and whether it is an integer (products
    and sums wrap around, as XLA's integer dot: exact in any order)."""

    llvm: str
    size: int
    suffix: str
    letter: str
    integer: bool = False

    @property
    def add(self) -> str:
        return "add" if self.integer else "fadd"

    @property
    def zero(self) -> str:
        return "0" if self.integer else "0.0"


F32 = Element("float", 4, "f32", "s")
F64 = Element("double", 8, "f64", "d")
F16 = Element("half", 2, "f16", "h")
BF16 = Element("i16", 2, "bf16", "b")
I32 = Element("i32", 4, "i32", "i", integer=True)


@dataclass(frozen=True)
class KernelShape:
    """The register tile (MR x NR, vectors of VW elements) and the cache blocking."""

    mr: int
    nr: int
    vw: int
    kc: int
    mc: int
    nc: int
    fma: str  # the multiply-add intrinsic's base name
    element: Element = F32  # what is packed, multiplied and accumulated

    @property
    def nc_l2(self) -> int:
        """Columns of a packed B block that fill half of a 512 KB L2 at depth KC."""
        return (1 << 18) // self.element.size // self.kc // self.nr * self.nr

    @property
    def vector(self) -> str:
        return f"<{self.vw} x {self.element.llvm}>"

    @property
    def micro_kernel(self) -> str:
        return f"xla_opt_{self.element.letter}gemm_micro_kernel_{self.mr}x{self.nr}"

    @property
    def indirect_micro_kernel(self) -> str:
        """The micro-kernel reading A's rows through pointers (`_micro_kernel`)."""
        return f"{self.micro_kernel}_indirect"

    @property
    def wide(self) -> bool:
        """Whether its vectors are wider than 256 bits (AVX-512)."""
        return self.vw * self.element.size > 32

    @property
    def fma_intrinsic(self) -> str:
        return f"{self.fma}.v{self.vw}{self.element.suffix}"

    def multiply_add(self, e: Emitter, a: str, b: str, acc: str) -> str:
        """a * b + acc on vectors: the FMA intrinsic, or for integers a multiply and an add."""
        vec = self.vector
        if self.element.integer:
            return e.value(f"add {vec} {e.value(f'mul {vec} {a}, {b}')}, {acc}")
        return e.value(f"call {vec} @{self.fma_intrinsic}({vec} {a}, {vec} {b}, {vec} {acc})")

    def __post_init__(self) -> None:
        assert self.nr % self.vw == 0 and self.mc % self.mr == 0 and self.nc % self.nr == 0


# Zen 3: MC x KC floats of A (240 KB) stay in L2; a KC x NR panel of B (32 KB) fills L1
# (the A panels streaming through evict some of it, which L2 serves fast enough). KC =
# 512 rather than BLIS's 256 or the 384 that would leave B in L1: fewer depth slices, so
# fewer passes over C and micro-kernel calls (2 threads, measured in one process: 512^3
# 1.456 -> 1.422 ms, 1024^3 11.07 -> 10.98, 2048^3 88.7 -> 87.9).
AVX2_FMA = KernelShape(mr=6, nr=16, vw=8, kc=512, mc=120, nc=4080, fma="llvm.fma")
# AVX-512 (Zen 4: 1 MB L2, 512-bit FMAs at the same rate as two 256-bit ones): an 8 x 32
# tile of <16 x float> accumulators, 16 of the 32 zmm registers, half the instructions of
# the 6 x 16 tile per multiply-add, and 8 rows divide the usual sizes (512 = 85.3 tiles of
# 6). MC x KC of A 480 KB (half the L2). On the 2-core Zen 4, 2 threads: 512^3 206 -> 216
# GFLOP/s, 1024^3 217 -> 220-222, 2048^3 211 -> 223; one thread 512^3 109 -> 112.
AVX512_FMA = KernelShape(mr=8, nr=32, vw=16, kc=512, mc=240, nc=4064, fma="llvm.fma")
# The same tile where L1 holds 48 KB (Intel since Ice Lake; the Zen 4's holds 32): at KC =
# 256 a KC x NR panel of B (32 KB) stays in L1 beside A's streaming panels, and MC = 480
# keeps A's block at 480 KB (2 MB L2). On the 2-core Xeon, against KC = 512, MC = 240:
# one thread 1024^3 12.6-12.8 -> 11.1-12.0 ms, 2048^3 106.6-108.5 -> 92.5-96.4 ms (NumPy
# 101); two threads 2048^3 50.2-51.9 -> 46.4-48.3 ms (NumPy 52.0).
AVX512_FMA_L1_48K = dataclasses.replace(AVX512_FMA, kc=256, mc=480)
SSE = KernelShape(mr=4, nr=8, vw=4, kc=256, mc=128, nc=4096, fma="llvm.fmuladd")
# The same caches in doubles: KC x NR of B 16 KB (L1), MC x KC of A 192 KB (L2).
AVX2_FMA_F64 = KernelShape(mr=6, nr=8, vw=4, kc=256, mc=96, nc=4080, fma="llvm.fma", element=F64)
SSE_F64 = KernelShape(mr=4, nr=4, vw=2, kc=256, mc=128, nc=4096, fma="llvm.fmuladd", element=F64)
# i32 as f32 (same size, same tile; `vpmulld` + `vpaddd` instead of an FMA).
AVX2_I32 = KernelShape(mr=6, nr=16, vw=8, kc=512, mc=120, nc=4080, fma="", element=I32)
SSE_I32 = KernelShape(mr=4, nr=8, vw=4, kc=256, mc=128, nc=4096, fma="", element=I32)


def shape_for(features: str, element: Element = F32, wide: bool = True, l1_data_bytes: int = 0) -> KernelShape:
    """The kernel shape for a CPU feature string (LLVM's `+avx2,+fma,...`) and the
    element type the micro-kernel computes in (F32, F64 or I32); without `wide`, the
    best one of vectors of at most 256 bits. `l1_data_bytes`: the L1 data cache's
    size, where known (the AVX-512 tile's blocking follows it)."""
    flags = set(features.split(","))
    if wide and element is F32 and {"+avx512f", "+fma"} <= flags:
        return AVX512_FMA_L1_48K if l1_data_bytes >= 48 << 10 else AVX512_FMA
    avx2 = {"+avx2", "+fma"} <= flags
    shapes = {F32: (AVX2_FMA, SSE), F64: (AVX2_FMA_F64, SSE_F64), I32: (AVX2_I32, SSE_I32)}
    return shapes[element][0 if avx2 else 1]


class Emitter:
    """LLVM IR text, one function at a time: fresh value names, the current block's
    label (for phis), counted loops."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.allocas: list[str] = []  # in the entry block, where mem2reg promotes them
        self.counter = 0
        self.block = "entry"
        self.helpers: dict[str, str] = {}  # functions the emitted code calls, by name

    def fresh(self, hint: str = "t") -> str:
        self.counter += 1
        return f"%{hint}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append(f"  {line}")

    def value(self, expr: str, hint: str = "t") -> str:
        name = self.fresh(hint)
        self.emit(f"{name} = {expr}")
        return name

    def label(self, name: str) -> None:
        self.lines.append(f"{name}:")
        self.block = name

    def new_label(self, hint: str) -> str:
        self.counter += 1
        return f"{hint}{self.counter}"

    def add(self, a: str, b: str | int) -> str:
        return self.value(f"add i64 {a}, {b}")

    def mul(self, a: str, b: str | int) -> str:
        return self.value(f"mul i64 {a}, {b}")

    def min(self, a: str | int, b: str | int) -> str:
        less = self.value(f"icmp slt i64 {a}, {b}")
        return self.value(f"select i1 {less}, i64 {a}, i64 {b}")

    def has(self, flags: str, bits: int) -> str:
        """Whether any of `bits` is set in the i64 `flags` (an i1)."""
        return self.value(f"icmp ne i64 {self.value(f'and i64 {flags}, {bits}')}, 0")

    def gep(self, base: str, offset: str | int, ty: str = "float") -> str:
        return self.value(f"getelementptr inbounds {ty}, ptr {base}, i64 {offset}", "p")

    def variable(self, ty: str, initial: str | int) -> str:
        """An entry-block alloca (a loop-carried value without phis), set to `initial` here."""
        slot = self.fresh("var")
        self.allocas.append(f"  {slot} = alloca {ty}, align 8")
        self.emit(f"store {ty} {initial}, ptr {slot}, align 8")
        return slot

    def function(self, signature: str) -> str:
        """`define <signature>` with the emitted body, ending with `ret void`."""
        self.emit("ret void")
        return "\n".join([f"define {signature} {{", "entry:", *self.allocas, *self.lines, "}"])

    @contextmanager
    def when(self, condition: str, hint: str = "if") -> Iterator[None]:
        """if (condition) { the `with` block }."""
        then, done = self.new_label(f"{hint}.then"), self.new_label(f"{hint}.end")
        self.emit(f"br i1 {condition}, label %{then}, label %{done}")
        self.label(then)
        yield
        self.emit(f"br label %{done}")
        self.label(done)

    @contextmanager
    def loop(
        self, start: str | int, end: str | int, step: str | int = 1, hint: str = "i", metadata: str = ""
    ) -> Iterator[str]:
        """for (iv = start; iv < end; iv += step): the body is the `with` block;
        `metadata` (`!llvm.loop !N`) is attached to its back edge."""
        head, body, exit_ = (
            self.new_label(f"{hint}.head"),
            self.new_label(f"{hint}.body"),
            self.new_label(f"{hint}.exit"),
        )
        iv, following = self.fresh(hint), self.fresh(f"{hint}.next")
        pre = self.block
        self.emit(f"br label %{head}")
        self.label(head)
        latch_at = len(self.lines)
        self.emit("")  # the phi, once the latch block is known
        more = self.value(f"icmp slt i64 {iv}, {end}")
        self.emit(f"br i1 {more}, label %{body}, label %{exit_}")
        self.label(body)
        yield iv
        self.emit(f"{following} = add i64 {iv}, {step}")
        self.emit(f"br label %{head}" + (f", {metadata}" if metadata else ""))
        self.lines[latch_at] = f"  {iv} = phi i64 [{start}, %{pre}], [{following}, %{self.block}]"
        self.label(exit_)


def _micro_kernel(s: KernelShape, indirect: bool = False) -> str:
    """C[0:m, 0:n] += Ap (kc x MR panel) @ Bp (kc rows of NR, %ldb apart: NR in a packed
    panel, B's own row stride where B is read in place); m <= MR, n <= NR; with
    `%flags` (OVERWRITE, BIAS, RELU), C = instead of +=, then bias[j] (at %bias) added
    and max(., 0) applied to the result.

    `indirect` (`s.indirect_micro_kernel`): A's rows are read where they lie, not from a
    packed panel: %ap holds kc / %run groups of MR pointers, and row i's elements
    [g * run, (g + 1) * run) are the `run` consecutive values at pointer g * MR + i
    (XNNPACK's indirect GEMM: a convolution's windows, each pointing at its input run or
    at zeros, `conv.Windows.point`)."""
    e = Emitter()
    vec, ty, size = s.vector, s.element.llvm, s.element.size
    nv = s.nr // s.vw
    tile = s.mr * s.nr
    accs = [[e.fresh("acc") for _ in range(nv)] for _ in range(s.mr)]
    for row in accs:
        for acc in row:
            e.emit(f"{acc} = alloca {vec}, align 32")
            e.emit(f"store {vec} zeroinitializer, ptr {acc}, align 32")
    scratch = e.value(f"alloca [{tile} x {ty}], align 64")
    # The C tile's rows (each NR elements, on at most two cache lines) are fetched while
    # the k loop runs: a cold C tile otherwise stalls the update after it.
    for i in range(s.mr):
        c_row = e.gep("%c", e.mul("%ldc", i), ty)
        for at in sorted({0, s.nr - 1}):
            e.emit(f"call void @llvm.prefetch.p0(ptr {e.gep(c_row, at, ty)}, i32 1, i32 3, i32 1)")

    def step(k: str, a_at: Callable[[int], str]) -> None:
        """The rank-1 update of depth k, row i's element of A at `a_at(i)`."""
        b_row = e.gep("%bp", e.mul(k, "%ldb"), ty)
        bs = [e.value(f"load {vec}, ptr {e.gep(b_row, v * s.vw, ty)}, align {size}", "b") for v in range(nv)]
        for i in range(s.mr):
            a = e.value(f"load {ty}, ptr {a_at(i)}, align {size}", "a")
            one = e.value(f"insertelement {vec} poison, {ty} {a}, i64 0")
            splat = e.value(
                f"shufflevector {vec} {one}, {vec} poison, <{s.vw} x i32> zeroinitializer",
                "a",
            )
            for v in range(nv):
                old = e.value(f"load {vec}, ptr {accs[i][v]}, align 32")
                new = s.multiply_add(e, splat, bs[v], old)
                e.emit(f"store {vec} {new}, ptr {accs[i][v]}, align 32")

    if indirect:
        groups = e.value("sdiv i64 %kc, %run")
        with e.loop(0, groups, hint="g") as g:
            table = e.value(f"getelementptr inbounds ptr, ptr %ap, i64 {e.mul(g, s.mr)}", "p")
            rows = [
                e.value(f"load ptr, ptr {e.value(f'getelementptr inbounds ptr, ptr {table}, i64 {i}', 'p')}, align 8")
                for i in range(s.mr)
            ]
            first = e.mul(g, "%run")
            with e.loop(0, "%run", hint="k") as k:
                step(e.add(first, k), lambda i: e.gep(rows[i], k, ty))
    else:
        with e.loop(0, "%kc", hint="k") as k:
            a_col = e.gep("%ap", e.mul(k, s.mr), ty)
            step(k, lambda i: e.gep(a_col, i, ty))
    full_m = e.value(f"icmp eq i64 %m, {s.mr}")
    full_n = e.value(f"icmp eq i64 %n, {s.nr}")
    full = e.value(f"and i1 {full_m}, {full_n}")
    overwrite, has_bias, relu = (e.has("%flags", bit) for bit in (OVERWRITE, BIAS, RELU))

    def epilogue(value: str, bias_at: str, ty: str, lanes: int) -> str:
        """`value` plus the bias where BIAS is set, then max(., 0) where RELU is (as
        XLA's maximum: NaN stays NaN, -0 becomes +0): the bias is read from `bias_at`,
        a valid address either way (the caller points it at C without a bias). Integer
        products have no epilogue (`linalg-matmul-to-kernel` fuses float ones only)."""
        if s.element.integer:
            return value
        zero = "zeroinitializer" if lanes > 1 else "0.0"
        bias = e.value(f"load {ty}, ptr {bias_at}, align {size}")
        biased = e.value(f"select i1 {has_bias}, {ty} {e.value(f'fadd {ty} {value}, {bias}')}, {ty} {value}")
        positive = e.value(f"fcmp ogt {ty} {biased}, {zero}")
        nan = e.value(f"fcmp uno {ty} {biased}, {biased}")
        mask = f"<{lanes} x i1>" if lanes > 1 else "i1"
        keep = e.value(f"or {mask} {positive}, {nan}")
        kept = e.value(f"select {mask} {keep}, {ty} {biased}, {ty} {zero}")
        return e.value(f"select i1 {relu}, {ty} {kept}, {ty} {biased}")

    e.emit(f"br i1 {full}, label %full, label %edge")
    e.label("full")  # C tile = (C tile, unless OVERWRITE) + accumulators, then the epilogue
    rows = [e.gep("%c", e.mul("%ldc", i), ty) for i in range(s.mr)]
    sums = [[e.value(f"load {vec}, ptr {accs[i][v]}, align 32") for v in range(nv)] for i in range(s.mr)]
    e.emit(f"br i1 {overwrite}, label %stored, label %accumulate")
    e.label("accumulate")
    added = [
        [
            e.value(
                f"{s.element.add} {vec} {e.value(f'load {vec}, ptr {e.gep(rows[i], v * s.vw, ty)}, align {size}')}, {sums[i][v]}"
            )
            for v in range(nv)
        ]
        for i in range(s.mr)
    ]
    e.emit("br label %stored")
    e.label("stored")
    values = [
        [e.value(f"phi {vec} [{sums[i][v]}, %full], [{added[i][v]}, %accumulate]") for v in range(nv)]
        for i in range(s.mr)
    ]
    for i in range(s.mr):
        for v in range(nv):
            result = epilogue(values[i][v], e.gep("%bias", v * s.vw, ty), vec, s.vw)
            e.emit(f"store {vec} {result}, ptr {e.gep(rows[i], v * s.vw, ty)}, align {size}")
    e.emit("ret void")
    e.label("edge")  # the tile through `scratch`, then its valid m x n part into C
    for i in range(s.mr):
        for v in range(nv):
            acc = e.value(f"load {vec}, ptr {accs[i][v]}, align 32")
            e.emit(f"store {vec} {acc}, ptr {e.gep(scratch, i * s.nr + v * s.vw, ty)}, align {size}")
    with e.loop(0, "%m", hint="r") as r:
        c_row = e.gep("%c", e.mul(r, "%ldc"), ty)
        s_row = e.gep(scratch, e.mul(r, s.nr), ty)
        with e.loop(0, "%n", hint="j") as j:
            at = e.gep(c_row, j, ty)
            old = e.value(f"load {ty}, ptr {at}, align {size}")  # unused (maybe garbage) under OVERWRITE
            part = e.value(f"load {ty}, ptr {e.gep(s_row, j, ty)}, align {size}")
            total = e.value(
                f"select i1 {overwrite}, {ty} {part}, {ty} {e.value(f'{s.element.add} {ty} {old}, {part}')}"
            )
            e.emit(f"store {ty} {epilogue(total, e.gep('%bias', j, ty), ty, 1)}, ptr {at}, align {size}")
    name, run = (s.indirect_micro_kernel, "i64 %run, ") if indirect else (s.micro_kernel, "")
    return e.function(
        f"internal void @{name}(i64 %kc, ptr noalias %ap, {run}ptr noalias %bp, i64 %ldb, ptr noalias %c, "
        "i64 %ldc, i64 %m, i64 %n, i64 %flags, ptr %bias) noinline nounwind"
    )


def _load_widened(e: Emitter, at: str, read: Element, packed: Element, lanes: int = 0) -> str:
    """The `read` element at `at` (or, `lanes` > 0, the vector of that many consecutive
    ones) as `packed`: itself, or f16/bf16 widened to f32 (exact; bf16's 16 bits are
    the high half of the f32's)."""

    def ty(element: Element) -> str:
        return f"<{lanes} x {element.llvm}>" if lanes else element.llvm

    loaded = e.value(f"load {ty(read)}, ptr {at}, align {read.size}")
    if read == packed:
        return loaded
    assert packed == F32 and read in (F16, BF16), (read, packed)
    if read == F16:
        return e.value(f"fpext {ty(F16)} {loaded} to {ty(F32)}")
    i32 = f"<{lanes} x i32>" if lanes else "i32"
    sixteen = f"<{', '.join(['i32 16'] * lanes)}>" if lanes else "16"
    high = e.value(f"shl {i32} {e.value(f'zext {ty(BF16)} {loaded} to {i32}')}, {sixteen}")
    return e.value(f"bitcast {i32} {high} to {ty(F32)}")


def _concat(e: Emitter, vectors: list[str], lanes: int, ty: str) -> tuple[str, int]:
    """One vector of the `vectors` (each `lanes` of `ty`) end to end, by halving pairs
    (an odd one out padded with poison): (the vector, its lane count, a power of two
    times `lanes`)."""
    while len(vectors) > 1:
        if len(vectors) % 2:
            vectors = [*vectors, "poison"]
        mask = ", ".join(f"i32 {i}" for i in range(2 * lanes))
        vectors = [
            e.value(f"shufflevector <{lanes} x {ty}> {a}, <{lanes} x {ty}> {b}, <{2 * lanes} x i32> <{mask}>")
            for a, b in zip(vectors[::2], vectors[1::2], strict=True)
        ]
        lanes *= 2
    return vectors[0], lanes


def _pack(
    e: Emitter,
    dst: str,
    src: str,
    width: int,
    count: str,
    depth: str,
    along: str,
    across: str,
    read: Element = F32,
    packed: Element = F32,
) -> None:
    """Pack a depth x count block of `src` (element (p, x) at src[p * along + x * across],
    of type `read`) into panels of `width` (panel x0: depth rows of `width` values at
    dst + x0 * depth, of type `packed`), zero past `count`.

    A full panel (x0 + width <= count) of a layout with unit stride across the panel
    (`across` 1: B row-major, A column-major) copies each of its rows as one vector; one
    with unit stride along the depth (`along` 1: A row-major, B column-major) reads
    `lanes` deep vectors of each of its `width` lines and transposes them in registers
    (BLIS's packm kernels do the same with unpack/permute). Anything else (an edge
    panel, a general stride) goes element by element: an out-of-range element is read
    at the clamped index x = count - 1 (a valid address) and replaced by zero."""
    last = e.add(count, -1)
    ty, size = packed.llvm, packed.size
    lanes = max(1, 32 // size)  # one 256-bit register of packed elements
    whole = e.mul(e.value(f"sdiv i64 {count}, {width}"), width)  # the full panels' columns

    def copy_row(p: str, x0: str) -> None:
        line = _load_widened(e, e.gep(src, e.add(e.mul(p, along), x0), read.llvm), read, packed, width)
        out = e.gep(dst, e.add(e.mul(x0, depth), e.mul(p, width)), ty)
        e.emit(f"store <{width} x {ty}> {line}, ptr {out}, align {size}")

    rows, panels, edge = e.new_label("rows"), e.new_label("panels"), e.new_label("edge")
    e.emit(f"br i1 {e.value(f'icmp eq i64 {across}, 1')}, label %{rows}, label %{panels}")
    e.label(rows)
    # ROWS source rows at a time across all the panels: ROWS sequential read streams
    # (one source row each) instead of one read per source row per panel
    deep_rows = e.mul(e.value(f"sdiv i64 {depth}, {PACK_ROWS}"), PACK_ROWS)
    with e.loop(0, deep_rows, PACK_ROWS, hint="p") as p0, e.loop(0, whole, width, hint="panel") as x0:
        for dp in range(PACK_ROWS):
            copy_row(e.add(p0, dp), x0)
    with e.loop(deep_rows, depth, hint="p") as p, e.loop(0, whole, width, hint="panel") as x0:
        copy_row(p, x0)
    e.emit(f"br label %{edge}")
    e.label(panels)
    lines_case = e.value(f"icmp eq i64 {along}, 1")
    with e.loop(0, whole, width, hint="panel") as x0:
        panel = e.gep(dst, e.mul(x0, depth), ty)
        lines, general, next_ = (e.new_label(hint) for hint in ("lines", "general", "packed"))
        e.emit(f"br i1 {lines_case}, label %{lines}, label %{general}")
        e.label(lines)
        starts = [e.gep(src, e.mul(e.add(x0, dx), across), read.llvm) for dx in range(width)]
        deep = e.mul(e.value(f"sdiv i64 {depth}, {lanes}"), lanes)
        with e.loop(0, deep, lanes, hint="p") as p:
            vectors = [_load_widened(e, e.gep(start, p, read.llvm), read, packed, lanes) for start in starts]
            joined, total = _concat(e, vectors, lanes, ty)
            # element (p + l, dx) of the joined lines is lane dx * lanes + l; packed, at l * width + dx
            order = ", ".join(f"i32 {(f % width) * lanes + f // width}" for f in range(width * lanes))
            block = e.value(
                f"shufflevector <{total} x {ty}> {joined}, <{total} x {ty}> poison, <{width * lanes} x i32> <{order}>"
            )
            out = e.gep(panel, e.mul(p, width), ty)
            e.emit(f"store <{width * lanes} x {ty}> {block}, ptr {out}, align {size}")
        with e.loop(deep, depth, hint="p") as p:
            out = e.gep(panel, e.mul(p, width), ty)
            for dx, start in enumerate(starts):
                value = _load_widened(e, e.gep(start, p, read.llvm), read, packed)
                e.emit(f"store {ty} {value}, ptr {e.gep(out, dx, ty)}, align {size}")
        e.emit(f"br label %{next_}")
        e.label(general)
        _pack_panel(e, dst, src, width, x0, count, last, depth, along, across, read, packed)
        e.emit(f"br label %{next_}")
        e.label(next_)
    e.emit(f"br label %{edge}")
    e.label(edge)
    with e.loop(whole, count, width, hint="panel") as x0:
        _pack_panel(e, dst, src, width, x0, count, last, depth, along, across, read, packed)


def _pack_panel(
    e: Emitter,
    dst: str,
    src: str,
    width: int,
    x0: str,
    count: str,
    last: str,
    depth: str,
    along: str,
    across: str,
    read: Element,
    packed: Element,
) -> None:
    """The panel at x0 element by element: an out-of-range element is read at the
    clamped index `last` = count - 1 (a valid address) and replaced by zero."""
    ty, size = packed.llvm, packed.size
    panel = e.gep(dst, e.mul(x0, depth), ty)
    with e.loop(0, depth, hint="p") as p:
        row = e.gep(src, e.mul(p, along), read.llvm)
        out = e.gep(panel, e.mul(p, width), ty)
        for dx in range(width):
            x = e.add(x0, dx)
            inside = e.value(f"icmp slt i64 {x}, {count}")
            clamped = e.value(f"select i1 {inside}, i64 {x}, i64 {last}")
            loaded = _load_widened(e, e.gep(row, e.mul(clamped, across), read.llvm), read, packed)
            value = e.value(f"select i1 {inside}, {ty} {loaded}, {ty} {packed.zero}")
            e.emit(f"store {ty} {value}, ptr {e.gep(out, dx, ty)}, align {size}")


class Operand(Protocol):
    """One operand of C += A @ B as its packing routine reads it: element (p, x), p along
    the depth K, x along M (of A) or N (of B)."""

    def pack(self, e: Emitter, dst: str, width: int, x0: str, count: str, p0: str, depth: str) -> None:
        """Pack elements [p0, p0 + depth) x [x0, x0 + count) into `width`-wide panels at
        `dst` (panel x: depth rows of `width` values at dst + x * depth), zero past count."""


@dataclass(frozen=True)
class Strided:
    """Element (p, x) at base[p * along + x * across]: any layout of a 2-D operand, of
    element type `read`, packed as `packed` (f16/bf16 widened to f32 on the way)."""

    base: str
    along: str
    across: str
    read: Element = F32
    packed: Element = F32

    def pack(self, e: Emitter, dst: str, width: int, x0: str, count: str, p0: str, depth: str) -> None:
        """A call of the packing routine of this width and these types, one function for
        every call site (each call packs a whole block: the call costs nothing, and the
        library compiles faster without four inlined copies per entry)."""
        read, packed = self.read, self.packed
        name = f"xla_opt_pack_{read.suffix}_{packed.suffix}_{width}"
        if name not in e.helpers:
            routine = Emitter()
            _pack(routine, "%dst", "%src", width, "%count", "%depth", "%along", "%across", read, packed)
            e.helpers[name] = routine.function(
                f"internal void @{name}(ptr noalias %dst, ptr noalias %src, i64 %count, i64 %depth, "
                "i64 %along, i64 %across) noinline nounwind"
            )
        block = e.gep(self.base, e.add(e.mul(p0, self.along), e.mul(x0, self.across)), read.llvm)
        e.emit(
            f"call void @{name}(ptr {dst}, ptr {block}, i64 {count}, i64 {depth}, i64 {self.along}, i64 {self.across})"
        )


@dataclass(frozen=True)
class Gemm:
    """C[i, j] += sum_k A(k, i) B(k, j) for i < m, k < depth; C row-major, row stride ldc;
    `flags` (an i64: OVERWRITE, BIAS, RELU) make it C = ... and add bias[j] (`bias`, a
    pointer) and apply max(., 0) to each final element."""

    m: str
    depth: str
    a: Operand
    b: Operand
    c: str
    ldc: str
    flags: str = "0"
    bias: str = "null"
    # An i64 where A may be row pointers rather than packed values: where it is not 0, A's
    # `pack` writes, per MR-row panel, groups of MR pointers to `a_run` consecutive depth
    # positions each, which the indirect micro-kernel reads (`_micro_kernel`); 0 or None:
    # packed panels
    a_run: str | None = None


# The flags of a GEMM call (the public `%flags` parameter, Gemm.flags):
OVERWRITE = 1  # C = A @ B: C's initial content is not read (the caller's zero fill dropped)
BIAS = 2  # then C[i, j] += bias[j] ...
RELU = 4  # ... and C[i, j] = max(C[i, j], 0): the epilogue of `relu(x @ W + b)`


def _micro_tiles(
    e: Emitter, s: KernelShape, g: Gemm, ap, bp, jc, nc, ic, mc, pc, kc, direct: tuple[str, str, str] | None = None
) -> None:
    """The packed block's MR x NR tiles: each NR-column B panel (in L1) against every
    MR-row A panel; OVERWRITE on the first depth slice (pc = 0) only, BIAS and RELU on
    the last (each C element then has its final sum). `direct` (whether, where, row
    stride): B's whole panels read in place from the block at `where`, its last partial
    panel packed alone at bp (`blocked_loops`)."""
    ty = s.element.llvm
    first = e.value(f"icmp eq i64 {pc}, 0")
    last = e.value(f"icmp sge i64 {e.add(pc, kc)}, {g.depth}")
    starting = e.value(f"and i64 {g.flags}, {OVERWRITE}")
    finishing = e.value(f"and i64 {g.flags}, {BIAS | RELU}")
    flags = e.value(
        f"or i64 {e.value(f'select i1 {first}, i64 {starting}, i64 0')}, "
        f"{e.value(f'select i1 {last}, i64 {finishing}, i64 0')}"
    )
    has_bias = e.has(flags, BIAS)
    pointed = groups = None
    if g.a_run is not None:
        pointed = e.value(f"icmp ne i64 {g.a_run}, 0")
        groups = e.value(f"sdiv i64 {kc}, {e.value(f'select i1 {pointed}, i64 {g.a_run}, i64 1')}")
        if s.indirect_micro_kernel not in e.helpers:
            e.helpers[s.indirect_micro_kernel] = _micro_kernel(s, indirect=True)
    with e.loop(0, nc, s.nr, hint="jr") as jr:
        n = e.min(s.nr, e.value(f"sub i64 {nc}, {jr}"))
        b_panel, ldb = e.gep(bp, e.mul(jr, kc), ty), str(s.nr)
        if direct is not None:
            on, where, stride = direct
            in_place = e.value(f"and i1 {on}, {e.value(f'icmp eq i64 {n}, {s.nr}')}")
            alone = e.value(f"select i1 {on}, ptr {bp}, ptr {b_panel}")  # a partial panel, packed alone
            b_panel = e.value(f"select i1 {in_place}, ptr {e.gep(where, jr, ty)}, ptr {alone}")
            ldb = e.value(f"select i1 {in_place}, i64 {stride}, i64 {s.nr}")
        c_cols = e.gep(g.c, e.add(jc, jr), ty)
        bias_cols = e.value(f"getelementptr {ty}, ptr {g.bias}, i64 {e.add(jc, jr)}", "p")
        with e.loop(0, mc, s.mr, hint="ir") as ir:
            m = e.min(s.mr, e.value(f"sub i64 {mc}, {ir}"))
            a_panel = e.gep(ap, e.mul(ir, kc), ty)
            c_tile = e.gep(c_cols, e.mul(e.add(ic, ir), g.ldc), ty)
            bias = e.value(f"select i1 {has_bias}, ptr {bias_cols}, ptr {c_tile}")  # C: read, never used
            rest = f"ptr {b_panel}, i64 {ldb}, ptr {c_tile}, i64 {g.ldc}, i64 {m}, i64 {n}, i64 {flags}, ptr {bias}"
            if pointed is None:
                e.emit(f"call void @{s.micro_kernel}(i64 {kc}, ptr {a_panel}, {rest})")
            else:
                with e.when(pointed, "pointed"):  # panel ir / MR's kc / run groups of MR pointers
                    table = e.value(f"getelementptr inbounds ptr, ptr {ap}, i64 {e.mul(ir, groups)}", "p")
                    e.emit(f"call void @{s.indirect_micro_kernel}(i64 {kc}, ptr {table}, i64 {g.a_run}, {rest})")
                with e.when(e.value(f"xor i1 {pointed}, true"), "packed"):
                    e.emit(f"call void @{s.micro_kernel}(i64 {kc}, ptr {a_panel}, {rest})")


@dataclass(frozen=True)
class Team:
    """The threads running one call of an entry, as one thread sees them (IR values): its
    number `tid` (i64), the team's `size` (i64) and the `state` they share (TEAM_STATE:
    the barrier's arrival count and generation, the shared packed-B buffer). One thread
    alone is a team of one."""

    tid: str = "%tid"
    size: str = "%nthreads"
    state: str = "%team"

    def barrier(self, e: Emitter) -> None:
        e.emit(f"call void @{BARRIER}(ptr {self.state}, i64 {self.size})")

    def share(self, e: Emitter, start: str, end: str, multiple: int) -> tuple[str, str]:
        """This thread's part of [start, end): ceil((end - start) / size) rounded up to
        `multiple` (whole tiles per thread), empty for the threads past the end."""
        length = e.value(f"sub i64 {end}, {start}")
        per = _round_up(e, e.value(f"sdiv i64 {e.add(length, e.add(self.size, -1))}, {self.size}"), multiple)
        low = e.min(e.add(start, e.mul(self.tid, per)), end)
        return low, e.min(e.add(low, per), end)

    def slot(self, e: Emitter, field: int) -> str:
        return e.value(f"getelementptr inbounds {TEAM_STATE}, ptr {self.state}, i32 0, i32 {field}", "p")


TEAM = Team()
TEAM_PARAMS = [("i64", TEAM.tid), ("i64", TEAM.size), ("ptr", TEAM.state)]
TEAM_STATE = "{ i64, i64, ptr, ptr }"  # barrier arrivals and generation, shared B buffer (malloc'ed, aligned)
BARRIER = "xla_opt_gemm_barrier"


def _barrier() -> str:
    """`void xla_opt_gemm_barrier(ptr state, i64 size)`: wait until all `size` threads of
    the team have arrived. A generation counter: each thread reads the generation, then
    counts itself in; the last one resets the count and publishes the next generation
    (release), for which the others wait (acquire). Waiting spins on the load for a
    while (the threads have equal shares, so the wait is short), then yields the CPU on
    each check: on a busy machine a spinning thread would take the core another needs
    (libgomp's passive wait policy, for the same reason)."""
    return f"""define internal void @{BARRIER}(ptr %state, i64 %size) nounwind {{
entry:
  %generation = getelementptr inbounds {TEAM_STATE}, ptr %state, i32 0, i32 1
  %current = load atomic i64, ptr %generation acquire, align 8
  %before = atomicrmw add ptr %state, i64 1 acq_rel, align 8
  %last = add i64 %size, -1
  %is_last = icmp eq i64 %before, %last
  br i1 %is_last, label %release, label %wait
release:
  store atomic i64 0, ptr %state monotonic, align 8
  %next = add i64 %current, 1
  store atomic i64 %next, ptr %generation release, align 8
  ret void
wait:
  %spins = phi i64 [0, %entry], [%spins1, %spin], [0, %yield]
  %now = load atomic i64, ptr %generation acquire, align 8
  %same = icmp eq i64 %now, %current
  br i1 %same, label %spin, label %done
spin:
  %spins1 = add i64 %spins, 1
  %tired = icmp sgt i64 %spins1, {BARRIER_SPINS}
  br i1 %tired, label %yield, label %wait
yield:
  %ignored = call i32 @sched_yield()
  br label %wait
done:
  ret void
}}"""


BARRIER_SPINS = 4000  # checks (~1-2 us) before yielding


def blocked_loops(e: Emitter, s: KernelShape, g: Gemm, ap: str, bp: str, j0: str, j1: str, team: Team = TEAM) -> None:
    """The BLIS loops over the columns [j0, j1) of `g`, by the threads of `team`, each
    packing A into its own `ap`.

    With at most MC rows the product is one A block per depth slice: each thread packs
    it and takes its own columns (whole NR panels) into its own `bp`. Then the column
    blocks are L2-sized (s.nc_l2), so the packed B block is still in L2 when the
    micro-kernel reads it (with BLIS's NC, an L3 block, a short product would pack B out
    to L3 and read it back for just one A block: 64 x 576 x 784 ran at 72 instead of 92
    GFLOP/s).

    Taller, the threads share each packed B block and split the rows (BLIS's ic loop
    split), so no panel is packed twice: for each depth slice every thread packs its
    part of the block's NR panels into the shared buffer (TEAM_STATE; two halves, used
    in turn), waits for the others (a barrier), then packs and multiplies the blocks of
    its rows (the fewest of at most MC rows, of equal height) against the whole block.
    Alternating halves lets a thread pack the next
    slice while another still reads this one: the barrier after packing slice p + 1
    means everyone has finished slice p, whose half slice p + 2 overwrites. Either way
    every C element gets the same depth slices in the same order as on one thread."""
    short, tall, done = (
        e.new_label("short"),
        e.new_label("tall"),
        e.new_label("blocked"),
    )
    step = depth_step(e, s, g.depth)  # both ways: the same slices on any number of threads
    e.emit(f"br i1 {e.value(f'icmp sle i64 {g.m}, {s.mc}')}, label %{short}, label %{tall}")
    e.label(short)
    mine0, mine1 = team.share(e, j0, j1, s.nr)
    in_place = _b_in_place(e, s, g)
    with e.loop(0, g.depth, step, hint="pc") as pc:
        kc = e.min(step, e.value(f"sub i64 {g.depth}, {pc}"))
        g.a.pack(e, ap, s.mr, "0", g.m, pc, kc)
        with e.loop(mine0, mine1, s.nc_l2, hint="jc") as jc:
            nc = e.min(s.nc_l2, e.value(f"sub i64 {mine1}, {jc}"))
            direct = None
            if in_place is not None:
                assert isinstance(g.b, Strided)
                whole = e.value(f"and i64 {nc}, {-s.nr}")
                # in place: only the last partial panel is packed (alone, at bp)
                first = e.value(f"select i1 {in_place}, i64 {whole}, i64 0")
                where = e.gep(g.b.base, e.add(e.mul(pc, g.b.along), jc), s.element.llvm)
                direct = (in_place, where, g.b.along)
                g.b.pack(e, bp, s.nr, e.add(jc, first), e.value(f"sub i64 {nc}, {first}"), pc, kc)
            else:
                g.b.pack(e, bp, s.nr, jc, nc, pc, kc)
            _micro_tiles(e, s, g, ap, bp, jc, nc, "0", g.m, pc, kc, direct)
    e.emit(f"br label %{done}")
    e.label(tall)
    shared = e.value(f"load ptr, ptr {team.slot(e, 3)}, align 8")
    half = e.mul(_round_up(e, e.min(e.value(f"sub i64 {j1}, {j0}"), s.nc), s.nr), e.min(g.depth, s.kc))
    slices = e.variable("i64", 0)  # packed so far: the parity picks the half
    rows0, rows1 = team.share(e, "0", g.m, s.mr)
    # the fewest A blocks of at most MC rows, of equal height (whole MR panels): no short
    # last block whose packed B panels serve just a tile or two
    rows = e.value(f"sub i64 {rows1}, {rows0}")
    rows_step = _equal_pieces(e, rows, s.mc, s.mr)
    with e.loop(j0, j1, s.nc, hint="jc") as jc:
        nc = e.min(s.nc, e.value(f"sub i64 {j1}, {jc}"))
        cols0, cols1 = team.share(e, "0", nc, s.nr)
        with e.loop(0, g.depth, step, hint="pc") as pc:
            kc = e.min(step, e.value(f"sub i64 {g.depth}, {pc}"))
            count = e.value(f"load i64, ptr {slices}, align 8")
            e.emit(f"store i64 {e.add(count, 1)}, ptr {slices}, align 8")
            block = e.gep(shared, e.mul(e.value(f"and i64 {count}, 1"), half), s.element.llvm)
            columns = e.value(f"sub i64 {cols1}, {cols0}")
            g.b.pack(e, e.gep(block, e.mul(cols0, kc), s.element.llvm), s.nr, e.add(jc, cols0), columns, pc, kc)
            team.barrier(e)
            with e.loop(rows0, rows1, rows_step, hint="ic") as ic:
                mc = e.min(rows_step, e.value(f"sub i64 {rows1}, {ic}"))
                g.a.pack(e, ap, s.mr, ic, mc, pc, kc)
                _micro_tiles(e, s, g, ap, block, jc, nc, ic, mc, pc, kc)
    team.barrier(e)  # the next product's first slice reuses the first half
    e.emit(f"br label %{done}")
    e.label(done)


# A product of at most this many MR-row panels reads B's whole NR-column panels in place
# where B's rows are contiguous (`_b_in_place`): each panel then serves so few tiles that
# packing it costs as much as the multiply-adds (an LSTM's 16-row steps against a 128 x
# 512 weight packed the whole weight on every step).
IN_PLACE_B_MAX_PANELS = 2


def _b_in_place(e: Emitter, s: KernelShape, g: Gemm) -> str | None:
    """An i1: whether this product reads B in place (IN_PLACE_B_MAX_PANELS); None when
    its B never can (not a strided operand of the packed type)."""
    b = g.b
    if not isinstance(b, Strided) or b.read != b.packed:
        return None
    few = e.value(f"icmp sle i64 {g.m}, {IN_PLACE_B_MAX_PANELS * s.mr}")
    return e.value(f"and i1 {few}, {e.value(f'icmp eq i64 {b.across}, 1')}")


def aligned_buffer(e: Emitter, count: str | int, size: int = 4) -> tuple[str, str]:
    """malloc'ed room for `count` values of `size` bytes: (the pointer to free, the
    64-aligned one)."""
    total = e.add(e.mul(count, size), ALIGNMENT)
    raw = e.value(f"call ptr @malloc(i64 {total})", "raw")
    address = e.value(f"ptrtoint ptr {raw} to i64")
    up = e.value(f"and i64 {e.add(address, ALIGNMENT - 1)}, {-ALIGNMENT}")
    return raw, e.value(
        f"getelementptr inbounds i8, ptr {raw}, i64 {e.value(f'sub i64 {up}, {address}')}",
        "p",
    )


def _equal_pieces(e: Emitter, length: str, limit: int, multiple: int) -> str:
    """The size of the pieces of `length` when it is cut into as few as pieces of at most
    `limit` allow (at least one), all of one size rounded up to `multiple` (the last one
    shorter): no short last piece."""
    pieces = e.value(f"sdiv i64 {e.add(length, limit - 1)}, {limit}")
    some = e.value(f"select i1 {e.value(f'icmp sgt i64 {pieces}, 0')}, i64 {pieces}, i64 1")
    return _round_up(e, e.value(f"sdiv i64 {e.add(length, e.add(some, -1))}, {some}"), multiple)


def depth_step(e: Emitter, s: KernelShape, depth: str) -> str:
    """The depth of the slices of a product: as few as at most KC deep allow, of equal
    depth (a multiple of 16, so each slice starts a cache line further into a row of A):
    a depth of 576 is two slices of 288, not 512 and 64, whose short slice would read and
    write the whole of C for an eighth of the work (96 x 576 x 1024 on one thread: 96-102
    -> 106 GFLOP/s; the benchmark's 3x3 convolution, the same depth, ~1%)."""
    return _equal_pieces(e, depth, s.kc, 16)


def _round_up(e: Emitter, x: str, multiple: int) -> str:
    return e.mul(e.value(f"sdiv i64 {e.add(x, multiple - 1)}, {multiple}"), multiple)


def packing_buffers(
    e: Emitter, s: KernelShape, m: str, columns: str, depth: str, team: Team = TEAM
) -> tuple[list[str], str, str]:
    """Room for a packed A block and B block of an m x columns x depth product: (the
    pointers to free, A's buffer, B's buffer), this thread's own; and the team's shared
    B buffer (two blocks, see blocked_loops), which thread 0 allocates and publishes in
    the team's state before a barrier (`free_buffers` frees them all)."""
    kc_max = e.min(depth, s.kc)
    size = s.element.size
    raw_a, ap = aligned_buffer(e, e.mul(_round_up(e, e.min(m, s.mc), s.mr), kc_max), size)
    block = e.mul(_round_up(e, e.min(columns, s.nc), s.nr), kc_max)
    raw_b, bp = aligned_buffer(e, block, size)
    first, ready = e.new_label("allocate"), e.new_label("allocated")
    e.emit(f"br i1 {e.value(f'icmp eq i64 {team.tid}, 0')}, label %{first}, label %{ready}")
    e.label(first)
    raw, aligned = aligned_buffer(e, e.mul(block, 2), size)
    e.emit(f"store ptr {raw}, ptr {team.slot(e, 2)}, align 8")
    e.emit(f"store ptr {aligned}, ptr {team.slot(e, 3)}, align 8")
    e.emit(f"br label %{ready}")
    e.label(ready)
    team.barrier(e)
    return [raw_a, raw_b], ap, bp


def free_buffers(e: Emitter, raws: list[str], team: Team = TEAM) -> None:
    """Free this thread's packing buffers and, once every thread is done (a barrier),
    thread 0 the shared one."""
    for raw in raws:
        e.emit(f"call void @free(ptr {raw})")
    team.barrier(e)
    last, done = e.new_label("release"), e.new_label("released")
    e.emit(f"br i1 {e.value(f'icmp eq i64 {team.tid}, 0')}, label %{last}, label %{done}")
    e.label(last)
    e.emit(f"call void @free(ptr {e.value(f'load ptr, ptr {team.slot(e, 2)}, align 8')})")
    e.emit(f"br label %{done}")
    e.label(done)


Params = Sequence[tuple[str, str]]


def _params(params: Params, values: dict[str, str] | None = None, noalias: bool = False) -> str:
    """The parameter list (`noalias` on the pointers) or, given `values`, the argument
    list of a call with some of the parameters replaced."""
    values = values or {}
    return ", ".join(
        f"{ty} {'noalias ' if noalias and ty == 'ptr' else ''}{values.get(name, name)}" for ty, name in params
    )


@dataclass(frozen=True)
class Entry:
    """A public function of the library on the shared blocking: its symbol and parameters,
    the parameter counting the columns, its multiply-adds (`work`, against
    PARALLEL_MIN_WORK), its body for the columns [%j0, %j1) as one thread of the team
    (TEAM_PARAMS: `serial`, which allocates its packing buffers with `packing_buffers`,
    runs `blocked_loops` and ends with `free_buffers`) and the declarations it needs
    beyond the GEMM's; `element`, the type its micro-kernel computes in, picks its
    kernel shape."""

    symbol: str
    params: Params
    columns: str
    work: Callable[[Emitter], str]
    serial: Callable[[Emitter, KernelShape], None]
    declarations: Callable[[KernelShape], list[str]] = lambda s: []  # intrinsics it calls
    element: Element = F32
    wide: bool = True  # whether it may run on a shape of vectors wider than 256 bits

    def shape(self, shapes: Sequence[KernelShape]) -> KernelShape:
        """Its shape among `shapes`: the first of its element type that it may use."""
        return next(s for s in shapes if s.element == self.element and (self.wide or not s.wide))

    def args_type(self) -> str:
        """The worker's argument struct: the parameters, then the team's state."""
        return "{ " + ", ".join([*(ty for ty, _ in self.params), "ptr"]) + " }"


def _serial(s: KernelShape, entry: Entry) -> tuple[str, dict[str, str]]:
    """The entry's single-thread code (a thread's part of the team's work), and the
    functions it calls (packing routines) by name."""
    e = Emitter()
    entry.serial(e, s)
    params = _params([*entry.params, *_SPLIT], noalias=True)
    return e.function(f"internal void @{entry.symbol}_serial({params}) nounwind"), e.helpers


def _worker(s: KernelShape, entry: Entry) -> str:
    """One thread of the team: the arguments and the team's state from the struct at
    %data, its number and the team's actual size (libgomp may give fewer threads than
    requested) from libgomp, then the single-thread code on all the columns, which
    splits the work by the thread's number (blocked_loops)."""
    e = Emitter()
    for field, (ty, name) in enumerate([*entry.params, ("ptr", "%state")]):
        at = e.value(
            f"getelementptr inbounds {entry.args_type()}, ptr %data, i32 0, i32 {field}",
            "p",
        )
        e.emit(f"{name} = load {ty}, ptr {at}, align 8")
    tid = e.value(f"sext i32 {e.value('call i32 @omp_get_thread_num()')} to i64")
    team = e.value(f"sext i32 {e.value('call i32 @omp_get_num_threads()')} to i64")
    values = {"%j0": "0", "%j1": entry.columns, TEAM.tid: tid, TEAM.size: team, TEAM.state: "%state"}
    e.emit(f"call void @{entry.symbol}_serial({_params([*entry.params, *_SPLIT], values)})")
    return e.function(f"internal void @{entry.symbol}_worker(ptr %data) nounwind")


_SPLIT = [("i64", "%j0"), ("i64", "%j1"), *TEAM_PARAMS]  # the serial code's parameters after the entry's


def _dispatch(entry: Entry, parallel: bool) -> str:
    """The public function: (`parallel`) the work shared by `xla_opt_num_threads()` threads
    (libgomp's `GOMP_parallel` runs the worker on each) when there is more than one and
    the work has at least PARALLEL_MIN_WORK multiply-adds (below that, ~100 us, waking a
    team costs more than it saves); otherwise the single-thread code, a team of one.
    The team's state lives in this frame (GOMP_parallel returns when all are done)."""
    e = Emitter()
    state = e.value(f"alloca {TEAM_STATE}, align 64")
    e.emit(f"store {TEAM_STATE} zeroinitializer, ptr {state}, align 64")
    alone = {"%j0": "0", "%j1": entry.columns, TEAM.tid: "0", TEAM.size: "1", TEAM.state: state}
    serial = f"call void @{entry.symbol}_serial({_params([*entry.params, *_SPLIT], alone)})"
    if parallel:
        threads = e.value(f"call i32 @{NUM_THREADS}()")
        many = e.value(f"icmp sgt i32 {threads}, 1")
        big = e.value(f"icmp sge i64 {entry.work(e)}, {PARALLEL_MIN_WORK}")
        e.emit(f"br i1 {e.value(f'and i1 {many}, {big}')}, label %parallel, label %serial")
        e.label("parallel")
        args = e.value(f"alloca {entry.args_type()}, align 8")
        for field, (ty, name) in enumerate(entry.params):
            at = e.value(
                f"getelementptr inbounds {entry.args_type()}, ptr {args}, i32 0, i32 {field}",
                "p",
            )
            e.emit(f"store {ty} {name}, ptr {at}, align 8")
        at = e.value(f"getelementptr inbounds {entry.args_type()}, ptr {args}, i32 0, i32 {len(entry.params)}", "p")
        e.emit(f"store ptr {state}, ptr {at}, align 8")
        e.emit(f"call void @GOMP_parallel(ptr @{entry.symbol}_worker, ptr {args}, i32 {threads}, i32 0)")
        e.emit("ret void")
        e.label("serial")
    e.emit(serial)
    return e.function(f"void @{entry.symbol}({_params(entry.params, noalias=True)}) nounwind")


# The public signature, in order: also the fields of the worker's argument struct.
PARAMS = [
    ("i64", "%batch"), ("i64", "%M"), ("i64", "%N"), ("i64", "%K"),
    ("ptr", "%A"), ("i64", "%lda_batch"), ("i64", "%lda_row"), ("i64", "%lda_col"),
    ("ptr", "%B"), ("i64", "%ldb_batch"), ("i64", "%ldb_row"), ("i64", "%ldb_col"),
    ("ptr", "%C"), ("i64", "%ldc_batch"), ("i64", "%ldc"),
    ("i64", "%flags"), ("ptr", "%bias"),
]  # fmt: skip
# a call's argument positions by name: ARGUMENT["B"], ARGUMENT["ldb_row"]...
ARGUMENT = {name.removeprefix("%"): i for i, (_, name) in enumerate(PARAMS)}


def gemm_entry(read: Element, element: Element, wide: bool = True) -> Entry:
    """The GEMM of `read` operands packed as, multiplied and accumulated in `element`:
    `xla_opt_<read's letter>gemm`, or without `wide` `..._narrow` on vectors of at most
    256 bits."""

    def serial(e: Emitter, s: KernelShape) -> None:
        """Each product's columns [%j0, %j1), one packing buffer for all."""
        raws, ap, bp = packing_buffers(e, s, "%M", e.value("sub i64 %j1, %j0"), "%K")
        with e.loop(0, "%batch", hint="batch") as item:
            a_base = e.gep("%A", e.mul(item, "%lda_batch"), read.llvm)
            b_base = e.gep("%B", e.mul(item, "%ldb_batch"), read.llvm)
            c = e.gep("%C", e.mul(item, "%ldc_batch"), element.llvm)
            a = Strided(a_base, "%lda_col", "%lda_row", read, element)
            b = Strided(b_base, "%ldb_row", "%ldb_col", read, element)
            blocked_loops(e, s, Gemm("%M", "%K", a, b, c, "%ldc", "%flags", "%bias"), ap, bp, "%j0", "%j1")
        free_buffers(e, raws)

    work: Callable[[Emitter], str] = lambda e: e.mul(e.mul("%batch", "%M"), e.mul("%N", "%K"))
    symbol = f"xla_opt_{read.letter}gemm{'' if wide else '_narrow'}"
    return Entry(symbol, PARAMS, "%N", work, serial, element=element, wide=wide)


SGEMM = gemm_entry(F32, F32)
# The f32 GEMM on the 256-bit tile (the same code as SGEMM where there is no AVX-512),
# for products of few columns (`narrow_product`).
SGEMM_NARROW = gemm_entry(F32, F32, wide=False)
DGEMM = gemm_entry(F64, F64)
HGEMM = gemm_entry(F16, F32)  # f16 operands, f32 C
BGEMM = gemm_entry(BF16, F32)  # bf16 operands, f32 C
IGEMM = gemm_entry(I32, I32)
GEMMS = {entry.symbol: entry for entry in (SGEMM, SGEMM_NARROW, DGEMM, HGEMM, BGEMM, IGEMM)}


def narrow_product(columns: int) -> bool:
    """Whether an f32 product of `columns` columns calls SGEMM_NARROW: fewer than 128, or
    fewer than 512 that fill 16-wide panels better than 32-wide ones. The 8 x 32 tile's
    edge tiles cost a few columns' product most (one thread, GFLOP/s on the 6 x 16 / on
    the 8 x 32 tile: 37x300x29 34 / 30, 100^3 67 / 58, 512x64x10 33 / 22, 130x1065x97
    57 / 54; 256^3 108 / 109, 512^3 109 / 113). A rule of the static shape alone, so the
    lowered IR does not depend on the host."""
    padded = [-(-columns // width) * width for width in (16, 32)]
    return columns < 128 or (columns < 512 and padded[0] < padded[1])


def library_ir(shapes: Sequence[KernelShape], entries: Sequence[Entry], parallel: bool = False) -> str:
    """The LLVM IR module defining `entries`, each on its kernel shape among `shapes`
    (`Entry.shape`): single-thread, or (`parallel`, libgomp loaded) with the
    multi-thread dispatch, on the runtime's thread count (`xla_opt_num_threads`,
    threads.py)."""
    shape_of = {entry.symbol: entry.shape(shapes) for entry in entries}
    used = list(dict.fromkeys(shape_of.values()))
    parts = [
        "declare ptr @malloc(i64)\ndeclare void @free(ptr)\ndeclare i32 @sched_yield()",
        "declare void @llvm.prefetch.p0(ptr, i32, i32, i32)",
        _barrier(),
    ]
    for s in used:
        vec = s.vector
        if not s.element.integer:
            parts.append(f"declare {vec} @{s.fma_intrinsic}({vec}, {vec}, {vec})")
        parts.append(_micro_kernel(s))
    if parallel:
        parts += [
            "declare void @GOMP_parallel(ptr, ptr, i32, i32)",
            "declare i32 @omp_get_thread_num()\ndeclare i32 @omp_get_num_threads()",
            f"declare i32 @{NUM_THREADS}()",
        ]
    for declaration in dict.fromkeys(d for entry in entries for d in entry.declarations(shape_of[entry.symbol])):
        parts.append(declaration)
    helpers: dict[str, str] = {}
    for entry in entries:
        s = shape_of[entry.symbol]
        serial, called = _serial(s, entry)
        helpers.update(called)
        parts += [
            serial,
            *([_worker(s, entry)] if parallel else []),
            _dispatch(entry, parallel),
        ]
    return "\n\n".join([*parts, *helpers.values(), ""])


def gemm_ir(s: KernelShape, parallel: bool = False) -> str:
    """The LLVM IR module defining the GEMM of shape `s`'s element type alone
    (`xla_opt_sgemm`, `xla_opt_dgemm` or `xla_opt_igemm`, see library_ir)."""
    return library_ir([s], [{F32: SGEMM, F64: DGEMM, I32: IGEMM}[s.element]], parallel)
