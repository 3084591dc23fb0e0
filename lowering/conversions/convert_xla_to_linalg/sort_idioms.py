"""What an xla.sort computes, read off its comparator and its users, for the sort
kernels (`lowering/kernels/sort.py`): the sort idioms JAX writes.

* `sort_keys`: the comparator as a list of keys, most significant first, each an
  operand sorted in one direction under one of the radix kernel's orders. It proves
  the comparator is the lexicographic order of those keys, which a chain of stable
  radix sorts (least significant key first) gives exactly:

      key           := compare(T(lhs_j), T(rhs_j), LT | GT, type)       (or swapped: GT | LT)
      comparator    := key | or(key, and(equal, comparator))            (and/or operands in any order)
      equal         := compare(T(lhs_j), T(rhs_j), EQ, type')           (the key's own operands)

  where T is a key transform that JAX's comparators (`_sort_lt_comparator`) apply to
  float operands before a TOTALORDER compare:

      T(x) := x | select(compare(T(x), 0, EQ, FLOAT), 0, T(x))          (-0 as +0)
                | select(compare(T(x), T(x), NE, FLOAT), +NaN, T(x))     (every NaN as +NaN)

  (either select first, the constant on either side of EQ). A float key is either
  untransformed under TOTALORDER (the kernel's `totalorder`), or has both selects
  under TOTALORDER: zeros tie, every NaN is one NaN above +inf (the kernel's `float`
  keys, which order exactly so: -0 and +0 in input order, NaNs last under LT and first
  under GT, in input order). An untransformed FLOAT compare (NaNs unordered) is the
  kernel's `float` too, as before, alone only. An integer key is untransformed under
  SIGNED or UNSIGNED. `equal` must be the key's equivalence: TOTALORDER on floats (a
  FLOAT EQ leaves NaN != NaN, so rows whose key is NaN would not go on to the next
  key), any compare type on integers. Anything else is not recognized (None): the
  merge sort runs its comparator as written.

* `negated_source`: a TOTALORDER float key that is `negate(x)` (JAX's smallest k,
  `lax.top_k(-x, k)`, and `jnp.partition`'s) sorts as x in the other direction
  (`xla-fold-sort-negation`).

* `top_k_slices`: the sort's results are only read by slices of their first k along
  the sorted dimension (what `chlo.top_k` and ApproxTopK import as): a selection of k
  instead of a sort.

* `index_function`: a payload that is an iota along the sorted dimension (argsort's,
  top_k's indices), whose sorted values are its function of the source positions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineMap

from xla_opt.dialects import xla
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.computation import ReturnOp
from xla_opt.dialects.xla.element_types import elem_of, is_float, shape_of

# Element types with a radix key: the floats, and 8- to 64-bit integers.
RADIX_FLOATS = (Float16Type, BFloat16Type, Float32Type, Float64Type)
RADIX_INT_WIDTHS = (8, 16, 32, 64)
_FLIPPED = {"LT": "GT", "GT": "LT"}


@dataclass(frozen=True)
class SortKey:
    """One key of a sort: the operand it is, its direction (LT ascending, GT
    descending) and the radix kernel's order of its elements (`float`, `totalorder`,
    `signed`, `unsigned`; see lowering/kernels/sort.py)."""

    operand: int
    direction: str
    ctype: str


def has_radix_key(element) -> bool:
    return isinstance(element, RADIX_FLOATS) or (
        isinstance(element, IntegerType) and element.width.data in RADIX_INT_WIDTHS
    )


# --------------------------------------------------------------------------------------
# key transforms
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Transformed:
    """A comparator value that is T(block argument `arg`): with -0 as +0 (`zeros`), with
    every NaN as +NaN (`nans`)."""

    arg: BlockArgument
    zeros: bool = False
    nans: bool = False


def _scalar_constant(value: SSAValue) -> float | int | None:
    """The value of a rank-0 xla.constant, else None."""
    op = value.owner
    if not isinstance(op, ew.ConstantOp) or not isinstance(op.value, DenseIntOrFPElementsAttr):
        return None
    if shape_of(op.output.type):
        return None
    values = op.value.get_values()
    return values[0] if len(values) == 1 else None


def _float_compare(op: Operation, direction: str) -> ew.CompareOp | None:
    """`op` as a compare in `direction` under FLOAT (given or the float default)."""
    if not isinstance(op, ew.CompareOp) or op.get_comparison_direction() != direction:
        return None
    if not is_float(elem_of(op.lhs.type)):
        return None
    if op.compare_type is not None and op.get_compare_type() != "FLOAT":
        return None
    return op


def _transformed(value: SSAValue, block: Block) -> _Transformed | None:
    """`value` as T(argument) (see the module doc), else None."""
    if isinstance(value, BlockArgument):
        return _Transformed(value) if value.block is block else None
    op = value.owner
    if not isinstance(op, ew.SelectOp):
        return None
    inner = _transformed(op.on_false, block)
    constant = _scalar_constant(op.on_true)
    if inner is None or not isinstance(constant, float) or not is_float(elem_of(op.on_true.type)):
        return None
    predicate = op.pred.owner
    if (is_zero := _float_compare(predicate, "EQ")) is not None:
        # T(x) == 0 (either side) ? 0 : T(x): -0 and +0 become one zero
        for tested, other in ((is_zero.lhs, is_zero.rhs), (is_zero.rhs, is_zero.lhs)):
            of = _transformed(tested, block)
            if of is not None and of.arg is inner.arg and _scalar_constant(other) == 0 and constant == 0:
                return _Transformed(inner.arg, True, inner.nans)
        return None
    if (is_nan := _float_compare(predicate, "NE")) is not None:
        # T(x) != T(x) ? +NaN : T(x): every NaN becomes one positive NaN
        lhs, rhs = _transformed(is_nan.lhs, block), _transformed(is_nan.rhs, block)
        same = lhs is not None and rhs is not None and lhs.arg is inner.arg and rhs.arg is inner.arg
        if same and math.isnan(constant) and math.copysign(1.0, constant) > 0:
            return _Transformed(inner.arg, inner.zeros, True)
    return None


# --------------------------------------------------------------------------------------
# the comparator as keys
# --------------------------------------------------------------------------------------


def _key_compare(op: Operation, block: Block, directions: tuple[str, ...]) -> tuple[int, str, _Transformed, str] | None:
    """A compare of T(lhs_j) and T(rhs_j) (the same T): (j, its direction as lhs_j
    against rhs_j, T, compare type), else None."""
    if not isinstance(op, ew.CompareOp):
        return None
    direction = op.get_comparison_direction()
    if direction not in directions:
        return None
    lhs, rhs = _transformed(op.lhs, block), _transformed(op.rhs, block)
    if lhs is None or rhs is None or (lhs.zeros, lhs.nans) != (rhs.zeros, rhs.nans):
        return None
    i, j = lhs.arg.index, rhs.arg.index
    if i // 2 != j // 2 or i == j:
        return None
    if i % 2:  # rhs_j compare lhs_j
        direction = _FLIPPED.get(direction, direction)
    element = elem_of(op.lhs.type)
    ctype = op.get_compare_type() if op.compare_type is not None else ew.default_compare_type(element).value
    return i // 2, direction, lhs, ctype


def _kernel_order(element, transform: _Transformed, ctype: str, alone: bool) -> str | None:
    """The radix kernel's order of a key compared under `ctype` after `transform`, or
    None; `alone`: the only key (an untransformed FLOAT compare is allowed there)."""
    if not is_float(element):
        if transform.zeros or transform.nans:
            return None
        return "signed" if ctype == "SIGNED" else "unsigned"
    if ctype == "TOTALORDER":
        if transform.zeros and transform.nans:
            return "float"
        return "totalorder" if not (transform.zeros or transform.nans) else None
    if ctype == "FLOAT" and alone and not (transform.zeros or transform.nans):
        return "float"  # NaNs unordered: the kernel puts them last (LT), as np.sort
    return None


def _equal_of(op: Operation, block: Block, key: tuple[int, str, _Transformed, str]) -> bool:
    """Whether `op` is the EQ compare of exactly the values `key` orders (its operands,
    its transform), under a compare type whose equality is the key's ties."""
    found = _key_compare(op, block, ("EQ",))
    if found is None:
        return False
    operand, _, transform, ctype = found
    if operand != key[0] or (transform.zeros, transform.nans) != (key[2].zeros, key[2].nans):
        return False
    return ctype == "TOTALORDER" if is_float(elem_of(op.lhs.type)) else True


def _lexicographic(value: SSAValue, block: Block) -> list[tuple[int, str, _Transformed, str]] | None:
    """`value` as key | or(key, and(equal(key), rest)): its keys, most significant first."""
    key = _key_compare(value.owner, block, ("LT", "GT"))
    if key is not None:
        return [key]
    either = value.owner
    if not isinstance(either, ew.OrOp):
        return None
    for first, second in ((either.lhs, either.rhs), (either.rhs, either.lhs)):
        key = _key_compare(first.owner, block, ("LT", "GT"))
        both = second.owner
        if key is None or not isinstance(both, ew.AndOp):
            continue
        for equal, rest in ((both.lhs, both.rhs), (both.rhs, both.lhs)):
            if _equal_of(equal.owner, block, key) and (tail := _lexicographic(rest, block)) is not None:
                return [key, *tail]
    return None


def sort_keys(op: xla.SortOp) -> list[SortKey] | None:
    """The keys of `op`'s comparator, most significant first (see the module doc), or
    None when it is not proved a lexicographic order of radix keys."""
    block = op.comparator.block
    ret = block.last_op
    if not isinstance(ret, ReturnOp) or len(ret.operands) != 1:
        return None
    found = _lexicographic(ret.operands[0], block)
    if found is None:
        return None
    keys = []
    for operand, direction, transform, ctype in found:
        element = elem_of(op.inputs[operand].type)
        if not has_radix_key(element):
            return None
        order = _kernel_order(element, transform, ctype, alone=len(found) == 1)
        if order is None:
            return None
        keys.append(SortKey(operand, direction, order))
    return keys


def negated_source(op: xla.SortOp, key: SortKey) -> SSAValue | None:
    """x, when `key`'s operand is xla.negate(x) of floats under TOTALORDER: negation
    flips the sign bit, which reverses the total order exactly (-NaN < -inf < ... < -0
    < +0 < ... < +inf < +NaN; equal keys stay equal, so a stable order's ties keep
    their positions), so sorting -x in one direction is sorting x in the other and
    negating what comes out. Not under the `float` order, whose NaNs are last
    whatever their sign: sorting -x ascending puts them last, x descending first."""
    value = op.inputs[key.operand]
    negate = value.owner
    if key.ctype == "totalorder" and isinstance(negate, ew.NegateOp) and is_float(elem_of(value.type)):
        return negate.operand
    return None


# --------------------------------------------------------------------------------------
# users: the first k of every result
# --------------------------------------------------------------------------------------


def top_k_slices(op: xla.SortOp, dim: int) -> tuple[int, list[list[xla.SliceOp]]] | None:
    """(k, each result's slices) when every use of every result is an xla.slice keeping
    its first k along `dim` (0 < k < the dimension's size) and all of every other
    dimension, with one k for all, and some result is used; else None."""
    shape = shape_of(op.inputs[0].type)
    k = None
    slices: list[list[xla.SliceOp]] = []
    for result in op.results:
        mine = []
        for use in result.uses:
            user = use.operation
            if not isinstance(user, xla.SliceOp):
                return None
            start, limit, strides = user.get_start_indices(), user.get_limit_indices(), user.get_strides()
            full = [limit[d] == shape[d] for d in range(len(shape)) if d != dim]
            if any(start) or any(s != 1 for s in strides) or not all(full):
                return None
            if k is None:
                k = limit[dim]
            if limit[dim] != k:
                return None
            mine.append(user)
        slices.append(mine)
    if k is None or not 0 < k < shape[dim]:
        return None
    return k, slices


# --------------------------------------------------------------------------------------
# payloads: iotas along the sorted dimension
# --------------------------------------------------------------------------------------


def index_function(value: SSAValue, dim: int) -> xla.IotaOp | linalg.GenericOp | None:
    """The op making `value` when each of its elements is a function of its index along
    `dim` alone: an xla.iota along `dim`, or the generic it lowers to (no inputs,
    identity maps, a body reading `linalg.index dim` and no other index or argument,
    nothing but scalar arithmetic), else None. Gathered through a permutation, such a
    payload is that function of the permutation."""
    op = value.owner
    if isinstance(op, xla.IotaOp):
        return op if op.get_iota_dimension() == dim else None
    if not isinstance(op, linalg.GenericOp) or op.inputs or len(op.outputs) != 1 or len(op.res) != 1:
        return None
    rank = len(shape_of(value.type))
    if any(m.data != AffineMap.identity(rank) for m in op.indexing_maps):
        return None
    body = op.body.block
    if any(arg.uses for arg in body.args):
        return None
    for inner in body.ops:
        if isinstance(inner, linalg.IndexOp):
            if inner.dim.value.data != dim:
                return None
        elif inner.regions or not inner.name.startswith("arith.") and not isinstance(inner, linalg.YieldOp):
            return None
    return op
