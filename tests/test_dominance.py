"""The verifier's SSA dominance (xla_opt/dominance.py) against the definition: a block
a dominates b when every path from the entry to b passes through a, i.e. b cannot be
reached from the entry once a is removed. On random control-flow graphs."""

from __future__ import annotations

import random

import pytest
from xdsl.dialects import arith, cf, func
from xdsl.dialects.builtin import i1
from xdsl.ir import Block, Region

from xla_opt.dominance import _RegionDominators


def random_region(rng: random.Random, n: int) -> Region:
    blocks = [Block() for _ in range(n)]
    for block in blocks:
        targets = rng.sample(blocks, k=rng.choice([0, 1, 2, 2]))
        if not targets:
            block.add_op(func.ReturnOp())
        elif len(targets) == 1:
            block.add_op(cf.BranchOp(targets[0]))
        else:
            condition = arith.ConstantOp.from_int_and_width(1, i1)
            block.add_op(condition)
            block.add_op(cf.ConditionalBranchOp(condition, targets[0], (), targets[1], ()))
    return Region(blocks)


def reachable(entry: Block, without: Block | None) -> set[Block]:
    seen, stack = set(), [entry]
    while stack:
        block = stack.pop()
        if block in seen or block is without:
            continue
        seen.add(block)
        last = block.last_op
        stack += list(last.successors) if last is not None else []
    return seen


@pytest.mark.parametrize("seed", range(30))
def test_dominance_is_the_definitions(seed):
    rng = random.Random(seed)
    region = random_region(rng, rng.randint(1, 25))
    blocks = list(region.blocks)
    entry = blocks[0]
    live = reachable(entry, None)
    dominators = _RegionDominators(region)
    for a in live:
        for b in live:
            expected = a is b or a is entry or b not in reachable(entry, a)
            assert dominators.dominates(a, b) == expected, (blocks.index(a), blocks.index(b))
