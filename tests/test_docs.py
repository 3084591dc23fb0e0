"""The generated reference pages tell the truth (xla_opt/docs.py): docs/ops.md and
docs/passes.md are what the code generates, the op syntax they show is what the printer
prints, `xla-opt --list-passes` lists the passes and options of docs/passes.md, and
every pass's declared input and output dialects are what it really rewrites and creates
on sample programs."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from xla_opt import docs

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def test_generated_docs_are_current():
    out_of_date = sorted(path.relative_to(ROOT).as_posix() for path in docs.stale())
    assert not out_of_date, f"{', '.join(out_of_date)} out of date; run: {docs.UPDATE_COMMAND}"


def test_generating_is_deterministic():
    assert docs.generated() == docs.generated()


# --------------------------------------------------------------------------------------
# docs/ops.md: the syntax shown is the printer's
# --------------------------------------------------------------------------------------

_VALUE = r"%[^\s,()]+"


def syntax_regex(syntax: docs.OpSyntax) -> re.Pattern[str]:
    """What an op printed in the documented syntax looks like, its regions collapsed to
    `{...}` (see `collapse_regions`) and on one line."""
    pattern = rf"(?:{_VALUE}(?:, {_VALUE})* = )?" + re.escape(syntax.name)
    for _name, kind in syntax.operands:
        if kind == docs.SINGLE:
            pattern += rf"(?: |, ){_VALUE}"
        elif syntax.grouped:
            pattern += rf"(?: |, )\((?:{_VALUE}(?:, {_VALUE})*)?\)"
        else:
            pattern += rf"(?:(?: |, ){_VALUE}(?:, {_VALUE})*)?"
    for name, _form, optional in syntax.properties:
        # a value runs up to the next `, name = ` (lists have commas, not `=`)
        item = rf"(?: |, ){re.escape(name)} = (?:(?!, \w+ = ).)+?"
        pattern += f"(?:{item})?" if optional else item
    for name, kind in syntax.regions:
        if kind == docs.SINGLE:
            pattern += rf" {name} \{{\.\.\.\}}"
        else:
            item = rf" {name}\(\{{\.\.\.\}}(?:, \{{\.\.\.\}})*\)"
            pattern += f"(?:{item})?" if kind == docs.OPTIONAL else item
    return re.compile(pattern + r"(?: attributes \{.*\})?(?: : .+)?")


def collapse_regions(text: str) -> str:
    """Every brace group spanning lines (a region) as `{...}`; strings left alone."""
    out: list[str] = []
    opened: list[int] = []
    in_string = False
    for i, c in enumerate(text):
        if c == '"' and (i == 0 or text[i - 1] != "\\"):
            in_string = not in_string
        elif not in_string and c == "{":
            opened.append(len(out))
        elif not in_string and c == "}" and opened:
            start = opened.pop()
            if "\n" in "".join(out[start:]):
                out[start:] = ["{...}"]
                continue
        out.append(c)
    return "".join(out)


def test_documented_syntax_is_what_the_printer_prints():
    """Every op of every round-trip test, printed, has its documented syntax."""
    from xla_opt.dialects.xla import ALL_OPS

    from xla_opt.context import make_context
    from xla_opt.diagnostics import parse_source

    by_name = {op.name: op for op in ALL_OPS}
    seen: set[str] = set()
    wrong = []
    for path in sorted((ROOT / "lit_tests" / "dialect").glob("*_roundtrip.mlir")):
        for op in parse_source(make_context(), path.read_text(), str(path)).walk():
            if op.name not in by_name:
                continue
            seen.add(op.name)
            syntax = docs.op_syntax(by_name[op.name])
            printed = " ".join(collapse_regions(str(op)).split())
            if syntax.custom is None and not syntax_regex(syntax).fullmatch(printed):
                wrong.append(f"{path.name}: {printed[:200]}\n    documented: {syntax.render()}")
    assert not wrong, "\n".join(wrong)
    unchecked = sorted(set(by_name) - seen)
    assert not unchecked, f"no lit_tests/dialect/*_roundtrip.mlir prints {unchecked}: their syntax is unchecked"


def test_syntax_check_rejects_a_wrong_form():
    from xla_opt.dialects.xla import ReduceOp, SortOp

    reduce = syntax_regex(docs.op_syntax(ReduceOp))
    assert reduce.fullmatch("%0 = xla.reduce (%a), (%z), dimensions = [0] body {...} : (t, t) -> t")
    assert not reduce.fullmatch("%0 = xla.reduce %a, %z, dimensions = [0] body {...} : (t, t) -> t")
    sort = syntax_regex(docs.op_syntax(SortOp))
    assert sort.fullmatch("%0 = xla.sort %a, dimension = 0, is_stable = true comparator {...} : t")
    assert not sort.fullmatch("%0 = xla.sort %a, is_stable = true, dimension = 0 comparator {...} : t")


def test_every_op_says_where_its_layers_live():
    """Each op's entry names the file of every layer that handles it, and the file is there."""
    from xla_opt.dialects.xla import ALL_OPS

    page = docs.OPS_PAGE.read_text()
    for op in ALL_OPS:
        section = page.split(f"### `{op.name}`\n", 1)[1].split("\n### ", 1)[0]
        for layer in ("defined", "interpreter", "lowering to LLVM", "StableHLO import", "StableHLO export"):
            (line,) = re.findall(rf"^- \*\*{layer}\*\*: (.*)$", section, re.MULTILINE)
            for path in re.findall(r"`([\w/]+\.py)`", line):
                assert (ROOT / path).is_file(), (op.name, layer, path)
            assert line.startswith(docs.NO) or ".py`" in line, (op.name, layer, line)


# --------------------------------------------------------------------------------------
# docs/passes.md and `xla-opt --list-passes`
# --------------------------------------------------------------------------------------


def _cli_passes() -> dict[str, tuple[str, list[str]]]:
    """Our passes as `xla-opt --list-passes` prints them: name -> (summary, options)."""
    done = subprocess.run(
        [str(BIN / "xla-opt"), "--list-passes"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    ours = done.stdout.split("xla-opt passes:\n", 1)[1].split("\n\n", 1)[0]
    passes: dict[str, tuple[str, list[str]]] = {}
    options: list[str] = []
    for line in ours.splitlines():
        if option := re.fullmatch(r" {6}\{(.*)\}", line):
            options.append(option.group(1))
        else:
            name, _, summary = line.strip().partition("  - ")
            options = []
            passes[name] = (summary, options)
    return passes


def _page_passes() -> dict[str, tuple[str, list[str]]]:
    """Our passes as docs/passes.md documents them: name -> (section text, options)."""
    page = docs.PASSES_PAGE.read_text()
    passes = {}
    for section in page.split("\n### `")[1:]:
        name, _, text = section.partition("`\n")
        if "**Options**" not in text:
            continue  # xDSL's stages
        options = re.findall(r"^- `([^`]*)`", text.split("**Options**", 1)[1], re.MULTILINE)
        passes[name] = (text, options)
    return passes


def test_list_passes_matches_the_passes_page():
    cli, page = _cli_passes(), _page_passes()
    assert sorted(cli) == sorted(page)
    for name, (summary, options) in cli.items():
        text, documented = page[name]
        assert options == documented, (name, options, documented)
        assert " ".join(summary.split()) in " ".join(text.split()), (name, summary)


# --------------------------------------------------------------------------------------
# Declared dialects: what each pass rewrites and creates on sample programs
# --------------------------------------------------------------------------------------

# A JAX program (jax.jit(block).lower(...).as_text(), its lines wrapped) with a batch
# normalization added (as TensorFlow emits one): a transposed matrix product, chlo.erf,
# a while loop, a 2-D convolution, a sort, a big element-wise result (parallel loops,
# streamed stores), an f8 round trip, an argmax (a variadic reduce), a Shardy mesh.
JAX_PROGRAM = """\
module @jit_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=1]> {stablehlo.mesh = {axes = [{name = "x", size = 1 : i64}]}}
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
      %arg1: tensor<64x32xf32>, %arg2: tensor<1x32x32x16xf32>, %arg3: tensor<3x3x16x32xf32>,
      %arg4: tensor<1024x1024xf32>, %arg5: tensor<8xf32>)
      -> (tensor<64xf32> {jax.result_info = "result[0]"}, tensor<1x32x32x32xf32> {jax.result_info = "result[1]"},
          tensor<1024x1024xf32> {jax.result_info = "result[2]"}, tensor<16xi32> {jax.result_info = "result[3]"},
          tensor<8xf32> {jax.result_info = "result[4]"}, tensor<5xi32> {jax.result_info = "result[5]"},
          tensor<16x32xf32> {jax.result_info = "result[6]"}) {
    %0 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %1 = stablehlo.dot_general %arg0, %0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT]
        : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %2 = stablehlo.tanh %1 : tensor<16x64xf32>
    %3 = chlo.erf %2 : tensor<16x64xf32> -> tensor<16x64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4:2 = stablehlo.while(%iterArg = %c, %iterArg_3 = %3) : tensor<i32>, tensor<16x64xf32>
    cond {
      %c_4 = stablehlo.constant dense<3> : tensor<i32>
      %17 = stablehlo.compare LT, %iterArg, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %17 : tensor<i1>
    } do {
      %17 = func.call @closed_call(%iterArg_3) : (tensor<16x64xf32>) -> tensor<16x64xf32>
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %18 = stablehlo.add %iterArg, %c_4 : tensor<i32>
      stablehlo.return %18, %17 : tensor<i32>, tensor<16x64xf32>
    }
    %5 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
        window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1],
        reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
        precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}
        : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32>
    %bn_s = stablehlo.constant dense<1.000000e+00> : tensor<32xf32>
    %bn = "stablehlo.batch_norm_inference"(%5, %bn_s, %bn_s, %bn_s, %bn_s)
        {epsilon = 1.000000e-03 : f32, feature_index = 3 : i64}
        : (tensor<1x32x32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
        -> tensor<1x32x32x32xf32>
    %6 = call @sort(%4#1) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %8 = stablehlo.multiply %arg4, %7 : tensor<1024x1024xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %10 = stablehlo.add %8, %9 : tensor<1024x1024xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %12 = stablehlo.maximum %10, %11 : tensor<1024x1024xf32>
    %13 = stablehlo.convert %arg5 : (tensor<8xf32>) -> tensor<8xf8E4M3FN>
    %14 = stablehlo.convert %13 : (tensor<8xf8E4M3FN>) -> tensor<8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [0]
        : (tensor<16x64xf32>, tensor<f32>) -> tensor<64xf32>
    %16 = call @argmax(%arg0) : (tensor<16x32xf32>) -> tensor<16xi32>
    %neg = stablehlo.negate %arg5 : tensor<8xf32>
    %smallest, %where = chlo.top_k(%neg, k = 2) : tensor<8xf32> -> (tensor<2xf32>, tensor<2xi32>)
    %where_3 = stablehlo.concatenate %where, %16, dim = 0 : (tensor<2xi32>, tensor<16xi32>) -> tensor<18xi32>
    %where_5 = stablehlo.slice %where_3 [0:5] : (tensor<18xi32>) -> tensor<5xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %rnn:3 = stablehlo.while(%i = %c_5, %h = %arg0, %w = %arg1) : tensor<i32>, tensor<16x32xf32>, tensor<64x32xf32>
    cond {
      %c_6 = stablehlo.constant dense<2> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %up = stablehlo.dot_general %h, %w, contracting_dims = [1] x [1] : (tensor<16x32xf32>, tensor<64x32xf32>) -> tensor<16x64xf32>
      %down = stablehlo.dot_general %up, %w, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
      %next = stablehlo.tanh %down : tensor<16x32xf32>
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %i_1 = stablehlo.add %i, %c_7 : tensor<i32>
      stablehlo.return %i_1, %next, %w : tensor<i32>, tensor<16x32xf32>, tensor<64x32xf32>
    }
    return %15, %bn, %12, %16, %14, %where_5, %rnn#1
        : tensor<64xf32>, tensor<1x32x32x32xf32>, tensor<1024x1024xf32>, tensor<16xi32>, tensor<8xf32>, tensor<5xi32>,
          tensor<16x32xf32>
  }
  func.func private @closed_call(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<16x64xf32>
    %2 = stablehlo.exponential %arg0 : tensor<16x64xf32>
    %3 = stablehlo.add %1, %2 : tensor<16x64xf32>
    return %3 : tensor<16x64xf32>
  }
  func.func private @sort(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.select %1, %cst, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.select %5, %cst, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.select %7, %cst_1, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    return %0 : tensor<16x64xf32>
  }
  func.func private @argmax(%arg0: tensor<16x32xf32>) -> tensor<16xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<16x32xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1]
        : (tensor<16x32xf32>, tensor<16x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<16xi32>
  }
}
"""


@dataclasses.dataclass
class Observed:
    """What one pass did over the samples: the dialects whose ops it left fewer of
    (consumed) or more of (produced), those present both before and after a run that
    changed the program (rewritten in place, maybe), and the samples it changed."""

    consumed: set[str] = dataclasses.field(default_factory=set)
    produced: set[str] = dataclasses.field(default_factory=set)
    kept: set[str] = dataclasses.field(default_factory=set)
    changed: set[str] = dataclasses.field(default_factory=set)

    def record(self, sample: str, before: Counter, after: Counter, changed: bool) -> None:
        self.consumed |= {dialect for dialect, op in before if after[dialect, op] < before[dialect, op]}
        self.produced |= {dialect for dialect, op in after if after[dialect, op] > before[dialect, op]}
        if changed:
            self.changed.add(sample)
            self.kept |= {d for d, _ in before} & {d for d, _ in after}


def op_counts(module) -> Counter:
    return Counter((op.dialect_name(), op.name) for op in module.walk() if op is not module)


# A program of 2 partitions, for xla-spmd-partition.
# Two views of one buffer, read and written by one loop nest: outline-loop-nests cannot
# promise the kernel they do not alias, so it passes them as pointers, cast back
# (builtin.unrealized_conversion_cast). The pipeline's samples no longer reach it since
# fusion reads an input once (linalg-fuse-elementwise).
ALIASED_VIEWS = """func.func @main(%m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.subview %m[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %b = memref.subview %m[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf32, strided<[1]>>
    memref.store %v, %b[%i] : memref<4xf32, strided<[1], offset: 4>>
  }
  func.return
}"""

SHARDED_PROGRAM = """module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @main(%x: tensor<4x4xf32>) -> tensor<4xf32> {
    %0 = xla.exponential %x : tensor<4x4xf32>
    %z = xla.constant dense<0.0> : tensor<f32>
    %1 = xla.reduce (%0), (%z), dimensions = [1] body {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.add %a, %b : tensor<f32>
      xla.return %s : tensor<f32>
    } : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    func.return %1 : tensor<4xf32>
  }
}
"""


@cache
def observations() -> dict[str, Observed]:
    """Every pass of the pipeline run in order on examples/*.mlir and JAX_PROGRAM
    (StableHLO imported first), convert-xla-to-stablehlo on each imported program, and
    xla-to-llvm as the whole pipeline: what each did."""
    from xla_opt.dialects.xla import FAMILIES
    from xla_opt.lowering.transforms.outline_loop_nests import OutlineLoopNestsPass
    from xla_opt.lowering.xla_to_llvm import stage_passes
    from xla_opt.passes.conversions.convert_stablehlo_to_xla import ConvertStablehloToXlaPass
    from xla_opt.passes.conversions.convert_xla_to_stablehlo import ConvertXlaToStablehloPass
    from xla_opt.passes.transforms.xla_spmd_partition import XlaSpmdPartitionPass

    from xla_opt.context import make_context
    from xla_opt.diagnostics import DiagnosticError, parse_source

    collectives = {op.name for op in FAMILIES["collectives"][0]}
    samples = {path.stem: path.read_text() for path in sorted((ROOT / "examples").glob("*.mlir"))}
    samples["jax_program"] = JAX_PROGRAM
    seen: dict[str, Observed] = {}

    def run(sample: str, name: str, p, ctx, module) -> None:
        before, text = op_counts(module), str(module)
        p.apply(ctx, module)
        after = op_counts(module)
        seen.setdefault(name, Observed()).record(sample, before, after, before != after or str(module) != text)

    for sample, text in samples.items():
        ctx = make_context()
        module = parse_source(ctx, text, sample)
        if any(op.dialect_name() in ("stablehlo", "chlo") for op in module.walk()):
            run(sample, "convert-stablehlo-to-xla", ConvertStablehloToXlaPass(), ctx, module)
        if not any(op.name in collectives for op in module.walk()):  # single-device StableHLO
            run(sample, "convert-xla-to-stablehlo", ConvertXlaToStablehloPass(), ctx, module.clone())
        start = op_counts(module)
        for name, p in stage_passes():
            if name == "stream-result-stores":  # its default threshold is a quarter of the host's cache
                p = dataclasses.replace(p, min_bytes=1 << 20)
            try:
                run(sample, name, p, ctx, module)
            except DiagnosticError:
                # a program of several replicas lowers on the ranks of an MPI job only
                assert name == "convert-xla-to-linalg" and any(op.name in collectives for op in module.walk())
                break
        else:
            seen.setdefault("xla-to-llvm", Observed()).record(sample, start, op_counts(module), True)
    ctx = make_context()
    run("sharded", "xla-spmd-partition", XlaSpmdPartitionPass(), ctx, parse_source(ctx, SHARDED_PROGRAM, "sharded"))
    ctx = make_context()
    module = parse_source(ctx, ALIASED_VIEWS, "aliased_views")
    run("aliased_views", "outline-loop-nests", OutlineLoopNestsPass(), ctx, module)
    return seen


def _declaring_passes() -> list[str]:
    from xla_opt.universe import PASSES

    return [*PASSES, *sorted(name for name, declared in docs.XDSL_STAGE_DIALECTS.items() if declared)]


def test_every_pass_of_ours_declares_its_dialects():
    from xla_opt.lowering.xla_to_llvm import STAGES

    from xla_opt.context import multiverse
    from xla_opt.universe import PASSES

    for name in PASSES:
        cls = multiverse().all_passes[name]()
        for attribute in ("input_dialects", "output_dialects"):
            assert isinstance(vars(cls).get(attribute), tuple), f"{cls.__name__} declares no {attribute}"
    assert sorted(docs.XDSL_STAGE_DIALECTS) == sorted(s for s in STAGES if s not in PASSES)


@pytest.mark.parametrize("name", _declaring_passes())
def test_declared_dialects_are_what_the_pass_does(name):
    """A dialect whose ops a pass leaves fewer of is one of its inputs, one it leaves
    more of one of its outputs; and every declared dialect is seen so, or (rewritten in
    place) is both an input and an output, present before and after a run that changed
    the program."""
    pipeline, others = docs.pass_docs()
    (declared,) = [d.dialects() for d in (*pipeline, *others) if d.name == name]
    inputs, outputs = map(set, declared)
    seen = observations().get(name)
    assert seen is not None and seen.changed, f"{name}: no sample program exercises it"
    consumed, produced = seen.consumed, seen.produced
    facts = f"(declared {sorted(inputs)} -> {sorted(outputs)}, observed {sorted(consumed)} -> {sorted(produced)})"
    assert consumed <= inputs, f"{name} removes ops of {sorted(consumed - inputs)} {facts}"
    assert produced <= outputs, f"{name} creates ops of {sorted(produced - outputs)} {facts}"
    in_place = inputs & outputs & seen.kept
    assert inputs <= consumed | in_place, f"{name} rewrites no {sorted(inputs - consumed - in_place)} {facts}"
    assert outputs <= produced | in_place, f"{name} creates no {sorted(outputs - produced - in_place)} {facts}"
