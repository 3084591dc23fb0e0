"""Each patch to xDSL (`xla_opt.xdsl_patches`) on its own (issue 29, item 6): with the
patch removed xDSL shows the bug or the cost the patch removes, with it installed it
does not. Expected values come from MLIR's documented behaviour, numpy or the
reproducer; costs are counts (calls, walk steps, objects built), not times. Then the
registry itself: every patch listed, described and tested, the version check."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import arith, cf, func
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FileLineColLoc,
    IndexType,
    IntAttr,
    ModuleOp,
    NameLoc,
    StringAttr,
    UnknownLoc,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, Region
from xdsl.parser import Parser
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern
from xdsl.utils.exceptions import ParseError

from xla_opt import xdsl_patches
from xla_opt.context import make_context
from xla_opt.xdsl_patches import PATCHES, REGISTRY, XdslVersionWarning

xdsl_patches.install()
CTX = make_context()


def removed(name: str):  # type: ignore[no-untyped-def]
    return REGISTRY[name].removed()


def parse_attribute(text: str):  # type: ignore[no-untyped-def]
    return Parser(CTX, text).parse_attribute()


def parse_module(text: str) -> ModuleOp:
    return Parser(CTX, text).parse_module()


class Counter:
    """Counts the calls of the function it wraps."""

    def __init__(self, wrapped):  # type: ignore[no-untyped-def]
        self.wrapped, self.calls = wrapped, 0

    def __call__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.calls += 1
        return self.wrapped(*args, **kwargs)


def count_calls(monkeypatch, owner, name: str) -> Counter:  # type: ignore[no-untyped-def]
    """Count the calls of `owner.name` (a module's function, a class's method or
    classmethod) from now on."""
    if not isinstance(owner, type):
        counter = Counter(getattr(owner, name))
        monkeypatch.setattr(owner, name, counter)
    elif isinstance(raw := vars(owner).get(name), classmethod):
        counter = Counter(raw.__func__)
        monkeypatch.setattr(owner, name, classmethod(lambda cls, *args, **kwargs: counter(cls, *args, **kwargs)))
    else:  # a function: bound to the instance it is called on
        counter = Counter(getattr(owner, name))
        monkeypatch.setattr(owner, name, lambda *args, **kwargs: counter(*args, **kwargs))
    return counter


def block_walk_steps(monkeypatch) -> Counter:  # type: ignore[no-untyped-def]
    """Steps taken through regions' block lists (`region.blocks` iterated, counted, indexed)."""
    from xdsl.ir.core import _RegionBlocksIterator

    return count_calls(monkeypatch, _RegionBlocksIterator, "__next__")


# --------------------------------------------------------------------------------------
# parsing.py
# --------------------------------------------------------------------------------------


def test_dense_literals_read_hexadecimal_floats_as_bits():
    """MLIR's builtin dialect: a hexadecimal literal of a float element is its bit
    pattern (how MLIR prints NaN); xDSL read the integer 0x7FC00000 = 2143289344."""
    text = "dense<0x7FC00000> : tensor<f32>"
    with removed("dense-literals"):
        assert np.frombuffer(parse_attribute(text).data.data, np.float32)[0] == np.float32(0x7FC00000)
    bits = np.frombuffer(parse_attribute(text).data.data, np.uint32)[0]
    assert bits == 0x7FC00000  # numpy's quiet NaN of float32
    assert np.isnan(np.uint32(bits).view(np.float32))


@pytest.mark.parametrize(
    "literal, xdsl_error",
    [("dense<300> : tensor<i8>", ValueError), ("dense<1.0e39> : tensor<f32>", OverflowError)],
)
def test_dense_literals_out_of_range_are_parse_errors_at_the_literal(literal, xdsl_error):
    """300 is beyond i8 ([-128, 256) signless) and 1e39 beyond float32's largest finite
    value (np.finfo(np.float32).max): xDSL raised an exception without a location."""
    assert 1.0e39 > float(np.finfo(np.float32).max)
    with removed("dense-literals"), pytest.raises(xdsl_error):
        parse_attribute(literal)
    with pytest.raises(ParseError, match=r"(?s)1:7\n.*out of range"):
        parse_attribute(literal)


@pytest.mark.parametrize("literal", ["300 : i8", "18446744073709551616 : i32", "1.0e39 : f32"])
def test_attribute_ranges_are_parse_errors_at_the_literal(literal):
    with removed("attribute-ranges"), pytest.raises(Exception) as unlocated:
        parse_attribute(literal)
    assert not isinstance(unlocated.value, ParseError)  # VerifyException or OverflowError
    with pytest.raises(ParseError, match=r"^<unknown>:1:1\n"):
        parse_attribute(literal)


def test_linear_string_literal_does_not_hang_on_an_unterminated_string():
    """xDSL's pattern backtracks exponentially on `"aaa...` without its closing quote:
    matched in another process it does not finish within the timeout; the patched
    pattern fails at once, and the lexer reports the unterminated string."""
    from xdsl.utils.lexer import Input
    from xdsl.utils.mlir_lexer import MLIRLexer

    line = '"' + "a" * 60 + "\n"

    def match_elsewhere(timeout: float) -> None:
        script = "import re, sys\nassert re.compile(sys.argv[1]).match(sys.argv[2]) is None\n"
        pattern = MLIRLexer._unescaped_characters_regex.pattern
        subprocess.run([sys.executable, "-c", script, pattern, line * 100], timeout=timeout, check=True)

    with removed("linear-string-literal"), pytest.raises(subprocess.TimeoutExpired):
        match_elsewhere(timeout=1)
    match_elsewhere(timeout=60)
    with pytest.raises(ParseError, match="End of file reached before closing string literal"):
        MLIRLexer(Input(line * 100, "f")).lex()


JAX_LOCATED = """func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.add %a, %a : tensor<2xf32> loc(#loc3)
  func.return %0 : tensor<2xf32>
}
#loc2 = loc("f.py":4:24 to :34)
#loc3 = loc("jit(f)/add"(#loc2))
"""


def test_jax_locations_ranges_names_and_forward_aliases_are_read():
    """MLIR's location syntax as JAX prints it: a name location around a file range
    (its start is the position), aliases defined after their use."""
    with removed("jax-locations"), pytest.raises(ParseError):
        parse_module(JAX_LOCATED)
    add = next(op for op in parse_module(JAX_LOCATED).walk() if op.name == "xla.add")
    assert add.location == NameLoc(
        StringAttr("jit(f)/add"), FileLineColLoc(StringAttr("f.py"), IntAttr(4), IntAttr(24))
    )


def test_mixed_complex_literals_take_an_integer_part():
    """MLIR and StableHLO print and accept `(1.5, 2)` for a complex<f32> element."""
    text = "dense<(1.5, 2)> : tensor<complex<f32>>"
    with removed("mixed-complex-literals"), pytest.raises(ParseError, match="Complex value must be either"):
        parse_attribute(text)
    assert np.frombuffer(parse_attribute(text).data.data, np.complex64).tolist() == [1.5 + 2j]


def test_splat_literals_keep_one_value():
    """xDSL stored a splat's value once per element (the cost that exhausts memory for
    `tensor<512x1x6400x6400xf32>`); shown at the smallest shape the patch keeps."""
    from xla_opt.xdsl_patches.parsing import SPLAT_KEPT_FROM

    text = f"dense<1.5> : tensor<{SPLAT_KEPT_FROM}xf32>"
    with removed("splat-literals"):
        assert len(parse_attribute(text).data.data) == 4 * SPLAT_KEPT_FROM
    attr = parse_attribute(text)
    assert np.frombuffer(attr.data.data, np.float32).tolist() == [1.5]
    assert str(attr) == f"dense<1.500000e+00> : tensor<{SPLAT_KEPT_FROM}xf32>"


def test_dense_literal_type_check_builds_its_constraint_once(monkeypatch):
    """xDSL built `base(RankedStructure[...])` for every dense literal."""
    import xdsl.irdl
    from xdsl.parser import attribute_parser

    text = "[" + ", ".join(f"dense<[{i}, 1]> : tensor<2xi32>" for i in range(10)) + "]"
    parse_attribute(text)  # the constraint, if not built yet
    builds = count_calls(monkeypatch, attribute_parser, "base")
    monkeypatch.setattr(xdsl.irdl, "base", builds)
    with removed("dense-literal-type-check"):
        parse_attribute(text)
    assert builds.calls == 10
    builds.calls = 0
    assert parse_attribute(text) == parse_attribute(text)
    assert builds.calls == 0


def test_tensor_type_memo_parses_a_spelling_once(monkeypatch):
    from xdsl.parser.attribute_parser import AttrParser

    spelling = "tensor<7x5x3xi16>"
    text = "func.func @f(" + ", ".join(f"%a{i}: {spelling}" for i in range(20)) + ") {\n  func.return\n}\n"
    tensor_parses = count_calls(monkeypatch, AttrParser, "_parse_tensor_attrs")
    with removed("tensor-type-memo"):
        parse_module(text)
    assert tensor_parses.calls == 20
    tensor_parses.calls = 0
    (function,) = parse_module(text).ops
    assert tensor_parses.calls <= 1
    assert {str(t) for t in function.function_type.inputs} == {spelling}


def test_fast_common_tokens_skip_xdsls_lexer_for_the_commonest_tokens(monkeypatch):
    """xDSL's lexer (its punctuation table built per call) runs once per token: 13
    tokens here (`%0 = xla.add %a , %b : tensor < 2 x3xf32 >` and the end); only the
    integer literal and the end are not among the commonest."""
    from xdsl.utils.lexer import Input
    from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

    text = "%0 = xla.add %a, %b : tensor<2x3xf32>"

    def tokens() -> list[str]:
        lexer, found = MLIRLexer(Input(text, "f")), []
        while (token := lexer.lex()).kind != MLIRTokenKind.EOF:
            found.append(token.text)
        return found

    general_lexes = count_calls(monkeypatch, MLIRLexer, "_consume_whitespace")
    with removed("fast-common-tokens"):
        expected = tokens()
    assert general_lexes.calls == 13
    general_lexes.calls = 0
    assert tokens() == expected == ["%0", "=", "xla.add", "%a", ",", "%b", ":", "tensor", "<", "2", "x3xf32", ">"]
    assert general_lexes.calls == 2


# --------------------------------------------------------------------------------------
# ir.py
# --------------------------------------------------------------------------------------


def _chain_of_blocks(n: int) -> ModuleOp:
    """A function of `n` blocks, each branching to the next."""
    blocks = [Block() for _ in range(n)]
    for block, successor in itertools.pairwise(blocks):
        block.add_op(cf.BranchOp(successor))
    blocks[-1].add_op(func.ReturnOp())
    return ModuleOp([func.FuncOp("f", ((), ()), Region(blocks))])


def test_linear_verifier_walks_the_blocks_a_linear_number_of_times(monkeypatch):
    """xDSL counted the region's blocks (a walk) at each block's terminator: twice the
    blocks, four times the steps; the patched verifier's steps grow as the blocks."""
    small, large = _chain_of_blocks(100), _chain_of_blocks(200)
    steps = block_walk_steps(monkeypatch)

    def steps_to_verify(module: ModuleOp) -> int:
        steps.calls = 0
        module.verify()
        return steps.calls

    with removed("linear-verifier"):
        assert steps_to_verify(large) / steps_to_verify(small) > 3.5
    assert steps_to_verify(large) / steps_to_verify(small) < 2.5


def test_linear_block_split_walks_no_block_list(monkeypatch):
    """Splitting a block before each of its ops: xDSL found the block's index and
    inserted at the next one, two walks of the region per split, ~n^2 steps in all."""
    n = 100

    def split_every_op() -> Region:
        block = Block([arith.ConstantOp.from_int_and_width(i, i32) for i in range(n)])
        region = Region([block])
        for op in list(block.ops)[1:]:
            block = block.split_before(op)
        return region

    steps = block_walk_steps(monkeypatch)
    with removed("linear-block-split"):
        before = [[op.value.value.data for op in b.ops] for b in split_every_op().blocks]
    assert steps.calls > n * (n - 1)  # index + 1 and index + 2 steps for the split of block index
    steps.calls = 0
    region = split_every_op()
    assert steps.calls == 0
    assert [[op.value.value.data for op in b.ops] for b in region.blocks] == before == [[i] for i in range(n)]


def test_memoized_symbol_lookups_walk_each_symbol_table_once(monkeypatch):
    """Verifying n functions that each call the next: xDSL looked every callee up by a
    walk of the module's ops (~n^2 steps); while a module is verified, the patched
    lookup builds the module's table once. The calls verify the same either way."""
    from xdsl.traits import SymbolOpInterface

    from xla_opt.diagnostics import verify_module

    n = 100
    calls = [f"func.call @f{i + 1}() : () -> ()" for i in range(n - 1)] + [""]
    functions = [f"func.func private @f{i}() {{\n  {call}\n  func.return\n}}" for i, call in enumerate(calls)]
    module = Parser(make_context(), "\n".join(functions)).parse_module()
    asked = [0]
    original = SymbolOpInterface.get_sym_attr_name

    def counted(self, op):  # type: ignore[no-untyped-def]
        asked[0] += 1
        return original(self, op)

    monkeypatch.setattr(SymbolOpInterface, "get_sym_attr_name", counted)
    with removed("memoized-symbol-lookups"):
        assert verify_module(module) == []
    assert asked[0] > n * n / 3
    asked[0] = 0
    assert verify_module(module) == []
    assert asked[0] <= 3 * n
    bad = Parser(make_context(), "func.func @g() {\n  func.call @missing() : () -> ()\n  func.return\n}").parse_module()
    assert "missing" in verify_module(bad)[0].message


def test_cached_dense_arrays_build_a_short_integer_array_once():
    """Each op with several variadic operand groups builds its segment sizes:
    xDSL built a new attribute per call."""
    with removed("cached-dense-arrays"):
        built = [DenseArrayBase.from_list(i32, [1, 2, 0]) for _ in range(50)]
    assert len({id(a) for a in built}) == 50
    shared = [DenseArrayBase.from_list(i32, [1, 2, 0]) for _ in range(50)]
    assert len({id(a) for a in shared}) == 1
    assert shared[0] == built[0] and shared[0].get_values() == (1, 2, 0)


def test_fast_op_arguments_make_no_abc_check(monkeypatch):
    """xDSL's irdl_build_arg_list asks `isinstance(arg, Sequence)` of each argument of
    each op it builds (an ABC check); the patch asks once per class."""
    import abc
    from collections.abc import Sequence

    from xdsl.dialects import memref
    from xdsl.dialects.builtin import MemRefType, f32

    checks = Counter(abc.ABCMeta.__instancecheck__)

    def instancecheck(cls, instance):  # type: ignore[no-untyped-def]
        if cls is Sequence:
            return checks(cls, instance)
        return checks.wrapped(cls, instance)

    block = Block(arg_types=[f32, MemRefType(f32, [4]), IndexType()])
    value, buffer, index = block.args
    memref.StoreOp.get(value, buffer, [index])  # each class seen once
    monkeypatch.setattr(abc.ABCMeta, "__instancecheck__", instancecheck)
    with removed("fast-op-arguments"):
        for _ in range(10):
            memref.StoreOp.get(value, buffer, [index])  # variadic indices: the general builder
    assert checks.calls >= 10 * 3  # its three operand groups at least
    checks.calls = 0
    stores = [memref.StoreOp.get(value, buffer, [index]) for _ in range(10)]
    assert checks.calls == 0
    assert [list(s.operands) for s in stores] == [[value, buffer, index]] * 10


def test_fast_op_init_builds_a_fixed_arity_op_without_the_general_builder(monkeypatch):
    """xDSL's builder calls irdl_build_arg_list four times per op (operands, results,
    regions, successors), whatever the op."""
    from xdsl.irdl import operations

    x, y = Block(arg_types=[i32, i32]).args
    arg_lists = count_calls(monkeypatch, operations, "irdl_build_arg_list")
    with removed("fast-op-init"):
        general = [arith.AddiOp(x, y) for _ in range(10)]
    assert arg_lists.calls == 4 * 10
    arg_lists.calls = 0
    direct = [arith.AddiOp(x, y) for _ in range(10)]
    assert arg_lists.calls == 0
    for a, b in zip(general, direct):
        assert (list(a.operands), a.result_types, a.properties, a.attributes) == (
            list(b.operands),
            b.result_types,
            b.properties,
            b.attributes,
        )


def test_typed_structural_equivalence_compares_result_types():
    """MLIR's OperationEquivalence compares result types (the reproducer: a sort's i32
    payload gathered by the kernel of its f64 payload)."""
    index = arith.ConstantOp.from_int_and_width(3, IndexType())
    to_i32, to_i64 = arith.IndexCastOp(index.result, i32), arith.IndexCastOp(index.result, i64)
    with removed("typed-structural-equivalence"):
        assert to_i32.is_structurally_equivalent(to_i64)
    assert not to_i32.is_structurally_equivalent(to_i64)
    assert to_i32.is_structurally_equivalent(arith.IndexCastOp(index.result, i32))


# --------------------------------------------------------------------------------------
# rewriting.py
# --------------------------------------------------------------------------------------

LOCATED_ADD = """func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32 loc("f.py":3:4)
  func.return %0 : i32
}
"""


def test_rewrite_locations_give_a_created_op_the_replaced_ops_location():
    """MLIR's rule: the op a pattern creates in place of another takes its location."""

    class AddToSub(RewritePattern):
        @op_type_rewrite_pattern
        def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter) -> None:
            rewriter.replace(op, arith.SubiOp(op.lhs, op.rhs))

    def rewritten_location() -> object:
        module = parse_module(LOCATED_ADD)
        PatternRewriteWalker(AddToSub()).rewrite_module(module)
        (sub,) = [op for op in module.walk() if isinstance(op, arith.SubiOp)]
        return sub.location

    with removed("rewrite-locations"):
        assert isinstance(rewritten_location(), UnknownLoc)
    assert rewritten_location() == FileLineColLoc(StringAttr("f.py"), IntAttr(3), IntAttr(4))


def test_early_exit_effects_stop_at_the_first_effect(monkeypatch):
    """Whether a loop is trivially dead: xDSL collected the effects of every op in it
    (two trait lookups per op); the answer (no: it stores) is known at the store."""
    import xdsl.transforms.dead_code_elimination as dce

    adds = "\n".join(f"    %s{i} = arith.addf %v, %v : f32" for i in range(30))
    module = parse_module(
        "func.func @f(%m: memref<4xf32>, %v: f32) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c4 = arith.constant 4 : index\n"
        f"  scf.for %i = %c0 to %c4 step %c1 {{\n{adds}\n    memref.store %v, %m[%i] : memref<4xf32>\n  }}\n"
        "  func.return\n}\n"
    )
    (loop,) = [op for op in module.walk() if op.name == "scf.for"]
    lookups = count_calls(monkeypatch, Operation, "get_traits_of_type")
    with removed("early-exit-effects"):
        assert dce.result_only_effects(loop) is False
    assert lookups.calls >= 30 * 2
    lookups.calls = 0
    assert dce.result_only_effects(loop) is False
    assert lookups.calls <= 4  # the loop, its yield, the store


SCF_AMONG_ARITH = """func.func @f(%c: i1, %x: i32) -> i32 {
%s
  %r = scf.if %c -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %a29 : i32
  }
  func.return %r : i32
}
""".replace("%s", "\n".join(f"  %a{i} = arith.addi %{f'a{i - 1}' if i else 'x'}, %x : i32" for i in range(30)))


def test_conversion_sweeps_visit_only_the_ops_they_convert(monkeypatch):
    """xDSL's greedy walker tried convert-scf-to-cf's patterns on every op of the
    module (and walks it again to confirm nothing matches); the output is xDSL's (on a
    program without dead ops: xDSL's walker erases any it visits)."""
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier
    from xdsl.transforms.convert_scf_to_cf import ConvertScfToCf

    tries = count_calls(monkeypatch, GreedyRewritePatternApplier, "match_and_rewrite")

    def lowered() -> str:
        module = parse_module(SCF_AMONG_ARITH)
        ConvertScfToCf().apply(CTX, module)
        return str(module)

    with removed("conversion-sweeps"):
        expected = lowered()
    assert tries.calls > 30  # the additions, the scf ops, the function
    tries.calls = 0
    assert lowered() == expected
    assert "cf.cond_br" in expected and "scf.if" not in expected
    assert tries.calls <= 3  # scf.if, and its two scf.yield once moved


def test_linalg_memory_effects_make_an_unused_generic_on_tensors_dead_code():
    """An unused linalg.generic on tensors (the iota a top_k's lowering left) survived
    canonicalization with unknown effects; with MLIR's operand effects it is erased,
    and one writing a memref stays."""
    from xdsl.transforms.canonicalize import CanonicalizePass

    generic = """  %{r} = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} outs(%{o} : {t}) {{
  ^bb0(%x: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  }}{result}
"""
    text = (
        "func.func @f(%m: memref<8xi32>) {\n  %e = tensor.empty() : tensor<8xi32>\n"
        + generic.format(r="t", o="e", t="tensor<8xi32>", result=" -> tensor<8xi32>")
        + generic.format(r="unused", o="m", t="memref<8xi32>", result="").replace("%unused = ", "")
        + "  func.return\n}\n"
    )

    def generics_left() -> int:
        module = parse_module(text)
        CanonicalizePass().apply(CTX, module)
        return sum(op.name == "linalg.generic" for op in module.walk())

    with removed("linalg-memory-effects"):
        assert generics_left() == 2
    assert generics_left() == 1  # the memref's


# --------------------------------------------------------------------------------------
# llvm_translation.py
# --------------------------------------------------------------------------------------


def _llvm_ir(text: str) -> str:
    from xdsl.backend.llvm.convert import convert_module

    return str(convert_module(parse_module(text), fallback_target_triple=""))


def test_llvm_casts_translate_to_their_opcodes():
    """LLVM IR's `uitofp`, `fptosi` and `fptoui` instructions."""
    text = """llvm.func @f(%x: i32, %y: f32) -> i32 {
  %0 = llvm.uitofp %x : i32 to f32
  %1 = llvm.fptosi %0 : f32 to i32
  %2 = llvm.fptoui %y : f32 to i32
  %3 = llvm.add %1, %2 : i32
  llvm.return %3 : i32
}
"""
    with removed("llvm-casts"), pytest.raises(NotImplementedError, match="not implemented for op: llvm.uitofp"):
        _llvm_ir(text)
    ir = _llvm_ir(text)
    assert re.search(r"= uitofp i32 .* to float", ir) and re.search(r"= fptosi float .* to i32", ir)
    assert re.search(r"= fptoui float .* to i32", ir)


def test_llvm_function_attributes_keep_linkage_and_passthrough():
    """MLIR's translation keeps an llvm.func's linkage and its passthrough attributes."""
    text = """llvm.func internal @g(%x: f32) -> f32 attributes {passthrough = ["alwaysinline"]} {
  llvm.return %x : f32
}
"""

    def define_line() -> str:
        return next(line for line in _llvm_ir(text).splitlines() if line.startswith("define"))

    with removed("llvm-function-attributes"):
        dropped = define_line()
    assert dropped.startswith("define float") and "alwaysinline" not in dropped
    kept = define_line()
    assert kept.startswith("define internal float") and kept.endswith("alwaysinline")


# --------------------------------------------------------------------------------------
# the registry
# --------------------------------------------------------------------------------------


def test_the_registry_lists_every_patch_described_and_tested():
    from xla_opt.xdsl_patches import Patch, ir, llvm_translation, parsing, rewriting

    defined = {v for m in (parsing, ir, rewriting, llvm_translation) for v in vars(m).values() if isinstance(v, Patch)}
    assert defined == set(PATCHES) and len(REGISTRY) == len(PATCHES) == 22
    source = Path(__file__).read_text()
    for patch in PATCHES:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", patch.name)
        assert len(patch.reason) > 80 and patch.upstream and re.fullmatch(r"\d+\.\d+", patch.xdsl_version)
        assert f'removed("{patch.name}")' in source, f"no test removes {patch.name}"
    # every numbered reason, 1 to 23 (1 and 2 are one patch)
    assert sorted(int(n) for p in PATCHES for n in re.findall(r"\((\d+)\) ", p.reason)) == list(range(1, 24))


def test_install_by_name_and_uninstall_put_back_xdsls_code():
    patch = REGISTRY["linear-block-split"]
    patched = Block.split_before
    xdsl_patches.uninstall(["linear-block-split"])
    try:
        assert not patch.installed and Block.split_before is not patched
        assert Block.split_before.__module__ == "xdsl.ir.core"
        xdsl_patches.install(["linear-block-split"])
        xdsl_patches.install()  # idempotent
        assert patch.installed and Block.split_before is patched
    finally:
        xdsl_patches.install()
    with pytest.raises(KeyError, match="no xDSL patch named no-such-patch"):
        xdsl_patches.install(["no-such-patch"])


def test_a_replacement_undone_under_a_later_one_is_refused():
    from xla_opt.xdsl_patches.patch import Changes

    class Owner:
        def f(self) -> int:
            return 1

    first, second = Changes("first"), Changes("second")
    first.replace(Owner, "f", lambda self: 2)
    second.replace(Owner, "f", lambda self: 3)
    with pytest.raises(RuntimeError, match="first: Owner.f was replaced again"):
        first.undo()
    second.undo()
    first.undo()
    assert Owner().f() == 1


def test_the_installed_xdsl_version_is_read_from_its_dist_info():
    """The version a patch was written for is compared with the installed one, read
    from the `xdsl-<version>.dist-info` folder (importlib.metadata's answer)."""
    import importlib.metadata

    from xla_opt.xdsl_patches import patch as patch_module

    assert patch_module._installed_xdsl_version() == importlib.metadata.version("xdsl")


def test_a_minor_version_mismatch_warns_once_naming_the_patches(monkeypatch):
    from xla_opt.xdsl_patches import patch as patch_module

    monkeypatch.setattr(patch_module, "_warned", set())
    names = ["typed-structural-equivalence", "linear-block-split"]
    monkeypatch.setattr(patch_module, "_installed_xdsl_version", lambda: "0.74.9")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        xdsl_patches.uninstall(names)
        xdsl_patches.install(names)  # another patch release: no warning
    monkeypatch.setattr(patch_module, "_installed_xdsl_version", lambda: "0.75.0")
    xdsl_patches.uninstall(names)
    with pytest.warns(XdslVersionWarning) as record:
        xdsl_patches.install(names)
    (warning,) = record
    message = str(warning.message)
    assert "xDSL 0.75.0 is installed" in message and "written for xDSL 0.74" in message
    assert all(name in message for name in names)
    with warnings.catch_warnings():  # once: not again for the same patches
        warnings.simplefilter("error")
        xdsl_patches.uninstall(names)
        xdsl_patches.install(names)
    assert all(REGISTRY[name].installed for name in names)
