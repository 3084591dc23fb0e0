"""Every change xla-opt makes to xDSL 0.74's behaviour, in one place, installed
explicitly by `install()` (the context factory and every driver call it), so that
parsing never depends on which module happened to be imported first.

Each fix is an upstream candidate; the list says what and why:

1. Hexadecimal float literals in dense elements (`dense<0x7FC00000> : tensor<f32>`):
   MLIR reads them as the bit pattern of the float (how NaN, Inf and exact values are
   printed by MLIR, JAX and xDSL itself); xDSL reads the integer value. We take the
   bits; a literal wider than the type or with a sign is an error, as in MLIR.
2. Dense literals that do not fit their element type: an integer out of range (xDSL
   raises a ValueError later, without a location), a finite float beyond the type's
   range (an OverflowError, or a silent infinity for bf16) or a real number for a
   complex type (xDSL asserts) are parse errors at the literal. For the 8-, 6- and
   4-bit floats (hexadecimal literals are their bits), out of range means beyond the
   largest finite value, and a negative literal of the unsigned f8E8M0FNU is an error.
3. Integer and float attributes out of their type's range (`1 << 64 : i32`,
   `0x7FC00000 : f16`): xDSL raises VerifyException/OverflowError with no location;
   they become parse errors at the literal.
4. The lexer's string-literal pattern nests `+` inside `*`, so an unterminated string
   on a long line backtracks exponentially (a hang on malformed input). The same
   language without the nesting matches in linear time.
5. Debug locations as JAX prints them (`as_text(debug_info=True)`): xDSL reads
   `loc("file":1:2)`, `loc(unknown)` and aliases defined before use. JAX also prints
   ranges `loc("f.py":4:24 to :34)`, names `loc("jit(f)/sin"(#loc8))`, `callsite(...)`,
   `fused<...>[...]`, and `#loc12 = loc(...)` aliases defined at the end of the file,
   after their uses. All of these are read (a range as its start, a forward alias from
   its definition anywhere in the input), so an op keeps the user's Python position
   (`xla_opt.diagnostics.op_location` reports the innermost file position). A location
   with no file position in it (a bare name) is `loc(unknown)`: the parser then
   locates the op at its text.
6. The llvm dialect lacks `llvm.uitofp`, `llvm.fptosi` and `llvm.fptoui`
   (`xla_opt.dialects.llvm_casts` defines them); the LLVM IR translation learns their
   opcodes.
7. The verifier counts a region's blocks with `len(region.blocks)`, a walk of the
   region's linked list, once per block terminator (`Operation.verify`) and once per
   empty block (`Block.verify`): quadratic in the number of blocks (~60% of
   `-p xla-to-llvm` on a 2,000-op program, whose LLVM function has thousands of
   blocks). Whether a region holds one block or several is read from the block's
   neighbours instead (O(1)); the checks and their messages are unchanged. This
   belongs upstream (xdsl/ir/core.py).
8. Complex literals mixing integer and float parts (`dense<(1.5, 2)> :
   tensor<complex<f32>>`, as MLIR and StableHLO print and accept): xDSL requires both
   parts of the same Python type ("Complex value must be either (float, float) or (int,
   int)"). A float complex takes any mix of int and float parts (each converted
   exactly as a real literal would be); an integer part written as a float, or a
   boolean part, stays an error, now at the literal.
9. Locations survive rewrites (MLIR's rule: an op a pattern creates takes the location
   of the op it replaces): xDSL 0.74's rewriter leaves new ops at `loc(unknown)`. An op
   a PatternRewriter inserts without a location, the ops and block arguments it holds
   included, takes the location of the op being replaced (`replace`) or else of the
   matched op; a block argument the rewriter adds takes its parent op's location, and
   `replace_value_with_new_type` keeps a block argument's location (xDSL drops it).
   Ops that already have a location (moved, not created) keep theirs.
10. The dense-literal parser repeats a splat's value once per element (as does
   `DenseIntOrFPElementsAttr.from_list`): `dense<0.0> : tensor<512x1x6400x6400xf32>`
   exhausts memory. A splat of `SPLAT_KEPT_FROM` elements or more keeps its one value
   (the attribute allows it and prints it as a splat).
11. `Block.split_before` finds the block's index in its region (`get_block_index`, a
   walk of the region's blocks) to insert the new block at index + 1 (`insert_block`,
   another walk): quadratic when a pass splits blocks one after another
   (`convert-scf-to-cf` on a 2,000-op program: 3,000 splits of a function of thousands
   of blocks, 4-8 s of a 5-9 s pass). The new block is linked after the old one
   directly (`insert_block_after`, O(1)); the IR is unchanged. Belongs upstream
   (xdsl/ir/core.py).
12. The dense-literal parser builds the constraint that checks the literal's type
   (`base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])`, ~3 ms)
   for every literal: 0.12 s of parsing JAX's transformer block, whose 36 constants
   are most of its parse time. It is built once; the checks and messages are xDSL's.
   Belongs upstream (xdsl/parser/attribute_parser.py).
13. `DenseArrayBase.from_list` normalizes and packs its values on every call, and
   every op with several variadic operand groups builds one for its segment sizes:
   ~5% of compiling JAX's transformer block, 2 s of `convert-to-llvm` on a 2,000-op
   program (22,000 `llvm.call_intrinsic`). Integer arrays of up to 16 values are made
   once per (type, values) and shared (attributes are immutable). Upstream, the
   segment sizes could be cached per op definition.
14. Building an op (`irdl_build_arg_list`, four calls per op) tells a list of operands,
   results, regions or successors from a single one with `isinstance(arg, Sequence)`,
   an ABC check: a fifth of building an op. The answer is read per class (a dict);
   the checks and messages are xDSL's.
15. The LLVM IR translation declares every `llvm.func` with external linkage and no
   function attributes: a function's `linkage` (`internal`, `private`...) and its
   `passthrough` attributes (`["alwaysinline"]`) are dropped, as MLIR's translation
   keeps them. convert-to-llvm defines f32 `exp`/`tanh` once per module as internal
   `alwaysinline` functions (LLVM inlines each call before vectorizing the loop
   around it; without the attribute the definition is also an exported symbol) and
   outlined kernels `noinline`. Passthrough attributes are read from the property or,
   as xDSL's llvm.func parser leaves them, from the attribute dictionary (so
   `xla-opt -p xla-to-llvm | xla-opt -t llvm` keeps them).
16. The parser reads a type token by token, building its shape list and attributes
   each time: `tensor<8x8xf32>` costs ~0.2 ms, half of parsing a 2,000-op program in
   which every op spells its types. A ranked tensor type of static or dynamic
   dimensions and a plain element type (`tensor<8x?xf32>`, `tensor<i1>`) is looked
   up by its spelling once parsed (types are immutable); any other type is parsed as
   before.
17. Every greedy rewrite asks of each op it visits whether it is trivially dead, and
   `result_only_effects` collects every memory effect of the op and of all the ops
   nested in it before looking at any: a loop nest of depth d is walked whole at each
   of its d levels, on every visit, though its first store already answers (a third
   of a pattern walk over loops). The same question is answered with a walk that
   stops at the first effect beyond reads and the op's own allocations (or an op of
   unknown effects): the same answer, computed as xDSL's.
18. Building an op (`irdl_op_init`) runs the general builder whatever the op: four
   `irdl_build_arg_list` calls, region and segment-size handling and the option
   checks, ~20 µs of the ~30 µs an `arith.addi` takes to build, for the ~3,000 ops
   each compile of a transformer block creates. An op definition with only single
   operands and results, no regions, successors or options (`arith.addi`,
   `llvm.load`, `memref.store`...), given one SSA value (or single-result op) per
   operand and one type per result, is built directly with the same operands, types,
   properties and attributes (None ones dropped); every other call, malformed ones
   included, takes xDSL's builder and its messages. Upstream, the builder could
   precompute this per op definition.
19. `Operation.is_structurally_equivalent` ignores result types (MLIR's
   OperationEquivalence compares them): two loop nests differing only in the element
   type their buffers are read as were one outlined kernel. Result types are compared.
20. The lexer built its punctuation table per token (~6 µs a token). The commonest
   tokens (one-character punctuation, bare and %/#/!/^ identifiers) are read straight
   from the text with xDSL's rules and spans; every other token, byte inputs and
   lexer subclasses take xDSL's lexer.
21. `lower-affine` and `convert-scf-to-cf` run their patterns under the greedy walker,
   which visits every op, tries every pattern and a dead-code check on it, then walks
   the module again to confirm nothing matches: half of each pass. Their patterns
   each convert one op type, so they run under `ConversionWalker`
   (`xla_opt.pattern_dispatch`), which visits only the ops of those types
   (the same patterns, from xDSL's own lists, in the same order): on the transformer
   block 17 -> 4.5 ms and 34 -> 21 ms, the same output.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import math
import re
import struct
import sys
from collections.abc import Callable
from types import ModuleType

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    CallSiteLoc,
    ComplexType,
    FileLineColLoc,
    FusedLoc,
    LocationAttr,
    NameLoc,
    NoneAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerType,
    ReducedPrecisionFloatType,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Block, BlockArgument, ErasedSSAValue, Operation, SSAValue
from xdsl.irdl.operations import OptionalDef, VariadicDef, get_construct_name
from xdsl.parser import Parser
from xdsl.traits import IsTerminator, MemoryEffect, MemoryEffectKind, NoTerminator, RecursiveMemoryEffect
from xdsl.parser.attribute_parser import AttrParser
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind, StringLiteral

_installed = False


def install() -> None:
    """Apply every fix above (idempotent)."""
    global _installed
    if _installed:
        return
    _install_dense_literals()
    _install_located_attribute_range_errors()
    _install_linear_string_literal()
    _install_lenient_locations()
    _install_llvm_casts()
    _install_linear_verifier()
    _install_mixed_complex_literals()
    _install_rewrite_locations()
    _install_splat_literals()
    _install_linear_block_split()
    _install_dense_literal_type_check()
    _install_cached_dense_arrays()
    _install_fast_op_arguments()
    _install_llvm_function_attributes()
    _install_type_memo()
    _install_early_exit_effects()
    _install_fast_op_init()
    _install_typed_structural_equivalence()
    _install_fast_common_tokens()
    _install_conversion_sweeps()
    _installed = True


# --------------------------------------------------------------------------------------
# 1, 2. dense literals
# --------------------------------------------------------------------------------------

def _bits_dtypes(bitwidth: int) -> tuple[type, type]:
    """numpy's unsigned integer and float types of a width (numpy is imported on first
    use: `xla-opt --version` does not need it)."""
    import numpy as np

    return {16: (np.uint16, np.float16), 32: (np.uint32, np.float32), 64: (np.uint64, np.float64)}[bitwidth]


def float_from_bits(bits: int, float_type: AnyFloat) -> float:
    """The value of the IEEE (or bfloat16) bit pattern `bits` of `float_type`."""
    import numpy as np

    if isinstance(float_type, BFloat16Type):
        return float(np.array([bits << 16], dtype=np.uint32).view(np.float32)[0])
    if isinstance(float_type, Float16Type | Float32Type | Float64Type):
        uint, flt = _bits_dtypes(float_type.bitwidth)
        return float(np.array([bits], dtype=uint).view(flt)[0])
    if isinstance(float_type, ReducedPrecisionFloatType):  # the 8-, 6- and 4-bit floats
        return float_type.decode_bits(bits)
    raise NotImplementedError(f"hexadecimal literal for {float_type}")


# bfloat16's smallest overflowing magnitude: half an ulp above its largest finite value
_BF16_OVERFLOW = 2.0**128 * (1 - 2.0**-9)


def _overflows(value: float, float_type: AnyFloat) -> bool:
    """Whether a finite literal rounds to an infinity in `float_type`: numpy's casts
    (ml_dtypes' for bfloat16, through float32), computed with `struct`, which rounds
    the same way and raises OverflowError exactly when the result is infinite (every
    float literal is checked: importing numpy here cost each start-up ~0.07 s)."""
    if not math.isfinite(value):
        return False
    if isinstance(float_type, ReducedPrecisionFloatType):
        # the 8-, 6- and 4-bit floats: xDSL's rounding says None beyond the largest
        # finite value, whether the format then has an infinity, a NaN or saturates
        return value != 0 and float_type._rounded_exponent_mantissa(abs(value)) is None
    try:
        if isinstance(float_type, BFloat16Type):
            return abs(struct.unpack("<f", struct.pack("<f", value))[0]) >= _BF16_OVERFLOW
        if isinstance(float_type, Float16Type | Float32Type):
            struct.pack("<e" if isinstance(float_type, Float16Type) else "<f", value)
    except OverflowError:
        return True
    return False


def _install_dense_literals() -> None:
    element = AttrParser._TensorLiteralElement  # noqa: SLF001
    original_to_type = element.to_type

    def to_type(self, parser, type):  # type: ignore[no-untyped-def]
        text = self.span.text
        if isinstance(type, AnyFloat) and text.lstrip("-")[:2] in ("0x", "0X") and isinstance(self.value, int):
            if text.startswith("-"):
                parser.raise_error(f"hexadecimal float literal {text} must not have a sign", at_position=self.span)
            bits = int(self.value)
            if bits.bit_length() > type.bitwidth:
                parser.raise_error(f"hexadecimal float literal {text} does not fit in {type}", at_position=self.span)
            return float_from_bits(bits, type)
        if isinstance(type, ComplexType) and not isinstance(self.value, tuple):
            parser.raise_error(f"a {type} element is written (real, imaginary), got {text}", at_position=self.span)
        if (
            isinstance(type, ReducedPrecisionFloatType)
            and not type.SEMANTICS.has_sign
            and isinstance(self.value, int | float)
            and self.value < 0
        ):
            parser.raise_error(f"float literal {text} is negative, but {type} has no sign", at_position=self.span)
        value = original_to_type(self, parser, type)
        if isinstance(type, AnyFloat) and isinstance(value, float) and _overflows(value, type):
            # xDSL raises OverflowError when packing the bytes (or rounds to inf)
            parser.raise_error(f"float literal {text} is out of range for {type}", at_position=self.span)
        if isinstance(type, IntegerType) and isinstance(value, int):
            low, high = type.value_range()
            if not low <= value < high:
                parser.raise_error(f"integer literal {text} is out of range for {type}", at_position=self.span)
        return value

    element.to_type = to_type


# --------------------------------------------------------------------------------------
# 3. attribute ranges
# --------------------------------------------------------------------------------------


def _install_located_attribute_range_errors() -> None:
    original = AttrParser.parse_optional_builtin_int_or_float_attr

    def parse_optional_builtin_int_or_float_attr(self: AttrParser):  # type: ignore[no-untyped-def]
        start = self._current_token.span.start  # noqa: SLF001
        try:
            return original(self)
        except (VerifyException, ValueError, OverflowError) as e:
            end = self._current_token.span.start  # noqa: SLF001
            text = self.lexer.input.content[start:end].strip()
            message = f"literal {text} does not fit in its type" if isinstance(e, OverflowError) else str(e)
            self.raise_error(message, start, end)

    AttrParser.parse_optional_builtin_int_or_float_attr = parse_optional_builtin_int_or_float_attr  # type: ignore[method-assign]


# --------------------------------------------------------------------------------------
# 4. string literals in linear time
# --------------------------------------------------------------------------------------


def _install_linear_string_literal() -> None:
    MLIRLexer._unescaped_characters_regex = re.compile(  # noqa: SLF001
        r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
    )


# --------------------------------------------------------------------------------------
# 5. locations as JAX prints them
# --------------------------------------------------------------------------------------

_LOC_TOKEN = re.compile(r'\s*("(?:[^"\\]|\\.)*"|#[\w$.-]+|[A-Za-z_][\w$.-]*|\d+|[():,\[\]<>])')
_LOC_ALIAS_DEF = re.compile(r"^(#[\w$.-]+)\s*=\s*loc\(", re.MULTILINE)


def _balanced_body(text: str, start: int) -> int:
    """The index of the `)` closing the parenthesis opened just before `start`, or -1."""
    depth, i, in_str = 1, start, False
    while i < len(text):
        c = text[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _scan_loc_body(parser: AttrParser) -> str:
    """After `loc`: the raw text between the balanced parentheses."""
    start_tok = parser._current_token  # noqa: SLF001
    if start_tok.kind != MLIRTokenKind.L_PAREN:
        parser.raise_error("expected '(' after 'loc'")
    text = parser.lexer.input.content
    end = _balanced_body(text, start_tok.span.end)
    if end < 0:
        parser.raise_error("unbalanced parentheses in location")
    parser.lexer.pos = end + 1
    parser._parser_state.current_token = parser.lexer.lex()  # noqa: SLF001
    return text[start_tok.span.end : end]


class _LocationReader:
    """Reads a location body (`"f.py":3:4 to :9`, `"name"(...)`, `callsite(a at b)`,
    `fused<...>[a, b]`, `#alias`, `unknown`). Aliases resolve through the parser's
    table, else through their definition anywhere in the input (JAX prints most
    after their uses); an unreadable or cyclic one is unknown."""

    def __init__(self, parser: AttrParser):
        self.parser = parser
        text = parser.lexer.input.content
        self.alias_bodies: dict[str, str] = {}
        for m in _LOC_ALIAS_DEF.finditer(text):
            end = _balanced_body(text, m.end())
            if end >= 0:
                self.alias_bodies[m.group(1)] = text[m.end() : end]
        self.resolved: dict[str, LocationAttr] = {}
        self.resolving: set[str] = set()

    def read(self, body: str) -> LocationAttr:
        self.tokens = _LOC_TOKEN.findall(body)
        self.i = 0
        try:
            loc = self._loc()
        except (IndexError, ValueError):
            return UnknownLoc()
        return loc if self.i == len(self.tokens) else UnknownLoc()

    def _next(self) -> str:
        self.i += 1
        return self.tokens[self.i - 1]

    def _peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def _expect(self, token: str) -> None:
        if self._next() != token:
            raise ValueError(token)

    def _loc(self) -> LocationAttr:
        tok = self._next()
        if tok == "unknown":
            return UnknownLoc()
        if tok.startswith("#"):
            return self._alias(tok)
        if tok == "callsite":
            self._expect("(")
            callee = self._loc()
            self._expect("at")
            caller = self._loc()
            self._expect(")")
            return CallSiteLoc(callee, caller)
        if tok == "fused":
            if self._peek() == "<":  # metadata: skipped
                while self._next() != ">":
                    pass
            self._expect("[")
            locs = [self._loc()]
            while self._peek() == ",":
                self._next()
                locs.append(self._loc())
            self._expect("]")
            return FusedLoc(tuple(locs), NoneAttr())
        if not tok.startswith('"'):
            raise ValueError(tok)
        # MLIR's escapes (\\, \", \n, \t, \XX bytes) as xDSL's lexer reads them: UTF-8 paths intact
        name = StringLiteral.from_span(Span(0, len(tok), Input(tok, "<location>"))).string_contents
        if self._peek() == ":":
            self._next()
            line = int(self._next())
            self._expect(":")
            col = int(self._next())
            if self._peek() == "to":  # a range: its start is the position
                self._next()
                if self._peek() != ":":
                    self._next()
                self._expect(":")
                self._next()
            return FileLineColLoc(StringAttr(name), IntAttr(line), IntAttr(col))
        child: Attribute = NoneAttr()
        if self._peek() == "(":
            self._next()
            child = self._loc()
            self._expect(")")
        return NameLoc(StringAttr(name), child)

    def _alias(self, name: str) -> LocationAttr:
        known = self.parser.attribute_aliases.get(name)
        if isinstance(known, LocationAttr):
            return known
        if name in self.resolved:
            return self.resolved[name]
        body = self.alias_bodies.get(name)
        if body is None or name in self.resolving:
            return UnknownLoc()
        self.resolving.add(name)
        saved = (self.tokens, self.i)
        loc = self.read(body)
        self.tokens, self.i = saved
        self.resolving.discard(name)
        self.resolved[name] = loc
        return loc


def _location_from_body(parser: AttrParser, body: str) -> LocationAttr:
    reader = getattr(parser, "_xla_location_reader", None)
    if reader is None:
        reader = _LocationReader(parser)
        parser._xla_location_reader = reader  # type: ignore[attr-defined]
    return reader.read(body)


def _parse_optional_location(self: AttrParser):
    if self._current_token.text != "loc":  # noqa: SLF001
        return None
    self._consume_token()  # noqa: SLF001
    from xla_opt.diagnostics import file_position

    loc = _location_from_body(self, _scan_loc_body(self))
    return loc if file_position(loc) is not None else UnknownLoc()


def _install_lenient_locations() -> None:
    AttrParser.parse_optional_location = _parse_optional_location  # type: ignore[method-assign]
    original_alias_def = Parser._parse_alias_def  # noqa: SLF001

    def _parse_alias_def(self: Parser) -> None:
        tok = self._current_token  # noqa: SLF001
        if tok.kind == MLIRTokenKind.HASH_IDENT:
            # `#name = loc(...)`: a location alias
            state = self.pos
            self._consume_token()  # noqa: SLF001
            if self.parse_optional_punctuation("=") is not None and self._current_token.text == "loc":  # noqa: SLF001
                self._consume_token()  # noqa: SLF001 - `loc`
                self.attribute_aliases[tok.text] = _location_from_body(self, _scan_loc_body(self))
                return
            self._resume_from(state)  # noqa: SLF001
        original_alias_def(self)

    Parser._parse_alias_def = _parse_alias_def  # type: ignore[method-assign]  # noqa: SLF001


# --------------------------------------------------------------------------------------
# 6. LLVM IR translation of the extra casts
# --------------------------------------------------------------------------------------


def _install_llvm_casts() -> None:
    # when xDSL's LLVM IR translation is imported: importing it (and the llvm dialect)
    # here would cost every xla-opt start-up ~0.15 s
    _when_imported("xdsl.backend.llvm.convert_op", _add_llvm_cast_names)


def _add_llvm_cast_names(convert_op: ModuleType) -> None:
    from xla_opt.dialects.llvm_casts import FPToSIOp, FPToUIOp, UIToFPOp

    convert_op._CAST_OP_NAMES.update(  # noqa: SLF001 - extending xDSL's table
        {UIToFPOp: "uitofp", FPToSIOp: "fptosi", FPToUIOp: "fptoui"}
    )


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs `action(module)` once the module `name` has been executed."""

    def __init__(self, name: str, action: Callable[[ModuleType], None]):
        self.name, self.action = name, action

    def find_spec(self, fullname, path, target=None):  # type: ignore[no-untyped-def]
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        exec_module, action = spec.loader.exec_module, self.action

        def exec_and_act(module: ModuleType) -> None:
            exec_module(module)
            action(module)

        spec.loader.exec_module = exec_and_act  # type: ignore[method-assign]
        return spec


def _when_imported(name: str, action: Callable[[ModuleType], None]) -> None:
    if name in sys.modules:
        action(sys.modules[name])
    else:
        sys.meta_path.insert(0, _AfterImport(name, action))


# --------------------------------------------------------------------------------------
# 7. a verifier linear in the number of blocks
# --------------------------------------------------------------------------------------


def _alone_in_region(block: Block) -> bool:
    """`len(block.parent.blocks) == 1` for a block of a region, in O(1)."""
    return block.prev_block is None and block.next_block is None


def _verify_operation(self: Operation, verify_nested_ops: bool = True) -> None:
    """xDSL 0.74's `Operation.verify`, with the block count of the terminator check
    read in O(1): "Operation X terminates block in single-block region but is not a
    terminator" (unless the parent op has NoTerminator) and "... in multi-block region
    but is not a terminator"."""
    for operand in self.operands:
        if isinstance(operand, ErasedSSAValue):
            raise ValueError("Erased SSA value is used by the operation")

    parent_block = self.parent
    parent_region = None if parent_block is None else parent_block.parent

    if self.successors:
        if parent_block is None or parent_region is None:
            raise VerifyException(
                f"Operation {self.name} with block successors does not belong to a block or a region"
            )
        if parent_block.last_op is not self:
            raise VerifyException(f"Operation {self.name} with block successors must terminate its parent block")
        for succ in self.successors:
            if succ.parent != parent_block.parent:
                raise VerifyException(f"Operation {self.name} is branching to a block of a different region")

    if parent_block is not None and parent_region is not None and parent_block.last_op == self:
        # parent_block is in parent_region: the region has one block or more
        if _alone_in_region(parent_block):
            if (
                (parent_op := parent_region.parent) is not None
                and not parent_op.has_trait(NoTerminator)
                and not self.has_trait(IsTerminator)
            ):
                raise VerifyException(
                    f"Operation {self.name} terminates block in single-block region but is not a terminator"
                )
        elif not self.has_trait(IsTerminator):
            raise VerifyException(
                f"Operation {self.name} terminates block in multi-block region but is not a terminator"
            )

    if verify_nested_ops:
        for region in self.regions:
            region.verify()

    try:
        self.verify_()
    except VerifyException as err:
        self.emit_error(f"Operation does not verify: {err}", err)


def _verify_block(self: Block) -> None:
    """xDSL 0.74's `Block.verify`, with "empty block in single-block region" decided
    in O(1)."""
    for operation in self.ops:
        if operation.parent != self:
            raise ValueError("Parent pointer of operation does not refer to containing region")
        operation.verify()

    if self.first_op is None and (region_parent := self.parent) is not None:
        if (
            (parent_op := region_parent.parent) is not None
            and _alone_in_region(self)
            and not parent_op.has_trait(NoTerminator)
        ):
            raise VerifyException(
                f"Operation {parent_op.name} contains empty block in "
                "single-block region that expects at least a terminator"
            )


def _install_linear_verifier() -> None:
    Operation.verify = _verify_operation  # type: ignore[method-assign]
    Block.verify = _verify_block  # type: ignore[method-assign]


# --------------------------------------------------------------------------------------
# 8. complex literals with mixed integer and float parts
# --------------------------------------------------------------------------------------


def _parse_optional_complex(self: AttrParser):  # type: ignore[no-untyped-def]
    """xDSL 0.74's `_parse_optional_complex`, accepting `(float, int)` and `(int, float)`:
    which of them the element type allows is decided when the literal meets its type."""
    if self._current_token.kind != MLIRTokenKind.L_PAREN:
        return None
    start_token = self._consume_token(MLIRTokenKind.L_PAREN)
    real, _ = self._parse_bool_int_or_float()
    self.parse_punctuation(",")
    imag, _ = self._parse_bool_int_or_float()
    if self._current_token.kind != MLIRTokenKind.R_PAREN:
        # a located error, not _consume_token's assertion (`dense<(1.5, 2>)>`)
        self.raise_error("expected ')' after the imaginary part of a complex literal")
    end_token = self._consume_token(MLIRTokenKind.R_PAREN)
    span = Span(start_token.span.start, end_token.span.end, start_token.span.input)
    if (isinstance(real, bool) or isinstance(imag, bool)) and type(real) is not type(imag):
        self.raise_error("a complex literal's parts are both booleans or both numbers", at_position=span)
    return (real, imag), span


def _install_mixed_complex_literals() -> None:
    AttrParser._parse_optional_complex = _parse_optional_complex  # type: ignore[method-assign]
    element = AttrParser._TensorLiteralElement
    original_to_complex = element.to_complex

    def to_complex(self, parser, type):  # type: ignore[no-untyped-def]
        # xDSL would truncate a float part of an integer complex with int()
        if isinstance(type.element_type, IntegerType) and any(isinstance(v, float) for v in self.value):
            parser.raise_error(f"a {type} element has integer parts, got {self.span.text}", at_position=self.span)
        return original_to_complex(self, parser, type)

    element.to_complex = to_complex


# --------------------------------------------------------------------------------------
# 9. locations survive rewrites
# --------------------------------------------------------------------------------------


def _locate_new_ops(ops, anchor: Operation | None) -> None:  # type: ignore[no-untyped-def]
    """Give every op of `ops` created without a location (and the ops and block
    arguments inside it that have none) the location of `anchor`."""
    from xla_opt.diagnostics import locate_unlocated

    if anchor is None or isinstance(anchor.location, UnknownLoc):
        return
    for op in (ops,) if isinstance(ops, Operation) else ops:
        if isinstance(op.location, UnknownLoc):  # created, not moved
            locate_unlocated(op, anchor.location)


def _install_rewrite_locations() -> None:
    from xdsl.pattern_rewriter import PatternRewriter
    from xdsl.rewriter import Rewriter

    original_insert = PatternRewriter.insert
    original_replace = PatternRewriter.replace
    original_insert_block_argument = PatternRewriter.insert_block_argument
    original_replace_value_with_new_type = Rewriter.replace_value_with_new_type

    def insert(self, op, insertion_point=None):  # type: ignore[no-untyped-def]
        anchor = getattr(self, "_replaced_op", None) or self._current_operation
        _locate_new_ops(op, anchor)
        return original_insert(self, op, insertion_point)

    def replace(self, op, new_ops, new_results=None, safe_erase=True):  # type: ignore[no-untyped-def]
        outer, self._replaced_op = getattr(self, "_replaced_op", None), op
        try:
            original_replace(self, op, new_ops, new_results, safe_erase)
        finally:
            self._replaced_op = outer

    def insert_block_argument(self, block, index, arg_type):  # type: ignore[no-untyped-def]
        arg = original_insert_block_argument(self, block, index, arg_type)
        if isinstance(arg.location, UnknownLoc) and (owner := block.parent_op()) is not None:
            arg.location = owner.location
        return arg

    def replace_value_with_new_type(val, new_type):  # type: ignore[no-untyped-def]
        new_value = original_replace_value_with_new_type(val, new_type)
        if isinstance(val, BlockArgument) and isinstance(new_value, BlockArgument):
            new_value.location = val.location
        return new_value

    PatternRewriter.insert = insert  # type: ignore[method-assign]
    PatternRewriter.replace = replace  # type: ignore[method-assign]
    PatternRewriter.insert_block_argument = insert_block_argument  # type: ignore[method-assign]
    Rewriter.replace_value_with_new_type = staticmethod(replace_value_with_new_type)  # type: ignore[method-assign]


# --------------------------------------------------------------------------------------
# 10. splat literals stay splats
# --------------------------------------------------------------------------------------


# Splats of at least this many elements keep one value (smaller ones are expanded as
# xDSL does, so code reading an attribute's values, e.g. a property's, sees them all).
SPLAT_KEPT_FROM = 1 << 16


def _install_splat_literals() -> None:
    """A large splat literal (`dense<0.0> : tensor<512x1x6400x6400xf32>`) keeps its
    one value: xDSL's DenseIntOrFPElementsAttr holds a single value for a shaped type
    (it prints it as a splat), but its parser repeats the value once per element,
    which exhausts memory for large shapes. The constant's consumers keep it a splat:
    the interpreter as a broadcast view, the lowering as a fill."""
    from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr

    original = AttrParser.parse_dense_int_or_fp_elements_attr

    def parse_dense_int_or_fp_elements_attr(self: AttrParser, given_type):  # type: ignore[no-untyped-def]
        start = self.pos

        def not_a_splat():  # type: ignore[no-untyped-def]
            self._resume_from(start)  # noqa: SLF001
            return original(self, given_type)

        self.parse_punctuation("<", " in dense attribute")
        if self._current_token.text in ("[", ">"):  # noqa: SLF001 - a list or empty
            return not_a_splat()
        hex_string = self.parse_optional_str_literal()
        element = None if hex_string is not None else self._parse_tensor_literal()  # noqa: SLF001
        if self.parse_optional_punctuation(">") is None:
            return not_a_splat()
        type = given_type
        if type is None:
            self.parse_punctuation(":", " in dense attribute")
            type = self._parse_dense_literal_type()  # noqa: SLF001
        count = 1
        for d in type.get_shape():
            count *= d
        if count < SPLAT_KEPT_FROM:
            return not_a_splat()
        if hex_string is not None:
            try:
                data = bytes.fromhex(hex_string[2:])
            except ValueError:
                return not_a_splat()
            if len(data) != type.element_type.compile_time_size:
                return not_a_splat()
            return DenseIntOrFPElementsAttr(type, BytesAttr(data))
        values, shape = element  # type: ignore[misc]
        if shape or len(values) != 1:
            return not_a_splat()
        value = values[0].to_type(self, type.element_type)
        if isinstance(type.element_type, IntegerType):
            value = type.element_type.get_normalized_value(value)
        # the constructor, not from_list: from_list repeats a single value too
        return DenseIntOrFPElementsAttr(type, BytesAttr(type.element_type.pack([value])))

    AttrParser.parse_dense_int_or_fp_elements_attr = parse_dense_int_or_fp_elements_attr  # type: ignore[method-assign]


# --------------------------------------------------------------------------------------
# 11. splitting a block inserts the new block in O(1)
# --------------------------------------------------------------------------------------


def _split_before(self: Block, b_first: Operation, *, arg_types=()) -> Block:  # type: ignore[no-untyped-def]
    """xDSL 0.74's `Block.split_before` (the ops from `b_first` on move to a new block
    placed right after this one), with the new block linked after this one directly
    instead of through `Region.get_block_index` + `insert_block`, two walks of the
    region's block list."""
    if b_first.parent is not self:
        raise ValueError("Cannot split block on operation outside of the block.")
    parent = self.parent
    if parent is None:
        raise ValueError("Cannot split block with no parent.")
    assert self.first_op is not None and self.last_op is not None
    a_last = b_first.prev_op
    b_last = self.last_op
    self._first_op = None if a_last is None else self.first_op  # noqa: SLF001
    self._last_op = a_last  # noqa: SLF001
    b = Block(arg_types=arg_types)
    parent.insert_block_after(b, self)
    b._first_op = b_first  # noqa: SLF001
    b._last_op = b_last  # noqa: SLF001
    op: Operation | None = b_first
    while op is not None:  # the moved ops (the field, not the property: half the time)
        op.parent = b
        op = op._next_op  # noqa: SLF001
    if a_last is not None:
        a_last._next_op = None  # noqa: SLF001
    b_first._prev_op = None  # noqa: SLF001
    return b


def _install_linear_block_split() -> None:
    Block.split_before = _split_before  # type: ignore[method-assign]


# --------------------------------------------------------------------------------------
# 12. the dense-literal type check builds its constraint once
# --------------------------------------------------------------------------------------

_dense_literal_type_constraint = None


def _parse_dense_literal_type(self: AttrParser):  # type: ignore[no-untyped-def]
    """xDSL 0.74's `_parse_dense_literal_type` ("Expected memref, vector or tensor type
    of integer, index, float, or complex type"; "Dense literal attribute should have a
    static shape."), with the constraint built on first use instead of per literal."""
    global _dense_literal_type_constraint
    from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, RankedStructure
    from xdsl.irdl import base

    if _dense_literal_type_constraint is None:
        _dense_literal_type_constraint = base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])
    type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
    if not _dense_literal_type_constraint.verifies(type):
        self.raise_error("Expected memref, vector or tensor type of integer, index, float, or complex type")
    if any(dim == DYNAMIC_INDEX for dim in list(type.get_shape())):
        self.raise_error("Dense literal attribute should have a static shape.")
    return type


def _install_dense_literal_type_check() -> None:
    AttrParser._parse_dense_literal_type = _parse_dense_literal_type  # type: ignore[method-assign]  # noqa: SLF001


# --------------------------------------------------------------------------------------
# 13. short integer dense arrays are built once per value
# --------------------------------------------------------------------------------------

# at most this many values: segment sizes, positions, permutations (the array's bytes
# are kept alive by the cache, so long ones are built every time)
DENSE_ARRAY_CACHED_UP_TO = 16


def _install_cached_dense_arrays() -> None:
    """`DenseArrayBase.from_list` normalizes and packs its values on every call (~20 µs):
    irdl_op_init calls it for the operand segment sizes of every op with several
    variadic operands (each `llvm.call_intrinsic`, `linalg.generic`, ...). For an integer
    type and at most DENSE_ARRAY_CACHED_UP_TO values, the attribute (immutable) is made
    once per (type, values) and shared. Float arrays are always built (0.0 == -0.0)."""
    from functools import lru_cache

    from xdsl.dialects.builtin import DenseArrayBase

    build = DenseArrayBase.from_list

    @lru_cache(maxsize=4096)
    def cached(data_type: IntegerType, data: tuple[int, ...]):  # type: ignore[no-untyped-def]
        return build(data_type, data)

    def from_list(data_type, data):  # type: ignore[no-untyped-def]
        if isinstance(data_type, IntegerType) and len(data) <= DENSE_ARRAY_CACHED_UP_TO:
            values = tuple(data)
            if all(type(v) is int for v in values):
                return cached(data_type, values)
        return build(data_type, data)

    DenseArrayBase.from_list = staticmethod(from_list)  # type: ignore[method-assign]


# --------------------------------------------------------------------------------------
# 14. building an op tells a sequence argument from a single one without the ABC check
# --------------------------------------------------------------------------------------

_is_sequence_type: dict[type, bool] = {}


def _is_sequence(value: object) -> bool:
    """`isinstance(value, collections.abc.Sequence)`, decided once per class."""
    cls = type(value)
    if (known := _is_sequence_type.get(cls)) is None:
        from collections.abc import Sequence

        known = _is_sequence_type[cls] = issubclass(cls, Sequence)
    return known


def _irdl_build_arg_list(construct, args, arg_defs, error_prefix=""):  # type: ignore[no-untyped-def]
    """xDSL 0.74's `irdl_build_arg_list` (operands, results, regions or successors of
    an op being built, and their segment sizes; the same checks and messages), with
    `isinstance(arg, Sequence)`, an ABC check (~1 µs, up to 8 per op), read per class."""
    if len(args) != len(arg_defs):
        raise ValueError(f"Expected {len(arg_defs)} {get_construct_name(construct)}, but got {len(args)}")
    res = []
    arg_sizes = []
    for arg_idx, ((arg_name, arg_def), arg) in enumerate(zip(arg_defs, args)):
        if arg is None:
            if not isinstance(arg_def, OptionalDef):
                raise ValueError(error_prefix + f"passed None to a non-optional {construct} {arg_idx} '{arg_name}'")
            arg_sizes.append(0)
        elif _is_sequence(arg):
            if not isinstance(arg_def, VariadicDef) and len(arg) != 1:
                raise ValueError(error_prefix + f"passed Sequence to non-variadic {construct} {arg_idx} '{arg_name}'")
            if isinstance(arg_def, OptionalDef) and len(arg) > 1:
                raise ValueError(
                    error_prefix + f"optional {construct} {arg_idx} '{arg_name}' "
                    "expects a list of size at most 1 or None, but "
                    f"got a list of size {len(arg)}"
                )
            res.extend(arg)
            arg_sizes.append(len(arg))
        else:
            res.append(arg)
            arg_sizes.append(1)
    return res, arg_sizes


def _install_fast_op_arguments() -> None:
    from xdsl.irdl import operations

    operations.irdl_build_arg_list = _irdl_build_arg_list  # type: ignore[assignment]


# --------------------------------------------------------------------------------------
# 15. the LLVM IR translation keeps a function's linkage and passthrough attributes
# --------------------------------------------------------------------------------------


def _install_llvm_function_attributes() -> None:
    _when_imported("xdsl.backend.llvm.convert", _keep_function_attributes)


def _keep_function_attributes(convert: ModuleType) -> None:
    declare = convert._declare_func  # noqa: SLF001 - wrapping xDSL's translation

    def declare_with_attributes(op, llvm_module):  # type: ignore[no-untyped-def]
        declare(op, llvm_module)
        fn = llvm_module.get_global(op.sym_name.data)
        if op.body.blocks and op.linkage.linkage.data != "external":
            fn.linkage = op.linkage.linkage.data  # a declaration stays external
        passthrough = op.passthrough if op.passthrough is not None else op.attributes.get("passthrough")
        for attr in passthrough.data if isinstance(passthrough, ArrayAttr) else ():
            if isinstance(attr, StringAttr):
                fn.attributes.add(attr.data)

    convert._declare_func = declare_with_attributes  # noqa: SLF001


# --------------------------------------------------------------------------------------
# 16. a tensor type's spelling parsed once
# --------------------------------------------------------------------------------------

# `tensor<` dims `x` element `>`, the element a plain integer or float name; the end
# must not run on into a longer word (`tensor<4xf32>` is not read out of `tensor<4xf32>x`)
_SIMPLE_TENSOR_TYPE = re.compile(r"tensor<(?:(?:[0-9]+|\?)x)*(?:[su]?i[0-9]+|f(?:16|32|64)|bf16|index)>(?![\w$.])")
_TYPE_MEMO_SIZE = 4096


def _install_type_memo() -> None:
    original = AttrParser.parse_optional_type
    memo: dict[str, Attribute] = {}

    def parse_optional_type(self: AttrParser):  # type: ignore[no-untyped-def]
        token = self._current_token  # noqa: SLF001
        if token.text != "tensor":
            return original(self)
        content = self.lexer.input.content
        match = _SIMPLE_TENSOR_TYPE.match(content, token.span.start)
        if match is None:
            return original(self)
        if (known := memo.get(match.group())) is None:
            known = original(self)
            if len(memo) >= _TYPE_MEMO_SIZE:
                memo.clear()
            memo[match.group()] = known
            return known
        self.lexer.pos = match.end()
        self._parser_state.current_token = self.lexer.lex()  # noqa: SLF001
        return known

    AttrParser.parse_optional_type = parse_optional_type  # type: ignore[method-assign]


# --------------------------------------------------------------------------------------
# 17. trivially-dead checks that stop at the first observable effect
# --------------------------------------------------------------------------------------


# the trait method that stands for "the effects of the nested ops" (checked by
# identity: a subclass overriding it computes its own effects)
_RECURSIVE_EFFECTS = RecursiveMemoryEffect.get_effects.__func__  # type: ignore[attr-defined]


def _result_only_effects(root: Operation) -> bool:
    """xDSL's `result_only_effects(root)`: whether `root`'s memory effects, with those
    of the ops nested in it (`RecursiveMemoryEffect`), are all reads or allocations of
    values defined within `root`, and all known; False at the first that is not.
    Called for every op a greedy rewrite visits: nothing is imported or looked up here."""
    pending = [root]
    while pending:
        op = pending.pop()
        traits = op.get_traits_of_type(MemoryEffect)
        if not traits:
            return False  # unknown effects
        for trait in traits:
            if getattr(type(trait).get_effects, "__func__", None) is _RECURSIVE_EFFECTS:
                pending.extend(child for region in op.regions for block in region.blocks for child in block.ops)
                continue
            effects = trait.get_effects(op)
            if effects is None:
                return False
            for e in effects:
                if e.kind == MemoryEffectKind.READ:
                    continue
                if e.kind == MemoryEffectKind.ALLOC and isinstance(v := e.value, SSAValue) and root.is_ancestor(v.owner):
                    continue
                return False
    return True


def _install_early_exit_effects() -> None:
    _when_imported("xdsl.transforms.dead_code_elimination", _use_early_exit_effects)


def _use_early_exit_effects(dce: ModuleType) -> None:
    dce.result_only_effects = _result_only_effects  # looked up by would_be_trivially_dead at each call


# --------------------------------------------------------------------------------------
# 18. a fixed-arity op is built without the general builder
# --------------------------------------------------------------------------------------

_fixed_arity: dict[type, tuple[int, int] | None] = {}  # op class -> (operands, results)


def _fixed_arity_counts(op_type: type) -> tuple[int, int] | None:
    """(operands, results) of an op class whose definition has only single operands
    and results and no regions, successors or options; else None. Read once per class."""
    if op_type not in _fixed_arity:
        op_def = op_type.get_irdl_definition()  # type: ignore[attr-defined]
        defs = [d for _, d in op_def.operands] + [d for _, d in op_def.results]
        simple = not (op_def.regions or op_def.successors or op_def.options) and not any(
            isinstance(d, VariadicDef | OptionalDef) for d in defs
        )
        _fixed_arity[op_type] = (len(op_def.operands), len(op_def.results)) if simple else None
    return _fixed_arity[op_type]


def _fast_irdl_op_init(general):  # type: ignore[no-untyped-def]
    def irdl_op_init(self, op_def, *, operands, result_types, properties, attributes, successors, regions):  # type: ignore[no-untyped-def]
        counts = None if successors or regions else _fixed_arity_counts(type(self))
        if counts is not None and len(operands) == counts[0] and len(result_types) == counts[1]:
            values = []
            for operand in operands:
                if isinstance(operand, SSAValue):
                    values.append(operand)
                elif isinstance(operand, Operation) and len(operand.results) == 1:
                    values.append(operand.results[0])
                else:
                    values = None
                    break
            if values is not None and all(isinstance(t, Attribute) for t in result_types):
                Operation.__init__(
                    self,
                    operands=values,
                    result_types=result_types,
                    properties={k: v for k, v in properties.items() if v is not None},
                    attributes={k: v for k, v in attributes.items() if v is not None},
                )
                return
        general(
            self,
            op_def,
            operands=operands,
            result_types=result_types,
            properties=properties,
            attributes=attributes,
            successors=successors,
            regions=regions,
        )

    irdl_op_init.general = general  # type: ignore[attr-defined]
    return irdl_op_init


def _install_fast_op_init() -> None:
    from xdsl.irdl import operations

    operations.irdl_op_init = _fast_irdl_op_init(operations.irdl_op_init)


# --------------------------------------------------------------------------------------
# 19. structurally equivalent ops have the same result types
# --------------------------------------------------------------------------------------


def _install_typed_structural_equivalence() -> None:
    untyped = Operation.is_structurally_equivalent

    def is_structurally_equivalent(self, other, context=None):  # type: ignore[no-untyped-def]
        if (
            isinstance(other, Operation)
            and len(self.results) == len(other.results)
            and any(a.type != b.type for a, b in zip(self.results, other.results))
        ):
            return False
        return untyped(self, other, context)

    Operation.is_structurally_equivalent = is_structurally_equivalent  # type: ignore[method-assign]


# --------------------------------------------------------------------------------------
# 20. the lexer reads the commonest tokens straight from the text
# --------------------------------------------------------------------------------------


def _install_fast_common_tokens() -> None:
    from xdsl.utils.lexer import Token

    punctuation = {
        ":": MLIRTokenKind.COLON,
        ",": MLIRTokenKind.COMMA,
        "(": MLIRTokenKind.L_PAREN,
        ")": MLIRTokenKind.R_PAREN,
        "}": MLIRTokenKind.R_BRACE,
        "[": MLIRTokenKind.L_SQUARE,
        "]": MLIRTokenKind.R_SQUARE,
        "<": MLIRTokenKind.LESS,
        ">": MLIRTokenKind.GREATER,
        "=": MLIRTokenKind.EQUAL,
        "+": MLIRTokenKind.PLUS,
        "/": MLIRTokenKind.SLASH,
        "*": MLIRTokenKind.STAR,
        "?": MLIRTokenKind.QUESTION,
        "|": MLIRTokenKind.VERTICAL_BAR,
    }
    prefixed = {
        "%": MLIRTokenKind.PERCENT_IDENT,
        "#": MLIRTokenKind.HASH_IDENT,
        "!": MLIRTokenKind.EXCLAMATION_IDENT,
        "^": MLIRTokenKind.CARET_IDENT,
    }
    whitespace = MLIRLexer._whitespace_regex
    bare_suffix = MLIRLexer.bare_identifier_suffix_regex
    suffix_id = MLIRLexer._suffix_id
    general = MLIRLexer.lex

    def lex(self):  # type: ignore[no-untyped-def]
        text = self.input.content
        if type(self) is not MLIRLexer or not isinstance(text, str):  # a subclass has its own rules
            return general(self)
        start = whitespace.match(text, self.pos).end()
        if start >= len(text):
            return general(self)
        char = text[start]
        kind = punctuation.get(char)
        if kind is not None:
            self.pos = start + 1
            return Token(kind, Span(start, start + 1, self.input))
        if char.isalpha() or char == "_":
            self.pos = bare_suffix.match(text, start + 1).end()
            return Token(MLIRTokenKind.BARE_IDENT, Span(start, self.pos, self.input))
        kind = prefixed.get(char)
        if kind is not None and not (char == "#" and text.startswith("-}", start + 1)):
            match = suffix_id.match(text, start + 1)
            if match is not None:
                self.pos = match.end()
                return Token(kind, Span(start, self.pos, self.input))
        return general(self)  # the rest, errors included, as xDSL lexes them

    lex.general = general  # type: ignore[attr-defined]
    MLIRLexer.lex = lex  # type: ignore[method-assign]


# --------------------------------------------------------------------------------------
# 21. lower-affine and convert-scf-to-cf visit only the ops they convert
# --------------------------------------------------------------------------------------


def _convert_with_sweeps(module: ModuleType) -> None:
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

    from xla_opt.pattern_dispatch import ConversionWalker

    def walker(pattern, **options):  # type: ignore[no-untyped-def]
        """The walker these passes build (`PatternRewriteWalker(applier)`, no options)
        as a ConversionWalker over the same patterns; any other call as before."""
        if options or not isinstance(pattern, GreedyRewritePatternApplier):
            return PatternRewriteWalker(pattern, **options)
        return ConversionWalker(list(pattern.rewrite_patterns))

    module.PatternRewriteWalker = walker  # type: ignore[attr-defined]


def _install_conversion_sweeps() -> None:
    for name in ("xdsl.transforms.convert_scf_to_cf", "xdsl.transforms.lower_affine"):
        _when_imported(name, _convert_with_sweeps)
