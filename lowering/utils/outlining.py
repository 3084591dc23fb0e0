"""What outlining a region into a function of its own needs to know, shared by
`outline-loop-nests` (a loop nest as a kernel function) and `convert-omp-to-llvm` (a
parallel region as the function each thread runs): the values the region uses from
outside, which of them are cheaper to recompute inside than to pass, whether the
buffers passed are distinct (so the parameters may be `noalias`), and fresh names."""

from __future__ import annotations

from xdsl.dialects import arith, func, llvm, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, SSAValue

# ops without operands whose value is cheaper to recompute in the body than to pass
REMATERIALIZED = (arith.ConstantOp, llvm.ConstantOp, memref.GetGlobalOp)


def defining_op(value: SSAValue) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, Operation) else owner.parent_op()


def captured_values(region_op: Operation, own_operands: bool = False) -> list[SSAValue]:
    """Values used inside `region_op` and defined outside it, in order of first use;
    with `own_operands`, `region_op`'s own operands first."""
    seen: dict[SSAValue, None] = {}
    for op in region_op.walk():
        if op is region_op and not own_operands:
            continue
        for operand in op.operands:
            definer = defining_op(operand)
            if definer is None or not region_op.is_ancestor(definer):
                seen.setdefault(operand, None)
    return list(seen)


def buffer_root(value: SSAValue) -> object | None:
    """What tells `value`'s buffer apart from others: the value itself for an alloc,
    an alloca or an argument of a function's entry block, a global's name; None when
    unknown (a loop-carried buffer, a call's result...). A collapsed view
    (`memref.collapse_shape`) has its source's."""
    owner = value.owner
    while isinstance(owner, memref.CollapseShapeOp):
        value = owner.src
        owner = value.owner
    if isinstance(owner, memref.AllocOp | memref.AllocaOp):
        return value
    if isinstance(owner, memref.GetGlobalOp):
        return owner.name_.root_reference.data
    if isinstance(owner, Block) and isinstance(owner.parent_op(), func.FuncOp) and owner is owner.parent.first_block:
        return value
    return None


def distinct_buffers(values: list[SSAValue]) -> bool:
    """Whether the memrefs among `values` are distinct buffers, each told apart by its
    `buffer_root`: then the function they are passed to may take them as memrefs,
    which convert-to-llvm marks `noalias`."""
    roots = [buffer_root(v) for v in values if isinstance(v.type, MemRefType)]
    return None not in roots and len(set(roots)) == len(roots)


class FreshNames:
    """Symbol names no op of a module has yet: `fresh("f_kernel")` is `f_kernel_N` for
    the first free N, counting on from the last one given (the module's symbols are read
    once: a lookup per candidate would make outlining quadratic in the number of
    functions)."""

    def __init__(self, module: ModuleOp):
        self.taken = {
            name.data
            for op in module.body.block.ops
            if isinstance(name := op.attributes.get("sym_name") or op.properties.get("sym_name"), StringAttr)
        }
        self.next: dict[str, int] = {}

    def fresh(self, base: str) -> str:
        n = self.next.get(base, 0)
        while f"{base}_{n}" in self.taken:
            n += 1
        self.next[base] = n + 1
        name = f"{base}_{n}"
        self.taken.add(name)
        return name
