"""`chlo` ops decomposed into xla ops, for `convert-stablehlo-to-xla`.

The approximations are those of XLA's math library (xla/hlo/builder/lib/math.cc):
erf by a rational polynomial on [-4, 4] (f32) or Cephes' erf/erfc (f64), erf_inv by
Giles' polynomials, lgamma and digamma by the Lanczos approximation with reflection,
bessel_i1e by Cephes' Chebyshev expansions, zeta by Euler-Maclaurin summation and
polygamma through zeta (StableHLO's chlo legalization, which XLA runs, has the same).
f16 and bf16 are computed in f32, as XLA does. The trigonometric and hyperbolic
functions go through exp, expm1, log, log1p, sqrt and atan2; next_after works on the
bits (bitcast to an integer of the same width).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    BoolAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
    f32,
    f64,
    i1,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import SymbolTable
from xla_opt.dialects.stablehlo.attrs import enum_value
from xla_opt.dialects import xla
from xla_opt.dialects.xla import elementwise as xe
from xla_opt.dialects.xla import shape_ops as xs
from xla_opt.dialects.xla.computation import ReturnOp as XlaReturnOp
from xla_opt.dialects.xla.element_types import is_complex, is_float, is_integer, is_unsigned

from .common import (
    Builder,
    ByTable,
    Patterns,
    bool_of,
    check_isolated,
    elem,
    fail,
    i64_array,
    i64_attr,
    int_of,
    ints,
    prop,
    scalar,
    shape,
    take_regions,
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
_ERF_T = [
    9.60497373987051638749e0,
    9.00260197203842689217e1,
    2.23200534594684319226e3,
    7.00332514112805075473e3,
    5.55923013010394962768e4,
]
_ERF_U = [
    3.35617141647503099647e1,
    5.21357949780152679795e2,
    4.59432382970980127987e3,
    2.26290000613890934246e4,
    4.92673942608635921086e4,
]
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

_ERFINV32_LT5 = [
    2.81022636e-08,
    3.43273939e-07,
    -3.5233877e-06,
    -4.39150654e-06,
    0.00021858087,
    -0.00125372503,
    -0.00417768164,
    0.246640727,
    1.50140941,
]
_ERFINV32_GT5 = [
    -0.000200214257,
    0.000100950558,
    0.00134934322,
    -0.00367342844,
    0.00573950773,
    -0.0076224613,
    0.00943887047,
    1.00167406,
    2.83297682,
]
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
    pole = b.binary(xe.AndOp, b.compare("LE", x, 0.0), b.compare("EQ", x, u(b, xe.FloorOp, x)))
    return b.select(pole, math.nan, result)


float_rule(lgamma, "chlo.lgamma")
float_rule(digamma, "chlo.digamma")

# --------------------------------------------------------------------------------------
# bessel_i1e (Cephes' Chebyshev expansions), zeta (Euler-Maclaurin), polygamma
# --------------------------------------------------------------------------------------

# Cephes i1.c: exp(-|x|) I1(x) / x on [0, 8] in the variable x/2 - 2 (A), and
# exp(-|x|) sqrt(|x|) I1(x) beyond 8 in 32/|x| - 2 (B); f32 keeps the last terms.
_I1E_A64 = [
    2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
    -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
    3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
    -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
    9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7,
    -8.56872026469545474066e-7, 3.47025130813767847674e-6, -1.32731636560394358279e-5,
    4.78156510755005422638e-5, -1.61760815825896745588e-4, 5.12285956168575772895e-4,
    -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
    2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1,
    -1.76416518357834055153e-1, 2.52587186443633654823e-1,
]  # fmt: skip
_I1E_B64 = [
    7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
    -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
    -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
    4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
    -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
    3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
    -3.83538038596423702205e-9, -2.63146884688951950684e-8, -2.51223623787020892529e-7,
    -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
    7.78576235018280120474e-1,
]  # fmt: skip
_I1E_A32 = _I1E_A64[-17:]
_I1E_B32 = _I1E_B64[-7:]


def chebyshev(b, x, coefficients: Sequence[float]):
    """Cephes' chbevl: sum of c_i T_i(x/2), by Clenshaw's recurrence."""
    b0, b1, b2 = b.full(x, 0.0), b.full(x, 0.0), b.full(x, 0.0)
    for c in coefficients:
        b2, b1 = b1, b0
        b0 = b.add_(b.sub(b.mul(x, b1), b2), c)
    return b.mul(b.sub(b0, b2), 0.5)


def bessel_i1e(b, x):
    """exp(-|x|) I1(x): the expansion in [0, 8] times |x|, the one beyond divided by
    sqrt(|x|), with x's sign (I1 is odd)."""
    a_coefficients, b_coefficients = (_I1E_A64, _I1E_B64) if is_f64(x) else (_I1E_A32, _I1E_B32)
    z = u(b, xe.AbsOp, x)
    small = b.mul(z, chebyshev(b, b.sub(b.mul(z, 0.5), 2.0), a_coefficients))
    large = b.div(chebyshev(b, b.sub(b.div(32.0, z), 2.0), b_coefficients), u(b, xe.SqrtOp, z))
    return b.mul(u(b, xe.SignOp, x), b.select(b.compare("LE", z, 8.0), small, large))


float_rule(bessel_i1e, "chlo.bessel_i1e")

# Euler-Maclaurin: (2k)! / B_2k for k = 12..1 (XLA's kZetaCoeffs)
_ZETA_COEFFICIENTS = [
    -7.1661652561756670113e18, 1.8152105401943546773e17, -4.5979787224074726105e15,
    1.1646782814350067249e14, -2.950130727918164224e12, 7.47242496e10,
    -1.8924375803183791606e9, 47900160.0, -1209600.0, 30240.0, -720.0, 12.0,
]  # fmt: skip
_ZETA_ITERATIONS = 9


def zeta(b, x, q):
    """The Hurwitz zeta function sum_k (q + k)^-x (Johansson 2015, formula 5, as XLA's
    math library): the first ten terms summed, the rest by Euler-Maclaurin with twelve
    Bernoulli terms (Horner's rule); nan for x < 1 and for q <= 0 with x not an
    integer, inf at the poles (q a non-positive integer, x even) and for x = 1."""
    neg_x = u(b, xe.NegateOp, x)
    acc = q
    power_sum = b.binary(xe.PowerOp, q, neg_x)
    for _ in range(_ZETA_ITERATIONS):
        acc = b.add_(acc, 1.0)
        power_sum = b.add_(power_sum, b.binary(xe.PowerOp, acc, neg_x))
    acc = b.add_(acc, 1.0)
    q_neg_power = b.binary(xe.PowerOp, acc, neg_x)
    correction = b.div(b.mul(q_neg_power, acc), b.sub(x, 1.0))
    inverse_square = b.div(1.0, b.mul(acc, acc))
    terms = len(_ZETA_COEFFICIENTS)
    horner_sum = b.full(q, 0.0)
    for i in range(terms - 1):
        factor = b.mul(b.add_(x, float(2 * terms - 2 - 2 * i)), b.add_(x, float(2 * terms - 3 - 2 * i)))
        horner_sum = b.mul(factor, b.mul(inverse_square, b.add_(horner_sum, 1.0 / _ZETA_COEFFICIENTS[i])))
    tail = b.mul(q_neg_power, b.add_(b.mul(b.div(x, acc), b.add_(horner_sum, 1.0 / _ZETA_COEFFICIENTS[-1])), 0.5))
    accurate = b.add_(b.add_(power_sum, correction), tail)
    # the first terms alone when the rest is below |power_sum| times the type's smallest
    # subnormal; XLA's CPU code flushes subnormal results to zero, so that bound is 0
    # unless it is normal (zeta(inf, 1) is then nan, as in JAX, not 1)
    smallest, smallest_normal = (2.0**-1074, 2.0**-1022) if is_f64(q) else (2.0**-149, 2.0**-126)
    bound = b.mul(u(b, xe.AbsOp, power_sum), smallest)
    bound = b.select(b.compare("LT", bound, smallest_normal), 0.0, bound)
    negligible = b.compare("LT", u(b, xe.AbsOp, q_neg_power), bound)
    out = b.select(negligible, power_sum, accurate)
    out = b.select(b.compare("LT", x, 1.0), math.nan, out)
    q_le_zero = b.compare("LE", q, 0.0)
    x_is_int = b.compare("EQ", x, u(b, xe.FloorOp, x))
    domain_error = b.binary(xe.AndOp, q_le_zero, b.compare("NE", x, u(b, xe.FloorOp, x)))
    out = b.select(domain_error, math.nan, out)
    at_pole = b.binary(xe.AndOp, q_le_zero, b.compare("EQ", q, u(b, xe.FloorOp, q)))
    x_even_int = b.binary(xe.AndOp, x_is_int, b.compare("EQ", b.binary(xe.RemainderOp, x, 2.0), 0.0))
    out = b.select(at_pole, b.select(x_even_int, b.full(x, math.inf), b.full(x, math.nan)), out)
    return b.select(b.compare("EQ", x, 1.0), math.inf, out)


def polygamma(b, n, x):
    """polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x) for a natural n > 0, digamma for
    n = 0, nan for any other n (XLA's math library)."""
    sign = b.sub(b.mul(2.0, b.binary(xe.RemainderOp, n, 2.0)), 1.0)
    n_plus_one = b.add_(n, 1.0)
    factorial = u(b, xe.ExponentialOp, lgamma(b, n_plus_one))
    result = b.mul(b.mul(sign, factorial), zeta(b, n_plus_one, x))
    result = b.select(b.compare("EQ", n, 0.0), digamma(b, x), result)
    not_natural = b.binary(xe.OrOp, b.compare("NE", n, u(b, xe.FloorOp, n)), b.compare("LT", n, 0.0))
    return b.select(not_natural, math.nan, result)


def _to_result_shape(op, b, v: Value) -> Value:
    """chlo.broadcast_*'s implicit broadcast of an operand to the result's shape
    (numpy's trailing alignment unless `broadcast_dimensions` says otherwise)."""
    target = list(shape(op.results[0]))
    if list(shape(v)) == target:
        return v
    rank = len(shape(v))
    dims = (
        ints(prop(op, "broadcast_dimensions"))
        if prop(op, "broadcast_dimensions") is not None and rank < len(target)
        else []
    )
    if len(dims) != rank:
        dims = list(range(len(target) - rank, len(target)))
    return b.one(xs.BroadcastInDimOp, [v], TensorType(elem(v), target), {"broadcast_dimensions": i64_array(dims)})


def binary_float_rule(fn: Callable[[Builder, Value, Value], Value], *names: str) -> None:
    """A rule for a binary float function (and its chlo.broadcast_ form): f16/bf16 are
    computed in f32, as XLA does."""

    def convert(op, b):
        x, y = (_to_result_shape(op, b, v) for v in op.operands)
        e = elem(x)
        if is_complex(e) or not is_float(e) or elem(y) != e:
            fail(op, f"'{op.name}' of element types {e}, {elem(y)} has no xla decomposition (one floating-point type)")
        compute = f32 if isinstance(e, Float16Type | BFloat16Type) else e
        result = fn(b, b.convert(x, compute), b.convert(y, compute))
        return [b.convert(result, elem(op.results[0]))]

    for n in names:
        PATTERNS.add(n, convert)


binary_float_rule(zeta, "chlo.zeta", "chlo.broadcast_zeta")
binary_float_rule(polygamma, "chlo.polygamma", "chlo.broadcast_polygamma")

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


def compare_region(element_types: Sequence, direction: str, compare_type: str | None) -> Region:
    """A sort comparator of N operands (2N scalar arguments, lhs and rhs of each in
    turn) that compares the first pair."""
    block = Block(arg_types=[scalar(e) for e in element_types for _ in range(2)])
    props = {"comparison_direction": xe.ComparisonDirectionAttr(xe.ComparisonDirection(direction))}
    if compare_type:
        props["compare_type"] = xe.ComparisonTypeAttr(xe.ComparisonType(compare_type))
    cmp = xe.CompareOp.build(operands=[block.args[0], block.args[1]], result_types=[scalar(i1)], properties=props)
    block.add_ops([cmp, XlaReturnOp.build(operands=[[cmp.results[0]]])])
    return Region(block)


def sorted_prefix(b: Builder, operands: Sequence[Value], dimension: int, k: int, comparator: Region) -> list[Value]:
    """The first k along `dimension` of the operands sorted together (stably) by
    `comparator`: a sort and a slice of each."""
    sort = b.build(
        xla.SortOp,
        [list(operands)],
        [v.type for v in operands],
        {"dimension": i64_attr(dimension), "is_stable": BoolAttr.from_bool(True)},
        [comparator],
    )
    dims = list(shape(operands[0]))
    limits = [*dims[:dimension], k, *dims[dimension + 1 :]]
    props = {"start_indices": i64_array([0] * len(dims)), "limit_indices": i64_array(limits),
             "strides": i64_array([1] * len(dims))}  # fmt: skip
    return [b.one(xs.SliceOp, [r], TensorType(elem(r), limits), props) for r in sort.results]


@PATTERNS.rule("chlo.top_k")
def _top_k(op, b):
    """top_k: the k largest along the last dimension, in descending total order (NaN
    first, ties by index: a stable sort), and their indices."""
    x = op.operands[0]
    k = int_of(prop(op, "k"))
    dims = shape(x)
    last = len(dims) - 1
    index_e = elem(op.results[1])
    iota = b.one(xe.IotaOp, [], TensorType(index_e, list(dims)), {"iota_dimension": i64_attr(last)})
    comparator = compare_region([elem(x), index_e], "GT", "TOTALORDER" if is_float(elem(x)) else None)
    return sorted_prefix(b, [x, iota], last, k, comparator)


# --------------------------------------------------------------------------------------
# ApproxTopK (lax.approx_max_k / approx_min_k): the exact top-k
# --------------------------------------------------------------------------------------


def _config(op) -> dict:
    config = prop(op, "mhlo.backend_config")
    return dict(config.data) if isinstance(config, DictionaryAttr) else {}


def _comparator_function(op, name: str) -> func.FuncOp:
    module = op
    while module.parent_op() is not None:
        module = module.parent_op()
    callee = SymbolTable.lookup_symbol(module, name)
    if not isinstance(callee, func.FuncOp) or not callee.body.blocks:
        fail(op, f"the comparator @{name} is not a function of this module")
    return callee


def _simple_comparison(callee: func.FuncOp) -> tuple[str, str | None] | None:
    """(direction, compare type) of a comparator that is one compare of its first two
    arguments (what JAX emits: `top_k_gt_f32_comparator`), in stablehlo or xla form."""
    block = callee.body.blocks[0]
    ops = list(block.ops)
    if len(ops) != 2 or ops[0].name not in ("stablehlo.compare", "xla.compare"):
        return None
    cmp, ret = ops
    if list(cmp.operands) != list(block.args[:2]) or list(ret.operands) != [cmp.results[0]]:
        return None
    return enum_value(prop(cmp, "comparison_direction")), enum_value(prop(cmp, "compare_type"))


def _cloned_body(op, callee: func.FuncOp, n: int) -> Block:
    """The comparator's body (its 2N scalar arguments), already xla ops."""
    region = callee.body.clone()
    block = region.blocks[0]
    if len(block.args) != 2 * n:
        fail(op, f"the comparator @{callee.sym_name.data} takes {len(block.args)} arguments, not 2 x {n}")
    for inner in block.walk():
        if not inner.name.startswith(("xla.", "func.")):
            fail(op, f"the comparator @{callee.sym_name.data} must be defined before its ApproxTopK (it holds {inner.name})")
    terminator = block.last_op
    if terminator is not None and terminator.name == "func.return":
        returned = list(terminator.operands)
        terminator.detach()
        terminator.erase()
        block.add_op(XlaReturnOp.build(operands=[returned]))
    return region.detach_block(block)


def approx_top_k(op, b) -> list[Value]:
    """ApproxTopK (`lax.approx_max_k` / `approx_min_k`; the custom call JAX emits, with
    `is_fallback = true` on CPU), computed exactly: recall 1, which meets any
    `recall_target`. As XLA's ApproxTopKFallback: the operands (N inputs, then N init
    values) sorted along `reduction_dim` by the called comparator, the first K of each
    kept, K the results' size there (`top_k`, or the larger size JAX gives when not
    `aggregate_to_topk`); K = 1 is a reduce that keeps the lhs where the comparator
    holds (ties and NaNs as XLA's CPU code: the last of equal elements). A comparator
    that is `GT` on f32 values with their iota along the first or last dimension, and
    K short of the whole, sorts in total order (NaN first, -0 < 0, ties by index): XLA's
    CPU rewrites that sort and slice into its TopK."""
    operands = list(op.operands)
    if len(operands) % 2 or len(op.results) != len(operands) // 2 or not operands:
        fail(op, f"ApproxTopK takes N operands and N init values for N results; got {len(operands)} operands, {len(op.results)} results")
    n = len(op.results)
    inputs, inits = operands[:n], operands[n:]
    config = _config(op)
    rank = len(shape(inputs[0]))
    dim = int_of(config.get("reduction_dim"), rank - 1)
    if not 0 <= dim < rank:
        fail(op, f"reduction_dim {dim} is out of range for rank {rank}")
    top_k = int_of(config.get("top_k"))
    recall = config.get("recall_target")
    if recall is not None and not 0.0 < float(recall.value.data) <= 1.0:  # type: ignore[attr-defined]
        fail(op, f"recall_target must be in (0, 1], got {recall.value.data}")  # type: ignore[attr-defined]
    size = shape(inputs[0])[dim]
    k = shape(op.results[0])[dim]
    if any(shape(v) != shape(inputs[0]) for v in inputs) or k > size or (top_k is not None and k < min(top_k, size)):
        fail(op, f"ApproxTopK results {[str(r.type) for r in op.results]} do not hold the top {top_k} of {size} along dimension {dim}")
    for v, init, r in zip(inputs, inits, op.results, strict=True):
        if shape(init) or elem(init) != elem(v) or elem(r) != elem(v):
            fail(op, f"init value {init.type} and result {r.type} must be scalars of {elem(v)}'s element type")
    called = prop(op, "called_computations")
    names = [a.root_reference.data for a in called.data] if isinstance(called, ArrayAttr) else []  # type: ignore[attr-defined]
    if len(names) != 1:
        fail(op, "ApproxTopK needs one comparator in called_computations")
    callee = _comparator_function(op, names[0])
    simple = _simple_comparison(callee)
    if k == 1:
        return _top_one(op, b, inputs, inits, dim, callee, simple)
    if simple is not None:
        direction, compare_type = simple
        iota = inputs[1].owner if n == 2 else None
        if (direction == "GT" and isinstance(elem(inputs[0]), Float32Type) and dim in (0, rank - 1) and k < size
                and getattr(iota, "name", "") in ("xla.iota", "stablehlo.iota")
                and int_of(prop(iota, "iota_dimension")) == dim):  # fmt: skip
            compare_type = "TOTALORDER"
        comparator = compare_region([elem(v) for v in inputs], direction, compare_type)
    else:
        comparator = Region(_cloned_body(op, callee, n))
    return sorted_prefix(b, inputs, dim, k, comparator)


def _top_one(op, b, inputs, inits, dim, callee, simple) -> list[Value]:
    """K = 1: a reduce whose body keeps the accumulators where comparator(acc, x)
    holds, else the elements (XLA's BuildReductionComputation)."""
    n = len(inputs)
    elements = [scalar(elem(v)) for v in inputs]
    block = Block(arg_types=elements * 2)
    accs, xs_ = block.args[:n], block.args[n:]
    interleaved = [v for pair in zip(accs, xs_, strict=True) for v in pair]
    if simple is not None:
        direction, compare_type = simple
        props = {"comparison_direction": xe.ComparisonDirectionAttr(xe.ComparisonDirection(direction))}
        if compare_type:
            props["compare_type"] = xe.ComparisonTypeAttr(xe.ComparisonType(compare_type))
        cmp = xe.CompareOp.build(operands=interleaved[:2], result_types=[scalar(i1)], properties=props)
        block.add_op(cmp)
        pred = cmp.results[0]
    else:
        body = _cloned_body(op, callee, n)
        for arg, value in zip(body.args, interleaved, strict=True):
            arg.replace_all_uses_with(value)
        *ops, terminator = list(body.ops)
        for inner in ops:
            inner.detach()
            block.add_op(inner)
        pred = terminator.operands[0]
    chosen = [xe.SelectOp.build(operands=[pred, a, x], result_types=[a.type]) for a, x in zip(accs, xs_, strict=True)]
    block.add_ops([*chosen, XlaReturnOp.build(operands=[[c.results[0] for c in chosen]])])
    reduced_dims = [d for i, d in enumerate(shape(inputs[0])) if i != dim]
    reduce = b.build(
        xla.ReduceOp,
        [list(inputs), list(inits)],
        [TensorType(elem(v), reduced_dims) for v in inputs],
        {"dimensions": i64_array([dim])},
        [Region(block)],
    )
    return [b.one(xs.ReshapeOp, [r], res.type) for r, res in zip(reduce.results, op.results, strict=True)]


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


# --------------------------------------------------------------------------------------
# mulhi
# --------------------------------------------------------------------------------------


@PATTERNS.rule("chlo.mulhi")
def _mulhi(op, b):
    """mulhi(x, y) = downcast((upcast(x) * upcast(y)) >> N): the high N bits of the
    2N-bit product. Up to 32 bits the product is exact in 64 bits; 64-bit operands
    multiply their 32-bit halves in ui64 (schoolbook), signed ones then subtract
    `y` where x < 0 and `x` where y < 0 (two's complement: x_signed = x_unsigned - 2^64)."""
    x, y = op.operands
    e = elem(x)
    if not is_integer(e):
        fail(op, f"mulhi needs integer operands, got {e}")
    width = e.width.data  # type: ignore[attr-defined]
    unsigned = is_unsigned(e)
    if width <= 32:
        wide = IntegerType(64, Signedness.UNSIGNED if unsigned else Signedness.SIGNLESS)
        product = b.mul(b.convert(x, wide), b.convert(y, wide))
        shift = xe.ShiftRightLogicalOp if unsigned else xe.ShiftRightArithmeticOp
        return [b.convert(b.binary(shift, product, width), e)]
    u64 = IntegerType(64, Signedness.UNSIGNED)
    u64_t = TensorType(u64, list(shape(x)))
    ux = x if unsigned else b.one(xe.BitcastConvertOp, [x], u64_t)
    uy = y if unsigned else b.one(xe.BitcastConvertOp, [y], u64_t)
    mask = 0xFFFFFFFF

    def halves(v):
        return b.binary(xe.AndOp, v, mask), b.binary(xe.ShiftRightLogicalOp, v, 32)

    (xl, xh), (yl, yh) = halves(ux), halves(uy)
    ll, hl, lh, hh = b.mul(xl, yl), b.mul(xh, yl), b.mul(xl, yh), b.mul(xh, yh)
    ll_hi = b.binary(xe.ShiftRightLogicalOp, ll, 32)
    hl_lo, hl_hi = halves(hl)
    cross = b.add_(b.add_(ll_hi, hl_lo), lh)
    high = b.add_(b.add_(hl_hi, b.binary(xe.ShiftRightLogicalOp, cross, 32)), hh)
    if unsigned:
        return [high]
    zero = b.full(ux, 0)
    high = b.sub(high, b.select(b.compare("LT", x, 0), uy, zero))
    high = b.sub(high, b.select(b.compare("LT", y, 0), ux, zero))
    return [b.one(xe.BitcastConvertOp, [high], x.type)]


# --------------------------------------------------------------------------------------
# scan
# --------------------------------------------------------------------------------------


def _segments(op, name: str, total: int) -> tuple[int, int]:
    sizes = ints(prop(op, name))
    if len(sizes) != 2 or sum(sizes) != total or min(sizes) < 0:
        fail(op, f"{name} must be two sizes adding up to {total}, got {sizes}")
    return sizes[0], sizes[1]


@PATTERNS.rule("chlo.scan")
def _scan(op, b):
    """chlo.scan (XLA's Scan): for i in 0..n-1 along `dimension` (n-1..0 when
    `is_reverse`), the body maps (input slices at i, carries) to (output slices at i,
    new carries); the results are the outputs (slices stacked along `dimension`) and
    the last carries. Decomposed as an xla.while over (i, inputs, carries, outputs)
    whose body slices the inputs, inlines the scan body and updates the outputs."""
    n_in, n_carry = _segments(op, "operandSegmentSizes", len(op.operands))
    n_out, _ = _segments(op, "resultSegmentSizes", len(op.results))
    inputs, inits = list(op.operands[:n_in]), list(op.operands[n_in:])
    dim = int_of(prop(op, "dimension"))
    reverse = bool_of(prop(op, "is_reverse"))
    check_isolated(op)
    out_types = [r.type for r in op.results[:n_out]]
    scanned = [v.type for v in inputs] + out_types
    if any(not 0 <= dim < len(shape(t)) for t in scanned):
        fail(op, f"scan dimension {dim} is out of bounds of an input or output")
    extents = {shape(t)[dim] for t in scanned}
    if len(extents) != 1:
        fail(op, f"inputs and outputs must have one extent along the scan dimension {dim}, got {sorted(extents)}")
    (n,) = extents
    body = take_regions(op)[0].blocks[0]
    if len(body.args) != n_in + n_carry:
        fail(op, f"expects {n_in + n_carry} arguments in the body, but got {len(body.args)}")

    index_t = scalar(i64)
    zeros = [b.constant(0, t) for t in out_types]
    state = [b.constant(0, index_t), *inputs, *inits, *zeros]
    state_types = [v.type for v in state]

    cond = Block(arg_types=state_types)
    cb = _block_builder(cond, op)
    cb.finish([cb.compare("LT", cond.args[0], cb.constant(n, index_t))])

    loop = Block(arg_types=state_types)
    lb = _block_builder(loop, op)
    i = loop.args[0]
    at = lb.sub(lb.constant(n - 1, index_t), i) if reverse else i
    zero = lb.constant(0, index_t)

    def starts(rank: int) -> list[SSAValue]:
        return [at if d == dim else zero for d in range(rank)]

    slices = []
    for x in loop.args[1 : 1 + n_in]:
        dims = list(shape(x))
        one = lb.one(xs.DynamicSliceOp, [x, starts(len(dims))], TensorType(elem(x), dims[:dim] + [1] + dims[dim + 1 :]),
                     {"slice_sizes": i64_array(dims[:dim] + [1] + dims[dim + 1 :])})  # fmt: skip
        slices.append(lb.one(xs.ReshapeOp, [one], TensorType(elem(x), dims[:dim] + dims[dim + 1 :])))
    carries = list(loop.args[1 + n_in : 1 + n_in + n_carry])
    results = lb.inline(body, [*slices, *carries])
    if len(results) != n_out + n_carry:
        fail(op, f"the body returns {len(results)} values for {n_out} outputs and {n_carry} carries")
    outputs = []
    for acc, piece in zip(loop.args[1 + n_in + n_carry :], results[:n_out], strict=True):
        dims = list(shape(acc))
        lifted = lb.one(xs.ReshapeOp, [piece], TensorType(elem(acc), dims[:dim] + [1] + dims[dim + 1 :]))
        outputs.append(lb.one(xs.DynamicUpdateSliceOp, [acc, lifted, starts(len(dims))], acc.type))
    next_i = lb.add_(i, lb.constant(1, index_t))
    lb.finish([next_i, *loop.args[1 : 1 + n_in], *results[n_out:], *outputs])

    new = b.build(xla.WhileOp, [state], state_types, regions=[Region(cond), Region(loop)])
    final = list(new.results)
    return [*final[1 + n_in + n_carry :], *final[1 + n_in : 1 + n_in + n_carry]]


class _BlockBuilder(Builder):
    """A Builder appending to a new block (before its placeholder terminator)."""

    def inline(self, block: Block, args: Sequence[SSAValue]) -> list[SSAValue]:
        """Move `block`'s ops here, its arguments replaced by `args`; the values its
        terminator returned."""
        for arg, value in zip(block.args, args, strict=True):
            arg.replace_all_uses_with(value)
        *ops, terminator = list(block.ops)
        for inner in ops:
            inner.detach()
            self.add(inner)
        returned = list(terminator.operands)
        terminator.detach()
        terminator.erase()
        return returned

    def finish(self, values: Sequence[SSAValue]) -> None:
        self.op.operands = list(values)


def _block_builder(block: Block, at: Operation) -> _BlockBuilder:
    """New ops take `at`'s location."""
    placeholder = XlaReturnOp.build(operands=[[]])
    placeholder.location = at.location
    block.add_op(placeholder)
    return _BlockBuilder(placeholder)


# --------------------------------------------------------------------------------------
# ragged_dot
# --------------------------------------------------------------------------------------


@PATTERNS.rule("chlo.ragged_dot")
def _ragged_dot(op, b):
    """chlo.ragged_dot, decomposed as CHLO's legalization does: group j covers the
    `group_sizes[..., j]` consecutive indices of the lhs ragged dimension after the
    earlier groups'. Mode 1 (ragged non-contracting dim, rhs group dim g):
    `[b,m,k], [g,b,k,n], [b,g] -> [b,m,n]`, the sum over j of the dot of the lhs
    masked to group j's rows with rhs[j]. Mode 2 (ragged contracting dim):
    `[b,m,k], [b,k,n], [b,g] -> [g,b,m,n]`, the dot of the lhs masked to group j's
    part of k, for each j. Mode 3 (ragged batch dim): the plain dot_general.
    `group_sizes` is `[g]` or `[lhs batch dims..., g]`."""
    lhs, rhs, sizes = op.operands
    numbers = prop(op, "ragged_dot_dimension_numbers")
    if numbers is None:
        fail(op, "ragged_dot needs ragged_dot_dimension_numbers")
    dn = {name: numbers.ints(name) for name in (  # type: ignore[union-attr]
        "lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
        "rhs_contracting_dimensions", "lhs_ragged_dimensions", "rhs_group_dimensions")}  # fmt: skip
    lb, rb = dn["lhs_batching_dimensions"], dn["rhs_batching_dimensions"]
    lc, rc = dn["lhs_contracting_dimensions"], dn["rhs_contracting_dimensions"]
    if len(dn["lhs_ragged_dimensions"]) != 1 or len(dn["rhs_group_dimensions"]) > 1:
        fail(op, "ragged_dot needs one lhs ragged dimension and at most one rhs group dimension")
    (ragged,) = dn["lhs_ragged_dimensions"]
    result_e = elem(op.results[0])
    lhs, rhs = b.convert(lhs, result_e), b.convert(rhs, result_e)
    dot_props = {"lhs_batching_dimensions": i64_array(lb), "lhs_contracting_dimensions": i64_array(lc)}
    if ragged in lb:  # mode 3
        return [b.one(xla.DotGeneralOp, [lhs, rhs], op.results[0].type,
                      {**dot_props, "rhs_batching_dimensions": i64_array(rb), "rhs_contracting_dimensions": i64_array(rc)})]  # fmt: skip
    lhs_dims, rhs_dims = list(shape(lhs)), list(shape(rhs))
    group_dim = dn["rhs_group_dimensions"][0] if dn["rhs_group_dimensions"] else None
    mode1 = ragged not in lc
    if mode1 == (group_dim is None):
        fail(op, "a ragged non-contracting dimension needs an rhs group dimension, a ragged contracting one none")
    groups = shape(sizes)[-1]
    batch_extents = [lhs_dims[d] for d in lb]
    if list(shape(sizes)) not in ([groups], [*batch_extents, groups]):
        fail(op, f"group_sizes {list(shape(sizes))} must be [g] or [lhs batch dims..., g] = {[*batch_extents, groups]}")
    if mode1 and rhs_dims[group_dim] != groups:  # type: ignore[index]
        fail(op, f"rhs group dimension {group_dim} has {rhs_dims[group_dim]} groups, group_sizes {groups}")  # type: ignore[index]

    def rhs_without_group(d: int) -> int:
        return d - 1 if group_dim is not None and d > group_dim else d

    dot_props["rhs_batching_dimensions"] = i64_array([rhs_without_group(d) for d in rb])
    dot_props["rhs_contracting_dimensions"] = i64_array([rhs_without_group(d) for d in rc])
    index_e = elem(sizes)
    # a group's bounds, broadcast to the lhs: its batch dims map onto the lhs's
    bound_t = TensorType(index_e, lhs_dims)
    bound_dims = i64_array(lb if len(shape(sizes)) > 1 else [])
    position = b.one(xe.IotaOp, [], bound_t, {"iota_dimension": i64_attr(ragged)})
    zero_lhs = b.full(lhs, 0)
    batch_shape = list(shape(sizes)[:-1])
    start = b.constant(0, TensorType(index_e, batch_shape))
    partials = []
    for j in range(groups):
        size_j = b.one(xs.SliceOp, [sizes], TensorType(index_e, [*batch_shape, 1]), {
            "start_indices": i64_array([0] * len(batch_shape) + [j]),
            "limit_indices": i64_array([*batch_shape, j + 1]),
            "strides": i64_array([1] * (len(batch_shape) + 1))})  # fmt: skip
        end = b.add_(start, b.one(xs.ReshapeOp, [size_j], TensorType(index_e, batch_shape)))
        lo = b.one(xs.BroadcastInDimOp, [start], bound_t, {"broadcast_dimensions": bound_dims})
        hi = b.one(xs.BroadcastInDimOp, [end], bound_t, {"broadcast_dimensions": bound_dims})
        inside = b.binary(xe.AndOp, b.compare("GE", position, lo), b.compare("LT", position, hi))
        masked = b.one(xe.SelectOp, [inside, lhs, zero_lhs], lhs.type)
        operand = rhs
        if mode1:
            picked = list(rhs_dims)
            picked[group_dim] = 1  # type: ignore[index]
            starts = [0] * len(rhs_dims)
            starts[group_dim] = j  # type: ignore[index]
            limits = list(rhs_dims)
            limits[group_dim] = j + 1  # type: ignore[index]
            one = b.one(xs.SliceOp, [rhs], TensorType(result_e, picked), {
                "start_indices": i64_array(starts), "limit_indices": i64_array(limits),
                "strides": i64_array([1] * len(rhs_dims))})  # fmt: skip
            kept = [n for d, n in enumerate(rhs_dims) if d != group_dim]
            operand = b.one(xs.ReshapeOp, [one], TensorType(result_e, kept))
        partial_t = op.results[0].type if mode1 else TensorType(result_e, list(shape(op.results[0]))[1:])
        partials.append(b.one(xla.DotGeneralOp, [masked, operand], partial_t, dot_props))
        start = end
    if mode1:
        total = partials[0]
        for p in partials[1:]:
            total = b.add_(total, p)
        return [total]
    out_dims = list(shape(op.results[0]))
    lifted = [b.one(xs.ReshapeOp, [p], TensorType(result_e, [1, *out_dims[1:]])) for p in partials]
    return [b.one(xs.ConcatenateOp, [lifted], op.results[0].type, {"dimension": i64_attr(0)})]
