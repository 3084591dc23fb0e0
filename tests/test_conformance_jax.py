"""Conformance with JAX: programs written with JAX are exported as StableHLO
(`jax.jit(f).lower(*args).as_text()`), imported (`xla_opt.load_program`), run on our
interpreter and on `backend="jit"`, and compared with JAX's own results.

Tolerances: f32 rtol 1e-5 / atol 1e-6, f64 rtol 1e-12 / atol 1e-14; f16 and bf16 within
a few units in the last place (rtol 4e-3 / 2e-2, for XLA's f32 intermediates between
fused half-precision ops); integers and booleans exactly. Every program meets these on
the interpreter, the JIT and the XLA round trip (tests/test_export_stablehlo.py); a
case may state a looser `rtol`/`atol` only with a `reason`.

The JIT cases (`test_jit`) are skipped, with the reason, when the JIT raises
NotImplementedError or a pass failure for a program (the lowering is being finished);
`pytest -rs` lists them.
"""

from __future__ import annotations

import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

import xla_opt


def _jit_worker(job_path: str, out_path: str) -> None:
    """Run each job (name, StableHLO text, inputs) on backend="jit", appending
    (name, status, payload) records to out_path as they finish."""
    import pickle

    from xdsl.utils.exceptions import DiagnosticException

    from xla_opt.lowering.conversions.convert_xla_to_linalg import LOWERED_OPS

    with open(job_path, "rb") as f:
        jobs = pickle.load(f)
    for name, text, args in jobs:
        with open(out_path, "ab") as out:  # the case is started: a crash points here
            pickle.dump((name, "started", None), out)
        try:
            module = xla_opt.load_program(text, name=f"<{name}>")
            outside = sorted({op.name for op in module.walk() if op.name.startswith("xla.")} - LOWERED_OPS)
            if outside:
                record = ("skip", f"jit: not lowered yet ({', '.join(outside)})")
            else:
                try:
                    f = xla_opt.compile(module, backend="jit")
                except (NotImplementedError, DiagnosticException) as e:
                    first = str(e).splitlines()[0][:200] if str(e) else ""
                    record = ("skip", f"jit: {type(e).__name__}: {first}")
                else:
                    record = ("ok", [np.asarray(v) for v in f(*args)])
        except Exception as e:  # noqa: BLE001 - reported by the test
            record = ("error", f"{type(e).__name__}: {e}")
        with open(out_path, "ab") as out:
            pickle.dump((name, *record), out)


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "--jit-worker":
    # the JIT worker process (see `jit_results`): it imports no JAX
    _jit_worker(sys.argv[2], sys.argv[3])
    sys.exit(0)

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

# --------------------------------------------------------------------------------------
# The programs
# --------------------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    fn: Callable[..., Any]
    make_args: Callable[[np.random.Generator], tuple[np.ndarray, ...]]
    rtol: float | None = None
    atol: float | None = None
    reason: str = ""  # why the tolerance differs from the default
    x64: bool = False  # needs JAX's 64-bit mode (f64/i64 programs)
    cache: dict = field(default_factory=dict)

    def args(self) -> tuple[np.ndarray, ...]:
        if "args" not in self.cache:
            rng = np.random.default_rng(zlib.crc32(self.name.encode()))
            self.cache["args"] = tuple(np.asarray(a) for a in self.make_args(rng))
        return self.cache["args"]


CASES: dict[str, Case] = {}


def case(make_args, *, rtol=None, atol=None, reason="", x64=False, name=None):
    def register(fn):
        n = name or fn.__name__
        assert n not in CASES, n
        CASES[n] = Case(n, fn, make_args, rtol, atol, reason, x64)
        return fn

    return register


def f32(rng, *shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def pos32(rng, *shape):
    return rng.uniform(0.25, 2.0, shape).astype(np.float32)


def i32(rng, *shape, lo=-20, hi=20):
    return rng.integers(lo, hi, shape).astype(np.int32)


# ---- element-wise ----------------------------------------------------------------------


@case(lambda r: (f32(r, 3, 4, lo=-3, hi=3),))
def unary_trig_f32(x):
    return jnp.sin(x), jnp.cos(x), jnp.tan(x / 2), jnp.tanh(x)


@case(lambda r: (pos32(r, 3, 4),))
def unary_exp_log_f32(x):
    return jnp.exp(x), jnp.log(x), jnp.expm1(x), jnp.log1p(x), jnp.sqrt(x), lax.rsqrt(x), jnp.cbrt(x)


@case(lambda r: (f32(r, 12, lo=-5, hi=5),))
def unary_rounding_f32(x):
    return jnp.floor(x), jnp.ceil(x), jnp.round(x), lax.round(x), jnp.sign(x), jnp.abs(x), -x


@case(lambda r: (f32(r, 3, 4, lo=-3, hi=3), pos32(r, 3, 4)))
def binary_f32(x, y):
    return x + y, x - y, x * y, x / y, jnp.maximum(x, y), jnp.minimum(x, y), jnp.arctan2(x, y), jnp.fmod(x, y), y**x


@case(lambda r: (r.uniform(-3, 3, (3, 4)), r.uniform(0.5, 2, (3, 4))), x64=True)
def math_f64(x, y):
    return jnp.sin(x) * jnp.exp(y), jnp.log(y) + jnp.tanh(x), x / y, jnp.sqrt(y) - x**2


@case(lambda r: (f32(r, 8, lo=-2, hi=2).astype(np.float16), pos32(r, 8).astype(np.float16)))
def math_f16(x, y):
    return x + y, x * y, x / y, jnp.exp(x), jnp.sqrt(y), jnp.maximum(x, y)


@case(lambda r: (f32(r, 8, lo=-2, hi=2).astype(jnp.bfloat16), pos32(r, 8).astype(jnp.bfloat16)))
def math_bf16(x, y):
    return x + y, x * y, x / y, jnp.tanh(x), jnp.log(y)


@case(lambda r: (i32(r, 10), i32(r, 10, lo=1, hi=9)))
def integer_i32(x, y):
    return (
        x + y, x - y, x * y, x // y, x % y, lax.div(x, y), lax.rem(x, y), jnp.abs(x),
        jnp.maximum(x, y), x & y, x | y, x ^ y, ~x, x << 2, x >> 1,
        lax.shift_right_logical(x, jnp.int32(3)), lax.population_count(x), lax.clz(x),
    )  # fmt: skip


@case(lambda r: (r.integers(0, 256, 10).astype(np.uint8), r.integers(1, 8, 10).astype(np.uint8)))
def integer_u8(x, y):
    return x + y, x * y, x // y, x % y, jnp.maximum(x, y), x >> y, x ^ y


@case(lambda r: (r.integers(-(2**40), 2**40, 6), r.integers(1, 1000, 6)), x64=True)
def integer_i64(x, y):
    return x * y, x // y, x % y, x >> 3


@case(lambda r: (r.random(10) < 0.5, r.random(10) < 0.5))
def boolean(a, b):
    return a & b, a | b, a ^ b, ~a, a == b, jnp.where(a, b, ~b)


@case(lambda r: (f32(r, 10), f32(r, 10)))
def compare_select(x, y):
    return x < y, x >= y, x == y, x != y, jnp.where(x > y, x, y), jnp.isfinite(x / (y - y))


@case(lambda r: (f32(r, 10, lo=-300, hi=300), i32(r, 10)))
def conversions(x, i):
    return (
        x.astype(jnp.int32), x.astype(jnp.uint8), i.astype(jnp.float32), x.astype(jnp.bfloat16),
        x.astype(jnp.float16), (x > 0).astype(jnp.float32), i.astype(jnp.int8), x.astype(bool),
    )  # fmt: skip


@case(lambda r: (f32(r, 10, lo=-3, hi=3),))
def clamp_relu(x):
    return jnp.clip(x, -1.0, 2.0), jax.nn.relu(x), jax.nn.relu6(x), lax.clamp(-0.5, x, 0.5)


@case(lambda r: (f32(r, 10, lo=-3, hi=3),))
def powers(x):
    return x**2, x**3, jnp.square(x), lax.integer_pow(x, 5), jnp.reciprocal(x + 4)


@case(lambda r: (f32(r, 10, lo=-0.9, hi=0.9),))
def chlo_inverse_trig(x):
    return jnp.arcsin(x), jnp.arccos(x), jnp.arctan(x), jnp.arcsinh(x), jnp.arctanh(x), jnp.arccosh(x + 2)


@case(lambda r: (f32(r, 10, lo=-3, hi=3),))
def chlo_hyperbolic(x):
    return jnp.sinh(x), jnp.cosh(x), jnp.isinf(x / (x - x)), jnp.nextafter(x, jnp.zeros_like(x))


@case(lambda r: (f32(r, 10, lo=-0.95, hi=0.95), pos32(r, 10) * 3))
def chlo_special(x, y):
    return lax.erf(x), lax.erf_inv(x), lax.lgamma(y), lax.digamma(y)


@case(lambda r: (f32(r, 10, lo=-3, hi=3),))
def activations(x):
    return jax.nn.gelu(x, approximate=False), jax.nn.gelu(x), jax.nn.sigmoid(x), jax.nn.silu(x), jax.nn.softplus(x)


# ---- broadcasting ----------------------------------------------------------------------


@case(lambda r: (f32(r, 3, 1), f32(r, 1, 4), f32(r, 4), f32(r)))
def broadcasting(a, b, v, s):
    return a + b, a * v, s - b, jnp.broadcast_to(v, (2, 3, 4)) + s, jnp.expand_dims(v, 0) * a


# ---- reductions ------------------------------------------------------------------------


@case(lambda r: (f32(r, 4, 5, 6),))
def reduce_sum(x):
    return jnp.sum(x), jnp.sum(x, axis=1), jnp.sum(x, axis=(0, 2)), jnp.mean(x, axis=-1)


@case(lambda r: (f32(r, 4, 6),))
def reduce_max_min(x):
    return jnp.max(x, axis=0), jnp.min(x, axis=1), jnp.max(x), jnp.prod(x, axis=1)


@case(lambda r: (f32(r, 4, 6), i32(r, 4, 6)))
def argmax_argmin(x, i):
    return jnp.argmax(x, axis=1), jnp.argmin(x, axis=0), jnp.argmax(i), jnp.argmax(x)


@case(lambda r: (r.random((3, 5)) < 0.3,))
def any_all(b):
    return jnp.any(b, axis=1), jnp.all(b, axis=0), jnp.any(b), jnp.sum(b)


@case(lambda r: (f32(r, 4, 6),))
def variance_std(x):
    return jnp.var(x, axis=1), jnp.std(x), jax.nn.logsumexp(x, axis=1)


@case(lambda r: (f32(r, 4, 10, lo=-4, hi=4),))
def softmax(x):
    return jax.nn.softmax(x, axis=-1), jax.nn.log_softmax(x, axis=0)


@case(lambda r: (f32(r, 3, 16), pos32(r, 16), f32(r, 16)))
def layer_norm(x, gamma, beta):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta


# ---- matmul, einsum, MLP, attention --------------------------------------------------


@case(lambda r: (f32(r, 4, 8), f32(r, 8, 3), f32(r, 8)))
def matmul(a, b, v):
    return a @ b, a @ v, v @ b, jnp.dot(v, v)


@case(lambda r: (f32(r, 2, 3, 4, 5), f32(r, 2, 3, 5, 6)))
def batched_matmul(a, b):
    return jnp.matmul(a, b)


@case(lambda r: (f32(r, 2, 3, 4), f32(r, 2, 4, 5), f32(r, 3, 4)))
def einsum(a, b, c):
    return (
        jnp.einsum("bij,bjk->bik", a, b), jnp.einsum("bij,ij->bi", a, c), jnp.einsum("bij->jb", a),
        jnp.einsum("ij,kj->ik", c, c),
    )  # fmt: skip


def _mlp(params, x):
    (w1, b1), (w2, b2) = params
    h = jnp.tanh(x @ w1 + b1)
    return h @ w2 + b2


def _mlp_args(r):
    return (f32(r, 8, 16), f32(r, 16), f32(r, 16, 4), f32(r, 4), f32(r, 5, 8), f32(r, 5, 4))


@case(_mlp_args)
def mlp(w1, b1, w2, b2, x, y):
    return _mlp(((w1, b1), (w2, b2)), x)


@case(_mlp_args)
def mlp_grad(w1, b1, w2, b2, x, y):
    def loss(params):
        return jnp.mean((_mlp(params, x) - y) ** 2)

    return jax.value_and_grad(loss)(((w1, b1), (w2, b2)))


@case(lambda r: (f32(r, 2, 5, 8), f32(r, 2, 6, 8), f32(r, 2, 6, 8)))
def attention(q, k, v):
    scores = jnp.einsum("bqd,bkd->bqk", q, k) / jnp.sqrt(8.0)
    mask = jnp.tril(jnp.ones((5, 6), bool))
    scores = jnp.where(mask, scores, -1e9)
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(scores, axis=-1), v)


# ---- convolutions ----------------------------------------------------------------------

_NCHW = ("NCHW", "OIHW", "NCHW")
_NHWC = ("NHWC", "HWIO", "NHWC")


@case(lambda r: (f32(r, 2, 3, 7, 7), f32(r, 4, 3, 3, 3)))
def conv_nchw_valid(x, k):
    return lax.conv_general_dilated(x, k, (1, 1), "VALID", dimension_numbers=_NCHW)


@case(lambda r: (f32(r, 2, 8, 8, 3), f32(r, 3, 3, 3, 4)))
def conv_nhwc_same_stride2(x, k):
    return lax.conv_general_dilated(x, k, (2, 2), "SAME", dimension_numbers=_NHWC)


@case(lambda r: (f32(r, 1, 2, 9, 9), f32(r, 3, 2, 3, 2)))
def conv_explicit_padding_dilation(x, k):
    return lax.conv_general_dilated(
        x, k, (1, 2), [(1, 2), (0, 1)], rhs_dilation=(2, 1), dimension_numbers=_NCHW
    )


@case(lambda r: (f32(r, 2, 6, 6, 4), f32(r, 3, 3, 1, 4)))
def conv_depthwise(x, k):
    return lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=_NHWC, feature_group_count=4)


@case(lambda r: (f32(r, 1, 5, 5, 3), f32(r, 3, 3, 3, 2)))
def conv_transpose(x, k):
    return lax.conv_transpose(x, k, (2, 2), "SAME", dimension_numbers=_NHWC)


@case(lambda r: (f32(r, 2, 10, 3), f32(r, 3, 3, 5)))
def conv_1d(x, k):
    return lax.conv_general_dilated(x, k, (2,), "VALID", dimension_numbers=("NWC", "WIO", "NWC"))


@case(lambda r: (f32(r, 2, 6, 6, 2), f32(r, 3, 3, 2, 3)))
def conv_grad(x, k):
    def loss(x, k):
        y = lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=_NHWC)
        return jnp.sum(jnp.tanh(y))

    return jax.grad(loss, argnums=(0, 1))(x, k)


# ---- pooling ---------------------------------------------------------------------------


def _max_pool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def _avg_pool(x):
    return lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME") / 9.0


@case(lambda r: (f32(r, 2, 6, 6, 3),))
def max_pool(x):
    return _max_pool(x)


@case(lambda r: (f32(r, 2, 5, 5, 3),))
def avg_pool(x):
    return _avg_pool(x)


@case(lambda r: (f32(r, 2, 6, 6, 3),))
def max_pool_grad(x):
    return jax.grad(lambda x: jnp.sum(_max_pool(x) ** 2))(x)


@case(lambda r: (f32(r, 2, 5, 5, 3),))
def avg_pool_grad(x):
    return jax.grad(lambda x: jnp.sum(jnp.sin(_avg_pool(x))))(x)


@case(lambda r: (f32(r, 3, 7), i32(r, 3, 7)))
def cumulative(x, i):
    return jnp.cumsum(x, axis=1), jnp.cumprod(x, axis=0), lax.cummax(x, axis=1), jnp.cumsum(i, axis=1)


# ---- gather and scatter ----------------------------------------------------------------


@case(lambda r: (f32(r, 6, 4), r.integers(0, 6, 5).astype(np.int32)))
def take_rows(x, idx):
    return x[idx], jnp.take(x, idx, axis=0), x[:, 1:3][idx]


@case(lambda r: (f32(r, 4, 6), r.integers(0, 6, (4, 3)).astype(np.int32)))
def take_along_axis(x, idx):
    return jnp.take_along_axis(x, idx, axis=1), x[jnp.arange(4)[:, None], idx]


@case(lambda r: (f32(r, 5, 4), np.int32(3), r.integers(-6, 6, 3).astype(np.int32)))
def dynamic_index(x, i, idx):
    return x[i], x[idx], x[i, 1:]


@case(lambda r: (f32(r, 6, 3), np.array([0, 2, 5], np.int32), f32(r, 3, 3)))
def scatter_set(x, idx, u):
    return x.at[idx].set(u), x.at[1].set(0.0), x.at[:, 2].set(u[0, 0])


@case(lambda r: (f32(r, 6, 3), np.array([0, 2, 2, 5], np.int32), f32(r, 4, 3)))
def scatter_add(x, idx, u):
    return x.at[idx].add(u), jnp.zeros(6).at[idx].add(1.0)


@case(lambda r: (f32(r, 6, 3), np.array([1, 1, 4], np.int32), f32(r, 3, 3)))
def scatter_max_min_mul(x, idx, u):
    return x.at[idx].max(u), x.at[idx].min(u), x.at[idx].multiply(u)


# ---- sorting ---------------------------------------------------------------------------


@case(lambda r: (f32(r, 4, 7), i32(r, 9)))
def sort(x, i):
    return jnp.sort(x, axis=1), jnp.sort(x, axis=0), jnp.sort(i)


@case(lambda r: (f32(r, 3, 8), r.integers(0, 4, 10).astype(np.int32)))
def argsort(x, i):
    return jnp.argsort(x, axis=1), jnp.argsort(i, stable=True), jnp.argsort(-x, axis=0)


@case(lambda r: (f32(r, 3, 10),))
def top_k(x):
    values, indices = lax.top_k(x, 4)
    return values, indices


@case(lambda r: (r.integers(0, 3, 8).astype(np.int32), f32(r, 8)))
def sort_multiple_operands(k, v):
    return lax.sort((k, v), num_keys=2)


# ---- control flow ----------------------------------------------------------------------


@case(lambda r: (f32(r, 4),))
def fori_loop(x):
    return lax.fori_loop(0, 5, lambda i, acc: acc * 0.9 + jnp.float32(i), x)


@case(lambda r: (pos32(r, 3),))
def while_loop(x):
    def cond(c):
        n, v = c
        return jnp.sum(v) < 100.0

    def body(c):
        n, v = c
        return n + 1, v * 1.5 + 0.1

    return lax.while_loop(cond, body, (jnp.int32(0), x))


@case(lambda r: (f32(r, 5), f32(r, 5)))
def cond(x, y):
    a = lax.cond(jnp.sum(x) > 0, lambda: x * 2.0, lambda: y - 1.0)
    b = lax.cond(jnp.sum(y) > 0, lambda u: jnp.sin(u), lambda u: jnp.cos(u), x + y)
    return a, b


@case(lambda r: (np.int32(2), f32(r, 5), np.int32(7)))
def switch(i, x, j):
    branches = [lambda v: v + 1.0, lambda v: v * v, lambda v: -v, lambda v: jnp.exp(v)]
    return lax.switch(i, branches, x), lax.switch(j, branches, x)


@case(lambda r: (f32(r, 6, 3),))
def scan(xs):
    def step(carry, x):
        carry = carry * 0.5 + x
        return carry, jnp.sum(carry)

    return lax.scan(step, jnp.zeros(3, jnp.float32), xs)


# ---- slicing and shapes ----------------------------------------------------------------


@case(lambda r: (f32(r, 6, 5), np.int32(2), np.int32(4)))
def dynamic_slice(x, i, j):
    return lax.dynamic_slice(x, (i, j), (3, 2)), lax.dynamic_slice_in_dim(x, j, 2, axis=0)


@case(lambda r: (f32(r, 6, 5), f32(r, 2, 3), np.int32(5), np.int32(-1)))
def dynamic_update_slice(x, u, i, j):
    return lax.dynamic_update_slice(x, u, (i, j)), lax.dynamic_update_slice(x, u, (jnp.int32(1), jnp.int32(1)))


@case(lambda r: (f32(r, 2, 3), f32(r, 2, 4)))
def concatenate(a, b):
    return jnp.concatenate([a, b], axis=1), jnp.concatenate([a, a, a], axis=0), jnp.stack([a, a], axis=1)


@case(lambda r: (f32(r, 3, 4),))
def pad(x):
    return jnp.pad(x, ((1, 2), (0, 3))), lax.pad(x, 1.5, [(1, -1, 1), (-2, 0, 2)]), jnp.pad(x, 1, mode="edge")


@case(lambda r: (f32(r, 2, 3, 4),))
def reverse_transpose_reshape(x):
    return jnp.flip(x, axis=(0, 2)), jnp.transpose(x, (2, 0, 1)), x.reshape(6, 4), x.T.reshape(-1), jnp.ravel(x, order="F")


@case(lambda r: (f32(r, 8, 9),))
def strided_slice(x):
    return x[1:7:2, ::3], x[::-1, 2:5], x[-3:, :-4], x[jnp.newaxis, 4]


@case(lambda r: (r.integers(0, 5, 6).astype(np.int32),))
def iota_arange_one_hot(labels):
    return jnp.arange(10), jnp.arange(2.0, 5.0, 0.5), jax.nn.one_hot(labels, 5), lax.broadcasted_iota(jnp.int32, (3, 4), 1), jnp.eye(4)


@case(lambda r: (f32(r, 4, 4),))
def triangular_masks(x):
    return jnp.tril(x), jnp.triu(x, 1), jnp.diagonal(x), jnp.trace(x)


# ---- linear algebra --------------------------------------------------------------------


def _spd(r, n=4, batch=()):
    a = r.uniform(-1, 1, (*batch, n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(np.float32)


@case(lambda r: (_spd(r), _spd(r, 3, (2,))))
def cholesky(a, b):
    return jnp.linalg.cholesky(a), jnp.linalg.cholesky(b)


@case(lambda r: (np.tril(_spd(r)), f32(r, 4, 3), f32(r, 2, 4)))
def triangular_solve(a, b, c):
    return (
        lax.linalg.triangular_solve(a, b, left_side=True, lower=True),
        lax.linalg.triangular_solve(a, c, left_side=False, lower=True, transpose_a=True),
        jax.scipy.linalg.solve_triangular(a, b, lower=True, unit_diagonal=True),
    )


@case(lambda r: (_spd(r), f32(r, 4)))
def cho_solve(a, b):
    return jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(a, lower=True), b)


@case(lambda r: ((r.uniform(-1, 1, (3, 8)) + 1j * r.uniform(-1, 1, (3, 8))).astype(np.complex64),))
def fft(x):
    return jnp.fft.fft(x), jnp.fft.ifft(x), jnp.fft.fft2(x)


@case(lambda r: (f32(r, 2, 8), f32(r, 4, 6)))
def rfft(x, y):
    return jnp.fft.rfft(x), jnp.fft.irfft(jnp.fft.rfft(x)), jnp.fft.rfft2(y)


@case(lambda r: (f32(r, 2, 6, 6, 4), f32(r, 3, 3, 4, 4, lo=-0.3, hi=0.3), f32(r, 3, 3, 4, 4, lo=-0.3, hi=0.3)))
def resnet_block(x, k1, k2):
    """conv 3x3 SAME -> batch statistics normalization -> relu -> conv -> + x -> relu."""

    def norm(h):
        mean = h.mean(axis=(0, 1, 2))
        var = ((h - mean) ** 2).mean(axis=(0, 1, 2))
        return (h - mean) * lax.rsqrt(var + 1e-5)

    h = jax.nn.relu(norm(lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=_NHWC)))
    h = norm(lax.conv_general_dilated(h, k2, (1, 1), "SAME", dimension_numbers=_NHWC))
    return jax.nn.relu(h + x)


@case(lambda r: (f32(r, 10, 4), np.array([3, 7, 3, 0, 9, 3], np.int32)))
def embedding_top_k_histogram(table, ids):
    """An embedding lookup (gather), the top 3 of its scores (sort) and a histogram of
    the ids (scatter-add with repeated indices)."""
    scores = table[ids].sum(axis=-1)
    values, positions = lax.top_k(scores, 3)
    return values, ids[positions], jnp.zeros(10, jnp.int32).at[ids].add(1)


# ---- bits ------------------------------------------------------------------------------


@case(lambda r: (f32(r, 10, lo=-100, hi=100),))
def reduce_precision(x):
    return lax.reduce_precision(x, 5, 10), lax.reduce_precision(x, 8, 7), lax.reduce_precision(x, 4, 3)


@case(lambda r: (f32(r, 6), i32(r, 4, 2)))
def bitcast(x, i):
    return (
        lax.bitcast_convert_type(x, jnp.int32), lax.bitcast_convert_type(x, jnp.uint16),
        lax.bitcast_convert_type(i, jnp.float32), lax.bitcast_convert_type(x.astype(jnp.bfloat16), jnp.int16),
        lax.bitcast_convert_type(i.astype(jnp.uint8), jnp.int8),
    )  # fmt: skip


@case(lambda r: (np.uint32(42),))
def random_bits(seed):
    key = jax.random.key(seed)
    k1, k2 = jax.random.split(key)
    return jax.random.bits(k1, (4, 3)), jax.random.bits(k2, (5,), jnp.uint8)


@case(lambda r: (np.uint32(42),))
def random_rbg(seed):
    """The "rbg" implementation draws with rng_bit_generator."""
    key = jax.random.key(seed, impl="rbg")
    k1, k2 = jax.random.split(key)
    return (jax.random.bits(k1, (4, 3)), jax.random.uniform(k2, (5,)),
            jax.random.normal(k1, (3,)), jax.random.randint(k2, (6,), 0, 10))  # fmt: skip


@case(lambda r: (np.uint32(7),))
def random_uniform_normal(seed):
    key = jax.random.key(seed)
    return jax.random.uniform(key, (3, 4)), jax.random.normal(jax.random.fold_in(key, 1), (5,))


@case(lambda r: (f32(r, 5),))
def nan_inf_handling(x):
    z = x - x
    return jnp.where(jnp.isnan(x / z), 0.0, x), jnp.nan_to_num(x / z), jnp.maximum(x / z, 0.0)


# ---- quantized models: 4-bit integer weights, 8-bit float matmuls (issue 13) ---------------


@case(lambda r: (f32(r, 8, 16), r.integers(-8, 8, (16, 12)).astype(jnp.int4), f32(r, 12, lo=0.01, hi=0.1)))
def int4_weight_quantized_matmul(x, w_q, scale):
    """Weight-only quantization: int4 weights dequantized (convert, per-column scale)
    and multiplied in f32; the weights' sum as an integer too."""
    w = w_q.astype(jnp.float32) * scale
    return x @ w, jnp.sum(w_q.astype(jnp.int32), axis=0)


@case(lambda r: (f32(r, 8, 16, lo=-4, hi=4).astype(jnp.float8_e4m3fn), f32(r, 16, 12).astype(jnp.float8_e4m3fn)))
def f8_matmul_with_f32_accumulation(a, b):
    """An f8 (E4M3FN) matmul accumulating in f32 (`preferred_element_type`), and an
    f8 result: the product rescaled and rounded back to f8 (E5M2)."""
    acc = lax.dot(a, b, preferred_element_type=jnp.float32)
    return acc, (acc * 0.25).astype(jnp.float8_e5m2)


assert len(CASES) >= 60, len(CASES)

# --------------------------------------------------------------------------------------
# Running them
# --------------------------------------------------------------------------------------

DEFAULT_TOLERANCE = {
    np.dtype(np.float32): (1e-5, 1e-6),
    np.dtype(np.complex64): (1e-5, 1e-6),
    np.dtype(np.float64): (1e-12, 1e-14),
    np.dtype(np.complex128): (1e-12, 1e-14),
    np.dtype(np.float16): (4e-3, 4e-3),
    np.dtype(jnp.bfloat16): (2e-2, 2e-2),
    # one rounding of an f32 value to 8 bits: at most half a unit in the last place
    np.dtype(jnp.float8_e5m2): (2**-3, 2**-16),
    np.dtype(jnp.float8_e4m3fn): (2**-4, 2**-9),
}



class _X64:
    """JAX's 64-bit mode for the f64/i64 programs (a no-op otherwise)."""

    def __init__(self, on: bool):
        self.ctx = jax.enable_x64(True) if on else None

    def __enter__(self):
        if self.ctx is not None:
            self.ctx.__enter__()

    def __exit__(self, *exc):
        if self.ctx is not None:
            self.ctx.__exit__(*exc)


def exported_text(c: Case) -> str:
    if "text" not in c.cache:
        with _X64(c.x64):
            c.cache["text"] = jax.jit(c.fn, keep_unused=True).lower(*c.args()).as_text()
    return c.cache["text"]


def expected(c: Case) -> list[np.ndarray]:
    if "expected" not in c.cache:
        with _X64(c.x64):
            out = jax.jit(c.fn)(*c.args())
            c.cache["expected"] = [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(out)]
    return c.cache["expected"]


def imported(c: Case):
    if "module" not in c.cache:
        c.cache["module"] = xla_opt.load_program(exported_text(c), name=f"<{c.name}>")
    return c.cache["module"]


def interpreted(c: Case) -> list[np.ndarray]:
    if "interpreted" not in c.cache:
        c.cache["interpreted"] = [np.asarray(v) for v in xla_opt.run(imported(c), *c.args())]
    return c.cache["interpreted"]


def assert_matches(got, want, c: Case, what: str) -> None:
    assert len(got) == len(want), f"{what}: {len(got)} results, JAX has {len(want)}"
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        label = f"{c.name}: {what} result #{i}"
        assert g.shape == w.shape, f"{label}: shape {g.shape}, JAX {w.shape}"
        assert g.dtype == w.dtype, f"{label}: dtype {g.dtype}, JAX {w.dtype}"
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=label)
            continue
        rtol, atol = DEFAULT_TOLERANCE[w.dtype]
        rtol, atol = c.rtol or rtol, c.atol or atol
        wide = np.complex128 if w.dtype.kind == "c" else np.float64
        np.testing.assert_allclose(
            g.astype(wide), w.astype(wide), rtol=rtol, atol=atol, equal_nan=True, err_msg=label
        )


@pytest.mark.parametrize("name", list(CASES))
def test_interpreter(name: str) -> None:
    c = CASES[name]
    assert_matches(interpreted(c), expected(c), c, "interpreter")


# The JIT runs in a separate process: native code and JAX's own LLVM in one process
# have crashed (segfaults inside jaxlib after JIT-compiled code ran), and a crash would
# end the whole session. The worker needs no JAX: it imports the StableHLO text itself.

# Every case runs on the JIT; one with an op the JIT does not lower yet is skipped
# with the op's name.
JIT_CASES = list(CASES)


@pytest.fixture(scope="module")
def jit_results(tmp_path_factory) -> dict[str, tuple[str, Any]]:
    import pickle
    import subprocess

    pending = [(n, exported_text(CASES[n]), CASES[n].args()) for n in JIT_CASES]
    results: dict[str, tuple[str, Any]] = {}
    work = tmp_path_factory.mktemp("jit")
    attempt = 0
    while pending:
        attempt += 1
        job, out = work / f"jobs{attempt}.pkl", work / f"out{attempt}.pkl"
        job.write_bytes(pickle.dumps(pending))
        proc = subprocess.run(
            [sys.executable, __file__, "--jit-worker", str(job), str(out)],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        started = None
        if out.exists():
            with open(out, "rb") as f:
                while True:
                    try:
                        name, status, payload = pickle.load(f)
                    except EOFError:
                        break
                    if status == "started":
                        started = name
                    else:
                        results[name], started = (status, payload), None
        if started is not None or proc.returncode != 0:
            crashed = started or next(n for n, _, _ in pending if n not in results)
            tail = "\n".join((proc.stderr or "").splitlines()[-5:])
            results[crashed] = ("crash", f"the JIT process died (exit {proc.returncode}) on it:\n{tail}")
        pending = [p for p in pending if p[0] not in results]
    return results


@pytest.mark.parametrize("name", JIT_CASES)
def test_jit(name: str, jit_results) -> None:
    """The core-op-set programs on backend="jit" (in a worker process); skipped, with
    the reason, where the JIT does not handle them yet."""
    c = CASES[name]
    status, payload = jit_results[name]
    if status == "skip":
        pytest.skip(payload)
    if status != "ok":
        pytest.fail(f"jit {status}: {payload}")
    assert_matches(payload, expected(c), c, "jit")

