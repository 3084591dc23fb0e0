"""HLO text in: a module as XLA prints it, unoptimized (`lowered.as_text(dialect="hlo")`)
or optimized (`compiled.as_text()`, `XLA_FLAGS=--xla_dump_to`), becomes an xla program.

    from xla_opt.formats.hlo_text import parse_hlo_text
    module = parse_hlo_text(open("dump.hlo").read(), "dump.hlo")   # a verified ModuleOp

`xla-opt`, `xla-run` and `xla_opt.run/compile/load_program` read HLO text themselves
(a text that starts with `HloModule`, whatever its file's name). The syntax is read by
`hlo_syntax.py`; this module gives each instruction its xla op(s):

* HLO's opcodes are the operations of XLA's operation semantics, so most are one xla op
  of the same name (`dot` is `xla.dot_general`, `broadcast` is `xla.broadcast_in_dim`,
  `get-tuple-element` and `tuple` are read through: a tuple is a list of values until
  something needs it as one value), with the attributes in XLA's syntax
  (`window={size=3x3 stride=2x2 pad=0_1x0_1}`, `dim_labels=b01f_01io->b01f`,
  `slice={[0:4:1]}`, `replica_groups={{0,1}}` or `[2,2]<=[4]`...);
* computations: the entry is `@main`, taking the entry's parameters and returning its
  root (a tuple root returns its elements, as XLA's runtime untuples it); a computation
  that `call` calls is a private function taking and returning its tuples' elements;
  `to_apply`, `condition`/`body`, branches and comparators become the op's regions
  (a while's tuple state is its operands); a `fusion` (any kind) is inlined;
* layouts are read. A physical layout does not change what an op computes on logical
  values, not even a literal's: XLA prints and parses literals in logical order
  (`Literal::Relayout` after parsing); only `bitcast`, which reinterprets the physical
  buffer, depends on them: it becomes transposes around a reshape. `copy` (a change
  of layout) is its operand;
* `custom-call` becomes what the StableHLO importer makes of the same call (the LAPACK
  calls, `Sharding`, host callbacks, ApproxTopK: `convert-stablehlo-to-xla`'s rules,
  given a `stablehlo.custom_call`); XLA's CPU `TopK` call and the `topk` opcode are a
  sort and a slice; `erf`, `complex` and the hyperbolic and inverse trigonometric
  opcodes are the importer's chlo/stablehlo decompositions;
* `metadata={op_name="jit(f)/dot" source_file="f.py" source_line=12}` is the op's
  location, `loc("jit(f)/dot"("f.py":12:0))`; with `stack_frame_id`, the frame's file,
  line and column (the optimized form's stack-frame tables). Without metadata, the op is
  located at its line of the HLO text;
* shardings, `frontend_attributes`, `backend_config` (but a custom call's), scheduling
  and aliasing attributes are dropped: a sharded program runs whole on one device
  (Shardy's `xla.sdy.*` markers are their operands; a shard_map's shape-changing calls
  are an error). A partitioned module (`num_partitions=N`, XLA's SPMD output: each
  device's program) runs as N replicas: `partition-id` is the replica id.

Anything else (an unknown opcode, an attribute the op cannot honour, an elided
literal `{...}`) is one located error, `file:line:col: error: ...`, raised as
`ProgramError`.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    FileLineColLoc,
    FunctionType,
    IntAttr,
    IntegerAttr,
    ModuleOp,
    NameLoc,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    TupleType,
    UnknownLoc,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

from xla_opt.diagnostics import Diagnostic, DiagnosticError, ProgramError, one_line, verify_module
from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import TokenType
from xla_opt.dialects.xla.properties import i64_array

from .hlo_syntax import (
    Computation,
    HloError,
    HloModule,
    Instruction,
    Shape,
    fields,
    is_hlo_text,
    parse_module,
    unquote,
)

__all__ = ["HloTextError", "is_hlo_text", "parse_hlo_text"]


class HloTextError(DiagnosticError, ProgramError):
    """HLO text that does not read or verify: the located diagnostics (a
    `ProgramError` for the API, a `DiagnosticError` for xla-opt's driver)."""


# --------------------------------------------------------------------------------------
# Values: a tuple is a list of values until something needs it as one value
# --------------------------------------------------------------------------------------


@dataclass
class TupleValue:
    elements: list[Value]


Value = SSAValue | TupleValue


def _leaf_shapes(shape: Shape) -> list[Shape]:
    if shape.tuple_shapes is None:
        return [shape]
    return [leaf for s in shape.tuple_shapes for leaf in _leaf_shapes(s)]


# --------------------------------------------------------------------------------------
# Element types and literals
# --------------------------------------------------------------------------------------


def _element_type(name: str) -> Attribute:
    from xla_opt.builder import element_type

    return element_type(name)


def _array_type(shape: Shape) -> Attribute:
    if shape.is_token:
        return TokenType()
    if shape.tuple_shapes is not None:
        return TupleType(ArrayAttr([_array_type(s) for s in shape.tuple_shapes]))
    return TensorType(_element_type(shape.element), list(shape.dims))  # type: ignore[arg-type]


_LITERAL_ATOM = re.compile(r"-?nan\(0x[0-9a-fA-F]+\)|[^\s{},()]+")  # a NaN's payload is part of it
_ELIDED = re.compile(r"\s*\{\s*\.\.\.\s*\}\s*")


def _float_value(token: str) -> float:
    """A float of XLA's printing: decimal, `inf`, `-inf`, `nan`, `-nan`, `nan(0x...)`
    (a NaN with a payload, read as a NaN of the same sign)."""
    if "nan" in token:
        return -math.nan if token.startswith("-") else math.nan
    return float(token)


def parse_literal(text: str, shape: Shape) -> np.ndarray:
    """An array literal of `shape` in XLA's syntax (`1.5`, `{ {1, 2}, {3, 4} }`,
    `(1, 2)` complex numbers, `true`/`false` or 1/0 for pred), elements in logical
    (row-major) order whatever the layout. Raises ValueError."""
    from xla_opt.interpreter.dtypes import numpy_dtype

    if _ELIDED.fullmatch(text):
        raise ValueError(
            "the literal is elided ('{...}'): print the module with its constants "
            "(HloPrintOptions.print_large_constants, XLA_FLAGS=--xla_dump_large_constants)"
        )
    if text.count("{") != text.count("}"):
        raise ValueError("unbalanced braces in the literal")
    element = _element_type(shape.element)  # type: ignore[arg-type]
    dtype = numpy_dtype(element)
    size = math.prod(shape.dims)
    if dtype.kind == "c":
        pairs = re.findall(r"\(\s*([^,()\s]+)\s*,\s*([^,()\s]+)\s*\)", text)
        rest = re.sub(r"\(\s*[^,()\s]+\s*,\s*[^,()\s]+\s*\)", " ", text)
        if _LITERAL_ATOM.search(rest):
            raise ValueError(
                f"expected complex numbers '(re, im)' in the literal, got '{_LITERAL_ATOM.search(rest).group()}'"
            )  # type: ignore[union-attr]
        if len(pairs) != size:
            raise ValueError(f"the literal has {len(pairs)} elements, its shape {shape} {size}")
        values = [complex(_float_value(a), _float_value(b)) for a, b in pairs]
        return np.array(values, dtype=dtype).reshape(shape.dims)
    atoms = _LITERAL_ATOM.findall(text)
    if len(atoms) != size:
        raise ValueError(f"the literal has {len(atoms)} elements, its shape {shape} {size}")
    if dtype == np.bool_:
        table = {"true": True, "false": False, "1": True, "0": False}
        bad = next((a for a in atoms if a not in table), None)
        if bad is not None:
            raise ValueError(f"'{bad}' is not a pred value (true, false, 1 or 0)")
        return np.array([table[a] for a in atoms], dtype=np.bool_).reshape(shape.dims)
    if dtype.kind in "iu" or element.__class__.__name__ == "IntegerType":
        try:
            ints = [int(a) for a in atoms]
        except ValueError:
            bad = next(a for a in atoms if not re.fullmatch(r"-?\d+", a))
            raise ValueError(f"'{bad}' is not an integer of {shape.element}") from None
        from xla_opt.dialects.xla.element_types import bit_width

        width = bit_width(element)
        unsigned = shape.element.startswith("u")  # type: ignore[union-attr]
        low, high = (0, 2**width - 1) if unsigned else (-(2 ** (width - 1)), 2 ** (width - 1) - 1)
        bad = next((v for v in ints if not low <= v <= high), None)
        if bad is not None:
            raise ValueError(f"{bad} is out of the range of {shape.element}")
        return np.array(ints, dtype=np.int64 if not unsigned else np.uint64).astype(dtype).reshape(shape.dims)
    try:
        try:  # numpy's parsing, element by element only for NaN payloads (`nan(0x...)`)
            floats = np.array(atoms).astype(np.float64) if atoms else np.zeros(0)
        except ValueError:
            floats = np.array([_float_value(a) for a in atoms], dtype=np.float64)
    except ValueError:
        bad = next(
            a for a in atoms if not re.fullmatch(r"-?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|inf|nan.*)", a)
        )
        raise ValueError(f"'{bad}' is not a number of {shape.element}") from None
    with np.errstate(over="ignore"):
        return floats.astype(dtype).reshape(shape.dims)


# --------------------------------------------------------------------------------------
# Attribute values in XLA's syntax
# --------------------------------------------------------------------------------------

_INT = r"-?\d+"
_INT_LIST = re.compile(rf"\{{\s*(?:{_INT}(?:\s*,\s*{_INT})*)?\s*\}}")


def ints_of(text: str) -> list[int]:
    """`{1,0}` (or `{}`)."""
    if not _INT_LIST.fullmatch(text):
        raise ValueError(f"expected an integer list '{{1,2}}', got '{text}'")
    return [int(v) for v in re.findall(_INT, text)]


def int_of(text: str) -> int:
    if not re.fullmatch(_INT, text):
        raise ValueError(f"expected an integer, got '{text}'")
    return int(text)


def bool_of(text: str) -> bool:
    if text not in ("true", "false"):
        raise ValueError(f"expected true or false, got '{text}'")
    return text == "true"


def matrix_of(text: str) -> list[list[int]]:
    """`{{0,1},{2,3}}` (replica groups, source-target pairs); `{}` is no rows."""
    inner = text.strip()
    if not (inner.startswith("{") and inner.endswith("}")):
        raise ValueError(f"expected a list of integer lists '{{{{0,1}},{{2,3}}}}', got '{text}'")
    body = inner[1:-1].strip()
    if not body:
        return []
    rows = re.findall(r"\{[^{}]*\}", body)
    if re.sub(r"\{[^{}]*\}", "", body).replace(",", "").strip():
        raise ValueError(f"expected a list of integer lists '{{{{0,1}},{{2,3}}}}', got '{text}'")
    return [ints_of(r) for r in rows]


_IOTA_GROUPS = re.compile(r"\[([\d,\s]+)\]<=\[([\d,\s]+)\](?:T\(([\d,\s]+)\))?")


_MESH_GROUPS = re.compile(r"mesh\[([^\]]*)\]\s*\{([^}]*)\}")


def replica_groups_of(text: str) -> list[list[int]]:
    """`{{0,1},{2,3}}`; the iota form `[2,2]<=[4]` / `[2,2]<=[2,2]T(1,0)` (the device
    ids 0..n-1 reshaped to the second list, transposed by T, reshaped to [groups, group
    size]); or a mesh's axes `mesh['x'=2,'y'=2] {'x'}` (the devices of the mesh in
    row-major order, a group for each index of the other axes along the named ones)."""
    mesh = _MESH_GROUPS.fullmatch(text.strip())
    if mesh is not None:
        return _mesh_groups(text, mesh.group(1), mesh.group(2))
    m = _IOTA_GROUPS.fullmatch(text.replace(" ", ""))
    if m is None:
        return matrix_of(text)
    groups = [int(v) for v in m.group(1).split(",")]
    reshape = [int(v) for v in m.group(2).split(",")]
    perm = [int(v) for v in m.group(3).split(",")] if m.group(3) else list(range(len(reshape)))
    if len(groups) != 2 or sorted(perm) != list(range(len(reshape))) or math.prod(groups) != math.prod(reshape):
        raise ValueError(f"malformed iota replica groups '{text}'")
    ids = np.arange(math.prod(reshape)).reshape(reshape).transpose(perm).reshape(groups)
    return ids.tolist()


def _mesh_groups(text: str, axes_text: str, selected_text: str) -> list[list[int]]:
    axes = re.findall(r"'([^']*)'\s*=\s*(\d+)", axes_text)
    selected = re.findall(r"'([^']*)'", selected_text)
    names = [a for a, _ in axes]
    if not axes or re.sub(r"'[^']*'\s*=\s*\d+|,|\s", "", axes_text) or any(a not in names for a in selected):
        raise ValueError(f"malformed mesh replica groups '{text}'")
    sizes = [int(n) for _, n in axes]
    ids = np.arange(math.prod(sizes)).reshape(sizes)
    inner = [names.index(a) for a in selected]
    outer = [d for d in range(len(sizes)) if d not in inner]
    group_size = math.prod(sizes[d] for d in inner)
    return ids.transpose(outer + inner).reshape(-1, group_size).tolist()


@dataclass
class Window:
    size: list[int]
    stride: list[int]
    pad: list[list[int]]
    lhs_dilate: list[int]
    rhs_dilate: list[int]
    rhs_reversal: list[int]


def window_of(text: str) -> Window:
    """`{size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=1x1 rhs_dilate=1x1 rhs_reversal=0x0}`"""
    if not (text.startswith("{") and text.endswith("}")):
        raise ValueError(f"expected a window '{{size=3x3 ...}}', got '{text}'")
    parts: dict[str, str] = {}
    for item in text[1:-1].split():
        key, eq, value = item.partition("=")
        if not eq or key not in ("size", "stride", "pad", "lhs_dilate", "rhs_dilate", "rhs_reversal"):
            raise ValueError(f"unexpected window field '{item}'")
        parts[key] = value

    def dxd(key: str, default: int) -> list[int]:
        if key not in parts:
            return [default] * len(size)
        values = [int(v) for v in parts[key].split("x")] if parts[key] else []
        if len(values) != len(size):
            raise ValueError(f"window {key}={parts[key]} has {len(values)} entries for {len(size)} dimensions")
        return values

    try:
        size = [int(v) for v in parts["size"].split("x")] if parts.get("size") else []
        pad = (
            [[int(v) for v in p.split("_")] for p in parts["pad"].split("x")]
            if parts.get("pad")
            else [[0, 0]] * len(size)
        )
        if len(pad) != len(size) or any(len(p) != 2 for p in pad):
            raise ValueError(f"window pad={parts.get('pad')} is not low_high per dimension")
        return Window(size, dxd("stride", 1), pad, dxd("lhs_dilate", 1), dxd("rhs_dilate", 1), dxd("rhs_reversal", 0))
    except (KeyError, ValueError) as e:
        raise ValueError(str(e) if isinstance(e, ValueError) else f"the window has no size: '{text}'") from None


def dim_labels_of(text: str) -> dict[str, Any]:
    """`b01f_01io->b01f`: the convolution's dimension numbers (XLA's
    ConvolutionDimensionNumbersToString: b/f batch and feature, i/o the kernel's input
    and output features, digits the spatial dimensions in order; `?` none)."""
    m = re.fullmatch(r"([0-9bf?]+)_([0-9io?]+)->([0-9bf?]+)", text)
    if m is None:
        raise ValueError(f"expected dim_labels such as b01f_01io->b01f, got '{text}'")
    lhs, rhs, out = m.groups()

    def spatial(labels: str) -> list[int]:
        digits = sorted((c, i) for i, c in enumerate(labels) if c.isdigit())
        if [c for c, _ in digits] != [str(k) for k in range(len(digits))]:
            raise ValueError(f"the spatial dimensions of '{labels}' in '{text}' are not 0..n-1, each once")
        return [i for _, i in digits]

    def one(labels: str, c: str) -> int:
        if labels.count(c) != 1:
            raise ValueError(f"'{labels}' in '{text}' must have one '{c}'")
        return labels.index(c)

    numbers = {
        "input_batch_dimension": one(lhs, "b"),
        "input_feature_dimension": one(lhs, "f"),
        "input_spatial_dimensions": spatial(lhs),
        "kernel_input_feature_dimension": one(rhs, "i"),
        "kernel_output_feature_dimension": one(rhs, "o"),
        "kernel_spatial_dimensions": spatial(rhs),
        "output_batch_dimension": one(out, "b"),
        "output_feature_dimension": one(out, "f"),
        "output_spatial_dimensions": spatial(out),
    }
    n = {
        len(numbers[k]) for k in ("input_spatial_dimensions", "kernel_spatial_dimensions", "output_spatial_dimensions")
    }
    if len(n) != 1:
        raise ValueError(f"'{text}': the input, kernel and output have different numbers of spatial dimensions")
    return numbers


def slice_of(text: str) -> tuple[list[int], list[int], list[int]]:
    """`{[0:4:1], [2:3]}`: starts, limits, strides."""
    body = text.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise ValueError(f"expected slice ranges '{{[0:4:1], ...}}', got '{text}'")
    ranges = re.findall(r"\[\s*(-?\d+)\s*:\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?\]", body)
    if re.sub(r"\[[^\]]*\]", "", body[1:-1]).replace(",", "").strip():
        raise ValueError(f"expected slice ranges '{{[0:4:1], ...}}', got '{text}'")
    return [int(a) for a, _, _ in ranges], [int(b) for _, b, _ in ranges], [int(c or 1) for _, _, c in ranges]


def padding_of(text: str, rank: int) -> tuple[list[int], list[int], list[int]]:
    """The pad op's `padding=0_1x2_3_1`: low_high(_interior) per dimension."""
    dims = [d.split("_") for d in text.split("x")] if text else []
    if len(dims) != rank or any(len(d) not in (2, 3) for d in dims):
        raise ValueError(f"expected padding low_high[_interior] for each of {rank} dimensions, got '{text}'")
    try:
        values = [[int(v) for v in d] + ([0] if len(d) == 2 else []) for d in dims]
    except ValueError:
        raise ValueError(f"malformed padding '{text}'") from None
    return [v[0] for v in values], [v[1] for v in values], [v[2] for v in values]


def computations_of(text: str) -> list[str]:
    """`{%a, %b}`: computation names."""
    body = text.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise ValueError(f"expected a list of computations '{{%a, %b}}', got '{text}'")
    names = [n.strip().lstrip("%") for n in body[1:-1].split(",") if n.strip()]
    if any(not re.fullmatch(r"[A-Za-z_][\w.\-]*", n) for n in names):
        raise ValueError(f"expected a list of computations '{{%a, %b}}', got '{text}'")
    return names


# --------------------------------------------------------------------------------------
# The conversion
# --------------------------------------------------------------------------------------


class _Site:
    """One instruction being converted: its operands, the block its ops go into, its
    location; `op(...)` creates, inserts and verifies an op there."""

    def __init__(
        self,
        conv: _Converter,
        instr: Instruction,
        block: Block,
        env: dict[str, Value],
        loc: Attribute,
        declared: dict[str, Shape] | None = None,
    ):
        self.conv = conv
        self.instr = instr
        self.block = block
        self.env = env
        self.loc = loc
        self.declared = declared or {}

    def operand_shape(self, i: int) -> Shape:
        """The declared shape of operand i (its instruction's), layout included."""
        return self.declared[self.instr.operands[i][0]]

    # ---- errors and attributes ------------------------------------------------------
    def error(self, message: str, offset: int | None = None) -> HloError:
        return HloError(self.instr.opcode_offset if offset is None else offset, message)

    def attr(self, name: str, read: Callable[[str], Any], default: Any = ..., required: bool = False) -> Any:
        a = self.instr.attributes.get(name)
        if a is None:
            if default is ... or required:
                raise self.error(f"'{self.instr.opcode}' needs the attribute '{name}'")
            return default
        try:
            return read(a.text)
        except ValueError as e:
            raise self.error(f"attribute '{name}': {e}", a.offset) from None

    def computation(self, name: str) -> Computation:
        attribute = self.instr.attributes.get(name)
        text = self.attr(name, str)
        comp = self.conv.hlo.computations.get(text.lstrip("%"))
        if comp is None:
            raise self.error(f"computation '{text.lstrip('%')}' does not exist", attribute.offset)  # type: ignore[union-attr]
        return comp

    # ---- values ---------------------------------------------------------------------
    @property
    def shape(self) -> Shape:
        return self.instr.shape

    def result_types(self) -> list[Attribute]:
        return [_array_type(s) for s in _leaf_shapes(self.shape)]

    def operand(self, i: int) -> Value:
        operands = self.instr.operands
        if i >= len(operands):
            raise self.error(f"'{self.instr.opcode}' needs at least {i + 1} operands, got {len(operands)}")
        return self.env[operands[i][0]]

    def operands(self) -> list[Value]:
        return [self.env[n] for n, _ in self.instr.operands]

    def array(self, i: int) -> SSAValue:
        """Operand i, one value (a tuple is made one)."""
        return self.conv.materialize(self.operand(i), self)

    def arrays(self) -> list[SSAValue]:
        return [self.conv.materialize(v, self) for v in self.operands()]

    def count(self, *allowed: int) -> None:
        n = len(self.instr.operands)
        if n not in allowed:
            expected = " or ".join(map(str, allowed))
            raise self.error(f"'{self.instr.opcode}' takes {expected} operands, got {n}")

    # ---- ops ------------------------------------------------------------------------
    def op(
        self,
        cls: type[Operation],
        operands: Sequence[Any] = (),
        properties: dict[str, Any] | None = None,
        result_types: Sequence[Attribute] | None = None,
        regions: Sequence[Region] = (),
        attributes: dict[str, Attribute] | None = None,
        verify: bool = True,
    ) -> Operation:
        from xla_opt.builder import property_attribute

        try:
            props = {k: property_attribute(cls, k, v) for k, v in (properties or {}).items() if v is not None}
        except (ValueError, TypeError) as e:
            raise self.error(one_line(str(e))) from None
        if result_types is None:
            result_types = self.result_types()
        op = cls.create(
            operands=[v for group in operands for v in (group if isinstance(group, list) else [group])],
            result_types=list(result_types),
            properties=props,
            attributes=dict(attributes or {}),
            regions=list(regions),
        )
        # IRDL's variadic groups: an op defined with several takes their sizes
        self.conv.set_segments(op, operands)
        op.location = self.loc
        self.block.add_op(op)
        if verify:  # the ops inside its regions were verified as they were made
            try:
                op.verify(verify_nested_ops=False)
            except Exception as e:  # noqa: BLE001 - every verifier failure is a located error
                message = str(e).removeprefix("Operation does not verify: ")
                raise self.error(f"'{op.name}' op {one_line(message)}") from None
        return op

    def one(self, cls, operands=(), properties=None, result_type=None, regions=()) -> SSAValue:
        types = None if result_type is None else [result_type]
        return self.op(cls, operands, properties, types, regions).results[0]

    def results(self, op: Operation) -> Value:
        """The op's results as the instruction's value (a tuple shape: its elements)."""
        return self.conv.assemble(self.shape, list(op.results))


class _Converter:
    def __init__(self, hlo: HloModule, text: str, name: str, line_offset: int = 0):
        self.hlo = hlo
        self.file = name
        self.line_offset = line_offset
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.module = ModuleOp([])
        self.functions: dict[str, str] = {}  # computation -> its function's name
        self.symbols: set[str] = {"main"}
        self.imports_stablehlo = False
        self.calls: list[tuple[Operation, int]] = []  # verified once their callees are in the module

    # ---- positions and locations ------------------------------------------------------
    def position(self, offset: int) -> tuple[int, int]:
        index = bisect.bisect_right(self.line_starts, offset) - 1
        return index + 1 + self.line_offset, offset - self.line_starts[index] + 1

    def here(self, offset: int) -> FileLineColLoc:
        line, col = self.position(offset)
        return FileLineColLoc(StringAttr(self.file), IntAttr(line), IntAttr(col))

    def location(self, instr: Instruction) -> Attribute:
        """The op's location: its metadata's source position named by op_name, else its
        place in the HLO text."""
        meta = instr.attributes.get("metadata")
        here = self.here(instr.offset)
        if meta is None:
            return here
        values = fields(meta.text)
        source: Attribute | None = None
        frame = self.hlo.stack_frames.get(_to_int(values.get("stack_frame_id")))
        if frame is not None:
            loc = self.hlo.file_locations.get(_to_int(frame.get("file_location_id")))
            if loc is not None:
                file = self.hlo.file_names.get(_to_int(loc.get("file_name_id")))
                if file is not None:
                    source = _file_loc(file, loc.get("line"), loc.get("column"))
        if source is None and "source_file" in values:
            source = _file_loc(values["source_file"], values.get("source_line"), values.get("source_column"))
        name = values.get("op_name")
        if name:
            return NameLoc(StringAttr(name), source or here)
        return source or here

    # ---- tuples -----------------------------------------------------------------------
    def assemble(self, shape: Shape, leaves: list[SSAValue]) -> Value:
        """The value of `shape` made of `leaves` (consumed in order)."""
        it = iter(leaves)

        def build(s: Shape) -> Value:
            if s.tuple_shapes is None:
                return next(it)
            return TupleValue([build(e) for e in s.tuple_shapes])

        return build(shape)

    def leaves(self, value: Value, site: _Site) -> list[SSAValue]:
        """A value's arrays and tokens (a tuple value's element by element)."""
        if isinstance(value, TupleValue):
            return [leaf for v in value.elements for leaf in self.leaves(v, site)]
        if isinstance(value.type, TupleType):
            out = []
            for i, t in enumerate(value.type.types.data):
                element = site.op(xla.GetTupleElementOp, [value], {"index": i}, [t]).results[0]
                out += self.leaves(element, site)
            return out
        return [value]

    def materialize(self, value: Value, site: _Site) -> SSAValue:
        """A tuple value as one SSA value (`xla.tuple`)."""
        if isinstance(value, SSAValue):
            return value
        elements = [self.materialize(v, site) for v in value.elements]
        t = TupleType(ArrayAttr([e.type for e in elements]))
        return site.op(xla.TupleOp, [elements], None, [t]).results[0]

    @staticmethod
    def set_segments(op: Operation, operands: Sequence[Any]) -> None:
        from xdsl.irdl import AttrSizedOperandSegments

        definition = type(op).get_irdl_definition()
        if any(isinstance(o, AttrSizedOperandSegments) for o in definition.options):
            from xdsl.dialects.builtin import DenseArrayBase

            sizes = [len(g) if isinstance(g, list) else 1 for g in operands]
            op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)

    # ---- computations ---------------------------------------------------------------
    def emit(self, comp: Computation, block: Block, args: list[Value]) -> Value:
        """The instructions of `comp` into `block`, its parameters bound to `args`;
        returns the root's value."""
        env: dict[str, Value] = {}
        declared = {i.name: i.shape for i in comp.instructions}
        numbers = sorted(i.parameter_number for i in comp.instructions if i.opcode == "parameter")  # type: ignore[type-var]
        if numbers != list(range(len(args))):
            raise HloError(
                comp.offset, f"computation '{comp.name}' has parameters {numbers}, expected 0 to {len(args) - 1}"
            )
        for instr in comp.instructions:
            for name, offset in instr.operands:
                if name not in env:
                    raise HloError(offset, f"instruction '{name}' does not exist (before this use in '{comp.name}')")
            site = _Site(self, instr, block, env, self.location(instr), declared)
            if instr.opcode == "parameter":
                value = args[instr.parameter_number]  # type: ignore[index]
                self.check_shape(site, value)
                for leaf in _flat_ssa(value):  # a region's or function's argument is where its parameter is
                    if isinstance(leaf, BlockArgument) and isinstance(leaf.location, UnknownLoc):
                        leaf.location = site.loc
            else:
                value = self.instruction(site)
            env[instr.name] = value
        return env[comp.root.name]

    def check_shape(self, site: _Site, value: Value) -> None:
        have = [v.type for v in _flat_ssa(value)]
        want = site.result_types()
        if isinstance(value, SSAValue) and isinstance(value.type, TupleType):
            have, want = [value.type], [_array_type(site.shape)]
        if have != want:
            raise site.error(f"'{site.instr.name}' is declared {site.shape} but is ({', '.join(map(str, have))})")

    def region(self, comp: Computation, count: int, site: _Site, flatten: bool = True) -> Region:
        """`comp`, which takes `count` parameters, as a region taking their arrays (the
        parameters themselves, tuples included, when not `flatten`) and returning its
        root's arrays."""
        params = comp.parameters()
        if len(params) != count:
            raise site.error(
                f"computation '{comp.name}' takes {len(params)} parameters, '{site.instr.opcode}' gives it {count}"
            )
        block = Block()
        args: list[Value] = []
        for p in params:
            if flatten:
                leaves = [block.insert_arg(_array_type(s), len(block.args)) for s in _leaf_shapes(p.shape)]
                args.append(self.assemble(p.shape, leaves))
            else:
                args.append(block.insert_arg(_array_type(p.shape), len(block.args)))
        root = self.emit(comp, block, args)
        root_site = _Site(self, comp.root, block, {}, self.location(comp.root))
        values = self.leaves(root, root_site)
        ret = xla.ReturnOp.create(operands=values)
        ret.location = root_site.loc
        block.add_op(ret)
        return Region(block)

    def function(self, comp: Computation, site: _Site | None = None) -> str:
        """The private function of a called computation (made once): its parameters'
        arrays in, its root's arrays out."""
        if comp.name in self.functions:
            return self.functions[comp.name]
        name = re.sub(r"[^\w.$]", "_", comp.name)
        base, k = name, 0
        while name in self.symbols:
            k += 1
            name = f"{base}_{k}"
        self.symbols.add(name)
        self.functions[comp.name] = name
        block = Block()
        args = []
        for p in comp.parameters():
            leaves = [block.insert_arg(_array_type(s), len(block.args)) for s in _leaf_shapes(p.shape)]
            args.append(self.assemble(p.shape, leaves))
        root = self.emit(comp, block, args)
        root_site = _Site(self, comp.root, block, {}, self.location(comp.root))
        values = self.leaves(root, root_site)
        ret = func.ReturnOp(*values)
        ret.location = root_site.loc
        block.add_op(ret)
        f = func.FuncOp(
            name,
            FunctionType.from_lists([a.type for a in block.args], [v.type for v in values]),
            Region(block),
            "private",
        )
        f.location = self.here(comp.offset)
        self.module.body.block.add_op(f)
        return name

    def entry(self) -> None:
        """@main: the entry's parameters (as declared) and its root (a tuple's elements)."""
        comp = self.hlo.entry
        block = Block()
        params = comp.parameters()
        args: list[Value] = [block.insert_arg(_array_type(p.shape), len(block.args)) for p in params]
        for arg, p in zip(block.args, params, strict=True):
            arg.name_hint = _name_hint(p.name)
        root = self.emit(comp, block, args)
        root_site = _Site(self, comp.root, block, {}, self.location(comp.root))
        elements = (
            root.elements
            if isinstance(root, TupleValue)
            else ([root] if not isinstance(root.type, TupleType) else self.untuple(root, root_site))
        )
        values = [self.materialize(v, root_site) for v in elements]
        ret = func.ReturnOp(*values)
        ret.location = root_site.loc
        block.add_op(ret)
        f = func.FuncOp(
            "main", FunctionType.from_lists([a.type for a in block.args], [v.type for v in values]), Region(block)
        )
        f.location = self.here(comp.offset)
        top = self.module.body.block
        if top.first_op is not None:  # @main first, then the functions it calls
            top.insert_op_before(f, top.first_op)
        else:
            top.add_op(f)

    def untuple(self, value: SSAValue, site: _Site) -> list[Value]:
        types = value.type.types.data  # type: ignore[attr-defined]
        return [site.op(xla.GetTupleElementOp, [value], {"index": i}, [t]).results[0] for i, t in enumerate(types)]

    # ---- instructions ---------------------------------------------------------------
    def instruction(self, site: _Site) -> Value:
        opcode = site.instr.opcode
        rule = RULES.get(opcode)
        if rule is None:
            if opcode in UNSUPPORTED:
                raise site.error(f"HLO opcode '{opcode}' is not supported: {UNSUPPORTED[opcode]}")
            raise site.error(f"unknown HLO opcode '{opcode}'")
        try:
            value = rule(site)
        except (HloError, DiagnosticError, RecursionError):
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, AssertionError, StopIteration) as e:
            # what a rule did not foresee of malformed input is still a located error
            raise site.error(f"cannot read '{opcode}': {type(e).__name__}: {one_line(str(e))}") from None
        self.check_shape(site, value)
        return value


def _to_int(text: str | None) -> int:
    try:
        return int(text) if text is not None else -1
    except ValueError:
        return -1


def _file_loc(file: str, line: str | None, column: str | None) -> FileLineColLoc:
    return FileLineColLoc(StringAttr(file), IntAttr(max(_to_int(line), 0)), IntAttr(max(_to_int(column), 0)))


def _name_hint(name: str) -> str | None:
    hint = re.sub(r"\.\d+$", "", name)
    return hint if re.fullmatch(r"[A-Za-z_][\w]*", hint) and not hint[0].isdigit() else None


def _flat_ssa(value: Value) -> list[SSAValue]:
    if isinstance(value, TupleValue):
        return [leaf for v in value.elements for leaf in _flat_ssa(v)]
    return [value]


# --------------------------------------------------------------------------------------
# The rules: one per opcode
# --------------------------------------------------------------------------------------

Rule = Callable[[_Site], Value]
RULES: dict[str, Rule] = {}

UNSUPPORTED = {
    "stochastic-convert": "xla has no stochastic rounding",
    "dynamic-reshape": "shapes are static here",
    "ragged-dot": "no xla counterpart",
    "ragged-all-to-all": "no xla counterpart",
    "scaled-dot": "no xla counterpart",
    "rng-get-and-update-state": "no xla counterpart",
    "collective-broadcast": "no xla counterpart",
    "async-start": "asynchronous wrappers are not read (convert the module before scheduling)",
    "all-reduce-start": "asynchronous collectives are not read (convert the module before scheduling)",
    "all-gather-start": "asynchronous collectives are not read (convert the module before scheduling)",
    "collective-permute-start": "asynchronous collectives are not read (convert the module before scheduling)",
    "copy-start": "asynchronous copies are not read (convert the module before scheduling)",
}


def rule(*opcodes: str) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        for opcode in opcodes:
            RULES[opcode] = fn
        return fn

    return register


def _table(table: dict[str, type[Operation]]) -> None:
    for opcode, cls in table.items():
        RULES[opcode] = lambda site, cls=cls: site.one(cls, site.arrays(), result_type=site.result_types()[0])


_table({
    "abs": xla.AbsOp, "ceil": xla.CeilOp, "cosine": xla.CosineOp, "sine": xla.SineOp, "tan": xla.TanOp,
    "exponential": xla.ExponentialOp, "exponential-minus-one": xla.ExponentialMinusOneOp,
    "floor": xla.FloorOp, "imag": xla.ImagOp, "real": xla.RealOp, "is-finite": xla.IsFiniteOp,
    "log": xla.LogOp, "log-plus-one": xla.LogPlusOneOp, "not": xla.NotOp, "logistic": xla.LogisticOp,
    "popcnt": xla.PopcntOp, "count-leading-zeros": xla.CountLeadingZerosOp, "negate": xla.NegateOp,
    "rsqrt": xla.RsqrtOp, "sign": xla.SignOp, "sqrt": xla.SqrtOp, "cbrt": xla.CbrtOp, "tanh": xla.TanhOp,
    "round-nearest-afz": xla.RoundNearestAfzOp, "round-nearest-even": xla.RoundNearestEvenOp,
    "add": xla.AddOp, "subtract": xla.SubtractOp, "multiply": xla.MultiplyOp, "divide": xla.DivideOp,
    "remainder": xla.RemainderOp, "maximum": xla.MaximumOp, "minimum": xla.MinimumOp, "power": xla.PowerOp,
    "atan2": xla.Atan2Op, "and": xla.AndOp, "or": xla.OrOp, "xor": xla.XorOp, "shift-left": xla.ShiftLeftOp,
    "shift-right-arithmetic": xla.ShiftRightArithmeticOp, "shift-right-logical": xla.ShiftRightLogicalOp,
    "select": xla.SelectOp, "clamp": xla.ClampOp, "convert": xla.ConvertOp,
    "bitcast-convert": xla.BitcastConvertOp, "replica-id": xla.ReplicaIdOp,
})  # fmt: skip


@rule("partition-id")
def _partition_id(site: _Site) -> Value:
    """A partitioned module (`num_partitions=N`: the per-device program XLA's SPMD
    partitioner made) runs as N replicas, one per device: with one replica, the
    partition id is the replica id (and the device id its collectives name)."""
    attrs = site.conv.hlo.attributes
    partitions = _to_int(attrs["num_partitions"].text) if "num_partitions" in attrs else 1
    replicas = _to_int(attrs["replica_count"].text) if "replica_count" in attrs else 1
    if partitions <= 1 or replicas > 1:
        raise site.error(
            "HLO opcode 'partition-id' is supported in a partitioned module (num_partitions=N) of one replica, "
            "run as N replicas"
        )
    return site.one(xla.ReplicaIdOp, [])


@rule("after-all")
def _after_all(site: _Site) -> Value:
    return site.one(xla.AfterAllOp, [site.arrays()], result_type=TokenType())


@rule("copy", "domain")
def _identity(site: _Site) -> Value:
    """copy changes the layout (the logical value is its operand's), domain only marks
    a sharding domain."""
    site.count(1)
    return site.operand(0)


@rule("add-dependency")
def _add_dependency(site: _Site) -> Value:
    site.count(2)
    return site.operand(0)


@rule("opt-barrier", "optimization-barrier")
def _optimization_barrier(site: _Site) -> Value:
    site.count(1)
    values = site.conv.leaves(site.operand(0), site)
    op = site.op(xla.OptimizationBarrierOp, [values], None, [v.type for v in values])
    return site.results(op)


@rule("tuple")
def _tuple(site: _Site) -> Value:
    return TupleValue(site.operands())


@rule("get-tuple-element")
def _get_tuple_element(site: _Site) -> Value:
    site.count(1)
    index = site.attr("index", int_of)
    value = site.operand(0)
    if isinstance(value, TupleValue):
        if not 0 <= index < len(value.elements):
            raise site.error(f"index {index} is out of range for a tuple of {len(value.elements)} elements")
        return value.elements[index]
    if not isinstance(value.type, TupleType) or not 0 <= index < len(value.type.types.data):
        raise site.error(f"get-tuple-element index {index} of a value of type {value.type}")
    return site.one(xla.GetTupleElementOp, [value], {"index": index}, value.type.types.data[index])


@rule("constant")
def _constant(site: _Site) -> Value:
    from xla_opt.builder import dense_attribute

    shape = site.shape
    if shape.tuple_shapes is not None:
        raise site.error("tuple literals are not supported: give each element its own constant")
    if shape.is_token:
        raise site.error("a token has no literal")
    try:
        array = parse_literal(site.instr.literal or "", shape)
    except (ValueError, TypeError, OverflowError) as e:
        raise site.error(f"constant: {one_line(str(e))}", site.instr.literal_offset) from None
    attr = dense_attribute(array)
    return site.one(xla.ConstantOp, [], {"value": attr}, attr.get_type())


@rule("iota")
def _iota(site: _Site) -> Value:
    return site.one(xla.IotaOp, [], {"iota_dimension": site.attr("iota_dimension", int_of)})


@rule("compare")
def _compare(site: _Site) -> Value:
    site.count(2)
    props = {"comparison_direction": site.attr("direction", str), "compare_type": site.attr("type", str, None)}
    return site.one(xla.CompareOp, site.arrays(), props)


@rule("reduce-precision")
def _reduce_precision(site: _Site) -> Value:
    props = {"exponent_bits": site.attr("exponent_bits", int_of), "mantissa_bits": site.attr("mantissa_bits", int_of)}
    return site.one(xla.ReducePrecisionOp, site.arrays(), props)


# ---- shapes ---------------------------------------------------------------------------


@rule("broadcast")
def _broadcast(site: _Site) -> Value:
    site.count(1)
    return site.one(xla.BroadcastInDimOp, site.arrays(), {"broadcast_dimensions": site.attr("dimensions", ints_of)})


@rule("reshape")
def _reshape(site: _Site) -> Value:
    site.count(1)
    return site.one(xla.ReshapeOp, site.arrays())


@rule("transpose")
def _transpose(site: _Site) -> Value:
    site.count(1)
    return site.one(xla.TransposeOp, site.arrays(), {"permutation": site.attr("dimensions", ints_of)})


@rule("reverse")
def _reverse(site: _Site) -> Value:
    site.count(1)
    return site.one(xla.ReverseOp, site.arrays(), {"dimensions": site.attr("dimensions", ints_of)})


@rule("slice")
def _slice(site: _Site) -> Value:
    site.count(1)
    starts, limits, strides = site.attr("slice", slice_of)
    props = {"start_indices": starts, "limit_indices": limits, "strides": strides}
    return site.one(xla.SliceOp, site.arrays(), props)


@rule("dynamic-slice")
def _dynamic_slice(site: _Site) -> Value:
    values = site.arrays()
    if not values:
        site.count(2)
    props = {"slice_sizes": site.attr("dynamic_slice_sizes", ints_of)}
    return site.one(xla.DynamicSliceOp, [values[0], values[1:]], props)


@rule("dynamic-update-slice")
def _dynamic_update_slice(site: _Site) -> Value:
    values = site.arrays()
    if len(values) < 2:
        site.count(2)
    return site.one(xla.DynamicUpdateSliceOp, [values[0], values[1], values[2:]])


@rule("concatenate")
def _concatenate(site: _Site) -> Value:
    dims = site.attr("dimensions", ints_of)
    if len(dims) != 1:
        raise site.error(f"concatenate takes one dimension, got {dims}")
    return site.one(xla.ConcatenateOp, [site.arrays()], {"dimension": dims[0]})


@rule("pad")
def _pad(site: _Site) -> Value:
    site.count(2)
    operand, value = site.arrays()
    rank = len(operand.type.get_shape())  # type: ignore[attr-defined]
    low, high, interior = site.attr("padding", lambda t: padding_of(t, rank), default=([0] * rank,) * 3)
    props = {"edge_padding_low": low, "edge_padding_high": high, "interior_padding": interior}
    return site.one(xla.PadOp, [operand, value], props)


@rule("get-dimension-size")
def _get_dimension_size(site: _Site) -> Value:
    dims = site.attr("dimensions", ints_of)
    if len(dims) != 1:
        raise site.error(f"get-dimension-size takes one dimension, got {dims}")
    return site.one(xla.GetDimensionSizeOp, site.arrays(), {"dimension": dims[0]})


@rule("set-dimension-size")
def _set_dimension_size(site: _Site) -> Value:
    site.count(2)
    dims = site.attr("dimensions", ints_of)
    if len(dims) != 1:
        raise site.error(f"set-dimension-size takes one dimension, got {dims}")
    operand, size = site.arrays()
    return site.one(xla.SetDimensionSizeOp, [operand, size], {"dimension": dims[0]})


@rule("bitcast")
def _bitcast(site: _Site) -> Value:
    """bitcast reinterprets the operand's buffer as the result's shape and layout: the
    operand in physical order (its dimensions major to minor), reshaped to the
    result's physical dimensions, transposed back to the result's logical order;
    another element type of the same width is a bitcast_convert."""
    site.count(1)
    x = site.array(0)
    source = site.operand_shape(0)
    target = site.shape
    if source.tiled or target.tiled:
        raise site.error("a bitcast between tiled layouts is not supported")
    if not isinstance(x.type, TensorType) or target.tuple_shapes is not None or target.is_token:
        raise site.error("bitcast of a tuple or token")
    from xla_opt.dialects.xla.element_types import bit_width

    element = _element_type(target.element)  # type: ignore[arg-type]
    if x.type.get_element_type() != element:
        if bit_width(x.type.get_element_type()) != bit_width(element):
            raise site.error(f"a bitcast from {source} to {target} changes the element width")
        x = site.one(xla.BitcastConvertOp, [x], result_type=TensorType(element, list(x.type.get_shape())))
    src_order = list(reversed(source.minor_to_major()))  # major to minor
    dst_order = list(reversed(target.minor_to_major()))
    if math.prod(source.dims) != math.prod(target.dims):
        raise site.error(f"a bitcast from {source} to {target} changes the number of elements")
    if src_order != list(range(len(src_order))):
        physical = [source.dims[d] for d in src_order]
        x = site.one(xla.TransposeOp, [x], {"permutation": src_order}, TensorType(element, physical))
    physical_out = [target.dims[d] for d in dst_order]
    if list(x.type.get_shape()) != physical_out:  # type: ignore[attr-defined]
        x = site.one(xla.ReshapeOp, [x], None, TensorType(element, physical_out))
    if dst_order != list(range(len(dst_order))):
        inverse = [dst_order.index(d) for d in range(len(dst_order))]
        x = site.one(xla.TransposeOp, [x], {"permutation": inverse}, TensorType(element, list(target.dims)))
    return x


# ---- reductions and computations ------------------------------------------------------


@rule("reduce")
def _reduce(site: _Site) -> Value:
    values = site.arrays()
    if len(values) % 2 or not values:
        raise site.error(f"reduce takes N inputs and N init values, got {len(values)} operands")
    n = len(values) // 2
    inputs, inits = values[:n], values[n:]
    body = site.conv.region(site.computation("to_apply"), 2 * len(inits), site)
    op = site.op(xla.ReduceOp, [inputs, inits], {"dimensions": site.attr("dimensions", ints_of)}, None, [body])
    return site.results(op)


def _window_props(site: _Site, window: Window, rank: int) -> dict[str, Any]:
    if len(window.size) != rank:
        raise site.error(f"the window has {len(window.size)} dimensions, the operand {rank}")
    if any(window.rhs_reversal):
        raise site.error("window reversal (rhs_reversal) is only for convolutions")
    return {
        "window_dimensions": window.size,
        "window_strides": window.stride,
        "base_dilations": window.lhs_dilate,
        "window_dilations": window.rhs_dilate,
        "padding": window.pad,
    }


@rule("reduce-window")
def _reduce_window(site: _Site) -> Value:
    values = site.arrays()
    if len(values) % 2 or not values:
        raise site.error(f"reduce-window takes N inputs and N init values, got {len(values)} operands")
    n = len(values) // 2
    inputs, inits = values[:n], values[n:]
    rank = len(inputs[0].type.get_shape())  # type: ignore[attr-defined]
    props = _window_props(site, site.attr("window", window_of), rank)
    body = site.conv.region(site.computation("to_apply"), 2 * len(inits), site)
    op = site.op(xla.ReduceWindowOp, [inputs, inits], props, None, [body])
    return site.results(op)


@rule("select-and-scatter")
def _select_and_scatter(site: _Site) -> Value:
    site.count(3)
    operand, source, init = site.arrays()
    rank = len(operand.type.get_shape())  # type: ignore[attr-defined]
    props = _window_props(site, site.attr("window", window_of), rank)
    if any(d != 1 for d in props.pop("base_dilations") + props.pop("window_dilations")):
        raise site.error("select-and-scatter has no dilations")
    select = site.conv.region(site.computation("select"), 2, site)
    scatter = site.conv.region(site.computation("scatter"), 2, site)
    return site.one(xla.SelectAndScatterOp, [operand, source, init], props, None, [select, scatter])


@rule("sort")
def _sort(site: _Site) -> Value:
    inputs = site.arrays()
    dims = site.attr("dimensions", ints_of)
    if len(dims) != 1:
        raise site.error(f"sort takes one dimension, got {dims}")
    comparator = site.conv.region(site.computation("to_apply"), 2 * len(inputs), site)
    props = {"dimension": dims[0], "is_stable": site.attr("is_stable", bool_of, False)}
    op = site.op(xla.SortOp, [inputs], props, None, [comparator])
    return site.results(op)


@rule("map")
def _map(site: _Site) -> Value:
    inputs = site.arrays()
    body = site.conv.region(site.computation("to_apply"), len(inputs), site)
    rank = len(site.shape.dims)
    props = {"dimensions": site.attr("dimensions", ints_of, list(range(rank)))}
    return site.one(xla.MapOp, [inputs], props, None, [body])


@rule("topk")
def _topk(site: _Site) -> Value:
    """TopK: the k largest (`largest=false`: smallest) along the last dimension, in
    order, ties by index, and their s32 indices: a stable sort with an iota, sliced."""
    site.count(1)
    x = site.array(0)
    k = site.attr("k", int_of)
    largest = site.attr("largest", bool_of, True)
    return _sorted_prefix(site, x, k, "GT" if largest else "LT")


def _sorted_prefix(site: _Site, x: SSAValue, k: int, direction: str, comparator: Computation | None = None) -> Value:
    shape = list(x.type.get_shape())  # type: ignore[attr-defined]
    if not shape:
        raise site.error("top-k of a scalar")
    last = len(shape) - 1
    index_type = TensorType(_element_type("s32"), shape)
    iota = site.one(xla.IotaOp, [], {"iota_dimension": last}, index_type)
    element = x.type.get_element_type()  # type: ignore[attr-defined]
    scalars = [TensorType(element, []), TensorType(element, []), TensorType(_element_type("s32"), [])] + [
        TensorType(_element_type("s32"), [])
    ]
    if comparator is not None:
        region = site.conv.region(comparator, 4, site)
    else:
        block = Block(arg_types=scalars)
        from xla_opt.dialects.xla.element_types import is_float

        props: dict[str, Any] = {"comparison_direction": direction}
        if is_float(element):
            props["compare_type"] = "TOTALORDER"
        inner = _Site(site.conv, site.instr, block, {}, site.loc)
        less = inner.one(xla.CompareOp, [block.args[0], block.args[1]], props, TensorType(i1, []))
        ret = xla.ReturnOp.create(operands=[less])
        ret.location = site.loc
        block.add_op(ret)
        region = Region(block)
    sort = site.op(xla.SortOp, [[x, iota]], {"dimension": last, "is_stable": True}, [x.type, index_type], [region])
    limits = shape[:-1] + [k]
    if not 0 <= k <= shape[-1]:
        raise site.error(f"k = {k} is out of range for a last dimension of {shape[-1]}")
    props = {"start_indices": [0] * len(shape), "limit_indices": limits, "strides": [1] * len(shape)}
    values = [site.one(xla.SliceOp, [r], props, TensorType(r.type.get_element_type(), limits)) for r in sort.results]  # type: ignore[attr-defined]
    return TupleValue(list(values))


# ---- control flow ---------------------------------------------------------------------


@rule("call")
def _call(site: _Site) -> Value:
    comp = site.computation("to_apply")
    params = comp.parameters()
    if len(params) != len(site.instr.operands):
        raise site.error(
            f"computation '{comp.name}' takes {len(params)} parameters, the call gives {len(site.instr.operands)}"
        )
    callee = site.conv.function(comp, site)
    args = [leaf for v in site.operands() for leaf in site.conv.leaves(v, site)]
    op = site.op(xla.CallOp, [args], {"callee": SymbolRefAttr(callee)}, None, verify=False)
    site.conv.calls.append((op, site.instr.opcode_offset))
    return site.results(op)


@rule("fusion")
def _fusion(site: _Site) -> Value:
    """A fusion computes its computation on its operands: inlined (any kind)."""
    comp = site.computation("calls")
    if len(comp.parameters()) != len(site.instr.operands):
        raise site.error(
            f"fused computation '{comp.name}' takes {len(comp.parameters())} parameters, the fusion gives {len(site.instr.operands)}"
        )
    return site.conv.emit(comp, site.block, site.operands())


@rule("while")
def _while(site: _Site) -> Value:
    """A while's state (a tuple: its arrays) is the xla.while's operands; condition and
    body take them."""
    site.count(1)
    state = site.conv.leaves(site.operand(0), site)
    types = [v.type for v in state]
    cond_comp, body_comp = site.computation("condition"), site.computation("body")
    cond = site.conv.region(cond_comp, 1, site)
    body = site.conv.region(body_comp, 1, site)
    op = site.op(xla.WhileOp, [state], None, types, [cond, body])
    return site.results(op)


@rule("conditional")
def _conditional(site: _Site) -> Value:
    """true_computation/false_computation on a pred, or branch_computations on an s32
    index; each branch takes its operand (a tuple as one value) and returns the arrays
    of the result."""
    values = site.operands()
    if len(values) < 2:
        site.count(2)
    index = site.conv.materialize(values[0], site)
    if "branch_computations" in site.instr.attributes:
        names = site.attr("branch_computations", computations_of)
        comps = []
        for n in names:
            if n not in site.conv.hlo.computations:
                raise site.error(
                    f"computation '{n}' does not exist", site.instr.attributes["branch_computations"].offset
                )
            comps.append(site.conv.hlo.computations[n])
    else:
        comps = [site.computation("true_computation"), site.computation("false_computation")]
    operands = [site.conv.materialize(v, site) for v in values[1:]]
    if len(operands) != len(comps):
        raise site.error(f"conditional has {len(comps)} branches and {len(operands)} branch operands")
    regions = [site.conv.region(c, 1, site, flatten=False) for c in comps]
    op = site.op(xla.ConditionalOp, [index, operands], None, None, regions)
    return site.results(op)


# ---- linear algebra -------------------------------------------------------------------


def _to_result_element(site: _Site, values: list[SSAValue]) -> list[SSAValue]:
    """dot/convolution with another result element type (preferred_element_type): the
    operands converted to it first, as the StableHLO importer does."""
    element = site.result_types()[0].get_element_type()  # type: ignore[attr-defined]
    out = []
    for v in values:
        if v.type.get_element_type() != element:  # type: ignore[attr-defined]
            v = site.one(xla.ConvertOp, [v], None, TensorType(element, list(v.type.get_shape())))  # type: ignore[attr-defined]
        out.append(v)
    return out


@rule("dot")
def _dot(site: _Site) -> Value:
    site.count(2)
    if "sparsity" in site.instr.attributes:
        raise site.error("sparse dots are not supported")
    props = {  # absent: none (an empty list is printed as absent)
        "lhs_batching_dimensions": site.attr("lhs_batch_dims", ints_of, []) or None,
        "rhs_batching_dimensions": site.attr("rhs_batch_dims", ints_of, []) or None,
        "lhs_contracting_dimensions": site.attr("lhs_contracting_dims", ints_of, []) or None,
        "rhs_contracting_dimensions": site.attr("rhs_contracting_dims", ints_of, []) or None,
    }
    return site.one(xla.DotGeneralOp, _to_result_element(site, site.arrays()), props)


@rule("convolution")
def _convolution(site: _Site) -> Value:
    site.count(2)
    lhs, rhs = _to_result_element(site, site.arrays())
    numbers = site.attr("dim_labels", dim_labels_of)
    n = len(numbers["input_spatial_dimensions"])
    window = site.attr("window", window_of, Window([], [], [], [], [], []))
    if len(window.size) != n:
        raise site.error(f"the window has {len(window.size)} dimensions, the convolution {n} spatial dimensions")
    if any(window.rhs_reversal):
        dims = [d for d, r in zip(numbers["kernel_spatial_dimensions"], window.rhs_reversal, strict=True) if r]
        rhs = site.one(xla.ReverseOp, [rhs], {"dimensions": dims}, rhs.type)
    props = dict(numbers)
    if n:
        props.update(
            window_strides=window.stride,
            padding=window.pad,
            lhs_dilation=window.lhs_dilate,
            rhs_dilation=window.rhs_dilate,
        )
    props["feature_group_count"] = site.attr("feature_group_count", int_of, None)
    props["batch_group_count"] = site.attr("batch_group_count", int_of, None)
    return site.one(xla.ConvolutionOp, [lhs, rhs], props)


@rule("fft")
def _fft(site: _Site) -> Value:
    props = {"fft_type": site.attr("fft_type", str), "fft_length": site.attr("fft_length", ints_of)}
    return site.one(xla.FftOp, site.arrays(), props)


@rule("cholesky")
def _cholesky(site: _Site) -> Value:
    return site.one(xla.CholeskyOp, site.arrays(), {"lower": site.attr("lower", bool_of, False)})


@rule("triangular-solve")
def _triangular_solve(site: _Site) -> Value:
    site.count(2)
    props = {
        "left_side": site.attr("left_side", bool_of, False),
        "lower": site.attr("lower", bool_of, False),
        "unit_diagonal": site.attr("unit_diagonal", bool_of, False),
        "transpose_a": site.attr("transpose_a", str, "NO_TRANSPOSE"),
    }
    return site.one(xla.TriangularSolveOp, site.arrays(), props)


# ---- gather, scatter ------------------------------------------------------------------


@rule("gather")
def _gather(site: _Site) -> Value:
    """A gather; with batching dimensions (`take_along_axis`), the StableHLO importer's
    gather, which makes them explicit iota indices."""
    site.count(2)
    numbers = {
        "offset_dims": site.attr("offset_dims", ints_of),
        "collapsed_slice_dims": site.attr("collapsed_slice_dims", ints_of),
        "start_index_map": site.attr("start_index_map", ints_of),
        "index_vector_dim": site.attr("index_vector_dim", int_of),
    }
    batching = {
        "operand_batching_dims": site.attr("operand_batching_dims", ints_of, []),
        "start_indices_batching_dims": site.attr("start_indices_batching_dims", ints_of, []),
    }
    sizes = site.attr("slice_sizes", ints_of)
    sorted_ = site.attr("indices_are_sorted", bool_of, None)
    if any(batching.values()):
        from xla_opt.dialects.stablehlo.attrs import GatherDimensionNumbersAttr

        dnums = GatherDimensionNumbersAttr.from_fields(**_struct_fields({**numbers, **batching}))
        props = {"dimension_numbers": dnums, "slice_sizes": i64_array(sizes)}
        if sorted_ is not None:
            props["indices_are_sorted"] = BoolAttr.from_bool(sorted_)
        return _imported(site, "stablehlo.gather", site.arrays(), site.result_types(), props).results[0]
    return site.one(xla.GatherOp, site.arrays(), {**numbers, "slice_sizes": sizes, "indices_are_sorted": sorted_})


@rule("scatter")
def _scatter(site: _Site) -> Value:
    """A scatter; with batching dimensions, the StableHLO importer's scatter."""
    values = site.arrays()
    if len(values) < 3 or len(values) % 2 == 0:
        raise site.error(f"scatter takes N inputs, the indices and N updates, got {len(values)} operands")
    n = (len(values) - 1) // 2
    inputs, indices, updates = values[:n], values[n], values[n + 1 :]
    numbers = {
        "update_window_dims": site.attr("update_window_dims", ints_of),
        "inserted_window_dims": site.attr("inserted_window_dims", ints_of),
        "scatter_dims_to_operand_dims": site.attr("scatter_dims_to_operand_dims", ints_of),
        "index_vector_dim": site.attr("index_vector_dim", int_of),
    }
    batching = {
        "input_batching_dims": site.attr("input_batching_dims", ints_of, []),
        "scatter_indices_batching_dims": site.attr("scatter_indices_batching_dims", ints_of, []),
    }
    flags = {name: site.attr(name, bool_of, None) for name in ("indices_are_sorted", "unique_indices")}
    body = site.conv.region(site.computation("to_apply"), 2 * len(inputs), site)
    if any(batching.values()):
        from xla_opt.dialects.stablehlo.attrs import ScatterDimensionNumbersAttr

        dnums = ScatterDimensionNumbersAttr.from_fields(**_struct_fields({**numbers, **batching}))
        props: dict[str, Attribute] = {"scatter_dimension_numbers": dnums}
        props.update({k: BoolAttr.from_bool(v) for k, v in flags.items() if v is not None})
        op = _imported(site, "stablehlo.scatter", values, site.result_types(), props, regions=[body])
        return site.results(op)
    op = site.op(xla.ScatterOp, [inputs, [indices], updates], {**numbers, **flags}, None, [body])
    return site.results(op)


def _struct_fields(values: dict[str, Any]) -> dict[str, Attribute]:
    """Dimension numbers as the fields of a StableHLO struct attribute."""
    return {k: IntegerAttr(v, i64) if isinstance(v, int) else i64_array(v) for k, v in values.items()}


# ---- batch norm, rng ------------------------------------------------------------------


def _batch_norm(cls: type[Operation], count: int) -> Rule:
    def convert(site: _Site) -> Value:
        site.count(count)
        props = {"epsilon": site.attr("epsilon", float), "feature_index": site.attr("feature_index", int_of)}
        return site.results(site.op(cls, site.arrays(), props))

    return convert


RULES["batch-norm-training"] = _batch_norm(xla.BatchNormTrainingOp, 3)
RULES["batch-norm-inference"] = _batch_norm(xla.BatchNormInferenceOp, 5)
RULES["batch-norm-grad"] = _batch_norm(xla.BatchNormGradOp, 5)


@rule("rng")
def _rng(site: _Site) -> Value:
    site.count(2)
    distribution = site.attr("distribution", str)
    cls = {"rng_uniform": xla.RngUniformOp, "rng_normal": xla.RngNormalOp}.get(distribution)
    if cls is None:
        raise site.error(f"unknown rng distribution '{distribution}' (rng_uniform, rng_normal)")
    return site.one(cls, site.arrays())


@rule("rng-bit-generator")
def _rng_bit_generator(site: _Site) -> Value:
    site.count(1)
    algorithm = site.attr("algorithm", str, "rng_default")
    names = {"rng_default": "DEFAULT", "rng_three_fry": "THREE_FRY", "rng_philox": "PHILOX"}
    if algorithm not in names:
        raise site.error(f"unknown rng algorithm '{algorithm}' ({', '.join(names)})")
    return site.results(site.op(xla.RngBitGeneratorOp, site.arrays(), {"rng_algorithm": names[algorithm]}))


# ---- collectives ----------------------------------------------------------------------


def _groups(site: _Site) -> list[list[int]]:
    return site.attr("replica_groups", replica_groups_of, [])


@rule("all-reduce")
def _all_reduce(site: _Site) -> Value:
    values = [leaf for v in site.operands() for leaf in site.conv.leaves(v, site)]
    body = site.conv.region(site.computation("to_apply"), 2, site)
    props = {"replica_groups": _groups(site), "channel_id": site.attr("channel_id", int_of, None)}
    return site.results(site.op(xla.AllReduceOp, [values], props, None, [body]))


@rule("all-gather")
def _all_gather(site: _Site) -> Value:
    site.count(1)
    dims = site.attr("dimensions", ints_of)
    props = {
        "all_gather_dim": dims[0] if dims else 0,
        "replica_groups": _groups(site),
        "channel_id": site.attr("channel_id", int_of, None),
    }
    return site.one(xla.AllGatherOp, site.arrays(), props)


@rule("reduce-scatter")
def _reduce_scatter(site: _Site) -> Value:
    site.count(1)
    x = site.array(0)
    body = site.conv.region(site.computation("to_apply"), 2, site)
    dims = site.attr("dimensions", ints_of)
    props = {
        "scatter_dimension": dims[0] if dims else 0,
        "replica_groups": _groups(site),
        "channel_id": site.attr("channel_id", int_of, None),
    }
    return site.one(xla.ReduceScatterOp, [x], props, None, [body])


@rule("all-to-all")
def _all_to_all(site: _Site) -> Value:
    site.count(1)
    dims = site.attr("dimensions", ints_of, None)
    if dims is None or len(dims) != 1:
        raise site.error("all-to-all of a tuple (no 'dimensions') is not supported")
    groups = _groups(site)
    count = len(groups[0]) if groups else None
    if count is None:
        raise site.error("all-to-all needs replica_groups (the split count)")
    props = {"split_dimension": dims[0], "concat_dimension": dims[0], "split_count": count, "replica_groups": groups}
    return site.one(xla.AllToAllOp, site.arrays(), props)


@rule("collective-permute")
def _collective_permute(site: _Site) -> Value:
    site.count(1)
    props = {
        "source_target_pairs": site.attr("source_target_pairs", matrix_of),
        "channel_id": site.attr("channel_id", int_of, None),
    }
    return site.one(xla.CollectivePermuteOp, site.arrays(), props)


# ---- tokens, host transfers -----------------------------------------------------------


@rule("infeed")
def _infeed(site: _Site) -> Value:
    """infeed(token) -> (data, token): the data tuple's arrays, then the token."""
    site.count(1)
    config = site.attr("infeed_config", unquote, None)
    op = site.op(xla.InfeedOp, site.arrays(), {"infeed_config": config or None})
    return site.results(op)


@rule("outfeed")
def _outfeed(site: _Site) -> Value:
    site.count(2)
    values = site.conv.leaves(site.operand(0), site)
    config = site.attr("outfeed_config", unquote, None)
    return site.one(xla.OutfeedOp, [values, site.array(1)], {"outfeed_config": config or None}, TokenType())


@rule("send")
def _send(site: _Site) -> Value:
    """send(data, token) -> (data, u32[] context, token), synchronous here: the send is
    done when `send-done` reads its token."""
    site.count(2)
    data = site.conv.leaves(site.operand(0), site)
    props = {
        "channel_id": site.attr("channel_id", int_of, 0),
        "is_host_transfer": site.attr("is_host_transfer", bool_of, None),
    }
    token = site.one(xla.SendOp, [data, site.array(1)], props, TokenType())
    context = site.one(xla.ConstantOp, [], {"value": _u32_zero()}, TensorType(_element_type("u32"), []))
    return TupleValue([site.operand(0), context, token])


@rule("send-done")
def _send_done(site: _Site) -> Value:
    value = site.operand(0)
    if not isinstance(value, TupleValue) or len(value.elements) != 3:
        raise site.error("send-done's operand must be a send")
    return value.elements[2]


@rule("recv")
def _recv(site: _Site) -> Value:
    site.count(1)
    data_shape = site.shape.tuple_shapes[0] if site.shape.tuple_shapes else None  # type: ignore[index]
    if data_shape is None:
        raise site.error("recv returns (data, u32[] context, token)")
    types = [_array_type(s) for s in _leaf_shapes(data_shape)] + [TokenType()]
    props = {
        "channel_id": site.attr("channel_id", int_of, 0),
        "is_host_transfer": site.attr("is_host_transfer", bool_of, None),
    }
    op = site.op(xla.RecvOp, site.arrays(), props, types)
    data = site.conv.assemble(data_shape, list(op.results[:-1]))
    context = site.one(xla.ConstantOp, [], {"value": _u32_zero()}, TensorType(_element_type("u32"), []))
    return TupleValue([data, context, op.results[-1]])


@rule("recv-done")
def _recv_done(site: _Site) -> Value:
    value = site.operand(0)
    if not isinstance(value, TupleValue) or len(value.elements) != 3:
        raise site.error("recv-done's operand must be a recv")
    return TupleValue([value.elements[0], value.elements[2]])


def _u32_zero() -> Attribute:
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    return DenseIntOrFPElementsAttr.from_list(TensorType(_element_type("u32"), []), [0])


# ---- what the StableHLO importer knows: custom calls, chlo's functions ----------------

_CHLO_UNARY = {
    "erf": "erf", "cosh": "cosh", "sinh": "sinh", "acos": "acos", "acosh": "acosh", "asin": "asin",
    "asinh": "asinh", "atanh": "atanh", "atan": "atan", "erf-inv": "erf_inv", "lgamma": "lgamma",
    "digamma": "digamma",
}  # fmt: skip


def _imported(
    site: _Site,
    name: str,
    operands: list[SSAValue],
    result_types: list[Attribute],
    properties: dict[str, Attribute] | None = None,
    attributes: dict[str, Attribute] | None = None,
    regions: Sequence[Region] = (),
) -> Operation:
    """A stablehlo/chlo op that `convert-stablehlo-to-xla` converts after reading."""
    from xla_opt.dialects.stablehlo.ops import CHLO_OPS, STABLEHLO_OPS

    dialect, _, op_name = name.partition(".")
    cls = (STABLEHLO_OPS if dialect == "stablehlo" else CHLO_OPS)[op_name]
    site.conv.imports_stablehlo = True
    op = cls.create(
        operands=operands,
        result_types=result_types,
        properties=properties or {},
        attributes=attributes or {},
        regions=list(regions),
    )
    op.location = site.loc
    site.block.add_op(op)
    return op


for _opcode, _chlo in _CHLO_UNARY.items():
    RULES[_opcode] = lambda site, n=_chlo: _imported(site, f"chlo.{n}", site.arrays(), site.result_types()).results[0]


@rule("complex")
def _complex(site: _Site) -> Value:
    site.count(2)
    return _imported(site, "stablehlo.complex", site.arrays(), site.result_types()).results[0]


@rule("custom-call")
def _custom_call(site: _Site) -> Value:
    """A custom call: XLA's CPU `TopK` here; any other target as a
    `stablehlo.custom_call` for the StableHLO importer's rules (its results: the
    tuple's elements)."""
    target = site.attr("custom_call_target", unquote)
    if target == "TopK":
        return _cpu_topk(site)
    if target.startswith("xla.sdy."):
        return _shardy_call(site, target)
    operands = [leaf for v in site.operands() for leaf in site.conv.leaves(v, site)]
    props: dict[str, Attribute] = {"call_target_name": StringAttr(target)}
    attributes: dict[str, Attribute] = {}
    config = site.instr.attributes.get("backend_config")
    if config is not None:
        if config.text.startswith("{"):
            # a typed FFI call's attributes, an MLIR dictionary (`{uplo = 76 : ui8}`)
            attributes["mhlo.backend_config"] = _mlir_dictionary(site, config.text, config.offset)
        else:
            props["backend_config"] = StringAttr(unquote(config.text))
    if site.attr("custom_call_has_side_effect", bool_of, False):
        props["has_side_effect"] = BoolAttr.from_bool(True)
    called = site.attr("called_computations", computations_of, [])
    if called:
        symbols = []
        for name in called:
            comp = site.conv.hlo.computations.get(name)
            if comp is None:
                raise site.error(f"computation '{name}' does not exist")
            symbols.append(SymbolRefAttr(_comparator_function(site, comp)))
        props["called_computations"] = ArrayAttr(symbols)
    op = _imported(site, "stablehlo.custom_call", operands, site.result_types(), props, attributes)
    return site.results(op)


def _shardy_call(site: _Site, target: str) -> Value:
    """Shardy's markers in HLO text (`xla.sdy.FuncResultSharding`, `xla.sdy.Sharding`...)
    say where a value lives: on one device, the value itself. The calls of a
    `shard_map` (`xla.sdy.GlobalToLocalShape`, `LocalToGlobalShape`) change shapes:
    the program is per-device code that only its partitioner can run."""
    values = site.operands()
    if len(values) == 1 and isinstance(values[0], SSAValue) and [values[0].type] == site.result_types():
        return values[0]
    raise site.error(
        f"custom call '{target}' changes shapes: a shard_map program in HLO text is per-device code; "
        "read its StableHLO (lowered.as_text()), which xla-opt partitions"
    )


def _comparator_function(site: _Site, comp: Computation) -> str:
    """A computation a custom call names (ApproxTopK's comparator): a function
    returning with xla.return, as the StableHLO importer expects of it."""
    name = site.conv.function(comp, site)
    f = next(op for op in site.conv.module.body.block.ops if isinstance(op, func.FuncOp) and op.sym_name.data == name)
    block = f.body.blocks[0]
    last = block.last_op
    if isinstance(last, func.ReturnOp):
        ret = xla.ReturnOp.create(operands=list(last.operands))
        ret.location = last.location
        block.erase_op(last)
        block.add_op(ret)
    return name


def _mlir_dictionary(site: _Site, text: str, offset: int) -> Attribute:
    from xdsl.parser import Parser

    from xla_opt.context import make_context

    try:
        attr = Parser(make_context(), text).parse_attribute()
    except Exception as e:  # noqa: BLE001 - xDSL's parse errors are several types
        raise site.error(f"backend_config: not an MLIR dictionary: {one_line(str(e))}", offset) from None
    if not isinstance(attr, DictionaryAttr):
        raise site.error("backend_config: not an MLIR dictionary", offset)
    return attr


def _cpu_topk(site: _Site) -> Value:
    """XLA's CPU TopK custom call (what its TopkRewriter makes of a sort and a slice):
    the operand sorted along its last dimension with an iota by the called comparator
    (stable: ties by index), the first k of each, k the results' last dimension."""
    site.count(1)
    x = site.array(0)
    names = site.attr("called_computations", computations_of, [])
    if len(names) != 1 or names[0] not in site.conv.hlo.computations:
        raise site.error("TopK takes one comparator (called_computations)")
    shapes = site.shape.tuple_shapes or ()
    if len(shapes) != 2:
        raise site.error("TopK returns (values, indices)")
    return _sorted_prefix(site, x, shapes[0].dims[-1], "GT", site.conv.hlo.computations[names[0]])


# --------------------------------------------------------------------------------------
# The entry point
# --------------------------------------------------------------------------------------


def _import_stablehlo_ops(conv: _Converter) -> None:
    """The stablehlo/chlo ops the rules left (custom calls, chlo's functions) through
    `convert-stablehlo-to-xla`'s rules."""
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

    from xla_opt.passes.conversions.convert_stablehlo_to_xla import PATTERNS, drop_unused_computations

    PatternRewriteWalker(
        GreedyRewritePatternApplier(PATTERNS, dce_enabled=False),
        walk_regions_first=True,
        apply_recursively=False,
    ).rewrite_module(conv.module)
    drop_unused_computations(conv.module)


def parse_hlo_text(text: str, name: str = "<hlo>", line_offset: int = 0) -> ModuleOp:
    """The xla program of an HLO module's text, verified. Raises `HloTextError` (a
    `ProgramError`) with the located diagnostic (`name:line:col: error: ...`; lines
    counted from `line_offset` + 1)."""
    try:
        hlo = parse_module(text)
        conv = _Converter(hlo, text, name, line_offset)
        conv.entry()
        if conv.imports_stablehlo:
            _import_stablehlo_ops(conv)
    except HloError as e:
        line, col = _position(text, e.offset)
        raise HloTextError([Diagnostic(name, line + line_offset, col, one_line(e.message))]) from None
    except DiagnosticError as e:  # the StableHLO importer's, at the op's location
        raise HloTextError(e.diagnostics) from None
    except RecursionError:
        raise HloTextError([Diagnostic(name, 0, 0, "the module nests too deeply")]) from None
    conv.module.sym_name = StringAttr(_module_name(hlo.name))
    # every op was verified as it was made, but calls (their callees were not in the
    # module yet) and what the StableHLO import made
    if conv.imports_stablehlo:
        if diagnostics := verify_module(conv.module, name):
            raise HloTextError(diagnostics)
        return conv.module
    try:
        for op, offset in conv.calls:
            _verify_one(op, offset)
        for f in conv.module.ops:
            _verify_one(f, 0)
            if isinstance(f, func.FuncOp) and (ret := f.body.blocks[0].last_op) is not None:
                _verify_one(ret, 0)
    except HloError as e:
        line, col = _position(text, e.offset)
        raise HloTextError([Diagnostic(name, line + line_offset, col, one_line(e.message))]) from None
    return conv.module


def _verify_one(op: Operation, offset: int) -> None:
    try:
        op.verify(verify_nested_ops=False)
    except Exception as e:  # noqa: BLE001 - every verifier failure is a located error
        message = str(e).removeprefix("Operation does not verify: ")
        raise HloError(offset, f"'{op.name}' op {one_line(message)}") from None


def _module_name(name: str) -> str:
    return re.sub(r"[^\w.$-]", "_", name) or "hlo_module"


def _position(text: str, offset: int) -> tuple[int, int]:
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col
