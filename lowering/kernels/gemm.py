"""`xla_opt_sgemm`: a packed, register-tiled f32 GEMM, emitted as LLVM IR text.

    void xla_opt_sgemm(i64 M, i64 N, i64 K,
                       float* A, i64 lda_row, i64 lda_col,
                       float* B, i64 ldb_row, i64 ldb_col,
                       float* C, i64 ldc)

computes C += A @ B: A[i, k] is A[i * lda_row + k * lda_col], B[k, j] is
B[k * ldb_row + j * ldb_col] (so any layout of a 2-D operand, transposed or not, is a
pair of strides: the packing absorbs it), C is row-major with row stride ldc. The
caller zero-fills C for C = A @ B (a linalg matmul's outs are its initial value).

BLIS's blocking (Goto & van de Geijn): for each NC-column block of B, for each
KC-deep slice, B[pc:pc+KC, jc:jc+NC] is packed into NR-column panels (each panel
KC x NR, row after row); for each MC-row block of A, A[ic:ic+MC, pc:pc+KC] is packed
into MR-row panels (KC x MR, column after column). Both are zero-padded at the edges,
so the MR x NR micro-kernel always runs full: it keeps MR x NR/VW vector accumulators
in registers and, per k, loads NR packed B values, broadcasts MR packed A values and
does MR x NR/VW fused multiply-adds. A full tile is added to C directly; an edge tile
goes through an MR x NR temporary of which only the valid part is added.

The shape follows the host: AVX2 + FMA (16 ymm registers) takes a 6 x 16 tile of
`<8 x float>` (12 accumulators, 2 B vectors, 1 broadcast); otherwise a 4 x 8 tile of
`<4 x float>` with `llvm.fmuladd` (fused only where the CPU has FMA).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

SYMBOL = "xla_opt_sgemm"
MICRO_KERNEL = "xla_opt_sgemm_micro_kernel"
SERIAL = "xla_opt_sgemm_serial"  # the single-thread code, when the parallel dispatch is on top
WORKER = "xla_opt_sgemm_worker"  # one thread's column range, run by GOMP_parallel
THREADS = "xla_opt_sgemm_threads"  # the i32 thread count, read at each call
SET_THREADS = "xla_opt_sgemm_set_threads"
PARALLEL_MIN_WORK = 1 << 21  # multiply-adds (~100 us single-thread) before going parallel
ALIGNMENT = 64


@dataclass(frozen=True)
class KernelShape:
    """The register tile (MR x NR, vectors of VW floats) and the cache blocking."""

    mr: int
    nr: int
    vw: int
    kc: int
    mc: int
    nc: int
    fma: str  # the multiply-add intrinsic's base name

    def __post_init__(self) -> None:
        assert self.nr % self.vw == 0 and self.mc % self.mr == 0 and self.nc % self.nr == 0


# Zen 3: KC x NR floats of B (24 KB) stay in L1, MC x KC of A (180 KB) in L2.
AVX2_FMA = KernelShape(mr=6, nr=16, vw=8, kc=384, mc=120, nc=4080, fma="llvm.fma")
SSE = KernelShape(mr=4, nr=8, vw=4, kc=256, mc=128, nc=4096, fma="llvm.fmuladd")


def shape_for(features: str) -> KernelShape:
    """The kernel shape for a CPU feature string (LLVM's `+avx2,+fma,...`)."""
    flags = set(features.split(","))
    return AVX2_FMA if {"+avx2", "+fma"} <= flags else SSE


class _Emitter:
    """LLVM IR text, one function at a time: fresh value names, the current block's
    label (for phis), counted loops."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.counter = 0
        self.block = "entry"

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

    def gep(self, base: str, offset: str | int) -> str:
        return self.value(f"getelementptr inbounds float, ptr {base}, i64 {offset}", "p")

    def function(self, signature: str) -> str:
        """`define <signature>` with the emitted body, ending with `ret void`."""
        self.emit("ret void")
        return "\n".join([f"define {signature} {{", "entry:", *self.lines, "}"])

    @contextmanager
    def loop(self, start: str | int, end: str | int, step: int = 1, hint: str = "i") -> Iterator[str]:
        """for (iv = start; iv < end; iv += step): the body is the `with` block."""
        head, body, exit_ = self.new_label(f"{hint}.head"), self.new_label(f"{hint}.body"), self.new_label(f"{hint}.exit")
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
        self.emit(f"br label %{head}")
        self.lines[latch_at] = f"  {iv} = phi i64 [{start}, %{pre}], [{following}, %{self.block}]"
        self.label(exit_)


def _micro_kernel(s: KernelShape) -> str:
    """C[0:m, 0:n] += Ap (kc x MR panel) @ Bp (kc x NR panel); m <= MR, n <= NR."""
    e = _Emitter()
    vec = f"<{s.vw} x float>"
    nv = s.nr // s.vw
    tile = s.mr * s.nr
    accs = [[e.fresh("acc") for _ in range(nv)] for _ in range(s.mr)]
    for row in accs:
        for acc in row:
            e.emit(f"{acc} = alloca {vec}, align 32")
            e.emit(f"store {vec} zeroinitializer, ptr {acc}, align 32")
    scratch = e.value(f"alloca [{tile} x float], align 64")
    with e.loop(0, "%kc", hint="k") as k:
        b_row = e.gep("%bp", e.mul(k, s.nr))
        bs = [e.value(f"load {vec}, ptr {e.gep(b_row, v * s.vw)}, align 64" if v == 0 else
                      f"load {vec}, ptr {e.gep(b_row, v * s.vw)}, align {min(64, 4 * s.vw)}", "b")
              for v in range(nv)]  # fmt: skip
        a_col = e.gep("%ap", e.mul(k, s.mr))
        for i in range(s.mr):
            a = e.value(f"load float, ptr {e.gep(a_col, i)}, align 4", "a")
            one = e.value(f"insertelement {vec} poison, float {a}, i64 0")
            splat = e.value(f"shufflevector {vec} {one}, {vec} poison, <{s.vw} x i32> zeroinitializer", "a")
            for v in range(nv):
                old = e.value(f"load {vec}, ptr {accs[i][v]}, align 32")
                new = e.value(f"call {vec} @{s.fma}.v{s.vw}f32({vec} {splat}, {vec} {bs[v]}, {vec} {old})")
                e.emit(f"store {vec} {new}, ptr {accs[i][v]}, align 32")
    full_m = e.value(f"icmp eq i64 %m, {s.mr}")
    full_n = e.value(f"icmp eq i64 %n, {s.nr}")
    full = e.value(f"and i1 {full_m}, {full_n}")
    e.emit(f"br i1 {full}, label %full, label %edge")
    e.label("full")
    for i in range(s.mr):
        c_row = e.gep("%c", e.mul("%ldc", i))
        for v in range(nv):
            at = e.gep(c_row, v * s.vw)
            acc = e.value(f"load {vec}, ptr {accs[i][v]}, align 32")
            old = e.value(f"load {vec}, ptr {at}, align 4")
            e.emit(f"store {vec} {e.value(f'fadd {vec} {old}, {acc}')}, ptr {at}, align 4")
    e.emit("ret void")
    e.label("edge")  # the tile through `scratch`, then its valid m x n part into C
    for i in range(s.mr):
        for v in range(nv):
            acc = e.value(f"load {vec}, ptr {accs[i][v]}, align 32")
            e.emit(f"store {vec} {acc}, ptr {e.gep(scratch, i * s.nr + v * s.vw)}, align 4")
    with e.loop(0, "%m", hint="r") as r:
        c_row = e.gep("%c", e.mul(r, "%ldc"))
        s_row = e.gep(scratch, e.mul(r, s.nr))
        with e.loop(0, "%n", hint="j") as j:
            at = e.gep(c_row, j)
            old = e.value(f"load float, ptr {at}, align 4")
            part = e.value(f"load float, ptr {e.gep(s_row, j)}, align 4")
            e.emit(f"store float {e.value(f'fadd float {old}, {part}')}, ptr {at}, align 4")
    return e.function(
        f"internal void @{MICRO_KERNEL}(i64 %kc, ptr noalias %ap, ptr noalias %bp, ptr noalias %c, "
        "i64 %ldc, i64 %m, i64 %n) noinline nounwind"
    )


def _pack(e: _Emitter, dst: str, src: str, width: int, count: str, depth: str, along: str, across: str) -> None:
    """Pack a depth x count block of `src` (element (p, x) at src[p * along + x * across])
    into panels of `width` (panel x0: depth rows of `width` values at dst + x0 * depth),
    zero past `count`: the out-of-range element is read at the clamped index x = count - 1
    (a valid address) and replaced by zero."""
    last = e.add(count, -1)
    with e.loop(0, count, width, hint="panel") as x0:
        panel = e.gep(dst, e.mul(x0, depth))
        with e.loop(0, depth, hint="p") as p:
            row = e.gep(src, e.mul(p, along))
            out = e.gep(panel, e.mul(p, width))
            for dx in range(width):
                x = e.add(x0, dx)
                inside = e.value(f"icmp slt i64 {x}, {count}")
                clamped = e.value(f"select i1 {inside}, i64 {x}, i64 {last}")
                loaded = e.value(f"load float, ptr {e.gep(row, e.mul(clamped, across))}, align 4")
                value = e.value(f"select i1 {inside}, float {loaded}, float 0.0")
                e.emit(f"store float {value}, ptr {e.gep(out, dx)}, align 4")


def _aligned_buffer(e: _Emitter, floats: str) -> tuple[str, str]:
    """malloc'ed room for `floats` floats: (the pointer to free, the 64-aligned one)."""
    size = e.add(e.mul(floats, 4), ALIGNMENT)
    raw = e.value(f"call ptr @malloc(i64 {size})", "raw")
    address = e.value(f"ptrtoint ptr {raw} to i64")
    up = e.value(f"and i64 {e.add(address, ALIGNMENT - 1)}, {-ALIGNMENT}")
    return raw, e.value(f"getelementptr inbounds i8, ptr {raw}, i64 {e.value(f'sub i64 {up}, {address}')}", "p")


def _round_up(e: _Emitter, x: str, multiple: int) -> str:
    return e.mul(e.value(f"sdiv i64 {e.add(x, multiple - 1)}, {multiple}"), multiple)


# The public signature, in order: also the fields of the worker's argument struct.
PARAMS = [
    ("i64", "%M"), ("i64", "%N"), ("i64", "%K"),
    ("ptr", "%A"), ("i64", "%lda_row"), ("i64", "%lda_col"),
    ("ptr", "%B"), ("i64", "%ldb_row"), ("i64", "%ldb_col"),
    ("ptr", "%C"), ("i64", "%ldc"),
]  # fmt: skip
ARGS_TYPE = "{ " + ", ".join(ty for ty, _ in PARAMS) + " }"


def _params(values: dict[str, str] | None = None, noalias: bool = False) -> str:
    """The parameter list (`noalias` on the pointers) or, given `values`, the argument
    list of a call with some of the parameters replaced."""
    values = values or {}
    return ", ".join(
        f"{ty} {'noalias ' if noalias and ty == 'ptr' else ''}{values.get(name, name)}" for ty, name in PARAMS
    )


def _sgemm(s: KernelShape, name: str, linkage: str = "") -> str:
    """The single-thread blocked GEMM under the public signature."""
    e = _Emitter()
    kc_max = e.min("%K", s.kc)
    raw_a, ap = _aligned_buffer(e, e.mul(_round_up(e, e.min("%M", s.mc), s.mr), kc_max))
    raw_b, bp = _aligned_buffer(e, e.mul(_round_up(e, e.min("%N", s.nc), s.nr), kc_max))
    with e.loop(0, "%N", s.nc, hint="jc") as jc:
        nc = e.min(s.nc, e.value(f"sub i64 %N, {jc}"))
        with e.loop(0, "%K", s.kc, hint="pc") as pc:
            kc = e.min(s.kc, e.value(f"sub i64 %K, {pc}"))
            b_block = e.gep("%B", e.add(e.mul(pc, "%ldb_row"), e.mul(jc, "%ldb_col")))
            _pack(e, bp, b_block, s.nr, nc, kc, "%ldb_row", "%ldb_col")
            with e.loop(0, "%M", s.mc, hint="ic") as ic:
                mc = e.min(s.mc, e.value(f"sub i64 %M, {ic}"))
                a_block = e.gep("%A", e.add(e.mul(ic, "%lda_row"), e.mul(pc, "%lda_col")))
                _pack(e, ap, a_block, s.mr, mc, kc, "%lda_col", "%lda_row")
                with e.loop(0, nc, s.nr, hint="jr") as jr:
                    n = e.min(s.nr, e.value(f"sub i64 {nc}, {jr}"))
                    b_panel = e.gep(bp, e.mul(jr, kc))
                    c_cols = e.gep("%C", e.add(jc, jr))
                    with e.loop(0, mc, s.mr, hint="ir") as ir:
                        m = e.min(s.mr, e.value(f"sub i64 {mc}, {ir}"))
                        a_panel = e.gep(ap, e.mul(ir, kc))
                        c_tile = e.gep(c_cols, e.mul(e.add(ic, ir), "%ldc"))
                        e.emit(
                            f"call void @{MICRO_KERNEL}(i64 {kc}, ptr {a_panel}, ptr {b_panel}, ptr {c_tile}, "
                            f"i64 %ldc, i64 {m}, i64 {n})"
                        )
    e.emit(f"call void @free(ptr {raw_a})")
    e.emit(f"call void @free(ptr {raw_b})")
    return e.function(f"{linkage}void @{name}({_params(noalias=True)}) nounwind")


def _worker(s: KernelShape) -> str:
    """One thread's share: the arguments from the struct at %data, then the columns
    [j0, j1) of C, j0 = tid * chunk with chunk = ceil(N / nthreads) rounded up to NR
    (whole micro-tiles per thread), through the single-thread code with packing
    buffers of its own. The team's actual size is asked for (libgomp may give fewer
    threads than requested), so the ranges always cover N."""
    e = _Emitter()
    for field, (ty, name) in enumerate(PARAMS):
        at = e.value(f"getelementptr inbounds {ARGS_TYPE}, ptr %data, i32 0, i32 {field}", "p")
        e.emit(f"{name} = load {ty}, ptr {at}, align 8")
    tid = e.value(f"sext i32 {e.value('call i32 @omp_get_thread_num()')} to i64")
    team = e.value(f"sext i32 {e.value('call i32 @omp_get_num_threads()')} to i64")
    share = e.value(f"sdiv i64 {e.add('%N', e.add(team, -1))}, {team}")
    chunk = _round_up(e, share, s.nr)
    j0 = e.min(e.mul(tid, chunk), "%N")
    width = e.value(f"sub i64 {e.min(e.add(j0, chunk), '%N')}, {j0}")
    some = e.value(f"icmp sgt i64 {width}, 0")
    e.emit(f"br i1 {some}, label %run, label %done")
    e.label("run")
    b = e.gep("%B", e.mul(j0, "%ldb_col"))
    c = e.gep("%C", j0)
    e.emit(f"call void @{SERIAL}({_params({'%N': width, '%B': b, '%C': c})})")
    e.emit("br label %done")
    e.label("done")
    return e.function(f"internal void @{WORKER}(ptr %data) nounwind")


def _dispatch() -> str:
    """`xla_opt_sgemm`: the columns of C split over `THREADS` threads (libgomp's
    `GOMP_parallel` runs the worker on each) when there is more than one and the
    product has at least PARALLEL_MIN_WORK multiply-adds (below that, ~100 us, waking
    a team costs more than it saves); otherwise the single-thread code directly."""
    e = _Emitter()
    threads = e.value(f"load atomic i32, ptr @{THREADS} monotonic, align 4")
    many = e.value(f"icmp sgt i32 {threads}, 1")
    work = e.mul(e.mul("%M", "%N"), "%K")
    big = e.value(f"icmp sge i64 {work}, {PARALLEL_MIN_WORK}")
    e.emit(f"br i1 {e.value(f'and i1 {many}, {big}')}, label %parallel, label %serial")
    e.label("parallel")
    args = e.value(f"alloca {ARGS_TYPE}, align 8")
    for field, (ty, name) in enumerate(PARAMS):
        at = e.value(f"getelementptr inbounds {ARGS_TYPE}, ptr {args}, i32 0, i32 {field}", "p")
        e.emit(f"store {ty} {name}, ptr {at}, align 8")
    e.emit(f"call void @GOMP_parallel(ptr @{WORKER}, ptr {args}, i32 {threads}, i32 0)")
    e.emit("ret void")
    e.label("serial")
    e.emit(f"call void @{SERIAL}({_params()})")
    return e.function(f"void @{SYMBOL}({_params(noalias=True)}) nounwind")


def _threads_setter() -> str:
    return "\n".join(
        [
            f"@{THREADS} = internal global i32 1, align 4",
            f"define void @{SET_THREADS}(i32 %n) nounwind {{",
            "entry:",
            f"  store atomic i32 %n, ptr @{THREADS} monotonic, align 4",
            "  ret void",
            "}",
        ]
    )


def sgemm_ir(s: KernelShape, parallel: bool = False) -> str:
    """The LLVM IR module defining `xla_opt_sgemm` for kernel shape `s`: single-thread,
    or (`parallel`, libgomp loaded) the multi-thread dispatch with its thread count set
    through `xla_opt_sgemm_set_threads` (1 until then)."""
    vec = f"<{s.vw} x float>"
    common = ["declare ptr @malloc(i64)\ndeclare void @free(ptr)", f"declare {vec} @{s.fma}.v{s.vw}f32({vec}, {vec}, {vec})", _micro_kernel(s)]
    if not parallel:
        return "\n\n".join([*common, _sgemm(s, SYMBOL), ""])
    gomp = "declare void @GOMP_parallel(ptr, ptr, i32, i32)\ndeclare i32 @omp_get_thread_num()\ndeclare i32 @omp_get_num_threads()"
    return "\n\n".join([*common, gomp, _threads_setter(), _sgemm(s, SERIAL, "internal "), _worker(s), _dispatch(), ""])
