"""Linear forms of a loop nest's indices: an indexing map's result, or a generic body's
index arithmetic, written as sum(coefficient * loop) + constant, which the kernels'
matchers read strides and offsets from (`linalg-matmul-to-kernel`,
`linalg-conv-to-kernel`) and `fold-delinearized-accesses` reads a buffer's linear
address from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)
from xla_opt.lowering.utils.llvm_types import row_major_strides

Term = int | tuple[int, int]  # loop d, or (d, q) for d floordiv q


@dataclass(frozen=True)
class Linear:
    """sum(coefficient * term) + constant over the loops (terms sorted, no zero
    coefficient: equal forms compare and hash equal)."""

    terms: tuple[tuple[Term, int], ...] = ()
    constant: int = 0

    @staticmethod
    def make(terms: dict[Term, int], constant: int = 0) -> Linear:
        return Linear(tuple(sorted(((t, c) for t, c in terms.items() if c), key=repr)), constant)

    @staticmethod
    def of(term: Term) -> Linear:
        return Linear(((term, 1),))

    def coefficients(self) -> dict[Term, int]:
        return dict(self.terms)

    def plus(self, other: Linear, sign: int = 1) -> Linear:
        terms = self.coefficients()
        for t, c in other.terms:
            terms[t] = terms.get(t, 0) + sign * c
        return Linear.make(terms, self.constant + sign * other.constant)

    def times(self, k: int) -> Linear:
        return Linear.make({t: c * k for t, c in self.terms}, self.constant * k)

    def as_constant(self) -> int | None:
        return None if self.terms else self.constant

    def as_affine(self) -> AffineExpr:
        """The form as an affine expression (a term (d, q) as `d floordiv q`)."""
        expr = AffineExpr.constant(self.constant)
        for term, coefficient in self.terms:
            loop = AffineExpr.dimension(term) if isinstance(term, int) else AffineExpr.dimension(term[0]) // term[1]
            expr = expr + loop * coefficient
        return expr


def linear_form(expr: AffineExpr, divisions: bool = False) -> Linear | None:
    """An indexing map result as a linear form: sums and constant multiples; with
    `divisions`, also `d floordiv q` of a loop (or of such a quotient: floor divisions
    by positive constants compose, (d floordiv 96) floordiv 96 = d floordiv 9216) as the
    term (d, q), and `e mod q` as e - q * (e floordiv q), exact for q > 0. Then the
    coordinates a reshape merged, addressed in row-major order, cancel back to the
    loop: 96 * (d floordiv 96) + (d mod 96) is d."""
    if isinstance(expr, AffineDimExpr):
        return Linear.of(expr.position)
    if isinstance(expr, AffineConstantExpr):
        return Linear(constant=expr.value)
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    lhs, rhs = linear_form(expr.lhs, divisions), linear_form(expr.rhs, divisions)
    if lhs is None or rhs is None:
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        return lhs.plus(rhs)
    if expr.kind == AffineBinaryOpKind.Mul:
        k = rhs.as_constant() if rhs.as_constant() is not None else lhs.as_constant()
        other = lhs if rhs.as_constant() is not None else rhs
        return None if k is None else other.times(k)
    divisor = rhs.as_constant()
    if not divisions or divisor is None or divisor <= 0:
        return None
    quotient = _floor_divided(lhs, divisor)
    if quotient is None:
        return None
    if expr.kind == AffineBinaryOpKind.FloorDiv:
        return quotient
    if expr.kind == AffineBinaryOpKind.Mod:
        return lhs.plus(quotient.times(divisor), sign=-1)
    return None


def _floor_divided(form: Linear, divisor: int) -> Linear | None:
    """`form floordiv divisor` as a term, when `form` is one loop or one quotient of a
    loop (coefficient 1, no constant); else None."""
    if divisor == 1:
        return form
    if form.constant or len(form.terms) != 1 or form.terms[0][1] != 1:
        return None
    term = form.terms[0][0]
    loop, q = (term, 1) if isinstance(term, int) else term
    return Linear.of((loop, q * divisor))


def linear_address(shape: Sequence[int], results: Sequence[AffineExpr]) -> Linear | None:
    """The element offset that indices `results` address in a row-major buffer of
    `shape`, as a linear form with divisions (`linear_form`: the coordinates of a merge
    read in memory order cancel back to the loop); None if an index is not such a form.
    A form left with a (d, q) term is not linear in the loops."""
    address = Linear()
    for result, row_stride in zip(results, row_major_strides(shape), strict=True):
        form = linear_form(result, divisions=True)
        if form is None:
            return None
        address = address.plus(form.times(row_stride))
    return address


def index_form(op: Operation, args: Sequence[object]) -> Linear | None:
    """The linear form of one op of a generic body's index arithmetic, from the forms
    of its operands (`args`; anything but a Linear is not understood): `linalg.index`,
    an index constant, a sum, a difference, a product by a constant, and a loop index
    (never negative) divided by a positive constant, the term (d, q); None for
    anything else."""
    if isinstance(op, linalg.IndexOp):
        return Linear.of(op.dim.value.data)
    if isinstance(op, arith.ConstantOp):
        value = op.value
        return (
            Linear(constant=value.value.data)
            if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType)
            else None
        )
    if not all(isinstance(a, Linear) for a in args):
        return None
    if isinstance(op, arith.AddiOp | arith.SubiOp):
        return args[0].plus(args[1], 1 if isinstance(op, arith.AddiOp) else -1)  # type: ignore[union-attr, arg-type]
    if isinstance(op, arith.MuliOp):
        lhs, rhs = args  # type: ignore[misc]
        k = rhs.as_constant() if rhs.as_constant() is not None else lhs.as_constant()
        return None if k is None else (lhs if rhs.as_constant() is not None else rhs).times(k)
    if isinstance(op, arith.DivSIOp | arith.DivUIOp | arith.FloorDivSIOp):
        index, divisor = args  # type: ignore[misc]
        q = divisor.as_constant()
        if q is None or q <= 0 or index.constant or len(index.terms) != 1:
            return None
        [(term, coefficient)] = index.terms
        return Linear.of((term, q)) if isinstance(term, int) and coefficient == 1 else None
    return None
