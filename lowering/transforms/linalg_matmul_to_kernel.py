"""`linalg-matmul-to-kernel`: a bufferized f32, f64, f16, bf16 or i32 matrix product
becomes a call of the micro-kernel library's GEMM (`lowering/kernels/gemm.py`:
`xla_opt_sgemm`, `xla_opt_dgemm`, `xla_opt_hgemm`, `xla_opt_bgemm`, `xla_opt_igemm`).

It runs after `xla-bufferize`, on memrefs. It takes a `linalg.generic` that is a
matrix product at heart, or a batch of them: reduction loops and parallel loops, the
output indexed by every parallel loop, the reduction loops read by both inputs, a body
`acc + lhs * rhs`, identity-layout memrefs (an input's indices may be any linear forms
of the loops whose address has positive strides, `loop_strides`: a slice of a split
fused into the product is strides and an offset; a transposed operand is strides for
the kernel's packing). The loops group as a dot_general's dimensions do
(`contraction_groups`): the input reading the output's contiguous loop is B and the
loops only it reads are the columns j, the loops only the other input A reads are the
rows i, the loops both read are batch loops b, the reduction loops the depth k. Each
group's loops that form one row-major run in its operands merge into one kernel
dimension, as a reshape would merge them: JAX's `x @ W` of a 3-D x (a dot_general of
a 4x128x256 and a 256x768 tensor, no batch dimensions) is one 512 x 256 by 256 x 768
product, its (batch, sequence) rows merged; a dot_general contracting two dimensions
(MoE's combine, 'tec,ecd->td') has one depth. Rows or columns that do not merge with
the others (a transposed operand's) are batch loops of that product (stride 0 in the
input that does not read them), the depth must merge, and of the batch loops the
innermost run that merges in every operand is the kernel's batch (attention's
(batch, heads)); where others do not (flax's 'bqhd,bkhd->bhqk'), the call runs in an
`scf.for` nest over them, its pointers offset by their strides. The product must be
one the kernel wins (`kernel_wins`: not a matrix-vector product, at least 9 columns).
Data moves the fusion left as copies are read and written through: an
input that is a copy of another buffer (`copied_operand`: a data-move generic, or
loads at sums of its indices, such as a slice from 0) is read from that buffer, and
a result only copied into another buffer (`written_through`: attention's heads put
back side by side) is written there, the copies and their buffers gone. Its outs
buffer holds the accumulator's initial value (a generic computes outs += ins product),
so the call computes C += A @ B just the same; but where the op right before it fills
that buffer with zeros (the dot's lowering), the fill goes and the call gets the
OVERWRITE flag: C = A @ B, C's stale content never read (one pass over C saved, and
the first depth slice's reads of it). That is the same result: 0 + s is s for every
sum s the kernel produces (never -0.0: its accumulators start at +0.0).

With that fill gone, an element-wise generic right after the product (constants
aside) that reads its result and a bias vector and writes another buffer,
`out[i, j] = C[i, j] + bias[j]`, optionally followed by XLA's maximum with +0.0
(`relu(x @ W + b)`), fuses into the call as its epilogue (the BIAS and RELU flags):
the kernel writes `out` directly, in its C update after the last depth slice, and the
generic, C's buffer and its dealloc go (two passes over C saved). A float product
only: the i32 kernel has no epilogue, an integer bias and ReLU stay loops.

An f16 or bf16 dot is lowered (`convert-xla-to-linalg`) to an f32 accumulator buffer,
a generic with the body `acc + extf(lhs) * extf(rhs)`, and a generic rounding the
accumulator once to the result type. Such a generic (both inputs f16 or both bf16,
the outs f32) becomes a call of the GEMM that widens the operands to f32 while packing
and accumulates in f32 (each product of two widened values is exact in f32, so only
the summation order differs); the rounding generic after it stays as it is.

The call passes bare pointers (`convert-to-llvm` turns each memref into one: the
`llvm.bitcast` of a memref to `!llvm.ptr` becomes a bitcast of that pointer), the batch
count (1 without a batch loop) and M, N, K, and the strides of A along b, i and k, of B
along b, k and j and of C along b and i, as i64 constants (batch strides 0 without a
batch loop), then the flags and a null bias pointer (no epilogue). The module gets an
external declaration of each kernel it calls; the JIT binds the symbols
(`lowering/kernels/runtime.py`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, memref, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    ShapedType,
    i32,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineDimExpr,
    AffineMap,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable
from xla_opt.lowering.utils.contractions import is_multiply_accumulate, only_moves_data
from xla_opt.lowering.kernels.gemm import (
    BGEMM,
    BIAS,
    DGEMM,
    GEMMS,
    HGEMM,
    IGEMM,
    OVERWRITE,
    RELU,
    SGEMM,
    SGEMM_NARROW,
    narrow_product,
)
from xla_opt.lowering.kernels import libraries
from xla_opt.lowering.kernels.gemm import ARGUMENT as GEMM_ARGUMENT
from xla_opt.lowering.kernels.gemm import PARAMS as GEMM_PARAMS  # the call's argument order
from xla_opt.lowering.utils.linear_forms import Linear, index_form, linear_address
from xla_opt.lowering.utils.llvm_types import PTR, row_major_strides, storage_type
from xla_opt.lowering.conversions.convert_xla_to_linalg.common import PARALLEL, REDUCTION

from xla_opt.pattern_dispatch import ConversionWalker

# The defaults of the pass's options: the smallest product the kernel computes faster
# than the loops `linalg-block-rows` makes. Measured one thread, f32, Zen 3 (call overhead ~10 us included): the loops win
# below 4 rows (m=1, k=n=256: 15 vs 27 us, m=2: 18 vs 27, m=4: 27 vs 28) and at 8
# columns or fewer (m=k=128, n=8: 15 vs 20 us; m=k=512, n=4: 105 vs 143), where the
# kernel's 6 x 16 tile is mostly padding; the kernel wins from 9 columns (n=9: 21 vs
# 29 us, n=12: 21 vs 101; m=512, k=8, n=512: 86 vs 151) and ties on tiny products
# (8^3: 10.6 vs 10.5 us). Its call also compiles in a fraction of the loops' time
# (0.017 vs 0.04-0.1 s: the loops are unrolled and vectorized by LLVM). A contraction of
# 2 or 3 is one or two multiply-adds per output: the kernel's packing of both operands
# and its tile of C cost more than they save. Measured one thread, f32, Zen 4 without
# AVX-512 (AVX2's 6 x 16 tile), kernel vs loops: 512 products of 8x2 by 2x160 (the
# mixture of experts' one-hot dispatch masks) 271 vs 112 us; 512x2 by 2x512 67 vs 53,
# 64x2 by 2x64 9.8 vs 9.2, 2048x2 by 2x256 87 vs 97; 512x3 by 3x512 66 vs 64, 128x3 by
# 3x1024 54 vs 34; from 4 the kernel wins (512x4 by 4x512 65 vs 80). The MoE layer:
# 19.2 -> 18.6 ms.
MIN_ROWS = 4
MIN_COLUMNS = 9
MIN_DEPTH = 4


def kernel_wins(m: int, n: int, depth: int, limits: MatmulToKernelPass | None = None) -> bool:
    """Whether an m x depth by depth x n product runs on the GEMM: at least the pass's
    `min-rows`, `min-columns` and `min-depth` (`limits`; its defaults when None)."""
    limits = limits or MatmulToKernelPass()
    return m >= limits.min_rows and n >= limits.min_columns and depth >= limits.min_depth


# The operands' element type -> the GEMM that computes in it.
# The element types of (lhs, rhs, outs) -> the GEMM that computes the product and
# whether the body widens the operands (f16/bf16 operands, an f32 accumulator).
GEMM_OF = {
    (Float32Type,) * 3: (SGEMM.symbol, False),
    (Float64Type,) * 3: (DGEMM.symbol, False),
    (Float16Type, Float16Type, Float32Type): (HGEMM.symbol, True),
    (BFloat16Type, BFloat16Type, Float32Type): (BGEMM.symbol, True),
}


def is_widening_multiply_accumulate(op: linalg.GenericOp) -> bool:
    """The body is `yield acc + extf(lhs) * extf(rhs)` on the block's (lhs, rhs, acc)
    arguments: the unfused lowering of an f16/bf16 dot, which accumulates in f32 (the
    products of two widened f16 or bf16 values are exact in f32)."""
    body = op.body.block
    lhs, rhs, acc = body.args
    ops = list(body.ops)
    if len(ops) != 5 or not all(isinstance(o, arith.ExtFOp) for o in ops[:2]):
        return False
    wide_lhs, wide_rhs, product, total, yielded = ops
    return (
        {wide_lhs.input, wide_rhs.input} == {lhs, rhs}  # type: ignore[attr-defined]
        and wide_lhs.input is not wide_rhs.input  # type: ignore[attr-defined]
        and isinstance(product, arith.MulfOp)
        and {product.lhs, product.rhs} == {wide_lhs.results[0], wide_rhs.results[0]}
        and isinstance(total, arith.AddfOp)
        and {total.lhs, total.rhs} == {acc, product.result}
        and isinstance(yielded, linalg.YieldOp)
        and tuple(yielded.operands) == (total.result,)
    )


@dataclass(frozen=True)
class KernelMatmul:
    """C[b, i, j] += A[b, i, k] * B[b, k, j] for b < batch: the kernel that computes it,
    which input is A, and the strides (in elements) of A along b, i and k, of B along
    b, k and j, of C along b and i (C's last dimension is j: its rows are contiguous);
    without a batch loop, batch is 1 and the batch strides 0. `outer`: batch loops that
    do not merge into that one (`merged_batch`), outermost first, each its extent and
    its strides in A, B and C: the call runs in a loop nest over them."""

    symbol: str
    batch: int
    m: int
    n: int
    k: int
    a: SSAValue
    a_strides: tuple[int, int, int]
    b: SSAValue
    b_strides: tuple[int, int, int]
    c_strides: tuple[int, int]
    outer: tuple[tuple[int, int, int, int], ...] = ()
    a_offset: int = 0  # elements from A's buffer to its first element read
    b_offset: int = 0
    copies: tuple[tuple[linalg.GenericOp, MovedFrom], ...] = ()  # data moves the kernel reads through
    written: tuple[linalg.GenericOp, SSAValue] | None = None  # a copy of C, and its buffer the kernel writes


def loop_strides(shape, results) -> tuple[dict[int, int], int] | None:
    """Loop -> the stride (in elements) along it of a row-major operand whose indices
    are linear forms of the loops, and the constant offset of its first element read:
    (d0, d1 * 64 + d2 + 256) in a 128x768 buffer is {d0: 768, d1: 64, d2: 1} and 256
    (a slice of a reshape, read through the data-move generics fused into the
    product; a merge of contiguous dimensions, (d0, d1 floordiv 64, d1 mod 64) in a
    128x4x64 buffer, is {d0: 256, d1: 1}). None if the address is not linear or a
    loop's stride is not positive."""
    strides: dict[int, int] = {}
    address = linear_address(shape, results)
    if address is None:
        return None
    for term, coefficient in address.terms:
        if not isinstance(term, int):
            return None  # a division left: merged dimensions not in memory order
        strides[term] = coefficient
    offset = address.constant
    if any(stride <= 0 for stride in strides.values()) or offset < 0:
        return None
    return strides, offset


def merged_run(
    loops: list[int], extent: dict[int, int], strides: tuple[dict[int, int], ...]
) -> tuple[list[int], list[int]]:
    """`loops` (outermost first) split into the loops outside and the longest innermost
    run of them that merges into one dimension in every operand of `strides`: each
    loop's stride is the next one's times that one's extent (one row-major run, as a
    reshape would merge them: attention's (batch, heads), a projection's (batch,
    sequence) rows); a loop an operand does not read has stride 0 there."""
    run = loops[-1:]
    for loop in reversed(loops[:-1]):
        if any(st.get(loop, 0) != st.get(run[0], 0) * extent[run[0]] for st in strides):
            break
        run.insert(0, loop)
    return loops[: len(loops) - len(run)], run


@dataclass(frozen=True)
class ContractionGroups:
    """A product's loops as the kernel's (`contraction_groups`): which input is A (0 or
    1), the loops (outermost first) merged into its rows, columns, depth and batch, and
    the loops the call runs in a nest over."""

    a: int
    rows: list[int]
    columns: list[int]
    depth: list[int]
    batch: list[int]
    outer: list[int]


def contraction_groups(
    iterators: list[linalg.IteratorType], strides: list[dict[int, int]], c_rank: int, extent: dict[int, int]
) -> ContractionGroups | None:
    """The loops of a multiply-accumulate whose (lhs, rhs, C) read them at `strides` (loop
    -> stride, in elements) as the kernel's product: C indexed by every parallel loop,
    each one of its `c_rank` dimensions, and the reduction loops read by both inputs.
    Loops of extent 1 drop out. A parallel loop read by one input only is free in it:
    the input that reads C's contiguous loop (stride 1 in C) is B, its free loops the
    columns, the other's the rows; loops both read are batch loops, reduction loops the
    depth. Each group sorted by its stride in C (the depth by A's), its innermost run
    that merges in its operands (`merged_run`: the rows in A and C, the columns in B and
    C, the depth in A and B: JAX's x @ W of a 3-D x, the (batch, sequence) rows, is one
    matrix product) is the kernel's dimension; the rows and columns outside it join the
    batch loops (stride 0 in the input that does not read them). The batch loops' run
    that merges in A, B and C is the kernel's batch, the call loops over the others.
    None if the product is not one for the kernel: C not indexed so, a depth that does
    not merge, or C's contiguous loop read by both inputs."""
    parallel = [loop for loop, it in enumerate(iterators) if it == PARALLEL.data]
    reduction = [loop for loop, it in enumerate(iterators) if it == REDUCTION.data]
    sa, sb, sc = strides
    if len(sc) != c_rank or set(sc) != set(parallel):
        return None  # C's dimensions indexed by distinct loops, every parallel loop
    if any(loop not in sa or loop not in sb for loop in reduction):
        return None
    if any(loop not in sa and loop not in sb for loop in parallel):
        return None  # C broadcast along a loop
    parallel = [loop for loop in parallel if extent[loop] != 1]
    reduction = [loop for loop in reduction if extent[loop] != 1]
    contiguous = [loop for loop in parallel if sc[loop] == 1]
    if not contiguous or (contiguous[0] in sa) == (contiguous[0] in sb):
        return None  # C's rows not contiguous along a free loop
    a = 1 if contiguous[0] in sa else 0
    sa, sb = (sa, sb) if a == 0 else (sb, sa)
    by_c = sorted(parallel, key=lambda loop: -sc[loop])
    rows_apart, rows = merged_run([x for x in by_c if x in sa and x not in sb], extent, (sa, sc))
    columns_apart, columns = merged_run([x for x in by_c if x in sb and x not in sa], extent, (sb, sc))
    depth_apart, depth = merged_run(sorted(reduction, key=lambda loop: -sa[loop]), extent, (sa, sb))
    if depth_apart:
        return None  # several sums: the call would accumulate
    batch = [x for x in by_c if (x in sa and x in sb) or x in rows_apart or x in columns_apart]
    outer, batch = merged_run(batch, extent, (sa, sb, sc))
    return ContractionGroups(a, rows, columns, depth, batch, outer)


def _reads(user: Operation, index: int) -> bool:
    """Whether operand `index` of `user`, a buffer or a pointer into one, is only read:
    a generic's input, a load's, or the A or B pointer of a GEMM call."""
    if isinstance(user, linalg.GenericOp):
        return index < len(user.inputs)
    if isinstance(user, llvm.CallOp):
        return index in _POINTER_ARGS[:2] and user.callee.string_value() in GEMMS
    return isinstance(user, memref.LoadOp | llvm.LoadOp)


def _aliases(buffer: SSAValue) -> set[SSAValue]:
    """`buffer` and every value that points into it: the results of the views, casts and
    pointer arithmetic of it (any op but a read, a store or a dealloc that gives a
    buffer or a pointer), transitively."""
    found, pending = {buffer}, [buffer]
    while pending:
        for use in pending.pop().uses:
            user = use.operation
            if _reads(user, use.index) or isinstance(user, memref.DeallocOp | memref.StoreOp | llvm.StoreOp):
                continue
            for result in user.results:
                if isinstance(result.type, MemRefType | llvm.LLVMPointerType) and result not in found:
                    found.add(result)
                    pending.append(result)
    return found


def _unwritten_between(buffer: SSAValue, first: Operation, last: Operation, reads: bool = True) -> bool:
    """Whether no op after `first` and before `last` in their block (nested ops included)
    can write `buffer` (nor, without `reads`, read it): each use there of it or of a
    value pointing into it (`_aliases`) reads it, makes such a value, or deallocates
    `buffer` itself (a dealloc the caller moves after `last`)."""
    aliases = _aliases(buffer)
    op = first.next_op
    while op is not None and op is not last:
        for inner in op.walk():
            for index, operand in enumerate(inner.operands):
                if operand not in aliases:
                    continue
                if isinstance(inner, memref.DeallocOp) and operand is buffer and inner is op:
                    continue
                if reads and _reads(inner, index):
                    continue
                if any(result in aliases for result in inner.results):
                    continue
                return False
        op = op.next_op
    return op is last


@dataclass(frozen=True)
class MovedFrom:
    """What a data-move generic copies: `source` read at `read` (the generic's loops ->
    the source's indices)."""

    source: SSAValue
    read: AffineMap


def moved_from(copy: linalg.GenericOp) -> MovedFrom | None:
    """The source and read map of a generic that copies a buffer: one yielding its one
    input (a transpose, slice, reshape...: the input's map), or one loading from a
    buffer at sums and constant multiples of its `linalg.index`es (a slice from 0,
    which cannot be a map: a plain index that is not the loop's whole range); None for
    anything else."""
    maps = [m.data for m in copy.indexing_maps.data]
    to_loops = maps[-1].inverse_permutation()
    if len(copy.outputs) != 1 or to_loops is None or any(it.data != PARALLEL.data for it in copy.iterator_types.data):
        return None
    if len(copy.inputs) == 1 and only_moves_data(copy):
        return MovedFrom(copy.inputs[0], maps[0])
    if copy.inputs:
        return None
    forms: dict[SSAValue, Linear] = {}
    load = None
    for op in copy.body.block.ops:
        if isinstance(op, memref.LoadOp) and load is None and all(v in forms for v in op.indices):
            load = op
        elif isinstance(op, linalg.YieldOp) and load is not None and tuple(op.operands) == (load.res,):
            continue
        elif (form := index_form(op, [forms.get(v) for v in op.operands])) is None or any(
            not isinstance(term, int) for term, _ in form.terms
        ):
            return None  # not sums and constant multiples of the loops
        else:
            forms[op.results[0]] = form
    if load is None:
        return None
    read = tuple(forms[v].as_affine() for v in load.indices)
    return MovedFrom(load.memref, AffineMap(len(maps[-1].results), 0, read))


def copied_operand(buffer: SSAValue, reader: linalg.GenericOp) -> tuple[linalg.GenericOp, MovedFrom] | None:
    """The data move whose copy `buffer` is (`moved_from`), when the product `reader`
    may read its source instead: `buffer` is an allocation used only by that generic
    (which writes all of it through a permutation of its loops), by `reader` after it
    in the same block, and by deallocs; the source is not written in between (deallocs
    of it there are moved after `reader` by the caller)."""
    if not isinstance(buffer.owner, memref.AllocOp | memref.AllocaOp):
        return None
    copy, reads = None, 0
    for use in buffer.uses:
        user = use.operation
        if user is reader:
            reads += 1
        elif isinstance(user, linalg.GenericOp) and copy is None:
            copy = user
        elif not isinstance(user, memref.DeallocOp):
            return None
    if copy is None or reads != 1 or tuple(copy.outputs) != (buffer,):
        return None
    moved = moved_from(copy)
    if (
        moved is None
        or not isinstance(moved.source.type, MemRefType)
        or not isinstance(moved.source.type.layout, NoneAttr)
        or copy.parent_block() is not reader.parent_block()
        or not copy.is_before_in_block(reader)
        or not _unwritten_between(moved.source, copy, reader)
    ):
        return None
    return copy, moved


# The most elements of a product's result `written_through` maps one by one (numpy,
# some 20 ns each: 20 ms at the limit).
WRITE_THROUGH_MAX_ELEMENTS = 1 << 20


def _inverse_strides(copy: linalg.GenericOp, read: AffineMap, source_shape, target_shape) -> tuple[int, ...] | None:
    """The stride in the copy's target of each dimension of its source, when every
    source element lands at sum(index * stride) (checked at every element); None when
    the copy is not one-to-one or some element lands elsewhere."""
    count = prod(target_shape)
    to_loops = copy.indexing_maps.data[-1].data
    target_index = np.unravel_index(np.arange(count, dtype=np.int64), target_shape)
    loops: list[np.ndarray] = [np.zeros(count, np.int64)] * len(to_loops.results)
    for position, result in enumerate(to_loops.results):
        loops[result.position] = target_index[position]  # type: ignore[attr-defined]
    source_index = [np.broadcast_to(e.eval(loops, []), (count,)) for e in read.results]  # ndarray // and % floor
    if any(((i < 0) | (i >= n)).any() for i, n in zip(source_index, source_shape, strict=True)):
        return None
    source_flat = np.ravel_multi_index(source_index, source_shape)
    landing = np.full(count, -1, np.int64)
    landing[source_flat] = np.arange(count, dtype=np.int64)
    if (landing < 0).any():
        return None  # not one-to-one
    strides = tuple(
        int(landing[row]) if size > 1 else 0
        for row, size in zip(row_major_strides(source_shape), source_shape, strict=True)
    )
    expected = sum(
        (
            i * st
            for i, st in zip(np.unravel_index(np.arange(count, dtype=np.int64), source_shape), strides, strict=True)
        ),
        start=np.zeros(count, np.int64),
    )
    return strides if np.array_equal(expected, landing) else None


def written_through(op: linalg.GenericOp) -> tuple[linalg.GenericOp, SSAValue, tuple[int, ...]] | None:
    """The copy that moves the product's result C into another buffer D (a transpose
    and a reshape: attention's heads put back side by side) when the kernel can write
    D in its place: C is an allocation the product overwrites (a zero fill right
    before it) used only by the fill, the product, that copy after the product in
    their block, and deallocs; D has identity layout and is an argument or an
    allocation of that block, nothing uses it between the product and the copy, and
    each element of C lands in D at sum(index * stride) with C's last stride 1 (rows
    stay contiguous). The copy, D and the strides of C's dimensions in D."""
    c = op.outputs[0]
    if not isinstance(c.owner, memref.AllocOp | memref.AllocaOp) or not is_zero_fill(op.prev_op, c):
        return None
    copy = None
    for use in c.uses:
        user = use.operation
        if user is op or user is op.prev_op or isinstance(user, memref.DeallocOp):
            continue
        if not isinstance(user, linalg.GenericOp) or copy is not None:
            return None
        copy = user
    if copy is None or copy.parent_block() is not op.parent_block() or not op.is_before_in_block(copy):
        return None
    moved = moved_from(copy)
    if moved is None or moved.source is not c or len(copy.outputs) != 1:
        return None
    d = copy.outputs[0]
    c_type, d_type = c.type, d.type
    if (
        not isinstance(c_type, MemRefType)
        or not isinstance(d_type, MemRefType)
        or not isinstance(d_type.layout, NoneAttr)
        or d_type.get_element_type() != c_type.get_element_type()
        or prod(d_type.get_shape()) != prod(c_type.get_shape())
        or prod(c_type.get_shape()) > WRITE_THROUGH_MAX_ELEMENTS
    ):
        return None
    owner = d.owner
    if isinstance(owner, Operation) and not (
        isinstance(owner, memref.AllocOp | memref.AllocaOp)
        and not owner.operands
        and owner.parent_block() is op.parent_block()
    ):
        return None
    if not _unwritten_between(d, op, copy, reads=False):
        return None
    strides = _inverse_strides(copy, moved.read, c_type.get_shape(), d_type.get_shape())
    if strides is None or strides[-1] != 1:
        return None
    return copy, d, strides


def kernel_matmul(
    op: linalg.GenericOp, through_copies: bool = False, limits: MatmulToKernelPass | None = None
) -> KernelMatmul | None:
    """The matrix product `op` computes if the kernel takes it (see the module doc; its
    size `limits` the pass's options, the defaults when None), on tensors (so that
    `linalg-block-rows` and `linalg-fuse-elementwise` know it, with the defaults) or
    memrefs; with
    `through_copies`, an operand that is a copy of a buffer (`copied_operand`) is read
    from that buffer when the kernel can follow the copy's map by strides (the copy is
    then in `copies`)."""
    if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.iterator_types.data) < 3:
        return None
    operands = [*op.inputs, *op.outputs]
    types = [v.type for v in operands]
    if not all(isinstance(t, ShapedType) for t in types):
        return None
    elements = tuple(t.get_element_type() for t in types)  # type: ignore[attr-defined]
    kernel = (IGEMM.symbol, False) if elements == (i32,) * 3 else GEMM_OF.get(tuple(map(type, elements)))
    if kernel is None:
        return None
    symbol, widening = kernel
    if any(isinstance(t, MemRefType) and not isinstance(t.layout, NoneAttr) for t in types):
        return None
    iterators = [it.data for it in op.iterator_types.data]
    body_matches = (
        is_widening_multiply_accumulate(op) if widening else is_multiply_accumulate(op, symbol == IGEMM.symbol)
    )
    if REDUCTION.data not in iterators or not body_matches:
        return None
    maps = [m.data for m in op.indexing_maps.data]
    if any(m.num_symbols for m in maps):
        return None
    shapes = [t.get_shape() for t in types]  # type: ignore[attr-defined]
    if not all(isinstance(e, AffineDimExpr) for e in maps[2].results):
        return None  # C written at plain loop indices, each element once
    forms = [loop_strides(shape, m.results) for shape, m in zip(shapes, maps, strict=True)]
    if any(form is None for form in forms):
        return None
    written = written_through(op) if through_copies and isinstance(types[2], MemRefType) else None
    if written is not None:  # C's loops strided in D instead
        forms[2] = ({e.position: st for e, st in zip(maps[2].results, written[2], strict=True)}, 0)  # type: ignore[attr-defined]
    copies: list[tuple[linalg.GenericOp, MovedFrom] | None] = [None, None, None]
    for index in (0, 1) if through_copies else ():
        if (copied := copied_operand(operands[index], op)) is None:
            continue
        copy, moved = copied
        to_copy_loops = copy.indexing_maps.data[-1].data.inverse_permutation()
        assert to_copy_loops is not None  # moved_from checked it
        read = moved.read.compose(to_copy_loops.compose(maps[index]))
        source_form = loop_strides(moved.source.type.get_shape(), read.results)  # type: ignore[attr-defined]
        if source_form is not None and set(source_form[0]) == set(forms[index][0]):  # type: ignore[index]
            forms[index], copies[index] = source_form, copied
    strides: list[dict[int, int]] = [form[0] for form in forms]  # type: ignore[index]
    extent = {
        e.position: shape[d]
        for shape, m in zip(shapes, maps, strict=True)
        for d, e in enumerate(m.results)
        if isinstance(e, AffineDimExpr)
    }
    if len(extent) != len(iterators):
        return None  # a loop's extent only in a linear form
    groups = contraction_groups(iterators, strides, len(maps[2].results), extent)
    if groups is None:
        return None
    first, second = groups.a, 1 - groups.a
    sa, sb, sc = strides[first], strides[second], strides[2]
    m, n, depth = (prod(extent[loop] for loop in run) for run in (groups.rows, groups.columns, groups.depth))
    if not kernel_wins(m, n, depth, limits):
        return None
    if symbol == SGEMM.symbol and narrow_product(n):
        symbol = SGEMM_NARROW.symbol

    def inner(run: list[int], operand: dict[int, int]) -> int:
        """The stride of a merged run in an operand: its innermost loop's (0 for no loop
        or one the operand does not read)."""
        return operand.get(run[-1], 0) if run else 0

    outer = tuple((extent[b], sa.get(b, 0), sb.get(b, 0), sc.get(b, 0)) for b in groups.outer)
    batch = prod(extent[b] for b in groups.batch)
    ab, bb, cb = (inner(groups.batch, st) for st in (sa, sb, sc))
    read_from = [
        operand if copied is None else copied[1].source for operand, copied in zip(operands, copies, strict=True)
    ]
    return KernelMatmul(
        symbol,
        batch,
        m,
        n,
        depth,
        read_from[first],
        (ab, inner(groups.rows, sa), inner(groups.depth, sa)),
        read_from[second],
        (bb, inner(groups.depth, sb), inner(groups.columns, sb)),
        (cb, inner(groups.rows, sc)),
        outer,
        forms[first][1],  # type: ignore[index]
        forms[second][1],  # type: ignore[index]
        tuple(copied for copied in copies if copied is not None),
        None if written is None else written[:2],
    )


def is_zero_fill(op: Operation | None, buffer: SSAValue) -> bool:
    """`op` is a generic writing 0.0 to every element of `buffer` (no inputs, one
    identity-indexed output, a body yielding the constant): what the dot's lowering
    initializes its accumulator with."""
    if not isinstance(op, linalg.GenericOp) or op.inputs or tuple(op.outputs) != (buffer,):
        return False
    (indexing,) = op.indexing_maps.data
    if indexing.data != AffineMap.identity(indexing.data.num_dims) or not op.body.block.ops:
        return False
    yielded = op.body.block.last_op
    if not isinstance(yielded, linalg.YieldOp) or len(yielded.operands) != 1:
        return False
    zero = yielded.operands[0].owner
    return (
        isinstance(zero, arith.ConstantOp)
        and isinstance(zero.value, FloatAttr | IntegerAttr)
        and zero.value.value.data == 0
    )


@dataclass(frozen=True)
class Epilogue:
    """The element-wise generic `op` after a product, as the kernel's epilogue: it writes
    `out[i, j] = C[i, j] + bias[j]`, then max(., +0.0) if `relu`."""

    op: linalg.GenericOp
    out: SSAValue
    bias: SSAValue
    relu: bool


def _is_positive_zero(value: SSAValue) -> bool:
    """`value` is the constant +0.0: an arith.constant, or a 0-d memref.get_global of a
    constant global holding it (a float one: an integer 0 is no float zero)."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp):
        attr = owner.value
    elif isinstance(owner, memref.GetGlobalOp):
        module = owner.get_toplevel_object()
        found = SymbolTable.lookup_symbol(module, owner.name_) if isinstance(module, ModuleOp) else None
        if not isinstance(found, memref.GlobalOp) or found.constant is None:
            return False
        initial = found.initial_value
        if not isinstance(initial, DenseIntOrFPElementsAttr) or len(initial.get_values()) != 1:
            return False
        if not isinstance(initial.get_element_type(), AnyFloat):
            return False
        attr = FloatAttr(initial.get_values()[0], initial.get_element_type())
    else:
        return False
    return isinstance(attr, FloatAttr) and attr.value.data == 0.0 and math.copysign(1.0, attr.value.data) > 0


def _relu_of(total: SSAValue, ops: list[Operation], zero: SSAValue | None) -> SSAValue | None:
    """The result of `ops` if they are XLA's maximum(total, +0.0) as its lowering spells
    it (`select(total > 0 or isnan(total), total, 0)`), else None; `zero` the block
    argument holding a +0.0 scalar input, if any."""
    if len(ops) != 4:
        return None
    above, nan, either, chosen = ops
    predicates = arith.CMPF_COMPARISON_OPERATIONS

    def is_zero(v: SSAValue) -> bool:
        return v is zero if zero is not None else _is_positive_zero(v)

    if not (
        isinstance(above, arith.CmpfOp)
        and predicates[above.predicate.value.data] == "ogt"
        and above.lhs is total
        and is_zero(above.rhs)
        and isinstance(nan, arith.CmpfOp)
        and predicates[nan.predicate.value.data] == "uno"
        and nan.lhs is total
        and nan.rhs is total
        and isinstance(either, arith.OrIOp)
        and {either.lhs, either.rhs} == {above.result, nan.result}
        and isinstance(chosen, arith.SelectOp)
        and chosen.cond is either.result
        and chosen.lhs is total
        and is_zero(chosen.rhs)
    ):
        return None
    return chosen.result


def epilogue_of(product: KernelMatmul, c: SSAValue, op: Operation | None) -> Epilogue | None:
    """`op` as the epilogue of the unbatched product `product` into the buffer `c`
    (see the module doc): identity-indexed C and out of the same shape, the bias
    indexed by the column (C's last dimension), an optional 0-d +0.0 input, a body
    computing C + bias (either order) then optionally the maximum with +0.0, the out
    value unread; out a buffer of its own (an argument or an allocation, neither A nor
    B). C may have more dimensions than 2 where they are the product's merged rows
    (JAX's `x @ W + b` of a 3-D x): C is then the m x n matrix the kernel writes, row
    after row, its last dimension the columns. Integer products have none: the integer
    kernel has no epilogue."""
    if product.symbol == IGEMM.symbol:
        return None
    if product.batch != 1 or product.outer or not isinstance(op, linalg.GenericOp) or len(op.outputs) != 1:
        return None
    out = op.outputs[0]
    c_type = c.type
    if not isinstance(c_type, MemRefType) or len(c_shape := c_type.get_shape()) < 2:
        return None
    rank = len(c_shape)
    if c_shape[-1] != product.n or prod(c_shape) != product.m * product.n:
        return None
    if product.m > 1 and product.c_strides[1] != product.n:
        return None  # C's rows not one after the other
    owner = out.owner
    own_buffer = isinstance(owner, memref.AllocOp | memref.AllocaOp) or (
        isinstance(owner, Block) and isinstance(owner.parent_op(), func.FuncOp)
    )
    if out.type != c_type or not own_buffer or out in (product.a, product.b, c):
        return None
    maps = [m.data for m in op.indexing_maps.data]
    identity = AffineMap.identity(rank)
    column = AffineMap(rank, 0, (AffineDimExpr(rank - 1),))
    args = op.body.block.args
    roles: dict[str, SSAValue] = {}
    for value, indexing, arg in zip(op.inputs, maps, args, strict=False):
        shape = value.type.get_shape() if isinstance(value.type, MemRefType) else None
        if value is c and indexing == identity and "c" not in roles:
            roles["c"] = arg
        elif indexing == column and shape == (product.n,) and "bias" not in roles:
            roles["bias"], bias = arg, value
        elif indexing == AffineMap(rank, 0, ()) and shape == () and _is_positive_zero(value) and "zero" not in roles:
            roles["zero"] = arg
        else:
            return None
    if maps[-1] != identity or {"c", "bias"} - set(roles) or args[-1].uses:
        return None
    body = list(op.body.block.ops)
    total = body[0]
    if not (
        isinstance(total, arith.AddfOp) and {total.lhs, total.rhs} == {roles["c"], roles["bias"]}
    ) or not isinstance(body[-1], linalg.YieldOp):
        return None
    result = total.result if len(body) == 2 else _relu_of(total.result, body[1:-1], roles.get("zero"))
    if result is None or tuple(body[-1].operands) != (result,):
        return None
    return Epilogue(op, out, bias, relu=len(body) > 2)


class MatmulToKernel(RewritePattern):
    """A bufferized f32, f64, f16 or bf16 matrix product (see the module doc) ->
    `llvm.call @xla_opt_<s|d|h|b>gemm`."""

    def __init__(self, limits: MatmulToKernelPass | None = None) -> None:
        self.used: dict[str, None] = {}  # the kernels called, in order
        self.limits = limits

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.outputs[0].type, MemRefType):
            return  # on tensors, linalg-block-rows only asks kernel_matmul
        product = kernel_matmul(op, through_copies=True, limits=self.limits)
        if product is None:
            return
        new_ops = []

        def constant(value: int) -> SSAValue:
            new_ops.append(c := llvm.ConstantOp(IntegerAttr(value, i64), i64))
            return c.result

        def pointer(buffer: SSAValue, offset: int = 0) -> SSAValue:
            new_ops.append(cast := llvm.BitcastOp(buffer, PTR))
            if not offset:
                return cast.result
            element = storage_type(buffer.type.get_element_type())  # type: ignore[attr-defined]
            at = [llvm.GEP_USE_SSA_VAL]
            new_ops.append(gep := llvm.GEPOp(cast.result, at, element, ssa_indices=[constant(offset)], inbounds=True))
            return gep.result

        fill = op.prev_op
        c = op.outputs[0]
        overwrite = is_zero_fill(fill, c)
        following = op.next_op
        while isinstance(following, memref.GetGlobalOp | arith.ConstantOp):  # the epilogue's constants
            following = following.next_op
        epilogue = epilogue_of(product, c, following) if overwrite and product.written is None else None
        flags = OVERWRITE if overwrite else 0
        if epilogue is not None:
            flags |= BIAS | (RELU if epilogue.relu else 0)
        args = [
            *(constant(x) for x in (product.batch, product.m, product.n, product.k)),
            pointer(product.a, product.a_offset),
            *(constant(x) for x in product.a_strides),
            pointer(product.b, product.b_offset),
            *(constant(x) for x in product.b_strides),
            pointer(epilogue.out if epilogue is not None else product.written[1] if product.written else c),
            *(constant(x) for x in product.c_strides),
            constant(flags),
        ]
        if epilogue is None:
            new_ops.append(bias := llvm.ZeroOp(result_types=[PTR]))
            args.append(bias.res)
        else:
            args.append(pointer(epilogue.bias))
        elements = [storage_type(v.type.get_element_type()) for v in (product.a, product.b, c)]  # type: ignore[attr-defined]
        sources_freed_before = dict.fromkeys(  # both operands may be copies of one source
            use.operation
            for _, moved in product.copies
            for use in moved.source.uses
            if isinstance(use.operation, memref.DeallocOp)
            and use.operation.parent_block() is op.parent_block()
            and use.operation.is_before_in_block(op)
        )
        new_ops += _calls_over(product, args, elements)
        rewriter.replace(op, new_ops, new_results=[])
        for dealloc in sources_freed_before:  # the kernel reads the copies' sources now
            dealloc.detach()
            rewriter.insert(dealloc, InsertPoint.after(new_ops[-1]))
        for copy, _ in product.copies:
            buffer = copy.outputs[0]
            rewriter.erase(copy)
            _drop_if_unused(buffer, rewriter)
        if overwrite and fill is not None:
            rewriter.erase(fill)
        if epilogue is not None:
            rewriter.erase(epilogue.op)
            _drop_if_unused(c, rewriter)
        if product.written is not None:  # the kernel writes the copy's buffer itself
            copy, target = product.written
            rewriter.erase(copy)
            _drop_if_unused(c, rewriter)
            allocation = target.owner
            if isinstance(allocation, Operation) and not allocation.is_before_in_block(new_ops[0]):
                allocation.detach()
                rewriter.insert(allocation, InsertPoint.before(new_ops[0]))
        self.used[product.symbol] = None


# The positions of A's, B's and C's pointers among the GEMM's arguments.
_POINTER_ARGS = tuple(GEMM_ARGUMENT[name] for name in ("A", "B", "C"))


def _calls_over(product: KernelMatmul, args: list[SSAValue], elements: list[Attribute]) -> list[Operation]:
    """The GEMM call, inside an `scf.for` nest over the product's outer batch loops
    when it has any: each trip calls it on A, B and C offset by the loops' strides (in
    elements of `elements`, the storage types of A, B and C)."""
    if not product.outer:
        return [llvm.CallOp(product.symbol, *args)]
    index = IndexType()
    zero, one = (arith.ConstantOp(IntegerAttr(v, index)) for v in (0, 1))

    def nest(level: int, offsets: tuple[SSAValue | None, ...]) -> list[Operation]:
        if level == len(product.outer):
            ops: list[Operation] = []
            call_args = list(args)
            for position, offset, element in zip(_POINTER_ARGS, offsets, elements, strict=True):
                assert offset is not None
                ops.append(cast := arith.IndexCastOp(offset, i64))
                at = [llvm.GEP_USE_SSA_VAL]
                ops.append(gep := llvm.GEPOp(args[position], at, element, ssa_indices=[cast.result], inbounds=True))
                ops.append(plain := llvm.BitcastOp(gep.result, PTR))  # as the other pointers
                call_args[position] = plain.result
            return [*ops, llvm.CallOp(product.symbol, *call_args)]
        extent, *strides = product.outer[level]
        bound = arith.ConstantOp(IntegerAttr(extent, index))
        body = Block(arg_types=[index])
        ops = []
        moved: list[SSAValue] = []
        for offset, stride in zip(offsets, strides, strict=True):
            ops.append(step := arith.ConstantOp(IntegerAttr(stride, index)))
            ops.append(term := arith.MuliOp(body.args[0], step.result))
            if offset is not None:
                ops.append(term := arith.AddiOp(offset, term.result))
            moved.append(term.result)
        body.add_ops([*ops, *nest(level + 1, tuple(moved)), scf.YieldOp()])
        return [bound, scf.ForOp(zero.result, bound.result, one.result, [], body)]

    return [zero, one, *nest(0, (None, None, None))]


def _drop_if_unused(buffer: SSAValue, rewriter: PatternRewriter) -> None:
    """Erase `buffer`'s allocation if its dealloc is all that still uses it."""
    allocation = buffer.owner
    if not isinstance(allocation, memref.AllocOp) or not all(
        isinstance(use.operation, memref.DeallocOp) for use in buffer.uses
    ):
        return
    for use in list(buffer.uses):
        rewriter.erase(use.operation)
    rewriter.erase(allocation)


@dataclass(frozen=True)
class MatmulToKernelPass(ModulePass):
    """Bufferized f32, f64, f16, bf16 and i32 matrix products as calls of the GEMM
    micro-kernel (see the module doc)."""

    name = "linalg-matmul-to-kernel"
    input_dialects = ("arith", "linalg")
    output_dialects = ("llvm",)

    min_rows: int = MIN_ROWS
    """Result rows below which a product stays loops (a matrix-vector product's are
    faster). These limits are this pass's: `linalg-block-rows` and
    `linalg-fuse-elementwise`, which ask earlier whether the kernel will take a
    product, assume the defaults."""

    min_columns: int = MIN_COLUMNS
    """Result columns below which it stays loops (the kernel's tile would be mostly
    padding)."""

    min_depth: int = MIN_DEPTH
    """Contraction length below which it stays loops."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = MatmulToKernel(self)
        ConversionWalker([pattern], repeat=False, erase_dead=False).rewrite_module(op)
        for symbol in pattern.used:
            libraries.declare(op, symbol, GEMM_PARAMS)
