"""The syntax of HLO text, as XLA prints it (`HloModule::ToString`: what
`XLA_FLAGS=--xla_dump_to` writes, `lowered.as_text(dialect="hlo")` and
`compiled.as_text()` print) and XLA's own parser reads it (`xla/hlo/parser/hlo_parser.cc`,
whose comments are the grammar's only documentation):

    module      ::= 'HloModule' name (',' attribute)* stack_frames? computation*
    computation ::= 'ENTRY'? name ('(' name ':' shape, ... ')' '->' shape)? '{' instruction* '}'
                    (',' 'execution_thread' '=' string)?
    instruction ::= 'ROOT'? name '=' shape opcode '(' operand, ... ')' (',' attribute)*
    operand     ::= shape? name                  (the long form prints operand shapes)
    attribute   ::= name '=' value               (`dimensions={1,0}`, `window={size=3x3 pad=1_1x1_1}`,
                                                  `dim_labels=b01f_01io->b01f`, `to_apply=%r`, ...)
    shape       ::= type '[' (int | '<=' int | '?'), ... ']' layout? | '(' shape, ... ')' | 'token[]'
    layout      ::= '{' minor_to_major, ... (':' tiles, memory space...)? '}'

Names may start with `%` (printed by the optimized form), `/* ... */` and `//` are
comments (`/*index=5*/` in long shape lists). A `constant`'s operand is a literal,
`parameter`'s its number. The stack-frame tables of optimized modules (`FileNames`,
`FunctionNames`, `FileLocations`, `StackFrames`) say where each `stack_frame_id` of an
op's metadata is in the Python source.

This module only reads the text into plain data (`HloModule`, `Computation`,
`Instruction`, `Shape`); an attribute's value is kept as its source text, which the
reader of that attribute interprets (`hlo_text.py`). Every error is an `HloError` at a
character offset, which the caller turns into `file:line:col: error: message`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------


class HloError(Exception):
    """An error at a character offset of the text."""

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


# --------------------------------------------------------------------------------------
# The data
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """An array shape (`element` and `dims`, its `layout` as minor_to_major when
    printed), a tuple (`tuple_shapes`) or a token (`element == "token"`). Dynamic
    dimensions (`<=4`, `?`) are their bounds, as XLA's dynamic shapes are."""

    element: str | None
    dims: tuple[int, ...] = ()
    layout: tuple[int, ...] | None = None
    tuple_shapes: tuple[Shape, ...] | None = None
    tiled: bool = False  # the layout has tiles (`{1,0:T(8,128)}`)
    dynamic: bool = False

    @property
    def is_tuple(self) -> bool:
        return self.tuple_shapes is not None

    @property
    def is_token(self) -> bool:
        return self.element == "token"

    def minor_to_major(self) -> tuple[int, ...]:
        """The layout, the default (row-major: the last dimension minor) when none is printed."""
        if self.layout is not None and len(self.layout) == len(self.dims):
            return self.layout
        return tuple(reversed(range(len(self.dims))))

    def __str__(self) -> str:
        if self.tuple_shapes is not None:
            return "(" + ", ".join(map(str, self.tuple_shapes)) + ")"
        if self.is_token:
            return "token[]"
        layout = "{" + ",".join(map(str, self.layout)) + "}" if self.layout is not None and self.dims else ""
        return f"{self.element}[{','.join(map(str, self.dims))}]{layout}"


@dataclass
class Attribute:
    """`name=value`: the value's source text and its offset."""

    name: str
    text: str
    offset: int


@dataclass
class Instruction:
    name: str
    offset: int  # of the name
    shape: Shape
    opcode: str
    opcode_offset: int
    operands: list[tuple[str, int]]  # names and their offsets
    attributes: dict[str, Attribute]
    root: bool = False
    literal: str | None = None  # a constant's literal (its text)
    literal_offset: int = 0
    parameter_number: int | None = None


@dataclass
class Computation:
    name: str
    offset: int
    instructions: list[Instruction]
    entry: bool = False

    @property
    def root(self) -> Instruction:
        return next((i for i in self.instructions if i.root), self.instructions[-1])

    def parameters(self) -> list[Instruction]:
        """The parameter instructions, by number."""
        params = [i for i in self.instructions if i.opcode == "parameter"]
        return sorted(params, key=lambda i: i.parameter_number or 0)


@dataclass
class HloModule:
    name: str
    attributes: dict[str, Attribute]
    computations: dict[str, Computation]
    entry: Computation
    # the stack-frame tables: id -> name, id -> fields
    file_names: dict[int, str] = field(default_factory=dict)
    function_names: dict[int, str] = field(default_factory=dict)
    file_locations: dict[int, dict[str, str]] = field(default_factory=dict)
    stack_frames: dict[int, dict[str, str]] = field(default_factory=dict)


# --------------------------------------------------------------------------------------
# The lexer
# --------------------------------------------------------------------------------------

_TOKENS = re.compile(
    r"""
    (?P<skip>\s+|/\*.*?\*/|//[^\n]*)
   |(?P<dimlabels>[0-9bfio?]+_[0-9bfio?]+->[0-9bfio?]+)
   |(?P<pad>-?\d+(?:_-?\d+)+(?:x-?\d+(?:_-?\d+)+)*)
   |(?P<dxd>\d+(?:x\d+)+)
   |(?P<number>-?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?))
   |(?P<name>%?[A-Za-z_][A-Za-z0-9_.]*(?:-[A-Za-z0-9_.]+)*)
   |(?P<string>"(?:[^"\\]|\\.)*")
   |(?P<punct>->|<=|[{}()\[\],=:*])
   |(?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)

PRIMITIVE_TYPES = frozenset(
    [
        "pred",
        "s1",
        "s2",
        "s4",
        "s8",
        "s16",
        "s32",
        "s64",
        "u1",
        "u2",
        "u4",
        "u8",
        "u16",
        "u32",
        "u64",
        "f16",
        "bf16",
        "f32",
        "f64",
        "c64",
        "c128",
        "f8e5m2",
        "f8e4m3",
        "f8e4m3fn",
        "f8e4m3b11fnuz",
        "f8e5m2fnuz",
        "f8e4m3fnuz",
        "f8e3m4",
        "f4e2m1fn",
        "f6e2m3fn",
        "f6e3m2fn",
        "f8e8m0fnu",
        "token",
        "opaque",
    ]
)


class Token(NamedTuple):
    kind: str
    text: str
    start: int
    end: int


class Lexer:
    """Tokens on demand, from a position that raw scans (attribute values, literals)
    can move."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self._peeked: Token | None = None

    def _scan(self, pos: int) -> Token:
        text = self.text
        while True:
            if pos >= len(text):
                return Token("eof", "", len(text), len(text))
            m = _TOKENS.match(text, pos)
            if m is None:  # an unterminated comment or string
                return Token("other", text[pos], pos, pos + 1)
            kind = m.lastgroup or "other"
            if kind != "skip":
                return Token(kind, m.group(), m.start(), m.end())
            pos = m.end()

    def peek(self) -> Token:
        if self._peeked is None:
            self._peeked = self._scan(self.pos)
        return self._peeked

    def next(self) -> Token:
        token = self.peek()
        self.pos = token.end
        self._peeked = None
        return token

    def peek2(self) -> Token:
        """The token after the next one."""
        return self._scan(self.peek().end)

    def skip_space(self) -> int:
        """Move past white space and comments; the position of what follows."""
        self._peeked = None
        token = self._scan(self.pos)
        self.pos = token.start
        return self.pos

    def raw_value(self) -> tuple[str, int]:
        """The source text of an attribute value, from here to a comma, a space or an
        unmatched closing bracket at depth 0 (brackets and strings balanced)."""
        start = self.skip_space()
        text, i = self.text, start
        stack: list[str] = []
        for m in _VALUE_STOPS.finditer(text, start):
            i = m.start()
            c = m.group()
            if c[0] == '"':
                if len(c) < 2 or not c.endswith('"'):
                    raise HloError(i, "unterminated string")
                continue
            if c[0] == "/":
                if not c.endswith("*/"):
                    raise HloError(i, "unterminated comment")
                continue
            if c in "([{":
                stack.append(c)
            elif c in ")]}":
                if not stack:
                    break
                if stack.pop() != _OPENER[c]:
                    raise HloError(i, f"unbalanced '{c}' in the attribute value")
            elif not stack:  # a comma or a space ends the value
                break
        else:
            i = len(text)
        if stack:
            raise HloError(start, "the attribute value is not closed (the text ends inside it)")
        if i == start:
            raise HloError(start, "expected an attribute value")
        self.pos = i
        return text[start:i], start

    def balanced(self, opener: str, closer: str) -> tuple[str, int]:
        """The text between `opener` (the next token) and its matching `closer`."""
        token = self.next()
        if token.text != opener:
            raise HloError(token.start, f"expected '{opener}', got {describe(token)}")
        text, depth = self.text, 1
        stops = _BRACKET_STOPS.get(opener) or _BRACKET_STOPS.setdefault(
            opener, re.compile(rf'"(?:[^"\\]|\\.)*"?|/\*(?:.*?\*/|.*)|[{re.escape(opener + closer)}]', re.DOTALL)
        )
        for m in stops.finditer(text, token.end):
            c = m.group()
            if c[0] == '"':
                if len(c) < 2 or not c.endswith('"'):
                    raise HloError(m.start(), "unterminated string")
            elif c == opener:
                depth += 1
            elif c == closer:
                depth -= 1
                if depth == 0:
                    self.pos = m.end()
                    self._peeked = None
                    return text[token.end : m.start()], token.end
        raise HloError(token.start, f"'{opener}' is not closed (the text ends before its '{closer}')")


# what a raw scan stops at: strings (or an unterminated one), comments, brackets, commas, spaces
_VALUE_STOPS = re.compile(r'"(?:[^"\\]|\\.)*"?|/\*(?:.*?\*/|.*)|[()\[\]{},\s]', re.DOTALL)
_OPENER = {")": "(", "]": "[", "}": "{"}
_BRACKET_STOPS: dict[str, re.Pattern[str]] = {}  # an opener -> strings, comments, the opener and its closer


def describe(token: Token) -> str:
    return "the end of the text" if token.kind == "eof" else f"'{token.text}'"


# --------------------------------------------------------------------------------------
# The parser
# --------------------------------------------------------------------------------------

_STACK_FRAME_SECTIONS = ("FileNames", "FunctionNames", "FileLocations", "StackFrames")
_FIELDS = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^\s,}]+)')


def unquote(text: str) -> str:
    """A string literal's value (C escapes)."""
    if len(text) >= 2 and text[0] == text[-1] == '"':
        body = text[1:-1]
        if "\\" in body:
            try:
                return body.encode("latin-1", "backslashreplace").decode("unicode_escape")
            except UnicodeDecodeError:
                return body
        return body
    return text


def fields(text: str) -> dict[str, str]:
    """`{key=value key="value" ...}` (metadata, stack frames): the keys and values."""
    return {k: unquote(v) for k, v in _FIELDS.findall(text)}


class Parser:
    def __init__(self, text: str):
        self.lexer = Lexer(text)

    # ---- tokens -------------------------------------------------------------------
    def expect(self, text: str, what: str | None = None) -> Token:
        token = self.lexer.next()
        if token.text != text:
            raise HloError(token.start, f"expected '{text}'{' ' + what if what else ''}, got {describe(token)}")
        return token

    def eat(self, text: str) -> bool:
        if self.lexer.peek().text == text:
            self.lexer.next()
            return True
        return False

    def name(self, what: str) -> Token:
        token = self.lexer.next()
        if token.kind != "name":
            raise HloError(token.start, f"expected {what}, got {describe(token)}")
        return token

    def integer(self, what: str) -> int:
        token = self.lexer.next()
        if token.kind != "number" or not re.fullmatch(r"-?\d+", token.text):
            raise HloError(token.start, f"expected {what} (an integer), got {describe(token)}")
        return int(token.text)

    # ---- module -------------------------------------------------------------------
    def module(self) -> HloModule:
        self.expect("HloModule", "at the start of an HLO module")
        name = self.name("the module's name").text.lstrip("%")
        attributes = self.attributes()
        module = HloModule(name, attributes, {}, None)  # type: ignore[arg-type]
        self.stack_frames(module)
        entry = None
        while self.lexer.peek().kind != "eof":
            computation = self.computation()
            if computation.name in module.computations:
                raise HloError(computation.offset, f"computation '{computation.name}' is defined twice")
            module.computations[computation.name] = computation
            if computation.entry:
                if entry is not None:
                    raise HloError(computation.offset, f"a second ENTRY computation (the first is '{entry.name}')")
                entry = computation
        if not module.computations:
            raise HloError(len(self.lexer.text), "the module has no computation")
        # as XLA: without ENTRY, the last computation is the entry
        module.entry = entry or list(module.computations.values())[-1]
        return module

    def attributes(self) -> dict[str, Attribute]:
        """(',' name '=' value)*"""
        attributes: dict[str, Attribute] = {}
        while self.lexer.peek().text == ",":
            self.lexer.next()
            key = self.name("an attribute name")
            self.expect("=", f"after the attribute name '{key.text}'")
            text, offset = self.lexer.raw_value()
            if text.startswith("mesh[") and self.lexer.peek().text == "{":
                # replica groups over a mesh's axes: `mesh['x'=2,'y'=2] {'x'}` (a space inside)
                axes, _ = self.lexer.balanced("{", "}")
                text = f"{text} {{{axes}}}"
            if key.text in attributes:
                raise HloError(key.start, f"attribute '{key.text}' is given twice")
            attributes[key.text] = Attribute(key.text, text, offset)
        return attributes

    def stack_frames(self, module: HloModule) -> None:
        """The stack-frame tables: `FileNames` then lines `id "name"`, ...,
        `StackFrames` then lines `id {file_location_id=1 parent_frame_id=1}`."""
        tables = {
            "FileNames": module.file_names,
            "FunctionNames": module.function_names,
            "FileLocations": module.file_locations,
            "StackFrames": module.stack_frames,
        }
        while (token := self.lexer.peek()).kind == "name" and token.text in _STACK_FRAME_SECTIONS:
            # a computation may be named like a section: a section is followed by an id or another section
            after = self.lexer.peek2()
            if not (after.kind == "number" or after.text in _STACK_FRAME_SECTIONS or after.kind == "eof"):
                break
            self.lexer.next()
            table = tables[token.text]
            names = token.text in ("FileNames", "FunctionNames")  # else `{key=value ...}` entries
            while self.lexer.peek().kind == "number":
                key = self.integer("an id")
                if names:
                    value = self.lexer.next()
                    if value.kind != "string":
                        raise HloError(value.start, f"expected a quoted name in {token.text}, got {describe(value)}")
                    table[key] = unquote(value.text)
                else:
                    text, _ = self.lexer.balanced("{", "}")
                    table[key] = fields(text)

    # ---- computations ---------------------------------------------------------------
    def computation(self) -> Computation:
        entry = self.eat("ENTRY")
        name = self.name("a computation's name (or the end of the module)")
        if self.lexer.peek().text == "(":  # the signature: read, the parameters say it too
            self.lexer.balanced("(", ")")
            self.expect("->", "after the parameter list")
            self.shape()
        self.expect("{", f"to start computation '{name.text.lstrip('%')}'")
        instructions: list[Instruction] = []
        seen: set[str] = set()
        while self.lexer.peek().text != "}":
            if self.lexer.peek().kind == "eof":
                raise HloError(
                    name.start, f"computation '{name.text.lstrip('%')}' is not closed (the text ends before its '}}')"
                )
            instruction = self.instruction()
            if instruction.name in seen:
                raise HloError(instruction.offset, f"instruction '{instruction.name}' is defined twice")
            seen.add(instruction.name)
            instructions.append(instruction)
        self.lexer.next()
        self.attributes()  # execution_thread="..."
        if not instructions:
            raise HloError(name.start, f"computation '{name.text.lstrip('%')}' has no instructions")
        roots = [i for i in instructions if i.root]
        if len(roots) > 1:
            raise HloError(roots[1].offset, "a second ROOT instruction in the computation")
        return Computation(name.text.lstrip("%"), name.start, instructions, entry)

    def instruction(self) -> Instruction:
        root = self.eat("ROOT")
        name = self.name("an instruction name")
        self.expect("=", f"after the instruction name '{name.text}'")
        shape = self.shape()
        opcode = self.name("an opcode")
        instruction = Instruction(name.text.lstrip("%"), name.start, shape, opcode.text, opcode.start, [], {}, root)
        if opcode.text == "constant":
            instruction.literal, instruction.literal_offset = self.lexer.balanced("(", ")")
        elif opcode.text == "parameter":
            self.expect("(", "before the parameter number")
            instruction.parameter_number = self.integer("the parameter number")
            self.expect(")", "after the parameter number")
        else:
            instruction.operands = self.operands()
        instruction.attributes = self.attributes()
        # a `control-predecessors={...}` list or any other attribute is read as text
        return instruction

    def operands(self) -> list[tuple[str, int]]:
        self.expect("(", "before the operands")
        operands: list[tuple[str, int]] = []
        if self.eat(")"):
            return operands
        while True:
            if self.starts_shape():
                self.shape()  # the long form's operand shapes
            token = self.name("an operand name")
            if self.lexer.peek().text == "(":
                raise HloError(token.start, "nested instructions as operands are not supported: name the operand")
            operands.append((token.text.lstrip("%"), token.start))
            if self.eat(")"):
                return operands
            self.expect(",", "or ')' between operands")

    def starts_shape(self) -> bool:
        token = self.lexer.peek()
        if token.text == "(":
            return True
        return token.kind == "name" and token.text in PRIMITIVE_TYPES and self.lexer.peek2().text == "["

    # ---- shapes ---------------------------------------------------------------------
    def shape(self) -> Shape:
        token = self.lexer.peek()
        if token.text == "(":
            self.lexer.next()
            elements: list[Shape] = []
            if not self.eat(")"):
                while True:
                    elements.append(self.shape())
                    if self.eat(")"):
                        break
                    self.expect(",", "or ')' in a tuple shape")
            return Shape(None, tuple_shapes=tuple(elements))
        element = self.name("a shape (an element type such as f32)")
        if element.text not in PRIMITIVE_TYPES:
            raise HloError(element.start, f"unknown element type '{element.text}'")
        if element.text == "token":
            if self.eat("["):
                self.expect("]", "(a token has no dimensions)")
            return Shape("token")
        self.expect("[", f"after the element type '{element.text}'")
        dims: list[int] = []
        dynamic = False
        if not self.eat("]"):
            while True:
                if self.eat("<="):
                    dynamic = True
                elif self.lexer.peek().text == "?":
                    raise HloError(self.lexer.peek().start, "an unbounded dynamic dimension '?' has no static size")
                dims.append(self.integer("a dimension size"))
                if dims[-1] < 0:
                    raise HloError(element.start, f"negative dimension size {dims[-1]}")
                if self.eat("]"):
                    break
                self.expect(",", "or ']' between dimension sizes")
        layout, tiled = None, False
        if self.lexer.peek().text == "{":  # a layout, or the body of a computation after its signature
            after = self.lexer.peek2()
            if after.text in ("}", ":") or after.kind == "number":
                layout, tiled = self.layout(len(dims))
        return Shape(element.text, tuple(dims), layout, None, tiled, dynamic)

    def layout(self, rank: int) -> tuple[tuple[int, ...], bool]:
        text, offset = self.lexer.balanced("{", "}")
        order, _, rest = text.partition(":")
        try:
            minor_to_major = tuple(int(v) for v in order.replace(" ", "").split(",") if v)
        except ValueError:
            raise HloError(offset, f"malformed layout '{{{text}}}'") from None
        if minor_to_major and sorted(minor_to_major) != list(range(rank)):
            raise HloError(offset, f"layout {{{order}}} is not a permutation of the {rank} dimensions")
        return minor_to_major, "T(" in rest


def parse_module(text: str) -> HloModule:
    """The HLO module of `text`; raises HloError."""
    return Parser(text).module()


def is_hlo_text(text: str) -> bool:
    """Whether `text` is an HLO module: `HloModule` starts it (after white space and
    comments)."""
    # A scan, not a regular expression: `(?:\s+|//[^\n]*)*HloModule` backtracked
    # exponentially on a file of comments that is not HLO and hung xla-opt.
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if text.startswith("//", at):
            newline = text.find("\n", at)
            at = len(text) if newline < 0 else newline + 1
        elif text.startswith("/*", at):
            close = text.find("*/", at + 2)
            if close < 0:
                return False
            at = close + 2
        else:
            return _HLO_MODULE.match(text, at) is not None


_HLO_MODULE = re.compile(r"HloModule\b")
