"""SSA dominance, which xDSL 0.74's verifier does not check (an upstream candidate).

MLIR's rule: in a region with SSA control flow, a value can only be used where its
definition dominates the use. Within one block the definition comes first; in another
block of the same region, the defining block dominates the using block in the CFG; a
use nested in an op's region counts as a use by that op. Uses in blocks unreachable
from the entry block are not checked (MLIR does not either).
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue


def _reverse_postorder(entry: Block) -> list[Block]:
    order: list[Block] = []
    seen = {entry}
    stack: list[tuple[Block, Iterator[Block]]] = [(entry, iter(_successors(entry)))]
    while stack:
        block, successors = stack[-1]
        for succ in successors:
            if succ not in seen:
                seen.add(succ)
                stack.append((succ, iter(_successors(succ))))
                break
        else:
            stack.pop()
            order.append(block)
    order.reverse()
    return order


def _successors(block: Block) -> tuple[Block, ...]:
    last = block.last_op
    return tuple(last.successors) if last is not None else ()


class _RegionDominators:
    """Immediate dominators of a region's reachable blocks (Cooper, Harvey and
    Kennedy's iterative algorithm over the reverse postorder)."""

    def __init__(self, region: Region):
        entry = region.first_block
        assert entry is not None
        order = _reverse_postorder(entry)
        self.rank = {b: i for i, b in enumerate(order)}
        preds: dict[Block, list[Block]] = {b: [] for b in order}
        for b in order:
            for s in _successors(b):
                preds[s].append(b)
        self.idom: dict[Block, Block] = {entry: entry}
        changed = True
        while changed:
            changed = False
            for b in order[1:]:
                done = [p for p in preds[b] if p in self.idom]
                new = done[0]
                for p in done[1:]:
                    new = self._intersect(p, new)
                if self.idom.get(b) is not new:
                    self.idom[b] = new
                    changed = True

    def _intersect(self, a: Block, b: Block) -> Block:
        while a is not b:
            while self.rank[a] > self.rank[b]:
                a = self.idom[a]
            while self.rank[b] > self.rank[a]:
                b = self.idom[b]
        return a

    def _number_the_tree(self) -> None:
        """Pre- and post-order numbers of the dominator tree: a dominates b when b's
        interval lies within a's, an O(1) test (walking up b's immediate dominators was
        O(depth) per use: quadratic on the long block chains loops lower to, issue 32)."""
        children: dict[Block, list[Block]] = {b: [] for b in self.rank}
        root = None
        for b, parent in self.idom.items():
            if parent is b:
                root = b
            else:
                children[parent].append(b)
        self.enter: dict[Block, int] = {}
        self.leave: dict[Block, int] = {}
        clock = 0
        stack: list[tuple[Block, Iterator[Block]]] = [(root, iter(children[root]))]
        self.enter[root] = clock
        while stack:
            block, rest = stack[-1]
            child = next(rest, None)
            clock += 1
            if child is None:
                stack.pop()
                self.leave[block] = clock
            else:
                self.enter[child] = clock
                stack.append((child, iter(children[child])))

    def dominates(self, a: Block, b: Block) -> bool:
        if b not in self.rank:
            return True  # unreachable uses are not checked
        if not hasattr(self, "enter"):
            self._number_the_tree()
        if a not in self.enter:
            return False
        return self.enter[a] <= self.enter[b] and self.leave[b] <= self.leave[a]


class _Dominance:
    def __init__(self) -> None:
        self._positions: dict[Block, dict[Operation, int]] = {}
        self._regions: dict[Region, _RegionDominators] = {}

    def _position(self, op: Operation, block: Block) -> int:
        positions = self._positions.get(block)
        if positions is None:
            positions = self._positions[block] = {o: i for i, o in enumerate(block.ops)}
        return positions[op]

    def properly_dominates(self, value: SSAValue, user: Operation) -> bool:
        if isinstance(value, OpResult):
            def_op: Operation | None = value.op
            def_block = value.op.parent_block()
        else:
            assert isinstance(value, BlockArgument)
            def_op, def_block = None, value.block
        if def_block is None:
            return False
        region = def_block.parent
        # the user itself, or the op enclosing it, that sits in the definition's region
        ancestor: Operation | None = user
        while ancestor is not None and ancestor.parent_region() is not region:
            ancestor = ancestor.parent_op()
        if ancestor is None or ancestor is def_op:
            return False
        use_block = ancestor.parent_block()
        assert use_block is not None
        if use_block is def_block:
            return def_op is None or self._position(def_op, def_block) < self._position(ancestor, def_block)
        assert region is not None
        dominators = self._regions.get(region)
        if dominators is None:
            dominators = self._regions[region] = _RegionDominators(region)
        return dominators.dominates(def_block, use_block)


def dominance_errors(root: Operation) -> list[tuple[Operation, str]]:
    """(op, message) for every operand of an op nested in `root` that is not
    dominated by its definition."""
    dominance = _Dominance()
    errors = []
    for op in root.walk():
        for i, operand in enumerate(op.operands):
            if not dominance.properly_dominates(operand, op):
                errors.append((op, f"operand #{i} does not dominate this use (it is used before it is defined)"))
    return errors
