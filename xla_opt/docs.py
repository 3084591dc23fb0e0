"""The reference pages generated from the code, as MLIR generates its dialect and pass
documentation from their definitions (`mlir-tblgen -gen-dialect-doc/-gen-pass-doc`),
so that they cannot drift:

* `docs/ops.md`: every op of the xla dialect, by family: its syntax in the uniform
  assembly format (derived from its IRDL definition), the rule its verifier enforces
  (its docstring), whether the interpreter runs it and the JIT lowers it, and the
  module of every layer that handles it;
* `docs/passes.md`: every pass of ours, the pipeline's stages first in their order:
  what it does, its module, its options and its input and output dialects (each pass
  class declares them: `input_dialects`, `output_dialects`);
* README.md's op-status table, between its `op-table` markers (`readme_with_table`).

    python -m xla_opt.docs            # what would change (exit status 1 if anything would)
    python -m xla_opt.docs --update   # write it

`tests/test_docs.py` and `tests/test_readme.py` check that regenerating changes nothing.
The pages are a function of the code alone (no dates, no host facts; sorted wherever
the order means nothing), and generating them only imports the code (~1 s).
"""

from __future__ import annotations

import ast
import difflib
import importlib
import importlib.util
import inspect
import re
import sys
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OPS_PAGE = ROOT / "docs" / "ops.md"
PASSES_PAGE = ROOT / "docs" / "passes.md"
README = ROOT / "README.md"
UPDATE_COMMAND = "python -m xla_opt.docs --update"

YES, NO = "yes", "—"


# --------------------------------------------------------------------------------------
# Source locations and docstrings
# --------------------------------------------------------------------------------------


def source_path(module: str) -> str | None:
    """The repository path of one of our modules (`lowering/.../x.py`), None for
    another package's."""
    if module.partition(".")[0] != "xla_opt":
        return None
    file = getattr(sys.modules.get(module) or importlib.import_module(module), "__file__", None)
    return None if file is None else Path(file).resolve().relative_to(ROOT).as_posix()


def doc_blocks(doc: str | None) -> list[tuple[str, str]]:
    """A docstring as ("text" | "code", block) pairs, blocks in order: code is a block
    indented beyond the docstring's own indentation after a blank line (an IR
    example), text the paragraphs around it (an indented line right after text
    continues it: a list item's). The docstring's indentation is its closing line's
    when that line is blank (a one-paragraph docstring indents its example by more),
    else its least indented line after the first."""
    if not doc or not doc.strip():
        return []
    first, _, rest = doc.partition("\n")
    lines = rest.split("\n")
    if lines and not lines[-1].strip() and lines[-1]:
        base = len(lines[-1])
    else:
        indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
        base = min(indents, default=0)
    blocks: list[tuple[str, list[str]]] = [("text", [first.strip()])]
    for line in lines:
        indented = len(line) - len(line.lstrip()) > base
        kind = "code" if indented and (blocks[-1][0] == "code" or not blocks[-1][1]) else "text"
        if not line.strip():
            if blocks[-1][0] == "code":
                blocks[-1][1].append("")
            else:
                blocks.append(("text", []))
            continue
        if blocks[-1][0] != kind:
            blocks.append((kind, []))
        blocks[-1][1].append(line[base:] if kind == "text" else line)
    found = []
    for kind, block_lines in blocks:
        text = textwrap.dedent("\n".join(block_lines)).strip("\n")
        if text.strip():
            found.append((kind, text.rstrip()))
    return found


def doc_markdown(doc: str | None) -> str:
    """A docstring as Markdown: its paragraphs as they are, its IR examples fenced."""
    return "\n\n".join(
        f"```mlir\n{block}\n```" if kind == "code" else block for kind, block in doc_blocks(doc)
    )


def first_paragraph(doc: str | None, name: str = "") -> str:
    """A docstring's first paragraph (and the next one when it ends with a colon: the
    list it introduces), without a leading `name:`."""
    paragraphs = [block for kind, block in doc_blocks(doc) if kind == "text"]
    if not paragraphs:
        return ""
    taken = paragraphs[:1]
    while taken[-1].endswith(":") and len(taken) < len(paragraphs):
        taken.append(paragraphs[len(taken)])
    text = "\n\n".join(taken)
    for prefix in (f"`{name}`: ", f"{name}: "):
        if name and text.startswith(prefix):
            text = text[len(prefix) :]
    return text


def own_doc(cls: type) -> str | None:
    """A class's own docstring (a dataclass without one gets its signature)."""
    doc = vars(cls).get("__doc__")
    if not doc or doc.startswith(cls.__name__ + "("):
        return None
    return doc


def slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def code_path(path: str | None, page_dir: str = "docs") -> str:
    """A repository path as a link from a page of `page_dir`."""
    if path is None:
        return NO
    up = "../" * len(Path(page_dir).parts)
    return f"[`{path}`]({up}{path})"


# --------------------------------------------------------------------------------------
# Op status: the README's table (formerly xla_opt/op_status.py)
# --------------------------------------------------------------------------------------


def interpreted_ops() -> set[str]:
    from xla_opt.interpreter import interpreted_op_names

    return interpreted_op_names()


def lowered_ops() -> set[str]:
    from xla_opt.lowering import lowered_op_names

    return lowered_op_names()


def rows() -> list[tuple[str, str, str, str]]:
    """(op, parse/print/verify, interpreter, lowering to LLVM) for every op, by name."""
    from xla_opt.dialects.xla import ALL_OPS

    interpreted, lowered = interpreted_ops(), lowered_ops()
    mark: Callable[[bool], str] = lambda b: YES if b else NO
    return [
        (op.name, YES, mark(op.name in interpreted), mark(op.name in lowered))
        for op in sorted(ALL_OPS, key=lambda o: o.name)
    ]


def markdown_table() -> str:
    lines = ["| op | parse/print/verify | interpreter | lowering to LLVM |", "|---|---|---|---|"]
    lines += [f"| `{name}` | {v} | {i} | {lo} |" for name, v, i, lo in rows()]
    return "\n".join(lines) + "\n"


BEGIN, END = "<!-- op-table:begin -->", "<!-- op-table:end -->"


def readme_with_table(readme: str) -> str:
    """`readme` with the op table between its markers replaced by the current one."""
    head, rest = readme.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{markdown_table()}{END}{tail}"


# --------------------------------------------------------------------------------------
# Op syntax: the uniform assembly format (dialects/xla/assembly.py) of an IRDL definition
# --------------------------------------------------------------------------------------

SINGLE, VARIADIC, OPTIONAL = "single", "variadic", "optional"


@dataclass(frozen=True)
class OpSyntax:
    """An op's pretty form, part by part, as `UniformAssembly` prints it: results,
    operands (each variadic group parenthesized when there are several), properties
    `name = value` in declaration order (optional ones omitted when absent), named
    regions, then `: types`. `custom` is the example of an op that prints itself."""

    name: str
    results: tuple[tuple[str, str], ...] = ()
    operands: tuple[tuple[str, str], ...] = ()
    properties: tuple[tuple[str, str, bool], ...] = ()  # (name, value form, optional)
    regions: tuple[tuple[str, str], ...] = ()
    grouped: bool = False  # several variadic operand groups: each in parentheses
    custom: str | None = None

    def render(self) -> str:
        if self.custom is not None:
            return self.custom
        results = ", ".join(f"%{n}" + {SINGLE: "", VARIADIC: "...", OPTIONAL: "?"}[k] for n, k in self.results)
        items: list[tuple[str, bool]] = []
        for n, kind in self.operands:
            text = f"%{n}" + {SINGLE: "", VARIADIC: "...", OPTIONAL: "?"}[kind]
            items.append((f"({text})" if self.grouped and kind != SINGLE else text, False))
        items += [(f"{n} = <{form}>", optional) for n, form, optional in self.properties]
        text = f"{results} = {self.name}" if results else self.name
        for i, (item, optional) in enumerate(items):
            sep = ", " if i else " "
            text += f" [{sep.strip() + ' ' if i else ''}{item}]" if optional else f"{sep}{item}"
        for n, kind in self.regions:
            if kind == SINGLE:
                text += f" {n} {{...}}"
            else:
                text += f" [{n}({{...}}, ...)]" if kind == OPTIONAL else f" {n}({{...}}, ...)"
        if self.results or self.operands:
            text += " : <types>"
        return text


def _value_name(field: str) -> str:
    # `results_`: a field named so as not to hide IRDLOperation's `results`
    return field.rstrip("_")


def _def_kind(definition: Any) -> str:
    from xdsl.irdl import OptionalDef, VariadicDef

    if isinstance(definition, OptionalDef):
        return OPTIONAL
    return VARIADIC if isinstance(definition, VariadicDef) else SINGLE


def property_form(constraint: Any) -> str:
    """How a property's value is spelled (assembly.py's `_print_prop_value`), from the
    values its constraint accepts: an enum's words, `true|false`, `i64`, `[i64, ...]`,
    `[[i64, ...], ...]` (a matrix: padding pairs, replica groups), `float`,
    `"string"`, `@symbol`, or any `attribute`."""
    from xdsl.dialects.builtin import (
        BoolAttr,
        DenseIntOrFPElementsAttr,
        FloatAttr,
        IntegerAttr,
        StringAttr,
        SymbolRefAttr,
        i64,
    )
    from xdsl.dialects.utils.enum_attribute import EnumAttribute
    from xdsl.irdl import VerificationContext

    from xla_opt.dialects.xla import i64_array, i64_matrix

    def accepts(value: Any) -> bool:
        try:
            constraint.verify(value, VerificationContext())
        except Exception:  # noqa: BLE001 - any rejection
            return False
        return True

    bases = constraint.get_bases() or set()
    for base in sorted(bases, key=lambda b: b.__name__):
        if issubclass(base, EnumAttribute):
            return "|".join(e.value for e in base.enum_type)
    for value, form in (
        (BoolAttr.from_bool(True), "true|false"),
        (IntegerAttr(0, i64), "i64"),
        (i64_array([]), "[i64, ...]"),
        (i64_matrix([[0, 0]]), "[[i64, ...], ...]"),
    ):
        if accepts(value):
            return form
    for base, form in (
        (DenseIntOrFPElementsAttr, "dense<...>"),
        (FloatAttr, "float"),
        (StringAttr, '"string"'),
        (SymbolRefAttr, "@symbol"),
    ):
        if base in bases:
            return form
    return "attribute"


def op_syntax(op: type) -> OpSyntax:
    """The syntax of an xla op class, from its IRDL definition (or, for an op that
    prints itself, the example of its docstring)."""
    from xdsl.irdl import OptPropertyDef

    from xla_opt.dialects.xla.assembly import UniformAssembly

    if op.print is not UniformAssembly.print:
        examples = [block for kind, block in doc_blocks(op.__doc__) if kind == "code" and f" {op.name} " in block]
        if not examples:
            raise ValueError(f"{op.name} prints itself: its docstring needs an indented example of its syntax")
        return OpSyntax(op.name, custom=" ".join(examples[0].split()))
    opdef = op.get_irdl_definition()
    operands = tuple((_value_name(n), _def_kind(d)) for n, d in opdef.operands)
    return OpSyntax(
        name=op.name,
        results=tuple((_value_name(n), _def_kind(d)) for n, d in opdef.results),
        operands=operands,
        properties=tuple(
            (n, property_form(d.constr), isinstance(d, OptPropertyDef))
            for n, d in opdef.properties.items()
            if n not in ("operandSegmentSizes", "resultSegmentSizes")
        ),
        regions=tuple((n, _def_kind(d)) for n, d in opdef.regions),
        grouped=sum(k != SINGLE for _, k in operands) > 1,
    )


# --------------------------------------------------------------------------------------
# Where each op lives: one module per family in every layer
# --------------------------------------------------------------------------------------


@dataclass
class OpLayers:
    """Per op name, the modules (and rules) of every layer that handles it."""

    family: dict[str, str] = field(default_factory=dict)
    defined: dict[str, tuple[str, str]] = field(default_factory=dict)  # (module, class)
    interpreter: dict[str, str] = field(default_factory=dict)
    lowering: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # (module, patterns)
    imports: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # [(module, foreign op)]
    exports: dict[str, tuple[str, str]] = field(default_factory=dict)  # (module, how)
    real_only: frozenset[str] = frozenset()


def _lowering_patterns(layers: OpLayers) -> None:
    from xla_opt.lowering.conversions import convert_xla_to_linalg as to_linalg
    from xla_opt.pattern_dispatch import matched_type

    for module in to_linalg.FAMILY_MODULES.values():
        patterns: dict[str, list[str]] = {}
        for pattern in module.PATTERNS:
            matched = matched_type(pattern)
            for cls in matched if isinstance(matched, tuple) else (matched,) if matched else ():
                names = patterns.setdefault(getattr(cls, "name", ""), [])
                if type(pattern).__name__ not in names:
                    names.append(type(pattern).__name__)
        for name in module.LOWERED:
            layers.lowering[name] = (module.__name__, patterns.get(name, []))
    layers.real_only = frozenset(to_linalg.REAL_ONLY_OPS)


def _stablehlo_import(layers: OpLayers) -> None:
    """The foreign ops each xla op comes from: a table's entries exactly, and a rule of
    the family's module for the StableHLO (or func) op of the same name."""
    from xla_opt.passes.conversions.convert_stablehlo_to_xla import FAMILY_MODULES

    by_suffix = {name.removeprefix("xla."): name for name in layers.family}
    for module in FAMILY_MODULES:
        family = module.__name__.rpartition(".")[2]
        for pattern in module.PATTERNS:
            table = getattr(pattern, "table", None)
            if isinstance(table, dict):
                for foreign, target in table.items():
                    if getattr(target, "name", None) in layers.family:
                        layers.imports.setdefault(target.name, []).append((module.__name__, foreign))
                continue
            foreign = getattr(pattern, "name", "")
            target = by_suffix.get(foreign.partition(".")[2])
            if target is not None and layers.family[target] == family:
                layers.imports.setdefault(target, []).append((module.__name__, foreign))
    for found in layers.imports.values():
        found.sort()


def _stablehlo_export(layers: OpLayers) -> None:
    """How each xla op is exported: as a StableHLO op (a table's entry), by a rule
    (its function), or not at all (why)."""
    from xla_opt.passes.conversions.convert_xla_to_stablehlo import FAMILY_MODULES

    for module in FAMILY_MODULES:
        for pattern in module.PATTERNS:
            table = getattr(pattern, "table", None)
            if isinstance(table, dict):
                for key, entry in table.items():
                    if isinstance(key, str):  # Unsupported: op name -> why
                        layers.exports[key] = (module.__name__, f"none: it {entry}")
                    else:
                        target = entry[0] if isinstance(entry, tuple) else entry
                        layers.exports[key.name] = (module.__name__, f"as `stablehlo.{target}`")
            elif (cls := getattr(pattern, "cls", None)) is not None:
                layers.exports[cls.name] = (module.__name__, f"rule `{pattern.convert.__name__}`")


def op_layers() -> OpLayers:
    from xla_opt.dialects.xla import FAMILIES
    from xla_opt.interpreter.families import FAMILIES as INTERPRETER

    layers = OpLayers()
    for family, (ops, _attrs) in FAMILIES.items():
        for op in ops:
            layers.family[op.name] = family
            module = op.__module__ if op.__module__.startswith("xla_opt.dialects.xla.") else None
            layers.defined[op.name] = (module or f"xla_opt.dialects.xla.{family}", op.__name__)
    for functions in INTERPRETER.values():
        for op, _impl in functions._impls():  # xDSL's registry of an InterpreterFunctions class
            if op.name in layers.family:
                layers.interpreter[op.name] = functions.__module__
    _lowering_patterns(layers)
    _stablehlo_import(layers)
    _stablehlo_export(layers)
    return layers


def shape_modules(family: str) -> list[str]:
    """The shape-function modules (dialects/shapes) a family's definitions call."""
    module = importlib.import_module(f"xla_opt.dialects.xla.{family}")
    return sorted(
        {
            value.__module__
            for value in vars(module).values()
            if callable(value) and getattr(value, "__module__", "").startswith("xla_opt.dialects.shapes.")
        }
    )


# --------------------------------------------------------------------------------------
# docs/ops.md
# --------------------------------------------------------------------------------------

GENERATED = (
    "<!-- Generated by `python -m xla_opt.docs --update` from the code: do not edit. "
    "tests/test_docs.py checks that it is current. -->"
)

SYNTAX_LEGEND = """\
Each op's syntax is the dialect's uniform assembly format (`dialects/xla/assembly.py`),
derived from the op's IRDL definition:

```
%results = xla.<op> <operands>, <property> = <value>, ... <region-name> {...} ... : <types>
```

* operands first: `%x` one value, `%xs...` a variadic group (any number), `%x?` an
  optional operand; when an op has several variadic groups, each is in parentheses:
  `xla.reduce (%a, %b), (%init_a, %init_b), ...`;
* then the properties as `name = value`, in declaration order; `[, name = <value>]` is
  optional (absent: the spec's default). Values: `[i64, ...]` an integer list,
  `[[i64, ...], ...]` nested lists, `LT|LE|...` one of an enum's words, `true|false`,
  `i64`, `float`, `"string"`, `@symbol`;
* then each region by name: `body {...}`, a variadic one as `branches({...}, ...)`;
* discardable attributes, if any, as `attributes {...}`;
* `: <types>`: `: T` when every operand and result has the one type `T`, otherwise the
  functional type `: (T0, T1) -> R` or `-> (R0, R1)`; an op without results lists its
  operand types `: T0, T1`.

The generic MLIR form (`"xla.add"(%a, %b) : (...) -> ...`) is accepted and printed
(`--print-op-generic`) for every op too.
"""


def _op_entry(op: type, layers: OpLayers, interpreted: set[str], lowered: set[str]) -> list[str]:
    name = op.name
    module, cls_name = layers.defined[name]
    lines = [f"### `{name}`", "", "```mlir", op_syntax(op).render(), "```", ""]
    rule = doc_markdown(op.__doc__)
    lines += [rule, ""] if rule else []
    lines.append(f"- **defined**: `{source_path(module)}` (`{cls_name}`)")
    if name in interpreted:
        lines.append(f"- **interpreter**: {YES}, `{source_path(layers.interpreter[name])}`")
    else:
        lines.append(f"- **interpreter**: {NO}")
    if name in lowered:
        where, patterns = layers.lowering[name]
        how = f" ({', '.join(f'`{p}`' for p in patterns)})" if patterns else ""
        complex_note = "; complex values run on the interpreter" if name in layers.real_only else ""
        lines.append(f"- **lowering to LLVM**: {YES}, `{source_path(where)}`{how}{complex_note}")
    else:
        lines.append(f"- **lowering to LLVM**: {NO} (runs on the interpreter)")
    family = layers.family[name]
    if name in layers.imports:
        froms = {}
        for module_name, foreign in layers.imports[name]:
            froms.setdefault(module_name, []).append(f"`{foreign}`")
        text = "; ".join(f"`{source_path(m)}` from {', '.join(f)}" for m, f in sorted(froms.items()))
    else:
        text = f"`{source_path(f'xla_opt.passes.conversions.convert_stablehlo_to_xla.{family}')}`"
    lines.append(f"- **StableHLO import**: {text}")
    if name in layers.exports:
        module_name, how = layers.exports[name]
        lines.append(f"- **StableHLO export**: `{source_path(module_name)}`, {how}")
    else:
        lines.append(f"- **StableHLO export**: {NO}")
    return [*lines, ""]


# The packages with one module per op family, by layer.
FAMILY_LAYERS = {
    "definition (`xla` dialect)": "xla_opt.dialects.xla",
    "interpreter": "xla_opt.interpreter",
    "lowering (`convert-xla-to-linalg`)": "xla_opt.lowering.conversions.convert_xla_to_linalg",
    "StableHLO import (`convert-stablehlo-to-xla`)": "xla_opt.passes.conversions.convert_stablehlo_to_xla",
    "StableHLO export (`convert-xla-to-stablehlo`)": "xla_opt.passes.conversions.convert_xla_to_stablehlo",
}


def _family_table(family: str) -> list[str]:
    def row(layer: str, modules: Iterable[str]) -> str:
        paths = [code_path(source_path(m)) for m in modules if importlib.util.find_spec(m) is not None]
        return f"| {layer} | {', '.join(paths) or NO} |"

    rows = [row(layer, [f"{package}.{family}"]) for layer, package in FAMILY_LAYERS.items()]
    return ["| layer | module |", "|---|---|", rows[0], row("shape functions", shape_modules(family)), *rows[1:], ""]


def ops_page() -> str:
    from xla_opt.dialects.xla import ALL_OPS, FAMILIES

    layers = op_layers()
    interpreted, lowered = interpreted_ops(), lowered_ops()
    lines = [
        GENERATED,
        "",
        "# The `xla` dialect: op reference",
        "",
        f"Every op of the `xla` dialect ({len(ALL_OPS)} ops), by family: its syntax, the rule its verifier",
        "enforces, whether the reference interpreter runs it and the JIT lowers it to LLVM, and",
        "where each layer handles it. A family has one module of the same name in every layer",
        "(`dialects/xla/<family>.py`, `xla_opt/interpreter/<family>.py`,",
        "`lowering/conversions/convert_xla_to_linalg/<family>.py`, ...).",
        "",
        SYNTAX_LEGEND,
        "## Families",
        "",
    ]
    for family, (ops, _attrs) in FAMILIES.items():
        names = sorted(op.name for op in ops)
        links = ", ".join(f"[`{n}`](#{slug(n)})" for n in names)
        lines.append(f"- [{family}](#{slug(family)}) ({len(names)}): {links}")
    lines.append("")
    for family, (ops, _attrs) in FAMILIES.items():
        module = importlib.import_module(f"xla_opt.dialects.xla.{family}")
        lines += [f"## {family}", "", first_paragraph(module.__doc__), "", *_family_table(family)]
        for op in sorted(ops, key=lambda o: o.name):
            lines += _op_entry(op, layers, interpreted, lowered)
    return "\n".join(lines).rstrip("\n") + "\n"


# --------------------------------------------------------------------------------------
# Passes: descriptions, options, dialects
# --------------------------------------------------------------------------------------

# The dialects of xDSL's stages of the pipeline, declared here as ours are on their
# classes (`input_dialects`, `output_dialects`; None: any dialect, ops only removed or
# merged) and checked the same way by tests/test_docs.py.
XDSL_STAGE_DIALECTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]] | None] = {
    "linalg-generalize-named-ops": (("linalg",), ("linalg",)),
    "canonicalize": None,
    "cse": None,
    "convert-linalg-to-loops": (("linalg",), ("affine", "arith", "memref", "scf")),
    "lower-affine": (("affine",), ("arith",)),
    "convert-scf-to-openmp": (("arith", "memref", "scf"), ("memref", "omp")),
    "convert-scf-to-cf": (("scf",), ("arith", "cf")),
}


@dataclass(frozen=True)
class PassOption:
    name: str  # as the command line spells it: min-bytes
    kind: str
    default: str | None
    doc: str = ""

    def spec(self) -> str:
        """As `xla-opt --list-passes` prints it (without its braces)."""
        default = f" = {self.default}" if self.default is not None else ""
        return f"{self.name}: {self.kind}{default}"


def _field_docs(cls: type) -> dict[str, str]:
    """The documentation of each dataclass field of a pass: the string after it (an
    attribute docstring), or the comment lines right above it."""
    try:
        source_lines, _ = inspect.getsourcelines(cls)
    except (OSError, TypeError):
        return {}
    source = textwrap.dedent("".join(source_lines))
    lines = source.splitlines()
    (node,) = ast.parse(source).body
    assert isinstance(node, ast.ClassDef)
    docs = {}
    for statement, following in zip(node.body, [*node.body[1:], None], strict=True):
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        if (
            isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = " ".join(following.value.value.split())
            continue
        comments = []
        row = statement.lineno - 2
        while row >= 0 and lines[row].strip().startswith("#"):
            comments.insert(0, lines[row].strip().lstrip("#").strip())
            row -= 1
        if comments:
            docs[statement.target.id] = " ".join(comments)
    return docs


def pass_options(cls: type) -> list[PassOption]:
    """A pass's options, read from its dataclass fields as `--list-passes` reads them."""
    from xdsl.passes import get_pass_option_infos

    docs = _field_docs(cls)
    found = []
    for info in get_pass_option_infos(cls):
        kind = info.expected_type.replace("'", "")
        found.append(PassOption(info.name.replace("_", "-"), kind, info.default_value, docs.get(info.name, "")))
    return found


@dataclass(frozen=True)
class PassDoc:
    name: str
    cls: type
    ours: bool
    stage: int | None  # its place in xla-to-llvm's STAGES (1-based), if there

    @property
    def module(self) -> str:
        return self.cls.__module__

    def dialects(self) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """(input, output) dialects as declared (None: any dialect)."""
        if self.ours:
            missing = [a for a in ("input_dialects", "output_dialects") if not hasattr(self.cls, a)]
            if missing:
                raise TypeError(f"{self.cls.__name__} ({self.name}) declares no {' and no '.join(missing)}")
            return tuple(sorted(self.cls.input_dialects)), tuple(sorted(self.cls.output_dialects))
        if self.name not in XDSL_STAGE_DIALECTS:
            raise KeyError(f"xDSL's stage {self.name} has no entry in XDSL_STAGE_DIALECTS (xla_opt/docs.py)")
        declared = XDSL_STAGE_DIALECTS[self.name]
        return None if declared is None else (tuple(sorted(declared[0])), tuple(sorted(declared[1])))

    def summary(self) -> str:
        return first_paragraph(own_doc(self.cls), self.name)

    def description(self) -> str:
        """What the pass does: its class's first paragraph, then its module's (the module
        of a pass of ours is named after it and says what it does, as `name: ...`)."""
        paragraphs = [self.summary()]
        if self.ours:
            paragraphs.append(first_paragraph(sys.modules[self.module].__doc__))
        unique = [p for i, p in enumerate(paragraphs) if p and p not in paragraphs[:i]]
        return "\n\n".join(unique)


def pass_docs() -> tuple[list[PassDoc], list[PassDoc]]:
    """The pipeline's stages in order (ours and xDSL's), then our other passes in the
    registry's order."""
    from xla_opt.context import multiverse
    from xla_opt.lowering.xla_to_llvm import STAGES
    from xla_opt.universe import PASSES

    available = multiverse().all_passes
    pipeline = [PassDoc(name, available[name](), name in PASSES, i) for i, name in enumerate(STAGES, 1)]
    others = [PassDoc(name, available[name](), True, None) for name in PASSES if name not in STAGES]
    return pipeline, others


def _dialect_list(names: Iterable[str]) -> str:
    return ", ".join(f"`{n}`" for n in names) or NO


def _dialects_text(doc: PassDoc) -> str:
    declared = doc.dialects()
    if declared is None:
        return "any → the same (ops only removed or merged)"
    return f"{_dialect_list(declared[0])} → {_dialect_list(declared[1])}"


def _pass_entry(doc: PassDoc) -> list[str]:
    path = source_path(doc.module)
    where = code_path(path) if path else f"xDSL's `{doc.module}`"
    stage = f" · stage {doc.stage} of [`xla-to-llvm`](#xla-to-llvm)" if doc.stage else ""
    lines = [f"### `{doc.name}`", "", f"{where} (`{doc.cls.__name__}`){stage}", ""]
    if description := doc.description():
        lines += [description, ""]
    lines += [f"**Dialects**: {_dialects_text(doc)}", ""]
    if doc.ours:
        options = pass_options(doc.cls)
        if not options:
            lines += ["**Options**: none", ""]
        else:
            lines += ["**Options**:", ""]
            lines += [f"- `{o.spec()}`" + (f": {o.doc}" if o.doc else "") for o in options]
            lines.append("")
    return lines


def passes_page() -> str:
    pipeline, others = pass_docs()
    lines = [
        GENERATED,
        "",
        "# Passes",
        "",
        "Every pass xla-opt registers (`xla_opt/universe.py`; `xla-opt --list-passes` lists them",
        "with xDSL's), the stages of the `xla-to-llvm` pipeline first, in their order",
        "(`lowering/xla_to_llvm.py`'s `STAGES`, xDSL's own stages among them), then the others.",
        "",
        "**Dialects** reads `input → output`: the dialects of the ops the pass rewrites (it",
        "leaves the others as they are) and of the ops it creates. Each pass class declares",
        "them (`input_dialects`, `output_dialects`); `tests/test_docs.py` runs the pipeline on",
        "`examples/*.mlir` and a JAX program and checks every declaration against the ops each",
        "pass really removes and creates.",
        "",
        "## The pipeline at a glance",
        "",
        "| # | pass | dialects |",
        "|---|---|---|",
    ]
    for doc in pipeline:
        name = f"[`{doc.name}`](#{slug(doc.name)})" + ("" if doc.ours else " (xDSL)")
        lines.append(f"| {doc.stage} | {name} | {_dialects_text(doc)} |")
    lines += ["", "## The pipeline's stages", ""]
    for doc in pipeline:
        lines += _pass_entry(doc)
    lines += ["## Other passes", ""]
    for doc in others:
        lines += _pass_entry(doc)
    return "\n".join(lines).rstrip("\n") + "\n"


# --------------------------------------------------------------------------------------
# Generating, checking, writing
# --------------------------------------------------------------------------------------


def generated() -> dict[Path, str]:
    """Every generated file's current text: the pages, and README.md with its op table
    (when it has the table's markers)."""
    pages = {OPS_PAGE: ops_page(), PASSES_PAGE: passes_page()}
    if README.exists() and BEGIN in (readme := README.read_text()):
        pages[README] = readme_with_table(readme)
    return pages


def stale(pages: dict[Path, str] | None = None) -> dict[Path, str]:
    """The generated files whose text differs from what the code generates."""
    pages = generated() if pages is None else pages
    return {path: text for path, text in pages.items() if not path.exists() or path.read_text() != text}


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m xla_opt.docs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="write the files that are out of date")
    args = parser.parse_args(argv)
    out_of_date = stale()
    for path, text in sorted(out_of_date.items()):
        name = path.relative_to(ROOT).as_posix()
        if args.update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {name}")
            continue
        old = path.read_text().splitlines(keepends=True) if path.exists() else []
        diff = list(difflib.unified_diff(old, text.splitlines(keepends=True), f"a/{name}", f"b/{name}"))
        sys.stdout.writelines(diff[:200])
        if len(diff) > 200:
            print(f"... ({len(diff) - 200} more diff lines)")
    if not out_of_date:
        print("the generated docs are up to date")
    elif not args.update:
        names = ", ".join(sorted(p.relative_to(ROOT).as_posix() for p in out_of_date))
        print(f"out of date: {names}; run: {UPDATE_COMMAND}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
