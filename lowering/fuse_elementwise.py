"""`linalg-fuse-elementwise`: producer-consumer fusion of `linalg.generic`s on tensors.

A parallel generic whose result feeds another generic is inlined into it: the
consumer reads the producer's inputs directly (their indexing maps composed through
the producer's output map) and computes the producer's body in its own loop nest.
Chains of element-wise ops, broadcasts and the element-wise part of a reduction's
input (softmax's exp(x - max)) then run as one loop nest without intermediate
buffers: the memory traffic XLA's loop fusion saves.

A producer is fused when its result has no other user, or when it only moves data
(its body yields one of its inputs: a broadcast, transpose or slice), which costs
nothing to recompute, or when it is cheap and every user can inline it (then it is
computed in each of them and never stored). A producer that computes is fused only where the consumer reads
each of its elements once, i.e. the consumer's indexing map for it is a permutation of
the consumer's loops (MLIR's elementwise-fusion rule): through a projection, such as a
matmul's (i, k) operand, its body would run once per value of the missing loop (the
bias and relu before a dot, recomputed N times, and the dot no longer a plain
contraction the GEMM kernel takes).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
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

PARALLEL = linalg.IteratorType.PARALLEL
CHEAP_BODY_OPS = 4  # a producer this small is recomputed rather than stored and reread


def _maps(op: linalg.GenericOp):
    return [m.data for m in op.indexing_maps.data]


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
    return not any(isinstance(o, linalg.IndexOp) for o in body.ops)


def _loop_bounds_computable(maps: list[AffineMap], num_loops: int) -> bool:
    """Linalg reads each loop's range off an operand's shape, so every loop must be a
    plain result of some indexing map (linalg's "invertible maps" rule). Fusing a
    broadcast into a reduction can drop the only operand that spans a loop: such a
    fusion is not done (MLIR's elementwise fusion refuses it too)."""
    results = tuple(r for m in maps for r in m.results)
    return AffineMap(num_loops, 0, results).inverse_permutation() is not None


def _only_moves_data(op: linalg.GenericOp) -> bool:
    body = op.body.block
    term = body.last_op
    return (
        term is body.first_op
        and isinstance(term, linalg.YieldOp)
        and isinstance(term.operands[0], SSAValue)
        and term.operands[0] in body.args[: len(op.inputs)]
    )


def _duplicable(producer: linalg.GenericOp) -> bool:
    """A cheap producer (at most CHEAP_BODY_OPS ops) whose every user is a different
    generic that can inline it: inlined into all of them, its result never goes
    through memory (softmax's exp(x - max), read by the sum and by the division: two
    passes over the data instead of four)."""
    if sum(1 for _ in producer.body.block.ops) - 1 > CHEAP_BODY_OPS:
        return False
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


class FuseProducerIntoConsumer(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, consumer: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        for k, operand in enumerate(consumer.inputs):
            producer = operand.owner
            if not isinstance(producer, linalg.GenericOp) or not _is_fusable_producer(producer):
                continue
            moves_data = _only_moves_data(producer)
            if not (operand.has_one_use() or moves_data or _duplicable(producer)):
                continue
            if not self.can_fuse(producer, consumer, k):
                continue
            self.fuse(producer, consumer, k, self.fused_maps(producer, consumer, k), rewriter)
            return

    @classmethod
    def can_fuse(cls, producer: linalg.GenericOp, consumer: linalg.GenericOp, k: int) -> bool:
        """Whether the producer can be inlined as the consumer's k-th input: a computing
        producer only where the consumer reads each of its elements once (a permutation
        map), and every loop of the result still spans an operand."""
        if any(isinstance(o, linalg.IndexOp) for o in consumer.body.block.ops):
            return False
        if not _only_moves_data(producer) and _maps(consumer)[k].inverse_permutation() is None:
            return False  # computed once per element, not once per element and loop
        return _loop_bounds_computable(cls.fused_maps(producer, consumer, k), len(consumer.iterator_types.data))

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
    ) -> None:
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

        fused = linalg.GenericOp(
            new_inputs,
            list(consumer.outputs),
            Region(block),
            [AffineMapAttr(m) for m in new_maps],
            consumer.iterator_types,
            [r.type for r in consumer.res],
        )
        rewriter.replace(consumer, fused)
        if not producer.res[0].uses:
            rewriter.erase(producer)


@dataclass(frozen=True)
class FuseElementwisePass(ModulePass):
    """Fuse parallel linalg.generic producers into their consumers (see module doc)."""

    name = "linalg-fuse-elementwise"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(FuseProducerIntoConsumer()).rewrite_module(op)

