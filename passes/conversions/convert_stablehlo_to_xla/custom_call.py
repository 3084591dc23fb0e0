"""convert-stablehlo-to-xla: Custom calls (JAX's LAPACK calls become xla.cholesky,
xla.triangular_solve, or calls of the xla programs lapack.py builds). GSPMD's
sharding markers (`Sharding`, `SPMDFullToShardShape`, `SPMDShardToFullShape`) of a
sharded program become sdy ops before the walk (sharding.py); on one device they are
identities."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    BoolAttr,
    DictionaryAttr,
    StringAttr,
)
from xdsl.ir import Attribute, SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.stablehlo.attrs import StablehloTokenType
from xla_opt.dialects.xla.element_types import TokenType

from . import lapack
from .chlo import approx_top_k
from .common import (
    Builder,
    Patterns,
    bool_of,
    convert_type,
    fail,
    warn,
    int_of,
    prop,
    result_types,
)

PATTERNS = Patterns()

SHARDING_TARGETS = {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape", "annotate_device_placement"}


def _char_field(op, key: str, default: str) -> str:
    config = op.attributes.get("mhlo.backend_config")
    if isinstance(config, DictionaryAttr) and key in config.data:
        return chr(int_of(config.data[key]))
    return default


def _zeros_for(b: Builder, types: Sequence[Attribute]) -> list[SSAValue]:
    return [b.constant(0, t) for t in types]


# JAX's host callbacks (jax.debug.print, jax.pure_callback, io_callback): the Python
# function lives in JAX's process, named by an index into its table
HOST_CALLBACK_TARGETS = {
    "xla_ffi_python_cpu_callback", "xla_python_cpu_callback",
    "xla_ffi_python_gpu_callback", "xla_python_gpu_callback",
}  # fmt: skip


def _host_callback(op, b, target: str) -> list[SSAValue]:
    """A host callback cannot run here: its Python function is in JAX's process. One
    whose results are not used (jax.debug.print, an io_callback for its effect) is
    dropped with a warning, its token results the token it was given (or a new one);
    one whose results are used (jax.pure_callback, io_callback) is an error."""
    data = [r for r in op.results if not isinstance(r.type, StablehloTokenType | TokenType)]
    if any(r.uses for r in data):
        fail(op, f"'{target}' is a host callback (jax.pure_callback or io_callback): its Python function runs "
                 "in JAX's process, not here, so its results cannot be computed; compute them in the program "
                 "(jax.numpy) or remove the callback")  # fmt: skip
    warn(op, f"'{target}' is a host callback (jax.debug.print, io_callback): its Python function runs in "
             "JAX's process, not here; dropped")  # fmt: skip
    tokens = [v for v in op.operands if isinstance(v.type, StablehloTokenType | TokenType)]
    values = []
    for r in op.results:
        if r in data:
            values.append(b.constant(0, convert_type(r.type)))
        else:
            values.append(tokens[0] if tokens else b.build(xla.AfterAllOp, [[]], [TokenType()]).results[0])
    return values


@PATTERNS.rule("stablehlo.custom_call")
def _custom_call(op, b):
    target = prop(op, "call_target_name")
    target = target.data if isinstance(target, StringAttr) else str(target)
    if target in SHARDING_TARGETS:
        # what is left of them on one device (a sharded program's became sdy ops, sharding.py)
        if op.operands[0].type != op.results[0].type:
            fail(op, f"'{target}' changes its operand's type on one device: the program declares one partition")
        return list(op.operands)
    if target == "ApproxTopK":  # lax.approx_max_k / approx_min_k: the exact top-k
        return approx_top_k(op, b)
    if target in HOST_CALLBACK_TARGETS:
        return _host_callback(op, b, target)
    base = target.removesuffix("_ffi")
    if base.startswith("lapack_") and base[8:] == "potrf":
        # (a) -> (factor, info)
        lower = _char_field(op, "uplo", "L") == "L"
        a = op.operands[-1]
        factor = b.one(xla.CholeskyOp, [a], a.type, {"lower": BoolAttr.from_bool(lower)})
        return [factor, *_zeros_for(b, [r.type for r in op.results[1:]])]
    if base.startswith("lapack_") and base[8:] == "trsm" or base.startswith("blas_") and base[6:] == "trsm":
        a, rhs = op.operands[-2], op.operands[-1]
        trans = _char_field(op, "trans_x", "N")
        props = {
            "left_side": BoolAttr.from_bool(_char_field(op, "side", "L") == "L"),
            "lower": BoolAttr.from_bool(_char_field(op, "uplo", "L") == "L"),
            "unit_diagonal": BoolAttr.from_bool(_char_field(op, "diag", "N") == "U"),
            "transpose_a": xla.TransposeAttr(
                xla.Transpose({"N": "NO_TRANSPOSE", "T": "TRANSPOSE", "C": "ADJOINT"}[trans])
            ),
        }
        x = b.one(xla.TriangularSolveOp, [a, rhs], rhs.type, props)
        return [x, *_zeros_for(b, [r.type for r in op.results[1:]])]
    if lapack.handles(target):  # getrf, geqrf, orgqr, syevd, gesdd, geev: xla programs
        return lapack.convert(op, b, target)
    if base.startswith(("lapack_", "blas_", "cusolver", "cublas", "hipsolver", "cu_", "hip_")):
        fail(op, f"custom call '{target}' has no xla counterpart")
    props: dict[str, Attribute | None] = {"call_target_name": StringAttr(target)}
    config = prop(op, "backend_config")
    if isinstance(config, StringAttr) and config.data:
        props["backend_config"] = config
    if prop(op, "has_side_effect") is not None:
        props["has_side_effect"] = BoolAttr.from_bool(bool_of(prop(op, "has_side_effect")))
    return b.build(xla.CustomCallOp, [list(op.operands)], result_types(op), props).results

