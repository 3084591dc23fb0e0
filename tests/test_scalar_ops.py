"""emit_scalar against the reference interpreter: each xla element-wise op is lowered
to scalar arith/math code inside a tiny func, which runs on xDSL's interpreter with
bit-exact implementations of the scalar ops (numpy scalars of the op's type, LLVM's
poison for out-of-range shifts and float-to-int casts, an error for division by zero),
element by element, and must give the interpreter's result for edge-case inputs."""

from __future__ import annotations

import itertools
import math

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import arith, llvm, math as mathd
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.ir import Attribute, Block, Region

from tests.util import ELEMENT_TYPES, one_op_program, run_one
from xla_opt.context import make_context
from xla_opt.dialects.xla.element_types import elem_of
from xla_opt.diagnostics import parse_source
from xla_opt.interpreter.elementwise import constant_value
from xla_opt.lowering.conversions.convert_xla_to_linalg.scalar_ops import emit_scalar, signless

BF16 = np.dtype(ml_dtypes.bfloat16)

# --------------------------------------------------------------------------------------
# A bit-exact evaluator of the scalar ops: integers are Python ints holding the bits
# (0 <= v < 2**width), floats numpy scalars of their type.
# --------------------------------------------------------------------------------------


class Poison:
    """LLVM's poison: harmless unless a result depends on it."""

    def __repr__(self) -> str:
        return "poison"


POISON = Poison()


def _width(t: Attribute) -> int:
    assert isinstance(t, IntegerType), t
    return t.width.data


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >= 1 << (w - 1) else v


def _float_dtype(t: Attribute) -> np.dtype:
    if isinstance(t, BFloat16Type):
        return BF16
    return np.dtype({Float16Type: np.float16, Float32Type: np.float32, Float64Type: np.float64}[type(t)])


def _poison_aware(fn):
    def run(self, interpreter, op, args):
        if any(a is POISON for a in args):
            return (POISON,)
        with np.errstate(all="ignore"):
            return (fn(op, *args),)

    return run


def _int_binary(fn, signed=False):
    def run(op, a, b):
        w = _width(op.result.type)
        if signed:
            a, b = _signed(a, w), _signed(b, w)
        out = fn(a, b, w)
        return out if out is POISON else out & ((1 << w) - 1)

    return run


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _checked_div(signed: bool):
    def run(a, b, w):
        if b == 0 or (signed and a == -(1 << (w - 1)) and b == -1):
            raise ZeroDivisionError("division with undefined behaviour")
        return _trunc_div(a, b)

    return run


def _checked_rem(signed: bool):
    def run(a, b, w):
        _checked_div(signed)(a, b, w)
        return a - _trunc_div(a, b) * b

    return run


def _shift(fn):
    return lambda a, b, w: POISON if b >= w else fn(a, b, w)


_CMPI = {
    0: lambda a, b, w: a == b,
    1: lambda a, b, w: a != b,
    2: lambda a, b, w: _signed(a, w) < _signed(b, w),
    3: lambda a, b, w: _signed(a, w) <= _signed(b, w),
    4: lambda a, b, w: _signed(a, w) > _signed(b, w),
    5: lambda a, b, w: _signed(a, w) >= _signed(b, w),
    6: lambda a, b, w: a < b,
    7: lambda a, b, w: a <= b,
    8: lambda a, b, w: a > b,
    9: lambda a, b, w: a >= b,
}


def _cmpf(op, a, b):
    predicate = op.predicate.value.data
    unordered = bool(np.isnan(a) or np.isnan(b))
    ordered_results = {1: a == b, 2: a > b, 3: a >= b, 4: a < b, 5: a <= b, 6: a != b, 7: True}
    if predicate == 0:
        return 0
    if predicate == 15:
        return 1
    if predicate <= 7:
        return int(not unordered and bool(ordered_results[predicate]))
    if predicate == 14:
        return int(unordered)
    return int(unordered or bool(ordered_results[predicate - 7]))


def _fp_to_int(signed: bool):
    def run(op, x):
        w = _width(op.result.type)
        lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
        if np.isnan(x):
            return POISON
        t = math.trunc(float(x)) if np.isfinite(x) else None
        if t is None or not lo <= t <= hi:
            return POISON
        return t & ((1 << w) - 1)

    return run


def _int_to_fp(signed: bool):
    def run(op, x):
        w = _width(op.input.type)
        v = _signed(x, w) if signed else x
        return np.array([v], dtype=np.int64 if signed else np.uint64).astype(_float_dtype(op.result.type))[0]

    return run


def _bitcast(op, x):
    src, dst = op.input.type, op.result.type
    if isinstance(src, IntegerType):
        w = _width(src)
        bits = np.array([x], dtype=np.uint64).astype(f"uint{w}")
        return bits.view(_float_dtype(dst))[0]
    w = np.dtype(_float_dtype(src)).itemsize * 8
    return int(np.array([x], dtype=_float_dtype(src)).view(f"uint{w}")[0])


def _ctlz(op, x):
    w = _width(op.result.type)
    return w - x.bit_length()


def _float_fn(fn):
    # on arrays: numpy's scalar and array loops may differ in the last bit or a zero's sign
    return lambda op, *xs: np.asarray(fn(*(np.array([x]) for x in xs))).astype(xs[0].dtype)[0]


SCALAR_IMPLS = {
    arith.AddiOp: _int_binary(lambda a, b, w: a + b),
    arith.SubiOp: _int_binary(lambda a, b, w: a - b),
    arith.MuliOp: _int_binary(lambda a, b, w: a * b),
    arith.AndIOp: _int_binary(lambda a, b, w: a & b),
    arith.OrIOp: _int_binary(lambda a, b, w: a | b),
    arith.XOrIOp: _int_binary(lambda a, b, w: a ^ b),
    arith.DivSIOp: _int_binary(_checked_div(True), signed=True),
    arith.DivUIOp: _int_binary(_checked_div(False)),
    arith.RemSIOp: _int_binary(_checked_rem(True), signed=True),
    arith.RemUIOp: _int_binary(_checked_rem(False)),
    arith.MaxSIOp: _int_binary(lambda a, b, w: max(a, b), signed=True),
    arith.MinSIOp: _int_binary(lambda a, b, w: min(a, b), signed=True),
    arith.MaxUIOp: _int_binary(lambda a, b, w: max(a, b)),
    arith.MinUIOp: _int_binary(lambda a, b, w: min(a, b)),
    arith.ShLIOp: _int_binary(_shift(lambda a, b, w: a << b)),
    arith.ShRUIOp: _int_binary(_shift(lambda a, b, w: a >> b)),
    arith.ShRSIOp: _int_binary(_shift(lambda a, b, w: _signed(a, w) >> b)),
    arith.CmpiOp: lambda op, a, b: int(_CMPI[op.predicate.value.data](a, b, _width(op.lhs.type))),
    arith.CmpfOp: _cmpf,
    arith.AddfOp: _float_fn(np.add),
    arith.SubfOp: _float_fn(np.subtract),
    arith.MulfOp: _float_fn(np.multiply),
    arith.DivfOp: _float_fn(np.divide),
    arith.NegfOp: _float_fn(np.negative),
    arith.ExtFOp: lambda op, x: np.asarray(x).astype(_float_dtype(op.result.type))[()],
    arith.TruncFOp: lambda op, x: np.asarray(x).astype(_float_dtype(op.result.type))[()],
    arith.FPToSIOp: _fp_to_int(True),
    arith.FPToUIOp: _fp_to_int(False),
    arith.SIToFPOp: _int_to_fp(True),
    arith.UIToFPOp: _int_to_fp(False),
    arith.TruncIOp: lambda op, x: x & ((1 << _width(op.result.type)) - 1),
    arith.ExtUIOp: lambda op, x: x,
    arith.ExtSIOp: lambda op, x: _signed(x, _width(op.input.type)) & ((1 << _width(op.result.type)) - 1),
    arith.BitcastOp: _bitcast,
    llvm.FRemOp: _float_fn(np.fmod),
    mathd.AbsFOp: _float_fn(np.abs),
    mathd.AbsIOp: lambda op, x: abs(_signed(x, _width(op.result.type))) & ((1 << _width(op.result.type)) - 1),
    mathd.CeilOp: _float_fn(np.ceil),
    mathd.FloorOp: _float_fn(np.floor),
    mathd.TruncOp: _float_fn(np.trunc),
    mathd.RoundEvenOp: _float_fn(np.rint),
    mathd.CosOp: _float_fn(np.cos),
    mathd.SinOp: _float_fn(np.sin),
    mathd.TanOp: _float_fn(np.tan),
    mathd.TanhOp: _float_fn(np.tanh),
    mathd.ExpOp: _float_fn(np.exp),
    mathd.ExpM1Op: _float_fn(np.expm1),
    mathd.LogOp: _float_fn(np.log),
    mathd.Log1pOp: _float_fn(np.log1p),
    mathd.SqrtOp: _float_fn(np.sqrt),
    mathd.RsqrtOp: _float_fn(lambda x: np.ones((), x.dtype) / np.sqrt(x)),
    mathd.CbrtOp: _float_fn(np.cbrt),
    mathd.CopySignOp: _float_fn(np.copysign),
    mathd.Atan2Op: _float_fn(np.arctan2),
    mathd.PowFOp: _float_fn(np.power),
    mathd.CtPopOp: lambda op, x: bin(x).count("1"),
    mathd.CountLeadingZerosOp: _ctlz,
}


class ExactScalarFunctions(InterpreterFunctions):
    @impl(arith.ConstantOp)
    def run_constant(self, interpreter, op: arith.ConstantOp, args):
        value = op.value
        if isinstance(value, IntegerAttr):
            return (value.value.data & ((1 << _width(value.type)) - 1),)
        assert isinstance(value, FloatAttr)
        return (np.array([value.value.data]).astype(_float_dtype(value.type))[0],)

    @impl(arith.SelectOp)
    def run_select(self, interpreter, op: arith.SelectOp, args):
        cond, on_true, on_false = args
        if cond is POISON:
            return (POISON,)
        return (on_true if cond else on_false,)


for _cls, _fn in SCALAR_IMPLS.items():
    setattr(
        ExactScalarFunctions,
        "run_" + _cls.name.replace(".", "_"),
        impl(_cls)(_poison_aware(_fn)),
    )
register_impls(ExactScalarFunctions)


# --------------------------------------------------------------------------------------
# Running both sides
# --------------------------------------------------------------------------------------


def _to_scalar_value(x: np.generic):
    """The evaluator's value of a numpy element."""
    if x.dtype.kind in "biu":
        w = 1 if x.dtype.kind == "b" else x.dtype.itemsize * 8
        return int(x) & ((1 << w) - 1)
    return x


def _from_scalar_value(v, dtype: np.dtype):
    assert v is not POISON, "the scalar code returned poison"
    if dtype.kind == "b":
        return np.bool_(v)
    if dtype.kind in "iu":
        return np.array([v], dtype=np.uint64).astype(dtype.str.replace("i", "u"))[0].view(dtype)
    return v


def _xla_op(program: str):
    module = parse_source(make_context(), program, "<test>")
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    return func.body.block.first_op


def lowered_function(xla_op) -> ModuleOp:
    """A func taking one signless scalar per operand and returning emit_scalar's result."""
    arg_types = [signless(elem_of(v.type)) for v in xla_op.operands]
    block = Block(arg_types=arg_types)
    ops, results = emit_scalar(xla_op, list(block.args))
    block.add_ops([*ops, ReturnOp(*results)])
    result_types = [r.type for r in results]
    func = FuncOp("scalar", FunctionType.from_lists(arg_types, result_types), Region(block))
    module = ModuleOp([func])
    module.verify()
    return module


def check_against_interpreter(
    op_text: str, inputs: list[np.ndarray], result_dtype, signed_zeros: bool = True
) -> None:
    """`op_text` over 1-D `inputs` (%a0, %a1...): lowered element by element, it must
    reproduce the interpreter's result bit for bit (any NaN matches any NaN; -0 matches
    +0 unless `signed_zeros`)."""
    result_dtype = np.dtype(result_dtype)
    rt = f"tensor<{len(inputs[0])}x{ELEMENT_TYPES[result_dtype]}>"
    text = op_text.format(rt=rt, **{f"t{i}": f"tensor<{len(a)}x{ELEMENT_TYPES[a.dtype]}>" for i, a in enumerate(inputs)})
    expected = run_one(text, inputs, [rt])
    module = lowered_function(_xla_op(one_op_program(text, inputs, [rt])))
    interpreter = Interpreter(module)
    interpreter.register_implementations(FuncFunctions())
    interpreter.register_implementations(ScfFunctions())
    interpreter.register_implementations(ExactScalarFunctions(), override=True)
    for i, elements in enumerate(zip(*inputs)):
        (value,) = interpreter.call_op("scalar", tuple(_to_scalar_value(x) for x in elements))
        got = _from_scalar_value(value, result_dtype)
        want = expected[i]
        if result_dtype.kind == "f" or result_dtype == BF16:
            if np.isnan(np.float64(want)) and np.isnan(np.float64(got)):
                continue
            if not signed_zeros and np.float64(want) == 0 and np.float64(got) == 0:
                continue
            same = np.array([got], result_dtype).view(f"uint{result_dtype.itemsize * 8}") == np.array(
                [want], result_dtype
            ).view(f"uint{result_dtype.itemsize * 8}")
        else:
            same = np.array([got], result_dtype) == np.array([want], result_dtype)
        assert same.all(), f"{text} at {elements}: lowered {got!r}, interpreter {want!r}"


# --------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------

FLOAT_DTYPES = [np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)]
SIGNED_DTYPES = [np.dtype(f"int{w}") for w in (8, 16, 32, 64)]
UNSIGNED_DTYPES = [np.dtype(f"uint{w}") for w in (8, 16, 32, 64)]
INT_DTYPES = SIGNED_DTYPES + UNSIGNED_DTYPES
ALL_DTYPES = [np.dtype(np.bool_), *INT_DTYPES, *FLOAT_DTYPES]

FLOAT_VALUES = [
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.7, -3.7, 0.49999997, 100.25,
    1e-40, -3e-8, 65504.0, 70000.0, 3e9, -3e9, 2.0**31, -(2.0**31), 2.0**63, 1e30,
    -1e30, 1e300, math.inf, -math.inf, math.nan, 16842753.0, 255.9, -128.5,
]  # fmt: skip


def float_values(dtype: np.dtype) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.array(FLOAT_VALUES, np.float64).astype(dtype)


def int_values(dtype: np.dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    w = info.bits
    raw = [0, 1, 2, 3, 5, 7, -1, -2, -7, 100, -100, w - 1, w, w + 1, info.min, info.max, info.min + 1, info.max - 1]
    return np.array([v % (1 << w) for v in raw], np.uint64).astype(f"uint{w}").view(dtype)


def values(dtype: np.dtype) -> np.ndarray:
    if dtype.kind == "b":
        return np.array([False, True])
    if dtype.kind in "iu":
        return int_values(dtype)
    return float_values(dtype)


def pairs(dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    v = values(dtype)
    a, b = zip(*itertools.product(v, v))
    return np.array(a, dtype), np.array(b, dtype)


def ids(dtypes) -> list[str]:
    return [ELEMENT_TYPES[d] for d in dtypes]


# --------------------------------------------------------------------------------------
# The ops
# --------------------------------------------------------------------------------------

FLOAT_UNARY = [
    "abs", "ceil", "cosine", "sine", "tan", "exponential", "exponential_minus_one", "floor",
    "imag", "real", "log", "log_plus_one", "logistic", "negate", "rsqrt", "sign", "sqrt",
    "cbrt", "tanh", "round_nearest_afz", "round_nearest_even",
]  # fmt: skip


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=ids(FLOAT_DTYPES))
@pytest.mark.parametrize("name", FLOAT_UNARY)
def test_float_unary(name, dtype):
    check_against_interpreter(f"xla.{name} %a0 : {{t0}}", [float_values(dtype)], dtype)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=ids(FLOAT_DTYPES))
def test_is_finite(dtype):
    check_against_interpreter("xla.is_finite %a0 : ({t0}) -> {rt}", [float_values(dtype)], np.bool_)


INT_UNARY = ["not", "popcnt", "count_leading_zeros", "negate"]


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=ids(INT_DTYPES))
@pytest.mark.parametrize("name", INT_UNARY)
def test_int_unary(name, dtype):
    check_against_interpreter(f"xla.{name} %a0 : {{t0}}", [int_values(dtype)], dtype)


@pytest.mark.parametrize("dtype", SIGNED_DTYPES, ids=ids(SIGNED_DTYPES))
@pytest.mark.parametrize("name", ["abs", "sign"])
def test_signed_unary(name, dtype):
    check_against_interpreter(f"xla.{name} %a0 : {{t0}}", [int_values(dtype)], dtype)


def test_pred_not():
    check_against_interpreter("xla.not %a0 : {t0}", [np.array([False, True])], np.bool_)


FLOAT_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power", "atan2"]
INT_BINARY = [
    "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power",
    "and", "or", "xor", "shift_left", "shift_right_logical", "shift_right_arithmetic",
]  # fmt: skip
PRED_BINARY = ["add", "multiply", "maximum", "minimum", "and", "or", "xor"]


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=ids(FLOAT_DTYPES))
@pytest.mark.parametrize("name", FLOAT_BINARY)
def test_float_binary(name, dtype):
    check_against_interpreter(f"xla.{name} %a0, %a1 : {{t0}}", list(pairs(dtype)), dtype)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=ids(INT_DTYPES))
@pytest.mark.parametrize("name", INT_BINARY)
def test_int_binary(name, dtype):
    check_against_interpreter(f"xla.{name} %a0, %a1 : {{t0}}", list(pairs(dtype)), dtype)


@pytest.mark.parametrize("name", PRED_BINARY)
def test_pred_binary(name):
    check_against_interpreter(f"xla.{name} %a0, %a1 : {{t0}}", list(pairs(np.dtype(np.bool_))), np.bool_)


DIRECTIONS = ["EQ", "NE", "GE", "GT", "LE", "LT"]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_compare_default_type(direction, dtype):
    check_against_interpreter(
        f"xla.compare %a0, %a1, comparison_direction = {direction} : ({{t0}}, {{t1}}) -> {{rt}}",
        list(pairs(dtype)),
        np.bool_,
    )


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=ids(FLOAT_DTYPES))
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_compare_totalorder(direction, dtype):
    a, b = pairs(dtype)
    # NaNs of both signs: the total order puts -NaN first and +NaN last
    extra = np.array([math.nan, -math.nan, -math.nan, 1.0], np.float64).astype(dtype)
    extra_b = np.array([-math.nan, math.nan, -math.inf, -math.nan], np.float64).astype(dtype)
    check_against_interpreter(
        f"xla.compare %a0, %a1, comparison_direction = {direction}, compare_type = TOTALORDER"
        " : ({t0}, {t1}) -> {rt}",
        [np.concatenate([a, extra]), np.concatenate([b, extra_b])],
        np.bool_,
    )


@pytest.mark.parametrize("dtype", [*INT_DTYPES, *FLOAT_DTYPES], ids=ids([*INT_DTYPES, *FLOAT_DTYPES]))
def test_clamp(dtype):
    v = values(dtype)
    lo, x, hi = (np.array(t, dtype) for t in zip(*itertools.product(v[:6], v, v[:6])))
    # numpy's f16 minimum/maximum loops pick the other zero than its f32 ones (which
    # the lowering follows, as the interpreter's maximum/minimum ops do)
    signed_zeros = dtype != np.float16
    check_against_interpreter("xla.clamp %a0, %a1, %a2 : {t0}", [lo, x, hi], dtype, signed_zeros)


def test_select():
    pred = np.array([True, False, True], np.bool_)
    check_against_interpreter(
        "xla.select %a0, %a1, %a2 : ({t0}, {t1}, {t2}) -> {rt}",
        [pred, np.array([1, 2, 3], np.uint8), np.array([4, 5, 6], np.uint8)],
        np.uint8,
    )


@pytest.mark.parametrize("dst", ALL_DTYPES, ids=ids(ALL_DTYPES))
@pytest.mark.parametrize("src", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_convert(src, dst):
    check_against_interpreter("xla.convert %a0 : ({t0}) -> {rt}", [values(src)], dst)


def test_convert_int_to_bf16_rounds_through_f32():
    check_against_interpreter(
        "xla.convert %a0 : ({t0}) -> {rt}", [np.array([16842753, -16842753], np.int32)], BF16
    )


BITCAST_PAIRS = [
    (np.dtype(np.float32), np.dtype(np.int32)),
    (np.dtype(np.int32), np.dtype(np.float32)),
    (np.dtype(np.uint64), np.dtype(np.float64)),
    (np.dtype(np.float64), np.dtype(np.uint64)),
    (BF16, np.dtype(np.int16)),
    (np.dtype(np.float16), np.dtype(np.uint16)),
    (np.dtype(np.uint16), BF16),
    (np.dtype(np.int8), np.dtype(np.uint8)),
]


@pytest.mark.parametrize(("src", "dst"), BITCAST_PAIRS, ids=[f"{ELEMENT_TYPES[s]}-{ELEMENT_TYPES[d]}" for s, d in BITCAST_PAIRS])
def test_bitcast_convert(src, dst):
    check_against_interpreter("xla.bitcast_convert %a0 : ({t0}) -> {rt}", [values(src)], dst)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=ids(FLOAT_DTYPES))
@pytest.mark.parametrize(("exponent_bits", "mantissa_bits"), [(5, 10), (8, 7), (3, 2), (8, 23), (11, 52), (1, 0)])
def test_reduce_precision(dtype, exponent_bits, mantissa_bits):
    check_against_interpreter(
        f"xla.reduce_precision %a0, exponent_bits = {exponent_bits}, mantissa_bits = {mantissa_bits} : {{t0}}",
        [float_values(dtype)],
        dtype,
    )


@pytest.mark.parametrize(
    ("literal", "dtype"),
    [("dense<-2.5> : tensor<f32>", np.float32), ("dense<250> : tensor<ui8>", np.uint8),
     ("dense<-7> : tensor<i64>", np.int64), ("dense<true> : tensor<i1>", np.bool_),
     ("dense<0x7FC00000> : tensor<f32>", np.float32), ("dense<1.5> : tensor<bf16>", BF16)],
)  # fmt: skip
def test_rank0_constant(literal, dtype):
    xla_op = _xla_op(f"func.func @main() -> () {{\n %c = xla.constant {literal}\n func.return\n}}")
    module = lowered_function(xla_op)
    (constant,) = [op for op in module.walk() if isinstance(op, arith.ConstantOp)]
    assert isinstance(constant.result.type, IntegerType | AnyFloat)
    assert constant.result.type == signless(elem_of(xla_op.results[0].type))
    interpreter = Interpreter(module)
    interpreter.register_implementations(FuncFunctions())
    interpreter.register_implementations(ExactScalarFunctions(), override=True)
    (value,) = interpreter.call_op("scalar", ())
    want = constant_value(xla_op)
    got = _from_scalar_value(value, np.dtype(dtype))
    assert np.array(got, dtype).tobytes() == np.array(want, dtype).tobytes()


def test_unsigned_constants_are_signless():
    xla_op = _xla_op(
        "func.func @main(%a: tensor<ui8>, %b: tensor<ui8>) -> tensor<ui8> {\n"
        " %r = xla.divide %a, %b : tensor<ui8>\n func.return %r : tensor<ui8>\n}"
    )
    module = lowered_function(xla_op)
    for op in module.walk():
        for r in op.results:
            assert not (isinstance(r.type, IntegerType) and r.type.signedness.data.value == "unsigned")
    assert any(isinstance(op, arith.DivUIOp) for op in module.walk())
