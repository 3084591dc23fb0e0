"""`chlo` ops decomposed into xla ops, for `convert-stablehlo-to-xla`.

The approximations are those of XLA's math library (xla/hlo/builder/lib/math.cc):
erf by a rational polynomial on [-4, 4] (f32) or Cephes' erf/erfc (f64), erf_inv by
Giles' polynomials, lgamma and digamma by the Lanczos approximation with reflection.
f16 and bf16 are computed in f32, as XLA does. The trigonometric and hyperbolic
functions go through exp, expm1, log, log1p, sqrt and atan2; next_after works on the
bits (bitcast to an integer of the same width).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import (
    BFloat16Type,
    BoolAttr,
    Float16Type,
    Float64Type,
    IntegerType,
    TensorType,
    f32,
    f64,
    i1,
)
from xdsl.ir import Block, Region, SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.xla import elementwise as xe
from xla_opt.dialects.xla import shape_ops as xs
from xla_opt.dialects.xla.element_types import is_complex, is_float
from xla_opt.dialects.xla.computation import ReturnOp as XlaReturnOp

from .common import (
    Builder,
    ByTable,
    Patterns,
    elem,
    fail,
    i64_array,
    i64_attr,
    int_of,
    ints,
    prop,
    scalar,
    shape,
)

PATTERNS = Patterns()

Value = SSAValue


def horner(b: Builder, x: Value, coefficients: Sequence[float]) -> Value:
    """c0 * x^(n-1) + c1 * x^(n-2) + ... (highest degree first)."""
    p = b.full(x, coefficients[0])
    for c in coefficients[1:]:
        p = b.add_(b.mul(p, x), c)
    return p


def horner1(b: Builder, x: Value, coefficients: Sequence[float]) -> Value:
    """Cephes' p1evl: like horner with an implicit leading coefficient 1."""
    return horner(b, x, [1.0, *coefficients])


def u(b: Builder, cls, x: Value) -> Value:
    return b.unary(cls, x)


def is_f64(x: Value) -> bool:
    return isinstance(elem(x), Float64Type)


def float_rule(fn: Callable[[Builder, Value], Value], *names: str) -> None:
    """A rule for a unary float function: f16/bf16 are computed in f32."""

    def convert(op, b):
        x = op.operands[0]
        e = elem(x)
        if is_complex(e) or not is_float(e):
            fail(op, f"'{op.name}' of element type {e} has no xla decomposition (floating-point only)")
        compute = f32 if isinstance(e, Float16Type | BFloat16Type) else e
        result = fn(b, b.convert(x, compute))
        return [b.convert(result, elem(op.results[0]))]

    for n in names:
        PATTERNS.add(n, convert)


# --------------------------------------------------------------------------------------
# Elementary functions
# --------------------------------------------------------------------------------------


def square(b, x):
    return b.mul(x, x)


@PATTERNS.rule("chlo.square")
def _square(op, b):
    return [square(b, op.operands[0])]


def tan(b, x):
    return b.div(u(b, xe.SineOp, x), u(b, xe.CosineOp, x))


def sinh(b, x):
    log_half = math.log(0.5)
    large = b.sub(u(b, xe.ExponentialOp, b.add_(x, log_half)), u(b, xe.ExponentialOp, b.sub(log_half, x)))
    y = u(b, xe.ExponentialMinusOneOp, x)
    small = b.mul(b.add_(y, b.div(y, b.add_(y, 1.0))), 0.5)
    return b.select(b.compare("LT", u(b, xe.AbsOp, x), 1.0), small, large)


def cosh(b, x):
    log_half = math.log(0.5)
    return b.add_(u(b, xe.ExponentialOp, b.add_(x, log_half)), u(b, xe.ExponentialOp, b.sub(log_half, x)))


def sqrt_one_minus_square(b, x):
    return u(b, xe.SqrtOp, b.sub(1.0, b.mul(x, x)))


def asin(b, x):
    return b.mul(2.0, b.binary(xe.Atan2Op, x, b.add_(1.0, sqrt_one_minus_square(b, x))))


def acos(b, x):
    general = b.mul(2.0, b.binary(xe.Atan2Op, sqrt_one_minus_square(b, x), b.add_(1.0, x)))
    return b.select(b.compare("NE", x, -1.0), general, math.pi)


def atan(b, x):
    return b.binary(xe.Atan2Op, x, b.full(x, 1.0))


_BIG = 1e8  # beyond it, x + sqrt(x^2 + 1) is 2x to the precision of f32 and f64


def asinh(b, x):
    a = u(b, xe.AbsOp, x)
    a2 = b.mul(a, a)
    small = u(b, xe.LogPlusOneOp, b.add_(a, b.div(a2, b.add_(1.0, u(b, xe.SqrtOp, b.add_(a2, 1.0))))))
    big = b.add_(u(b, xe.LogOp, a), math.log(2.0))
    r = b.select(b.compare("GT", a, _BIG), big, small)
    return b.mul(r, u(b, xe.SignOp, x))


def acosh(b, x):
    xm1 = b.sub(x, 1.0)
    small = u(b, xe.LogPlusOneOp, b.add_(xm1, u(b, xe.SqrtOp, b.mul(xm1, b.add_(x, 1.0)))))
    big = b.add_(u(b, xe.LogOp, x), math.log(2.0))
    return b.select(b.compare("GT", x, _BIG), big, small)


def atanh(b, x):
    r = b.mul(b.sub(u(b, xe.LogPlusOneOp, x), u(b, xe.LogPlusOneOp, u(b, xe.NegateOp, x))), 0.5)
    return b.select(b.compare("GT", u(b, xe.AbsOp, x), 1.0), math.nan, r)


float_rule(tan, "chlo.tan")
float_rule(sinh, "chlo.sinh")
float_rule(cosh, "chlo.cosh")
float_rule(asin, "chlo.asin")
float_rule(acos, "chlo.acos")
float_rule(atan, "chlo.atan")
float_rule(asinh, "chlo.asinh")
float_rule(acosh, "chlo.acosh")
float_rule(atanh, "chlo.atanh")


def _inf_test(direction: str | None):
    def convert(op, b):
        x = op.operands[0]
        if direction is None:
            return [b.compare("EQ", u(b, xe.AbsOp, x), math.inf)]
        return [b.compare("EQ", x, math.inf if direction == "+" else -math.inf)]

    return convert


PATTERNS.add("chlo.is_inf", _inf_test(None))
PATTERNS.add("chlo.is_pos_inf", _inf_test("+"))
PATTERNS.add("chlo.is_neg_inf", _inf_test("-"))


@PATTERNS.rule("chlo.conj")
def _conj(op, b):
    x = op.operands[0]
    if not is_complex(elem(x)):
        return [x]
    fail(op, "chlo.conj of complex numbers has no xla decomposition (no complex constructor)")


# --------------------------------------------------------------------------------------
# erf, erfc, erf_inv
# --------------------------------------------------------------------------------------

_ERF32_ALPHA = [
    -2.72614225801306e-10,
    2.77068142495902e-08,
    -2.10102402082508e-06,
    -5.69250639462346e-05,
    -7.34990630326855e-04,
    -2.95459980854025e-03,
    -1.60960333262415e-02,
]
_ERF32_BETA = [
    -1.45660718464996e-05,
    -2.13374055278905e-04,
    -1.68282697438203e-03,
    -7.37332916720468e-03,
    -1.42647390514189e-02,
]

# Cephes ndtr.c
_ERF_T = [9.60497373987051638749e0, 9.00260197203842689217e1, 2.23200534594684319226e3, 7.00332514112805075473e3, 5.55923013010394962768e4]
_ERF_U = [3.35617141647503099647e1, 5.21357949780152679795e2, 4.59432382970980127987e3, 2.26290000613890934246e4, 4.92673942608635921086e4]
_ERFC_P = [
    2.46196981473530512524e-10, 5.64189564831068821977e-1, 7.46321056442269912687e0,
    4.86371970985681366614e1, 1.96520832956077098242e2, 5.26445194995477358631e2,
    9.34528527171957607540e2, 1.02755188689515710272e3, 5.57535335369399327526e2,
]  # fmt: skip
_ERFC_Q = [
    1.32281951154744992508e1, 8.67072140885989742329e1, 3.54937778887819891062e2,
    9.75708501743205489753e2, 1.82390916687909736289e3, 2.24633760818710981792e3,
    1.65666309194161350182e3, 5.57535340817727675546e2,
]  # fmt: skip
_ERFC_R = [
    5.64189583547755073984e-1, 1.27536670759978104416e0, 5.01905042251180477414e0,
    6.16021097993053585195e0, 7.40974269950448939160e0, 2.97886665372100240670e0,
]  # fmt: skip
_ERFC_S = [
    2.26052863220117276590e0, 9.39603524938001434673e0, 1.20489539808096656605e1,
    1.70814450747565897222e1, 9.60896809063285878198e0, 3.36907645100081516050e0,
]  # fmt: skip


def erf32(b, x):
    x = b.one(xe.ClampOp, [b.like(x, -4.0), x, b.like(x, 4.0)], x.type)
    x2 = b.mul(x, x)
    return b.div(b.mul(x, horner(b, x2, _ERF32_ALPHA)), horner(b, x2, _ERF32_BETA))


def erfc64_abs(b, a):
    """erfc(a) for a = |x| >= 1 (Cephes)."""
    z = u(b, xe.ExponentialOp, u(b, xe.NegateOp, b.mul(a, a)))
    near = b.div(horner(b, a, _ERFC_P), horner1(b, a, _ERFC_Q))
    far = b.div(horner(b, a, _ERFC_R), horner1(b, a, _ERFC_S))
    return b.mul(z, b.select(b.compare("LT", a, 8.0), near, far))


def erf64(b, x):
    x2 = b.mul(x, x)
    small = b.div(b.mul(x, horner(b, x2, _ERF_T)), horner1(b, x2, _ERF_U))
    a = u(b, xe.AbsOp, x)
    big = b.mul(u(b, xe.SignOp, x), b.sub(1.0, erfc64_abs(b, a)))
    return b.select(b.compare("LT", a, 1.0), small, big)


def erf(b, x):
    return erf64(b, x) if is_f64(x) else erf32(b, x)


def erfc(b, x):
    """1 - erf(x); computed in f64 (Cephes) for every type, then converted back."""
    e = elem(x)
    x = b.convert(x, f64)
    a = u(b, xe.AbsOp, x)
    x2 = b.mul(x, x)
    small = b.sub(1.0, b.div(b.mul(x, horner(b, x2, _ERF_T)), horner1(b, x2, _ERF_U)))
    tail = erfc64_abs(b, a)
    big = b.select(b.compare("LT", x, 0.0), b.sub(2.0, tail), tail)
    return b.convert(b.select(b.compare("LT", a, 1.0), small, big), e)


float_rule(erf, "chlo.erf")
float_rule(erfc, "chlo.erfc")

_ERFINV32_LT5 = [2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941]
_ERFINV32_GT5 = [-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682]
_ERFINV64_LT625 = [
    -3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
    1.115787767802518096e-17, -1.333171662854620906e-16, 2.0972767875968561637e-17,
    6.6376381343583238325e-15, -4.0545662729752068639e-14, -8.1519341976054721522e-14,
    2.6335093153082322977e-12, -1.2975133253453532498e-11, -5.4154120542946279317e-11,
    1.051212273321532285e-09, -4.1126339803469836976e-09, -2.9070369957882005086e-08,
    4.2347877827932403518e-07, -1.3654692000834678645e-06, -1.3882523362786468719e-05,
    0.0001867342080340571352, -0.00074070253416626697512, -0.0060336708714301490533,
    0.24015818242558961693, 1.6536545626831027356,
]  # fmt: skip
_ERFINV64_LT16 = [
    2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07,
    1.8239629214389227755e-08, 1.5027403968909827627e-06, -4.013867526981545969e-06,
    2.9234449089955446044e-06, 1.2475304481671778723e-05, -4.7318229009055733981e-05,
    6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
    0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066,
    -0.0037512085075692412107, 0.005370914553590063617, 1.0052589676941592334,
    3.0838856104922207635,
]  # fmt: skip
_ERFINV64_GT16 = [
    -2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
    -3.7894654401267369937e-09, 7.6157012080783393804e-09, -1.4960026627149240478e-08,
    2.9147953450901080826e-08, -6.7711997758452339498e-08, 2.2900482228026654717e-07,
    -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
    7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026,
    1.0103004648645343977, 4.8499064014085844221,
]  # fmt: skip


def erf_inv(b, x):
    w = u(b, xe.NegateOp, u(b, xe.LogPlusOneOp, u(b, xe.NegateOp, b.mul(x, x))))
    if is_f64(x):
        sq = u(b, xe.SqrtOp, w)
        p1 = horner(b, b.sub(w, 3.125), _ERFINV64_LT625)
        p2 = horner(b, b.sub(sq, 3.25), _ERFINV64_LT16)
        p3 = horner(b, b.sub(sq, 5.0), _ERFINV64_GT16)
        p = b.select(b.compare("LT", w, 6.25), p1, b.select(b.compare("LT", w, 16.0), p2, p3))
    else:
        p1 = horner(b, b.sub(w, 2.5), _ERFINV32_LT5)
        p2 = horner(b, b.sub(u(b, xe.SqrtOp, w), 3.0), _ERFINV32_GT5)
        p = b.select(b.compare("LT", w, 5.0), p1, p2)
    result = b.mul(p, x)
    return b.select(b.compare("EQ", u(b, xe.AbsOp, x), 1.0), b.mul(x, math.inf), result)


float_rule(erf_inv, "chlo.erf_inv")

# --------------------------------------------------------------------------------------
# lgamma, digamma (Lanczos)
# --------------------------------------------------------------------------------------

_LANCZOS_G = 7.0
_LANCZOS_BASE = 0.99999999999980993227684700473478
_LANCZOS = [
    676.520368121885098567009190444019,
    -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,
    -176.61502916214059906584551354,
    12.507343278686904814458936853,
    -0.13857109526572011689554707,
    9.984369578019570859563e-6,
    1.50563273514931155834e-7,
]


def lgamma(b, x):
    reflect = b.compare("LT", x, 0.5)
    z = b.select(reflect, u(b, xe.NegateOp, x), b.sub(x, 1.0))
    s = b.full(x, _LANCZOS_BASE)
    for i, c in enumerate(_LANCZOS):
        s = b.add_(s, b.div(c, b.add_(z, float(i + 1))))
    t = b.add_(z, _LANCZOS_G + 0.5)
    log_t = b.add_(u(b, xe.LogPlusOneOp, b.div(z, _LANCZOS_G + 0.5)), math.log(_LANCZOS_G + 0.5))
    log_y = b.add_(
        b.add_(b.mul(b.sub(b.add_(z, 0.5), b.div(t, log_t)), log_t), 0.5 * math.log(2 * math.pi)),
        u(b, xe.LogOp, s),
    )
    a = u(b, xe.AbsOp, x)
    frac = b.sub(a, u(b, xe.FloorOp, a))
    reduced = b.select(b.compare("GT", frac, 0.5), b.sub(1.0, frac), frac)
    denom = u(b, xe.LogOp, u(b, xe.SineOp, b.mul(reduced, math.pi)))
    reflection = b.select(
        b.one(xe.IsFiniteOp, [denom], TensorType(i1, list(shape(denom)))),
        b.sub(b.sub(math.log(math.pi), denom), log_y),
        u(b, xe.NegateOp, denom),
    )
    result = b.select(reflect, reflection, log_y)
    return b.select(b.compare("EQ", a, math.inf), math.inf, result)


def digamma(b, x):
    reflect = b.compare("LT", x, 0.5)
    z = b.select(reflect, u(b, xe.NegateOp, x), b.sub(x, 1.0))
    num = b.full(x, 0.0)
    denom = b.full(x, _LANCZOS_BASE)
    for i, c in enumerate(_LANCZOS):
        zi = b.add_(z, float(i + 1))
        num = b.sub(num, b.div(c, b.mul(zi, zi)))
        denom = b.add_(denom, b.div(c, zi))
    t = b.add_(z, _LANCZOS_G + 0.5)
    log_t = b.add_(u(b, xe.LogPlusOneOp, b.div(z, _LANCZOS_G + 0.5)), math.log(_LANCZOS_G + 0.5))
    y = b.sub(b.add_(log_t, b.div(num, denom)), b.div(_LANCZOS_G, t))
    reduced = b.add_(x, u(b, xe.AbsOp, u(b, xe.FloorOp, b.add_(x, 0.5))))
    pix = b.mul(reduced, math.pi)
    reflection = b.sub(y, b.div(b.mul(u(b, xe.CosineOp, pix), math.pi), u(b, xe.SineOp, pix)))
    result = b.select(reflect, reflection, y)
    pole = b.binary(
        xe.AndOp, b.compare("LE", x, 0.0), b.compare("EQ", x, u(b, xe.FloorOp, x))
    )
    return b.select(pole, math.nan, result)


float_rule(lgamma, "chlo.lgamma")
float_rule(digamma, "chlo.digamma")

# --------------------------------------------------------------------------------------
# next_after
# --------------------------------------------------------------------------------------


@PATTERNS.rule("chlo.next_after", "chlo.broadcast_next_after")
def _next_after(op, b):
    x, y = op.operands
    e = elem(x)
    if not is_float(e):
        fail(op, f"next_after of element type {e} has no xla decomposition")
    width = e.bitwidth  # type: ignore[attr-defined]
    it = IntegerType(width)
    int_t = TensorType(it, list(shape(x)))
    xi = b.one(xe.BitcastConvertOp, [x], int_t)
    yi = b.one(xe.BitcastConvertOp, [y], int_t)
    sign_mask = -(1 << (width - 1))
    sign_y = b.binary(xe.AndOp, yi, b.constant(sign_mask, scalar(it)))
    # from zero: the smallest subnormal with y's sign
    from_zero = b.binary(xe.OrOp, sign_y, b.constant(1, scalar(it)))
    toward_larger_magnitude = b.compare("EQ", b.compare("LT", x, y), b.compare("GT", x, 0.0))
    plus = b.binary(xe.AddOp, xi, b.constant(1, scalar(it)))
    minus = b.binary(xe.SubtractOp, xi, b.constant(1, scalar(it)))
    moved = b.select(toward_larger_magnitude, plus, minus)
    moved = b.select(b.compare("EQ", x, 0.0), from_zero, moved)
    result = b.one(xe.BitcastConvertOp, [moved], x.type)
    result = b.select(b.compare("EQ", x, y), y, result)
    either_nan = b.binary(xe.OrOp, b.compare("NE", x, x), b.compare("NE", y, y))
    return [b.select(either_nan, math.nan, result)]


# --------------------------------------------------------------------------------------
# top_k
# --------------------------------------------------------------------------------------


@PATTERNS.rule("chlo.top_k")
def _top_k(op, b):
    x = op.operands[0]
    k = int_of(prop(op, "k"))
    values_t, indices_t = op.results[0].type, op.results[1].type
    dims = shape(x)
    last = len(dims) - 1
    index_e = elem(indices_t)
    iota = b.one(xe.IotaOp, [], TensorType(index_e, list(dims)), {"iota_dimension": i64_attr(last)})
    ex = scalar(elem(x))
    block = Block(arg_types=[ex, ex, scalar(index_e), scalar(index_e)])
    compare_type = "TOTALORDER" if is_float(elem(x)) else None
    props = {"comparison_direction": xe.ComparisonDirectionAttr(xe.ComparisonDirection.GT)}
    if compare_type:
        props["compare_type"] = xe.ComparisonTypeAttr(xe.ComparisonType.TOTALORDER)
    gt = xe.CompareOp.build(operands=[block.args[0], block.args[1]], result_types=[scalar(i1)], properties=props)
    block.add_ops([gt, XlaReturnOp.build(operands=[[gt.results[0]]])])
    sort = b.build(
        xla.SortOp,
        [[x, iota]],
        [x.type, iota.type],
        {"dimension": i64_attr(last), "is_stable": BoolAttr.from_bool(True)},
        [Region(block)],
    )
    starts = [0] * len(dims)
    limits = [*dims[:-1], k]
    slice_props = {"start_indices": i64_array(starts), "limit_indices": i64_array(limits), "strides": i64_array([1] * len(dims))}
    values = b.one(xs.SliceOp, [sort.results[0]], values_t, slice_props)
    indices = b.one(xs.SliceOp, [sort.results[1]], indices_t, slice_props)
    return [values, indices]


# --------------------------------------------------------------------------------------
# chlo.broadcast_*: numpy-style broadcasting as xla broadcast_dimensions
# --------------------------------------------------------------------------------------

_BROADCAST_BINARY = {
    "add": xe.AddOp, "subtract": xe.SubtractOp, "multiply": xe.MultiplyOp, "divide": xe.DivideOp,
    "remainder": xe.RemainderOp, "maximum": xe.MaximumOp, "minimum": xe.MinimumOp,
    "power": xe.PowerOp, "atan2": xe.Atan2Op, "and": xe.AndOp, "or": xe.OrOp, "xor": xe.XorOp,
    "shift_left": xe.ShiftLeftOp, "shift_right_logical": xe.ShiftRightLogicalOp,
    "shift_right_arithmetic": xe.ShiftRightArithmeticOp,
}  # fmt: skip


def _broadcast_binary(op, b, cls):
    """chlo.broadcast_<op>: the xla op, its implicit broadcast made explicit by
    `broadcast_dimensions` (numpy's trailing alignment when the op has none)."""
    lhs, rhs = op.operands
    lr, rr = len(shape(lhs)), len(shape(rhs))
    props = {}
    dims = prop(op, "broadcast_dimensions")
    if lr != rr and min(lr, rr) > 0:
        props["broadcast_dimensions"] = i64_array(
            ints(dims) if dims is not None else range(max(lr, rr) - min(lr, rr), max(lr, rr))
        )
    return b.build(cls, [lhs, rhs], [op.results[0].type], props).results


PATTERNS.append(ByTable({f"chlo.broadcast_{n}": cls for n, cls in _BROADCAST_BINARY.items()}, _broadcast_binary))
