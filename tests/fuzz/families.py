"""The program generator's op families beyond the element-wise, shape, reduce, dot and
control-flow ops of `program_gen`: convolution, reduce_window, select_and_scatter,
sort, gather, scatter, fft, cholesky, triangular_solve, the rng ops, the batch norms,
map, the dimension sizes and the collectives (on N replicas).

`FamilyGenerators` is a mixin of `program_gen.ProgramGenerator`: each `gen_<op>` adds
one op (with what it needs to be well defined) to the current block and returns a
value, or None when it cannot here. Results take the rounding tolerance their
computation needs: sums over windows and FFTs are reassociated (`reordered`),
factorizations get their type's tolerance times a condition margin. Where the spec
leaves a result open (the unused triangle of a Cholesky factor, the order of equal
keys in an unstable sort, the values of rng_uniform), the generator only produces
what is determined: it masks the triangle, sorts by comparators that order every
element, and compares rng values by their range.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from xla_opt.dialects.shapes.common import ShapeError, num_elements
from xla_opt.dialects.shapes.gather_scatter import gather_shape
from xla_opt.dialects.shapes.linear_algebra import ConvDimensionNumbers, convolution_shape, fft_shape
from xla_opt.dialects.shapes.reductions import reduce_window_shape

from tests.fuzz import KNOWN_BUG_AVOIDANCE
from tests.fuzz.values import (
    ALL_INTS,
    ELEMENTS,
    INTS,
    NARROW_FLOATS,
    NARROW_INTS,
    PRED,
    RTOL,
    STD_FLOATS,
    XLA_FFT_GATHER_LAYOUT,
    XLA_RNG_HALF_REACHES_B,
    XLA_S2_MIN_MAX,
    XLA_TWO_BIT_SORT,
    XLA_UNSIGNED_CONSTANT_INDEX,
    TensorT,
    Value,
    bit_width,
    complex_of,
    dense,
    dims_text,
    flag_dict,
    float_info,
    from_args,
    has_negative,
    int_range,
    is_complex,
    is_float,
    is_inexact,
    is_int,
    is_unsigned,
    literal,
    merged_flags,
    part_elem,
    random_values,
    reducer_identity,
    scalar,
    signature,
)

# The collectives: generated only in programs of several replicas (replica_id in any).
COLLECTIVE_OPS = frozenset({
    "xla.all_reduce", "xla.all_gather", "xla.reduce_scatter", "xla.all_to_all", "xla.collective_permute",
})  # fmt: skip
# The share of programs that run on several replicas (then collectives are generated).
REPLICATED_SHARE = 0.12
# Factorizations and solves: their type's tolerance times this (a condition number the
# generated matrices stay under).
CONDITION_MARGIN = 20.0

XLA_COLLECTIVE_REDUCTION = (
    "all_reduce/reduce_scatter computing and/or/xor of integers or xor of PRED: XLA's CPU collectives implement sum, "
    "product, min and max only (UNIMPLEMENTED: Unsupported reduction computation)"
)
XLA_RNG_TYPES = "rng_uniform of 2- to 16-bit integers: XLA's RngExpander aborts (Check failed: F16 || BF16)"
XLA_COMPLEX_CONSTANT_REDUCTION = (
    "all_reduce/reduce_scatter of a complex constant: XLA aborts the process (shape.h: Check failed: buffer != "
    "nullptr), folding it"
)
XLA_EMPTY_SELECT_AND_SCATTER_FOLDING = (
    "select_and_scatter of constants with no window (an empty source): XLA's constant folder writes the operand's "
    "value at index 0 instead of the init value (its runtime, on arguments, is right)"
)
XLA_EMPTY_COLLECTIVE_DIMENSION = (
    "all_gather of a zero-size all_gather_dim, reduce_scatter to a zero-size scatter_dimension: StableHLO's verifier "
    "(JAX's MLIR) rejects them; the xla dialect, and both our backends, take them"
)
XLA_TWO_BIT_COLLECTIVE = (
    "collectives of 2-bit integers: XLA corrupts the heap (a collective_permute of 32 or more u2/s2 elements: "
    "double free or corruption)"
)
XLA_SELECT_TIES = (
    "select_and_scatter over equal elements: which one a window selects follows the order the select is applied in, "
    "which the spec leaves open (XLA and we pick different ones; our two backends agree)"
)
XLA_INT_CONVOLUTION_FOLDING = (
    "integer convolution not of small arguments: XLA's constant folder saturates sums that overflow (i32 max + max + "
    "3 -> max), its runtime wraps them as the spec and we do, and it folds more than what depends on no argument"
)
XLA_COLLECTIVE_MIN_MAX_NAN = (
    "all_reduce/reduce_scatter taking the maximum or minimum of floats that may be NaN: XLA's CPU collectives "
    "drop NaN (min(0, NaN) = 0); the spec's maximum and minimum propagate it"
)
XLA_DYNAMIC_SHAPE = (
    "set_dimension_size: a dynamic size of a static shape has no StableHLO export for one device (a located "
    "error), so XLA never sees it"
)
XLA_MIXED_PRECISION = (
    "an op over floats of different precisions (variadic scatter, reduce_window, sort, map): XLA's HLO verifier "
    "rejects it (Seen floating point types of different precisions)"
)
XLA_SCATTER_ALIASED_INPUTS = (
    "variadic scatter whose inputs may be one buffer (one value, or equal values XLA's CSE merges): XLA updates "
    "the shared buffer for every result (inputs (%a, %a) updated with (%u, %w) give [u, a] twice)"
)

REDUCERS = ("add", "multiply", "maximum", "minimum", "and", "or", "xor")


def reducers_for(elem: str) -> list[str]:
    """The commutative, associative computations `elem` has (on ints exactly)."""
    if elem == PRED:
        return ["and", "or", "xor", "maximum", "minimum"]
    if is_complex(elem):
        return ["add", "multiply"]
    if is_float(elem):
        return ["add", "multiply", "maximum", "minimum"]
    return ["add", "multiply", "maximum", "minimum", "and", "or", "xor"]


def mixed_precision(elems: Sequence[str]) -> bool:
    return len({e for e in elems if is_inexact(e)}) > 1


def _roles(roles: Sequence, rng) -> list:
    out = list(roles)
    rng.shuffle(out)
    return out


def _matrix(rows: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join(dims_text(r) for r in rows) + "]"


class FamilyGenerators:
    """Mixin: the generators of the op families listed in the module docstring (see
    `ProgramGenerator` for the plumbing they use: emit, value, region...)."""

    # ---- operands that keep an op well defined -------------------------------------

    def tame_value(self, t: TensorT) -> Value:
        """A value of type t with small, finite elements: a new tame argument of @main
        (at the top level) or a tame constant."""
        if self.scope.depth == 0 and self.chance(0.6):
            arg = self.new_arg(t, tame=True)
            self.scope.pool.append(arg)
            return arg
        values = random_values(self.np_rng, t, tame=True)
        return self.emit1(f"xla.constant {dense(t, values)} : {t}", t, [], finite=True)

    def finite_value(self, t: TensorT) -> Value:
        """A finite value of type t: a live one or a tame one."""
        live = self.pick(lambda v: v.type == t and v.finite and not v.approx)
        if live is not None and self.chance(0.5):
            return live
        return self.tame_value(t)

    def hide(self, v: Value) -> None:
        """Keep `v` out of the pool (a value the spec leaves partly undefined)."""
        self.scope.pool.remove(v)
        self.scope.used.add(v.name)

    def unary(self, op: str, x: Value, result: TensorT | None = None, **flags) -> Value:
        t = result or x.type
        return self.emit1(f"xla.{op} {x.name} {signature([x], [t])}", t, [x], **flags)

    def compare(self, a: Value, b: Value, direction: str, ctype: str | None = None) -> Value:
        attrs = f", comparison_direction = {direction}" + (f", compare_type = {ctype}" if ctype else "")
        t = a.type.with_elem(PRED)
        return self.emit1(f"xla.compare {a.name}, {b.name}{attrs} {signature([a, b], [t])}", t, [a, b])

    def splat(self, t: TensorT, value) -> Value:
        return self.emit1(f"xla.constant {dense(t, value)} : {t}", t, [], finite=bool(np.isfinite(value)))

    def reducer_region(self, ops: Sequence[str], elems: Sequence[str]) -> str:
        """A computation of 2N scalars (accumulators, then elements) -> N scalars, the
        i-th combined by ops[i]."""
        scalars = [scalar(e) for e in elems]

        def body(args: list[Value]) -> list[Value]:
            n = len(ops)
            return [self.binary(op, args[i], args[n + i], None, scalars[i]) for i, op in enumerate(ops)]

        region, _ = self.region(scalars * 2, [{}] * (2 * len(scalars)), body)
        return region

    def identity_matrix(self, batch: Sequence[int], n: int, elem: str, scale: float = 1.0) -> Value:
        """scale * I of shape [*batch, n, n] (iota == iota, selected)."""
        shape = (*batch, n, n)
        rows = self.iota(TensorT(shape, "i32"), len(batch))
        cols = self.iota(TensorT(shape, "i32"), len(batch) + 1)
        diag = self.compare(rows, cols, "EQ")
        t = TensorT(shape, elem)
        return self.emit1(
            f"xla.select {diag.name}, {self.splat(t, scale).name}, {self.splat(t, 0).name} "
            f": ({diag.type}, {t}, {t}) -> {t}", t, [diag], finite=True,
        )  # fmt: skip

    def triangle_mask(self, shape: Sequence[int], lower: bool, strict: bool = False) -> Value:
        """PRED [*shape]: true in the lower (upper) triangle of the two minor dimensions."""
        rank = len(shape)
        rows = self.iota(TensorT(tuple(shape), "i32"), rank - 2)
        cols = self.iota(TensorT(tuple(shape), "i32"), rank - 1)
        direction = ("GT" if strict else "GE") if lower else ("LT" if strict else "LE")
        return self.compare(rows, cols, direction)

    def masked(self, mask: Value, x: Value) -> Value:
        zero = self.splat(x.type, 0)
        return self.emit1(
            f"xla.select {mask.name}, {x.name}, {zero.name} : ({mask.type}, {x.type}, {x.type}) -> {x.type}",
            x.type, [mask, x, zero], bits_exact=True,
        )  # fmt: skip

    def matmul_t(self, a: Value, b: Value, batch: int) -> Value:
        """a @ b^T over the two minor dimensions (batch dimensions in front)."""
        dims = list(range(batch))
        rank = a.type.rank
        t = a.type.with_shape((*a.shape[:batch], a.shape[-2], b.shape[-2]))
        attrs = (f"lhs_batching_dimensions = {dims_text(dims)}, rhs_batching_dimensions = {dims_text(dims)}, "
                 f"lhs_contracting_dimensions = [{rank - 1}], rhs_contracting_dimensions = [{rank - 1}]")  # fmt: skip
        return self.emit1(f"xla.dot_general {a.name}, {b.name}, {attrs} {signature([a, b], [t])}", t, [a, b],
                          **self.dot_flags(a.elem))  # fmt: skip

    # ---- convolution -----------------------------------------------------------------

    def gen_convolution(self) -> Value | None:
        """Any number of spatial dimensions (0 to 3), any dimension layout, feature or
        batch groups, strides, lhs and rhs dilations, padding (negative too)."""
        elem = self.random_elem([e for e in ELEMENTS if e != PRED])
        n = self.rng.choices([0, 1, 2, 3], [1, 4, 4, 1])[0]
        fg = bg = 1
        groups = self.rng.random()
        if groups < 0.25:
            fg = self.rng.choice([2, 3])
        elif groups < 0.4:
            bg = self.rng.choice([2, 3])
        batch = self.rng.randint(1, 2) * bg
        kernel_in = self.rng.randint(1, 3)
        out_features = self.rng.randint(1, 2) * fg * bg
        spatial = [self.rng.randint(1, 7) for _ in range(n)]
        window = [self.rng.randint(1, 3) for _ in range(n)]
        strides = [self.rng.choice([1, 1, 2, 3]) for _ in range(n)] if self.chance(0.5) else None
        lhs_dilation = [self.rng.choice([1, 1, 2]) for _ in range(n)] if self.chance(0.25) else None
        rhs_dilation = [self.rng.choice([1, 1, 2]) for _ in range(n)] if self.chance(0.25) else None
        padding = None
        if self.chance(0.5):
            padding = [[self.rng.randint(-1 if self.chance(0.2) else 0, 2) for _ in range(2)] for _ in range(n)]
        in_layout = _roles(["b", "f", *range(n)], self.rng)
        k_layout = _roles(["i", "o", *range(n)], self.rng)
        out_layout = _roles(["b", "f", *range(n)], self.rng)
        if self.chance(0.5):  # the common layouts (NCHW/OIHW, NHWC/HWIO) more often than chance
            in_layout = ["b", "f", *range(n)] if self.chance(0.5) else ["b", *range(n), "f"]
            out_layout = list(in_layout)
            k_layout = ["o", "i", *range(n)] if in_layout[1] == "f" else [*range(n), "i", "o"]
        sizes_in = {"b": batch, "f": kernel_in * fg, **dict(enumerate(spatial))}
        sizes_k = {"i": kernel_in, "o": out_features, **dict(enumerate(window))}
        lhs_shape = tuple(sizes_in[r] for r in in_layout)
        rhs_shape = tuple(sizes_k[r] for r in k_layout)
        dims = ConvDimensionNumbers(
            input_batch=in_layout.index("b"), input_feature=in_layout.index("f"),
            input_spatial=tuple(in_layout.index(i) for i in range(n)),
            kernel_input_feature=k_layout.index("i"), kernel_output_feature=k_layout.index("o"),
            kernel_spatial=tuple(k_layout.index(i) for i in range(n)),
            output_batch=out_layout.index("b"), output_feature=out_layout.index("f"),
            output_spatial=tuple(out_layout.index(i) for i in range(n)),
        )  # fmt: skip
        try:
            shape = convolution_shape(lhs_shape, rhs_shape, dims, strides, padding, lhs_dilation, rhs_dilation, fg, bg)
        except ShapeError:
            return None
        if num_elements(shape) * max(num_elements(window), 1) * kernel_in > 20_000:
            return None
        attrs = []
        for name, value in (("window_strides", strides), ("padding", padding), ("lhs_dilation", lhs_dilation),
                            ("rhs_dilation", rhs_dilation)):  # fmt: skip
            if value is not None and n:
                attrs.append(f"{name} = {_matrix(value) if name == 'padding' else dims_text(value)}")
        attrs += [
            f"input_batch_dimension = {dims.input_batch}", f"input_feature_dimension = {dims.input_feature}",
            f"input_spatial_dimensions = {dims_text(dims.input_spatial)}",
            f"kernel_input_feature_dimension = {dims.kernel_input_feature}",
            f"kernel_output_feature_dimension = {dims.kernel_output_feature}",
            f"kernel_spatial_dimensions = {dims_text(dims.kernel_spatial)}",
            f"output_batch_dimension = {dims.output_batch}", f"output_feature_dimension = {dims.output_feature}",
            f"output_spatial_dimensions = {dims_text(dims.output_spatial)}",
        ]  # fmt: skip
        if fg > 1 or self.chance(0.1):
            attrs.append(f"feature_group_count = {fg}")
        if bg > 1 or self.chance(0.1):
            attrs.append(f"batch_group_count = {bg}")
        # integers: XLA's constant folder saturates where its runtime wraps, and it folds
        # more than what depends on no argument (a loop's counter): XLA sees integer
        # convolutions of arguments, small ones, only (fuzz seeds 201023, 202332)
        plain = is_int(elem) and self.scope.depth == 0 and self.chance(0.5)
        lhs = (
            self.new_arg(TensorT(lhs_shape, elem), tame=True) if plain else self.value_of_type(TensorT(lhs_shape, elem))
        )
        rhs = (
            self.new_arg(TensorT(rhs_shape, elem), tame=True) if plain else self.value_of_type(TensorT(rhs_shape, elem))
        )
        t = TensorT(tuple(shape), elem)
        flags = self.dot_flags(elem)
        if is_int(elem) and not plain:
            flags["xla_skip"] = {*flags.get("xla_skip", ()), XLA_INT_CONVOLUTION_FOLDING}
        return self.emit1(f"xla.convolution {lhs.name}, {rhs.name}, {', '.join(attrs)} {signature([lhs, rhs], [t])}",
                          t, [lhs, rhs], **flags)  # fmt: skip

    # ---- windows ---------------------------------------------------------------------

    @staticmethod
    def distinct_fits(t: TensorT) -> bool:
        """Whether t's element type holds t.size distinct small integers exactly."""
        if is_float(t.elem):  # (f8E8M0FNU has powers of two only)
            fits = t.size <= 2 ** (float_info(t.elem).nmant + 1) and float_info(t.elem).max >= t.size
            return fits and t.elem != "f8E8M0FNU"
        return is_int(t.elem) and int_range(t.elem)[1] - int_range(t.elem)[0] + 1 >= t.size

    def window(self, shape: Sequence[int], negative_padding: bool = True) -> dict:
        """Window dimensions, strides, dilations and padding over `shape` (each part
        sometimes absent: the spec's default)."""
        rank = len(shape)
        w = {"window_dimensions": [self.rng.randint(1, min(max(d, 1), 3) + (1 if self.chance(0.1) else 0))
                                   for d in shape]}  # fmt: skip
        if self.chance(0.5):
            w["window_strides"] = [self.rng.choice([1, 1, 2, 3]) for _ in range(rank)]
        if negative_padding and self.chance(0.2):
            w["base_dilations"] = [self.rng.choice([1, 1, 2]) for _ in range(rank)]
        if negative_padding and self.chance(0.2):
            w["window_dilations"] = [self.rng.choice([1, 1, 2]) for _ in range(rank)]
        if self.chance(0.5):
            low = -1 if negative_padding and self.chance(0.15) else 0
            w["padding"] = [[self.rng.randint(low, 2), self.rng.randint(low, 2)] for _ in range(rank)]
        return w

    @staticmethod
    def window_attrs(w: dict) -> str:
        return ", ".join(f"{k} = {_matrix(v) if k == 'padding' else dims_text(v)}" for k, v in w.items())

    def gen_reduce_window(self) -> Value | None:
        """One or two inputs, each reduced by its own commutative computation."""
        x = self.value(lambda v: 1 <= v.type.rank <= 3 and v.type.size <= 512)
        if x.type.rank == 0 and not self.chance(0.1):
            return None
        inputs = [x]
        if self.chance(0.3):
            other = self.value(lambda v: v.shape == x.shape)
            inputs.append(other if other.shape == x.shape else self.value_of_type(x.type.with_elem(other.elem)))
        w = self.window(x.shape)
        try:
            shape = reduce_window_shape(x.shape, w["window_dimensions"], w.get("window_strides"),
                                        w.get("base_dilations"), w.get("window_dilations"), w.get("padding"))  # fmt: skip
        except ShapeError:
            return None
        if num_elements(shape) * num_elements(w["window_dimensions"]) > 20_000:
            return None
        ops = [self.rng.choice(reducers_for(v.elem)) for v in inputs]
        identity = self.chance(0.7)
        inits = [self.constant(scalar(v.elem), reducer_identity(op, v.elem)) if identity else self.scalar_value(v.elem)
                 for v, op in zip(inputs, ops)]  # fmt: skip
        region = self.reducer_region(ops, [v.elem for v in inputs])
        types = [TensorT(tuple(shape), v.elem) for v in inputs]
        flags: dict = {}
        if any(is_inexact(v.elem) and op in ("add", "multiply") for v, op in zip(inputs, ops)):
            flags.update(approx=True, reordered=True)  # the JIT may reassociate
        if any(is_inexact(v.elem) for v in inputs):
            flags["bits_exact"] = False
        flags["xla_skip"] = set()
        if not identity:
            flags["xla_skip"] |= {"reduce with a non-identity init value (XLA may apply the init value more than once)"}
        if mixed_precision([v.elem for v in inputs]):
            flags["xla_skip"] |= {XLA_MIXED_PRECISION}
        if any(v.elem == "i2" and op in ("maximum", "minimum") for v, op in zip(inputs, ops)):
            flags["xla_skip"] |= {XLA_S2_MIN_MAX}
        names = ", ".join(v.name for v in inputs)
        operands = [*inputs, *inits]
        results = self.emit(
            f"xla.reduce_window ({names}), ({', '.join(v.name for v in inits)}), {self.window_attrs(w)} "
            f"body {region} {signature(operands, types, compact=False)}", types, operands, **flags,
        )  # fmt: skip
        return self.rng.choice(results)

    def gen_select_and_scatter(self) -> Value | None:
        """The select picks the first greatest (GE) or least (LE) element of each window;
        the source values of overlapping windows are combined by the scatter computation."""
        accepts = [e for e in ELEMENTS if not is_complex(e) and e != PRED]
        x = self.value(lambda v: v.elem in accepts and 1 <= v.type.rank <= 3 and v.type.size <= 256, accepts)
        if x.elem not in accepts or x.type.rank == 0:
            return None
        w = self.window(x.shape, negative_padding=False)
        try:
            source_shape = reduce_window_shape(x.shape, w["window_dimensions"], w.get("window_strides"),
                                               padding=w.get("padding"))  # fmt: skip
        except ShapeError:
            return None
        if x.approx:  # the selection compares values that may differ by rounding
            x = self.bits_exact_operand(x)
        distinct = self.chance(0.5) and self.distinct_fits(x.type)
        if distinct:  # no ties: every window selects one element on every implementation
            values = self.np_rng.permutation(x.type.size).reshape(x.shape) - x.type.size // 2
            if is_unsigned(x.elem) or not has_negative(x.elem):
                values = values + x.type.size // 2
            x = self.emit1(f"xla.constant {dense(x.type, values)} : {x.type}", x.type, [], finite=True)
        source = self.value_of_type(TensorT(tuple(source_shape), x.elem))
        op = self.rng.choice(reducers_for(x.elem))
        init = self.constant(scalar(x.elem), reducer_identity(op, x.elem)) if self.chance(0.7) else \
            self.scalar_value(x.elem)  # fmt: skip
        s = scalar(x.elem)
        direction = self.rng.choice(["GE", "LE", "GT"])
        ctype = "TOTALORDER" if is_float(x.elem) and (self.chance(0.5) or not x.bits_exact) else None
        if ctype == "TOTALORDER" and not x.bits_exact:
            x = self.bits_exact_operand(x)

        def select(args: list[Value]) -> list[Value]:
            return [self.compare(args[0], args[1], direction, ctype)]

        select_region, _ = self.region([s, s], [{}, {}], select)
        scatter_region = self.reducer_region([op], [x.elem])
        attrs = {k: v for k, v in w.items() if k in ("window_dimensions", "window_strides", "padding")}
        flags: dict = {"bits_exact": not is_float(x.elem)}
        if is_float(x.elem) and op in ("add", "multiply"):
            flags.update(approx=True, reordered=True)
        flags["xla_skip"] = set()
        if is_float(x.elem) and x.approx_xla:
            flags["xla_skip"].add("select_and_scatter of values XLA rounds differently: it may select another element")
        # (an empty source is a constant to XLA, whatever computed it: fuzz seed 809631)
        if source.type.size == 0 and not any(map(from_args, (x, init))):  # fuzz seed 300015
            flags["xla_skip"].add(XLA_EMPTY_SELECT_AND_SCATTER_FOLDING)
        if not distinct:  # fuzz seed 201731
            flags["xla_skip"].add(XLA_SELECT_TIES)
        operands = [x, source, init]
        return self.emit1(
            f"xla.select_and_scatter {x.name}, {source.name}, {init.name}, {self.window_attrs(attrs)} "
            f"select {select_region} scatter {scatter_region} {signature(operands, [x.type], compact=False)}",
            x.type, operands, **flags,
        )  # fmt: skip

    # ---- sort --------------------------------------------------------------------------

    def gen_sort(self) -> Value | None:
        """Stable sorts by one or two keys (the other operands carried along), and
        unstable sorts whose comparator orders the operands lexicographically (every
        element: equal keys cannot be told apart), ascending or descending."""
        if self.scope.in_loop and "write_in_place_loop_state" in KNOWN_BUG_AVOIDANCE:
            return None
        key = self.value(lambda v: v.type.rank >= 1 and v.type.size <= 600 and not is_complex(v.elem)
                         and not v.approx, [e for e in ELEMENTS if not is_complex(e)])  # fmt: skip
        if key.type.rank == 0 or is_complex(key.elem) or key.type.size > 600:
            return None
        key = self.sort_key(key)
        stable = self.chance(0.5)
        operands = [key]
        for _ in range(self.rng.choice([0, 0, 1, 2])):
            if stable:
                operands.append(self.value_of_type(key.type.with_elem(self.random_elem())))
            else:
                other = self.value_of_type(key.type.with_elem(self.random_elem([e for e in ELEMENTS
                                                                                 if not is_complex(e)])))  # fmt: skip
                operands.append(self.sort_key(other))
        self.rng.shuffle(operands)
        n_keys = len(operands) if not stable else min(len(operands), self.rng.choice([1, 1, 2]))
        key_positions = [operands.index(key)] if stable else list(range(len(operands)))
        if stable and n_keys == 2:
            second = [i for i in range(len(operands)) if i not in key_positions and operands[i] is self.sort_key(
                      operands[i], replace_it=False)]  # fmt: skip
            key_positions += second[:1]
        descending = self.chance(0.4)
        scalars = [scalar(v.elem) for v in operands]

        def comparator(args: list[Value]) -> list[Value]:
            # lexicographic: lt_0 or (eq_0 and (lt_1 or (eq_1 and ...)))
            result = None
            for k in reversed(key_positions):
                lhs, rhs = args[2 * k], args[2 * k + 1]
                elem = operands[k].elem
                if not stable or self.chance(0.7):
                    ctype = "TOTALORDER" if is_float(elem) else None
                else:  # FLOAT order only where no NaN can make it a partial order
                    ctype = "TOTALORDER" if is_float(elem) and not operands[k].finite else self.rng.choice(
                        [None, "FLOAT"] if is_float(elem) else [None])  # fmt: skip
                if is_int(elem) and self.chance(0.15) and not stable:
                    # a comparator of transformed keys (not a plain compare): bitwise not
                    # reverses the order, so it is still a total order
                    lhs, rhs = self.unary("not", lhs), self.unary("not", rhs)
                lt = self.compare(lhs, rhs, "GT" if descending else "LT", ctype)
                if result is None:
                    result = lt
                else:
                    eq = self.compare(lhs, rhs, "EQ", ctype)
                    result = self.binary("or", lt, self.binary("and", eq, result, None, scalar(PRED)), None,
                                         scalar(PRED))  # fmt: skip
            return [result]

        region, _ = self.region([s for s in scalars for _ in (0, 1)], [{}] * (2 * len(scalars)), comparator)
        dim = self.rng.randrange(key.type.rank)
        attrs = []
        if dim != key.type.rank - 1 or self.chance(0.5):
            attrs.append(f"dimension = {dim}")
        if stable or self.chance(0.5):
            attrs.append(f"is_stable = {'true' if stable else 'false'}")
        names = ", ".join(v.name for v in operands)
        types = [v.type for v in operands]
        keys = [operands[k] for k in key_positions]
        # XLA compiles the sort whole: what keeps one operand from XLA keeps every result
        skip = frozenset().union(*(v.xla_skip for v in operands))
        if any(is_float(k.elem) and k.approx_xla for k in keys):
            skip |= {"sort by keys XLA rounds differently: it may order them otherwise"}
        if mixed_precision([v.elem for v in operands]):
            skip |= {XLA_MIXED_PRECISION}
        if any(v.elem in ("i2", "ui2") for v in operands):
            skip |= {XLA_TWO_BIT_SORT}
        results = self.emit(f"xla.sort {names}{', ' if attrs else ''}{', '.join(attrs)} comparator {region} "
                            f"{signature(operands, types, compact=False)}", types, operands)  # fmt: skip
        # each result is its operand permuted: its own flags, the roots of all of them
        roots = frozenset().union(*(v.roots for v in operands))
        skip |= results[0].xla_skip  # (and the comparator's)
        fixed = [replace(r, **{**flag_dict(v), "xla_skip": skip, "roots": roots}, finite=v.finite)
                 for r, v in zip(results, operands)]  # fmt: skip
        self.scope.pool[-len(results) :] = fixed
        return self.rng.choice(fixed)

    def sort_key(self, v: Value, replace_it: bool = True) -> Value:
        """`v` if it can be a sort key (not complex; a float neither rounded
        differently by the backends nor with NaNs or zeros whose bits may differ),
        else a constant of its type (`replace_it`) or None."""
        ok = not is_complex(v.elem) and (not is_float(v.elem) or (v.bits_exact and not v.approx))
        return v if ok else self.constant(v.type) if replace_it else None

    # ---- gather, scatter -------------------------------------------------------------

    def index_vectors(self, count: int, bounds: Sequence[int], windows: Sequence[int], elem: str,
                      unique: bool = False) -> np.ndarray:  # fmt: skip
        """`count` start index vectors into `bounds`: mostly in range, some out of
        bounds, negative or at the type's limits; `unique`: distinct vectors, in range."""
        low, high = int_range(elem)
        rows = []
        for _ in range(count * 4 if unique else count):
            row = []
            for bound, win in zip(bounds, windows):
                choices = [self.rng.randint(0, max(bound - win, 0))] * 6
                if not unique:
                    choices += [bound - win + 1, bound, -1, -3, low, high, bound + 5]
                row.append(min(max(self.rng.choice(choices), low), high))
            if unique and row in rows:
                continue
            rows.append(row)
        rows = rows[:count]  # with `unique`, maybe fewer: the caller gives up then
        return np.array(rows, dtype=object).reshape(len(rows), len(bounds))  # (ui64 values beyond int64)

    def indices_value(self, batch: Sequence[int], ivd: int, vectors: np.ndarray, elem: str,
                      implicit: bool, constant: bool = False) -> tuple[Value, dict]:  # fmt: skip
        """The index array: the vectors laid out with batch dimensions `batch` and the
        index vector at dimension `ivd` (or implicit); sometimes a live value of its
        type instead (any indices), unless `constant`."""
        k = vectors.shape[1]
        a = vectors.reshape((*batch, k))
        if implicit:
            a = a.reshape(tuple(batch))
        else:
            a = np.moveaxis(a, -1, ivd)
        t = TensorT(a.shape, elem)
        flags: dict = {}
        if is_unsigned(elem) and (a >= 2 ** (bit_width(elem) - 1)).any():
            flags["xla_skip"] = {XLA_UNSIGNED_CONSTANT_INDEX}
        if not constant and not self.chance(0.8):  # sometimes live indices (anything may be in them)
            live = self.pick(lambda v: v.type == t)
            if live is not None:
                return live, {}
        return self.emit1(f"xla.constant {dense(t, a)} : {t}", t, []), flags

    def batching(self, shape: Sequence[int], indexed: list[int], sizes: list[int], batch: list[int],
                 elem: str) -> tuple[int, int] | None:  # fmt: skip
        """StableHLO's batching dimensions as the import expresses them: an operand
        dimension `ob` paired with a batch dimension `ib` of the indices (made its size),
        indexed by an iota along it (`batched_indices`), with window size 1 (collapsed or
        inserted by the caller). Returns (ob, ib), or None when none fits."""
        free = [d for d in range(len(shape)) if d not in indexed and 1 <= shape[d] - 1 <= int_range(elem)[1]]
        if not free or not self.chance(0.3):
            return None
        ob = self.rng.choice(free)
        if not batch:
            batch.append(shape[ob])
        ib = self.rng.randrange(len(batch))
        batch[ib] = shape[ob]
        sizes[ob] = 1
        return ob, ib

    def batched_indices(self, batch: Sequence[int], ivd: int, vectors: np.ndarray, elem: str, ib: int,
                        constant: bool = False) -> tuple[Value, dict]:  # fmt: skip
        """The index array whose last index-vector component counts along batch
        dimension `ib` (an iota concatenated to the other components, as the import of
        a gather or scatter with batching dimensions builds it)."""
        given, flags = self.indices_value(batch, ivd, vectors, elem, implicit=False, constant=constant)
        shape = list(given.shape)
        shape[ivd] = 1
        counter = self.iota(TensorT(tuple(shape), elem), ib if ib < ivd else ib + 1)
        shape[ivd] = given.shape[ivd] + 1
        t = TensorT(tuple(shape), elem)
        idx = self.emit1(f"xla.concatenate {given.name}, {counter.name}, dimension = {ivd} "
                         f"{signature([given, counter], [t])}", t, [given, counter], finite="keep")  # fmt: skip
        return idx, flags

    def gen_gather(self) -> Value | None:
        """General dimension numbers: any start_index_map, collapsed dimensions, offset
        dimensions anywhere in the result, index_vector_dim anywhere (or implicit),
        out-of-bounds indices (clamped)."""
        if self.scope.in_loop and "write_in_place_loop_state" in KNOWN_BUG_AVOIDANCE:
            return None
        x = self.value(lambda v: 1 <= v.type.rank <= 3 and v.type.size <= 512)
        if x.type.rank == 0:
            return None
        r = x.type.rank
        k = self.rng.randint(1, r)
        start_index_map = self.rng.sample(range(r), k)
        slice_sizes = [self.rng.randint(0 if self.chance(0.05) else min(1, d), d) if self.chance(0.7) else min(1, d)
                       for d in x.shape]  # fmt: skip
        collapsed = sorted(d for d in range(r) if slice_sizes[d] == 1 and self.chance(0.6))
        batch = [self.rng.randint(1, 3) for _ in range(self.rng.choice([0, 1, 1, 2]))]
        elem = self.random_elem(ALL_INTS)
        batched = self.batching(x.shape, start_index_map, slice_sizes, batch, elem)
        if batched is not None:
            collapsed = sorted({*(d for d in collapsed if d != batched[0]), batched[0]})
        implicit = k == 1 and batched is None and self.chance(0.3)
        ivd = len(batch) if implicit else self.rng.randint(0, len(batch))
        n_offset = r - len(collapsed)
        offset_dims = sorted(self.rng.sample(range(len(batch) + n_offset), n_offset))
        vectors = self.index_vectors(max(num_elements(batch), 1) if batch else 1,
                                     [x.shape[d] for d in start_index_map],
                                     [slice_sizes[d] for d in start_index_map], elem)  # fmt: skip
        if batched is None:
            idx, flags = self.indices_value(batch, ivd, vectors, elem, implicit)
        else:
            idx, flags = self.batched_indices(batch, ivd, vectors, elem, batched[1])
            start_index_map = [*start_index_map, batched[0]]
        try:
            shape = gather_shape(x.shape, idx.shape, offset_dims, collapsed, start_index_map, ivd, slice_sizes)
        except ShapeError:
            return None
        if num_elements(shape) > 4096:
            return None
        t = TensorT(tuple(shape), x.elem)
        attrs = (f"offset_dims = {dims_text(offset_dims)}, collapsed_slice_dims = {dims_text(collapsed)}, "
                 f"start_index_map = {dims_text(start_index_map)}, index_vector_dim = {ivd}, "
                 f"slice_sizes = {dims_text(slice_sizes)}")  # fmt: skip
        if self.chance(0.1):
            attrs += ", indices_are_sorted = false"
        return self.emit1(f"xla.gather {x.name}, {idx.name}, {attrs} {signature([x, idx], [t])}", t, [x, idx],
                          finite="keep", **flags)  # fmt: skip

    def gen_scatter(self) -> Value | None:
        """General dimension numbers, one or two inputs, out-of-bounds windows (skipped),
        and an update computation: replacing (then the windows are disjoint and the
        indices unique), or a commutative one (add, multiply, max, min, and, or, xor)."""
        x = self.value(lambda v: 1 <= v.type.rank <= 3 and v.type.size <= 512)
        if x.type.rank == 0:
            return None
        inputs = [x]
        if self.chance(0.25):
            inputs.append(self.value_of_type(x.type.with_elem(self.random_elem())))
        r = x.type.rank
        replace_mode = self.chance(0.35)
        k = self.rng.randint(1, r)
        sdod = self.rng.sample(range(r), k)
        window = [self.rng.randint(0 if self.chance(0.05) else min(1, d), d) if self.chance(0.7) else min(1, d)
                  for d in x.shape]  # fmt: skip
        if replace_mode:  # windows of size 1 along the indexed dimensions: disjoint for distinct indices
            for d in sdod:
                window[d] = min(1, x.shape[d])
        batch = [self.rng.randint(1, 3) for _ in range(self.rng.choice([0, 1, 1, 2]))]
        elem = self.random_elem(ALL_INTS)
        batched = self.batching(x.shape, sdod, window, batch, elem)
        inserted = sorted(d for d in range(r) if window[d] == 1 and (self.chance(0.5) or d == (batched or [-1])[0]))
        n_window = r - len(inserted)
        implicit = k == 1 and batched is None and self.chance(0.3)
        ivd = len(batch) if implicit else self.rng.randint(0, len(batch))
        count = num_elements(batch) if batch else 1
        room = num_elements([x.shape[d] for d in sdod])
        unique = replace_mode
        if unique and count > room:
            return None
        if unique and max(x.shape[d] for d in sdod) - 1 > int_range(elem)[1]:
            return None
        vectors = self.index_vectors(count, [x.shape[d] for d in sdod], [window[d] for d in sdod], elem, unique)
        if len(vectors) < count:
            return None
        if batched is None:
            idx, flags = self.indices_value(batch, ivd, vectors, elem, implicit, constant=unique)
        else:
            idx, flags = self.batched_indices(batch, ivd, vectors, elem, batched[1], constant=unique)
            sdod = [*sdod, batched[0]]
        update_rank = n_window + len(batch)
        update_window_dims = sorted(self.rng.sample(range(update_rank), n_window))
        window_sizes = iter(window[d] for d in range(r) if d not in inserted)
        batch_sizes = iter(batch)
        update_shape = tuple(next(window_sizes) if i in update_window_dims else next(batch_sizes)
                             for i in range(update_rank))  # fmt: skip
        updates = [self.value_of_type(TensorT(update_shape, v.elem)) for v in inputs]
        elems = [v.elem for v in inputs]
        scalars = [scalar(e) for e in elems]
        if replace_mode:

            def body(args: list[Value]) -> list[Value]:
                return args[len(elems) :]

            ops = ["replace"] * len(elems)
            region, _ = self.region(scalars * 2, [{}] * (2 * len(elems)), body)
        else:
            ops = [self.rng.choice(reducers_for(e)) for e in elems]
            region = self.reducer_region(ops, elems)
        attrs = (f"update_window_dims = {dims_text(update_window_dims)}, inserted_window_dims = {dims_text(inserted)}, "
                 f"scatter_dims_to_operand_dims = {dims_text(sdod)}, index_vector_dim = {ivd}")  # fmt: skip
        if replace_mode and self.chance(0.5):
            attrs += ", unique_indices = true"
        flags = dict(flags)
        if any(is_inexact(e) and op in ("add", "multiply") for e, op in zip(elems, ops)):
            flags.update(approx=True, reordered=True)
        if any(is_inexact(e) for e in elems) and not replace_mode:
            flags["bits_exact"] = False
        skip = set(flags.get("xla_skip", ()))
        if mixed_precision(elems):
            skip |= {XLA_MIXED_PRECISION}
        roots = [v.roots for v in inputs]
        if len(inputs) > 1 and (not all(roots) or roots[0] & roots[1]):
            skip |= {XLA_SCATTER_ALIASED_INPUTS}
        flags["xla_skip"] = skip
        operands = [*inputs, idx, *updates]
        types = [v.type for v in inputs]
        results = self.emit(
            f"xla.scatter ({', '.join(v.name for v in inputs)}), {idx.name}, ({', '.join(u.name for u in updates)}), "
            f"{attrs} update_computation {region} {signature(operands, types, compact=False)}", types, operands,
            finite="keep", **flags,
        )  # fmt: skip
        return self.rng.choice(results)

    # ---- fft -------------------------------------------------------------------------

    def gen_fft(self) -> Value | None:
        """FFT, IFFT, RFFT and IRFFT over 1 to 3 axes; mostly of finite operands (a NaN
        or an infinity spreads differently through each algorithm's sums)."""
        kind = self.rng.choice(["FFT", "IFFT", "RFFT", "IRFFT"])
        part = self.rng.choice(["f32", "f32", "f64"])
        lengths = [self.rng.choice([1, 2, 3, 4, 5, 8, 8, 16]) for _ in range(self.rng.choice([1, 1, 2, 3]))]
        if num_elements(lengths) > 256:
            return None
        batch = [self.rng.randint(1, 3) for _ in range(self.rng.choice([0, 1, 1, 2]))]
        inner = list(lengths)
        if kind == "IRFFT":
            inner[-1] = lengths[-1] // 2 + 1
        elem = part if kind == "RFFT" else complex_of(part)
        t = TensorT((*batch, *inner), elem)
        finite = self.chance(0.8)
        if kind == "IRFFT" and self.chance(0.5):  # a Hermitian spectrum: an RFFT's
            real = self.finite_value(TensorT((*batch, *lengths), part)) if finite else \
                self.value_of_type(TensorT((*batch, *lengths), part))  # fmt: skip
            x = self.emit1(f"xla.fft {real.name}, fft_type = RFFT, fft_length = {dims_text(lengths)} "
                           f"{signature([real], [t])}", t, [real], approx=True, reordered=True,
                           bits_exact=False)  # fmt: skip
        else:
            x = self.finite_value(t) if finite else self.value_of_type(t)
        shape = fft_shape(x.shape, kind, lengths)
        rt = TensorT(tuple(shape), part if kind == "IRFFT" else complex_of(part))
        return self.emit1(f"xla.fft {x.name}, fft_type = {kind}, fft_length = {dims_text(lengths)} "
                          f"{signature([x], [rt])}", rt, [x], approx=True, reordered=True,
                          bits_exact=False)  # fmt: skip

    # ---- cholesky, triangular_solve ----------------------------------------------------

    def solver_elem(self) -> str:
        return self.rng.choice(["f32", "f32", "f64", "complex<f32>", "complex<f64>"])

    def hermitian_positive_definite(self, batch: Sequence[int], n: int, elem: str) -> Value:
        """A x A^T + (n + 1) I from a tame A (real); a complex one adds i K, K an
        antisymmetric matrix of entries below 1/2 (its norm below n: still definite)."""
        part = part_elem(elem)
        a = self.finite_value(TensorT((*batch, n, n), part))
        gram = self.matmul_t(a, a, len(batch))
        spd = self.binary("add", gram, self.identity_matrix(batch, n, part, n + 1.0), None, gram.type, bits_exact=False)
        if not is_complex(elem):
            return spd
        s = self.finite_value(TensorT((*batch, n, n), part))
        perm = [*range(len(batch)), len(batch) + 1, len(batch)]
        st = self.emit1(f"xla.transpose {s.name}, permutation = {dims_text(perm)} : {s.type}", s.type, [s],
                        finite="keep")  # fmt: skip
        k = self.binary("subtract", s, st, None, s.type, bits_exact=False)
        k = self.binary("multiply", k, self.splat(scalar(part), 0.125), None, k.type, bits_exact=False)
        ct = TensorT(spd.shape, elem)
        re = self.unary("convert", spd, ct)
        im = self.binary(
            "multiply", self.unary("convert", k, ct), self.splat(scalar(elem), 1j), None, ct, bits_exact=False
        )
        return self.binary("add", re, im, None, ct, bits_exact=False)

    def gen_cholesky(self) -> Value | None:
        """Of a Hermitian positive-definite batch; the result's other triangle, which
        the spec leaves to the implementation, masked to zeros."""
        elem = self.solver_elem()
        n = self.rng.randint(1, 6)
        batch = [self.rng.randint(1, 3) for _ in range(self.rng.choice([0, 0, 1, 2]))]
        a = self.hermitian_positive_definite(batch, n, elem)
        lower = self.rng.choice([True, False, None])
        attr = "" if lower is None else f", lower = {'true' if lower else 'false'}"
        rtol = RTOL[elem] * CONDITION_MARGIN
        raw = self.emit1(f"xla.cholesky {a.name}{attr} : {a.type}", a.type, [a], approx=True, reordered=True,
                         bits_exact=False, rtol=rtol, rtol_xla=rtol)  # fmt: skip
        self.hide(raw)
        return self.masked(self.triangle_mask(a.shape, bool(lower)), raw)

    def gen_triangular_solve(self) -> Value | None:
        """op(a) x = b or x op(a) = b with a well-conditioned triangle in a (its other
        triangle, and its diagonal when unit_diagonal, hold anything: they are not read)."""
        elem = self.solver_elem()
        m, k = self.rng.randint(1, 5), self.rng.randint(1, 4)
        batch = [self.rng.randint(1, 3) for _ in range(self.rng.choice([0, 0, 1, 2]))]
        left, lower, unit = self.chance(0.5), self.chance(0.5), self.chance(0.3)
        transpose = self.rng.choice(["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"])
        at = TensorT((*batch, m, m), elem)
        base = self.finite_value(at)
        # computed values (bits_exact=False: a later op's rules for rounded values apply to
        # them; fuzz seed 701498, a complex maximum of `a`)
        small = self.binary("multiply", base, self.splat(scalar(elem), 0.25), None, at, bits_exact=False)
        a = self.binary("add", small, self.identity_matrix(batch, m, elem, m + 2.0), None, at, bits_exact=False)
        if self.chance(0.5):  # the unread parts hold anything (NaN included)
            junk = self.value_of_type(at)
            a = self.emit1(
                f"xla.select {self.triangle_mask(at.shape, lower, strict=unit).name}, {a.name}, {junk.name} "
                f": ({TensorT(at.shape, PRED)}, {at}, {at}) -> {at}", at, [a, junk], bits_exact=True,
            )  # fmt: skip
            a = replace(a, finite=True, reordered=False, xla_skip=small.xla_skip | junk.xla_skip, rtol=small.rtol,
                        rtol_xla=small.rtol_xla)  # fmt: skip
            self.scope.pool[-1] = a
        bt = TensorT((*batch, m, k) if left else (*batch, k, m), elem)
        b = self.finite_value(bt) if self.chance(0.8) else self.value_of_type(bt)
        rtol = RTOL[elem] * CONDITION_MARGIN
        attrs = (f"left_side = {'true' if left else 'false'}, lower = {'true' if lower else 'false'}, "
                 f"unit_diagonal = {'true' if unit else 'false'}, transpose_a = {transpose}")  # fmt: skip
        return self.emit1(f"xla.triangular_solve {a.name}, {b.name}, {attrs} {signature([a, b], [bt])}", bt, [a, b],
                          approx=True, reordered=True, bits_exact=False, rtol=rtol, rtol_xla=rtol)  # fmt: skip

    # ---- rng -----------------------------------------------------------------------------

    def gen_rng_bit_generator(self) -> Value | None:
        """THREE_FRY, PHILOX or DEFAULT over a u64 state; the bits are specified by
        the algorithm (our backends and XLA agree bit for bit)."""
        algorithm = self.rng.choice(["DEFAULT", "THREE_FRY", "PHILOX"])
        size = 2 if algorithm == "THREE_FRY" else self.rng.choice([2, 3])
        state = self.value_of_type(TensorT((size,), "ui64"))
        out = TensorT(self.random_shape(self.rng.randint(0, 3), allow_zero=True), self.random_elem(INTS))
        types = [state.type, out]
        results = self.emit(f"xla.rng_bit_generator {state.name}, rng_algorithm = {algorithm} "
                            f"{signature([state], types, compact=False)}", types, [state])  # fmt: skip
        return results[1]

    def gen_rng(self) -> Value | None:
        """rng_uniform in [a, b) or rng_normal: the values are the backend's own, so
        the result is returned only (never used), and compared by type and range."""
        if self.scope.depth:
            return None
        shape = self.random_shape(self.rng.randint(0, 3))
        uniform = self.focus == "xla.rng_uniform" or (self.focus != "xla.rng_normal" and self.chance(0.6))
        if uniform:
            avoid = NARROW_INTS if "narrow_int_rng_interpreter" in KNOWN_BUG_AVOIDANCE else ()
            elem = self.random_elem([e for e in ELEMENTS if (is_int(e) or is_float(e)) and e not in avoid])
            lo, hi = sorted(random_values(self.np_rng, TensorT((2,), elem), special=0.0).tolist())
            if lo == hi:
                return None
            a, b = self.constant(scalar(elem), lo), self.constant(scalar(elem), hi)
            check = ("range", lo, hi)
            op = "rng_uniform"
        else:
            elem = self.rng.choice(STD_FLOATS)
            a = self.constant(scalar(elem), self.rng.choice([0.0, 1.5, -2.0]))
            b = self.constant(scalar(elem), self.rng.choice([1.0, 0.5, 2.0]))
            check = ("finite",)
            op = "rng_normal"
        t = TensorT(shape, elem)
        skip = {XLA_RNG_TYPES} if elem not in ("i32", "i64", "ui32", "ui64", *STD_FLOATS) else set()
        if uniform and elem in ("bf16", "f16"):
            skip.add(XLA_RNG_HALF_REACHES_B)
        v = self.emit1(f"xla.{op} {a.name}, {b.name} {signature([a, b], [t])}", t, [a, b], check=check,
                       xla_skip=skip)  # fmt: skip
        self.hide(v)
        self.extra_results.append(v)
        return v

    # ---- batch norm ------------------------------------------------------------------------

    def batch_norm_operands(self) -> tuple[TensorT, int, str] | None:
        elem = self.rng.choice(["f32", "f32", "f64", "f16", "bf16"])
        rank = self.rng.randint(1, 4)
        shape = tuple(self.rng.randint(1, 4) for _ in range(rank))
        return TensorT(shape, elem), self.rng.randrange(rank), elem

    def epsilon(self) -> str:
        return literal("f32", self.rng.choice([1e-5, 1e-3, 0.001, 0.1, 0.5, 1.0]))

    def batch_norm_flags(self, elem: str) -> dict:
        rtol = RTOL[elem] * 10
        return {"approx": True, "reordered": True, "bits_exact": False, "rtol": rtol, "rtol_xla": rtol * 2}

    def gen_batch_norm_training(self) -> Value | None:
        t, feature, elem = self.batch_norm_operands()
        f = TensorT((t.shape[feature],), elem)
        x = self.finite_value(t) if self.chance(0.8) else self.value_of_type(t)
        scale, offset = self.value_of_type(f), self.value_of_type(f)
        types = [t, f, f]
        operands = [x, scale, offset]
        results = self.emit(f"xla.batch_norm_training {x.name}, {scale.name}, {offset.name}, epsilon = "
                            f"{self.epsilon()}, feature_index = {feature} {signature(operands, types, compact=False)}",
                            types, operands, **self.batch_norm_flags(elem))  # fmt: skip
        return self.rng.choice(results)

    def positive(self, t: TensorT) -> Value:
        """A non-negative finite value (a variance)."""
        v = self.finite_value(t)
        return self.unary("abs", v, finite="keep")

    def gen_batch_norm_inference(self) -> Value | None:
        t, feature, elem = self.batch_norm_operands()
        f = TensorT((t.shape[feature],), elem)
        x = self.finite_value(t) if self.chance(0.8) else self.value_of_type(t)
        scale, offset, mean = self.value_of_type(f), self.value_of_type(f), self.value_of_type(f)
        variance = self.positive(f)
        operands = [x, scale, offset, mean, variance]
        return self.emit1(f"xla.batch_norm_inference {', '.join(v.name for v in operands)}, epsilon = "
                          f"{self.epsilon()}, feature_index = {feature} {signature(operands, [t], compact=False)}",
                          t, operands, **self.batch_norm_flags(elem))  # fmt: skip

    def gen_batch_norm_grad(self) -> Value | None:
        t, feature, elem = self.batch_norm_operands()
        f = TensorT((t.shape[feature],), elem)
        x = self.finite_value(t)
        scale, mean = self.finite_value(f), self.finite_value(f)
        variance = self.positive(f)
        grad = self.finite_value(t) if self.chance(0.8) else self.value_of_type(t)
        operands = [x, scale, mean, variance, grad]
        types = [t, f, f]
        results = self.emit(f"xla.batch_norm_grad {', '.join(v.name for v in operands)}, epsilon = "
                            f"{self.epsilon()}, feature_index = {feature} {signature(operands, types, compact=False)}",
                            types, operands, **self.batch_norm_flags(elem))  # fmt: skip
        return self.rng.choice(results)

    # ---- map, dimension sizes ---------------------------------------------------------------

    def gen_map(self) -> Value | None:
        """A random computation of N scalars applied at every index of N inputs."""
        if self.scope.depth >= self.MAX_DEPTH:
            return None
        x = self.value(lambda v: v.type.size <= 256)
        inputs = [x] + [self.value_of_type(x.type.with_elem(self.random_elem()))
                        for _ in range(self.rng.choice([0, 1, 1, 2]))]  # fmt: skip
        out = scalar(self.random_elem())
        region, returned = self.region(
            [scalar(v.elem) for v in inputs], [flag_dict(v) for v in inputs],
            lambda args: self.random_body(args, [out], self.rng.randint(1, 3)), scalar_only=True,
        )  # fmt: skip
        t = x.type.with_elem(out.elem)
        flags = merged_flags([*inputs, *returned])
        if mixed_precision([*(v.elem for v in inputs), out.elem]):
            flags["xla_skip"] |= {XLA_MIXED_PRECISION}
        return self.emit1(f"xla.map {', '.join(v.name for v in inputs)}, dimensions = "
                          f"{dims_text(range(x.type.rank))} computation {region} "
                          f"{signature(inputs, [t], compact=False)}", t, inputs, **flags)  # fmt: skip

    def dimension_size_operand(self) -> Value | None:
        narrow = NARROW_INTS + NARROW_FLOATS if "narrow_dimension_size" in KNOWN_BUG_AVOIDANCE else ()
        x = self.value(lambda v: v.type.rank >= 1 and v.elem not in narrow)
        return None if x.type.rank == 0 or x.elem in narrow else x

    def gen_get_dimension_size(self) -> Value | None:
        x = self.dimension_size_operand()
        if x is None:
            return None
        t = scalar("i32")
        return self.emit1(f"xla.get_dimension_size {x.name}, dimension = {self.rng.randrange(x.type.rank)} "
                          f"{signature([x], [t])}", t, [x], xla_skip=())  # fmt: skip

    def gen_set_dimension_size(self) -> Value | None:
        """A dynamic size within the bound, read back by get_dimension_size (the data
        beyond it is not defined, so only the size is compared)."""
        x = self.dimension_size_operand()
        if x is None:
            return None
        dim = self.rng.randrange(x.type.rank)
        size = self.constant(scalar("i32"), self.rng.randint(0, x.shape[dim]))
        dynamic = self.emit1(f"xla.set_dimension_size {x.name}, {size.name}, dimension = {dim} "
                             f"{signature([x, size], [x.type], compact=False)}", x.type, [x, size],
                             xla_skip={XLA_DYNAMIC_SHAPE})  # fmt: skip
        self.hide(dynamic)
        t = scalar("i32")
        read = self.rng.randrange(x.type.rank)
        return self.emit1(f"xla.get_dimension_size {dynamic.name}, dimension = {read} {signature([dynamic], [t])}",
                          t, [dynamic])  # fmt: skip

    # ---- collectives ---------------------------------------------------------------------

    def replica_groups(self, same_size: bool = True, divides: int | None = None) -> tuple[str, int]:
        """`replica_groups = ...` text and the group size: all replicas ([]), or the
        replicas split into groups (of one size, dividing `divides` if given)."""
        n = self.replicas
        sizes = [g for g in range(1, n + 1) if n % g == 0 and (divides is None or divides % g == 0)]
        if self.chance(0.4) and (divides is None or divides % n == 0):
            return "replica_groups = []", n
        if not same_size and self.chance(0.3) and n >= 3:
            ids = list(range(n))
            self.rng.shuffle(ids)
            cut = self.rng.randint(1, n - 1)
            groups = [ids[:cut], ids[cut:]]
            width = max(len(g) for g in groups)
            padded = [g + [-1] * (width - len(g)) for g in groups]
            return f"replica_groups = {_matrix(padded)}", 0
        g = self.rng.choice(sizes)
        ids = list(range(n))
        self.rng.shuffle(ids)
        groups = [sorted(ids[i : i + g]) if self.chance(0.7) else ids[i : i + g] for i in range(0, n, g)]
        return f"replica_groups = {_matrix(groups)}", g

    def channel(self) -> str:
        return f", channel_id = {self.rng.randint(1, 9)}" if self.chance(0.2) else ""

    def collective_flags(self, elem: str, op: str | None = None, operands: Sequence[Value] = ()) -> dict:
        flags: dict = {"xla_skip": set()}
        if elem in ("i2", "ui2"):  # fuzz seed 200508
            flags["xla_skip"].add(XLA_TWO_BIT_COLLECTIVE)
        if op in ("and", "or", "xor") and (elem != PRED or op == "xor"):
            flags["xla_skip"].add(XLA_COLLECTIVE_REDUCTION)
        if op is not None and is_complex(elem) and not any(map(from_args, operands)):
            flags["xla_skip"].add(XLA_COMPLEX_CONSTANT_REDUCTION)
        if op in ("maximum", "minimum") and is_float(elem) and not all(v.finite for v in operands):
            flags["xla_skip"].add(XLA_COLLECTIVE_MIN_MAX_NAN)  # fuzz seed 201362
        if op in ("add", "multiply") and is_inexact(elem):
            flags.update(approx=True, reordered=True, bits_exact=False)
        elif op is not None and is_float(elem):
            flags["bits_exact"] = False
        return flags

    def collective_operand(self, accept=lambda v: True) -> Value:
        """An operand of a collective (not of zero elements while F6 is open)."""
        avoid_empty = "empty_unsigned_constant_collective" in KNOWN_BUG_AVOIDANCE
        x = self.value(lambda v: v.type.size <= 256 and accept(v) and not (avoid_empty and v.type.size == 0))
        if avoid_empty and x.type.size == 0:
            x = self.constant(x.type.with_shape(tuple(max(d, 1) for d in x.shape)))
        return x

    def gen_replica_id(self) -> Value | None:
        t = scalar("ui32")
        return self.emit1(f"xla.replica_id : {t}", t, [])

    def gen_all_reduce(self) -> Value | None:
        if self.replicas == 1 or self.scope.depth:
            return None
        x = self.collective_operand()
        inputs = [x] + ([self.collective_operand(lambda v: v.elem == x.elem)] if self.chance(0.3) else [])
        inputs = [v if v.elem == x.elem else self.value_of_type(v.type.with_elem(x.elem)) for v in inputs]
        op = self.rng.choice(reducers_for(x.elem))
        groups, size = self.replica_groups(same_size=False)
        region = self.reducer_region([op], [x.elem])
        types = [v.type for v in inputs]
        flags = self.collective_flags(x.elem, op, inputs)
        results = self.emit(f"xla.all_reduce {', '.join(v.name for v in inputs)}, {groups}{self.channel()} "
                            f"computation {region} {signature(inputs, types, compact=False)}", types, inputs,
                            **flags)  # fmt: skip
        return self.rng.choice(results)

    def gen_all_gather(self) -> Value | None:
        if self.replicas == 1 or self.scope.depth:
            return None
        x = self.collective_operand(lambda v: 1 <= v.type.rank)
        if x.type.rank == 0:
            return None
        dim = self.rng.randrange(x.type.rank)
        groups, size = self.replica_groups()
        shard = f", shard_count = {size}" if self.chance(0.2) else ""
        shape = list(x.shape)
        shape[dim] *= size
        t = x.type.with_shape(shape)
        skip = self.collective_flags(x.elem)["xla_skip"]
        if not shape[dim]:  # fuzz seed 300006
            skip.add(XLA_EMPTY_COLLECTIVE_DIMENSION)
        if dim and self.defined_by(x, "xla.fft"):
            skip.add(XLA_FFT_GATHER_LAYOUT)
        return self.emit1(f"xla.all_gather {x.name}, all_gather_dim = {dim}, {groups}{self.channel()}{shard} "
                          f"{signature([x], [t])}", t, [x], finite="keep", xla_skip=skip)  # fmt: skip

    def gen_reduce_scatter(self) -> Value | None:
        if self.replicas == 1 or self.scope.depth:
            return None
        x = self.collective_operand(lambda v: 1 <= v.type.rank)
        if x.type.rank == 0:
            return None
        dim = self.rng.randrange(x.type.rank)
        groups, size = self.replica_groups(divides=x.shape[dim])
        if x.shape[dim] % size:
            return None
        op = self.rng.choice(reducers_for(x.elem))
        region = self.reducer_region([op], [x.elem])
        shape = list(x.shape)
        shape[dim] //= size
        t = x.type.with_shape(shape)
        flags = self.collective_flags(x.elem, op, [x])
        if not shape[dim]:  # fuzz seed 300008
            flags["xla_skip"].add(XLA_EMPTY_COLLECTIVE_DIMENSION)
        return self.emit1(f"xla.reduce_scatter {x.name}, scatter_dimension = {dim}, {groups}{self.channel()} "
                          f"computation {region} {signature([x], [t])}", t, [x], **flags)  # fmt: skip

    def gen_all_to_all(self) -> Value | None:
        if self.replicas == 1 or self.scope.depth:
            return None
        x = self.collective_operand(lambda v: 1 <= v.type.rank)
        if x.type.rank == 0:
            return None
        split = self.rng.randrange(x.type.rank)
        concat = self.rng.randrange(x.type.rank)
        groups, size = self.replica_groups(divides=x.shape[split])
        if x.shape[split] % size:
            return None
        shape = list(x.shape)
        shape[split] //= size
        shape[concat] *= size
        t = x.type.with_shape(shape)
        return self.emit1(f"xla.all_to_all {x.name}, split_dimension = {split}, concat_dimension = {concat}, "
                          f"split_count = {size}, {groups} {signature([x], [t])}", t, [x],
                          finite="keep", xla_skip=self.collective_flags(x.elem)["xla_skip"])  # fmt: skip

    def gen_collective_permute(self) -> Value | None:
        if self.replicas == 1 or self.scope.depth:
            return None
        x = self.collective_operand()
        n = self.replicas
        sources = self.rng.sample(range(n), self.rng.randint(1, n))
        targets = self.rng.sample(range(n), len(sources))
        pairs = [[s, t] for s, t in zip(sources, targets)]
        return self.emit1(f"xla.collective_permute {x.name}, source_target_pairs = {_matrix(pairs)}{self.channel()} "
                          f"{signature([x], [x.type])}", x.type, [x], finite="keep",
                          xla_skip=self.collective_flags(x.elem)["xla_skip"])  # fmt: skip

    # ---- the table -------------------------------------------------------------------------

    FAMILY_KINDS: tuple[tuple[str, float], ...] = (
        ("gen_convolution", 3), ("gen_reduce_window", 3), ("gen_select_and_scatter", 1.5), ("gen_sort", 3),
        ("gen_gather", 3), ("gen_scatter", 3), ("gen_fft", 1.5), ("gen_cholesky", 1), ("gen_triangular_solve", 1),
        ("gen_rng_bit_generator", 1), ("gen_rng", 1), ("gen_batch_norm_training", 1),
        ("gen_batch_norm_inference", 1), ("gen_batch_norm_grad", 1), ("gen_map", 1.5),
        ("gen_get_dimension_size", 0.5), ("gen_set_dimension_size", 0.5), ("gen_replica_id", 0.5),
        ("gen_all_reduce", 4), ("gen_all_gather", 3), ("gen_reduce_scatter", 3), ("gen_all_to_all", 3),
        ("gen_collective_permute", 3),
    )  # fmt: skip
