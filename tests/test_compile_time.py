"""Compile time (issue 11, item 5): behaviour of the pieces that make compiling linear
and cached. Timings are measured by benchmarks/compile_time.py, not asserted here."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, cf, func
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException

from xla_opt import xdsl_patches

xdsl_patches.install()

# --------------------------------------------------------------------------------------
# 1. the verifier reads a region's block count in O(1), with xDSL's checks unchanged
# --------------------------------------------------------------------------------------


def _function(*blocks: Block) -> func.FuncOp:
    return func.FuncOp("f", ((), ()), Region(list(blocks)))


def test_verifier_rejects_a_non_terminator_ending_a_block_of_a_multi_block_region():
    second = Block([func.ReturnOp()])
    first = Block([arith.ConstantOp.from_int_and_width(1, i32)])
    with pytest.raises(VerifyException, match="terminates block in multi-block region but is not a terminator"):
        ModuleOp([_function(first, second)]).verify()


@pytest.mark.parametrize("position", [0, 1, 2])
def test_verifier_checks_every_block_of_a_multi_block_region(position):
    """The failing block first, in the middle or last: each neighbour test counts."""
    blocks = [Block() for _ in range(3)]
    for i, b in enumerate(blocks):
        if i == position:
            b.add_op(arith.ConstantOp.from_int_and_width(1, i32))
        elif i + 1 < len(blocks):
            b.add_op(cf.BranchOp(blocks[i + 1]))
        else:
            b.add_op(func.ReturnOp())
    with pytest.raises(VerifyException, match="multi-block region but is not a terminator"):
        ModuleOp([_function(*blocks)]).verify()


def test_verifier_accepts_a_multi_block_region_of_terminated_blocks():
    second = Block([func.ReturnOp()])
    first = Block([cf.BranchOp(second)])
    ModuleOp([_function(first, second)]).verify()


def test_verifier_rejects_a_non_terminator_ending_a_single_block_region():
    with pytest.raises(VerifyException, match="single-block region but is not a terminator"):
        ModuleOp([_function(Block([arith.ConstantOp.from_int_and_width(1, i32)]))]).verify()


def test_verifier_rejects_an_empty_block_in_a_single_block_region():
    with pytest.raises(VerifyException, match="contains empty block in single-block region"):
        ModuleOp([_function(Block())]).verify()


def test_verifier_lets_a_no_terminator_region_end_with_any_op():
    """builtin.module has NoTerminator: its single block may end with a func."""
    ModuleOp([_function(Block([func.ReturnOp()]))]).verify()
    ModuleOp([]).verify()
