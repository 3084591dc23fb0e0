"""Typed property accessors (issue 9): every property of an xla op is read through its
generated `get_<name>()` (spec defaults applied), and no layer decodes one by hand."""

from __future__ import annotations

import re
from pathlib import Path

from xla_opt.dialects import xla
from xla_opt.dialects.shapes.windows import Window

import xla_opt

ROOT = Path(__file__).resolve().parents[1]


def only_op(program: str, op_type: type):
    module = xla_opt.load_program(program)
    (op,) = [o for o in module.walk() if isinstance(o, op_type)]
    return op


REDUCE_WINDOW = """
func.func @main(%x: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<2x5xf32> {
  %r = xla.reduce_window (%x), (%z), window_dimensions = [2, 2], window_strides = [2, 1], padding = [[0, 0], [0, 0]] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}
"""


def test_window_accessor_applies_the_spec_defaults():
    op = only_op(REDUCE_WINDOW, xla.ReduceWindowOp)
    assert op.get_window_dimensions() == (2, 2)
    assert op.get_window_strides() == (2, 1)
    assert op.get_base_dilations() is None  # absent, no default of its own
    assert op.window() == Window((2, 2), (2, 1), (1, 1), (1, 1), ((0, 0), (0, 0)))


def test_absent_optional_properties_take_the_spec_defaults():
    dot = only_op(
        "func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x3x3x4xf32> {\n"
        "  %r = xla.dot_general %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x3x3x4xf32>\n"
        "  func.return %r : tensor<2x3x3x4xf32>\n}\n",
        xla.DotGeneralOp,
    )
    assert dot.get_lhs_contracting_dimensions() == () and dot.get_rhs_batching_dimensions() == ()
    sort = only_op(
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %r = xla.sort %x comparator {\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %c = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    xla.return %c : tensor<i1>\n"
        "  } : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  func.return %r : tensor<4xf32>\n}\n",
        xla.SortOp,
    )
    assert sort.get_is_stable() is False and sort.get_dimension() is None


def test_accessors_decode_each_kind_of_property():
    compare = only_op(
        "func.func @main(%a: tensor<2xf32>) -> tensor<2xi1> {\n"
        "  %r = xla.compare %a, %a, comparison_direction = GE, compare_type = TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
        "  func.return %r : tensor<2xi1>\n}\n",
        xla.CompareOp,
    )
    assert compare.get_comparison_direction() == "GE" and compare.get_compare_type() == "TOTALORDER"
    pad = only_op(
        "func.func @main(%a: tensor<2xf32>, %p: tensor<f32>) -> tensor<5xf32> {\n"
        "  %r = xla.pad %a, %p, edge_padding_low = [1], edge_padding_high = [0], interior_padding = [2] : (tensor<2xf32>, tensor<f32>) -> tensor<5xf32>\n"
        "  func.return %r : tensor<5xf32>\n}\n",
        xla.PadOp,
    )
    assert (pad.get_edge_padding_low(), pad.get_interior_padding()) == ((1,), (2,))


# Files whose code reads xla ops (the dialect's base defines the decoding itself).
LAYERS = [
    *(ROOT / "dialects" / "xla").glob("*.py"),
    *(ROOT / "xla_opt" / "interpreter").glob("*.py"),
    *(ROOT / "lowering" / "conversions" / "convert_xla_to_linalg").glob("*.py"),
    ROOT / "passes" / "transforms" / "xla_legalize_broadcast.py",
    *(ROOT / "passes" / "conversions" / "convert_xla_to_stablehlo").glob("*.py"),
]


def test_no_layer_decodes_an_xla_property_by_hand():
    names = sorted(
        {name for op in xla.ALL_OPS for name in op.get_irdl_definition().properties} - {"operandSegmentSizes"},
        key=len,
        reverse=True,
    )
    alternatives = "|".join(names)
    hand_decoding = re.compile(
        rf"\b(?:ints|int_matrix)\((?:self|op)\.(?:{alternatives})\)|\b(?:self|op)\.(?:{alternatives})\.(?:value\.data|data\.value)"
    )
    found = [
        f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
        for path in LAYERS
        if path.name != "base.py" or path.parent.name != "xla"
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if hand_decoding.search(line)
    ]
    assert not found, "decode through op.get_<property>() instead:\n" + "\n".join(found)
