"""The collectives: replica_id, all_reduce, all_gather, reduce_scatter, all_to_all and
collective_permute communicate among replicas. `replica_groups` is a rank-2 i64 matrix,
one row per group; an empty matrix puts all replicas in one group:

    %r = xla.all_gather %x, all_gather_dim = 0, replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>

None of these is Pure: deleting or merging one would change what the other replicas
observe.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Region
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xla_opt.dialects.shapes.collectives import (
    all_gather_shape,
    all_to_all_shape,
    check_all_gather_result,
    check_reduce_scatter_result,
    check_source_target_pairs,
    collective_group_size,
    reduce_scatter_shape,
    replica_group_rows,
    replica_group_size,
)

from .base import XlaOp
from .element_types import elem_of, shape_of, tensor
from .properties import property_accessor, verified_int_matrix
from .computation import verify_computation

ui32 = IntegerType(32, Signedness.UNSIGNED)


def _group_size(op: XlaOp) -> int | None:
    """The replica group size that replica_groups and shard_count (on the ops that
    have one) state, if any."""
    rows = verified_int_matrix(op.replica_groups, "replica_groups")  # type: ignore[attr-defined]
    shard_count = op.get_shard_count() if hasattr(op, "get_shard_count") else None  # type: ignore[attr-defined]
    return collective_group_size(rows, shard_count)


_padded_replica_groups = property_accessor("replica_groups")


def replica_groups_of(op: XlaOp) -> list[tuple[int, ...]]:
    """The ops' `get_replica_groups()`: the groups, -1 padding removed (groups of
    different sizes are spelled as a matrix padded with -1, as StableHLO does)."""
    return replica_group_rows(_padded_replica_groups(op))


def _check_same_element_type(operand: Attribute, result: Attribute) -> None:
    """Checked before the shapes, so that an element-type mismatch is named as such."""
    if elem_of(operand) != elem_of(result):
        raise VerifyException(
            f"result element type {elem_of(result)} differs from the operand's "
            f"{elem_of(operand)}"
        )


def _verify_reducer(region: Region, element_type: Attribute) -> None:
    """A reduction computation combines two rank-0 values of the operands' element type."""
    scalar = tensor((), element_type)
    verify_computation(region, [scalar, scalar], [scalar], "computation")


# --------------------------------------------------------------------------------------
# Tokens and side-effecting ops
# --------------------------------------------------------------------------------------


@irdl_op_definition
class ReplicaIdOp(XlaOp):
    """ReplicaId: the replica's unique id in [0, N), a scalar of type U32
    (`tensor<ui32>`); constant within one replica."""

    name = "xla.replica_id"
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        return [tensor((), ui32)]


# --------------------------------------------------------------------------------------
# Collectives
# --------------------------------------------------------------------------------------


@irdl_op_definition
class AllReduceOp(XlaOp):
    """AllReduce: reduces each of the `inputs` (at least one, all of one element type T)
    element-wise across the replicas of each group with `computation`
    (tensor<T>, tensor<T>) -> tensor<T>; the results have the inputs' types.
    CrossReplicaSum is an all_reduce whose computation adds."""

    name = "xla.all_reduce"
    inputs = var_operand_def(TensorType)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    get_replica_groups = replica_groups_of
    channel_id = opt_prop_def(IntegerAttr.constr(type=i64))
    computation = region_def()
    outputs = var_result_def(TensorType)

    def infer_result_types(self) -> list[Attribute]:
        return [v.type for v in self.inputs]

    def verify_xla(self) -> None:
        if not self.inputs:
            raise VerifyException("all_reduce needs at least one input")
        element_type = elem_of(self.inputs[0].type)
        for i, v in enumerate(self.inputs):
            if elem_of(v.type) != element_type:
                raise VerifyException(
                    f"input #{i} element type {elem_of(v.type)} differs from input #0's "
                    f"{element_type}"
                )
        # XLA allows all_reduce groups of different sizes (each group reduces on its own)
        replica_group_size(verified_int_matrix(self.replica_groups, "replica_groups"), same_size=False)
        _verify_reducer(self.computation, element_type)


@irdl_op_definition
class AllGatherOp(XlaOp):
    """AllGather: concatenates the operands of a replica group along all_gather_dim, so
    the result is the operand with all_gather_dim multiplied by the group size (the
    replica_groups row length, or shard_count, which must agree when both are given)."""

    name = "xla.all_gather"
    operand = operand_def(TensorType)
    all_gather_dim = prop_def(IntegerAttr.constr(type=i64))
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    get_replica_groups = replica_groups_of
    channel_id = opt_prop_def(IntegerAttr.constr(type=i64))
    shard_count = opt_prop_def(IntegerAttr.constr(type=i64))
    result = result_def(TensorType)

    def infer_result_types(self) -> list[Attribute] | None:
        group_size = _group_size(self)
        if group_size is None:
            return None
        t = self.operand.type
        shape = all_gather_shape(shape_of(t), self.get_all_gather_dim(), group_size)
        return [tensor(shape, elem_of(t))]

    def verify_xla(self) -> None:
        _check_same_element_type(self.operand.type, self.result.type)
        if _group_size(self) is None:
            check_all_gather_result(
                shape_of(self.operand.type),
                shape_of(self.result.type),
                self.get_all_gather_dim(),
            )


@irdl_op_definition
class ReduceScatterOp(XlaOp):
    """ReduceScatter: an all_reduce with `computation` whose result is split along
    scatter_dimension into group-size blocks, replica i of a group keeping block i; the
    group size (replica_groups row length, or shard_count) must divide that dimension."""

    name = "xla.reduce_scatter"
    operand = operand_def(TensorType)
    scatter_dimension = prop_def(IntegerAttr.constr(type=i64))
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    get_replica_groups = replica_groups_of
    channel_id = opt_prop_def(IntegerAttr.constr(type=i64))
    shard_count = opt_prop_def(IntegerAttr.constr(type=i64))
    computation = region_def()
    result = result_def(TensorType)

    def infer_result_types(self) -> list[Attribute] | None:
        group_size = _group_size(self)
        if group_size is None:
            return None
        t = self.operand.type
        shape = reduce_scatter_shape(shape_of(t), self.get_scatter_dimension(), group_size)
        return [tensor(shape, elem_of(t))]

    def verify_xla(self) -> None:
        _check_same_element_type(self.operand.type, self.result.type)
        if _group_size(self) is None:
            check_reduce_scatter_result(
                shape_of(self.operand.type),
                shape_of(self.result.type),
                self.get_scatter_dimension(),
            )
        _verify_reducer(self.computation, elem_of(self.operand.type))


@irdl_op_definition
class AllToAllOp(XlaOp):
    """AllToAll: splits split_dimension (divisible by split_count) into split_count
    blocks scattered over the group, then concatenates the received blocks along
    concat_dimension; split_count equals the replica group size when groups are given."""

    name = "xla.all_to_all"
    operand = operand_def(TensorType)
    split_dimension = prop_def(IntegerAttr.constr(type=i64))
    concat_dimension = prop_def(IntegerAttr.constr(type=i64))
    split_count = prop_def(IntegerAttr.constr(type=i64))
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    get_replica_groups = replica_groups_of
    result = result_def(TensorType)

    def infer_result_types(self) -> list[Attribute]:
        t = self.operand.type
        shape = all_to_all_shape(
            shape_of(t),
            self.get_split_dimension(),
            self.get_concat_dimension(),
            self.get_split_count(),
            _group_size(self),
        )
        return [tensor(shape, elem_of(t))]


@irdl_op_definition
class CollectivePermuteOp(XlaOp):
    """CollectivePermute: sends the operand from the source to the target replica of
    each [source, target] pair; no two pairs share a source or a target, and a replica
    that is no target gets zeros. The result has the operand's type."""

    name = "xla.collective_permute"
    operand = operand_def(TensorType)
    source_target_pairs = prop_def(DenseIntOrFPElementsAttr)
    channel_id = opt_prop_def(IntegerAttr.constr(type=i64))
    result = result_def(TensorType)

    def infer_result_types(self) -> list[Attribute]:
        return [self.operand.type]

    def verify_xla(self) -> None:
        check_source_target_pairs(verified_int_matrix(self.source_target_pairs, "source_target_pairs"))


COLLECTIVE_OPS = (
    ReplicaIdOp,
    AllReduceOp,
    AllGatherOp,
    ReduceScatterOp,
    AllToAllOp,
    CollectivePermuteOp,
)
COLLECTIVE_ATTRS: tuple = ()
