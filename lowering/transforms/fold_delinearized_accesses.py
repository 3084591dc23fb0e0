"""`fold-delinearized-accesses`: a load or store whose indices split one linear index
back into the coordinates of its buffer, in the buffer's own row-major order, reads or
writes a 1-D view of the buffer at that index instead.

A reshape that merges dimensions reads its operand through divisions
(`reshape_indices`); after `convert-linalg-to-loops`, reading a 96x96x96 buffer as
884736 elements is

    %a = affine.apply affine_map<(d0) -> (d0 floordiv 9216)> (%i)
    %b = affine.apply affine_map<(d0) -> ((d0 floordiv 96) mod 96)> (%i)
    %c = affine.apply affine_map<(d0) -> (d0 mod 96)> (%i)
    %x = memref.load %m[%a, %b, %c] : memref<96x96x96xf32>

whose address, 9216 * %a + 96 * %b + %c, is %i (`linear_form` with divisions: the
quotients cancel). It becomes

    %v = memref.collapse_shape %m [[0, 1, 2]] : memref<96x96x96xf32> into memref<884736xf32>
    %x = memref.load %v[%i] : memref<884736xf32>

with the view made once per buffer, right after the buffer's definition. LLVM does not
see through the divisions itself: that loop ran at 0.15 G elements/s, a tenth of a
plain loop's, and did not vectorize. It runs before `lower-affine`, on accesses whose
indices are `affine.apply`s (of any values) or plain values, on
buffers of static shape and identity layout; an address that keeps a division (merged
dimensions read out of order: a transpose before the reshape) is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import affine, memref
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerAttr, MemRefType, ModuleOp, NoneAttr, i64
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xla_opt.lowering.utils.linear_forms import linear_address


def _has_division(expr: AffineExpr) -> bool:
    return any(
        isinstance(e, AffineBinaryOpExpr) and e.kind in (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.Mod)
        for e in expr.dfs()
    )


def linear_index(op: memref.LoadOp | memref.StoreOp) -> tuple[AffineExpr, tuple[SSAValue, ...]] | None:
    """The index into the 1-D view of `op`'s buffer that addresses what `op` does, as an
    affine expression of the values its indices are computed from (by `affine.apply`,
    or as they are), and those values; None when no index has a division to fold, or
    the address keeps one."""
    t = op.memref.type
    if not isinstance(t, MemRefType) or not isinstance(t.layout, NoneAttr) or len(t.get_shape()) < 2:
        return None
    if any(size < 0 for size in t.get_shape()):
        return None
    if not any(isinstance(i.owner, affine.ApplyOp) for i in op.indices):
        return None
    values: list[SSAValue] = []  # what the indices are computed from, each a dimension

    def dimension(value: SSAValue) -> AffineExpr:
        if value not in values:
            values.append(value)
        return AffineExpr.dimension(values.index(value))

    exprs: list[AffineExpr] = []
    for index in op.indices:
        apply = index.owner
        if not isinstance(apply, affine.ApplyOp):
            exprs.append(dimension(index))
            continue
        if apply.map.data.num_symbols:
            return None
        (expr,) = apply.map.data.results
        exprs.append(expr.replace_dims_and_symbols([dimension(v) for v in apply.mapOperands], []))
    if not any(_has_division(e) for e in exprs):
        return None
    address = linear_address(t.get_shape(), exprs)
    if address is None or any(not isinstance(term, int) for term, _ in address.terms):
        return None
    return address.as_affine(), tuple(values)


def _view(buffer: SSAValue, views: dict[SSAValue, SSAValue]) -> SSAValue:
    """The 1-D view of `buffer`, made once, right after `buffer` is defined."""
    if buffer not in views:
        t = buffer.type
        assert isinstance(t, MemRefType)
        view = memref.CollapseShapeOp.build(
            operands=[buffer],
            result_types=[MemRefType(t.get_element_type(), [prod(t.get_shape())])],
            properties={
                "reassociation": ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in range(t.get_num_dims())])])
            },
        )
        owner = buffer.owner
        if isinstance(owner, Block):
            if owner.first_op is None:
                owner.add_op(view)
            else:
                owner.insert_op_before(view, owner.first_op)
        else:
            assert isinstance(owner, Operation) and owner.parent is not None
            owner.parent.insert_op_after(view, owner)
            view.location = owner.location
        views[buffer] = view.result
    return views[buffer]


def fold(op: memref.LoadOp | memref.StoreOp, views: dict[SSAValue, SSAValue]) -> bool:
    """Rewrite `op` onto the 1-D view of its buffer when `linear_index` folds."""
    folded = linear_index(op)
    if folded is None:
        return False
    expr, values = folded
    old_indices = list(op.indices)
    if isinstance(expr, AffineDimExpr):
        index = values[expr.position]
    else:
        apply = affine.ApplyOp(list(values), AffineMapAttr(AffineMap(len(values), 0, (expr,))))
        apply.location = op.location
        assert op.parent is not None
        op.parent.insert_op_before(apply, op)
        index = apply.result
    stored = [op.value] if isinstance(op, memref.StoreOp) else []
    op.operands = [*stored, _view(op.memref, views), index]
    for index in old_indices:
        owner = index.owner
        if isinstance(owner, affine.ApplyOp) and not owner.result.uses and owner.parent is not None:
            owner.parent.erase_op(owner)
    return True


@dataclass(frozen=True)
class FoldDelinearizedAccessesPass(ModulePass):
    """Loads and stores that delinearize an index in memory order, on 1-D views at that
    index (see the module doc)."""

    name = "fold-delinearized-accesses"
    input_dialects = ("affine", "memref")
    output_dialects = ("memref",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        views: dict[SSAValue, SSAValue] = {}
        for access in [o for o in op.walk() if isinstance(o, memref.LoadOp | memref.StoreOp)]:
            fold(access, views)
