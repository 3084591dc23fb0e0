"""`xla_opt_sconv_columns`, `xla_opt_sconv_rows`: a 2-D f32 convolution as an implicit
GEMM on the GEMM's blocking, micro-kernel and threading (`gemm.py`), emitted as LLVM
IR text, one kernel (and library) per `side`.

    void xla_opt_sconv_<side>(i64 images, i64 groups, i64 side, i64 M, i64 N, i64 K,
                       float* W, i64 w_o, i64 w_k, i64 w_group,
                       float* X, i64 x_image, i64 x_group,
                       i64 H, i64 Wd, i64 sH, i64 sW, i64 padH, i64 padW,
                       i64 x_e1, i64 x_e2, i64 x_s0, i64 x_s1, i64 x_s2,
                       i64 x_h0, i64 x_h1, i64 x_h2, i64 x_w0, i64 x_w1, i64 x_w2,
                       i64 e1, i64 e2, i64 s0, i64 s1, i64 s2,
                       i64 h0, i64 h1, i64 h2, i64 w0, i64 w1, i64 w2,
                       float* C, i64 ldc, i64 c_image, i64 c_group, i64 flags)

For each of `images` x `groups` sub-problems (the input at X + image * x_image +
group * x_group, the kernel at W + group * w_group, the output at C + image * c_image +
group * c_group) it adds one product of the kernel matrix, element (o, k) at
W[o * w_o + k * w_k], and the im2col matrix of the input windows, element (k, x):

* x, a window (an output position), is (x0, x1, x2) in row-major order with extents
  (*, x_e1, x_e2), each component with its input stride x_s_i and its steps, x_h_i rows
  and x_w_i columns (a batch folded into the windows: x_h_i = x_w_i = 0; an output row:
  x_h_i = the stride; ...): the window's first input position is (sum x_i x_h_i - padH,
  sum x_i x_w_i - padW). The digits are in the order in which the output lays the
  windows out: (batch, row, column) for NHWC and NCHW, (row, column, batch) for a weight
  gradient, whose "batch" is the input features, written between the window and the
  output features (`[0, 1, b, f]`);
* k, a position in the window, is (k0, k1, k2) in row-major order with extents
  (K / (e1 * e2), e1, e2), each component with its input stride s_i and its steps in
  the window, h_i rows and w_i columns (an input feature: h_i = w_i = 0; a kernel row:
  h_i = rhs dilation; ...), in the order in which the kernel lays k out (w_k apart);
* the element is X[x's offset + k's offset] at input position (row sum, column sum),
  and 0 outside [0, H) x [0, Wd) (sH, sW: the input's row and column strides): the
  padding is never materialized.

`side` 0 (`_columns`): C (M x N, row stride ldc) += kernel (M = output features) @ im2col
(N = windows): output features are rows, windows contiguous columns (NCHW). `side` 1
(`_rows`): C (M x N) += im2col^T (M = windows) @ kernel^T (N = output features): windows are rows,
features contiguous columns (NHWC). So any layout is strides; C's rows are ldc apart.
Each kernel has one side's blocked loops and packing (a kernel of both was twice the
code to compile: 0.81 s with an empty disk cache, 0.44 s for one); its `side`
parameter says which it is and is not read.
`flags` is the GEMM's (gemm.py): OVERWRITE makes each product C = instead of C +=
(the caller's zero fill dropped); the epilogue flags are not used here.

The windows' packing (`Windows`) fills two small tables first, one offset, input row
and column (and innermost digit) per window of the block and one offset, row and column
per window position of the depth slice, with mixed-radix counters (no division per
element); then a panel row is a vector add of the two, an unsigned range compare
(negative positions wrap above the bound) and a masked gather: positions in the padding
are not loaded and pack as 0. Where consecutive windows read consecutive inputs (x_s2 = 1:
an NCHW row at stride 1, a weight gradient's input features), a chunk of a panel row is
one or two masked vector loads; where consecutive window positions do (s2 = 1: an NHWC
input's features, in runs of a multiple of 8), each window's part of a run is one
vector load (from the input, or from zeros outside it) and 8 rows of the panel a
transposition of the panel's loads.

Where windows are the rows (`side` 1) and each window position's features are a run of
at least INDIRECT_MIN_RUN consecutive inputs (an NHWC input), the windows are not packed
at all: `Windows.point` writes one pointer per window and run (to the input, or to zeros
in the padding), and the GEMM's indirect micro-kernel reads the rows where they lie
(XNNPACK's indirect GEMM). The pointers take less room than the floats they replace
(runs of at least 2), so they go in A's packing buffer.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from xla_opt.lowering.kernels.gemm import (
    Emitter,
    Entry,
    Gemm,
    KernelShape,
    Strided,
    aligned_buffer,
    blocked_loops,
    depth_step,
    free_buffers,
    packing_buffers,
)

SYMBOL = "xla_opt_sconv"
# On the widest tile the host has (AVX-512's 8 x 32 where it is): an NHWC 3x3
# convolution, 8 x 32 x 32 x 32 -> 64 features, ran at 70 instead of 52 GMAC/s on one
# thread (Zen 4), with the packing's vectors kept at 8 floats (`_lanes`).
WIDE = True
INVALID_ROW = -(1 << 30)  # a table row past the block: every window position outside

# The public signature, in order (also the worker's argument struct).
PARAMS = [
    ("i64", "%images"), ("i64", "%groups"), ("i64", "%side"),
    ("i64", "%M"), ("i64", "%N"), ("i64", "%K"),
    ("ptr", "%W"), ("i64", "%w_o"), ("i64", "%w_k"), ("i64", "%w_group"),
    ("ptr", "%X"), ("i64", "%x_image"), ("i64", "%x_group"),
    ("i64", "%H"), ("i64", "%Wd"), ("i64", "%sH"), ("i64", "%sW"), ("i64", "%padH"), ("i64", "%padW"),
    ("i64", "%x_e1"), ("i64", "%x_e2"), ("i64", "%x_s0"), ("i64", "%x_s1"), ("i64", "%x_s2"),
    ("i64", "%x_h0"), ("i64", "%x_h1"), ("i64", "%x_h2"), ("i64", "%x_w0"), ("i64", "%x_w1"), ("i64", "%x_w2"),
    ("i64", "%e1"), ("i64", "%e2"), ("i64", "%s0"), ("i64", "%s1"), ("i64", "%s2"),
    ("i64", "%h0"), ("i64", "%h1"), ("i64", "%h2"), ("i64", "%w0"), ("i64", "%w1"), ("i64", "%w2"),
    ("ptr", "%C"), ("i64", "%ldc"), ("i64", "%c_image"), ("i64", "%c_group"), ("i64", "%flags"),
]  # fmt: skip


def _counter(e: Emitter, start: str, middle: str, inner: str) -> list[str]:
    """Variables (outer, mid, in) = `start` in mixed radix (*, middle, inner)."""
    quotient = e.value(f"sdiv i64 {start}, {inner}")
    low = e.value(f"srem i64 {start}, {inner}")
    return [
        e.variable("i64", e.value(f"sdiv i64 {quotient}, {middle}")),
        e.variable("i64", e.value(f"srem i64 {quotient}, {middle}")),
        e.variable("i64", low),
    ]


def _store_i32(e: Emitter, value: str, table: str, at: str) -> None:
    narrow = e.value(f"trunc i64 {value} to i32")
    e.emit(f"store i32 {narrow}, ptr {e.gep(table, at, 'i32')}, align 4")


def _dot3(e: Emitter, digits: list[str], weights: tuple[str, str, str]) -> str:
    terms = [e.mul(d, w) for d, w in zip(digits, weights, strict=True)]
    return e.add(e.add(terms[0], terms[1]), terms[2])


def _splat(e: Emitter, scalar: str, width: int) -> str:
    one = e.value(f"insertelement <{width} x i32> poison, i32 {scalar}, i64 0")
    return e.value(f"shufflevector <{width} x i32> {one}, <{width} x i32> poison, <{width} x i32> zeroinitializer")


def _joined(e: Emitter, vectors: list[str], lanes: int) -> tuple[str, int]:
    """The `vectors` (each `lanes` floats) end to end in one vector, by halving pairs (an
    odd one out paired with poison): (the vector, its lane count); vector i's lanes are
    [i * lanes, (i + 1) * lanes)."""
    while len(vectors) > 1:
        if len(vectors) % 2:
            vectors = [*vectors, "poison"]
        mask = ", ".join(f"i32 {i}" for i in range(2 * lanes))
        vectors = [
            e.value(f"shufflevector <{lanes} x float> {a}, <{lanes} x float> {b}, <{2 * lanes} x i32> <{mask}>")
            for a, b in zip(vectors[::2], vectors[1::2], strict=True)
        ]
        lanes *= 2
    return vectors[0], lanes


def _fill_once(
    e: Emitter,
    key: list[str],
    wanted: list[str],
    count: str,
    start: str,
    extents: tuple[str, str],
    prefix: str,
    fill,
    hint: str,
) -> None:
    """Table rows [0, count) for the mixed-radix positions start, start + 1, ... of
    extents (*, e1, e2), unless the table already holds them (its `key` variables equal
    `wanted`: the A block of the next rows, the next image, a depth slice packed again):
    `fill(t, (offset, rows, columns), innermost digit)` writes row t. The sums are kept
    up to date by adding each step's change (which digits carry), not recomputed."""
    same = e.value("icmp eq i64 0, 0")
    for slot, value in zip(key, wanted, strict=True):
        held = e.value(f"load i64, ptr {slot}, align 8")
        same = e.value(f"and i1 {same}, {e.value(f'icmp eq i64 {held}, {value}')}")
    filling, filled = e.new_label("fill"), e.new_label("filled")
    e.emit(f"br i1 {same}, label %{filled}, label %{filling}")
    e.label(filling)
    e1, e2 = extents
    weights = [[f"%{prefix}{name}{i}" for i in range(3)] for name in "shw"]
    digits = _counter(e, start, e1, e2)
    first = [e.value(f"load i64, ptr {d}, align 8") for d in digits]
    sums = [e.variable("i64", _dot3(e, first, tuple(w))) for w in weights]  # type: ignore[arg-type]
    # a step adds w2 to each sum; a carry out of digit 2 adds w1 - (e2 - 1) w2 instead, and
    # one out of digit 1 too w0 - (e1 - 1) w1 - (e2 - 1) w2
    back2, back1 = e.add(e2, -1), e.add(e1, -1)
    steps = []
    for w0, w1, w2 in weights:
        carry2 = e.value(f"sub i64 {w1}, {e.mul(back2, w2)}")
        steps.append((w2, carry2, e.value(f"sub i64 {w0}, {e.add(e.mul(back1, w1), e.mul(back2, w2))}")))
    low, mid = e.variable("i64", first[2]), e.variable("i64", first[1])
    with e.loop(0, count, hint=hint) as t:
        values = [e.value(f"load i64, ptr {v}, align 8") for v in sums]
        inner = e.value(f"load i64, ptr {low}, align 8")
        fill(t, values, inner)
        low1 = e.add(inner, 1)
        carry = e.value(f"icmp eq i64 {low1}, {e2}")
        mid1 = e.add(e.value(f"load i64, ptr {mid}, align 8"), e.value(f"zext i1 {carry} to i64"))
        carry_out = e.value(f"icmp eq i64 {mid1}, {e1}")
        e.emit(f"store i64 {e.value(f'select i1 {carry}, i64 0, i64 {low1}')}, ptr {low}, align 8")
        e.emit(f"store i64 {e.value(f'select i1 {carry_out}, i64 0, i64 {mid1}')}, ptr {mid}, align 8")
        for v, value, (plain, once, twice) in zip(sums, values, steps, strict=True):
            step = e.value(
                f"select i1 {carry_out}, i64 {twice}, i64 {e.value(f'select i1 {carry}, i64 {once}, i64 {plain}')}"
            )
            e.emit(f"store i64 {e.add(value, step)}, ptr {v}, align 8")
    for slot, value in zip(key, wanted, strict=True):
        e.emit(f"store i64 {value}, ptr {slot}, align 8")
    e.emit(f"br label %{filled}")
    e.label(filled)


@dataclass(frozen=True)
class Windows:
    """The im2col operand: element (p, x) = window position p of window x (module doc),
    read from the input at `base`; `x_table` holds 4 x `x_room` i32 (offset, first row,
    first column and innermost digit per window), `p_table` 3 x KC i32 (offset, rows,
    columns per window position); vectors of at most `lanes` floats; `zeros`, KC zeros
    (what a depth run outside the input reads); `x_key` and `p_key`, what each table
    holds (its first position and count: the next pack of the same rows or depth slice
    does not fill it again); `run` (the A operand of `side` 1 only), an i64: where it is
    not 0, the windows' rows are read in place through row pointers instead of packed
    (`point`, `Gemm.a_run`)."""

    base: str
    x_table: str
    x_room: int
    p_table: str
    kc: int
    lanes: int
    zeros: str
    x_key: list[str]
    p_key: list[str]
    run: str | None = None

    def tables(self, e: Emitter, width: int, x0: str, count: str, p0: str, depth: str) -> tuple[list[str], list[str]]:
        """The tables of windows [x0, x0 + count) (rounded up to whole panels of `width`;
        past count, rows outside the input) and of window positions [p0, p0 + depth),
        filled unless they hold them already: (offset, first row, first column,
        innermost digit) tables of the windows, (offset, rows, columns) of the
        positions."""
        room = e.mul(e.value(f"sdiv i64 {e.add(count, width - 1)}, {width}"), width)
        x_off, x_row, x_col, x_inner = (e.gep(self.x_table, i * self.x_room, "i32") for i in range(4))
        p_off, p_row, p_col = (e.gep(self.p_table, i * self.kc, "i32") for i in range(3))
        origin = e.value(f"sub i64 0, {e.add(e.mul('%padH', '%sH'), e.mul('%padW', '%sW'))}")

        def fill_x(t: str, values: list[str], digit: str) -> None:
            off, row, col = values
            inside = e.value(f"icmp slt i64 {t}, {count}")
            _store_i32(e, e.add(off, origin), x_off, t)
            _store_i32(
                e, e.value(f"select i1 {inside}, i64 {e.value(f'sub i64 {row}, %padH')}, i64 {INVALID_ROW}"), x_row, t
            )
            _store_i32(e, e.value(f"sub i64 {col}, %padW"), x_col, t)
            _store_i32(e, digit, x_inner, t)

        def fill_p(t: str, values: list[str], _digit: str) -> None:
            for table, value in zip((p_off, p_row, p_col), values, strict=True):
                _store_i32(e, value, table, t)

        _fill_once(e, self.x_key, [x0, count], room, x0, ("%x_e1", "%x_e2"), "x_", fill_x, "x")
        _fill_once(e, self.p_key, [p0, depth], depth, p0, ("%e1", "%e2"), "", fill_p, "k")
        return [x_off, x_row, x_col, x_inner], [p_off, p_row, p_col]

    def pack(self, e: Emitter, dst: str, width: int, x0: str, count: str, p0: str, depth: str) -> None:
        x_tables, p_tables = self.tables(e, width, x0, count, p0, depth)
        if self.run is None:
            self._pack(e, dst, width, count, p0, depth, x_tables, p_tables)
            return
        pointed, packed, done = e.new_label("pointed"), e.new_label("packing"), e.new_label("pointed_or_packed")
        e.emit(f"br i1 {e.value(f'icmp ne i64 {self.run}, 0')}, label %{pointed}, label %{packed}")
        e.label(pointed)
        self.point(e, dst, width, count, depth, x_tables, p_tables)
        e.emit(f"br label %{done}")
        e.label(packed)
        self._pack(e, dst, width, count, p0, depth, x_tables, p_tables)
        e.emit(f"br label %{done}")
        e.label(done)

    def _pack(
        self,
        e: Emitter,
        dst: str,
        width: int,
        count: str,
        p0: str,
        depth: str,
        x_tables: list[str],
        p_tables: list[str],
    ) -> None:
        """The packed panels (module doc)."""
        (x_off, x_row, x_col, x_inner), (p_off, p_row, p_col) = x_tables, p_tables
        # The panel's lanes in vectors of at most `lanes` (a register each): their masks
        # stay compare results, never packed into one wide <width x i1>.
        chunks = [(a, min(self.lanes, width - a)) for a in range(0, width, self.lanes)]
        height = e.value("trunc i64 %H to i32")
        breadth = e.value("trunc i64 %Wd to i32")
        contiguous = e.value("icmp eq i64 %x_s2, 1")
        runs = e.value(f"and i1 {contiguous}, {e.value(f'icmp sge i64 %x_e2, {chunks[0][1]}')}")
        # Depth positions in runs of `lanes` consecutive inputs (an NHWC input's features,
        # the depth's innermost digit, a multiple of `lanes` of them, and the slice on
        # that grid): each window's run is one vector, the panel's a transposition.
        lines_of = self.lanes
        on_grid = [e.value(f"icmp eq i64 {e.value(f'srem i64 {v}, {lines_of}')}, 0") for v in ("%e2", p0, depth)]
        deep = e.value("icmp eq i64 %s2, 1")
        for condition in on_grid:
            deep = e.value(f"and i1 {deep}, {condition}")
        with e.loop(0, count, width, hint="panel") as xs:
            windows = [
                [e.value(f"load <{n} x i32>, ptr {e.gep(table, e.add(xs, a), 'i32')}, align 4") for a, n in chunks]
                for table in (x_off, x_row, x_col)
            ]
            panel = e.gep(dst, e.mul(xs, depth))

            def row(p: str) -> tuple[str, list[str]]:
                """Row p of the panel: the window position's offset, and per chunk which
                lanes are inside the input."""
                offset, rows, cols = (
                    e.value(f"load i32, ptr {e.gep(table, p, 'i32')}, align 4") for table in (p_off, p_row, p_col)
                )
                masks = []
                for (_, n), ih0, iw0 in zip(chunks, windows[1], windows[2], strict=True):
                    ih = e.value(f"add <{n} x i32> {ih0}, {_splat(e, rows, n)}")
                    iw = e.value(f"add <{n} x i32> {iw0}, {_splat(e, cols, n)}")
                    row_ok = e.value(f"icmp ult <{n} x i32> {ih}, {_splat(e, height, n)}")
                    col_ok = e.value(f"icmp ult <{n} x i32> {iw}, {_splat(e, breadth, n)}")
                    masks.append(e.value(f"and <{n} x i1> {row_ok}, {col_ok}"))
                return offset, masks

            def masked_load(offset: str, n: int, mask: str) -> str:
                # no `inbounds`: a masked-off lane's address may be outside the input
                at = e.value(f"getelementptr float, ptr {self.base}, i32 {offset}", "p")
                return e.value(
                    f"call <{n} x float> @llvm.masked.load.v{n}f32.p0(ptr {at}, i32 4, <{n} x i1> {mask}, "
                    f"<{n} x float> zeroinitializer)"
                )

            fast, slow, done = (
                e.new_label("runs"),
                e.new_label("lanes"),
                e.new_label("packed"),
            )
            lines, not_runs = e.new_label("lines"), e.new_label("not_runs")
            e.emit(f"br i1 {runs}, label %{fast}, label %{not_runs}")
            e.label(not_runs)
            e.emit(f"br i1 {deep}, label %{lines}, label %{slow}")
            # Consecutive windows of a run (the innermost digit's) read consecutive inputs:
            # a chunk of at most two runs (any chunk, when runs are at least a chunk long)
            # is masked vector loads, its lanes [0, r) from its first run and the rest
            # from the next one.
            e.label(fast)
            runs_of = []  # per chunk: where its two runs start (as offsets of the panel's lane 0), its lanes in the first
            rest = []  # per chunk: the windows from its first lane to the end of that lane's run
            for c, (a, n) in enumerate(chunks):
                first = e.value(f"load i32, ptr {e.gep(x_inner, e.add(xs, a), 'i32')}, align 4")
                rest.append(e.value(f"sub i64 %x_e2, {e.value(f'sext i32 {first} to i64')}"))
                r_c = e.min(n, rest[c])
                second = e.add(e.value(f"select i1 {e.value(f'icmp slt i64 {r_c}, {n}')}, i64 {r_c}, i64 0"), a)
                start_b = e.value(f"load i32, ptr {e.gep(x_off, e.add(xs, second), 'i32')}, align 4")
                off_b = e.value(f"sub i32 {start_b}, {e.value(f'trunc i64 {second} to i32')}")
                start_a = e.value(f"extractelement <{n} x i32> {windows[0][c]}, i64 0")
                off_a_c = e.value(f"sub i32 {start_a}, {a}")
                iota = "<" + ", ".join(f"i32 {i}" for i in range(n)) + ">"
                low = e.value(f"icmp ult <{n} x i32> {iota}, {_splat(e, e.value(f'trunc i64 {r_c} to i32'), n)}")
                runs_of.append((off_a_c, off_b, low))
            r = e.min(width, rest[0])  # the whole panel's, for the one-run case
            off_a = runs_of[0][0]  # chunk 0 starts at lane 0
            # A panel inside one run (most, for long runs) is one masked load per chunk;
            # one across two runs, two and a select.
            one, two = e.new_label("one"), e.new_label("two")
            e.emit(f"br i1 {e.value(f'icmp eq i64 {r}, {width}')}, label %{one}, label %{two}")
            e.label(one)
            with e.loop(0, depth, hint="p") as p:
                offset, masks = row(p)
                at_a = e.value(f"add i32 {off_a}, {offset}")
                out = e.gep(panel, e.mul(p, width))
                for (a, n), mask in zip(chunks, masks, strict=True):
                    loaded = masked_load(e.value(f"add i32 {at_a}, {a}"), n, mask)
                    e.emit(f"store <{n} x float> {loaded}, ptr {e.gep(out, a)}, align 4")
            e.emit(f"br label %{done}")
            e.label(two)
            with e.loop(0, depth, hint="p") as p:
                offset, masks = row(p)
                out = e.gep(panel, e.mul(p, width))
                for (a, n), mask, (off_a_c, off_b, low) in zip(chunks, masks, runs_of, strict=True):
                    at_a = e.value(f"add i32 {off_a_c}, {offset}")
                    at_b = e.value(f"add i32 {off_b}, {offset}")
                    high = e.value(f"xor <{n} x i1> {low}, <{', '.join(['i1 true'] * n)}>")
                    from_a = masked_load(
                        e.value(f"add i32 {at_a}, {a}"),
                        n,
                        e.value(f"and <{n} x i1> {mask}, {low}"),
                    )
                    from_b = masked_load(
                        e.value(f"add i32 {at_b}, {a}"),
                        n,
                        e.value(f"and <{n} x i1> {mask}, {high}"),
                    )
                    loaded = e.value(f"select <{n} x i1> {low}, <{n} x float> {from_a}, <{n} x float> {from_b}")
                    e.emit(f"store <{n} x float> {loaded}, ptr {e.gep(out, a)}, align 4")
            e.emit(f"br label %{done}")
            # Depth runs: at the start of each run (and of the slice) each window gets a
            # pointer, to its run in the input or, outside the input, to `zeros`; then
            # per `lines_of` rows of the panel each window's part of its run is one
            # vector load, and the `width` loads, transposed, are the rows' `width` x
            # `lines_of` consecutive values.
            e.label(lines)
            lane_tables = [
                [
                    e.value(f"extractelement <{n} x i32> {vector}, i64 {i}")
                    for (_, n), vector in zip(chunks, table, strict=True)
                    for i in range(n)
                ]
                for table in windows
            ]
            pointers = [e.variable("ptr", "null") for _ in range(width)]
            left = e.variable("i64", e.value(f"sub i64 %e2, {e.value(f'srem i64 {p0}, %e2')}"))
            with e.loop(0, depth, lines_of, hint="p") as p:
                remaining = e.value(f"load i64, ptr {left}, align 8")
                first = e.value(f"icmp eq i64 {p}, 0")
                ended = e.value(f"icmp eq i64 {remaining}, 0")
                setup, rows_of_run = e.new_label("run"), e.new_label("in_run")
                e.emit(f"br i1 {e.value(f'or i1 {first}, {ended}')}, label %{setup}, label %{rows_of_run}")
                e.label(setup)
                offset, rows, cols = (
                    e.value(f"load i32, ptr {e.gep(table, p, 'i32')}, align 4") for table in (p_off, p_row, p_col)
                )
                back = e.value(f"sub i64 0, {p}")  # the pointers are for row p = 0 of the panel
                nowhere = e.gep(self.zeros, back)
                for pointer, lane_off, lane_row, lane_col in zip(pointers, *lane_tables, strict=True):
                    row_ok = e.value(f"icmp ult i32 {e.value(f'add i32 {lane_row}, {rows}')}, {height}")
                    col_ok = e.value(f"icmp ult i32 {e.value(f'add i32 {lane_col}, {cols}')}, {breadth}")
                    at = e.value(f"sext i32 {e.value(f'add i32 {lane_off}, {offset}')} to i64")
                    # no `inbounds`: outside the input the address is never read
                    run = e.value(f"getelementptr float, ptr {self.base}, i64 {e.add(at, back)}", "p")
                    inside = e.value(f"and i1 {row_ok}, {col_ok}")
                    e.emit(
                        f"store ptr {e.value(f'select i1 {inside}, ptr {run}, ptr {nowhere}')}, ptr {pointer}, align 8"
                    )
                e.emit(f"store i64 {e.value(f'select i1 {ended}, i64 %e2, i64 {remaining}')}, ptr {left}, align 8")
                e.emit(f"br label %{rows_of_run}")
                e.label(rows_of_run)
                e.emit(f"store i64 {e.add(e.value(f'load i64, ptr {left}, align 8'), -lines_of)}, ptr {left}, align 8")
                loaded = []
                for pointer in pointers:
                    here = e.value(
                        f"getelementptr float, ptr {e.value(f'load ptr, ptr {pointer}, align 8')}, i64 {p}", "p"
                    )
                    loaded.append(e.value(f"load <{lines_of} x float>, ptr {here}, align 4"))
                joined, total = _joined(e, loaded, lines_of)
                # row r of the block, lane x: element r of lane x's run
                order = ", ".join(f"i32 {(f % width) * lines_of + f // width}" for f in range(width * lines_of))
                block = e.value(
                    f"shufflevector <{total} x float> {joined}, <{total} x float> poison, <{width * lines_of} x i32> <{order}>"
                )
                e.emit(f"store <{width * lines_of} x float> {block}, ptr {e.gep(panel, e.mul(p, width))}, align 4")
            e.emit(f"br label %{done}")
            # Otherwise lane by lane, each load at offset 0 where the lane is outside
            # (branch-free; CPUs without fast gathers scalarize a masked gather into
            # branches anyway).
            e.label(slow)
            with e.loop(0, depth, hint="p") as p:
                offset, masks = row(p)
                out = e.gep(panel, e.mul(p, width))
                for (a, n), offs, mask in zip(chunks, windows[0], masks, strict=True):
                    where = e.value(f"add <{n} x i32> {offs}, {_splat(e, offset, n)}")
                    safe = e.value(f"select <{n} x i1> {mask}, <{n} x i32> {where}, <{n} x i32> zeroinitializer")
                    for i in range(n):
                        lane = e.value(f"extractelement <{n} x i32> {safe}, i64 {i}")
                        loaded = e.value(
                            f"load float, ptr {e.value(f'getelementptr float, ptr {self.base}, i32 {lane}', 'p')}, align 4"
                        )
                        inside = e.value(f"extractelement <{n} x i1> {mask}, i64 {i}")
                        value = e.value(f"select i1 {inside}, float {loaded}, float 0.0")
                        e.emit(f"store float {value}, ptr {e.gep(out, a + i)}, align 4")
            e.emit(f"br label %{done}")
            e.label(done)

    def point(
        self, e: Emitter, dst: str, width: int, count: str, depth: str, x_tables: list[str], p_tables: list[str]
    ) -> None:
        """The operand as row pointers for the indirect micro-kernel (`Gemm.a_run`):
        where a window position's `run` consecutive depth positions are consecutive
        inputs inside or outside the input together (an NHWC input's features), window
        x's row is read where it lies, at one pointer per run: to the input, or to
        `zeros` in the padding and past the block's windows. Nothing is copied: per
        panel of `width` windows and run g of the slice, `width` pointers at dst + (x /
        width * depth / run + g) * width (`_micro_tiles`), not width x run packed floats
        (an NHWC 3x3 convolution, 8 x 32 x 32 x 64 -> 64 features on the Xeon: the
        packing was 13% of its time)."""
        (x_off, x_row, x_col, _), (p_off, p_row, p_col) = x_tables, p_tables
        groups = e.value(f"sdiv i64 {depth}, {self.run}")
        height = _splat(e, e.value("trunc i64 %H to i32"), width)
        breadth = _splat(e, e.value("trunc i64 %Wd to i32"), width)
        nowhere = e.value(f"insertelement <{width} x ptr> poison, ptr {self.zeros}, i64 0")
        nowhere = e.value(
            f"shufflevector <{width} x ptr> {nowhere}, <{width} x ptr> poison, <{width} x i32> zeroinitializer"
        )
        with e.loop(0, count, width, hint="panel") as xs:
            offs, rows0, cols0 = (
                e.value(f"load <{width} x i32>, ptr {e.gep(table, xs, 'i32')}, align 4")
                for table in (x_off, x_row, x_col)
            )
            panel = e.value(f"getelementptr inbounds ptr, ptr {dst}, i64 {e.mul(xs, groups)}", "p")
            with e.loop(0, groups, hint="g") as g:
                p = e.mul(g, self.run)
                offset, rows, cols = (
                    e.value(f"load i32, ptr {e.gep(table, p, 'i32')}, align 4") for table in (p_off, p_row, p_col)
                )
                row_ok = e.value(
                    f"icmp ult <{width} x i32> {e.value(f'add <{width} x i32> {rows0}, {_splat(e, rows, width)}')}, {height}"
                )
                col_ok = e.value(
                    f"icmp ult <{width} x i32> {e.value(f'add <{width} x i32> {cols0}, {_splat(e, cols, width)}')}, {breadth}"
                )
                at = e.value(
                    f"sext <{width} x i32> {e.value(f'add <{width} x i32> {offs}, {_splat(e, offset, width)}')} to <{width} x i64>"
                )
                # no `inbounds`: outside the input the address is never read
                there = e.value(f"getelementptr float, ptr {self.base}, <{width} x i64> {at}", "p")
                inside = e.value(f"and <{width} x i1> {row_ok}, {col_ok}")
                pointers = e.value(
                    f"select <{width} x i1> {inside}, <{width} x ptr> {there}, <{width} x ptr> {nowhere}"
                )
                out = e.value(f"getelementptr inbounds ptr, ptr {panel}, i64 {e.mul(g, width)}", "p")
                e.emit(f"store <{width} x ptr> {pointers}, ptr {out}, align 8")


# The shortest run of consecutive depth positions read through row pointers: per run the
# indirect micro-kernel reloads MR pointers. NHWC 3x3 convolutions 8 x 32 x 32 x C -> 64
# on one thread of the Xeon, packed -> pointed: C = 8 0.60 -> 0.49 ms, 16 0.93 -> 0.85,
# 32 2.02 -> 1.81 (and 8 x 16 x 16 x 64 -> 128 1.77 -> 1.63). Shorter runs (4 features,
# 2) are packed as before, unmeasured.
INDIRECT_MIN_RUN = 8


def _indirect_run(e: Emitter, s: KernelShape) -> str:
    """The run the windows' rows are read in place at (`Windows.point`), 0 where they are
    packed: the largest power of two dividing both the innermost window-position
    digit's extent and the depth slices' depth, where that digit steps through
    consecutive inputs without moving the window (s2 = 1, h2 = w2 = 0: an NHWC input's
    features) and that power is at least INDIRECT_MIN_RUN. Every slice then starts on
    a run (slices are multiples of the step; the last one ends with K, a multiple of
    e2)."""
    both = e.value(f"or i64 %e2, {depth_step(e, s, '%K')}")
    run = e.value(f"shl i64 1, {e.value(f'call i64 @llvm.cttz.i64(i64 {both}, i1 true)')}")
    ok = e.value("icmp eq i64 %s2, 1")
    for condition in ("icmp eq i64 %h2, 0", "icmp eq i64 %w2, 0", f"icmp sge i64 {run}, {INDIRECT_MIN_RUN}"):
        ok = e.value(f"and i1 {ok}, {e.value(condition)}")
    return e.value(f"select i1 {ok}, i64 {run}, i64 0")


def _serial(e: Emitter, s: KernelShape, side: int) -> None:
    """Each (image, group) sub-problem's columns [%j0, %j1) through the blocked loops,
    the windows on `side`."""
    raws, ap, bp = packing_buffers(e, s, "%M", e.value("sub i64 %j1, %j0"), "%K")
    x_room = max(s.nc, s.mc)
    raw_x, x_table = aligned_buffer(e, 4 * x_room)
    raw_p, p_table = aligned_buffer(e, 3 * s.kc)
    raw_zeros, zeros = aligned_buffer(e, s.kc)
    x_key, p_key = ([e.variable("i64", -1) for _ in range(2)] for _ in range(2))
    with e.loop(0, s.kc, hint="zero") as z:
        e.emit(f"store float 0.0, ptr {e.gep(zeros, z)}, align 4")
    run = _indirect_run(e, s)
    with (
        e.loop(0, "%images", hint="image") as image,
        e.loop(0, "%groups", hint="group") as group,
    ):
        kernel = Strided(e.gep("%W", e.mul(group, "%w_group")), "%w_k", "%w_o")
        base = e.gep("%X", e.add(e.mul(image, "%x_image"), e.mul(group, "%x_group")))
        windows = Windows(base, x_table, x_room, p_table, s.kc, _lanes(s), zeros, x_key, p_key)
        c = e.gep("%C", e.add(e.mul(image, "%c_image"), e.mul(group, "%c_group")))
        if side == 0:
            blocked_loops(e, s, Gemm("%M", "%K", kernel, windows, c, "%ldc", "%flags"), ap, bp, "%j0", "%j1")
        else:
            rows = dataclasses.replace(windows, run=run)
            blocked_loops(e, s, Gemm("%M", "%K", rows, kernel, c, "%ldc", "%flags", a_run=run), ap, bp, "%j0", "%j1")
    free_buffers(e, [*raws, raw_x, raw_p, raw_zeros])


def _lanes(s: KernelShape) -> int:
    """The packing's vectors: at most 8 floats (256 bits) on any tile, so that the vector
    packing of runs takes windows rows at least 8 long on AVX-512 too (16-float chunks
    would need rows of 16: a 14 x 14 image packed lane by lane)."""
    return min(s.vw, 8)


def _declarations(s: KernelShape) -> list[str]:
    """The masked loads of the chunks of an MR- and an NR-wide panel and of a depth run."""
    lanes = _lanes(s)
    sizes = sorted({lanes} | {min(lanes, width - a) for width in (s.mr, s.nr) for a in range(0, width, lanes)})
    return [
        *(f"declare <{n} x float> @llvm.masked.load.v{n}f32.p0(ptr, i32, <{n} x i1>, <{n} x float>)" for n in sizes),
        "declare i64 @llvm.cttz.i64(i64, i1)",
    ]


def _work(e: Emitter) -> str:
    return e.mul(e.mul(e.mul("%images", "%groups"), e.mul("%M", "%N")), "%K")


SYMBOL_BY_SIDE = {0: f"{SYMBOL}_columns", 1: f"{SYMBOL}_rows"}
SCONV_BY_SIDE = {
    side: Entry(symbol, PARAMS, "%N", _work, functools.partial(_serial, side=side), _declarations, wide=WIDE)
    for side, symbol in SYMBOL_BY_SIDE.items()
}
