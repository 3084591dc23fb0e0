"""How each op's dimensions may be sharded: its sharding rule, in Shardy's model of
factors.

A rule names the factors of an op's iteration space and, for every dimension of every
operand and result, the factor it walks (or none: that dimension must be whole on every
device). Dimensions of one factor are sharded alike: shard k of an operand's dimension
meets shard k of the result's. A factor that only operands have is a reduction: sharded,
each device computes a partial result, which an all-reduce over the factor's axes
completes (`Rule.combiners` says with what: a sum for a dot, the reducer for a reduce).

- element-wise ops (operands and results of one shape): one factor per dimension;
- broadcast_in_dim: a result dimension is its operand dimension's factor, unless that
  operand dimension is 1 (broadcast): the result's own;
- transpose: result dimension i is operand dimension permutation[i];
- reshape: a dimension kept whole (a group of one dimension on each side) keeps its
  factor; split and merged dimensions stay whole;
- dot_general: batch, lhs-free and rhs-free factors, and the contracting factors as
  reductions (summed);
- reduce: the kept dimensions, and the reduced ones as reductions. The spec asks a
  reducer to be associative and its init values to be its identity, so the reduce of
  the partial results of the shards, in shard order, is the reduce of the whole: when
  the reducer is an add, multiply, maximum, minimum, and or or of its two arguments
  from that op's identity, an all-reduce with it combines them; any other reducer
  (argmax's, of a value and an index) reduces the partial results gathered from the
  devices (`Rule.gathered`);
- convolution: batch, output features, and input features (summed) without groups;
  spatial dimensions stay whole;
- slice, pad, reverse, concatenate, sort: the dimensions they leave alone; the others
  stay whole;
- gather: the indices' batch dimensions with the result's, the operand's dimensions
  sliced whole with the result's offset dimensions, and an operand dimension the
  indices pick single rows of (an embedding's vocabulary) as a reduction: each device
  gathers the rows it holds, zeros the others (partition.py, `masked_gather`), and the
  sum over the devices completes it;
- a splat constant, an iota: one factor per dimension (each device makes its shard).
Any other op has no rule: the partitioner computes it whole on every device.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType
from xdsl.ir import Operation

from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import elem_of, is_float, shape_of

Factors = list[int | None]  # per dimension: its factor, or None (kept whole)


@dataclass
class Rule:
    """An op's factors (`sizes`), each operand's and result's dimensions' factors, and
    the reduction factors with, per result, what combines its partial results: "add",
    or a reduce op whose reducer does."""

    operands: list[Factors]
    results: list[Factors]
    sizes: dict[int, int]
    reductions: set[int] = field(default_factory=set)
    combiner: object = "add"
    gathered: bool = False
    """The reduction's partial results are gathered and reduced by `combiner` (a reduce
    whose reducer no all-reduce computes), not all-reduced."""
    picked: dict[int, int] = field(default_factory=dict)
    """gather: the reduction factors that are operand dimensions the indices pick rows of
    (factor -> operand dimension); a device holding part of one gathers with its indices
    made local and zeros what it does not hold."""


class _Builder:
    def __init__(self) -> None:
        self.sizes: dict[int, int] = {}

    def new(self, size: int) -> int:
        factor = len(self.sizes)
        self.sizes[factor] = size
        return factor


def _elementwise(op: Operation) -> Rule | None:
    shapes = [shape_of(v.type) for v in (*op.operands, *op.results)]
    if not shapes or any(s != shapes[0] for s in shapes):
        return None
    b = _Builder()
    factors: Factors = [b.new(size) for size in shapes[0]]
    return Rule([list(factors) for _ in op.operands], [list(factors) for _ in op.results], b.sizes)


def _broadcast_in_dim(op: xla.BroadcastInDimOp) -> Rule:
    b = _Builder()
    result_shape = shape_of(op.result.type)
    result: Factors = [b.new(size) for size in result_shape]
    operand_shape = shape_of(op.operand.type)
    operand: Factors = [
        result[d] if operand_shape[i] == result_shape[d] else None for i, d in enumerate(op.get_broadcast_dimensions())
    ]
    return Rule([operand], [result], b.sizes)


def _transpose(op: xla.TransposeOp) -> Rule:
    b = _Builder()
    operand_shape = shape_of(op.operand.type)
    operand: Factors = [b.new(size) for size in operand_shape]
    return Rule([operand], [[operand[p] for p in op.get_permutation()]], b.sizes)


def _reshape(op: xla.ReshapeOp) -> Rule | None:
    if op.get_dimensions() not in (None, (), tuple(range(len(shape_of(op.operand.type))))):
        return None  # a reshape collapsing in another order: kept whole
    source, target = list(shape_of(op.operand.type)), list(shape_of(op.result.type))
    b = _Builder()
    operand: Factors = [None] * len(source)
    result: Factors = [None] * len(target)
    i = j = 0
    while i < len(source) and j < len(target):
        # the smallest groups of consecutive dimensions with equal element counts
        gi, gj = i + 1, j + 1
        a, c = source[i], target[j]
        while a != c:
            if a < c:
                a *= source[gi]
                gi += 1
            else:
                c *= target[gj]
                gj += 1
        if gi - i == 1 and gj - j == 1:
            operand[i] = result[j] = b.new(source[i])
        i, j = gi, gj
    return Rule([operand], [result], b.sizes)


def _dot_general(op: xla.DotGeneralOp | xla.DotOp) -> Rule:
    lhs_shape, rhs_shape = shape_of(op.lhs.type), shape_of(op.rhs.type)
    if isinstance(op, xla.DotOp):
        lhs_batch, rhs_batch = (), ()
        lhs_contract, rhs_contract = (len(lhs_shape) - 1,), (0,)
    else:
        lhs_batch, rhs_batch = op.get_lhs_batching_dimensions(), op.get_rhs_batching_dimensions()
        lhs_contract, rhs_contract = op.get_lhs_contracting_dimensions(), op.get_rhs_contracting_dimensions()
    b = _Builder()
    lhs: Factors = [None] * len(lhs_shape)
    rhs: Factors = [None] * len(rhs_shape)
    result: Factors = []
    for dl, dr in zip(lhs_batch, rhs_batch, strict=True):
        lhs[dl] = rhs[dr] = b.new(lhs_shape[dl])
        result.append(lhs[dl])
    reductions = set()
    for dl, dr in zip(lhs_contract, rhs_contract, strict=True):
        lhs[dl] = rhs[dr] = b.new(lhs_shape[dl])
        reductions.add(lhs[dl])
    for shape, factors, used in (
        (lhs_shape, lhs, (*lhs_batch, *lhs_contract)),
        (rhs_shape, rhs, (*rhs_batch, *rhs_contract)),
    ):
        for d, size in enumerate(shape):
            if d not in used:
                factors[d] = b.new(size)
                result.append(factors[d])
    return Rule([lhs, rhs], [result], b.sizes, reductions)


# The reducers whose partial results an all-reduce with the same reducer completes,
# with their identity by element kind (float, integer/pred) when it is a plain value.
_IDENTITIES: dict[type[Operation], Callable[[bool], object]] = {
    xla.AddOp: lambda floating: 0,
    xla.MultiplyOp: lambda floating: 1,
    xla.OrOp: lambda floating: 0,
}


def combinable_reducer(op: xla.ReduceOp) -> bool:
    """Whether `op` folds one input with one of add, multiply, maximum, minimum, and, or
    over its two arguments, and starts from that op's identity: then reducing shards
    and all-reducing the partial results with the same reducer gives its result."""
    if len(op.inputs) != 1:
        return False
    ops = list(op.body.block.ops)
    if len(ops) != 2 or not isinstance(ops[1], xla.ReturnOp):
        return False
    combine = ops[0]
    if set(combine.operands) != set(op.body.block.args) or len(combine.operands) != 2:
        return False
    init = op.init_values[0].owner
    if not isinstance(init, xla.ConstantOp) or not isinstance(init.value, DenseIntOrFPElementsAttr):
        return False
    values = list(init.value.get_values())
    if not values:
        return False
    value = values[0]
    element = op.init_values[0].type.get_element_type()  # type: ignore[attr-defined]
    if isinstance(combine, xla.MaximumOp):
        return value == -math.inf if is_float(element) else _is_min_of(value, element)
    if isinstance(combine, xla.MinimumOp):
        return value == math.inf if is_float(element) else _is_max_of(value, element)
    if isinstance(combine, xla.AndOp):  # all bits set: true, -1, or the largest unsigned value
        width = getattr(element, "width", None)
        return width is not None and (value in (-1, True) or value == (1 << width.data) - 1)
    identity = _IDENTITIES.get(type(combine))
    return identity is not None and value == identity(is_float(element))


def _is_min_of(value: object, element: object) -> bool:
    width, signed = getattr(element, "width", None), "ui" not in str(element)
    if width is None:
        return False
    width = width.data  # type: ignore[attr-defined]
    return value == (-(1 << (width - 1)) if signed and width > 1 else 0)


def _is_max_of(value: object, element: object) -> bool:
    width, signed = getattr(element, "width", None), "ui" not in str(element)
    if width is None:
        return False
    width = width.data  # type: ignore[attr-defined]
    return value in ((1 << (width - 1)) - 1 if signed and width > 1 else (1 << width) - 1, -1)


def _reduce(op: xla.ReduceOp) -> Rule:
    b = _Builder()
    shape = shape_of(op.inputs[0].type)
    reduced = set(op.get_dimensions())
    factors: Factors = [b.new(size) for size in shape]
    reductions = {f for d, f in enumerate(factors) if d in reduced}
    kept = [f for d, f in enumerate(factors) if d not in reduced]
    operands = [list(factors) for _ in op.inputs] + [[] for _ in op.init_values]
    return Rule(
        operands,
        [list(kept) for _ in op.results],
        b.sizes,
        reductions,
        combiner=op,
        gathered=not combinable_reducer(op),
    )  # type: ignore[arg-type]


def _where_untouched(op: Operation, untouched: Callable[[int], bool]) -> Rule:
    """Operands and results of one rank whose dimension d is left alone by the op when
    `untouched(d)`: those share a factor, the others stay whole."""
    b = _Builder()
    shape = shape_of(op.results[0].type)
    factors: Factors = [b.new(size) if untouched(d) else None for d, size in enumerate(shape)]
    operands = [
        list(factors) if len(shape_of(v.type)) == len(shape) else [None] * len(shape_of(v.type)) for v in op.operands
    ]
    return Rule(operands, [list(factors) for _ in op.results], b.sizes)


def _slice(op: xla.SliceOp) -> Rule:
    shape = shape_of(op.operand.type)
    starts, limits = op.get_start_indices(), op.get_limit_indices()
    strides = op.get_strides() or (1,) * len(shape)
    return _where_untouched(op, lambda d: starts[d] == 0 and limits[d] == shape[d] and strides[d] == 1)


def _pad(op: xla.PadOp) -> Rule:
    low, high, interior = op.get_edge_padding_low(), op.get_edge_padding_high(), op.get_interior_padding()
    rule = _where_untouched(op, lambda d: low[d] == 0 and high[d] == 0 and interior[d] == 0)
    rule.operands[1] = []  # the padding value, a scalar
    return rule


def _reverse(op: xla.ReverseOp) -> Rule:
    reversed_dims = set(op.get_dimensions())
    return _where_untouched(op, lambda d: d not in reversed_dims)


def _concatenate(op: xla.ConcatenateOp) -> Rule:
    dim = op.get_dimension()
    return _where_untouched(op, lambda d: d != dim)


def _sort(op: xla.SortOp) -> Rule:
    dim = op.get_dimension() % len(shape_of(op.results[0].type))
    return _where_untouched(op, lambda d: d != dim)


def _convolution(op: xla.ConvolutionOp) -> Rule:
    """The batch factor (input and output batch dimensions) and, without feature or batch
    groups, the output-feature factor and the input-feature one (a contraction, summed);
    spatial dimensions stay whole (their windows overlap shards)."""
    lhs, rhs = shape_of(op.lhs.type), shape_of(op.rhs.type)  # type: ignore[attr-defined]
    out = shape_of(op.result.type)  # type: ignore[attr-defined]
    b = _Builder()
    inputs: Factors = [None] * len(lhs)
    kernel: Factors = [None] * len(rhs)
    result: Factors = [None] * len(out)
    reductions: set[int] = set()
    if op.get_batch_group_count() == 1:
        batch = b.new(lhs[op.get_input_batch_dimension()])
        inputs[op.get_input_batch_dimension()] = result[op.get_output_batch_dimension()] = batch
    if op.get_feature_group_count() == 1 and op.get_batch_group_count() == 1:
        features = b.new(rhs[op.get_kernel_output_feature_dimension()])
        kernel[op.get_kernel_output_feature_dimension()] = result[op.get_output_feature_dimension()] = features
        contracted = b.new(lhs[op.get_input_feature_dimension()])
        inputs[op.get_input_feature_dimension()] = kernel[op.get_kernel_input_feature_dimension()] = contracted
        reductions.add(contracted)
    return Rule([inputs, kernel], [result], b.sizes, reductions)


def _gather(op: xla.GatherOp) -> Rule:
    """Batch factors (indices' dimensions but index_vector_dim, and the result's other
    than offset_dims, in order), offset factors (operand dimensions sliced whole and not
    indexed, and the result's offset_dims, in order), and picked factors: operand
    dimensions of slice size 1 that the indices select (collapsed), summed, for element
    types a sum of one value and zeros gives back exactly (not booleans)."""
    operand_shape, indices_shape = shape_of(op.operand.type), shape_of(op.start_indices.type)
    result_shape = shape_of(op.result.type)
    offset_dims, collapsed = op.get_offset_dims(), op.get_collapsed_slice_dims()
    index_map, sizes, vector_dim = op.get_start_index_map(), op.get_slice_sizes(), op.get_index_vector_dim()
    b = _Builder()
    operand: Factors = [None] * len(operand_shape)
    indices: Factors = [None] * len(indices_shape)
    result: Factors = [None] * len(result_shape)
    batch_result = [d for d in range(len(result_shape)) if d not in offset_dims]
    batch_indices = [d for d in range(len(indices_shape)) if d != vector_dim]
    for r, i in zip(batch_result, batch_indices, strict=True):
        result[r] = indices[i] = b.new(result_shape[r])
    kept = [d for d in range(len(operand_shape)) if d not in collapsed]
    for d, r in zip(kept, offset_dims, strict=True):
        if sizes[d] == operand_shape[d] and d not in index_map:
            operand[d] = result[r] = b.new(operand_shape[d])
    picked: dict[int, int] = {}
    element = elem_of(op.operand.type)
    summable = is_float(element) or (isinstance(element, IntegerType) and element.width.data > 1)
    for d in collapsed:
        if summable and sizes[d] == 1 and d in index_map:
            operand[d] = b.new(operand_shape[d])
            picked[operand[d]] = d  # type: ignore[index]
    return Rule([operand, indices], [result], b.sizes, set(picked), "add", picked=picked)


def _iota(op: xla.IotaOp) -> Rule:
    """Any dimension: a device counts its own shard (partition.py adds the shard's offset
    along the iota dimension)."""
    b = _Builder()
    return Rule([], [[b.new(size) for size in shape_of(op.output.type)]], b.sizes)


def _splat_constant(op: xla.ConstantOp) -> Rule | None:
    """A splat constant is made at any shape: each device makes its shard."""
    value = op.value
    if not isinstance(value, DenseIntOrFPElementsAttr) or not value.is_splat():
        return None
    b = _Builder()
    return Rule([], [[b.new(size) for size in shape_of(op.results[0].type)]], b.sizes)


RULES: dict[type[Operation], Callable[..., Rule | None]] = {
    xla.ConstantOp: _splat_constant,
    xla.ConvolutionOp: _convolution,
    xla.IotaOp: _iota,
    xla.BroadcastInDimOp: _broadcast_in_dim,
    xla.TransposeOp: _transpose,
    xla.ReshapeOp: _reshape,
    xla.DotGeneralOp: _dot_general,
    xla.DotOp: _dot_general,
    xla.ReduceOp: _reduce,
    xla.SliceOp: _slice,
    xla.PadOp: _pad,
    xla.ReverseOp: _reverse,
    xla.ConcatenateOp: _concatenate,
    xla.SortOp: _sort,
    xla.GatherOp: _gather,
}

# Element-wise ops that make their values (no operand to follow): rules of their own.
_NOT_ELEMENTWISE = (xla.ConstantOp, xla.IotaOp)


def rule_of(op: Operation) -> Rule | None:
    """The op's sharding rule, or None (computed whole on every device)."""
    if (make := RULES.get(type(op))) is not None:
        return make(op)
    if op.name in _ELEMENTWISE_NAMES and not isinstance(op, _NOT_ELEMENTWISE):
        return _elementwise(op)
    return None


_ELEMENTWISE_NAMES = frozenset(op.name for op in xla.ELEMENTWISE_OPS)
