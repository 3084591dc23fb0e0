"""Helpers to write one-op programs for numpy arrays in tests."""

from __future__ import annotations

import ml_dtypes
import numpy as np

import xla_opt

ELEMENT_TYPES = {
    np.dtype(np.bool_): "i1",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.uint16): "ui16",
    np.dtype(np.uint32): "ui32",
    np.dtype(np.uint64): "ui64",
    np.dtype(np.float16): "f16",
    np.dtype(ml_dtypes.bfloat16): "bf16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.complex64): "complex<f32>",
    np.dtype(np.complex128): "complex<f64>",
}


def tensor_type(shape, dtype) -> str:
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{ELEMENT_TYPES[np.dtype(dtype)]}>"


def ttype(a: np.ndarray) -> str:
    return tensor_type(a.shape, a.dtype)


def one_op_program(op_text: str, inputs: list[np.ndarray], result_types: list[str]) -> str:
    """`op_text` uses %a0, %a1, ... for the inputs and defines %r (or %r:N)."""
    args = ", ".join(f"%a{i}: {ttype(a)}" for i, a in enumerate(inputs))
    results = ", ".join(result_types)
    n = len(result_types)
    returned = "%r" if n == 1 else ", ".join(f"%r#{i}" for i in range(n))
    return (
        f"func.func @main({args}) -> ({results}) {{\n"
        f"  {'%r' if n == 1 else f'%r:{n}'} = {op_text}\n"
        f"  func.return {returned} : {results}\n"
        "}\n"
    )


def run_one(op_text: str, inputs: list[np.ndarray], result_types: list[str], backend="interpreter"):
    results = xla_opt.run(one_op_program(op_text, inputs, result_types), *inputs, backend=backend)
    return results[0] if len(results) == 1 else results


def unary(op: str, a: np.ndarray, result_dtype=None, backend="interpreter") -> np.ndarray:
    rt = tensor_type(a.shape, result_dtype or a.dtype)
    return run_one(f"xla.{op} %a0 : ({ttype(a)}) -> {rt}", [a], [rt], backend)


def binary(op: str, a: np.ndarray, b: np.ndarray, result_shape=None, result_dtype=None, extra="", backend="interpreter"):
    shape = result_shape if result_shape is not None else np.broadcast_shapes(a.shape, b.shape)
    rt = tensor_type(shape, result_dtype or a.dtype)
    extra = f", {extra}" if extra else ""
    return run_one(f"xla.{op} %a0, %a1{extra} : ({ttype(a)}, {ttype(b)}) -> {rt}", [a, b], [rt], backend)


# ---- JIT against the interpreter ------------------------------------------------

BF16 = np.dtype(ml_dtypes.bfloat16)
FLOATS = [np.float32, np.float64, np.float16, BF16]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def exact(op_text: str, inputs: list[np.ndarray], results: list[str]) -> list[np.ndarray]:
    """Run the one-op program (`one_op_program`) on both backends; the JIT must give
    the interpreter's results exactly."""
    program = one_op_program(op_text, inputs, results)
    expected = xla_opt.run(program, *inputs, backend="interpreter")
    got = xla_opt.run(program, *inputs, backend="jit")
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert g.dtype == e.dtype and g.shape == e.shape
        if e.dtype.kind == "f" or e.dtype == BF16:
            # NaN matches NaN; -0.0 and 0.0 are told apart through the sign bit
            g64, e64 = g.astype(np.float64), e.astype(np.float64)
            np.testing.assert_array_equal(g64, e64)
            np.testing.assert_array_equal(np.signbit(g64), np.signbit(e64))
        else:
            np.testing.assert_array_equal(g, e)
    return got


def rand(rng: np.random.Generator, shape, dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), shape, endpoint=True).astype(dtype)
    return (rng.standard_normal(shape) * 3).astype(dtype)


def scalar(dtype) -> str:
    return f"tensor<{ELEMENT_TYPES[np.dtype(dtype)]}>"


def jax_with_x64(reason: str):
    """JAX with 64-bit types on (the XLA oracle), or the test skipped with `reason`."""
    import pytest

    jax = pytest.importorskip("jax", reason=reason)
    jax.config.update("jax_enable_x64", True)
    return jax


FLOAT_ULPS = 4  # libm/LLVM vs numpy transcendental functions


def both(program: str, *inputs, reduction: bool = False):
    """Run on both backends and compare. `reduction`: floats are sums whose order
    differs between the two (numpy's BLAS vs a loop), so compare relatively."""
    expected = xla_opt.run(program, *inputs, backend="interpreter")
    got = xla_opt.run(program, *inputs, backend="jit")
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape
        if e.dtype.kind == "c":  # part by part
            assert_agree(g.real, e.real, reduction)
            assert_agree(g.imag, e.imag, reduction)
        else:
            assert_agree(g, e, reduction)
    return got


def assert_agree(g: np.ndarray, e: np.ndarray, reduction: bool) -> None:
    if e.dtype.kind in "f" or e.dtype == BF16:
        g32, e32 = g.astype(np.float64), e.astype(np.float64)
        nan = np.isnan(e32)
        np.testing.assert_array_equal(np.isnan(g32), nan)
        if reduction:
            np.testing.assert_allclose(g32[~nan], e32[~nan], rtol=1e-5, atol=1e-5)
        elif e.dtype == BF16 or e.dtype == np.float16:
            np.testing.assert_allclose(g32[~nan], e32[~nan], rtol=2 ** -7, atol=1e-3)
        else:
            np.testing.assert_array_max_ulp(g[~nan], e[~nan], maxulp=FLOAT_ULPS)
    else:
        np.testing.assert_array_equal(g, e)


# ---- gather / scatter program text ------------------------------------------------


def int_list(values) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def gather_text(x, idx, offset_dims, collapsed, start_index_map, ivd, slice_sizes, result_type: str, extra="") -> str:
    """`xla.gather %a0, %a1, ...` of x at idx (for `one_op_program`)."""
    return (
        f"xla.gather %a0, %a1, offset_dims = {int_list(offset_dims)}, collapsed_slice_dims = "
        f"{int_list(collapsed)}, start_index_map = {int_list(start_index_map)}, index_vector_dim = {ivd}, "
        f"slice_sizes = {int_list(slice_sizes)}{extra} : ({ttype(x)}, {ttype(idx)}) -> {result_type}"
    )


def scatter_text(inputs, idx, updates, uwd, iwd, sdod, ivd, body: str) -> tuple[str, list[str]]:
    """`xla.scatter (%a0...), %aN, (...), ...` of inputs at idx with updates and the
    update computation `body` (for `one_op_program`), and its result types."""
    n = len(inputs)
    in_names = ", ".join(f"%a{i}" for i in range(n))
    upd_names = ", ".join(f"%a{n + 1 + i}" for i in range(n))
    arg_types = ", ".join(ttype(a) for a in [*inputs, idx, *updates])
    rts = [ttype(x) for x in inputs]
    res = rts[0] if n == 1 else "(" + ", ".join(rts) + ")"
    text = (
        f"xla.scatter ({in_names}), %a{n}, ({upd_names}), update_window_dims = {int_list(uwd)}, "
        f"inserted_window_dims = {int_list(iwd)}, scatter_dims_to_operand_dims = {int_list(sdod)}, "
        f"index_vector_dim = {ivd} {body} : ({arg_types}) -> {res}"
    )
    return text, rts
