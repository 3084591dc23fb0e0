"""split-loop-ranges (lowering/transforms/split_loop_ranges.py): its ranges and the
values it gives comparisons, against numpy's own evaluation of each comparison over
every index (64-bit wrapping, unsigned and signed), and programs with concatenations
and pads compiled natively against the interpreter."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith, memref, scf
from xdsl.parser import Parser
from xla_opt.lowering.transforms.split_loop_ranges import SplitLoopRangesPass

import xla_opt
from xla_opt.context import make_context

PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
NUMPY = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
         "ge": np.greater_equal}  # fmt: skip


def evaluate(predicate: str, x: np.ndarray, c: int, swapped: bool) -> np.ndarray:
    """cmpi `predicate` of x and c (c and x when `swapped`) on 64-bit indices."""
    ty = np.uint64 if predicate.startswith("u") else np.int64
    xs = x.astype(np.int64).view(ty)
    cs = np.array([c % 2**64], np.uint64).view(ty)[0]
    f = NUMPY[predicate[1:] if predicate[0] in "su" else predicate]
    return f(cs, xs) if swapped else f(xs, cs)


def loop_program(
    low: int, high: int, offset: int, predicate: str, c: int, swapped: bool, clamp: int, unsigned_offset: bool = False
) -> str:
    operands = "%c, %x" if swapped else "%x, %c"
    return f"""
func.func @f(%out: memref<?xi1>, %clamped: memref<?xindex>) {{
  %lo = arith.constant {low} : index
  %hi = arith.constant {high} : index
  %one = arith.constant 1 : index
  scf.for %i = %lo to %hi step %one {{
    %a = arith.constant {offset % 2**64 if unsigned_offset else offset} : index
    %x = arith.addi %i, %a : index
    %c = arith.constant {c} : index
    %t = arith.cmpi {predicate}, {operands} : index
    memref.store %t, %out[%i] : memref<?xi1>
    %k = arith.constant {clamp} : index
    %m = arith.minui %x, %k : index
    memref.store %m, %clamped[%i] : memref<?xindex>
  }}
  func.return
}}"""


def test_ranges_and_folded_comparisons_agree_with_numpy():
    """Random loops comparing i + a with c (every predicate, both operand orders,
    offsets that make i + a wrap through 0, constants inside and outside the range,
    negative constants and offsets written signed or unsigned)
    and clamping it (minui): the loops after the pass cover the original range
    exactly, once; a comparison the pass made a constant has that value at every
    index of its loop, a clamp it dropped never binds there."""
    rng = np.random.default_rng(0)
    ctx = make_context()
    folded = dropped = 0
    for trial in range(300):
        low = int(rng.integers(0, 40))
        high = low + int(rng.integers(1, 60))
        offset = int(rng.choice([0, int(rng.integers(-50, 50)), -low - int(rng.integers(0, 10))]))
        c = int(rng.choice([int(rng.integers(-20, 120)), -1, 2**63 - 1, -(2**63), -int(rng.integers(1, 60))]))
        predicate = PREDICATES[trial % len(PREDICATES)]
        swapped = bool(rng.integers(0, 2))
        clamp = int(rng.integers(0, 100))
        written = c % 2**64 if rng.integers(0, 2) else c  # an index constant may be written unsigned
        unsigned_offset = bool(rng.integers(0, 2))
        text = loop_program(low, high, offset, predicate, written, swapped, clamp, unsigned_offset)
        module = Parser(ctx, text).parse_module()
        SplitLoopRangesPass().apply(ctx, module)
        module.verify()
        covered = []
        for loop in (op for op in module.walk() if isinstance(op, scf.ForOp)):
            lo, hi = (op.value.value.data for op in (loop.lb.owner, loop.ub.owner))
            covered += range(lo, hi)
            store, clamped = [op for op in loop.walk() if isinstance(op, memref.StoreOp)]
            value = store.value.owner
            x = np.arange(lo, hi, dtype=np.int64) + np.int64(offset)
            case = (low, high, offset, predicate, c, swapped, clamp, lo, hi)
            if isinstance(value, arith.ConstantOp):
                expected = evaluate(predicate, x, c, swapped)
                assert (expected == bool(value.value.value.data)).all(), case
                folded += 1
            else:
                assert isinstance(value, arith.CmpiOp)
            if not isinstance(clamped.value.owner, arith.MinUIOp):  # dropped: x never above the clamp
                assert (x.view(np.uint64) <= np.uint64(clamp)).all(), case
                dropped += 1
        assert covered == list(range(low, high)), (low, high, offset, predicate, c, swapped)
    assert folded > 300 and dropped > 100, (folded, dropped)  # the cases exercise both


@pytest.mark.parametrize("program", ["concatenate", "pad"])
def test_concatenations_and_pads_compile_to_the_interpreters_values(program):
    """Through the whole pipeline (split-loop-ranges among its passes): a concatenation
    of three inputs along each dimension and pads with negative, interior and edge
    padding, natively against the interpreter."""
    rng = np.random.default_rng(1)
    if program == "concatenate":
        for dim in range(2):
            shapes = [(5, 7), (5, 7), (5, 7)]
            shapes = [tuple(s if d != dim else s + k for d, s in enumerate(shape)) for k, shape in enumerate(shapes)]
            out = list(shapes[0])
            out[dim] = sum(s[dim] for s in shapes)
            t = lambda s: f"tensor<{s[0]}x{s[1]}xf32>"
            text = f"""
func.func @main(%a: {t(shapes[0])}, %b: {t(shapes[1])}, %c: {t(shapes[2])}) -> {t(out)} {{
  %r = xla.concatenate %a, %b, %c, dimension = {dim} : ({t(shapes[0])}, {t(shapes[1])}, {t(shapes[2])}) -> {t(out)}
  func.return %r : {t(out)}
}}"""
            args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
            (native,) = xla_opt.compile(text, backend="jit")(*args)
            np.testing.assert_array_equal(native, np.concatenate(args, dim))
    else:
        for low, high, interior in (([1, 4], [2, 6], [0, 0]), ([-1, 3], [2, -2], [0, 1]), ([0, 0], [0, 0], [1, 0])):
            x = rng.standard_normal((6, 9)).astype(np.float32)
            shape = [low[d] + high[d] + x.shape[d] + (x.shape[d] - 1) * interior[d] for d in range(2)]
            text = f"""
func.func @main(%x: tensor<6x9xf32>, %z: tensor<f32>) -> tensor<{shape[0]}x{shape[1]}xf32> {{
  %r = xla.pad %x, %z, edge_padding_low = {low}, edge_padding_high = {high}, interior_padding = {interior} : (tensor<6x9xf32>, tensor<f32>) -> tensor<{shape[0]}x{shape[1]}xf32>
  func.return %r : tensor<{shape[0]}x{shape[1]}xf32>
}}"""
            z = np.float32(-7.5)
            (native,) = xla_opt.compile(text, backend="jit")(x, z)
            (reference,) = xla_opt.compile(text, backend="interpreter")(x, z)
            assert native.shape == tuple(shape)
            np.testing.assert_array_equal(native, reference)
