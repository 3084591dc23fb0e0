"""`outline-loop-nests`: each loop nest at the top level of a function becomes a
function of its own, a *kernel*, called in its place (XLA:CPU emits a function per
fusion the same way).

After `convert-linalg-to-loops` a program is one function holding every loop nest of
every fused operation (the transformer block: 60 nests, 85% of its LLVM IR). As
separate functions they can be compiled in parallel: the JIT splits a module's
functions into as many LLVM modules as it has threads and optimizes and generates
code for them at the same time (xla_opt/jit.py), as XLA's parallel codegen does.

For a top-level `scf.for` or `scf.parallel` without results in `@f` (not itself a
kernel), `@f_kernel_N` takes the values the nest uses from outside, in order of first
use. Constants and globals are recomputed inside instead (LLVM keeps seeing constant
bounds). The buffers are passed as memrefs, which convert-to-llvm marks `noalias`,
when they are distinct buffers (allocations, globals, the function's own arguments,
which the calling convention already makes distinct), otherwise as `!llvm.ptr` cast
back inside: `noalias` is what lets LLVM vectorize the loops without run-time overlap
checks, so it is kept wherever it holds. The kernel is `noinline` (LLVM would inline a
function called once back into its caller, compiling the nest twice) and is marked
`xla_opt.kernel`, so that running the pass again does not outline its nest again.

Identical nests share one kernel: a nest whose kernel body would be structurally
equivalent to one already outlined in the module (same ops, attributes, properties and
parameter types; locations and value names aside) calls that kernel instead, as XLA
reuses the kernel of identical fusions. A transformer block's 32 nests are 24 kernels
(its reshapes of the three attention heads are one): each is lowered and compiled once.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    FunctionType,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xla_opt.lowering.utils.llvm_types import PTR
from xla_opt.lowering.utils.outlining import REMATERIALIZED, FreshNames, captured_values, distinct_buffers

from xla_opt.diagnostics import locate_unlocated

KERNEL_ATTR = "xla_opt.kernel"
LOOP_NESTS = (scf.ForOp, scf.ParallelOp)


def is_outlinable(op: Operation) -> bool:
    """A loop nest whose effects are all on memory: no result to hand back."""
    return isinstance(op, LOOP_NESTS) and not op.results


class Kernels:
    """The kernels outlined so far, by a cheap signature (parameter types, op count):
    the candidates a new body is compared with in full."""

    def __init__(self) -> None:
        self.by_signature: dict[tuple, list[func.FuncOp]] = {}

    def candidates(self, body: Block) -> list[func.FuncOp]:
        """The kernels of `body`'s signature (a new kernel of that body is appended here)."""
        return self.by_signature.setdefault((tuple(body.arg_types), sum(1 for _ in body.walk())), [])


def outline(nest: Operation, fn: func.FuncOp, module: ModuleOp, names: FreshNames, kernels: Kernels) -> func.FuncOp:
    """Move `nest` into a kernel function (a new one inserted before `fn`, or an
    equivalent one of `kernels`); a call to it replaces the nest."""
    outside = captured_values(nest, own_operands=True)
    passed = [v for v in outside if not isinstance(v.owner, REMATERIALIZED)]
    as_memrefs = distinct_buffers(passed)

    def param_type(t):
        return PTR if isinstance(t, MemRefType) and not as_memrefs else t

    body = Block(arg_types=[param_type(v.type) for v in passed])
    replacements = {}
    for v in outside:
        if isinstance(v.owner, REMATERIALIZED):
            clone = v.owner.clone()
            body.add_op(clone)
            replacements[v] = clone.results[0]
    for v, arg in zip(passed, body.args, strict=True):
        arg.name_hint = v.name_hint
        if arg.type != v.type:
            cast = UnrealizedConversionCastOp.get([arg], [v.type])
            body.add_op(cast)
            replacements[v] = cast.results[0]
        else:
            replacements[v] = arg
    for v, new in replacements.items():
        v.replace_uses_with_if(new, lambda use: nest.is_ancestor(use.operation))

    site = nest.parent_block()
    assert site is not None
    args = []
    for v in passed:
        if param_type(v.type) != v.type:
            cast = UnrealizedConversionCastOp.get([v], [PTR])
            site.insert_op_before(cast, nest)
            v = cast.results[0]
        args.append(v)
    after = nest.next_op  # where the call goes: a block ends with its terminator
    assert after is not None
    nest.detach()
    body.add_op(nest)
    body.add_op(func.ReturnOp())
    candidates = kernels.candidates(body)
    kernel = next((k for k in candidates if k.body.block.is_structurally_equivalent(body)), None)
    if kernel is None:
        name = names.fresh(f"{fn.sym_name.data}_kernel")
        kernel = func.FuncOp(name, FunctionType.from_lists(body.arg_types, []), Region(body), visibility="private")
        kernel.attributes[KERNEL_ATTR] = UnitAttr()
        kernel.attributes["passthrough"] = ArrayAttr([StringAttr("noinline")])
        locate_unlocated(kernel, nest.location)
        module.body.block.insert_op_before(kernel, fn)
        candidates.append(kernel)
    else:
        body.erase()
    call = func.CallOp(kernel.sym_name.data, args, [])
    call.location = nest.location
    site.insert_op_before(call, after)
    return kernel


@dataclass(frozen=True)
class OutlineLoopNestsPass(ModulePass):
    """Top-level loop nests of every function as kernel functions (see the module doc)."""

    name = "outline-loop-nests"
    input_dialects = ("memref", "scf")  # memref: an identical nest calls the kernel of the first, its own ops gone
    output_dialects = ("arith", "builtin", "func", "memref", "scf")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = [f for f in op.body.block.ops if isinstance(f, func.FuncOp) and f.body.blocks]
        names, kernels = FreshNames(op), Kernels()
        for fn in functions:
            if KERNEL_ATTR in fn.attributes:
                continue
            for block in fn.body.blocks:
                for nest in [o for o in block.ops if is_outlinable(o)]:
                    outline(nest, fn, op, names, kernels)


def split_by_kernels(module: ModuleOp, parts: int) -> list[ModuleOp]:
    """`module`, outlined, as up to `parts` modules that together define what it
    defines, for the rest of the pipeline to lower one at a time (and the JIT to compile
    each while the next is lowered): its kernels dealt in order into `parts - 1` modules
    of about the same number of ops, each with a copy of every declaration and of the
    read-only globals its kernels read; last, `module` itself, its kernels replaced by
    declarations. `[module]` when it has fewer than two kernels, or a top-level op
    other than functions, declarations and read-only globals (a copy of a writable
    global would be a second variable), or a kernel reading another global."""
    from xdsl.dialects import llvm, memref

    top = list(module.body.block.ops)
    kernels = [op for op in top if isinstance(op, func.FuncOp) and KERNEL_ATTR in op.attributes and op.body.blocks]
    if parts < 2 or len(kernels) < 2:
        return [module]
    declarations: list[Operation] = []
    constants: dict[str, memref.GlobalOp] = {}
    for op in top:
        if isinstance(op, func.FuncOp | llvm.FuncOp) and not op.body.blocks:
            declarations.append(op)
        elif isinstance(op, memref.GlobalOp) and op.constant is not None:
            constants[op.sym_name.data] = op
        elif not isinstance(op, func.FuncOp):
            return [module]
    read: dict[func.FuncOp, list[str]] = {}
    sizes: dict[func.FuncOp, int] = {}
    for kernel in kernels:
        names: dict[str, None] = {}
        size = 0
        for op in kernel.walk():
            size += 1
            if isinstance(op, memref.GetGlobalOp):
                names.setdefault(op.name_.root_reference.data, None)
        if any(name not in constants for name in names):
            return [module]
        read[kernel], sizes[kernel] = list(names), size
    count = min(parts - 1, len(kernels))
    total, groups, filled = sum(sizes.values()), [[] for _ in range(count)], 0
    for kernel in kernels:  # in order, each group about total / count ops
        g = min(count - 1, filled * count // max(total, 1))
        groups[g].append(kernel)
        filled += sizes[kernel]
    modules = []
    for group in groups:
        if not group:
            continue
        globals_ = dict.fromkeys(name for kernel in group for name in read[kernel])
        ops: list[Operation] = [d.clone() for d in declarations]
        ops += [constants[name].clone() for name in globals_]
        for kernel in group:
            signature = kernel.function_type
            declaration = func.FuncOp.external(kernel.sym_name.data, signature.inputs.data, signature.outputs.data)
            declaration.location = kernel.location
            module.body.block.insert_op_before(declaration, kernel)
            kernel.detach()
            ops.append(kernel)
        modules.append(ModuleOp(ops))
    modules.append(module)
    return modules
