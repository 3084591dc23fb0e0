"""`linalg-matmul-to-kernel`: a bufferized f32 or f64 matrix product becomes a call of
the micro-kernel library's GEMM (`lowering/kernels/gemm.py`, `xla_opt_sgemm` or
`xla_opt_dgemm`).

It runs after `xla-bufferize`, on memrefs. It takes a `linalg.generic` that is a plain
2-D matrix product, its operands all f32 or all f64: three loops, one of them a reduction k, the output indexed by
the two parallel loops (i, j), one input by {i, k} and the other by {k, j} (each in
either order: a transposed operand is a pair of strides for the kernel's packing), a
body `acc + lhs * rhs`, identity-layout 2-D memrefs, and M, N, K all >= MIN_EXTENT
(below that the unrolled loops `linalg-block-rows` makes win). Its outs buffer holds
the accumulator's initial value (a generic computes outs += ins product), so the call
computes C += A @ B just the same: the zero fill before it is kept.

The call passes bare pointers (`convert-to-llvm` turns each memref into one: the
`llvm.bitcast` of a memref to `!llvm.ptr` becomes a bitcast of that pointer) and the
row/column strides of A and B and C's row stride, as i64 constants. The module gets
an external declaration of each kernel it calls; the JIT binds the symbols
(`lowering/kernels/runtime.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    ShapedType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import SymbolTable
from xla_opt.lowering.contractions import is_multiply_accumulate
from xla_opt.lowering.kernels.gemm import DGEMM, SGEMM
from xla_opt.lowering.llvm_types import PTR
from xla_opt.lowering.xla_to_linalg.common import REDUCTION

MIN_EXTENT = 32
# The operands' element type -> the GEMM that computes in it.
GEMM_OF = {Float32Type: SGEMM.symbol, Float64Type: DGEMM.symbol}


@dataclass(frozen=True)
class KernelMatmul:
    """C[i, j] += A[i, k] * B[k, j]: the kernel that computes it, which input is A, and
    the strides (in elements) of A along i and k, of B along k and j; C is row-major
    (its rows are the output's first dimension)."""

    symbol: str
    m: int
    n: int
    k: int
    a: SSAValue
    a_strides: tuple[int, int]
    b: SSAValue
    b_strides: tuple[int, int]


def _loops(results) -> list[int] | None:
    """The loop indexing each dimension of a 2-D operand, or None (not plain dims)."""
    if len(results) != 2 or not all(isinstance(e, AffineDimExpr) for e in results):
        return None
    return [e.position for e in results]


def _strides(shape, loops: list[int], first: int, second: int) -> tuple[int, int] | None:
    """The row-major strides of a 2-D operand along loops `first` and `second`."""
    if sorted(loops) != sorted((first, second)):
        return None
    row_major = {loops[0]: shape[1], loops[1]: 1}
    return row_major[first], row_major[second]


def kernel_matmul(op: linalg.GenericOp) -> KernelMatmul | None:
    """The matrix product `op` computes if the kernel takes it (see the module doc), on
    tensors (so that `linalg-block-rows` leaves it alone) or memrefs."""
    if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.iterator_types.data) != 3:
        return None
    operands = [*op.inputs, *op.outputs]
    types = [v.type for v in operands]
    if not all(isinstance(t, ShapedType) for t in types):
        return None
    elements = {type(t.get_element_type()) for t in types}  # type: ignore[attr-defined]
    symbol = GEMM_OF.get(elements.pop()) if len(elements) == 1 else None
    if symbol is None:
        return None
    if any(isinstance(t, MemRefType) and not isinstance(t.layout, NoneAttr) for t in types):
        return None
    iterators = [it.data for it in op.iterator_types.data]
    if iterators.count(REDUCTION.data) != 1 or not is_multiply_accumulate(op):
        return None
    maps = [m.data for m in op.indexing_maps.data]
    if any(m.num_symbols for m in maps):
        return None
    loops = [_loops(m.results) for m in maps]
    if any(ls is None for ls in loops):
        return None
    i, j = loops[2]  # type: ignore[misc]
    k = iterators.index(REDUCTION.data)
    if len({i, j, k}) != 3:
        return None
    first, second = (0, 1) if i in loops[0] else (1, 0)  # type: ignore[operator]
    shapes = [t.get_shape() for t in types]  # type: ignore[attr-defined]
    a_strides = _strides(shapes[first], loops[first], i, k)  # type: ignore[arg-type]
    b_strides = _strides(shapes[second], loops[second], k, j)  # type: ignore[arg-type]
    if a_strides is None or b_strides is None:
        return None
    m, n = shapes[2]
    depth = shapes[first][loops[first].index(k)]  # type: ignore[union-attr]
    if min(m, n, depth) < MIN_EXTENT:
        return None
    return KernelMatmul(symbol, m, n, depth, operands[first], a_strides, operands[second], b_strides)


class MatmulToKernel(RewritePattern):
    """A bufferized f32 or f64 matrix product (see the module doc) -> `llvm.call
    @xla_opt_sgemm` or `@xla_opt_dgemm`."""

    def __init__(self) -> None:
        self.used: dict[str, None] = {}  # the kernels called, in order

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        product = kernel_matmul(op)
        if product is None or not isinstance(op.outputs[0].type, MemRefType):
            return  # on tensors, linalg-block-rows only asks kernel_matmul
        new_ops = []

        def constant(value: int) -> SSAValue:
            new_ops.append(c := llvm.ConstantOp(IntegerAttr(value, i64), i64))
            return c.result

        def pointer(buffer: SSAValue) -> SSAValue:
            new_ops.append(cast := llvm.BitcastOp(buffer, PTR))
            return cast.result

        args = [
            *(constant(x) for x in (product.m, product.n, product.k)),
            pointer(product.a),
            *(constant(x) for x in product.a_strides),
            pointer(product.b),
            *(constant(x) for x in product.b_strides),
            pointer(op.outputs[0]),
            constant(product.n),
        ]
        rewriter.replace(op, [*new_ops, llvm.CallOp(product.symbol, *args)], new_results=[])
        self.used[product.symbol] = None


def gemm_declaration(symbol: str) -> llvm.FuncOp:
    """`llvm.func @<symbol>(i64 M, i64 N, i64 K, ptr A, i64, i64, ptr B, i64, i64, ptr C, i64)`."""
    strided = [PTR, i64, i64]
    signature = llvm.LLVMFunctionType([i64, i64, i64, *strided, *strided, PTR, i64], llvm.LLVMVoidType())
    return llvm.FuncOp(symbol, signature, linkage=llvm.LinkageAttr("external"))


@dataclass(frozen=True)
class MatmulToKernelPass(ModulePass):
    """Bufferized f32 and f64 matrix products as calls of the GEMM micro-kernel (see the
    module doc)."""

    name = "linalg-matmul-to-kernel"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = MatmulToKernel()
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
        for symbol in pattern.used:
            declare(op, gemm_declaration(symbol))


def declare(module: ModuleOp, declaration: llvm.FuncOp) -> None:
    """The kernel's external `declaration`, once per module."""
    if SymbolTable.lookup_symbol(module, declaration.sym_name.data) is None:
        module.body.block.add_op(declaration)


def rewrite_to_calls(module: ModuleOp, pattern, declaration: llvm.FuncOp) -> None:
    """One walk of `pattern` (which sets `used` when it rewrote an op into a call of a
    kernel); then the kernel's external `declaration`, once per module."""
    PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(module)
    if pattern.used:
        declare(module, declaration)
