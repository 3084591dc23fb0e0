"""Located diagnostics: parsing with source locations, a verifier that reports every
failing op at its `file:line:col`, and MLIR's `--verify-diagnostics` protocol
(`// expected-error @+1 {{message}}`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    ModuleOp,
    NameLoc,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span


@dataclass(frozen=True)
class Diagnostic:
    file: str
    line: int
    col: int
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}"


class DiagnosticError(Exception):
    """One or more user-facing diagnostics; the driver prints them and exits 1."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(map(str, diagnostics)))
        self.diagnostics = diagnostics


class ProgramError(ValueError):
    """The program does not parse or verify; the message holds the diagnostics (the
    error of the Python API, `xla_opt.ProgramError`, raised by every layer that reads a
    program: the API, the StableHLO import, the builder)."""


# The exit status of a command killed by SIGPIPE, as a shell reports it (128 + 13)
BROKEN_PIPE_STATUS = 141


def silence_broken_pipe() -> int:
    """What a tool does when its reader went away (`xla-run f.mlir | head`): like a C
    tool killed by SIGPIPE, no message and status 141. Later writes (the final flush)
    go to /dev/null instead of raising again."""
    import os
    import sys

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return BROKEN_PIPE_STATUS


def one_line(text: str) -> str:
    """Diagnostics are single lines: fold multi-line exception texts."""
    return "; ".join(part.strip() for part in str(text).splitlines() if part.strip())


class LocatingParser(Parser):
    """A parser that gives every op without an explicit `loc(...)` the location of its
    first token, so diagnostics (and later passes) can point at the source."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self._file = name
        self._line_offset = line_offset
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def location_of(self, offset: int) -> tuple[int, int]:
        index = bisect.bisect_right(self._line_starts, offset) - 1
        return index + 1 + self._line_offset, offset - self._line_starts[index] + 1

    def _location(self, offset: int) -> FileLineColLoc:
        line, col = self.location_of(offset)
        return FileLineColLoc(StringAttr(self._file), IntAttr(line), IntAttr(col))

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        try:
            op = super().parse_operation()
        except (ValueError, OverflowError, VerifyException) as e:
            # An op's parser that builds an attribute from a value the attribute rejects
            # (an integer beyond its type, issue 31: `chlo.scan ... dimension=2^64`) raises
            # these, not a ParseError: the op's text is what is wrong, so say so there.
            end = max(self.pos, start + 1)
            raise ParseError(Span(start, end, self.lexer.input), one_line(str(e))) from None
        if isinstance(op.location, UnknownLoc):
            op.location = self._location(start)
        return op

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        # A block argument (a function's included) without `loc(...)` is located at its
        # name, as in MLIR.
        super()._register_ssa_definition(name, values, span)
        for value in values:
            if isinstance(value, BlockArgument) and isinstance(value.location, UnknownLoc):
                value.location = self._location(span.start)


def parse_error_diagnostic(e: ParseError, line_offset: int = 0) -> Diagnostic:
    loc = e.span.get_location()
    return Diagnostic(loc.file, loc.line + line_offset, loc.col, one_line(e.msg))


def _strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*", "", text)


def parse_source(ctx: Context, text: str, name: str, line_offset: int = 0) -> ModuleOp:
    """Parse MLIR text into a module; an empty input is an empty module. Errors are
    raised as `DiagnosticError`."""
    if not _strip_comments(text).strip():
        return ModuleOp([])
    try:
        # the parser lexes its first token when it is made: a bad character is a ParseError
        return LocatingParser(ctx, text, name, line_offset).parse_module()
    except ParseError as e:
        raise DiagnosticError([parse_error_diagnostic(e, line_offset)]) from None


def file_position(loc: Attribute) -> FileLineColLoc | None:
    """The position MLIR reports for a location: a file position itself, a name's
    or a fused location's first, a call site's callee (else its caller): with JAX's
    debug info, the user's Python line."""
    if isinstance(loc, FileLineColLoc):
        return loc
    if isinstance(loc, NameLoc):
        return file_position(loc.location)
    if isinstance(loc, CallSiteLoc):
        return file_position(loc.callee) or file_position(loc.caller)
    if isinstance(loc, FusedLoc):
        return next((p for p in map(file_position, loc.locations) if p is not None), None)
    return None


def locate_unlocated(op: Operation, location: Attribute) -> None:
    """`op`, the ops inside it and their block arguments, where they have no location,
    take `location` (MLIR's rule: what a rewrite creates is where the op it replaces was)."""
    for inner in op.walk():
        if isinstance(inner.location, UnknownLoc):
            inner.location = location
        for region in inner.regions:
            for block in region.blocks:
                for arg in block.args:
                    if isinstance(arg.location, UnknownLoc):
                        arg.location = location


def op_location(op: Operation | None, default_file: str = "<unknown>") -> tuple[str, int, int]:
    while op is not None:
        position = file_position(op.location)
        if position is not None:
            return position.filename.data, position.line.data, position.column.data
        op = op.parent_op()
    return default_file, 0, 0


def op_diagnostic(op: Operation, message: str, default_file: str = "<unknown>") -> Diagnostic:
    file, line, col = op_location(op, default_file)
    return Diagnostic(file, line, col, f"'{op.name}' op {one_line(message)}")


def _strip_xdsl_prefix(message: str) -> str:
    return message.removeprefix("Operation does not verify: ")


def verify_module(module: Operation, default_file: str = "<unknown>") -> list[Diagnostic]:
    """Verify every op, children before parents, and return one diagnostic per failing
    op. A parent whose children failed is not verified, to avoid cascades. A module
    whose ops verify is then checked for SSA dominance (every use after its definition)."""
    diagnostics: list[Diagnostic] = []

    def visit(op: Operation) -> bool:
        failed = False
        for region in op.regions:
            for block in region.blocks:
                if not block.ops and not op.has_trait(NoTerminator):
                    diagnostics.append(op_diagnostic(op, "region has an empty block", default_file))
                    failed = True
                for child in block.ops:
                    failed |= visit(child)
        if failed:
            return True
        try:
            op.verify(verify_nested_ops=False)
        except Exception as e:  # noqa: BLE001 - every verifier failure is a diagnostic
            text = str(e) or type(e).__name__
            diagnostics.append(op_diagnostic(op, _strip_xdsl_prefix(text), default_file))
            return True
        # the `sdy.sharding` attributes an op carries (Shardy's dialect attributes, which
        # no op verifier sees): only ops with attributes, and functions, are looked at
        if (op.attributes or op.name == "func.func") and (problem := sharding_attribute_problem(op)):
            diagnostics.append(op_diagnostic(op, problem, default_file))
            return True
        return False

    from xla_opt.dialects.sdy import sharding_attribute_problem
    from xla_opt.xdsl_patches.ir import symbol_lookups_memoized

    with symbol_lookups_memoized():  # calls' callees: one table per module, not a walk per call
        visit(module)
    if not diagnostics:
        from xla_opt.dominance import dominance_errors

        diagnostics += [op_diagnostic(op, message, default_file) for op, message in dominance_errors(module)]
    return diagnostics


# --------------------------------------------------------------------------------------
# --verify-diagnostics
# --------------------------------------------------------------------------------------

# As MLIR's verifier reads them: the expected text runs from the first `{{` to the last
# `}}` of the line, so an -re expectation's own `{{regex}}` islands stay inside it
# (issue 31: `{{'xla.add' op {{.*}} does not match}}` was cut at the first `}}`).
_EXPECTED = re.compile(r"expected-(error|warning|note|remark)(-re)?\s*(@(?:[+-]\d+|above|below))?\s*\{\{(.*)\}\}\s*$")


@dataclass
class Expectation:
    severity: str
    line: int
    pattern: str
    is_regex: bool
    matched: bool = field(default=False)

    def matches(self, d: Diagnostic) -> bool:
        if d.severity != self.severity or d.line != self.line:
            return False
        if self.is_regex:
            # MLIR's -re form: literal text with {{regex}} islands
            parts = re.split(r"\{\{(.*?)\}\}", self.pattern)
            rx = "".join(p if i % 2 else re.escape(p) for i, p in enumerate(parts))
            return re.search(rx, d.message) is not None
        return self.pattern in d.message


def collect_expectations(text: str, line_offset: int = 0) -> list[Expectation]:
    out = []
    for index, line in enumerate(text.splitlines()):
        for m in _EXPECTED.finditer(line):
            severity, regex, where, pattern = m.groups()
            target = index + 1 + line_offset
            if where:
                if where == "@above":
                    target -= 1
                elif where == "@below":
                    target += 1
                else:
                    target += int(where[1:])
            out.append(Expectation(severity, target, pattern, bool(regex)))
    return out


def check_expectations(expectations: list[Expectation], diagnostics: list[Diagnostic], file: str) -> list[str]:
    """MLIR's rules: every diagnostic must be expected, every expectation produced."""
    problems = []
    for d in diagnostics:
        for e in expectations:
            if not e.matched and e.matches(d):
                e.matched = True
                break
        else:
            problems.append(f"{d.file}:{d.line}:{d.col}: error: unexpected {d.severity}: {d.message}")
    for e in expectations:
        if not e.matched:
            problems.append(f'{file}:{e.line}:1: error: expected {e.severity} "{e.pattern}" was not produced')
    return problems
