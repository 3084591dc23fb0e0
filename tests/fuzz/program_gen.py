"""A random program generator: straight-line, well-typed `func.func @main` programs in
the xla dialect's text format, over the ops the JIT lowers.

    program = generate_program(seed)       # deterministic in `seed`
    program.text                           # the module's text
    inputs = make_inputs(program.arg_types, seed)

The generator keeps a pool of live values with their types, picks an op, picks operands
of compatible types (inserting converts, reshapes, slices, pads or broadcasts to make
one fit) and computes the result type with the dialect's own shape functions
(`dialects/shapes/`). Regions (reduce bodies, while loops, conditional branches, called
functions) are generated the same way in a nested scope that sees only its arguments.

Every value carries what the comparison needs to know about it (see `Value`): whether
its floats may differ by rounding between the interpreter and the JIT or XLA, whether
its NaNs and zeros have the same bits everywhere, and why XLA may legitimately give a
different result (then its results are not compared with XLA). Rounding-sensitive ops
(floor, compare, float -> int converts, ...) never take values that may differ by
rounding between the interpreter and the JIT, so every integer and boolean result must
agree exactly.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from xla_opt.dialects.shapes.broadcast import broadcast_shapes
from xla_opt.dialects.shapes.common import ShapeError, num_elements
from xla_opt.dialects.shapes.elementwise import bitcast_convert_shape
from xla_opt.dialects.shapes.linear_algebra import dot_general_shape, dot_shape
from xla_opt.dialects.shapes.shape_ops import (
    broadcast_shape,
    collapse_shape,
    concatenate_shape,
    dynamic_slice_shape,
    pad_shape,
    slice_shape,
    transpose_shape,
)
from xla_opt.dialects.xla.elementwise import BINARY_OPS, UNARY_OPS

from tests.fuzz import KNOWN_BUG_AVOIDANCE
from tests.fuzz.families import COLLECTIVE_OPS, REPLICATED_SHARE, FamilyGenerators
from tests.fuzz.values import (  # noqa: F401 - re-exported: the fuzzers' one import of the values' vocabulary
    ALL_INTS,
    COMPLEX,
    DTYPES,
    ELEMENT_OF_DTYPE,
    ELEMENTS,
    FLOATS,
    HALF,
    INTS,
    NARROW_FLOATS,
    NARROW_INTS,
    PRED,
    RTOL,
    SIGNED,
    STD_FLOATS,
    UNSIGNED,
    XLA_ABORTS_ON,
    XLA_ATAN2_ZEROS,
    XLA_CLAMP_ORDER,
    XLA_CLZ,
    XLA_COMPLEX_MAX_REAL_TIE,
    XLA_COMPLEX_MAX_SIGNED_ZERO,
    XLA_COMPLEX_POWER_OVERFLOW,
    XLA_COMPLEX_TRIG_OVERFLOW,
    XLA_E3M4_ROUND_FOLDING,
    XLA_DENORMALS,
    XLA_DUS_ALIASING,
    XLA_E8M0_CONVERT,
    XLA_E8M0_DENORMAL,
    XLA_E8M0_IOTA,
    XLA_F6_ABORTS,
    XLA_FLOAT_TO_INT,
    XLA_INT_DIVISION,
    XLA_INT_POWER,
    XLA_NON_IDENTITY_INIT,
    XLA_PERIODIC_OF_XLA_APPROX,
    XLA_PRED_ADD,
    XLA_PRED_DIVISION,
    XLA_REDUCE_PRECISION_NAN,
    XLA_ROUNDING_OF_XLA_APPROX,
    XLA_S2_MIN_MAX,
    XLA_SHIFT,
    XLA_SUB_BYTE_BITCAST_FOLDING,
    XLA_TOTALORDER_FOLDING,
    XLA_TWO_BIT_DOT,
    XLA_UNSIGNED_CONSTANT_INDEX,
    TensorT,
    Value,
    bit_width,
    dense,
    dims_text,
    flag_dict,
    from_args,
    int_range,
    is_complex,
    is_float,
    is_inexact,
    is_int,
    is_signed,
    is_unsigned,
    literal,
    make_inputs,
    merged_flags,
    part_elem,
    random_values,
    reducer_identity,
    result_list,
    scalar,
    signature,
    tolerance,
    union_flags,
    xdsl_element,
)

# --------------------------------------------------------------------------------------
# The element types each op accepts, from the dialect's own categories
# --------------------------------------------------------------------------------------


def _accepted(op_cls) -> tuple[str, ...]:
    return tuple(e for e in ELEMENTS if op_cls.ALLOWED(xdsl_element(e)))


UNARY_ACCEPTS: dict[str, tuple[str, ...]] = {op.name.removeprefix("xla."): _accepted(op) for op in UNARY_OPS}
BINARY_ACCEPTS: dict[str, tuple[str, ...]] = {op.name.removeprefix("xla."): _accepted(op) for op in BINARY_OPS}
UNARY_TO_PRED = {"is_finite"}

# Semantic classes of ops (ours, for the comparison rules; see the module docstring).
ROUNDING_SENSITIVE_UNARY = {"ceil", "floor", "round_nearest_afz", "round_nearest_even", "sign", "is_finite"}
PERIODIC_UNARY = {"sine", "cosine", "tan"}  # absolute error of the result ~ |x| * error of x
TRANSCENDENTAL = {
    "cosine", "sine", "tan", "exponential", "exponential_minus_one", "log", "log_plus_one",
    "logistic", "rsqrt", "cbrt", "tanh", "power", "atan2",
}  # fmt: skip
SHIFTS = {"shift_left", "shift_right_logical", "shift_right_arithmetic"}
DIRECTIONS = ("EQ", "NE", "GE", "GT", "LE", "LT")
# The generator of every op of the dialect (what `generate_program(seed, focus=op)`
# calls once at least), and the ops no generated program holds, with the reason.
OP_GENERATORS: dict[str, str] = {
    **{f"xla.{op}": "gen_unary" for op in UNARY_ACCEPTS},
    **{f"xla.{op}": "gen_binary" for op in BINARY_ACCEPTS},
    **{f"xla.{op}": f"gen_{op}" for op in (
        "compare", "constant", "iota", "select", "clamp", "convert", "bitcast_convert", "reduce_precision",
        "broadcast", "broadcast_in_dim", "collapse", "concatenate", "dynamic_slice", "dynamic_update_slice",
        "get_dimension_size", "set_dimension_size", "optimization_barrier", "pad", "reshape", "reverse", "slice",
        "transpose", "tuple", "map", "reduce", "reduce_window", "select_and_scatter", "sort", "call",
        "conditional", "while", "gather", "scatter", "cholesky", "convolution", "dot", "dot_general", "fft",
        "triangular_solve", "batch_norm_grad", "batch_norm_inference", "batch_norm_training",
        "rng_bit_generator", "replica_id", "all_gather", "all_reduce", "all_to_all", "collective_permute",
        "reduce_scatter",
    )},
    "xla.get_tuple_element": "gen_tuple",
    "xla.return": "gen_reduce",  # every computation region ends in one
    "xla.rng_uniform": "gen_rng",
    "xla.rng_normal": "gen_rng",
}  # fmt: skip
NOT_GENERATED: dict[str, str] = {
    "xla.custom_call": "calls a target outside the dialect (a host function, a library kernel): no semantics to "
    "compare; tests/test_interp_custom_call.py and the JAX corpus cover the targets we implement",
    "xla.after_all": "makes a token, which only orders side effects: no value to compare",
    "xla.infeed": "reads the host's infeed queue, which XLA's client through JAX does not feed",
    "xla.outfeed": "writes the host's outfeed queue, which XLA's client through JAX does not read back",
    "xla.send": "talks to a peer program over a channel: nothing within one program to compare",
    "xla.recv": "talks to a peer program over a channel: nothing within one program to compare",
}
NARROW_TYPES = frozenset(NARROW_FLOATS + NARROW_INTS)
COLLECTIVE_GENERATORS = frozenset(f"gen_{op.removeprefix('xla.')}" for op in COLLECTIVE_OPS)
# complex ops whose result is rounded differently by numpy and native code (|z| is a
# hypot, complex products may be fused multiply-adds, quotients use different formulas)
COMPLEX_APPROX_UNARY = {"abs", "sqrt", "rsqrt", "sign"}
COMPLEX_APPROX_BINARY = {"multiply", "divide", "power", "atan2"}
# How often random_elem picks each type (others: 1): the common types often, the narrow
# ones rarely (16 of them).
ELEMENT_WEIGHTS = {
    "f32": 6, "i32": 5, "f64": 2, "i1": 2, "f16": 2, "bf16": 2, "i64": 2, "ui8": 2,
    **{e: 0.1 for e in NARROW_FLOATS + NARROW_INTS},
}  # fmt: skip


@dataclass
class Statement:
    """One top-level op of @main (possibly several lines with its regions)."""

    text: str
    defines: tuple[str, ...]  # base names, e.g. "%v3" for %v3#0 and %v3#1
    types: tuple[TensorT, ...] = ()  # of the values it defines (empty for a tuple)

    @property
    def uses(self) -> set[str]:
        return {m.split("#")[0] for m in re.findall(r"%[A-Za-z_][\w#]*", self.text)} - set(self.defines)


@dataclass
class GeneratedProgram:
    seed: int
    args: list[Value]
    statements: list[Statement]
    results: list[Value]
    helpers: list[str]  # the text of the functions @main calls
    replicas: int = 1  # it runs on this many replicas (collectives, replica_id)
    tame_args: frozenset[str] = frozenset()  # arguments whose inputs hold no special values

    @property
    def arg_types(self) -> list[TensorT]:
        return [a.type for a in self.args]

    def inputs(self) -> list[np.ndarray]:
        """Its seeded random inputs (one per replica, stacked, with replicas > 1)."""
        return make_inputs(self.arg_types, self.seed, [a.name in self.tame_args for a in self.args], self.replicas)

    @property
    def text(self) -> str:
        return render(self.helpers, self.args, self.statements, self.results)

    def restricted(self, results: Sequence[Value]) -> GeneratedProgram:
        """The program returning `results` only, without the statements and arguments
        they do not depend on."""
        needed = {r.name.split("#")[0] for r in results}
        kept = []
        for st in reversed(self.statements):
            if set(st.defines) & needed:
                kept.append(st)
                needed |= st.uses
        kept.reverse()
        args = [a for a in self.args if a.name in needed]
        return replace(self, args=args, statements=kept, results=list(results))


def render(
    helpers: Sequence[str], args: Sequence[Value], statements: Sequence[Statement], results: Sequence[Value]
) -> str:
    params = ", ".join(f"{a.name}: {a.type}" for a in args)
    result_types = ", ".join(str(r.type) for r in results)
    body = "\n".join(s.text for s in statements)
    ret = f"  func.return {', '.join(r.name for r in results)} : {result_types}"
    main = f"func.func @main({params}) -> ({result_types}) {{\n{body}\n{ret}\n}}\n"
    return "".join(h + "\n" for h in helpers) + main


@dataclass
class Scope:
    """The block being generated: @main's body or a region's."""

    indent: str
    pool: list[Value]
    depth: int = 0
    statements: list[Statement] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    # a computation the JIT inlines as scalar code (map): element-wise ops on rank-0 values only
    scalar_only: bool = False
    in_loop: bool = False  # inside a while body (at any depth)


_dims, _signature, _result_list = dims_text, signature, result_list


# --------------------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------------------


class ProgramGenerator(FamilyGenerators):
    """Builds one random program; see `generate_program`."""

    MAX_DEPTH = 2  # regions inside regions inside @main

    def __init__(self, seed: int, max_ops: int = 12, focus: str | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.max_ops = max_ops
        self.focus = focus
        self.counter = 0
        self.helpers: list[str] = []
        self.args: list[Value] = []
        self.tame_args: set[str] = set()
        self.replicas = 1
        self.extra_results: list[Value] = []  # returned, never used (rng_uniform, rng_normal)
        self.tuple_reads: list[Value] = []  # get_tuple_element results of @main
        self.forcing = False  # generating the focus op: generic generators pick it
        # the reasons to keep from XLA of what the regions built for the next op hold
        self.region_skip: frozenset[str] = frozenset()
        self.scope = Scope(indent="  ", pool=[])
        self.kinds: list[tuple[Callable[[], Value | None], int]] = [
            (self.gen_unary, 14), (self.gen_binary, 18), (self.gen_compare, 6), (self.gen_select, 4),
            (self.gen_clamp, 3), (self.gen_convert, 6), (self.gen_bitcast_convert, 3),
            (self.gen_reduce_precision, 2), (self.gen_broadcast_in_dim, 4), (self.gen_broadcast, 2),
            (self.gen_reshape, 4), (self.gen_collapse, 1), (self.gen_transpose, 3), (self.gen_reverse, 2),
            (self.gen_slice, 3), (self.gen_dynamic_slice, 3), (self.gen_dynamic_update_slice, 3),
            (self.gen_pad, 3), (self.gen_concatenate, 3), (self.gen_iota, 2), (self.gen_constant, 2),
            (self.gen_reduce, 5), (self.gen_argmax, 1), (self.gen_dot_general, 3), (self.gen_dot, 2), (self.gen_while, 2),
            (self.gen_conditional, 2), (self.gen_call, 2), (self.gen_tuple, 1),
            (self.gen_optimization_barrier, 1),
        ]  # fmt: skip
        self.kinds += [(getattr(self, name), weight) for name, weight in self.FAMILY_KINDS]
        scalar = {self.gen_unary, self.gen_binary, self.gen_compare, self.gen_select, self.gen_clamp,
                  self.gen_convert, self.gen_constant, self.gen_reduce_precision}  # fmt: skip
        self.scalar_kinds = [(kind, weight) for kind, weight in self.kinds if kind in scalar]

    # ---- plumbing --------------------------------------------------------------------

    def fresh(self, prefix: str = "%v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def emit(self, expr: str, types: Sequence[TensorT], operands: Sequence[Value], **flags) -> list[Value]:
        """Append `%r = expr` (or `%r:N = expr`) to the current block; the results inherit
        their operands' flags, updated by `flags`."""
        base = self.fresh()
        names = [base] if len(types) == 1 else [f"{base}#{i}" for i in range(len(types))]
        lhs = base if len(types) == 1 else f"{base}:{len(types)}"
        self.scope.statements.append(Statement(f"{self.scope.indent}{lhs} = {expr}", (base,), tuple(types)))
        inherited = merged_flags(operands)
        inherited["xla_skip"] = inherited["xla_skip"] | frozenset(flags.pop("xla_skip", ())) | self.region_skip
        self.region_skip = frozenset()
        if any(t.elem in XLA_ABORTS_ON for t in types):
            inherited["xla_skip"] |= {XLA_F6_ABORTS}
        if flags.get("bits_exact") is False and any(t.elem == "f8E8M0FNU" for t in types):
            inherited["xla_skip"] |= {XLA_E8M0_DENORMAL}
        if expr.startswith("xla.convert ") and any(t.elem == "f8E8M0FNU" for t in types):
            inherited["xla_skip"] |= {XLA_E8M0_CONVERT}
        approx = flags.pop("approx", False)
        approx_xla = flags.pop("approx_xla", False)
        # finite: True/False as given, "keep": what its operands are (data movement)
        finite = flags.pop("finite", False)
        finite = bool(operands) and all(v.finite for v in operands) if finite == "keep" else finite
        check = flags.pop("check", ())
        if "bits_exact" in flags:
            inherited["bits_exact"] = inherited["bits_exact"] and flags.pop("bits_exact")
        # explicit tolerances (a call's results take its returned values') count too
        inherited.update(flags)
        approx = approx or inherited["rtol"] > 0
        approx_xla = approx_xla or approx or inherited["rtol_xla"] > 0
        for v in operands:
            self.scope.used.add(v.name)
        values = [
            Value(n, t, **{**inherited, "rtol": tolerance(approx, inherited["rtol"], t),
                           "rtol_xla": tolerance(approx_xla, inherited["rtol_xla"], t)},
                  finite=finite and is_inexact(t.elem) or not is_inexact(t.elem), check=check)
            for n, t in zip(names, types)
        ]  # fmt: skip
        self.scope.pool.extend(values)
        return values

    def emit1(self, expr: str, t: TensorT, operands: Sequence[Value], **flags) -> Value:
        return self.emit(expr, [t], operands, **flags)[0]

    def defined_by(self, v: Value, op_name: str) -> bool:
        """Whether `v` is a result of an `op_name` op of the current block."""
        base = v.name.split("#")[0]
        return any(base in s.defines and f"= {op_name} " in s.text for s in self.scope.statements)

    def pick(self, accept: Callable[[Value], bool] = lambda v: True) -> Value | None:
        """A live value satisfying `accept`, preferring recent and unused ones."""
        scalar_only = self.scope.scalar_only
        candidates = [(i, v) for i, v in enumerate(self.scope.pool) if accept(v) and not (scalar_only and v.type.rank)]
        if not candidates:
            return None
        weights = [(1 + i) * (3 if v.name not in self.scope.used else 1) for i, v in candidates]
        return self.rng.choices([v for _, v in candidates], weights)[0]

    def random_elem(self, among: Sequence[str] = ELEMENTS) -> str:
        among = list(among)
        return self.rng.choices(among, [ELEMENT_WEIGHTS.get(e, 1) for e in among])[0]

    def random_shape(self, rank: int | None = None, allow_zero: bool = True) -> tuple[int, ...]:
        """Dimensions 1..5, rarely 0; sometimes one long dimension (vectorized loops
        and their remainders)."""
        if self.scope.scalar_only:
            return ()
        if rank is None:
            rank = self.rng.choices(range(5), [2, 3, 3, 2, 1])[0]
        shape = [0 if allow_zero and self.chance(0.03) else self.rng.randint(1, 5) for _ in range(rank)]
        if rank and rank <= 2 and self.chance(0.1):
            for d in self.rng.sample(range(rank), self.rng.randint(1, rank)):  # > 4 KiB: heap buffers
                shape[d] = self.rng.choice([8, 16, 17, 31, 64, 129])
        return tuple(shape)

    def value(self, accept: Callable[[Value], bool] = lambda v: True, elems: Sequence[str] = ELEMENTS) -> Value:
        """A value satisfying `accept`: from the pool, or converted from one, or new."""
        v = self.pick(accept) if self.chance(0.85) else None
        if v is not None:
            return v
        base = self.pick(lambda v: not v.approx)
        if base is not None:
            converted = self.convert(base, self.random_elem(elems))
            if accept(converted):
                return converted
        return self.constant(TensorT(self.random_shape(), self.random_elem(elems)))

    def value_of_type(self, t: TensorT, accept: Callable[[Value], bool] = lambda v: True) -> Value:
        """A value of exactly type t (from the pool, fitted from another value, or new)."""
        same = self.pick(lambda v: v.type == t and accept(v))
        if same is not None and self.chance(0.6):
            return same
        src = self.pick(lambda v: accept(v) and (v.elem == t.elem or not v.approx))
        if src is None or self.chance(0.1):
            return self.constant(t)
        return self.fit(src, t)

    # ---- making values fit -----------------------------------------------------------

    def convert(self, v: Value, elem: str) -> Value:
        if v.elem == elem:
            return v
        if v.approx and is_inexact(v.elem) and not is_inexact(elem):
            # rounding differences would turn into different integers: use a constant
            return self.constant(v.type.with_elem(elem))
        if is_complex(v.elem) and not is_complex(elem):  # no complex -> real convert: its real part
            part = self.rng.choice(["real", "imag"])
            v = self.emit1(f"xla.{part} {v.name} {_signature([v], [v.type.with_elem(part_elem(v.elem))])}",
                           v.type.with_elem(part_elem(v.elem)), [v], finite="keep")  # fmt: skip
            if v.elem == elem:
                return v
        t = v.type.with_elem(elem)
        flags: dict = {"bits_exact": not is_inexact(v.elem) or not is_inexact(elem)}
        if is_float(v.elem) and not is_inexact(elem):
            if elem != PRED:
                flags["xla_skip"] = {XLA_FLOAT_TO_INT}
            if v.approx_xla:
                flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_ROUNDING_OF_XLA_APPROX}
        if elem in HALF:
            flags["approx_xla"] = True  # XLA may drop a rounding to f16/bf16 between converts
        if v.elem == PRED and is_inexact(elem):
            flags["pred_valued"] = True
        return self.emit1(f"xla.convert {v.name} {_signature([v], [t])}", t, [v], **flags)

    def reshape(self, v: Value, shape: Sequence[int]) -> Value:
        shape = tuple(shape)
        if v.shape == shape:
            return v
        t = v.type.with_shape(shape)
        if v.type.rank > 1 and self.chance(0.2):
            order = list(range(v.type.rank))
            self.rng.shuffle(order)
            return self.emit1(f"xla.reshape {v.name}, dimensions = {_dims(order)} {_signature([v], [t])}", t, [v],
                              finite="keep")  # fmt: skip
        return self.emit1(f"xla.reshape {v.name} {_signature([v], [t])}", t, [v], finite="keep")

    def broadcast_in_dim(self, v: Value, shape: Sequence[int], dims: Sequence[int]) -> Value:
        t = v.type.with_shape(shape)
        expr = f"xla.broadcast_in_dim {v.name}, broadcast_dimensions = {_dims(dims)} {_signature([v], [t])}"
        return self.emit1(expr, t, [v], finite="keep")

    def slice(self, v: Value, start: Sequence[int], limit: Sequence[int], strides: Sequence[int]) -> Value:
        t = v.type.with_shape(slice_shape(v.shape, start, limit, strides))
        return self.emit1(
            f"xla.slice {v.name}, start_indices = {_dims(start)}, limit_indices = {_dims(limit)}, "
            f"strides = {_dims(strides)} {_signature([v], [t])}", t, [v], finite="keep",
        )  # fmt: skip

    def pad(
        self, v: Value, pad_value: Value, low: Sequence[int], high: Sequence[int], interior: Sequence[int]
    ) -> Value:
        t = v.type.with_shape(pad_shape(v.shape, low, high, interior))
        return self.emit1(
            f"xla.pad {v.name}, {pad_value.name}, edge_padding_low = {_dims(low)}, edge_padding_high = "
            f"{_dims(high)}, interior_padding = {_dims(interior)} {_signature([v, pad_value], [t])}",
            t, [v, pad_value], finite="keep",
        )  # fmt: skip

    def scalar_value(self, elem: str, accept: Callable[[Value], bool] = lambda v: True) -> Value:
        """A rank-0 value of `elem`."""
        if self.chance(0.5):
            v = self.pick(lambda v: v.type == scalar(elem) and accept(v))
            if v is not None:
                return v
        if self.chance(0.5):
            return self.constant(scalar(elem))
        return self.value_of_type(scalar(elem), accept)

    def fit(self, v: Value, t: TensorT) -> Value:
        """A value of type t computed from v."""
        v = self.convert(v, t.elem)
        if v.type == t:
            return v
        n, m = v.type.size, t.size
        if n == m and self.chance(0.8):
            return self.reshape(v, t.shape)
        dims = _in_dim_mapping(v.shape, t.shape)
        if dims is not None and self.chance(0.8):
            return self.broadcast_in_dim(v, t.shape, dims)
        if m == 0:
            return self.constant(t)
        if n == 0:  # nothing to take values from
            return self.iota_or_constant(t)
        flat = self.reshape(v, (n,))
        if n > m:
            start = self.rng.randint(0, n - m)
            stride = self.rng.choice([1, 1, 2]) if start + 2 * (m - 1) < n else 1
            flat = self.slice(flat, [start], [start + stride * (m - 1) + 1], [stride])
        elif n < m:
            if n == 1 and self.chance(0.5):
                flat = self.broadcast_in_dim(flat, (m,), [0])
            else:
                interior = self.rng.choice([0, 0, 1]) if n > 1 and n + (n - 1) <= m else 0
                grown = n + (n - 1) * interior
                low = self.rng.randint(0, m - grown)
                flat = self.pad(flat, self.scalar_value(t.elem, lambda u: not u.approx), [low], [m - grown - low],
                                [interior])  # fmt: skip
        return self.reshape(flat, t.shape)

    def iota_or_constant(self, t: TensorT) -> Value:
        if t.rank and t.elem != PRED and self.chance(0.5):
            return self.iota(t, self.rng.randrange(t.rank))
        return self.constant(t)

    # ---- leaves ----------------------------------------------------------------------

    def constant(self, t: TensorT, values=None) -> Value:
        """A constant of type t: `values` (a scalar makes a splat) or random ones."""
        if values is None:
            full = t.size > 0 and self.chance(0.6)
            values = random_values(self.np_rng, t if full else scalar(t.elem), special=0.1)
        finite = not is_inexact(t.elem) or bool(np.isfinite(np.asarray(values).astype(np.complex128)).all())
        return self.emit1(f"xla.constant {dense(t, values)} : {t}", t, [], finite=finite)

    def iota(self, t: TensorT, dim: int) -> Value:
        # a narrow float's iota rounds (and f8E8M0FNU has no zero: NaN): finite only for wider types
        finite = t.elem not in NARROW_FLOATS or max(t.shape, default=0) <= 4
        skip = {XLA_E8M0_IOTA} if t.elem == "f8E8M0FNU" else set()
        return self.emit1(f"xla.iota iota_dimension = {dim} : {t}", t, [], finite=finite and t.elem != "f8E8M0FNU",
                          xla_skip=skip)  # fmt: skip

    def gen_constant(self) -> Value:
        return self.constant(TensorT(self.random_shape(), self.random_elem()))

    def gen_iota(self) -> Value:
        shape = self.random_shape(self.rng.randint(1, 4))
        return self.iota(
            TensorT(shape, self.random_elem([e for e in ELEMENTS if e != PRED])), self.rng.randrange(len(shape))
        )

    # ---- element-wise ----------------------------------------------------------------

    def focus_op(self, table) -> str | None:
        """The focus op's short name, while generating it, if `table` has it."""
        name = (self.focus or "").removeprefix("xla.")
        return name if self.forcing and name in table else None

    def gen_unary(self) -> Value | None:
        op = self.focus_op(UNARY_ACCEPTS) or self.rng.choice(sorted(UNARY_ACCEPTS))
        accepts = [e for e in UNARY_ACCEPTS[op] if e in ELEMENTS]
        # a periodic function of an approximate value: the result's error is |x| times the
        # argument's (cos(cbrt(x)) with cbrt near 1e12: fuzz seeds 823976, 821040)
        sensitive = op in ROUNDING_SENSITIVE_UNARY or op in PERIODIC_UNARY
        x = self.value(lambda v: v.elem in accepts and not (sensitive and v.approx), accepts)
        result = x.type.with_elem(PRED) if op in UNARY_TO_PRED else x.type
        if op in ("abs", "real", "imag"):
            result = x.type.with_elem(part_elem(x.elem))
        flags: dict = {}
        if is_inexact(x.elem) and op not in ("abs", "negate", "real", "imag"):
            flags["bits_exact"] = False
        if op in TRANSCENDENTAL or (is_complex(x.elem) and op in COMPLEX_APPROX_UNARY):
            flags["approx"] = True
        if op in ("negate", "real", "imag"):
            flags["finite"] = "keep"
        if result.elem in HALF:
            flags["approx_xla"] = True
        if sensitive and x.approx_xla:
            flags["xla_skip"] = {XLA_ROUNDING_OF_XLA_APPROX}
        if op in PERIODIC_UNARY and x.approx_xla:
            flags["xla_skip"] = {XLA_PERIODIC_OF_XLA_APPROX}  # fuzz seed 9630542
        if op in ("sine", "cosine") and is_complex(x.elem):
            flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_COMPLEX_TRIG_OVERFLOW}
        if op.startswith("round_nearest") and x.elem == "f8E3M4" and not x.name.startswith("%arg"):
            flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_E3M4_ROUND_FOLDING}
        if op == "count_leading_zeros" and is_signed(x.elem) and x.elem != "i64":
            flags["xla_skip"] = {XLA_CLZ}
        return self.emit1(f"xla.{op} {x.name} {_signature([x], [result])}", result, [x], **flags)

    def broadcast_partner(self, lhs: Value, accept: Callable[[Value], bool]) -> tuple[Value, list[int] | None]:
        """A second operand for an element-wise op on lhs (same element type): the same
        shape, a scalar, a lower rank with broadcast_dimensions, or degenerate 1s."""
        t = lhs.type
        how = self.rng.choices(["same", "scalar", "in_dim", "degenerate"], [5, 2, 2, 1])[0]
        if how == "scalar" or t.rank == 0:
            return self.scalar_value(t.elem, accept), None
        if how == "in_dim":
            dims = sorted(self.rng.sample(range(t.rank), self.rng.randint(0, t.rank - 1)))
            if dims:
                shape = tuple(t.shape[d] if self.chance(0.8) else 1 for d in dims)
                return self.value_of_type(t.with_shape(shape), accept), dims
        if how == "degenerate":
            shape = tuple(1 if self.chance(0.4) else d for d in t.shape)
            return self.value_of_type(t.with_shape(shape), accept), None
        return self.value_of_type(t, accept), None

    def elementwise_pair(
        self, accepts: Sequence[str], sensitive: bool
    ) -> tuple[Value, Value, list[int] | None, tuple[int, ...]]:
        """Two operands of one element type among `accepts` and their result shape."""
        ok = lambda v: v.elem in accepts and not (sensitive and v.approx)
        lhs = self.value(ok, accepts)
        rhs, dims = self.broadcast_partner(lhs, ok)
        lhs_first = self.chance(0.7)
        a, b = (lhs, rhs) if lhs_first else (rhs, lhs)
        if dims is not None and self.chance(0.8) or (dims is None and a.type.rank == b.type.rank and self.chance(0.05)):
            dims = dims if dims is not None else list(range(a.type.rank))
        else:
            dims = None if dims is None or a.type.rank == 0 or b.type.rank == 0 else dims
        try:
            shape = broadcast_shapes(a.shape, b.shape, dims)
        except ShapeError:  # e.g. different ranks without dimensions: use the explicit form
            dims = _in_dim_mapping_sorted(min(a.shape, b.shape, key=len), max(a.shape, b.shape, key=len))
            shape = broadcast_shapes(a.shape, b.shape, dims)
        return a, b, dims, shape

    def gen_binary(self) -> Value:
        op = self.focus_op(BINARY_ACCEPTS) or self.rng.choice(sorted(BINARY_ACCEPTS))
        accepts = [e for e in BINARY_ACCEPTS[op] if e in ELEMENTS]
        # fmod jumps where the quotient crosses an integer, atan2 by 2 pi where y crosses 0
        # with x < 0 (a rounded -0 against a tiny y: fuzz seed 702225)
        sensitive = op in ("remainder", "atan2")
        a, b, dims, shape = self.elementwise_pair(accepts, sensitive)
        t = TensorT(shape, a.elem)
        flags: dict = {}
        if is_inexact(t.elem):
            flags["bits_exact"] = False
            if t.elem in HALF:
                flags["approx_xla"] = True
            if op in TRANSCENDENTAL or (is_complex(t.elem) and op in COMPLEX_APPROX_BINARY):
                flags["approx"] = True
            if op == "divide":
                flags["approx_xla"] = True  # x / c may become x * (1 / c) in XLA
            if op == "atan2":
                flags["xla_skip"] = {XLA_ATAN2_ZEROS}
            if op == "power" and is_complex(t.elem) and not (a.finite and b.finite):
                flags["xla_skip"] = {XLA_COMPLEX_POWER_OVERFLOW}
            if op in ("maximum", "minimum") and is_complex(t.elem):
                signed_zero = not (a.bits_exact and b.bits_exact)
                flags["xla_skip"] = {XLA_COMPLEX_MAX_SIGNED_ZERO if signed_zero else XLA_COMPLEX_MAX_REAL_TIE}
            if sensitive and (a.approx_xla or b.approx_xla):
                flags["xla_skip"] = {XLA_ROUNDING_OF_XLA_APPROX}
            if op == "divide" and a.pred_valued:
                flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_PRED_DIVISION}
        elif is_int(t.elem):
            if t.elem == "i2" and op in ("maximum", "minimum"):
                flags["xla_skip"] = {XLA_S2_MIN_MAX}
            if op in ("divide", "remainder"):
                flags["xla_skip"] = {XLA_INT_DIVISION}
            elif op in SHIFTS:
                flags["xla_skip"] = {XLA_SHIFT}
            elif op == "power":
                flags["xla_skip"] = {XLA_INT_POWER}
        elif op == "add":  # on PRED
            flags["xla_skip"] = {XLA_PRED_ADD}
        return self.binary(op, a, b, dims, t, **flags)

    def binary(self, op: str, a: Value, b: Value, dims: Sequence[int] | None, t: TensorT, **flags) -> Value:
        extra = f", broadcast_dimensions = {_dims(dims)}" if dims is not None else ""
        return self.emit1(f"xla.{op} {a.name}, {b.name}{extra} {_signature([a, b], [t])}", t, [a, b], **flags)

    def gen_compare(self) -> Value:
        a, b, dims, shape = self.elementwise_pair(ELEMENTS, sensitive=True)
        direction = self.rng.choice(DIRECTIONS)
        types = {"f": ["FLOAT", "TOTALORDER"], "i": ["SIGNED"], "u": ["UNSIGNED"], "b": ["UNSIGNED"]}
        kind = "f" if is_float(a.elem) else "u" if is_unsigned(a.elem) else "b" if a.elem == PRED else "i"
        if is_complex(a.elem):
            kind, direction = "c", self.rng.choice(["EQ", "NE"])
            types["c"] = ["FLOAT"]
        ctype = self.rng.choice([None, *types[kind]])
        flags: dict = {}
        if is_inexact(a.elem) and (a.approx_xla or b.approx_xla):
            flags["xla_skip"] = {XLA_ROUNDING_OF_XLA_APPROX}
        if ctype == "TOTALORDER" and not (a.bits_exact and b.bits_exact):
            # the order of -NaN/+NaN and -0/+0 follows bits that differ between backends
            a, b = self.bits_exact_operand(a), self.bits_exact_operand(b)
        if ctype == "TOTALORDER" and not (from_args(a) or from_args(b)):
            flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_TOTALORDER_FOLDING}
        t = TensorT(shape, PRED)
        attrs = f", comparison_direction = {direction}" + (f", compare_type = {ctype}" if ctype else "")
        extra = f", broadcast_dimensions = {_dims(dims)}" if dims is not None else ""
        return self.emit1(f"xla.compare {a.name}, {b.name}{attrs}{extra} {_signature([a, b], [t])}", t, [a, b], **flags)

    def bits_exact_operand(self, v: Value) -> Value:
        if v.bits_exact:
            return v
        return self.constant(v.type)

    def gen_select(self) -> Value:
        on_true = self.value()
        on_false = self.value_of_type(on_true.type)
        if on_true.type.rank and self.chance(0.6):
            pred = self.value_of_type(on_true.type.with_elem(PRED))
        else:
            pred = self.scalar_value(PRED)
        t = on_true.type
        return self.emit1(f"xla.select {pred.name}, {on_true.name}, {on_false.name} {_signature([pred, on_true, on_false], [t])}",
                          t, [pred, on_true, on_false], bits_exact=True, finite="keep")  # fmt: skip

    def gen_clamp(self) -> Value:
        """Clamp between ordered constant bounds, or any bounds (min > max included)."""
        accepts = [e for e in ELEMENTS if e != PRED and not is_complex(e)]
        x = self.value(lambda v: v.elem in accepts, accepts)
        flags: dict = {"bits_exact": not is_float(x.elem)}  # min/max of -0 and +0 may give either
        if self.chance(0.5):
            ends = sorted(random_values(self.np_rng, TensorT((2,), x.elem), special=0.0).tolist())
            lo, hi = (self.constant(scalar(x.elem), v) for v in ends)
        else:
            bounds = []
            for _ in range(2):
                bounds.append(
                    self.scalar_value(x.elem) if x.type.rank == 0 or self.chance(0.6) else self.value_of_type(x.type)
                )
            lo, hi = bounds
            flags["xla_skip"] = {XLA_CLAMP_ORDER}
        if x.elem == "i2":
            flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_S2_MIN_MAX}
        return self.emit1(f"xla.clamp {lo.name}, {x.name}, {hi.name} {_signature([lo, x, hi], [x.type])}",
                          x.type, [lo, x, hi], **flags)  # fmt: skip

    def gen_convert(self) -> Value:
        x = self.value()
        elem = self.random_elem([e for e in ELEMENTS if e != x.elem])
        return self.convert(x, elem)

    def gen_bitcast_convert(self) -> Value | None:
        """Bitcasts between types of one width, and sometimes of different widths (a
        minor dimension splits or joins the elements)."""
        kinds = [e for e in ELEMENTS if e != PRED and not is_complex(e)]
        x = self.value(lambda v: v.elem in kinds and not v.approx and (v.bits_exact or not is_float(v.elem)), kinds)
        if x.elem not in kinds or x.approx or (is_float(x.elem) and not x.bits_exact):
            return None
        w = bit_width(x.elem)
        same = [e for e in kinds if bit_width(e) == w and e != x.elem]
        narrower = [e for e in kinds if bit_width(e) < w and w % bit_width(e) == 0]
        wider = [e for e in kinds if bit_width(e) > w and bit_width(e) % w == 0 and x.shape
                 and x.shape[-1] == bit_width(e) // w]  # fmt: skip
        choices = same if not (narrower or wider) or self.chance(0.7) else narrower + wider
        if not choices:
            return None
        elem = self.rng.choice(choices)
        shape = bitcast_convert_shape(x.shape, w, bit_width(elem))
        t = TensorT(tuple(shape), elem)
        flags: dict = {}
        if is_float(x.elem) and x.approx_xla:
            flags["xla_skip"] = {XLA_ROUNDING_OF_XLA_APPROX}
        if is_float(elem):
            flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_DENORMALS}
        # XLA's folder also folds what its simplifier proves constant (x > x is false), not
        # only what depends on no argument: only a bitcast of an argument itself reaches
        # its runtime (fuzz seeds 100329, 800552)
        if min(w, bit_width(elem)) < 8 and w != bit_width(elem) and not x.name.startswith("%arg"):
            flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_SUB_BYTE_BITCAST_FOLDING}
        return self.emit1(f"xla.bitcast_convert {x.name} {_signature([x], [t])}", t, [x], bits_exact=True, **flags)

    def gen_reduce_precision(self) -> Value | None:
        x = self.value(lambda v: is_float(v.elem) and not v.approx, FLOATS)
        if x.approx or not is_float(x.elem):
            return None
        exponent, mantissa = self.rng.choice([(5, 10), (8, 7), (8, 23), (11, 52), (4, 3), (5, 2)])
        if self.chance(0.3):
            exponent, mantissa = self.rng.randint(1, 11), self.rng.randint(0, 24)
        flags: dict = {"bits_exact": False}
        if x.approx_xla:
            flags["xla_skip"] = {XLA_ROUNDING_OF_XLA_APPROX}
        if mantissa == 0:  # seed 9540001
            flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_REDUCE_PRECISION_NAN}
        return self.emit1(f"xla.reduce_precision {x.name}, exponent_bits = {exponent}, mantissa_bits = {mantissa} "
                          f": {x.type}", x.type, [x], **flags)  # fmt: skip

    # ---- shapes ----------------------------------------------------------------------

    def gen_broadcast_in_dim(self) -> Value | None:
        x = self.value(lambda v: v.type.rank <= 3)
        rank = self.rng.randint(x.type.rank, min(4, x.type.rank + 2))
        dims = self.rng.sample(range(rank), x.type.rank)
        if self.chance(0.6):
            dims.sort()
        shape = [self.rng.randint(1, 4) for _ in range(rank)]
        for i, d in enumerate(dims):
            shape[d] = x.shape[i] if x.shape[i] != 1 else self.rng.randint(1, 4)
        if num_elements(shape) > 1000:
            return None
        return self.broadcast_in_dim(x, shape, dims)

    def gen_broadcast(self) -> Value | None:
        x = self.value(lambda v: v.type.rank <= 3)
        sizes = [
            self.rng.randint(0 if self.chance(0.05) else 1, 3)
            for _ in range(self.rng.randint(0, 4 - min(x.type.rank, 4)))
        ]
        t = x.type.with_shape(broadcast_shape(x.shape, sizes))
        if t.size > 1000:
            return None
        return self.emit1(f"xla.broadcast {x.name}, broadcast_sizes = {_dims(sizes)} {_signature([x], [t])}", t, [x],
                          finite="keep")  # fmt: skip

    def gen_reshape(self) -> Value:
        x = self.value()
        return self.reshape(x, _random_factorization(self.rng, x.type.size))

    def gen_collapse(self) -> Value | None:
        x = self.value(lambda v: v.type.rank >= 1)
        if x.type.rank == 0:
            return None
        first = self.rng.randrange(x.type.rank)
        last = self.rng.randint(first, x.type.rank - 1)
        dims = list(range(first, last + 1)) if self.chance(0.95) else []
        t = x.type.with_shape(collapse_shape(x.shape, dims))
        return self.emit1(f"xla.collapse {x.name}, dimensions = {_dims(dims)} {_signature([x], [t])}", t, [x],
                          finite="keep")  # fmt: skip

    def gen_transpose(self) -> Value:
        x = self.value()
        perm = list(range(x.type.rank))
        self.rng.shuffle(perm)
        t = x.type.with_shape(transpose_shape(x.shape, perm))
        return self.emit1(f"xla.transpose {x.name}, permutation = {_dims(perm)} {_signature([x], [t])}", t, [x],
                          finite="keep")  # fmt: skip

    def gen_reverse(self) -> Value:
        x = self.value()
        dims = self.rng.sample(range(x.type.rank), self.rng.randint(0, x.type.rank))
        return self.emit1(f"xla.reverse {x.name}, dimensions = {_dims(dims)} : {x.type}", x.type, [x], finite="keep")

    def gen_slice(self) -> Value:
        """Mostly non-empty slices; sometimes empty ones (start = limit)."""
        x = self.value()
        avoid_empty = "empty_slice_lowering" in KNOWN_BUG_AVOIDANCE
        start, limit, strides = [], [], []
        for size in x.shape:
            empty = size == 0 or (self.chance(0.05) and not avoid_empty)
            s = self.rng.randint(0, size) if empty else self.rng.randint(0, size - 1)
            start.append(s)
            limit.append(s if empty else self.rng.randint(s + 1, size))
            strides.append(1 if size == 0 and avoid_empty else self.rng.choice([1, 1, 1, 2, 3]))
        return self.slice(x, start, limit, strides)

    def start_indices(self, count: int, sizes: Sequence[int]) -> tuple[list[Value], dict]:
        """Scalar start indices of one integer type: constants (some out of bounds,
        some at the type's limits) or live scalars; and the flags of the op using them."""
        elem = self.random_elem(ALL_INTS)
        low, high = int_range(elem)
        out, flags = [], {}
        for size in sizes[:count]:
            live = self.pick(lambda v: v.type == scalar(elem))
            if live is not None and self.chance(0.4):
                out.append(live)
                continue
            candidates = [0, 1, size - 1, size, size + 3, -1, -7, low, high]
            index = min(max(self.rng.choice(candidates), low), high)
            out.append(self.constant(scalar(elem), index))
            if is_unsigned(elem) and index >> (bit_width(elem) - 1):
                flags["xla_skip"] = {XLA_UNSIGNED_CONSTANT_INDEX}
        return out, flags

    def gen_dynamic_slice(self) -> Value:
        x = self.value()
        sizes = [self.rng.randint(0, d) if self.chance(0.1) else self.rng.randint(min(1, d), d) for d in x.shape]
        starts, flags = self.start_indices(x.type.rank, x.shape)
        t = x.type.with_shape(dynamic_slice_shape(x.shape, len(starts), sizes))
        operands = [x, *starts]
        names = ", ".join(v.name for v in operands)
        return self.emit1(f"xla.dynamic_slice {names}, slice_sizes = {_dims(sizes)} {_signature(operands, [t])}",
                          t, operands, finite="keep", **flags)  # fmt: skip

    def gen_dynamic_update_slice(self) -> Value:
        x = self.value()
        update_shape = tuple(self.rng.randint(0 if self.chance(0.1) else min(1, d), d) for d in x.shape)
        update = self.value_of_type(x.type.with_shape(update_shape))
        starts, flags = self.start_indices(x.type.rank, x.shape)
        if x.roots & update.roots:
            flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_DUS_ALIASING}
        operands = [x, update, *starts]
        names = ", ".join(v.name for v in operands)
        return self.emit1(f"xla.dynamic_update_slice {names} {_signature(operands, [x.type])}", x.type, operands,
                          finite="keep", **flags)  # fmt: skip

    def gen_pad(self) -> Value | None:
        x = self.value()
        pad_value = self.scalar_value(x.elem)
        for _ in range(10):
            low = [self.rng.randint(-min(size, 2), 3) for size in x.shape]
            high = [self.rng.randint(-min(size, 2), 3) for size in x.shape]
            interior = [self.rng.choice([0, 0, 1, 2]) for _ in x.shape]
            try:
                shape = pad_shape(x.shape, low, high, interior)
            except ShapeError:
                continue
            if num_elements(shape) <= 1000:
                return self.pad(x, pad_value, low, high, interior)
        return None

    def gen_concatenate(self) -> Value | None:
        first = self.value(lambda v: v.type.rank >= 1)
        if first.type.rank == 0:
            return None
        dim = self.rng.randrange(first.type.rank)
        inputs = [first]
        for _ in range(self.rng.randint(0, 2)):
            shape = list(first.shape)
            shape[dim] = self.rng.randint(0 if self.chance(0.1) else 1, 4)
            inputs.append(self.value_of_type(first.type.with_shape(shape)))
        self.rng.shuffle(inputs)
        t = first.type.with_shape(concatenate_shape([v.shape for v in inputs], dim))
        names = ", ".join(v.name for v in inputs)
        return self.emit1(f"xla.concatenate {names}, dimension = {dim} {_signature(inputs, [t])}", t, inputs,
                          finite="keep")  # fmt: skip

    # ---- reductions and dots ---------------------------------------------------------

    def gen_reduce(self) -> Value | None:
        x = self.value(lambda v: v.type.rank >= 1)
        if x.type.rank == 0:
            return None
        reducers = ["add", "multiply"]
        if not is_complex(x.elem):
            reducers += ["maximum", "minimum"] + (["and", "or"] if not is_float(x.elem) else [])
        op = self.rng.choice(reducers)
        dims = self.rng.sample(range(x.type.rank), self.rng.randint(1 if self.chance(0.9) else 0, x.type.rank))
        identity = self.chance(0.6)
        init = self.constant(scalar(x.elem), reducer_identity(op, x.elem)) if identity else self.scalar_value(x.elem)
        t = x.type.with_shape(tuple(d for i, d in enumerate(x.shape) if i not in dims))
        s = scalar(x.elem)

        def body(args: list[Value]) -> list[Value]:
            acc, el = args
            return [self.binary(op, acc, el, None, s)]

        region, _ = self.region([s, s], [{}, {}], body)
        flags: dict = {}
        if is_inexact(x.elem) and op in ("add", "multiply"):
            flags.update(approx=True, bits_exact=False, reordered=True)  # the JIT may reassociate
        if is_inexact(x.elem):
            flags["bits_exact"] = False
        if not identity:
            flags["xla_skip"] = {XLA_NON_IDENTITY_INIT}
        if x.elem == "i2" and op in ("maximum", "minimum"):
            flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_S2_MIN_MAX}
        return self.emit1(f"xla.reduce ({x.name}), ({init.name}), dimensions = {_dims(dims)} body {region} "
                          f"{_signature([x, init], [t])}", t, [x, init], **flags)  # fmt: skip

    def gen_argmax(self) -> Value | None:
        """A variadic reduce: the maximum of integers and its first index (ties go to the
        lower index, so the result does not depend on the reduction order)."""
        x = self.value(lambda v: v.type.rank >= 1 and v.elem in INTS, INTS)
        if x.type.rank == 0 or x.elem not in INTS:
            return None
        dim = self.rng.randrange(x.type.rank)
        index = self.iota(x.type.with_elem("i32"), dim)
        identity = self.chance(0.7)
        init_value = self.constant(scalar(x.elem), reducer_identity("maximum", x.elem) if identity else None)
        init_index = self.constant(scalar("i32"), int(np.iinfo(np.int32).max) if identity else None)
        s, si = scalar(x.elem), scalar("i32")

        def body(args: list[Value]) -> list[Value]:
            best, best_index, other, other_index = args
            pred = scalar(PRED)
            cmp = "xla.compare {}, {}, comparison_direction = {} : ({}, {}) -> tensor<i1>"
            gt = self.emit1(cmp.format(best.name, other.name, "GT", s, s), pred, [best, other])
            eq = self.emit1(cmp.format(best.name, other.name, "EQ", s, s), pred, [best, other])
            lt = self.emit1(
                cmp.format(best_index.name, other_index.name, "LT", si, si), pred, [best_index, other_index]
            )
            keep = self.binary("or", gt, self.binary("and", eq, lt, None, pred), None, pred)
            select = "xla.select {}, {}, {} : (tensor<i1>, {}, {}) -> {}"
            return [
                self.emit1(select.format(keep.name, best.name, other.name, s, s, s), s, [keep, best, other]),
                self.emit1(select.format(keep.name, best_index.name, other_index.name, si, si, si), si,
                           [keep, best_index, other_index]),
            ]  # fmt: skip

        region, _ = self.region([s, si, s, si], [{}] * 4, body)
        shape = tuple(d for i, d in enumerate(x.shape) if i != dim)
        types = [TensorT(shape, x.elem), TensorT(shape, "i32")]
        operands = [x, index, init_value, init_index]
        results = self.emit(
            f"xla.reduce ({x.name}, {index.name}), ({init_value.name}, {init_index.name}), dimensions = [{dim}] "
            f"body {region} {_signature(operands, types, compact=False)}", types, operands,
            xla_skip=() if identity else {XLA_NON_IDENTITY_INIT},
        )  # fmt: skip
        return results[self.rng.randrange(2)]

    def gen_dot_general(self) -> Value | None:
        elem = self.random_elem([e for e in ELEMENTS])
        # sizes past 4 sometimes: the JIT blocks matmul rows by 4 and vectorizes
        big = self.chance(0.2)
        batch = [self.rng.randint(1, 3) for _ in range(self.rng.choice([0, 0, 1, 2]))]
        contract = [self.rng.randint(0 if self.chance(0.05) else 1, 17 if big else 4)
                    for _ in range(self.rng.choice([0, 1, 1, 2]))]  # fmt: skip
        lhs_free = [self.rng.randint(1, 9 if big else 4) for _ in range(self.rng.choice([0, 1, 1, 2]))]
        rhs_free = [self.rng.randint(1, 9 if big else 4) for _ in range(self.rng.choice([0, 1, 1]))]
        lhs_layout = self.layout(len(batch), len(contract), len(lhs_free))
        rhs_layout = self.layout(len(batch), len(contract), len(rhs_free))
        lhs_shape, lb, lc = _place(lhs_layout, batch, contract, lhs_free)
        rhs_shape, rb, rc = _place(rhs_layout, batch, contract, rhs_free)
        shape = dot_general_shape(lhs_shape, rhs_shape, lb, rb, lc, rc)
        if (
            max(num_elements(shape), num_elements(lhs_shape), num_elements(rhs_shape)) > 4096
            or max(len(lhs_shape), len(rhs_shape)) > 4
        ):
            return None
        lhs = self.value_of_type(TensorT(lhs_shape, elem))
        rhs = self.value_of_type(TensorT(rhs_shape, elem))
        t = TensorT(shape, elem)
        attrs = (f"lhs_batching_dimensions = {_dims(lb)}, rhs_batching_dimensions = {_dims(rb)}, "
                 f"lhs_contracting_dimensions = {_dims(lc)}, rhs_contracting_dimensions = {_dims(rc)}")  # fmt: skip
        return self.emit1(f"xla.dot_general {lhs.name}, {rhs.name}, {attrs} {_signature([lhs, rhs], [t])}",
                          t, [lhs, rhs], **self.dot_flags(elem))  # fmt: skip

    def layout(self, n_batch: int, n_contract: int, n_free: int) -> list[str]:
        roles = ["b"] * n_batch + ["c"] * n_contract + ["f"] * n_free
        self.rng.shuffle(roles)
        return roles

    def dot_flags(self, elem: str) -> dict:
        """Of dots and convolutions."""
        if is_inexact(elem):
            return {"approx": True, "bits_exact": False, "reordered": True}
        if elem in ("i2", "ui2"):
            return {"xla_skip": {XLA_TWO_BIT_DOT}}
        return {}

    def gen_dot(self) -> Value:
        elem = self.random_elem()
        n = 9 if self.chance(0.2) else 4
        k = self.rng.randint(1, 2 * n)
        lhs_shape = self.rng.choice([(k,), (self.rng.randint(1, n), k)])
        rhs_shape = self.rng.choice([(k,), (k, self.rng.randint(1, n))])
        lhs = self.value_of_type(TensorT(lhs_shape, elem))
        rhs = self.value_of_type(TensorT(rhs_shape, elem))
        t = TensorT(dot_shape(lhs_shape, rhs_shape), elem)
        return self.emit1(f"xla.dot {lhs.name}, {rhs.name} {_signature([lhs, rhs], [t])}", t, [lhs, rhs],
                          **self.dot_flags(elem))  # fmt: skip

    # ---- regions and control flow ----------------------------------------------------

    def block(
        self,
        arg_types: Sequence[TensorT],
        arg_flags: Sequence[dict],
        build: Callable[[list[Value]], list[Value]],
        indent: str,
        scalar_only: bool = False,
        in_loop: bool = False,
    ) -> tuple[list[Value], Scope, list[Value]]:
        """Generate a block that sees only its arguments (computations are isolated from
        above): its arguments, its scope (statements) and what `build` returns."""
        outer = self.scope
        inner = Scope(indent=indent, pool=[], depth=outer.depth + 1, scalar_only=scalar_only,
                      in_loop=in_loop or outer.in_loop)  # fmt: skip
        names = [self.fresh("%a") for _ in arg_types]
        args = [
            Value(name, t, **{**flags, "roots": flags.get("roots", frozenset()) | {name}})
            for name, t, flags in zip(names, arg_types, arg_flags)
        ]
        inner.pool.extend(args)
        self.scope = inner
        saved, self.region_skip = self.region_skip, frozenset()
        try:
            returned = build(args)
        finally:
            self.scope = outer
            # XLA compiles the op holding this block whole, dead code of the block
            # included: what keeps any value of it from XLA keeps the op's results
            inner_skip = frozenset().union(*(v.xla_skip for v in inner.pool))
            self.region_skip = saved | self.region_skip | inner_skip
        return args, inner, returned

    def region(
        self,
        arg_types: Sequence[TensorT],
        arg_flags: Sequence[dict],
        build: Callable[[list[Value]], list[Value]],
        scalar_only: bool = False,
        in_loop: bool = False,
    ) -> tuple[str, list[Value]]:
        """The text of a single-block region (`{ ^bb0(...): ... xla.return ... }`) and the
        values it returns (`scalar_only`: a computation of element-wise ops on scalars)."""
        indent = self.scope.indent
        args, inner, returned = self.block(arg_types, arg_flags, build, indent + "  ", scalar_only, in_loop)
        header = f"{indent}^bb0({', '.join(f'{a.name}: {a.type}' for a in args)}):"
        ret = f"{inner.indent}xla.return {', '.join(r.name for r in returned)} : {', '.join(str(r.type) for r in returned)}"
        body = "\n".join([header, *(s.text for s in inner.statements), ret])
        return "{\n" + body + "\n" + indent + "}", returned

    def random_body(self, args: list[Value], result_types: Sequence[TensorT], ops: int) -> list[Value]:
        """A few random ops on the block's arguments, then one value per result type."""
        for _ in range(ops):
            self.step()
        out = []
        for t in result_types:
            src = self.pick(lambda v, t=t: v.type == t) if self.chance(0.7) else None
            out.append(src if src is not None else self.value_of_type(t))
        return out

    def with_fixpoint(self, state: Sequence[Value], make: Callable[[list[dict]], tuple]) -> tuple:
        """Generate a loop body until the flags of its block arguments cover those of
        what it returns (a later iteration sees the previous one's results)."""
        flags = [flag_dict(v) for v in state]
        snapshot = (self.counter, self.rng.getstate(), self.np_rng.bit_generator.state, len(self.helpers),
                    self.region_skip)  # fmt: skip
        for _ in range(4):
            self.counter, rng_state, np_state, n_helpers, self.region_skip = snapshot
            self.rng.setstate(rng_state)
            self.np_rng.bit_generator.state = np_state
            del self.helpers[n_helpers:]
            out = make(flags)
            returned = out[-1]
            widened = [union_flags(f, r) for f, r in zip(flags, returned)]
            if widened == flags:
                return out
            flags = widened
        return out

    def gen_while(self) -> Value | None:
        if self.scope.depth >= self.MAX_DEPTH:
            return None
        counter_elem = self.random_elem(INTS)
        start = self.constant(scalar(counter_elem), self.rng.randint(0, 2))
        limit = self.rng.randint(0, 4)
        carried = [self.value(lambda v: v.type.size <= 64) for _ in range(self.rng.randint(1, 2))]
        state = [start, *carried]
        types = [v.type for v in state]

        def make(flags: list[dict]):
            def cond(args: list[Value]) -> list[Value]:
                bound = self.constant(scalar(counter_elem), limit)
                lt = self.emit1(f"xla.compare {args[0].name}, {bound.name}, comparison_direction = LT "
                                f": ({args[0].type}, {bound.type}) -> tensor<i1>", scalar(PRED), [args[0], bound])  # fmt: skip
                return [lt]

            def body(args: list[Value]) -> list[Value]:
                one = self.constant(scalar(counter_elem), 1)
                nxt = self.binary("add", args[0], one, None, scalar(counter_elem))
                return [nxt, *self.random_body(args[1:], types[1:], self.rng.randint(1, 3))]

            cond_text, _ = self.region(types, flags, cond)
            body_text, returned = self.region(types, flags, body, in_loop=True)
            return cond_text, body_text, returned

        cond_text, body_text, returned = self.with_fixpoint(state, make)
        names = ", ".join(v.name for v in state)
        flags = merged_flags([*state, *returned])
        results = self.emit(f"xla.while {names} cond {cond_text} body {body_text} {_signature(state, types, compact=False)}",
                            types, state, **flags)  # fmt: skip
        return results[-1]

    def gen_conditional(self) -> Value | None:
        if self.scope.depth >= self.MAX_DEPTH:
            return None
        by_pred = self.chance(0.5)
        n_branches = 2 if by_pred else self.rng.randint(1, 3)
        if by_pred:
            index = self.scalar_value(PRED)
        else:
            index = self.constant(scalar("i32"), self.rng.choice([-1, 0, 1, 2, 3, 7]))
            if self.chance(0.3):
                live = self.pick(lambda v: v.type == scalar("i32"))
                index = live or index
        operands = [self.value(lambda v: v.type.size <= 64) for _ in range(n_branches)]
        result_types = [self.value().type for _ in range(self.rng.randint(1, 2))]
        branches, returned_all = [], []
        for operand in operands:
            text, returned = self.region(
                [operand.type], [flag_dict(operand)],
                lambda args: self.random_body(args, result_types, self.rng.randint(0, 3)),
            )  # fmt: skip
            branches.append(text)
            returned_all.extend(returned)
        all_operands = [index, *operands]
        names = ", ".join(v.name for v in all_operands)
        flags = merged_flags([index, *returned_all])
        results = self.emit(f"xla.conditional {names} branches({', '.join(branches)}) "
                            f"{_signature(all_operands, result_types, compact=False)}", result_types, all_operands, **flags)  # fmt: skip
        return results[0]

    def gen_call(self) -> Value | None:
        if self.scope.depth >= self.MAX_DEPTH:
            return None
        args = [self.value(lambda v: v.type.size <= 64) for _ in range(self.rng.randint(0, 2))]
        result_types = [self.value().type for _ in range(self.rng.randint(1, 2))]
        name = f"@f{self.fresh('')}"
        params, body, returned = self.block(
            [a.type for a in args], [flag_dict(a) for a in args],
            lambda block_args: self.random_body(block_args, result_types, self.rng.randint(1, 4)), "  ",
        )  # fmt: skip
        lines = [s.text for s in body.statements]
        lines.append(f"  func.return {', '.join(r.name for r in returned)} : {', '.join(map(str, result_types))}")
        signature = ", ".join(f"{p.name}: {p.type}" for p in params)
        self.helpers.append(
            f"func.func private {name}({signature}) -> ({', '.join(map(str, result_types))}) {{\n"
            + "\n".join(lines)
            + "\n}"
        )
        flags = merged_flags([*args, *returned])
        names = ", ".join(a.name for a in args)
        if self.chance(0.7) or self.focus == "xla.call":
            head = f"xla.call {names}, callee = {name}" if args else f"xla.call callee = {name}"
            expr = f"{head} {_signature(args, result_types, compact=False) if args else ': () -> ' + _result_list(result_types)}"
        else:
            expr = (
                f"func.call {name}({names}) : ({', '.join(str(a.type) for a in args)}) -> {_result_list(result_types)}"
            )
        results = self.emit(expr, result_types, args, **flags)
        return results[0]

    def gen_tuple(self) -> Value | None:
        elements = [self.value() for _ in range(self.rng.randint(1, 3))]
        if "narrow_tuple_widening" in KNOWN_BUG_AVOIDANCE and any(v.elem in NARROW_TYPES for v in elements):
            return None
        tuple_type = f"tuple<{', '.join(str(v.type) for v in elements)}>"
        names = ", ".join(v.name for v in elements)
        packed = self.fresh()
        self.scope.statements.append(Statement(
            f"{self.scope.indent}{packed} = xla.tuple {names} : ({', '.join(str(v.type) for v in elements)}) -> {tuple_type}",
            (packed,),
        ))  # fmt: skip
        for v in elements:
            self.scope.used.add(v.name)
        index = self.rng.randrange(len(elements))
        chosen = elements[index]
        # the element inherits only its own flags (the tuple carries them unchanged), but
        # XLA sees the whole tuple: what keeps one element from XLA keeps it too
        skip = frozenset().union(*(v.xla_skip for v in elements))
        read = self.emit1(f"xla.get_tuple_element {packed}, index = {index} : ({tuple_type}) -> {chosen.type}",
                          chosen.type, [chosen], xla_skip=skip)  # fmt: skip
        if self.scope.depth == 0:
            self.tuple_reads.append(read)
        return read

    def gen_optimization_barrier(self) -> Value:
        values = [self.value() for _ in range(self.rng.randint(1, 3))]
        names = ", ".join(v.name for v in values)
        types = [v.type for v in values]
        results = self.emit(f"xla.optimization_barrier {names} {_signature(values, types, compact=False)}", types, [])
        # each result is its operand: keep each one's own flags, but XLA compiles the
        # whole barrier, so what keeps one operand from XLA keeps every result (seed
        # 9610475: XLA's constant folder died of SIGFPE on a u16 remainder by zero
        # feeding the other operand of a result that was compared)
        skip = frozenset().union(*(v.xla_skip for v in values))
        fixed = [replace(r, **{**flag_dict(v), "xla_skip": skip}) for r, v in zip(results, values)]
        self.scope.pool[-len(results) :] = fixed
        for v in values:
            self.scope.used.add(v.name)
        return fixed[-1]

    # ---- the program -----------------------------------------------------------------

    def step(self) -> None:
        table = self.scalar_kinds if self.scope.scalar_only else self.kinds
        if self.replicas > 1 and not self.scope.scalar_only:  # collectives: what replicated programs are for
            table = [(kind, w * (5 if kind.__name__ in COLLECTIVE_GENERATORS else 1)) for kind, w in table]
        kinds, weights = zip(*table)
        for _ in range(20):
            kind = self.rng.choices(kinds, weights)[0]
            if kind() is not None:
                return

    def new_arg(self, t: TensorT, tame: bool = False) -> Value:
        """A new argument of @main (`tame`: its inputs hold no special values)."""
        name = f"%arg{len(self.args)}"
        flags = {"xla_skip": frozenset({XLA_F6_ABORTS})} if t.elem in XLA_ABORTS_ON else {}
        arg = Value(name, t, roots=frozenset({name}), finite=tame or not is_inexact(t.elem), **flags)
        self.args.append(arg)
        if tame:
            self.tame_args.add(name)
        return arg

    def generate(self) -> GeneratedProgram:
        focus = getattr(self, OP_GENERATORS[self.focus]) if self.focus in OP_GENERATORS else None
        if self.focus in COLLECTIVE_OPS or (self.focus is None and self.chance(REPLICATED_SHARE)):
            self.replicas = self.rng.choice([2, 2, 3, 4])
        self.scope = Scope(indent="  ", pool=[])
        for _ in range(self.rng.choices(range(5), [1, 4, 4, 3, 2])[0]):
            self.scope.pool.append(self.new_arg(TensorT(self.random_shape(), self.random_elem())))
        args = list(self.args)
        steps = self.rng.randint(1, self.max_ops)
        at = self.rng.randrange(steps) if focus else -1
        for k in range(steps):
            if k == at:
                self.forcing = True
                for _ in range(50):
                    if focus() is not None:
                        break
                self.forcing = False
            else:
                self.step()
        computed = [v for v in self.scope.pool if v not in args]
        sinks = [v for v in computed if v.name not in self.scope.used]
        results = (sinks[-6:] or computed[-1:] or args[:1]) + self.extra_results[-2:]
        if "unused_tuple_not_lowered" in KNOWN_BUG_AVOIDANCE:  # a dead read would leave its tuple unused
            results += [v for v in self.tuple_reads if v in sinks and v not in results]
        if not results:  # no arguments and nothing computed
            results = [self.constant(scalar("f32"))]
        return GeneratedProgram(self.seed, self.args, self.scope.statements, results, self.helpers, self.replicas,
                                frozenset(self.tame_args))  # fmt: skip


def generate_program(seed: int, max_ops: int = 12, focus: str | None = None) -> GeneratedProgram:
    """The random program of `seed` (deterministic); `focus`: an op name (`xla.sort`)
    the program then holds at least once (when the op can be generated at all)."""
    return ProgramGenerator(seed, max_ops, focus).generate()


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def _in_dim_mapping(operand: Sequence[int], result: Sequence[int]) -> list[int] | None:
    """Increasing result dimensions for broadcast_in_dim of `operand` to `result`
    (each operand dimension 1 or equal to its result dimension), or None."""
    return _in_dim_mapping_sorted(operand, result)


def _in_dim_mapping_sorted(operand: Sequence[int], result: Sequence[int]) -> list[int] | None:
    dims, j = [], 0
    for size in operand:
        while j < len(result) and not (size == result[j] or size == 1):
            j += 1
        if j == len(result):
            return None
        dims.append(j)
        j += 1
    return dims if len(operand) <= len(result) else None


def _random_factorization(rng: random.Random, n: int) -> tuple[int, ...]:
    """A random shape of rank 0..4 with n elements."""
    if n == 0:
        rank = rng.randint(1, 3)
        shape = [rng.randint(1, 4) for _ in range(rank)]
        shape[rng.randrange(rank)] = 0
        return tuple(shape)
    factors = []
    m = n
    for p in range(2, m + 1):
        while m % p == 0:
            factors.append(p)
            m //= p
        if m == 1:
            break
    rank = rng.randint(1 if n > 1 else 0, 4)
    if rank == 0:
        return ()
    shape = [1] * rank
    for f in factors:
        shape[rng.randrange(rank)] *= f
    return tuple(shape)


def _place(roles: Sequence[str], batch: Sequence[int], contract: Sequence[int], free: Sequence[int]):
    """The shape of a dot_general operand whose dimensions play `roles` (b/c/f, in
    order of appearance), with its batching and contracting dimension numbers."""
    shape, b_dims, c_dims = [], [0] * len(batch), [0] * len(contract)
    counters = {"b": 0, "c": 0, "f": 0}
    for position, role in enumerate(roles):
        i = counters[role]
        counters[role] += 1
        if role == "b":
            shape.append(batch[i])
            b_dims[i] = position
        elif role == "c":
            shape.append(contract[i])
            c_dims[i] = position
        else:
            shape.append(free[i])
    return tuple(shape), b_dims, c_dims
