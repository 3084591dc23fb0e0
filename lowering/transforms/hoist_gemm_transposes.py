"""`hoist-gemm-transposes`: a GEMM call in a loop that reads a matrix the loop never
writes, transposed, reads a transposed copy of it made once before the loop.

The GEMM kernel packs B into panels of NR contiguous columns; a B whose columns are
contiguous (B = Wᵀ for a row-major W: JAX's backward pass of `x @ Wᵀ`, an LSTM's
`dgates @ Wᵀ` against its 128 x 512 weight) is packed by a strided walk, and packed
again on every trip of the loop around the product, though W never changes there. A
copy of W transposed, made before the loop, has contiguous rows: the kernel reads its
panels in place when the product has few rows (`gemm.IN_PLACE_B_MAX_PANELS`), and
packs them from contiguous rows otherwise.

A call is rewritten when its B pointer is a plain view of a rank-2 buffer `[n, k]`
with B's row stride 1 and column stride k (B is exactly that buffer transposed), one
batch, and the buffer is defined outside a loop (`scf.for`, `scf.while`) that holds
the call and only read inside it: every use there is a GEMM's A or B pointer, a load,
or a generic's input, and nothing makes another memref of it (an alias the loop could
write it through). The copy is made before the outermost such loop and freed after
it; calls reading the same buffer in that loop share it. The products are the same:
the kernel reads the same values.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm, memref, scf
from xdsl.dialects.builtin import AffineMapAttr, IntegerAttr, MemRefType, ModuleOp, NoneAttr, i64
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xla_opt.lowering.kernels.gemm import ARGUMENT as _ARG
from xla_opt.lowering.kernels.gemm import GEMMS
from xla_opt.lowering.utils.llvm_types import PTR

LOOPS = (scf.ForOp, scf.WhileOp)
_SYMBOLS = frozenset(GEMMS)


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, llvm.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _is_gemm(op: Operation) -> bool:
    return isinstance(op, llvm.CallOp) and op.callee.string_value() in _SYMBOLS


def _only_read_in(buffer: SSAValue, loop: Operation) -> bool:
    """Whether every use of `buffer` inside `loop` reads it: a load, a generic's
    input, or a view of it passed as a GEMM's A or B; and no op anywhere makes another
    memref of it (an alias the loop could write it through)."""
    for use in buffer.uses:
        user = use.operation
        if any(isinstance(r.type, MemRefType) for r in user.results):
            return False
        if not loop.is_ancestor(user):
            continue
        if isinstance(user, memref.LoadOp):
            continue
        if isinstance(user, linalg.GenericOp) and use.index < len(user.inputs):
            continue
        if isinstance(user, llvm.BitcastOp) and all(
            _is_gemm(u.operation) and u.index in (_ARG["A"], _ARG["B"]) for u in user.result.uses
        ):
            continue
        return False
    return True


def _transposed_operand(call: llvm.CallOp) -> SSAValue | None:
    """The buffer `[n, k]` whose transpose is `call`'s B, when B is exactly that."""
    args = call.args
    view = args[_ARG["B"]].owner
    if not isinstance(view, llvm.BitcastOp) or _constant(args[_ARG["batch"]]) != 1:
        return None
    buffer = view.arg
    t = buffer.type
    n, k = _constant(args[_ARG["N"]]), _constant(args[_ARG["K"]])
    if not isinstance(t, MemRefType) or t.get_shape() != (n, k) or not isinstance(t.layout, NoneAttr):
        return None  # not a row-major [n, k]
    if _constant(args[_ARG["ldb_row"]]) != 1 or _constant(args[_ARG["ldb_col"]]) != k or k == 1:
        return None
    return buffer


def _defined_inside(value: SSAValue, loop: Operation) -> bool:
    owner = value.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    return op is not None and loop.is_ancestor(op)


def _hoisting_loop(call: Operation, buffer: SSAValue) -> Operation | None:
    """The outermost loop around `call` that `buffer` is defined outside and only read
    in (None when the innermost is not)."""
    found = None
    parent = call.parent_op()
    while parent is not None:
        if isinstance(parent, LOOPS):
            if _defined_inside(buffer, parent) or not _only_read_in(buffer, parent):
                break
            found = parent
        parent = parent.parent_op()
    return found


def _transposed_copy(buffer: SSAValue, loop: Operation) -> SSAValue:
    """A copy of `buffer` [n, k] transposed, [k, n], made before `loop`, freed after."""
    t = buffer.type
    assert isinstance(t, MemRefType)
    n, k = t.get_shape()
    copy = memref.AllocOp([], [], MemRefType(t.get_element_type(), [k, n]))
    body = Block(arg_types=[t.get_element_type()] * 2)
    body.add_op(linalg.YieldOp(body.args[0]))
    transpose = linalg.GenericOp(
        [buffer],
        [copy.memref],
        Region(body),
        [AffineMapAttr(AffineMap.from_callable(lambda i, j: (j, i))), AffineMapAttr(AffineMap.identity(2))],
        [linalg.IteratorTypeAttr.parallel()] * 2,
    )
    block = loop.parent_block()
    assert block is not None
    block.insert_ops_before([copy, transpose], loop)
    block.insert_op_after(memref.DeallocOp.get(copy.memref), loop)
    return copy.memref


def hoist_gemm_transposes(module: ModuleOp) -> None:
    copies: dict[tuple[int, int], SSAValue] = {}  # (loop, buffer) -> its transposed copy
    for call in [op for op in module.walk() if _is_gemm(op)]:
        buffer = _transposed_operand(call)  # type: ignore[arg-type]
        if buffer is None:
            continue
        loop = _hoisting_loop(call, buffer)
        if loop is None:
            continue
        key = (id(loop), id(buffer))
        if key not in copies:
            copies[key] = _transposed_copy(buffer, loop)
        n = _constant(call.args[_ARG["N"]])
        view = llvm.BitcastOp(copies[key], PTR)
        row_stride = llvm.ConstantOp(IntegerAttr(n, i64), i64)
        col_stride = llvm.ConstantOp(IntegerAttr(1, i64), i64)
        block = call.parent_block()
        assert block is not None
        block.insert_ops_before([view, row_stride, col_stride], call)
        replaced = [call.args[_ARG[name]].owner for name in ("B", "ldb_row", "ldb_col")]
        call.operands[_ARG["B"]] = view.result
        call.operands[_ARG["ldb_row"]] = row_stride.result
        call.operands[_ARG["ldb_col"]] = col_stride.result
        for old in replaced:  # B's old view and strides, when nothing else uses them
            if isinstance(old, llvm.BitcastOp | llvm.ConstantOp) and old.parent is not None and not old.results[0].uses:
                old.detach()
                old.erase()


@dataclass(frozen=True)
class HoistGemmTransposesPass(ModulePass):
    """A GEMM in a loop reading a matrix the loop only reads, transposed, reads a
    transposed copy made once before the loop (see the module doc)."""

    name = "hoist-gemm-transposes"
    input_dialects = ("llvm",)
    output_dialects = ("linalg", "llvm", "memref")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        hoist_gemm_transposes(op)
