"""`xla-bufferize`: the linalg-on-tensors level to memrefs.

Calling convention (destination passing). A function

    func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>)

becomes

    func.func @f(%a: memref<4xf32>, %out0: memref<4xf32>, %out1: memref<i32>)

The caller owns every buffer: inputs are read-only, outputs are written. Calls between
functions follow the same rule (the caller allocates the callee's outputs). A scalar
parameter or result (`i32`, `f32`, `index`, `complex<f32>`) of a function with a body
crosses the boundary the same way, as a rank-0 buffer (`memref<i32>`): the callee
loads a parameter at its entry and stores a result before it returns; a caller stores
its scalar arguments into buffers of its own and loads the scalar results after the
call. A declaration (a kernel's C entry point) takes its scalars by value.

Buffers:
* `tensor.empty` becomes an allocation: `memref.alloca` when small and in the
  function's top-level block, `memref.alloc` otherwise; every allocation a region makes
  is freed at the end of that region, unless it is returned: a returned allocation is
  replaced by the output buffer itself, so the result is computed in place.
* a `linalg.generic` writes its `outs` buffer in place when nobody reads that tensor
  afterwards (see `tensor.insert`) and the buffer is ours (never a function input or a
  constant); otherwise it writes into a copy, or into a fresh buffer when its body
  never reads the `outs` value (every element is overwritten, as MLIR's bufferization
  knows from the op not reading that operand).
* a fill (a generic of constants alone) that several ops write into is computed
  once for each of them, into its own buffer, rather than copied
  (`_one_fill_per_destination`).
* constant tensors become read-only `memref.global`s.
* `tensor.from_elements` becomes an allocation and one store per element.
* `tensor.insert` stores into its destination's buffer in place under the same rule
  (it is ours, and every other use of the destination comes earlier in the same block,
  where the destination is defined: a later reader, or a loop that runs the insert again,
  needs the old value); otherwise it stores into a copy.
* `scf.if`, `scf.while` and `scf.for` on tensors keep their values in buffers allocated
  before them; branches and loop bodies copy what they yield into those buffers (a
  for's state reuses its init's buffer when that could be written in place).

The pass is one sweep over each function, in program order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from xla_opt.diagnostics import locate_unlocated

STACK_LIMIT_BYTES = 4096  # the default of the pass's `stack-limit-bytes` option


def memref_type(t: Attribute) -> Attribute:
    if isinstance(t, TensorType):
        return MemRefType(t.get_element_type(), t.get_shape())
    return t


def is_scalar(t: Attribute) -> bool:
    """A scalar a function may take or return: an integer, index, float or complex."""
    return isinstance(t, IntegerType | IndexType | AnyFloat | ComplexType)


def boundary_type(t: Attribute) -> Attribute:
    """How a parameter or result of type `t` crosses a function's boundary: a tensor as
    its memref, a scalar as a rank-0 memref of it."""
    return MemRefType(t, []) if is_scalar(t) else memref_type(t)


def _byte_size(t: MemRefType) -> int:
    n = 1
    for d in t.get_shape():
        n *= d
    element = t.get_element_type()
    parts = 1
    if isinstance(element, ComplexType):  # (re, im)
        element, parts = element.element_type, 2
    width = getattr(element, "bitwidth", 64)
    return n * parts * max(1, (width + 7) // 8)


def _erase(op: Operation) -> None:
    """Remove an op whose results have no users left."""
    op.detach()
    op.erase()


@dataclass
class _Scope:
    """The buffers a region allocated; freed before its terminator."""

    owned: list[SSAValue] = field(default_factory=list)


class _FunctionBufferizer:
    def __init__(self, pass_: _ModuleBufferizer, fn: func.FuncOp):
        self.module_pass = pass_
        self.fn = fn
        self.env: dict[SSAValue, SSAValue] = {}
        # buffers we allocated and may write in place
        self.ours: set[SSAValue] = set()
        self.retired: list[Operation] = []
        # the block each retired op was taken out of
        self.home: dict[Operation, Block | None] = {}
        self.retired_args: list[tuple[Block, BlockArgument]] = []

    # ---- helpers -----------------------------------------------------------------
    def retire(self, op: Operation) -> None:
        """Take a converted op out of its block; later tensor ops may still name its
        results (they are looked up in `env`), so it is erased only at the end."""
        self.home[op] = op.parent_block()
        op.detach()
        self.retired.append(op)

    def writable_in_place(self, value: SSAValue, writer: Operation) -> bool:
        """Whether `writer` may overwrite `value`'s buffer: the buffer is ours, `value`
        is defined in the writer's block, and every other use of it comes earlier in
        that block (ops run in program order here, so those reads are done; a use
        later, or inside the writer, still needs the old contents, and so does the
        next iteration of a loop around the writer when `value` comes from outside)."""
        if self.env.get(value) not in self.ours:
            return False
        block = writer.parent_block()
        assert block is not None
        if isinstance(value, BlockArgument):
            home = value.block
        else:
            owner = value.owner
            assert isinstance(owner, Operation)
            home = owner.parent_block() or self.home.get(owner)
        if home is not block:
            return False
        if sum(use.operation is writer for use in value.uses) > 1:
            return False  # e.g. one (cse-merged) tensor.empty as two loop states: two buffers
        for use in value.uses:
            if use.operation is writer:
                continue
            ancestor = block.find_ancestor_op_in_block(use.operation)
            # no ancestor in the block: the user was converted and taken out already
            if ancestor is not None and (ancestor is writer or not ancestor.is_before_in_block(writer)):
                return False
        return True

    def buffer(self, value: SSAValue) -> SSAValue:
        try:
            return self.env[value]
        except KeyError:
            raise PassFailedException(f"xla-bufferize: no buffer for {value}") from None

    def allocate(self, t: MemRefType, before: Operation, scope: _Scope, top_level: bool) -> SSAValue:
        if top_level and _byte_size(t) <= self.module_pass.stack_limit_bytes:
            op = memref.AllocaOp.get(t.get_element_type(), shape=t.get_shape())
            before.parent_block().insert_op_before(op, before)  # type: ignore[union-attr]
            self.ours.add(op.memref)
            return op.memref
        op = memref.AllocOp([], [], t)
        before.parent_block().insert_op_before(op, before)  # type: ignore[union-attr]
        scope.owned.append(op.memref)
        self.ours.add(op.memref)
        return op.memref

    def copy(self, source: SSAValue, dest: SSAValue, before: Operation) -> None:
        before.parent_block().insert_op_before(memref.CopyOp(source, dest), before)  # type: ignore[union-attr]

    def writable_buffer(self, value: SSAValue, writer: Operation, scope: _Scope, top_level: bool) -> SSAValue:
        """`value`'s buffer if `writer` may overwrite it, else a fresh copy of it."""
        buf = self.buffer(value)
        if self.writable_in_place(value, writer):
            return buf
        fresh = self.allocate(buf.type, writer, scope, top_level)  # type: ignore[arg-type]
        self.copy(buf, fresh, writer)
        return fresh

    def state_buffer(
        self, init: SSAValue, unchanged: bool, loop: Operation, scope: _Scope, top_level: bool
    ) -> SSAValue:
        """A loop state's buffer: `writable_buffer`, but a state every iteration passes
        on unchanged (JAX's while loops carry the weights a scan closes over) is read in
        the init's own buffer when that is not ours (a function argument, a constant):
        nothing writes such a buffer in place, so no copy is needed (an LSTM's 64 KB
        inputs and 256 KB weights were copied before each of its two loops). A buffer of
        ours stays `writable_buffer`'s: the loop's result would alias it, and a write
        in place into that result could not see the init's later readers."""
        buf = self.buffer(init)
        if unchanged and buf not in self.ours:
            return buf
        return self.writable_buffer(init, loop, scope, top_level)

    # ---- the sweep -----------------------------------------------------------------
    def run(self) -> None:
        fn = self.fn
        if not fn.body.blocks:
            # a declaration: same calling convention, no body to rewrite
            ftype = fn.function_type
            # (a kernel's C entry point: its scalars are passed by value)
            fn.function_type = FunctionType.from_lists(
                [memref_type(t) for t in (*ftype.inputs.data, *ftype.outputs.data)], []
            )
            return
        block = fn.body.block
        ftype = fn.function_type
        out_types = [boundary_type(t) for t in ftype.outputs.data]
        scalar_args = []
        for arg in list(block.args):
            if isinstance(arg.type, TensorType):
                new = block.insert_arg(memref_type(arg.type), arg.index)
                new.name_hint = arg.name_hint
                new.location = arg.location
                self.env[arg] = new
            elif is_scalar(arg.type):
                # passed by pointer: loaded once, at the entry
                new = block.insert_arg(boundary_type(arg.type), arg.index)
                new.name_hint = arg.name_hint
                new.location = arg.location
                load = memref.LoadOp.get(new, [])
                load.location = arg.location
                block.insert_op_before(load, block.first_op)  # type: ignore[arg-type]
                arg.replace_all_uses_with(load.res)
                scalar_args.append(arg)
        self.out_params = [block.insert_arg(t, len(block.args)) for t in out_types]
        for i, out in enumerate(self.out_params):
            out.name_hint = f"out{i}"
            out.location = fn.location  # a result buffer: the function's place
        self.bufferize_block(block, _Scope(), top_level=True)
        for op in reversed(self.retired):
            op.erase(safe_erase=False)
        for owner, arg in self.retired_args:
            owner.erase_arg(arg)
        for arg in [*(a for a in block.args if isinstance(a.type, TensorType)), *scalar_args]:
            block.erase_arg(arg)
        fn.function_type = FunctionType.from_lists([a.type for a in block.args], [])

    def bufferize_block(self, block: Block, scope: _Scope, top_level: bool, on_terminator=None) -> None:
        for op in list(block.ops):
            before, after = op.prev_op, op.next_op
            self.bufferize_op(op, scope, top_level, on_terminator)
            _locate_inserted(block, before, after, op)
        # free what this region allocated, before its terminator
        term = block.last_op
        assert term is not None
        for buf in scope.owned:
            free = memref.DeallocOp.get(buf)
            free.location = buf.owner.location if isinstance(buf.owner, Operation) else term.location
            block.insert_op_before(free, term)

    def bufferize_op(self, op: Operation, scope: _Scope, top_level: bool, on_terminator) -> None:
        match op:
            case tensor.EmptyOp():
                buf = self.allocate(memref_type(op.tensor.type), op, scope, top_level)  # type: ignore[arg-type]
                self.env[op.tensor] = buf
                self.retire(op)
            case arith.ConstantOp() if isinstance(op.result.type, TensorType):
                buf = self.module_pass.global_for(op, self.fn)
                self.env[op.result] = buf
                self.ours.discard(buf)
                self.retire(op)
            case linalg.GenericOp():
                self.bufferize_generic(op, scope, top_level)
            case tensor.ExtractOp():
                load = memref.LoadOp.get(self.buffer(op.tensor), list(op.indices))
                op.parent_block().insert_op_before(load, op)  # type: ignore[union-attr]
                op.result.replace_all_uses_with(load.res)
                self.retire(op)
            case tensor.FromElementsOp():
                buf = self.allocate(memref_type(op.result.type), op, scope, top_level)  # type: ignore[arg-type]
                shape = op.result.type.get_shape()  # type: ignore[attr-defined]
                for flat, element in enumerate(op.elements):
                    indices = []
                    for size in reversed(shape):
                        indices.append(flat % size)
                        flat //= size
                    consts = [arith.ConstantOp.from_int_and_width(i, IndexType()) for i in reversed(indices)]
                    store = memref.StoreOp.get(element, buf, [c.result for c in consts])
                    for new_op in (*consts, store):
                        op.parent_block().insert_op_before(new_op, op)  # type: ignore[union-attr]
                self.env[op.result] = buf
                self.retire(op)
            case tensor.InsertOp():
                buf = self.writable_buffer(op.dest, op, scope, top_level)
                op.parent_block().insert_op_before(memref.StoreOp.get(op.scalar, buf, list(op.indices)), op)  # type: ignore[union-attr]
                self.env[op.result] = buf
                self.retire(op)
            case func.ReturnOp() if on_terminator is None:
                self.bufferize_return(op, scope)
            case func.CallOp():
                self.bufferize_call(op, scope, top_level)
            case scf.IfOp():
                self.bufferize_if(op, scope, top_level)
            case scf.WhileOp():
                self.bufferize_while(op, scope, top_level)
            case scf.ForOp():
                self.bufferize_for(op, scope, top_level)
            case _ if on_terminator is not None and op is op.parent_block().last_op:  # type: ignore[union-attr]
                on_terminator(op, scope)
            case _:
                if any(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
                    raise PassFailedException(
                        f"xla-bufferize: '{op.name}' on tensors is not supported at the linalg-on-tensors level"
                    )

    def bufferize_generic(self, op: linalg.GenericOp, scope: _Scope, top_level: bool) -> None:
        # decided before the body's reads are converted (and so no longer count as uses)
        writable = [self.writable_in_place(out, op) for out in op.outputs]
        # gathers (dynamic_slice, pad...) read other tensors inside the body
        for inner in list(op.body.walk()):
            if isinstance(inner, tensor.ExtractOp):
                self.bufferize_op(inner, scope, False, None)
        ins = [self.buffer(v) if isinstance(v.type, TensorType) else v for v in op.inputs]
        outs = []
        out_args = op.body.block.args[len(op.inputs) :]
        for out, may_write, arg in zip(op.outputs, writable, out_args, strict=True):
            buf = self.buffer(out)
            in_place = may_write and buf not in ins
            if not in_place:
                fresh = self.allocate(buf.type, op, scope, top_level)  # type: ignore[arg-type]
                if arg.uses:  # the body reads the initial value: carry it over
                    self.copy(buf, fresh, op)
                buf = fresh
            outs.append(buf)
        new = linalg.GenericOp(
            ins,
            outs,
            op.detach_region(op.body),
            op.indexing_maps,
            op.iterator_types,
        )
        op.parent_block().insert_op_before(new, op)  # type: ignore[union-attr]
        for result, buf in zip(op.results, outs, strict=True):
            self.env[result] = buf
        self.retire(op)

    def bufferize_return(self, op: func.ReturnOp, scope: _Scope) -> None:
        used: set[SSAValue] = set()
        for value, out in zip(op.arguments, self.out_params, strict=True):
            if is_scalar(value.type):
                op.parent_block().insert_op_before(memref.StoreOp.get(value, out, []), op)  # type: ignore[union-attr]
                continue
            buf = self.buffer(value)
            owner = buf.owner
            if buf in self.ours and buf not in used and isinstance(owner, memref.AllocOp | memref.AllocaOp):
                # compute the result directly in the caller's buffer
                buf.replace_all_uses_with(out)
                if buf in scope.owned:
                    scope.owned.remove(buf)
                _erase(owner)
                self.env = {k: (out if v is buf else v) for k, v in self.env.items()}
                used.add(out)
            else:
                self.copy(buf, out, op)
            used.add(buf)
        ret = func.ReturnOp()
        op.parent_block().insert_op_before(ret, op)  # type: ignore[union-attr]
        self.retire(op)

    def bufferize_call(self, op: func.CallOp, scope: _Scope, top_level: bool) -> None:
        """The caller allocates the results' buffers. Calling a function of the module,
        a scalar argument is stored into a buffer of its own and a scalar result loaded
        after the call; a declaration (a kernel's C entry point) takes scalars by
        value."""
        block = op.parent_block()
        assert block is not None
        by_pointer = op.callee.string_value() not in self.module_pass.declarations
        outs = [
            self.allocate((boundary_type if by_pointer else memref_type)(r.type), op, scope, top_level)  # type: ignore[arg-type]
            for r in op.results
        ]
        args = []
        for a in op.arguments:
            if isinstance(a.type, TensorType):
                args.append(self.buffer(a))
            elif is_scalar(a.type) and by_pointer:
                buf = self.allocate(boundary_type(a.type), op, scope, top_level)  # type: ignore[arg-type]
                block.insert_op_before(memref.StoreOp.get(a, buf, []), op)
                args.append(buf)
            else:
                args.append(a)
        call = func.CallOp(op.callee, [*args, *outs], [])
        block.insert_op_before(call, op)
        for r, b in zip(op.results, outs, strict=True):
            if is_scalar(r.type) and by_pointer:
                load = memref.LoadOp.get(b, [])
                block.insert_op_after(load, call)
                r.replace_all_uses_with(load.res)
            else:
                self.env[r] = b
        self.retire(op)

    def _result_buffers(self, op: Operation, scope: _Scope, top_level: bool) -> list[SSAValue]:
        return [self.allocate(memref_type(r.type), op, scope, top_level) for r in op.results]  # type: ignore[arg-type]

    def _copy_into(self, values, targets, before: Operation, scope: _Scope) -> None:
        """Copy yielded values into the state buffers; values that are themselves state
        buffers are first copied aside so a swap cannot overwrite a source."""
        sources = [self.buffer(v) for v in values]
        staged = []
        for i, src in enumerate(sources):
            if src in targets and targets.index(src) != i:
                tmp = memref.AllocOp([], [], src.type)
                before.parent_block().insert_op_before(tmp, before)  # type: ignore[union-attr]
                self.copy(src, tmp.memref, before)
                scope.owned.append(tmp.memref)
                src = tmp.memref
            staged.append(src)
        for src, dst in zip(staged, targets, strict=True):
            if src is not dst:
                self.copy(src, dst, before)

    def bufferize_if(self, op: scf.IfOp, scope: _Scope, top_level: bool) -> None:
        """Tensor results live in buffers allocated before the if, which the branches
        copy what they yield into; other results (scalars) stay the if's results."""
        buffers = {
            i: self.allocate(memref_type(r.type), op, scope, top_level)  # type: ignore[arg-type]
            for i, r in enumerate(op.results)
            if isinstance(r.type, TensorType)
        }

        def on_yield(term: Operation, branch_scope: _Scope) -> None:
            values = list(term.operands)
            self._copy_into([values[i] for i in buffers], list(buffers.values()), term, branch_scope)
            kept = [v for i, v in enumerate(values) if i not in buffers]
            term.parent_block().insert_op_before(scf.YieldOp(*kept), term)  # type: ignore[union-attr]
            self.retire(term)

        regions = []
        for region in (op.true_region, op.false_region):
            region = op.detach_region(region)
            if region.blocks:
                self.bufferize_block(region.block, _Scope(), False, on_yield)
            regions.append(region)
        kept_types = [r.type for i, r in enumerate(op.results) if i not in buffers]
        new = scf.IfOp(op.cond, kept_types, regions[0], regions[1])
        op.parent_block().insert_op_before(new, op)  # type: ignore[union-attr]
        kept_results = iter(new.results)
        for i, r in enumerate(op.results):
            if i in buffers:
                self.env[r] = buffers[i]
            else:
                r.replace_all_uses_with(next(kept_results))
        self.retire(op)

    def bufferize_while(self, op: scf.WhileOp, scope: _Scope, top_level: bool) -> None:
        """Tensor state lives in buffers before the loop (the init's own buffer when it
        may be overwritten, else a copy: an LSTM scan's 13 zero-filled residual stacks
        of 256 KB were copied before the loop), which both regions copy what they pass
        on into; other state (scalars) stays loop-carried values."""
        unchanged = _unchanged_while_state(op)
        state = {
            i: self.state_buffer(init, i in unchanged, op, scope, top_level)
            for i, init in enumerate(op.arguments)
            if isinstance(init.type, TensorType)
        }
        targets = list(state.values())

        def passed_on(values: list[SSAValue], term: Operation, region_scope: _Scope) -> list[SSAValue]:
            self._copy_into([values[i] for i in state], targets, term, region_scope)
            return [v for i, v in enumerate(values) if i not in state]

        def on_condition(term: Operation, region_scope: _Scope) -> None:
            assert isinstance(term, scf.ConditionOp)
            kept = passed_on(list(term.args), term, region_scope)
            term.parent_block().insert_op_before(scf.ConditionOp(term.condition, *kept), term)  # type: ignore[union-attr]
            self.retire(term)

        def on_yield(term: Operation, region_scope: _Scope) -> None:
            kept = passed_on(list(term.operands), term, region_scope)
            term.parent_block().insert_op_before(scf.YieldOp(*kept), term)  # type: ignore[union-attr]
            self.retire(term)

        regions = []
        for region, hook in ((op.before_region, on_condition), (op.after_region, on_yield)):
            region = op.detach_region(region)
            block = region.block
            for i, buf in state.items():
                self.env[block.args[i]] = buf
            self.bufferize_block(block, _Scope(), False, hook)
            self.retired_args += [(block, block.args[i]) for i in state]
            regions.append(region)
        kept_inits = [v for i, v in enumerate(op.arguments) if i not in state]
        kept_types = [r.type for i, r in enumerate(op.results) if i not in state]
        new = scf.WhileOp(kept_inits, kept_types, regions[0], regions[1])
        op.parent_block().insert_op_before(new, op)  # type: ignore[union-attr]
        kept_results = iter(new.results)
        for i, r in enumerate(op.results):
            if i in state:
                self.env[r] = state[i]
            else:
                r.replace_all_uses_with(next(kept_results))
        self.retire(op)

    def bufferize_for(self, op: scf.ForOp, scope: _Scope, top_level: bool) -> None:
        """Tensor iteration arguments live in state buffers (the init's own buffer when
        it may be overwritten, else a copy); the body updates them and copies what it
        yields into them. Other iteration arguments stay loop-carried values."""
        yielded = op.body.block.last_op
        assert yielded is not None
        unchanged = {i for i, v in enumerate(yielded.operands) if v is op.body.block.args[1 + i]}
        state = {
            i: self.state_buffer(init, i in unchanged, op, scope, top_level)
            for i, init in enumerate(op.iter_args)
            if isinstance(init.type, TensorType)
        }
        region = op.detach_region(op.body)
        block = region.block
        carried = block.args[1:]  # after the induction variable
        for i, buf in state.items():
            self.env[carried[i]] = buf

        def on_yield(term: Operation, region_scope: _Scope) -> None:
            values = list(term.operands)
            self._copy_into([values[i] for i in state], list(state.values()), term, region_scope)
            kept = [v for i, v in enumerate(values) if i not in state]
            term.parent_block().insert_op_before(scf.YieldOp(*kept), term)  # type: ignore[union-attr]
            self.retire(term)

        self.bufferize_block(block, _Scope(), False, on_yield)
        self.retired_args += [(block, carried[i]) for i in state]
        kept_inits = [v for i, v in enumerate(op.iter_args) if i not in state]
        new = scf.ForOp(op.lb, op.ub, op.step, kept_inits, region)
        op.parent_block().insert_op_before(new, op)  # type: ignore[union-attr]
        kept_results = iter(new.results)
        for i, result in enumerate(op.results):
            if i in state:
                self.env[result] = state[i]
            else:
                result.replace_all_uses_with(next(kept_results))
        self.retire(op)


def _unchanged_while_state(op: scf.WhileOp) -> set[int]:
    """The positions of `op`'s state that both regions pass on as they got it: the
    condition's argument i is the before block's argument i, and the body yields its
    argument i."""
    condition, yielded = op.before_region.block.last_op, op.after_region.block.last_op
    assert isinstance(condition, scf.ConditionOp) and yielded is not None
    before, after = op.before_region.block.args, op.after_region.block.args
    return {
        i
        for i in range(len(before))
        if condition.args[i] is before[i] and i < len(after) and yielded.operands[i] is after[i]
    }


def _locate_inserted(block: Block, before: Operation | None, after: Operation | None, source: Operation) -> None:
    """The ops bufferizing `source` put in its place (between `before` and `after`),
    and the ops inside them, take its location when they have none (MLIR's rule for
    what a rewrite creates)."""
    op = before.next_op if before is not None else block.first_op
    while op is not None and op is not after:
        locate_unlocated(op, source.location)
        op = op.next_op


class _ModuleBufferizer:
    def __init__(self, module: ModuleOp, stack_limit_bytes: int = STACK_LIMIT_BYTES):
        self.module = module
        self.stack_limit_bytes = stack_limit_bytes
        self.globals: dict[tuple, str] = {}
        # the functions declared without a body: kernels' C entry points
        self.declarations = {
            op.sym_name.data for op in module.body.block.ops if isinstance(op, func.FuncOp) and not op.body.blocks
        }

    def global_for(self, op: arith.ConstantOp, fn: func.FuncOp) -> SSAValue:
        value = op.value
        assert isinstance(value, DenseIntOrFPElementsAttr)
        t = memref_type(op.result.type)
        key = (str(value),)
        name = self.globals.get(key)
        if name is None:
            name = f"__xla_constant_{len(self.globals)}"
            self.globals[key] = name
            glob = memref.GlobalOp.get(
                StringAttr(name), t, value, sym_visibility=StringAttr("private"), constant=UnitAttr()
            )
            glob.location = op.location  # the first constant that needs it
            self.module.body.block.insert_op_before(glob, self.module.body.block.first_op)  # type: ignore[arg-type]
        get = memref.GetGlobalOp(name, t)
        op.parent_block().insert_op_before(get, op)  # type: ignore[union-attr]
        return get.memref

    def run(self) -> None:
        for op in list(self.module.body.block.ops):
            if isinstance(op, func.FuncOp):
                _one_fill_per_destination(op)
                _FunctionBufferizer(self, op).run()


def _computes_from_constants(op: Operation) -> bool:
    """A generic that reads constants alone: its inputs constant tensors (a broadcast
    of a scalar constant: a fill), its output not read, no extract in its body (an
    iota): computing it again costs its writes alone, and gives the same values."""
    return (
        isinstance(op, linalg.GenericOp)
        and all(isinstance(v.owner, arith.ConstantOp) for v in op.inputs)
        and len(op.outputs) == 1
        and not op.body.block.args[len(op.inputs)].uses
        and not any(isinstance(inner, tensor.ExtractOp) for inner in op.body.walk())
    )


def _writes_into(use) -> bool:
    """Whether `use` of a tensor is a destination its user writes into after reading
    it: a generic's output its body reads (an accumulator), a loop's state, an insert's
    destination."""
    user = use.operation
    if isinstance(user, linalg.GenericOp):
        first_out = len(user.inputs)
        return use.index >= first_out and bool(user.body.block.args[use.index].uses)
    if isinstance(user, scf.WhileOp | scf.ForOp):
        return use.index >= len(user.operands) - len(user.results)
    return isinstance(user, tensor.InsertOp)  # a tensor operand of an insert is its destination


def _one_fill_per_destination(fn: func.FuncOp) -> None:
    """A fill (a generic that reads constants alone) that several ops write into gets
    a copy of its own for each: cse merges identical fills (a scan's zeroed stacks of
    outputs, two products' zero accumulators), and one value written into by several
    ops was bufferized as one filled buffer and a copy of it for each other writer (an
    LSTM step: 13 copies of a 256 KB zero fill before its loop, and one of 32 KB on
    each of its 32 forward steps). Each writer then fills a buffer of its own, written
    in place, as when the fills were separate: a fill costs its writes, a copy reads
    as much again. Uses that only read the fill keep the one value."""
    for fill in list(fn.walk()):
        if not _computes_from_constants(fill) or fill.results[0].has_one_use():
            continue
        uses = list(fill.results[0].uses)
        destinations = [use for use in uses if _writes_into(use)]
        if len(uses) == len(destinations):
            destinations = destinations[1:]  # the fill itself for one of them
        block = fill.parent_block()
        assert block is not None
        for use in destinations:
            own = fill.clone()
            block.insert_op_after(own, fill)
            use.operation.operands[use.index] = own.results[0]


@dataclass(frozen=True)
class XlaBufferizePass(ModulePass):
    """Tensors to memrefs with destination-passing function results (see module doc)."""

    name = "xla-bufferize"
    input_dialects = ("arith", "linalg", "scf", "tensor")
    output_dialects = ("linalg", "memref", "scf")

    stack_limit_bytes: int = STACK_LIMIT_BYTES
    """A buffer of a function's top level of at most this many bytes is on the stack
    (`memref.alloca`), a larger one on the heap."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _ModuleBufferizer(op, self.stack_limit_bytes).run()
