"""Patches to xDSL's IR (`xdsl.ir`, `xdsl.irdl`): verifying, splitting blocks and
building ops without walks or checks that grow with the program, and comparing ops as
MLIR does."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, Block, ErasedSSAValue, Operation, SSAValue
from xdsl.irdl import operations
from xdsl.irdl.operations import OptionalDef, VariadicDef, get_construct_name
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import VerifyException

from xla_opt.xdsl_patches.patch import Changes, Patch, replacing

# --------------------------------------------------------------------------------------
# a verifier linear in the number of blocks
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
            raise VerifyException(f"Operation {self.name} with block successors does not belong to a block or a region")
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


def _install_linear_verifier(changes: Changes) -> None:
    changes.replace(Operation, "verify", _verify_operation)
    changes.replace(Block, "verify", _verify_block)


LINEAR_VERIFIER = Patch(
    name="linear-verifier",
    reason="""
    (7) The verifier counts a region's blocks with `len(region.blocks)`, a walk of the
    region's linked list, once per block terminator (`Operation.verify`) and once per
    empty block (`Block.verify`): quadratic in the number of blocks (~60% of
    `-p xla-to-llvm` on a 2,000-op program, whose LLVM function has thousands of
    blocks). Whether a region holds one block or several is read from the block's
    neighbours instead (O(1)); the checks and their messages are unchanged.
    """,
    upstream="upstream candidate: xdsl/ir/core.py (Operation.verify, Block.verify); not reported",
    apply=_install_linear_verifier,
)

# --------------------------------------------------------------------------------------
# splitting a block inserts the new block in O(1)
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


LINEAR_BLOCK_SPLIT = Patch(
    name="linear-block-split",
    reason="""
    (11) `Block.split_before` finds the block's index in its region (`get_block_index`, a
    walk of the region's blocks) to insert the new block at index + 1 (`insert_block`,
    another walk): quadratic when a pass splits blocks one after another
    (`convert-scf-to-cf` on a 2,000-op program: 3,000 splits of a function of thousands
    of blocks, 4-8 s of a 5-9 s pass). The new block is linked after the old one
    directly (`insert_block_after`, O(1)); the IR is unchanged.
    """,
    upstream="upstream candidate: xdsl/ir/core.py (Block.split_before); not reported",
    apply=replacing(Block, "split_before", _split_before),
)

# --------------------------------------------------------------------------------------
# short integer dense arrays are built once per value
# --------------------------------------------------------------------------------------

# at most this many values: segment sizes, positions, permutations (the array's bytes
# are kept alive by the cache, so long ones are built every time)
DENSE_ARRAY_CACHED_UP_TO = 16


def _install_cached_dense_arrays(changes: Changes) -> None:
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

    changes.replace(DenseArrayBase, "from_list", staticmethod(from_list))


CACHED_DENSE_ARRAYS = Patch(
    name="cached-dense-arrays",
    reason="""
    (13) `DenseArrayBase.from_list` normalizes and packs its values on every call, and
    every op with several variadic operand groups builds one for its segment sizes:
    ~5% of compiling JAX's transformer block, 2 s of `convert-to-llvm` on a 2,000-op
    program (22,000 `llvm.call_intrinsic`). Integer arrays of up to 16 values are made
    once per (type, values) and shared (attributes are immutable).
    """,
    upstream="""
    not reported (a cache of ours; upstream, the segment sizes could be cached per op
    definition in xdsl/irdl/operations.py)
    """,
    apply=_install_cached_dense_arrays,
)

# --------------------------------------------------------------------------------------
# building an op tells a sequence argument from a single one without the ABC check
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


FAST_OP_ARGUMENTS = Patch(
    name="fast-op-arguments",
    reason="""
    (14) Building an op (`irdl_build_arg_list`, four calls per op) tells a list of operands,
    results, regions or successors from a single one with `isinstance(arg, Sequence)`,
    an ABC check: a fifth of building an op. The answer is read per class (a dict);
    the checks and messages are xDSL's.
    """,
    upstream="upstream candidate: xdsl/irdl/operations.py (irdl_build_arg_list); not reported",
    apply=replacing(operations, "irdl_build_arg_list", _irdl_build_arg_list),
)

# --------------------------------------------------------------------------------------
# a fixed-arity op is built without the general builder
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


def _install_fast_op_init(changes: Changes) -> None:
    changes.replace(operations, "irdl_op_init", _fast_irdl_op_init(operations.irdl_op_init))


FAST_OP_INIT = Patch(
    name="fast-op-init",
    reason="""
    (18) Building an op (`irdl_op_init`) runs the general builder whatever the op: four
    `irdl_build_arg_list` calls, region and segment-size handling and the option
    checks, ~20 µs of the ~30 µs an `arith.addi` takes to build, for the ~3,000 ops
    each compile of a transformer block creates. An op definition with only single
    operands and results, no regions, successors or options (`arith.addi`,
    `llvm.load`, `memref.store`...), given one SSA value (or single-result op) per
    operand and one type per result, is built directly with the same operands, types,
    properties and attributes (None ones dropped); every other call, malformed ones
    included, takes xDSL's builder and its messages.
    """,
    upstream="""
    upstream candidate: xdsl/irdl/operations.py (irdl_op_init: the builder could
    precompute this per op definition); not reported
    """,
    apply=_install_fast_op_init,
)

# --------------------------------------------------------------------------------------
# structurally equivalent ops have the same result types
# --------------------------------------------------------------------------------------


def _install_typed_structural_equivalence(changes: Changes) -> None:
    untyped = Operation.is_structurally_equivalent

    def is_structurally_equivalent(self, other, context=None):  # type: ignore[no-untyped-def]
        if (
            isinstance(other, Operation)
            and len(self.results) == len(other.results)
            and any(a.type != b.type for a, b in zip(self.results, other.results))
        ):
            return False
        return untyped(self, other, context)

    changes.replace(Operation, "is_structurally_equivalent", is_structurally_equivalent)


TYPED_STRUCTURAL_EQUIVALENCE = Patch(
    name="typed-structural-equivalence",
    reason="""
    (19) `Operation.is_structurally_equivalent` ignores result types (MLIR's
    OperationEquivalence compares them): two loop nests differing only in the element
    type their buffers are read as were one outlined kernel. Result types are compared.
    """,
    upstream="upstream candidate: xdsl/ir/core.py (Operation.is_structurally_equivalent); not reported",
    apply=_install_typed_structural_equivalence,
)

# --------------------------------------------------------------------------------------
# symbol lookups while verifying: one table per symbol table op
# --------------------------------------------------------------------------------------

# symbol table op -> its symbols by name, while `symbol_lookups_memoized()` is active
_SYMBOLS: dict[Operation, dict] | None = None


@contextmanager
def symbol_lookups_memoized() -> Iterator[None]:
    """Within this block, `SymbolTable.lookup_symbol` reads each symbol table's names
    from a table built on its first lookup. Only for code that does not add, remove or
    rename symbols meanwhile: verification (`diagnostics.verify_module`)."""
    global _SYMBOLS
    outer, _SYMBOLS = _SYMBOLS, {}
    try:
        yield
    finally:
        _SYMBOLS = outer


def _install_memoized_symbol_lookups(changes: Changes) -> None:
    from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
    from xdsl.traits import SymbolOpInterface, SymbolTable

    linear = SymbolTable.lookup_symbol

    def lookup_symbol(op, name):  # type: ignore[no-untyped-def]
        if _SYMBOLS is None or (isinstance(name, SymbolRefAttr) and name.nested_references.data):
            return linear(op, name)
        anchor = op
        while anchor is not None and not anchor.has_trait(SymbolTable):
            anchor = anchor.parent_op()
        if anchor is None:
            return linear(op, name)  # its error
        table = _SYMBOLS.get(anchor)
        if table is None:
            table = {}
            for o in anchor.regions[0].block.ops:
                if (interface := o.get_trait(SymbolOpInterface)) is not None:
                    table.setdefault(interface.get_sym_attr_name(o), o)  # the first, as the walk finds
            _SYMBOLS[anchor] = table
        key = (
            name.root_reference
            if isinstance(name, SymbolRefAttr)
            else name
            if isinstance(name, StringAttr)
            else StringAttr(name)
        )
        return table.get(key)

    changes.replace(SymbolTable, "lookup_symbol", staticmethod(lookup_symbol))


MEMOIZED_SYMBOL_LOOKUPS = Patch(
    name="memoized-symbol-lookups",
    reason="""
    (22) `SymbolTable.lookup_symbol` walks the symbol table's ops for every lookup, and
    every `func.call` and `llvm.call` verifier looks its callee up: verifying a module
    of n functions calling each other took O(n^2) (5 of 15 s of `-p xla-to-llvm` on a
    program of 1,000 calls, issue 32). While a module is verified
    (`symbol_lookups_memoized()`, which `diagnostics.verify_module` enters), each
    table's names are read once; outside it, lookups are xDSL's.
    """,
    upstream="upstream candidate: xdsl/traits.py (SymbolTable.lookup_symbol; MLIR's SymbolTableCollection); not reported",
    apply=_install_memoized_symbol_lookups,
)

PATCHES = (
    LINEAR_VERIFIER,
    LINEAR_BLOCK_SPLIT,
    CACHED_DENSE_ARRAYS,
    FAST_OP_ARGUMENTS,
    FAST_OP_INIT,
    TYPED_STRUCTURAL_EQUIVALENCE,
    MEMOIZED_SYMBOL_LOOKUPS,
)
