"""The broadcasting rules of broadcasting.md, one case per example of the document."""

import pytest
from xla_opt.dialects.shapes.broadcast import broadcast_shapes
from xla_opt.dialects.shapes.common import ShapeError


@pytest.mark.parametrize(
    "lhs, rhs, expected",
    [
        # "Broadcasting similar-rank arrays with degenerate dimensions", examples 1-3
        ((2, 1), (2, 3), (2, 3)),
        ((1, 2, 5), (7, 2, 5), (7, 2, 5)),
        ((7, 2, 5), (7, 1, 5), (7, 2, 5)),
        # the "outer operation" special case
        ((2, 1), (1, 3), (2, 3)),
        # scalars broadcast over arrays without broadcast dimensions
        ((2, 3), (), (2, 3)),
        ((), (2, 3), (2, 3)),
        ((), (), ()),
    ],
)
def test_degenerate_and_scalar(lhs, rhs, expected):
    assert broadcast_shapes(lhs, rhs) == expected
    assert broadcast_shapes(rhs, lhs) == expected


def test_incompatible_degenerate():
    # example 4: (7,2,5) and (7,2,6) are incompatible
    with pytest.raises(ShapeError, match=r"\[7, 2, 5\] and \[7, 2, 6\] are incompatible"):
        broadcast_shapes((7, 2, 5), (7, 2, 6))


def test_different_ranks_need_broadcast_dimensions():
    with pytest.raises(ShapeError, match="need broadcast_dimensions"):
        broadcast_shapes((2, 3), (3,))


@pytest.mark.parametrize(
    "high, low, dims, expected",
    [
        ((2, 3), (3,), [1], (2, 3)),  # |1 2 3; 4 5 6| + |7 8 9|
        ((3, 3), (3,), [1], (3, 3)),  # each vector element becomes a column
        ((3, 3), (3,), [0], (3, 3)),  # each vector element becomes a row
        ((2, 3, 4), (3, 4), [1, 2], (2, 3, 4)),  # the 2x3x4 cuboid and a 3x4 matrix
        ((2, 3, 4, 5), (4, 5), [2, 3], (2, 3, 4, 5)),  # TxV on MxNxPxQ, dims 2,3
        ((2, 3, 4, 5), (3, 4), [1, 2], (2, 3, 4, 5)),  # dims 1,2
        ((2, 3, 4, 5), (2, 5), [0, 3], (2, 3, 4, 5)),  # dims 0,3
        ((2, 3, 4, 5), (5,), [3], (2, 3, 4, 5)),  # vector T on dim 3
        ((2, 3, 4, 5), (2,), [0], (2, 3, 4, 5)),  # vector T on dim 0
    ],
)
def test_in_dim(high, low, dims, expected):
    assert broadcast_shapes(high, low, dims) == expected
    assert broadcast_shapes(low, high, dims) == expected


def test_matrix_plus_vector_on_wrong_dimension():
    # "when adding a 2x3 matrix to a 3-element vector, a broadcasting dimension of 0 is invalid"
    with pytest.raises(ShapeError, match=r"dimension 0 of size 3 of \[3\] does not match dimension 0 of size 2"):
        broadcast_shapes((2, 3), (3,), [0])


@pytest.mark.parametrize("dims", [[2, 1], [1, 1], [3, 2]])
def test_broadcast_dimensions_must_increase(dims):
    # "it is illegal to match V to N and T to P; it is also illegal to match V to both P and N"
    with pytest.raises(ShapeError, match="must be strictly increasing"):
        broadcast_shapes((2, 3, 4, 5), (4, 3) if dims == [2, 1] else (3, 3) if dims == [1, 1] else (5, 4), dims)


def test_broadcast_dimensions_length_and_range():
    with pytest.raises(ShapeError, match="one entry per dimension"):
        broadcast_shapes((2, 3), (3,), [0, 1])
    with pytest.raises(ShapeError, match=r"out of range \[0, 2\)"):
        broadcast_shapes((2, 3), (3,), [2])


def test_composition_vector_and_degenerate_matrix():
    # "a vector of size 4 and an matrix of size 1x2 ... broadcast dimensions value of (0)" -> 4x2
    assert broadcast_shapes((4,), (1, 2), [0]) == (4, 2)


def test_composition_matrix_and_cuboid():
    # "a matrix of size 1x2 added to an array of size 4x3x1 using broadcast dimensions of (1, 2)" -> 4x3x2
    assert broadcast_shapes((1, 2), (4, 3, 1), [1, 2]) == (4, 3, 2)


def test_same_rank_broadcast_dimensions_must_be_identity():
    assert broadcast_shapes((2, 3), (2, 3), [0, 1]) == (2, 3)
    with pytest.raises(ShapeError, match="must be \\[0, 1\\]"):
        broadcast_shapes((2, 3), (2, 3), [1, 0])
