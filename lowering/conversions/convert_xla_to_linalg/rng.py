"""The rng family to linalg: rng_bit_generator (THREE_FRY, PHILOX; DEFAULT is PHILOX, as
in the interpreter).

rng_bit_generator is counter-based, so every output element is a pure function of the
state and its own position: one `linalg.generic` over the output computes each element
from its counter with integer arithmetic (i64 counters wrapping around, 32-bit words,
i32 rotations), bit-exact with the interpreter (xla_opt/interpreter/rng.py, itself
bit-exact with XLA's CPU backend); a second generic over the state writes the advanced
counter into a copy of it.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable, Sequence

from xdsl.dialects import arith, llvm, math, tensor
from xdsl.dialects.builtin import (
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    f32,
    f64,
    i32,
    i64,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable
from xla_opt.dialects import xla
from xla_opt.dialects.shapes.common import num_elements
from xla_opt.dialects.xla.element_types import (
    bit_width,
    elem_of,
    is_float,
    is_pred,
    is_unsigned,
    shape_of,
)
from xla_opt.lowering.conversions.convert_xla_to_linalg.scalar_ops import emit_convert, signless, wrap_signed


from .common import fill_from_scalar
from .elementwise import identity_generic, in_computation
from .shape_ops import IndexArithmetic

# --------------------------------------------------------------------------------------
# Integer arithmetic on words
# --------------------------------------------------------------------------------------


class Bits(IndexArithmetic):
    """IndexArithmetic plus the bit operations of the generators, on signless integers
    of any width (arith wraps around, as the u32/u64 arithmetic of the algorithms).
    Each constant is made once (the rounds reuse a few shift amounts and keys)."""

    def __init__(self) -> None:
        super().__init__()
        self.constants: dict[tuple[int, Attribute], SSAValue] = {}

    def word(self, value: int, t: Attribute = i32) -> SSAValue:
        """A constant of integer type `t`, given as its unsigned value."""
        key = (value, t)
        if key not in self.constants:
            payload = value if isinstance(t, IndexType) else wrap_signed(value, bit_width(t))
            self.constants[key] = self.add_op(arith.ConstantOp(IntegerAttr(payload, t)))
        return self.constants[key]

    def const(self, value: int) -> SSAValue:
        return self.word(value, IndexType())

    def xor(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add_op(arith.XOrIOp(a, b))

    def or_(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add_op(arith.OrIOp(a, b))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add_op(arith.MuliOp(a, b))

    def shl(self, a: SSAValue, n: int) -> SSAValue:
        return self.add_op(arith.ShLIOp(a, self.word(n, a.type)))

    def shr(self, a: SSAValue, n: int) -> SSAValue:
        """Logical shift right."""
        return self.add_op(arith.ShRUIOp(a, self.word(n, a.type)))

    def rotl32(self, a: SSAValue, n: int) -> SSAValue:
        return self.or_(self.shl(a, n), self.shr(a, 32 - n))

    def trunc(self, a: SSAValue, t: Attribute) -> SSAValue:
        return a if a.type == t else self.add_op(arith.TruncIOp(a, t))

    def extend(self, a: SSAValue, t: Attribute) -> SSAValue:
        """Zero extension (the words are unsigned)."""
        return a if a.type == t else self.add_op(arith.ExtUIOp(a, t))

    def low(self, a: SSAValue) -> SSAValue:
        """The low 32-bit word of an i64."""
        return self.trunc(a, i32)

    def high(self, a: SSAValue) -> SSAValue:
        """The high 32-bit word of an i64."""
        return self.trunc(self.shr(a, 32), i32)

    def join(self, low: SSAValue, high: SSAValue) -> SSAValue:
        """The i64 whose words are `low` and `high`."""
        return self.or_(self.extend(low, i64), self.shl(self.extend(high, i64), 32))

    def select(self, condition: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add_op(arith.SelectOp(condition, a, b))

    def pick(self, which: SSAValue, values: Sequence[SSAValue]) -> SSAValue:
        """values[which] (`which` an index below len(values))."""
        result = values[-1]
        for i in reversed(range(len(values) - 1)):
            result = self.select(self.cmp("eq", which, self.const(i)), values[i], result)
        return result

    def to_i64(self, a: SSAValue) -> SSAValue:
        """A non-negative index as i64."""
        return self.add_op(arith.IndexCastOp(a, i64))

    def carry(self, total: SSAValue, before: SSAValue, high: SSAValue) -> SSAValue:
        """high + 1 when the unsigned sum `total` wrapped below `before`, else high."""
        wrapped = self.cmp("ult", total, before)
        return self.select(wrapped, self.add(high, self.word(1, i64)), high)

    def linear_index(self, shape: Sequence[int], indices: Sequence[SSAValue]) -> SSAValue:
        """The row-major position of `indices` in `shape`."""
        if not shape:
            return self.const(0)
        position = indices[0]
        for size, index in zip(shape[1:], indices[1:], strict=True):
            position = self.add(self.mul_const(position, size), index)
        return position


# --------------------------------------------------------------------------------------
# The algorithms
# --------------------------------------------------------------------------------------

_THREEFRY_ROTATIONS = (13, 15, 26, 6, 17, 29, 16, 24)


def threefry2x32(
    b: Bits, x0: SSAValue, x1: SSAValue, k0: SSAValue, k1: SSAValue
) -> tuple[SSAValue, SSAValue]:
    """Threefry-2x32 with 20 rounds on i32 words (the interpreter's threefry2x32)."""
    ks = (k0, k1, b.xor(b.xor(b.word(0x1BD11BDA), k0), k1))
    x0, x1 = b.add(x0, ks[0]), b.add(x1, ks[1])
    for i in range(5):
        for rotation in _THREEFRY_ROTATIONS[4 * (i % 2) : 4 * (i % 2) + 4]:
            x0 = b.add(x0, x1)
            x1 = b.xor(b.rotl32(x1, rotation), x0)
        x0 = b.add(x0, ks[(i + 1) % 3])
        x1 = b.add(b.add(x1, ks[(i + 2) % 3]), b.word(i + 1))
    return x0, x1


def philox4x32(b: Bits, counter: Sequence[SSAValue], k0: SSAValue, k1: SSAValue) -> list[SSAValue]:
    """Philox-4x32 with 10 rounds on i32 words (the interpreter's philox4x32); the
    32x32 -> 64-bit products are i64 multiplications of zero-extended words."""
    c = list(counter)
    for _ in range(10):
        p0 = b.mul(b.extend(c[0], i64), b.word(0xD2511F53, i64))
        p1 = b.mul(b.extend(c[2], i64), b.word(0xCD9E8D57, i64))
        c = [
            b.xor(b.xor(b.high(p1), c[1]), k0),
            b.low(p1),
            b.xor(b.xor(b.high(p0), c[3]), k1),
            b.low(p0),
        ]
        k0 = b.add(k0, b.word(0x9E3779B9))
        k1 = b.add(k1, b.word(0xBB67AE85))
    return c


def split_dimension(shape: Sequence[int]) -> int:
    """XLA's SplitShapeIntoHalves: the first even dimension, else the largest (the first
    of the largest)."""
    return next((i for i, d in enumerate(shape) if d % 2 == 0), list(shape).index(max(shape)))


# An element's value from its loop indices and the state words read before the generic.
ElementBuilder = Callable[[Bits, list[SSAValue], list[SSAValue]], SSAValue]


def threefry_element(shape: tuple[int, ...], bits: int) -> tuple[ElementBuilder, int]:
    """The element builder of ThreeFry and the number of counters it consumes: state
    [key, counter]; counter + i encrypted with the key; 64-bit outputs take both words
    of block i (i the row-major position); narrower ones split a dimension in halves,
    element j of it taking word j % 2 of the block at j // 2."""
    if bits == 64:
        used = num_elements(shape)
    elif not shape:
        used = 1
    else:
        split = split_dimension(shape)
        half = (*shape[:split], (shape[split] + 1) // 2, *shape[split + 1 :])
        used = num_elements(half)

    def element(b: Bits, loops: list[SSAValue], state: list[SSAValue]) -> SSAValue:
        key, counter = state[0], state[1]
        if bits == 64 or not shape:
            position, word = b.linear_index(shape, loops), None
        else:
            at_half = list(loops)
            at_half[split] = b.div_const(loops[split], 2)
            position, word = b.linear_index(half, at_half), b.rem_const(loops[split], 2)
        block = b.add(counter, b.to_i64(position))
        x0, x1 = threefry2x32(b, b.low(block), b.high(block), b.low(key), b.high(key))
        if bits == 64:
            return b.join(x0, x1)
        return x0 if word is None else b.pick(word, [x0, x1])

    return element, used


def philox_element(shape: tuple[int, ...], bits: int, state_size: int) -> tuple[ElementBuilder, int]:
    """The element builder of Philox and the number of counters it consumes: state
    [key, counter] (the counter's high word is then the key) or [key, counter low,
    counter high]; the 128-bit counter + j encrypted with the key gives four words,
    taken in turn by four 32-bit elements or two 64-bit ones (j = i // 4 or i // 2)."""
    per_block = 2 if bits == 64 else 4
    used = (num_elements(shape) + per_block - 1) // per_block

    def element(b: Bits, loops: list[SSAValue], state: list[SSAValue]) -> SSAValue:
        key, low = state[0], state[1]
        high = state[2] if state_size == 3 else key
        position = b.linear_index(shape, loops)
        block_low = b.add(low, b.to_i64(b.div_const(position, per_block)))
        block_high = b.carry(block_low, low, high)
        counter = [b.low(block_low), b.high(block_low), b.low(block_high), b.high(block_high)]
        words = philox4x32(b, counter, b.low(key), b.high(key))
        which = b.rem_const(position, per_block)
        if bits == 64:
            return b.pick(which, [b.join(words[0], words[1]), b.join(words[2], words[3])])
        return b.pick(which, words)

    return element, used


class RngBitGeneratorToGeneric(RewritePattern):
    """xla.rng_bit_generator -> a generic over the output computing each element from
    its counter (ThreeFry or Philox, DEFAULT being Philox), truncated to 8 or 16 bits for
    narrow types, and a generic over the state advancing its counter by the number of
    counters used (with a carry into the high word of Philox's 3-word state)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.RngBitGeneratorOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        shape, output_type = shape_of(op.output.type), op.output.type
        assert isinstance(output_type, TensorType)
        bits = bit_width(elem_of(output_type))
        state_size = shape_of(op.initial_state.type)[0]
        if op.get_rng_algorithm() == "THREE_FRY":
            element, used = threefry_element(shape, bits)
        else:
            element, used = philox_element(shape, bits, state_size)

        reads = Bits()
        state = [
            reads.add_op(tensor.ExtractOp(op.initial_state, [reads.const(i)], i64))
            for i in range(state_size)
        ]
        rewriter.insert(reads.ops)

        def output_body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            b = Bits()
            loops = [b.loop_index(d) for d in range(len(shape))]
            value = b.trunc(element(b, loops, state), IntegerType(bits))
            return b.ops, [value]

        advanced = Bits()
        new_words = {1: advanced.add(state[1], advanced.word(used, i64))}
        if state_size == 3:
            new_words[2] = advanced.carry(new_words[1], state[1], state[2])
        rewriter.insert(advanced.ops)

        def state_body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            b = Bits()
            position = b.loop_index(0)
            value = b.add_op(tensor.ExtractOp(op.initial_state, [position], i64))
            for i, word in new_words.items():
                value = b.select(b.cmp("eq", position, b.const(i)), word, value)
            return b.ops, [value]

        output = identity_generic([], output_type, output_body)
        new_state = identity_generic([], op.output_state.type, state_body)  # type: ignore[arg-type]
        rewriter.replace(op, [*new_state, *output], [new_state[-1].results[0], output[-1].results[0]])


# --------------------------------------------------------------------------------------
# rng_uniform, rng_normal: Philox on a per-program call counter
# --------------------------------------------------------------------------------------

CALL_COUNTER = "__xla_rng_calls"


def next_call(op: Operation, rewriter: PatternRewriter) -> SSAValue:
    """The program's rng call count before this call, incremented: an i64 in a mutable
    LLVM global (declared once per module, starting at 0), read and written with llvm
    ops before `op`, so that every execution of every rng op draws fresh numbers."""
    module = op.get_toplevel_object()
    assert isinstance(module, ModuleOp)
    if SymbolTable.lookup_symbol(module, CALL_COUNTER) is None:
        counter = llvm.GlobalOp(i64, CALL_COUNTER, "internal", value=IntegerAttr(0, i64))
        rewriter.insert(counter, InsertPoint.at_start(module.body.block))
    b = Bits()
    address = b.add_op(llvm.AddressOfOp(CALL_COUNTER, llvm.LLVMPointerType()))
    calls = b.add_op(llvm.LoadOp(address, i64))
    b.ops.append(llvm.StoreOp(b.add(calls, b.word(1, i64)), address))
    rewriter.insert(b.ops)
    return calls


def random_words(b: Bits, position: SSAValue, call: SSAValue) -> list[SSAValue]:
    """Four random i32 words for the element at `position` (an index) of the call
    numbered `call`: Philox-4x32 of the counter (position, call) under the key
    (DEFAULT_RNG_SEED, 0)."""
    # imported here: xla-opt starts without the interpreter
    from xla_opt.interpreter.rng import DEFAULT_RNG_SEED

    low = b.to_i64(position)
    counter = [b.low(low), b.high(low), b.low(call), b.high(call)]
    return philox4x32(b, counter, b.word(DEFAULT_RNG_SEED), b.word(0))


def unit_interval(b: Bits, words: Sequence[SSAValue], t: Attribute) -> SSAValue:
    """A float of type t (f32 or f64) uniform in [0, 1): the top 24 bits of one word
    (f32) or 53 bits of two (f64), times 2^-24 or 2^-53 (exact)."""
    if isinstance(t, Float64Type):
        bits, integer = b.shr(b.join(words[0], words[1]), 11), i64
    else:
        bits, integer = b.shr(words[0], 8), i32
    mantissa = 53 if integer == i64 else 24
    value = b.add_op(arith.SIToFPOp(bits, t))
    return b.add_op(arith.MulfOp(value, b.add_op(arith.ConstantOp(FloatAttr(2.0**-mantissa, t)))))  # type: ignore[arg-type]


def compute_type(t: Attribute) -> Attribute:
    """The interpreter's: f64 for f64, f32 for the other float types."""
    return f64 if isinstance(t, Float64Type) else f32


def below(b: Bits, x: SSAValue, t: Attribute) -> SSAValue:
    """The largest value of float type t below x (x not NaN): through x's bits, one
    step toward -inf (down for a positive x, up for a negative one, -0 and +0 go to
    the negative subnormal nearest zero)."""
    width = bit_width(t)
    integer = IntegerType(width)
    bits = b.add_op(arith.BitcastOp(x, integer))
    sign = b.word(1 << (width - 1), integer)
    one = b.word(1, integer)
    negative = b.cmp("ne", b.add_op(arith.AndIOp(bits, sign)), b.word(0, integer))
    zero = b.cmp("eq", b.add_op(arith.AndIOp(bits, b.word((1 << (width - 1)) - 1, integer))), b.word(0, integer))
    stepped = b.select(negative, b.add(bits, one), b.add_op(arith.SubiOp(bits, one)))
    return b.add_op(arith.BitcastOp(b.select(zero, b.or_(sign, one), stepped), t))


def converted(b: Bits, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """x converted with xla.convert's semantics (half types round once, to nearest)."""
    ops, value = emit_convert(x, src, dst)
    b.ops += ops
    return value


# An element of rng_uniform or rng_normal from its four random words, the op's two
# scalar parameters and its element type.
DrawBuilder = Callable[[Bits, list[SSAValue], SSAValue, SSAValue, Attribute], SSAValue]


def replace_with_draws(op: Operation, rewriter: PatternRewriter, draw: DrawBuilder) -> None:
    """Replaces `op` (rng_uniform or rng_normal) with a generic over its result whose
    element at position i is `draw(b, words, p, q, t)`: words the four i32 words of
    Philox block (i, call) for this call's number (next_call), p and q the op's scalar
    parameters read before it, t its element type."""
    reads = Bits()
    p, q = (reads.add_op(tensor.ExtractOp(v, [], signless(elem_of(v.type)))) for v in op.operands)
    rewriter.insert(reads.ops)
    call = next_call(op, rewriter)
    result_type = op.results[0].type
    shape, t = shape_of(result_type), elem_of(result_type)

    def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        b = Bits()
        position = b.linear_index(shape, [b.loop_index(d) for d in range(len(shape))])
        return b.ops, [draw(b, random_words(b, position, call), p, q, t)]

    rewriter.replace(op, identity_generic([], result_type, body))  # type: ignore[arg-type]


def uniform_float(b: Bits, words: list[SSAValue], low: SSAValue, high: SSAValue, t: Attribute) -> SSAValue:
    """a + (b - a) u in the compute type, rounded to t, kept below b when b > a."""
    ct = compute_type(t)
    lo, hi = converted(b, low, t, ct), converted(b, high, t, ct)
    span = b.add_op(arith.SubfOp(hi, lo))
    value = b.add_op(arith.AddfOp(lo, b.add_op(arith.MulfOp(span, unit_interval(b, words, ct)))))
    rounded = converted(b, value, ct, t)
    # rounding to t may reach b: the largest value below b instead (when b > a)
    reached = b.add_op(arith.CmpfOp(converted(b, rounded, t, ct), hi, "oge"))
    ordered = b.add_op(arith.CmpfOp(hi, lo, "ogt"))
    return b.select(b.add_op(arith.AndIOp(reached, ordered)), below(b, high, t), rounded)


def uniform_integer(b: Bits, words: list[SSAValue], low: SSAValue, high: SSAValue, t: Attribute) -> SSAValue:
    """a + r mod (b - a) in 64 bits (r the first two words), a when b <= a."""
    unsigned = is_unsigned(t)
    ordered = b.cmp("ugt" if unsigned else "sgt", high, low)
    extend = arith.ExtUIOp if unsigned else arith.ExtSIOp
    lo, hi = ((v if bit_width(t) == 64 else b.add_op(extend(v, i64))) for v in (low, high))
    # a divisor of 1 where b <= a, whose result is not used
    span = b.select(ordered, b.add_op(arith.SubiOp(hi, lo)), b.word(1, i64))
    offset = b.add_op(arith.RemUIOp(b.join(words[0], words[1]), span))
    value = b.trunc(b.add(lo, offset), IntegerType(bit_width(t)))
    return b.select(ordered, value, low)


def normal(b: Bits, words: list[SSAValue], mu: SSAValue, sigma: SSAValue, t: Attribute) -> SSAValue:
    """mu + sigma z in the compute type, rounded to t; z = sqrt(-2 ln u1) cos(2 pi u2)
    with u1 = 1 - u in (0, 1] from the first half of the words, u2 from the second."""
    ct = compute_type(t)
    half = 2 if isinstance(ct, Float64Type) else 1

    def constant(value: float) -> SSAValue:
        return b.add_op(arith.ConstantOp(FloatAttr(value, ct)))  # type: ignore[arg-type]

    u1 = b.add_op(arith.SubfOp(constant(1.0), unit_interval(b, words[:half], ct)))
    u2 = unit_interval(b, words[half:], ct)
    radius = b.add_op(math.SqrtOp(b.add_op(arith.MulfOp(constant(-2.0), b.add_op(math.LogOp(u1))))))
    angle = b.add_op(arith.MulfOp(constant(2 * pymath.pi), u2))
    z = b.add_op(arith.MulfOp(radius, b.add_op(math.CosOp(angle))))
    m, s = converted(b, mu, t, ct), converted(b, sigma, t, ct)
    return converted(b, b.add_op(arith.AddfOp(m, b.add_op(arith.MulfOp(s, z)))), ct, t)


class RngUniformToGeneric(RewritePattern):
    """xla.rng_uniform -> a generic drawing each element from its own Philox block
    (replace_with_draws), with the interpreter's semantics but not numpy's bits: floats
    a + (b - a) u in the compute type (f32, or f64 for f64), u uniform in [0, 1), then
    rounded, and kept below b when b > a; integers a + r mod (b - a), r a random 64-bit
    word (a modulo bias below (b - a) / 2^64), and a when b <= a; PRED: always a (the
    only value of [a, b) there is)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.RngUniformOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        t = elem_of(op.result.type)
        if is_pred(t):
            rewriter.replace(op, fill_from_scalar(op.a, op.result.type))  # type: ignore[arg-type]
        else:
            replace_with_draws(op, rewriter, uniform_float if is_float(t) else uniform_integer)


class RngNormalToGeneric(RewritePattern):
    """xla.rng_normal -> a generic drawing each element from its own Philox block
    (replace_with_draws): mu + sigma z in the compute type (f32, or f64 for f64), then
    rounded, z standard normal by Box-Muller; the interpreter's distribution, not
    numpy's bits."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.RngNormalOp, rewriter: PatternRewriter, /) -> None:
        if not in_computation(op):
            replace_with_draws(op, rewriter, normal)


PATTERNS: list[RewritePattern] = [RngBitGeneratorToGeneric(), RngUniformToGeneric(), RngNormalToGeneric()]

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset({xla.RngBitGeneratorOp.name, xla.RngUniformOp.name, xla.RngNormalOp.name})
