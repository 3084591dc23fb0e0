"""The 4- and 2-bit integers and the 8-, 6- and 4-bit floats on both backends, with
ml_dtypes' casts and numpy as the oracle: every bit pattern of each narrow float to f32
and f32 values (ties, overflow, NaN, infinities, -0, subnormals) to each format
bit-exactly, element-wise ops computed in f32 with one rounding, dots accumulated in
f32, narrow integers wrapping."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from xla_opt.interpreter.dtypes import NARROW_FLOAT_DTYPES, NARROW_INT_DTYPES

BACKENDS = ["interpreter", "jit"]
FLOATS = list(NARROW_FLOAT_DTYPES)
INTS = {"i4": ml_dtypes.int4, "ui4": ml_dtypes.uint4, "i2": ml_dtypes.int2, "ui2": ml_dtypes.uint2}
assert len(INTS) == len(NARROW_INT_DTYPES)
NAMES = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64", np.dtype(np.int32): "i32",
         np.dtype(np.int8): "i8", np.dtype(ml_dtypes.bfloat16): "bf16", np.dtype(np.float16): "f16"}  # fmt: skip
NAMES.update({v: k for k, v in NARROW_FLOAT_DTYPES.items()})
NAMES.update({np.dtype(v): k for k, v in INTS.items()})


def ty(a_or_shape, dtype=None) -> str:
    shape, dtype = (a_or_shape.shape, a_or_shape.dtype) if dtype is None else (a_or_shape, np.dtype(dtype))
    return "tensor<" + "".join(f"{d}x" for d in shape) + NAMES[np.dtype(dtype)] + ">"


def bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(f"uint{a.dtype.itemsize * 8}")


def assert_same_bits(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(bits(got), bits(want))


def convert_program(src: np.ndarray, dst_dtype) -> str:
    return (
        f"func.func @main(%x: {ty(src)}) -> {ty(src.shape, dst_dtype)} {{\n"
        f"  %0 = xla.convert %x : ({ty(src)}) -> {ty(src.shape, dst_dtype)}\n"
        f"  func.return %0 : {ty(src.shape, dst_dtype)}\n}}"
    )


def f32_cases(count: int = 20000) -> np.ndarray:
    """f32 values around every narrow format's rounding points: every exponent with
    ties and near-ties at each mantissa position, specials, and random bit patterns."""
    rng = np.random.default_rng(0)
    exponents = np.arange(256, dtype=np.uint32) << 23
    positions = np.uint32(1) << np.arange(16, 23, dtype=np.uint32)
    ties = (exponents[:, None] | positions[None, :]).reshape(-1)
    near = np.concatenate([ties, ties + 1, ties - 1, ties | (positions.max() << 1)])
    special = np.array([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 1, 0x7F7FFFFF], np.uint32)
    randoms = rng.integers(0, 1 << 32, count, dtype=np.uint64).astype(np.uint32)
    u = np.concatenate([special, near, near | 0x80000000, randoms])
    return u.view(np.float32)


@pytest.mark.parametrize("name", FLOATS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_bit_pattern_to_f32(name, backend):
    dtype = NARROW_FLOAT_DTYPES[name]
    x = np.arange(256, dtype=np.uint8).view(dtype)
    (got,) = xla_opt.run(convert_program(x, np.float32), x, backend=backend)
    want = x.astype(np.float32)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    assert_same_bits(got[~nan], want[~nan])


@pytest.mark.parametrize("name", FLOATS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_f32_to_narrow_float_rounds_as_ml_dtypes(name, backend):
    dtype = NARROW_FLOAT_DTYPES[name]
    x = f32_cases()
    (got,) = xla_opt.run(convert_program(x, dtype), x, backend=backend)
    with np.errstate(all="ignore"):
        assert_same_bits(got, x.astype(dtype))


@pytest.mark.parametrize("source", [np.float64, np.int32, ml_dtypes.bfloat16, np.float16])
@pytest.mark.parametrize("name", ["f8E4M3FN", "f8E5M2", "f8E8M0FNU", "f4E2M1FN"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_other_types_to_narrow_float(source, name, backend):
    """ml_dtypes rounds f64 and integers to f32 first (a double rounding, kept)."""
    rng = np.random.default_rng(1)
    if np.dtype(source).kind == "i":
        x = rng.integers(-100000, 100000, 4000).astype(source)
    else:
        x = (rng.standard_normal(4000) * rng.choice([1e-3, 1, 30, 1e5], 4000)).astype(source)
    if name == "f8E8M0FNU":
        x = np.abs(x)
    (got,) = xla_opt.run(convert_program(x, NARROW_FLOAT_DTYPES[name]), x, backend=backend)
    with np.errstate(all="ignore"):
        assert_same_bits(got, x.astype(NARROW_FLOAT_DTYPES[name]))


@pytest.mark.parametrize(
    ("src", "dst"),
    [("f8E4M3FN", "f8E5M2"), ("f8E5M2", "f4E2M1FN"), ("f8E4M3FN", "i4"), ("i4", "f8E5M2"), ("ui4", "i2")],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_narrow_to_narrow(src, dst, backend):
    src_dtype = NARROW_FLOAT_DTYPES.get(src) or np.dtype(INTS[src])
    dst_dtype = NARROW_FLOAT_DTYPES.get(dst) or np.dtype(INTS[dst])
    x = np.arange(256 if src in NARROW_FLOAT_DTYPES else 16, dtype=np.uint8).view(src_dtype)
    x = x[~np.isnan(x.astype(np.float32))] if src in NARROW_FLOAT_DTYPES else x
    (got,) = xla_opt.run(convert_program(x, dst_dtype), x, backend=backend)
    wide = x.astype(np.float32)
    if dst in INTS:  # floats saturate to the integer range (XLA), integers wrap
        info = ml_dtypes.iinfo(dst_dtype)
        want = np.clip(np.trunc(wide) if src in NARROW_FLOAT_DTYPES else wide, info.min, info.max).astype(dst_dtype)
        if src in INTS:
            width = 4 if dst.endswith("4") else 2
            v = x.astype(np.int64) & ((1 << width) - 1)
            want = (v - ((v >> (width - 1)) << width) * (not dst.startswith("u"))).astype(dst_dtype)
    else:
        want = wide.astype(dst_dtype)
    assert_same_bits(got, want)


ELEMENTWISE = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "maximum": np.maximum,
}


@pytest.mark.parametrize("op", ELEMENTWISE)
@pytest.mark.parametrize("name", ["f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f6E2M3FN", "f4E2M1FN"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_elementwise_in_f32_rounded_once(op, name, backend):
    dtype = NARROW_FLOAT_DTYPES[name]
    rng = np.random.default_rng(2)
    a = rng.integers(0, 256, 500).astype(np.uint8).view(dtype)
    b = rng.integers(0, 256, 500).astype(np.uint8).view(dtype)
    program = (
        f"func.func @main(%a: {ty(a)}, %b: {ty(b)}) -> {ty(a)} {{\n"
        f"  %0 = xla.{op} %a, %b : {ty(a)}\n  func.return %0 : {ty(a)}\n}}"
    )
    (got,) = xla_opt.run(program, a, b, backend=backend)
    with np.errstate(all="ignore"):
        want = ELEMENTWISE[op](a.astype(np.float32), b.astype(np.float32)).astype(dtype)
    nan = np.isnan(want.astype(np.float32))
    np.testing.assert_array_equal(np.isnan(got.astype(np.float32)), nan)
    assert_same_bits(got[~nan], want[~nan])


@pytest.mark.parametrize("result", ["f32", "f8E4M3FN"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_dot_accumulates_in_f32(result, backend):
    rng = np.random.default_rng(3)
    dtype = NARROW_FLOAT_DTYPES["f8E4M3FN"]
    a = (rng.standard_normal((8, 32)) * 4).astype(dtype)
    b = (rng.standard_normal((32, 16)) * 4).astype(dtype)
    out_dtype = np.float32 if result == "f32" else dtype
    # an f32 result (JAX's preferred_element_type) is a dot of the operands converted
    # to f32, as the StableHLO import makes it
    if result == "f32":
        lt, rt = ty(a.shape, np.float32), ty(b.shape, np.float32)
        operands = f"%l = xla.convert %a : ({ty(a)}) -> {lt}\n  %r = xla.convert %b : ({ty(b)}) -> {rt}\n  "
    else:
        lt, rt, operands = (
            ty(a),
            ty(b),
            "%l = xla.reshape %a : ({0}) -> {0}\n  %r = xla.reshape %b : ({1}) -> {1}\n  ".format(ty(a), ty(b)),
        )
    program = (
        f"func.func @main(%a: {ty(a)}, %b: {ty(b)}) -> {ty((8, 16), out_dtype)} {{\n  {operands}"
        f"%0 = xla.dot_general %l, %r, lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
        f"lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0] : ({lt}, {rt}) -> {ty((8, 16), out_dtype)}\n"
        f"  func.return %0 : {ty((8, 16), out_dtype)}\n}}"
    )
    (got,) = xla_opt.run(program, a, b, backend=backend)
    exact = a.astype(np.float64) @ b.astype(np.float64)  # f32 holds every partial sum of these
    np.testing.assert_allclose(
        got.astype(np.float64), exact.astype(np.float32).astype(out_dtype).astype(np.float64), rtol=1e-6
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_reduce_rounds_each_step(backend):
    """A reducer on f8 rounds its accumulator to f8 at each step: 16 + 1 stays 16 in
    f8E4M3FN (3 mantissa bits), however often it is added."""
    dtype = NARROW_FLOAT_DTYPES["f8E4M3FN"]
    x = np.array([16.0] + [1.0] * 7, np.float32).astype(dtype)
    program = f"""func.func @main(%x: {ty(x)}) -> tensor<f8E4M3FN> {{
  %z = xla.constant dense<0.0> : tensor<f8E4M3FN>
  %0 = xla.reduce (%x), (%z), dimensions = [0] body {{
  ^bb0(%acc: tensor<f8E4M3FN>, %v: tensor<f8E4M3FN>):
    %s = xla.add %acc, %v : tensor<f8E4M3FN>
    xla.return %s : tensor<f8E4M3FN>
  }} : ({ty(x)}, tensor<f8E4M3FN>) -> tensor<f8E4M3FN>
  func.return %0 : tensor<f8E4M3FN>
}}"""
    (got,) = xla_opt.run(program, x, backend=backend)
    acc = np.zeros((), dtype)
    for v in x:
        acc = (acc.astype(np.float32) + v.astype(np.float32)).astype(dtype)
    assert_same_bits(np.asarray(got), np.asarray(acc))


def wrap(values: np.ndarray, width: int, unsigned: bool) -> np.ndarray:
    v = values.astype(np.int64) & ((1 << width) - 1)
    return v if unsigned else v - ((v >> (width - 1)) << width)


INT_BINARY = {
    "add": lambda a, b: a + b,
    "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b,
    "maximum": np.maximum,
    "and": np.bitwise_and,
    "xor": np.bitwise_xor,
}


def run_on_all_pairs(op: str, name: str, backend: str):
    """`op` on every pair of values of the narrow integer type `name`: (its width,
    whether unsigned, the lhs and rhs values, the result)."""
    width, unsigned = (4 if "4" in name else 2), name.startswith("u")
    values = np.arange(1 << width, dtype=np.uint8).view(INTS[name])
    a, b = (v.reshape(-1) for v in np.meshgrid(values, values))
    operands = "%a" if op in ("popcnt", "count_leading_zeros") else "%a, %b"
    program = (
        f"func.func @main(%a: {ty(a)}, %b: {ty(b)}) -> {ty(a)} {{\n"
        f"  %0 = xla.{op} {operands} : {ty(a)}\n  func.return %0 : {ty(a)}\n}}"
    )
    (got,) = xla_opt.run(program, a, b, backend=backend)
    return width, unsigned, a, b, got


@pytest.mark.parametrize("op", INT_BINARY)
@pytest.mark.parametrize("name", list(INTS))
@pytest.mark.parametrize("backend", BACKENDS)
def test_narrow_int_arithmetic_wraps(op, name, backend):
    width, unsigned, a, b, got = run_on_all_pairs(op, name, backend)
    want = wrap(INT_BINARY[op](a.astype(np.int64), b.astype(np.int64)), width, unsigned)
    np.testing.assert_array_equal(got.astype(np.int64), want)


def narrow_bits_oracle(op: str, a: np.ndarray, b: np.ndarray, width: int, unsigned: bool) -> np.ndarray:
    """The width-dependent ops, on the narrow two's complement bits."""
    ua = a.astype(np.int64) & ((1 << width) - 1)
    amount = b.astype(np.int64) & ((1 << width) - 1) if not unsigned else b.astype(np.int64)
    amount = np.where(b.astype(np.int64) < 0, 1 << 20, amount)  # a negative amount is huge
    if op == "shift_left":
        out = np.where(amount >= width, 0, ua << np.minimum(amount, 63))
    elif op == "shift_right_logical":
        out = np.where(amount >= width, 0, ua >> np.minimum(amount, 63))
    elif op == "shift_right_arithmetic":
        signed = wrap(ua, width, False)
        out = signed >> np.minimum(amount, width - 1)
    elif op == "popcnt":
        out = np.array([int(v).bit_count() for v in ua])
    else:  # count_leading_zeros
        out = np.array([width - int(v).bit_length() for v in ua])
    return wrap(out, width, unsigned)


@pytest.mark.parametrize(
    "op", ["shift_left", "shift_right_logical", "shift_right_arithmetic", "popcnt", "count_leading_zeros"]
)
@pytest.mark.parametrize("name", list(INTS))
@pytest.mark.parametrize("backend", BACKENDS)
def test_narrow_int_width_dependent_ops(op, name, backend):
    width, unsigned, a, b, got = run_on_all_pairs(op, name, backend)
    np.testing.assert_array_equal(got.astype(np.int64), narrow_bits_oracle(op, a, b, width, unsigned))


@pytest.mark.parametrize("name", list(INTS))
@pytest.mark.parametrize("backend", BACKENDS)
def test_to_narrow_int_saturates_floats_and_wraps_integers(name, backend):
    dtype = np.dtype(INTS[name])
    info = ml_dtypes.iinfo(dtype)
    width, unsigned = (4 if "4" in name else 2), name.startswith("u")
    f = np.array([-100.0, -8.5, -2.7, -0.5, 0.0, 1.9, 3.5, 7.9, 100.0, np.inf, -np.inf, np.nan], np.float32)
    i = np.arange(-40, 40, dtype=np.int32)
    (got_f,) = xla_opt.run(convert_program(f, dtype), f, backend=backend)
    (got_i,) = xla_opt.run(convert_program(i, dtype), i, backend=backend)
    want_f = np.clip(np.trunc(np.nan_to_num(f, nan=0.0, posinf=1e9, neginf=-1e9)), info.min, info.max)
    np.testing.assert_array_equal(got_f.astype(np.int64), want_f.astype(np.int64))
    np.testing.assert_array_equal(got_i.astype(np.int64), wrap(i, width, unsigned))


@pytest.mark.parametrize("backend", BACKENDS)
def test_constants_and_data_movement(backend):
    program = """func.func @main(%x: tensor<2x3xi4>) -> (tensor<3x2xi4>, tensor<4xf8E5M2>, tensor<2xf4E2M1FN>, tensor<2xui8>) {
  %c = xla.constant dense<[[1, -8, 7], [0, -1, 3]]> : tensor<2x3xi4>
  %0 = xla.add %x, %c : tensor<2x3xi4>
  %1 = xla.transpose %0, permutation = [1, 0] : (tensor<2x3xi4>) -> tensor<3x2xi4>
  %2 = xla.constant dense<[0x7C, 0xFC, 0x7E, 0x80]> : tensor<4xf8E5M2>
  %3 = xla.constant dense<[6.0, -0.5]> : tensor<2xf4E2M1FN>
  %4 = xla.bitcast_convert %3 : (tensor<2xf4E2M1FN>) -> tensor<2xi4>
  %5 = xla.convert %4 : (tensor<2xi4>) -> tensor<2xui8>
  func.return %1, %2, %3, %5 : tensor<3x2xi4>, tensor<4xf8E5M2>, tensor<2xf4E2M1FN>, tensor<2xui8>
}"""
    x = np.array([[1, 2, 3], [-4, 5, -6]], ml_dtypes.int4)
    got = xla_opt.run(program, x, backend=backend)
    c = np.array([[1, -8, 7], [0, -1, 3]])
    np.testing.assert_array_equal(got[0].astype(np.int64), wrap(x.astype(np.int64) + c, 4, False).T)
    np.testing.assert_array_equal(bits(got[1]), [0x7C, 0xFC, 0x7E, 0x80])  # inf, -inf, NaN, -0
    np.testing.assert_array_equal(got[2].astype(np.float32), [6.0, -0.5])
    # f4E2M1FN 6.0 is 0b0111, -0.5 is 0b1001: as i4 7 and -7, as ui8 (wrapping) 7 and 249
    np.testing.assert_array_equal(got[3], [7, 249])


def test_xla_run_reads_and_writes_ml_dtypes_npy(tmp_path):
    """xla-run takes .npy files of ml_dtypes' types (int4, float8...) as inputs and
    writes its narrow results as .npy files that read back as the same bytes."""
    import subprocess
    import sys

    program = tmp_path / "p.mlir"
    program.write_text(
        "func.func @main(%w: tensor<2xi4>, %x: tensor<2xf8E4M3FN>) -> tensor<2xf8E4M3FN> {\n"
        "  %0 = xla.convert %w : (tensor<2xi4>) -> tensor<2xf8E4M3FN>\n"
        "  %1 = xla.multiply %0, %x : tensor<2xf8E4M3FN>\n"
        "  func.return %1 : tensor<2xf8E4M3FN>\n}\n"
    )
    w, x = np.array([-8, 7], ml_dtypes.int4), np.array([1.5, 0.25], ml_dtypes.float8_e4m3fn)
    np.save(tmp_path / "w.npy", w)
    np.save(tmp_path / "x.npy", x)
    for backend in BACKENDS:
        out = tmp_path / backend
        subprocess.run(
            [sys.executable, "-m", "xla_opt.run_main", str(program), "--input", str(tmp_path / "w.npy"),
             str(tmp_path / "x.npy"), "--backend", backend, "--output-dir", str(out)],
            check=True, capture_output=True,
        )  # fmt: skip
        got = np.load(out / "result_0.npy").view(ml_dtypes.float8_e4m3fn)
        np.testing.assert_array_equal(got.astype(np.float32), [-12.0, 1.75])


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_int4_dot_wraps_at_four_bits(backend):
    """A dot of S4 operands with an S4 result: the exact integer products summed, then
    wrapped to 4 bits (two's complement), as every S4 result is."""
    program = """func.func @main(%a: tensor<2x3xi4>, %b: tensor<3x2xi4>) -> tensor<2x2xi4> {
  %0 = xla.dot %a, %b : (tensor<2x3xi4>, tensor<3x2xi4>) -> tensor<2x2xi4>
  func.return %0 : tensor<2x2xi4>
}"""
    a = np.array([[7, -8, 3], [5, 6, -7]]).astype(ml_dtypes.int4)
    b = np.array([[7, 1], [-8, 2], [3, -5]]).astype(ml_dtypes.int4)
    (got,) = xla_opt.run(program, a, b, backend=backend)
    exact = a.astype(np.int64) @ b.astype(np.int64)
    np.testing.assert_array_equal(got.astype(np.int64), (exact + 8) % 16 - 8)


BITCAST_ACROSS_WIDTHS = [
    ("i8", "i4", np.array([[0x7F, -128, 0x1E], [5, -1, 0]], np.int8), (2, 3, 2)),
    ("ui16", "f4E2M1FN", np.array([0x1234, 0xFFFF, 0xA05C], np.uint16), (3, 4)),
    ("f32", "f8E4M3FN", np.array([1.5, -2.25, np.inf], np.float32), (3, 4)),
    ("i16", "ui2", np.array([-2, 0x5A3C], np.int16), (2, 8)),
]


@pytest.mark.parametrize(("wide", "narrow", "x", "split_shape"), BITCAST_ACROSS_WIDTHS)
def test_bitcast_across_widths_on_the_jit(wide, narrow, x, split_shape):
    """bitcast_convert between a narrow type and a wider one: the wide element's bits
    along a new minor dimension, lowest bits first (the interpreter's rule, checked here
    against the bytes themselves), and back; the JIT gives the same bits."""
    dims, split = "x".join(map(str, x.shape)), "x".join(map(str, split_shape))

    def program(a: str, b: str, shape_a: str, shape_b: str) -> str:
        return (f"func.func @main(%a: tensor<{shape_a}x{a}>) -> tensor<{shape_b}x{b}> {{\n"
                f"  %0 = xla.bitcast_convert %a : (tensor<{shape_a}x{a}>) -> tensor<{shape_b}x{b}>\n"
                f"  func.return %0 : tensor<{shape_b}x{b}>\n}}")  # fmt: skip

    (pieces,) = xla_opt.run(program(wide, narrow, dims, split), x)
    width = 8 * x.dtype.itemsize // split_shape[-1]
    words = x.reshape(-1).view(f"u{x.dtype.itemsize}").astype(np.uint64)
    expected = [(int(w) >> (k * width)) & ((1 << width) - 1) for w in words for k in range(split_shape[-1])]
    assert [int(b) & ((1 << width) - 1) for b in pieces.view(np.uint8).reshape(-1)] == expected
    (jit_pieces,) = xla_opt.run(program(wide, narrow, dims, split), x, backend="jit")
    np.testing.assert_array_equal(jit_pieces.view(np.uint8), pieces.view(np.uint8))
    for backend in ("interpreter", "jit"):
        (back,) = xla_opt.run(program(narrow, wide, split, dims), pieces, backend=backend)
        np.testing.assert_array_equal(back.view(np.uint8), x.view(np.uint8))


NARROW_HOST_OPS = """func.func @main(%a: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %t0 = xla.after_all : !xla.token
  %q, %t1 = xla.infeed %t0 : (!xla.token) -> (tensor<3xi4>, !xla.token)
  %t2 = xla.outfeed %q, %a, %t1 : (tensor<3xi4>, tensor<4xf8E4M3FN>, !xla.token) -> !xla.token
  %0 = xla.custom_call %a, call_target_name = "double_narrow" : (tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  func.return %0 : tensor<4xf8E4M3FN>
}"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_host_ops_see_narrow_values_as_their_types(backend):
    """A Python custom-call target, the infeed and the outfeed get and give ml_dtypes
    arrays of the narrow types on the JIT too (its values are stored as bytes)."""
    seen = []

    def double(x):
        seen.append(x.dtype)
        return (x.astype(np.float32) * 2).astype(ml_dtypes.float8_e4m3fn)

    xla_opt.register_custom_call("double_narrow", double)
    a = np.array([1, 1.5, -2, 0.25], ml_dtypes.float8_e4m3fn)
    q = np.array([-8, 7, -1], ml_dtypes.int4)
    outfeed: list = []
    (got,) = xla_opt.run(NARROW_HOST_OPS, a, backend=backend, infeed=[(q,)], outfeed=outfeed)
    assert seen == [np.dtype(ml_dtypes.float8_e4m3fn)]
    np.testing.assert_array_equal(got.astype(np.float32), [2, 3, -4, 0.5])
    (fed_q, fed_a), = outfeed
    assert fed_q.dtype == ml_dtypes.int4 and fed_q.astype(int).tolist() == [-8, 7, -1]
    assert fed_a.dtype == ml_dtypes.float8_e4m3fn and np.array_equal(fed_a.view(np.uint8), a.view(np.uint8))


def test_a_chain_of_narrow_float_ops_stays_a_chain_of_tensor_ops():
    """Mutant seed 825413 (a sharded MLP step in f8E4M3FN) took 8 s per compile: each
    narrow convert became ~50 tensor ops, each a generic for the later stages to fuse
    again. Now each convert is one xla.map whose computation holds the scalar ops: n
    ops on f8 become n wide ops and at most 3n maps (two operands decoded, the result
    encoded); the results are as ml_dtypes' (one f32 add rounded to f8 each step)."""
    from xdsl.dialects.func import FuncOp
    from xla_opt.passes.transforms.xla_widen_narrow_types import WidenNarrowTypesPass

    n = 20
    lines = [f"  %v{i + 1} = xla.add %v{i}, %b : tensor<8xf8E4M3FN>" for i in range(n)]
    program = (
        "func.func @main(%v0: tensor<8xf8E4M3FN>, %b: tensor<8xf8E4M3FN>) -> tensor<8xf8E4M3FN> {\n"
        + "\n".join(lines)
        + f"\n  func.return %v{n} : tensor<8xf8E4M3FN>\n}}\n"
    )
    module = xla_opt.load_program(program)
    WidenNarrowTypesPass().apply(xla_opt.context.make_context(), module)
    body = next(op for op in module.walk() if isinstance(op, FuncOp)).body.block.ops
    names = [op.name for op in body]
    assert names.count("xla.add") == n
    assert len(names) <= 4 * n + 1
    f8 = ml_dtypes.float8_e4m3fn
    x = np.array([0.5, -1.5, 3.0, 448.0, -0.0, 0.015625, 7.0, -240.0], f8)
    b = np.array([0.125, 0.25, -3.0, 16.0, 1.0, 0.001953125, 0.5, -1.0], f8)
    want = x
    for _ in range(n):
        want = (want.astype(np.float32) + b.astype(np.float32)).astype(f8)
    for backend in BACKENDS:
        (got,) = xla_opt.run(program, x, b, backend=backend)
        assert_same_bits(got, want)
