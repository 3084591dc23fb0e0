"""`linalg-fuse-elementwise`: producer-consumer fusion of `linalg.generic`s on tensors.

A parallel generic whose result feeds another generic is inlined into it: the
consumer reads the producer's inputs directly (their indexing maps composed through
the producer's output map) and computes the producer's body in its own loop nest.
Chains of element-wise ops, broadcasts and the element-wise part of a reduction's
input (softmax's exp(x - max)) then run as one loop nest without intermediate
buffers: the memory traffic XLA's loop fusion saves.

A producer is fused when its result has no other user, or when it only moves data
(its body yields one of its inputs: a broadcast, transpose, slice or reshape), which
costs nothing to recompute, or when it is cheap and every user can inline it (then it
is computed in each of them and never stored). A data move fuses into a matrix product
the GEMM kernel takes only while the kernel can still read the operand by strides
(`_leaves_the_kernel`: not a reverse, not a merge of transposed dimensions). A producer that evaluates a transcendental
function (a `math` op: exp, tanh, log...) and also feeds a reduction is instead computed
once, in the reduction, which stores it as a second result for its other users
(XLA's multi-output fusion; XLA never duplicates such "expensive" ops either):
softmax's exp(x - max) is summed and stored in one pass, and the division then
overwrites the stored values in place (its output buffer is the exp's), so the data
is read twice and the exp computed once. A producer that computes is fused only where the consumer reads
each of its elements once, i.e. the consumer's indexing map for it is a permutation of
the consumer's loops (MLIR's elementwise-fusion rule): through a projection, such as a
matmul's (i, k) operand, its body would run once per value of the missing loop (the
bias and relu before a dot, recomputed N times, and the dot no longer a plain
contraction the GEMM kernel takes).

A consumer that reads a producer by `tensor.extract` at computed indices (a
concatenation, a pad, a gather) rather than through an indexing map reads through a
producer that only gathers itself (a slice of another extent, a concatenation), when
that extract is the producer's one use: the producer's body runs at the extract's
indices (`ExtractThroughGather`), and the copy is not made.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, math, tensor
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerType, ModuleOp, ShapedType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xla_opt.lowering.transforms.linalg_matmul_to_kernel import kernel_matmul, loop_strides
from xla_opt.lowering.utils.contractions import body_at, only_moves_data

from xla_opt.pattern_dispatch import TypeDispatchApplier

PARALLEL = linalg.IteratorType.PARALLEL
CHEAP_BODY_OPS = 4  # the default of the pass's `cheap-body-ops` option


def _maps(op: linalg.GenericOp):
    return [m.data for m in op.indexing_maps.data]


@dataclass(frozen=True)
class _Facts:
    """What fusion asks of a body, kept per block while the pass runs: a fused chain's
    body grows with each fusion and is asked again at each, so walking it every time
    made a chain of n ops cost O(n^2)."""

    evaluates_math: bool
    reads_index: bool

    def __or__(self, other: _Facts) -> _Facts:
        return _Facts(self.evaluates_math or other.evaluates_math, self.reads_index or other.reads_index)


# block -> its facts; filled on demand, updated where a body grows in place
# (absorb_consumer), emptied when the pass ends (another pass may change a body)
_BODY_FACTS: dict[Block, _Facts] = {}


def _body_facts(block: Block) -> _Facts:
    facts = _BODY_FACTS.get(block)
    if facts is None:
        ops = list(block.ops)
        facts = _Facts(
            any(o.dialect_name() == math.Math.name for o in ops),
            any(isinstance(o, linalg.IndexOp) for o in ops),
        )
        _BODY_FACTS[block] = facts
    return facts


def _is_fusable_producer(op: linalg.GenericOp) -> bool:
    if len(op.outputs) != 1 or len(op.res) != 1:
        return False
    if any(it.data != PARALLEL for it in op.iterator_types.data):
        return False
    out_map = _maps(op)[-1]
    if out_map.inverse_permutation() is None:
        return False
    body = op.body.block
    out_arg = body.args[-1]
    if any(True for _ in out_arg.uses):
        return False  # the producer reads its own output
    return not _body_facts(body).reads_index


def _loop_bounds_computable(maps: list[AffineMap], num_loops: int) -> bool:
    """Linalg reads each loop's range off an operand's shape, so every loop must be a
    plain result of some indexing map (linalg's "invertible maps" rule). Fusing a
    broadcast into a reduction can drop the only operand that spans a loop: such a
    fusion is not done (MLIR's elementwise fusion refuses it too)."""
    results = tuple(r for m in maps for r in m.results)
    return AffineMap(num_loops, 0, results).inverse_permutation() is not None


def _leaves_the_kernel(producer: linalg.GenericOp, consumer: linalg.GenericOp, maps: list[AffineMap]) -> bool:
    """Whether fusing a data move into a matrix product the GEMM kernel takes would
    read an operand through a map the kernel cannot follow by strides (a reverse's
    negative stride, a division): the product would fall back to loops, so the data
    move stays a copy (XLA likewise fuses only bitcasts and transposes into a dot)."""
    if not any(it.data != PARALLEL for it in consumer.iterator_types.data) or kernel_matmul(consumer) is None:
        return False
    return any(
        isinstance(value.type, ShapedType) and loop_strides(value.type.get_shape(), m.results) is None
        for value, m in zip(producer.inputs, maps, strict=True)
    )


def _evaluates_math_function(op: linalg.GenericOp) -> bool:
    return _body_facts(op.body.block).evaluates_math


def _multi_output_consumer(producer: linalg.GenericOp) -> linalg.GenericOp | None:
    """The reduction that computes `producer` for all its users (module doc): the
    producer evaluates a math function, exactly one of its users is a generic with a
    reduction loop that reads it once (through one operand, a fusable map), and that
    reduction comes before the other users in the same block, so its new result can
    replace the producer's there."""
    if not _evaluates_math_function(producer) or only_moves_data(producer):
        return None
    uses = list(producer.res[0].uses)
    reductions = [
        use
        for use in uses
        if isinstance(use.operation, linalg.GenericOp)
        and any(it.data != PARALLEL for it in use.operation.iterator_types.data)
    ]
    if len(reductions) != 1 or len(uses) < 2:
        return None
    consumer, k = reductions[0].operation, reductions[0].index
    assert isinstance(consumer, linalg.GenericOp)
    block = consumer.parent_block()
    if k >= len(consumer.inputs) or not FuseProducerIntoConsumer.can_fuse(producer, consumer, k):
        return None
    others = [use.operation for use in uses if use.operation is not consumer]
    if any(o.parent_block() is not block or not consumer.is_before_in_block(o) for o in others):
        return None
    return consumer


def _duplicable(producer: linalg.GenericOp, cheap_body_ops: int = CHEAP_BODY_OPS) -> bool:
    """A cheap producer (at most `cheap_body_ops` ops) whose every user is a different
    generic that can inline it: inlined into all of them, its result never goes
    through memory (x * x read by a sum of squares and by an element-wise
    consumer). One with a reduction to compute it for the others is not duplicated
    (`_multi_output_consumer`)."""
    if sum(1 for _ in producer.body.block.ops) - 1 > cheap_body_ops:
        return False
    if _multi_output_consumer(producer) is not None:
        return False  # computed once, in the reduction
    users = [use.operation for use in producer.res[0].uses]
    if len(set(users)) != len(users):
        return False  # one consumer reading it twice would compute it twice per element
    for use in producer.res[0].uses:
        consumer = use.operation
        if not isinstance(consumer, linalg.GenericOp) or use.index >= len(consumer.inputs):
            return False
        if not FuseProducerIntoConsumer.can_fuse(producer, consumer, use.index):
            return False
    return True


@dataclass(eq=False)  # patterns compare by identity
class FuseProducerIntoConsumer(RewritePattern):
    cheap_body_ops: int = CHEAP_BODY_OPS

    @op_type_rewrite_pattern
    def match_and_rewrite(self, consumer: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        for k, operand in enumerate(consumer.inputs):
            producer = operand.owner
            if not isinstance(producer, linalg.GenericOp) or not _is_fusable_producer(producer):
                continue
            if _multi_output_consumer(producer) is consumer:
                self.fuse_storing(producer, consumer, k, rewriter)
                return
            moves_data = only_moves_data(producer)
            if not (operand.has_one_use() or moves_data or _duplicable(producer, self.cheap_body_ops)):
                continue
            if not self.can_fuse(producer, consumer, k):
                continue
            if operand.has_one_use() and self.absorb_consumer(producer, consumer, k, rewriter):
                return
            self.fuse(producer, consumer, k, self.fused_maps(producer, consumer, k), rewriter)
            return

    @classmethod
    def can_fuse(cls, producer: linalg.GenericOp, consumer: linalg.GenericOp, k: int) -> bool:
        """Whether the producer can be inlined as the consumer's k-th input: a computing
        producer only where the consumer reads each of its elements once (a permutation
        map), and every loop of the result still spans an operand."""
        if any(isinstance(o, linalg.IndexOp) for o in consumer.body.block.ops):
            return False
        if not only_moves_data(producer) and _maps(consumer)[k].inverse_permutation() is None:
            return False  # computed once per element, not once per element and loop
        maps = cls.fused_maps(producer, consumer, k)
        if not _loop_bounds_computable(maps, len(consumer.iterator_types.data)):
            return False
        return not _leaves_the_kernel(producer, consumer, maps[k : k + len(producer.inputs)])

    @staticmethod
    def fused_maps(producer: linalg.GenericOp, consumer: linalg.GenericOp, k: int) -> list[AffineMap]:
        """The fused op's indexing maps: the consumer's, with its k-th input replaced by
        the producer's inputs read through the producer's output map."""
        p_maps, c_maps = _maps(producer), _maps(consumer)
        to_producer_loops = p_maps[-1].inverse_permutation()
        assert to_producer_loops is not None
        through = to_producer_loops.compose(c_maps[k])
        return [
            *c_maps[:k],
            *(m.compose(through) for m in p_maps[: len(producer.inputs)]),
            *c_maps[k + 1 :],  # the consumer's other inputs, then its outputs
        ]

    @staticmethod
    def fuse(
        producer: linalg.GenericOp,
        consumer: linalg.GenericOp,
        k: int,
        new_maps: list[AffineMap],
        rewriter: PatternRewriter,
        stored: SSAValue | None = None,
    ) -> linalg.GenericOp:
        """Inline the producer as the consumer's k-th input; with `stored` (an init
        tensor), the fused op also yields the produced value into it, as a last result
        (its map is the last of `new_maps`)."""
        n_p_in = len(producer.inputs)
        new_inputs = [*consumer.inputs[:k], *producer.inputs, *consumer.inputs[k + 1 :]]

        c_block, p_block = consumer.body.block, producer.body.block
        c_args = list(c_block.args)
        p_in_args = list(p_block.args[:n_p_in])
        block = Block(
            arg_types=[
                *(a.type for a in c_args[:k]),
                *(a.type for a in p_in_args),
                *(a.type for a in c_args[k + 1 :]),
            ]
        )
        new_args = list(block.args)
        # the producer's body, computed first
        value_map: dict[SSAValue, SSAValue] = dict(zip(p_in_args, new_args[k : k + n_p_in]))
        for op in p_block.ops:
            if isinstance(op, linalg.YieldOp):
                produced = value_map.get(op.operands[0], op.operands[0])
                break
            clone = op.clone(value_mapper=value_map)
            block.add_op(clone)
        # then the consumer's, reading the produced value instead of its k-th argument
        for i, arg in enumerate(c_args):
            if i < k:
                arg.replace_all_uses_with(new_args[i])
            elif i == k:
                arg.replace_all_uses_with(produced)
            else:
                arg.replace_all_uses_with(new_args[i - 1 + n_p_in])
        for op in list(c_block.ops):
            op.detach()
            block.add_op(op)
        outputs = list(consumer.outputs)
        if stored is not None:
            outputs.append(stored)
            block.insert_arg(stored.type.get_element_type(), len(block.args))  # type: ignore[attr-defined]
            term = block.last_op
            assert isinstance(term, linalg.YieldOp)
            term.operands = (*term.operands, produced)

        fused = linalg.GenericOp(
            new_inputs,
            outputs,
            Region(block),
            [AffineMapAttr(m) for m in new_maps],
            consumer.iterator_types,
            [o.type for o in outputs],
        )
        rewriter.replace(consumer, fused, fused.res[: len(consumer.res)])
        if not producer.res[0].uses:
            rewriter.erase(producer)
        return fused

    @staticmethod
    def absorb_consumer(
        producer: linalg.GenericOp, consumer: linalg.GenericOp, k: int, rewriter: PatternRewriter
    ) -> bool:
        """`fuse` for a producer used only by its consumer through the same loops (the
        maps compose to the identity), in time of the consumer's size: the consumer's
        body moves into the producer's block, which is kept, and an input the fused op
        already reads through the same map is not read twice. A chain of n element-wise
        ops then fuses in O(n), where inlining the grown producer into each next
        consumer took O(n^2) (issue 32: 1,000 dependent adds spent 18 s here)."""
        p_maps, c_maps = _maps(producer), _maps(consumer)
        n_p_in = len(producer.inputs)
        if p_maps[-1] != c_maps[k] or len(consumer.outputs) != 1:
            return False  # a layout change between them: the general path composes maps
        p_block, c_block = producer.body.block, consumer.body.block
        yield_op = p_block.last_op
        if not isinstance(yield_op, linalg.YieldOp) or len(yield_op.operands) != 1:
            return False
        produced = yield_op.operands[0]
        # the fused op's inputs: the consumer's before k, the producer's, the consumer's
        # after k, each (value, map) once
        read: dict[tuple[SSAValue, AffineMap], SSAValue] = {}
        inputs: list[SSAValue] = []
        maps: list[AffineMap] = []
        for value, m, arg in zip(producer.inputs, p_maps[:n_p_in], p_block.args[:n_p_in], strict=True):
            read.setdefault((value, m), arg)
            inputs.append(value)
            maps.append(m)
        out_arg = p_block.args[-1]
        p_block.erase_arg(out_arg)  # unused (_is_fusable_producer)
        front = 0
        for i, (value, m, arg) in enumerate(zip(consumer.inputs, c_maps, c_block.args, strict=False)):
            if i == k:
                arg.replace_all_uses_with(produced)
                continue
            if (value, m) in read:
                arg.replace_all_uses_with(read[(value, m)])
                continue
            position = front if i < k else len(p_block.args)
            new_arg = p_block.insert_arg(arg.type, position)
            new_arg.location = arg.location
            arg.replace_all_uses_with(new_arg)
            read[(value, m)] = new_arg
            inputs.insert(position, value)
            maps.insert(position, m)
            front += i < k
        out = p_block.insert_arg(c_block.args[-1].type, len(p_block.args))
        out.location = c_block.args[-1].location
        c_block.args[-1].replace_all_uses_with(out)
        grown = _body_facts(p_block) | _body_facts(c_block)
        rewriter.erase(yield_op)
        for op in list(c_block.ops):
            op.detach()
            p_block.add_op(op)
        fused = linalg.GenericOp(
            inputs,
            list(consumer.outputs),
            producer.detach_region(producer.body),
            [AffineMapAttr(m) for m in [*maps, c_maps[-1]]],
            consumer.iterator_types,
            [o.type for o in consumer.outputs],
        )
        # located here, so the rewriter does not walk the whole fused body to locate it
        fused.location = consumer.location
        _BODY_FACTS[p_block] = grown
        rewriter.replace(consumer, fused)
        rewriter.erase(producer)
        return True

    def fuse_storing(
        self, producer: linalg.GenericOp, consumer: linalg.GenericOp, k: int, rewriter: PatternRewriter
    ) -> None:
        """Multi-output fusion (module doc): the reduction computes the producer and
        stores it, in the layout the reduction reads it (its k-th map), for the other
        users; when only one reads them, element-wise, it writes its result over them."""
        read_map = _maps(consumer)[k]
        init = tensor.EmptyOp([], producer.res[0].type)
        rewriter.insert(init, InsertPoint.before(consumer))
        maps = [*self.fused_maps(producer, consumer, k), read_map]
        fused = self.fuse(producer, consumer, k, maps, rewriter, stored=init.tensor)
        values = fused.res[-1]
        producer.res[0].replace_all_uses_with(values)
        rewriter.erase(producer)
        readers = {use.operation for use in values.uses}
        if len(readers) == 1 and isinstance(last := readers.pop(), linalg.GenericOp):
            _write_over_input(last, values, rewriter)


def _write_over_input(op: linalg.GenericOp, values: SSAValue, rewriter: PatternRewriter) -> None:
    """`op` (an element-wise generic, the only reader of `values`) writes its result
    into `values`' tensor instead of a new one, when it reads `values` once, through
    its output's map, and never reads its own `outs` (a `tensor.empty`): bufferization
    then writes it in place, with no second buffer (of the result's size, allocated and
    freed on every call)."""
    if len(op.outputs) != 1 or op.outputs[0].type != values.type:
        return
    if not isinstance(op.outputs[0].owner, tensor.EmptyOp):
        return
    if any(it.data != PARALLEL for it in op.iterator_types.data):
        return
    maps = _maps(op)
    indices = [i for i, v in enumerate(op.inputs) if v is values]
    if len(indices) != 1 or maps[indices[0]] != maps[-1]:
        return
    k = indices[0]
    args = op.body.block.args
    if any(True for _ in args[-1].uses):
        return
    body = op.detach_region(op.body)
    block = body.block
    # the k-th input's argument becomes the output's: move its uses to the outs argument
    block.args[k].replace_all_uses_with(block.args[-1])
    block.erase_arg(block.args[k])
    inputs = [v for i, v in enumerate(op.inputs) if i != k]
    new = linalg.GenericOp(
        inputs,
        [values],
        body,
        [AffineMapAttr(m) for i, m in enumerate(maps) if i != k],
        op.iterator_types,
        [values.type],
    )
    empty = op.outputs[0].owner
    rewriter.replace(op, new)
    if not empty.results[0].uses:
        rewriter.erase(empty)


def _only_gathers(producer: linalg.GenericOp) -> bool:
    """Whether `producer` is a copy made by reading other tensors at indices computed
    from its loop indices (convert-xla-to-linalg's `gather_through_indices`: a slice
    of another extent, a concatenation, a pad): no inputs, its output not read, and a
    body of index arithmetic, extracts, constants and selects only (nothing costlier
    to compute again than to read)."""
    if producer.inputs or len(producer.outputs) != 1 or producer.body.block.args[-1].uses:
        return False
    for op in producer.body.block.ops:
        if isinstance(op, linalg.YieldOp):
            continue
        if isinstance(op, (linalg.IndexOp, tensor.ExtractOp, arith.ConstantOp, arith.SelectOp)):
            continue
        if op.dialect_name() == "arith" and all(isinstance(t, (IndexType, IntegerType)) for t in op.result_types):
            continue
        return False
    return True


class ExtractThroughGather(RewritePattern):
    """A tensor.extract of the one use of a copy that only gathers (`_only_gathers`)
    reads what the copy would have read there: the copy's body, its loop indices the
    extract's indices. A consumer that gathers in turn (a concatenation of slices:
    `jnp.roll`, a rotary embedding's halves, `jnp.partition`'s two top-ks) reads the
    sources directly; the copy, unread, is dead (4 MiB written and read back for
    `jnp.partition` of 1M f32). Only for a copy read once: then every element it
    would have copied is read once either way, in the consumer's order."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExtractOp, rewriter: PatternRewriter) -> None:
        producer = op.tensor.owner
        if not isinstance(producer, linalg.GenericOp) or not op.tensor.has_one_use() or not _only_gathers(producer):
            return
        body, value = body_at(producer, list(op.indices))
        rewriter.replace(op, body, [value])
        rewriter.erase(producer)


@dataclass(frozen=True)
class FuseElementwisePass(ModulePass):
    """Fuse parallel linalg.generic producers into their consumers (see module doc)."""

    name = "linalg-fuse-elementwise"
    input_dialects = ("linalg", "tensor")  # a read of a producer by tensor.extract becomes its body
    output_dialects = ("arith", "linalg")

    cheap_body_ops: int = CHEAP_BODY_OPS
    """A producer of at most this many body ops (its yield aside) that every user can
    inline is recomputed in each of them rather than stored and read back."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _BODY_FACTS.clear()
        try:
            patterns = [FuseProducerIntoConsumer(self.cheap_body_ops), ExtractThroughGather()]
            # each op tried only against the pattern of its class; dead ops left to canonicalize
            PatternRewriteWalker(TypeDispatchApplier(patterns, dce_enabled=False)).rewrite_module(op)
        finally:
            _BODY_FACTS.clear()
