"""Pass pipelines as mlir-opt runs them: MLIR's op-anchored textual pipelines
(`builtin.module(func.func(canonicalize,cse),xla-to-llvm)`) besides xDSL's flat lists
(`canonicalize,cse{opt=1}`), and a pass manager with mlir-opt's instrumentation: IR
dumps before/after passes (`// -----// IR Dump After CSE (cse) //----- //` on stderr),
a nested timing report (`Execution time report`), per-pass statistics, and
verification after every pass.

A pass anchored on an op other than the module (`func.func(cse)`) runs on each such op
directly inside the module, one at a time, as MLIR's nested pass managers do: xDSL's
passes are module passes, so `NestedPipelinePass` moves each anchored op alone into a
scratch module, runs the nested passes on it, and puts it (and any symbol the passes
declared next to it) back in its place. Composite passes (`xla-to-llvm`) run their
stages through the same manager, so every stage is timed, counted and printable.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Any, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from xla_opt.diagnostics import Diagnostic, DiagnosticError, one_line


class PipelineError(Exception):
    """A pipeline text that does not parse, or names an unknown pass or option."""


# --------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------

PassFactories = dict[str, Callable[[], type[ModulePass]]]

_ANCHORED = re.compile(r"\s*[\w.$-]+\s*\(")
_TOP_ANCHORS = ("builtin.module", "any")


def _spec_error_message(e: BaseException, offset: int) -> str:
    """xDSL's ArgSpecParseError text is several lines (position, source, caret,
    message): one line with the column in the whole pipeline text."""
    lines = [line for line in str(e).splitlines() if line.strip()]
    column = next((int(m.group(1)) for line in lines if (m := re.search(r":\d+:(\d+)$", line))), None)
    message = lines[-1].strip() if lines else type(e).__name__
    message = message[:1].lower() + message[1:]
    return f"column {column + offset}: {message}" if column is not None else message


def _instantiate(spec: Any, available: PassFactories) -> ModulePass:
    if spec.name not in available:
        raise PipelineError(f"unknown pass '{spec.name}' (xla-opt --list-passes lists them)")
    try:
        return available[spec.name]().from_spec(spec)
    except Exception as e:  # noqa: BLE001 - a bad option value or name
        raise PipelineError(f"pass '{spec.name}': {one_line(str(e))}") from None


def _make_pass(text: str, offset: int, available: PassFactories) -> ModulePass:
    from xdsl.utils.arg_spec import parse_spec
    from xdsl.utils.exceptions import ArgSpecParseError

    try:
        spec = parse_spec(text)
    except ArgSpecParseError as e:  # a BaseException in xDSL 0.74
        raise PipelineError(_spec_error_message(e, offset)) from None
    return _instantiate(spec, available)


class _MLIRPipelineParser:
    """MLIR's grammar: `anchor '(' element (',' element)* ')'`, an element being a
    nested anchored pipeline or a pass `name{options}`."""

    def __init__(self, text: str, available: PassFactories):
        self.text = text
        self.pos = 0
        self.available = available

    def error(self, message: str) -> PipelineError:
        return PipelineError(f"column {self.pos + 1}: {message}")

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def name(self) -> str:
        self.skip_space()
        m = re.compile(r"[\w.$-]+").match(self.text, self.pos)
        if m is None:
            raise self.error("expected a pass or an operation name")
        self.pos = m.end()
        return m.group(0)

    def expect(self, char: str) -> None:
        if self.peek() != char:
            found = f"'{self.peek()}'" if self.peek() else "the end"
            raise self.error(f"expected '{char}', found {found}")
        self.pos += 1

    def elements(self) -> list[ModulePass]:
        passes: list[ModulePass] = []
        if self.peek() == ")":
            return passes
        while True:
            passes.append(self.element())
            if self.peek() != ",":
                return passes
            self.pos += 1

    def element(self) -> ModulePass:
        self.skip_space()
        start = self.pos
        name = self.name()
        if self.peek() == "(":
            self.pos += 1
            inner = self.elements()
            self.expect(")")
            return NestedPipelinePass(name, tuple(inner))
        if self.peek() == "{":
            depth = 0
            while self.pos < len(self.text):
                depth += {"{": 1, "}": -1}.get(self.text[self.pos], 0)
                self.pos += 1
                if depth == 0:
                    break
            if depth:
                raise self.error("unbalanced '{' in pass options")
        return _make_pass(self.text[start : self.pos].strip(), start, self.available)

    def pipeline(self) -> list[ModulePass]:
        anchor = self.name()
        if anchor not in _TOP_ANCHORS:
            raise PipelineError(
                f"the pipeline's top level must be anchored on 'builtin.module' (or 'any'), not '{anchor}': "
                f"write builtin.module({anchor}(...))"
            )
        self.expect("(")
        passes = self.elements()
        self.expect(")")
        if self.peek():
            raise self.error(f"unexpected '{self.peek()}' after the pipeline")
        return passes


def pipeline_diagnostic(text: str, error: PipelineError) -> Diagnostic:
    """A pipeline that does not parse, as xla-opt reports it (one line, no position)."""
    return Diagnostic("xla-opt", 0, 0, f"invalid pass pipeline '{text}': {error}")


def parse_pipeline_text(text: str, available: PassFactories) -> list[ModulePass]:
    """The passes of a pipeline: MLIR's anchored form (`builtin.module(...)`) or
    xDSL's flat list (`a,b{opt=1}`). Raises PipelineError (one line)."""
    if not text.strip():
        return []
    if _ANCHORED.match(text):
        return _MLIRPipelineParser(text, available).pipeline()
    from xdsl.utils.arg_spec import parse_pipeline
    from xdsl.utils.exceptions import ArgSpecParseError

    try:
        specs = list(parse_pipeline(text))
    except ArgSpecParseError as e:  # a BaseException in xDSL 0.74
        raise PipelineError(_spec_error_message(e, 0)) from None
    return [_instantiate(spec, available) for spec in specs]


# --------------------------------------------------------------------------------------
# Nested pipelines and composite passes
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NestedPipelinePass(ModulePass):
    """`anchor(p1,p2)`: the passes run on each op named `anchor` (every op for `any`)
    directly inside the module, each op alone, as MLIR's nested pass managers do."""

    name: ClassVar[str] = "nested-pipeline"
    anchor: str = "func.func"
    passes: tuple[ModulePass, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        active_manager(ctx).run_nested(self, op)

    def __str__(self) -> str:
        return f"{self.anchor}({','.join(str(p) for p in self.passes)})"


def _composite_stages() -> dict[str, Callable[[], list[ModulePass]]]:
    """Passes that are pipelines themselves: their stages run through the manager."""

    def xla_to_llvm() -> list[ModulePass]:
        from xla_opt.lowering.xla_to_llvm import stage_passes

        return [p for _, p in stage_passes()]

    return {"xla-to-llvm": xla_to_llvm}


def _verify_composite_stages() -> bool:
    from xla_opt.lowering.xla_to_llvm import verify_each_stage

    return verify_each_stage()


def display_name(p: ModulePass) -> str:
    """MLIR's name for a pass in reports: its class name (without a `Pass` suffix)."""
    if isinstance(p, NestedPipelinePass):
        return f"'{p.anchor}' Pipeline"
    name = type(p).__name__
    return name.removesuffix("Pass") or name


# --------------------------------------------------------------------------------------
# Timing and statistics
# --------------------------------------------------------------------------------------


@dataclass
class ReportNode:
    """One line of the timing and statistics reports; children merge by key (a pass
    instance, or a name such as 'Verifier') as MLIR's timers do."""

    name: str
    seconds: float = 0.0
    children: dict[Any, ReportNode] = field(default_factory=dict)
    statistics: dict[str, list[Any]] = field(default_factory=dict)

    def child(self, key: Any, name: str) -> ReportNode:
        if key not in self.children:
            self.children[key] = ReportNode(name)
        return self.children[key]

    def count(self, statistic: str, value: int, description: str) -> None:
        entry = self.statistics.setdefault(statistic, [0, description])
        entry[0] += value


_RULE = "===" + "-" * 73 + "==="


def timing_report(root: ReportNode, total: float) -> str:
    lines = [_RULE, "... Execution time report ...".center(79).rstrip(), _RULE]
    lines += [f"  Total Execution Time: {total:.4f} seconds", "", "  ----Wall Time----  ----Name----"]

    def row(seconds: float, name: str, depth: int) -> None:
        percent = 100.0 * seconds / total if total > 0 else 0.0
        lines.append(f"  {seconds:8.4f} ({percent:5.1f}%)  {'  ' * depth}{name}")

    def visit(node: ReportNode, depth: int) -> None:
        for child in node.children.values():
            row(child.seconds, child.name, depth)
            visit(child, depth + 1)

    visit(root, 0)
    row(max(total - sum(c.seconds for c in root.children.values()), 0.0), "Rest", 0)
    row(total, "Total", 0)
    return "\n".join(lines) + "\n"


def statistics_report(root: ReportNode) -> str:
    lines = [_RULE, "... Pass statistics report ...".center(79).rstrip(), _RULE]

    def visit(node: ReportNode, depth: int) -> None:
        for child in node.children.values():
            if child.name in ("Verifier", "Parser", "Output", "StableHLO import"):
                continue
            lines.append(f"{'  ' * depth}{child.name}")
            for statistic, (value, description) in child.statistics.items():
                lines.append(f"{'  ' * (depth + 1)}(S) {value} {statistic} - {description}")
            visit(child, depth + 1)

    visit(root, 0)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------
# The pass manager
# --------------------------------------------------------------------------------------

ALL = "*"


@dataclass
class PassManager:
    """Runs passes with mlir-opt's instrumentation. Pass names in `print_before` /
    `print_after` are kebab-case (`cse`), or ALL."""

    ctx: Context
    file: str = "<unknown>"
    verify: bool = True
    print_before: frozenset[str] = frozenset()
    print_after: frozenset[str] = frozenset()
    print_after_change: bool = False
    print_debuginfo: bool = False
    print_generic: bool = False
    statistics: bool = False
    pass_times: Callable[[ModulePass, float], None] | None = None
    stream: IO[str] = field(default_factory=lambda: sys.stderr)
    root: ReportNode = field(default_factory=lambda: ReportNode("root"))

    _stack: list[ReportNode] = field(default_factory=list)

    # --- reports --------------------------------------------------------------------
    def measure(self, name: str) -> _Measure:
        """Time a phase of the driver (Parser, Output...) under the current node."""
        return _Measure(self, name)

    def _node(self, key: Any, name: str) -> ReportNode:
        return (self._stack[-1] if self._stack else self.root).child(key, name)

    # --- dumps ----------------------------------------------------------------------
    def _wants(self, names: frozenset[str], p: ModulePass) -> bool:
        # a nested pipeline is not a pass of its own: its passes dump their IR
        return bool(names) and not isinstance(p, NestedPipelinePass) and (ALL in names or p.name in names)

    def _dump(self, when: str, p: ModulePass, op: Operation, scope: Operation | None, text: str | None = None) -> None:
        label = f"{display_name(p)} ({p.name})"
        if scope is not None:
            sym = scope.attributes.get("sym_name") or scope.properties.get("sym_name")
            label += f" ('{scope.name}' operation" + (f": @{sym.data}" if sym is not None else "") + ")"
        self.stream.write(f"// -----// IR Dump {when} {label} //----- //\n")
        self.stream.write((text if text is not None else self._print(scope or op)) + "\n\n")

    def _print(self, op: Operation) -> str:
        from io import StringIO

        from xdsl.printer import Printer

        out = StringIO()
        Printer(stream=out, print_debuginfo=self.print_debuginfo, print_generic_format=self.print_generic).print_op(op)
        return out.getvalue()

    # --- running --------------------------------------------------------------------
    def run(self, passes: Sequence[ModulePass], module: ModuleOp, scope: Operation | None = None) -> None:
        global _ACTIVE
        outer, _ACTIVE = _ACTIVE, self
        try:
            for p in passes:
                self.run_pass(p, module, scope)
        finally:
            _ACTIVE = outer

    def run_pass(
        self, p: ModulePass, module: ModuleOp, scope: Operation | None = None, verify: bool | None = None
    ) -> None:
        verify = self.verify if verify is None else verify
        node = self._node(id(p), display_name(p))
        shown = scope or module
        if self._wants(self.print_before, p):
            self._dump("Before", p, module, scope)
        before_text = self._print(shown) if self.print_after_change and self._wants(self.print_after, p) else None
        before_ops = list(shown.walk()) if self.statistics and not isinstance(p, NestedPipelinePass) else None
        composite = None if isinstance(p, NestedPipelinePass) else _composite_stages().get(p.name)
        stages = composite() if composite is not None else None  # loading them is not the pass's time

        rewrites = [0]
        start = time.perf_counter()
        self._stack.append(node)
        try:
            if stages is not None:
                stage_verify = _verify_composite_stages()
                for stage in stages:
                    self.run_pass(stage, module, scope, verify=stage_verify and verify)
            elif before_ops is not None:
                from xla_opt.pass_statistics import collecting

                with _counting_rewrites() as rewrites, collecting(node.count):
                    p.apply(self.ctx, module)
            else:
                p.apply(self.ctx, module)
        finally:
            self._stack.pop()
            node.seconds += time.perf_counter() - start
        if self.pass_times is not None and not self._stack:
            self.pass_times(p, time.perf_counter() - start)

        if before_ops is not None:
            before_ids = {id(o) for o in before_ops}
            after_ops = list(shown.walk())
            after_ids = {id(o) for o in after_ops}
            node.count("ops-before", len(before_ops) - 1, "Operations before the pass")
            node.count("ops-after", len(after_ops) - 1, "Operations after the pass")
            node.count("ops-created", len(after_ids - before_ids), "Operations the pass created")
            node.count("ops-erased", len(before_ids - after_ids), "Operations the pass erased")
            if stages is None:
                node.count("rewrites", rewrites[0], "Patterns applied (by xDSL's pattern rewrite walkers)")
        if verify and not isinstance(p, NestedPipelinePass):
            with self.measure("Verifier"):
                self.verify_after(p, module)
        if self._wants(self.print_after, p):
            if before_text is None:
                self._dump("After", p, module, scope)
            else:
                after_text = self._print(shown)
                if after_text != before_text:
                    self._dump("After", p, module, scope, after_text)

    def verify_after(self, p: ModulePass, module: ModuleOp) -> None:
        from xla_opt.diagnostics import verify_module

        diags = verify_module(module, self.file)
        if diags:
            raise DiagnosticError(
                [Diagnostic(d.file, d.line, d.col, f"{d.message} (after pass '{p.name}')") for d in diags]
            )

    def run_nested(self, nested: NestedPipelinePass, module: ModuleOp) -> None:
        block = module.body.block
        for target in [op for op in block.ops if nested.anchor in ("any", op.name)]:
            if isinstance(target, ModuleOp):
                for p in nested.passes:
                    self.run_pass(p, target)
                continue
            # the op alone in a scratch module, then back in its place
            anchor = target.next_op
            target.detach()
            scratch = ModuleOp([target])
            try:
                for p in nested.passes:
                    self.run_pass(p, scratch, target)
            finally:
                self._put_back(scratch, target, anchor, block)

    @staticmethod
    def _put_back(scratch: ModuleOp, target: Operation, anchor: Operation | None, block) -> None:  # type: ignore[no-untyped-def]
        """The anchored op back in its place, with the symbols the passes declared beside
        it (a runtime function...); one the module has already is dropped if identical,
        an error if not (an op-anchored pass cannot redefine its module's symbols)."""
        existing = {s.data: op for op in block.ops if (s := _symbol(op)) is not None}
        for op in list(scratch.body.block.ops):
            op.detach()
            symbol = _symbol(op)
            if op is not target and symbol is not None and symbol.data in existing:
                if op.is_structurally_equivalent(existing[symbol.data]):
                    continue
                from xla_opt.diagnostics import op_diagnostic

                raise DiagnosticError(
                    [
                        op_diagnostic(
                            target,
                            f"a pass on this op declared @{symbol.data}, which the module defines "
                            "differently: run the pass on the module",
                        )
                    ]
                )
            if anchor is None:
                block.add_op(op)
            else:
                block.insert_op_before(op, anchor)


def _symbol(op: Operation) -> Any:
    return op.properties.get("sym_name") or op.attributes.get("sym_name")


@contextmanager
def _counting_rewrites() -> Iterator[list[int]]:
    """Counts the successful pattern applications of every PatternRewriteWalker and
    ConversionWalker run meanwhile (for --mlir-pass-statistics only): each walker's
    pattern is wrapped while it processes its worklist, which resets `has_done_action`
    before each application; a ConversionWalker's applications are counted one by one."""
    from xdsl.pattern_rewriter import PatternRewriteWalker

    from xla_opt.pattern_dispatch import ConversionWalker

    count = [0]
    original = PatternRewriteWalker._process_worklist
    original_match = ConversionWalker._match

    def match(self: Any, applier: Any, op: Operation, rewriter: Any) -> None:
        original_match(self, applier, op, rewriter)
        count[0] += rewriter.has_done_action

    class Counting:
        def __init__(self, pattern: Any):
            self.pattern = pattern

        def match_and_rewrite(self, op: Operation, rewriter: Any) -> None:
            self.pattern.match_and_rewrite(op, rewriter)
            count[0] += rewriter.has_done_action

    def process_worklist(self: Any, listener: Any) -> bool:
        pattern, self.pattern = self.pattern, Counting(self.pattern)
        try:
            return original(self, listener)
        finally:
            self.pattern = pattern

    PatternRewriteWalker._process_worklist = process_worklist  # type: ignore[method-assign]
    ConversionWalker._match = match  # type: ignore[method-assign]
    try:
        yield count
    finally:
        PatternRewriteWalker._process_worklist = original  # type: ignore[method-assign]
        ConversionWalker._match = original_match  # type: ignore[method-assign]


class _Measure:
    def __init__(self, manager: PassManager, name: str):
        self.manager, self.name = manager, name

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.manager._node(self.name, self.name).seconds += time.perf_counter() - self.start


_ACTIVE: PassManager | None = None


def active_manager(ctx: Context) -> PassManager:
    """The manager running the current pipeline (a plain one outside any driver: a
    NestedPipelinePass applied directly)."""
    return _ACTIVE if _ACTIVE is not None else PassManager(ctx)
