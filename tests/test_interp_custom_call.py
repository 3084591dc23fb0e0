"""Reference semantics of custom_call: the spec's example, registered Python targets,
result checks and registration rules."""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from tests.util import run_one
from xla_opt.interpreter.custom_call import (
    register_custom_call,
    registered_custom_calls,
    unregister_custom_call,
)

f32, i32, i64, u32, u64 = np.float32, np.int32, np.int64, np.uint32, np.uint64


# ---- custom_call -----------------------------------------------------------------------


def test_custom_call_spec_myfunc(targets):
    # the spec's CustomCall example: myfunc(x: f32[2], y: f32[2x3]) -> f32[3x3]
    x = np.array([1, 2], f32)
    y = np.array([[10, 20, 30], [40, 50, 60]], f32)

    def myfunc(x, y):
        assert x.tolist() == [1, 2] and y[0, 0] == 10 and y[0, 1] == 20
        return np.outer(y.sum(axis=0), np.ones(3, f32)).astype(f32)

    targets("myfunc", myfunc)
    out = run_one(
        'xla.custom_call %a0, %a1, call_target_name = "myfunc"'
        " : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>",
        [x, y],
        ["tensor<3x3xf32>"],
    )
    np.testing.assert_array_equal(out, np.outer([50, 70, 90], np.ones(3)))
    assert out.dtype == f32


def test_custom_call_several_results_tuple_and_readonly_operands(targets):
    def two(x):
        with pytest.raises(ValueError):
            x[0] = 99  # operands are read-only views of the interpreter's values
        return x * 2, (np.float32(x.sum()), np.zeros((2, 3), i32))

    targets("two", two)
    x = np.array([1.5, 2.5], f32)
    out, tup = run_one(
        'xla.custom_call %a0, call_target_name = "two"'
        " : (tensor<2xf32>) -> (tensor<2xf32>, tuple<tensor<f32>, tensor<2x3xi32>>)",
        [x],
        ["tensor<2xf32>", "tuple<tensor<f32>, tensor<2x3xi32>>"],
    )
    np.testing.assert_array_equal(out, [3, 5])
    assert tup[0].dtype == f32 and tup[0] == 4 and tup[1].shape == (2, 3)
    np.testing.assert_array_equal(x, [1.5, 2.5])


def call_target(name: str):
    text = f'xla.custom_call %a0, call_target_name = "{name}" : tensor<2xf32>'
    return run_one(text, [np.ones(2, f32)], ["tensor<2xf32>"])


def test_custom_call_wrong_result_type_is_an_error(targets):
    targets("bad", lambda x: x.astype(np.float64))
    with pytest.raises(Exception, match="bad"):
        call_target("bad")


def test_custom_call_unknown_target_names_it_and_the_registered_ones(targets):
    targets("known_one", lambda x: x)
    assert "known_one" in registered_custom_calls()
    with pytest.raises(Exception, match=r'"nope".*known_one'):
        call_target("nope")


def test_custom_call_without_results_and_registration_rules(targets):
    seen = []
    targets("sink", lambda v: seen.append(float(v)))
    program = """
func.func @main(%f: tensor<f32>) -> tensor<f32> {
  xla.custom_call %f, call_target_name = "sink", has_side_effect = true : (tensor<f32>) -> ()
  func.return %f : tensor<f32>
}"""
    xla_opt.run(program, np.array(2.5, f32))
    assert seen == [2.5]
    # any non-empty name is a target name (issue 13: JAX's `__gpu$xla.gpu.triton`)
    with pytest.raises(ValueError, match="non-empty string"):
        register_custom_call("", lambda: None)

    @register_custom_call("decorated")
    def decorated():
        return np.arange(4, dtype=i32)

    try:
        text = 'xla.custom_call call_target_name = "decorated" : () -> tensor<4xi32>'
        out = run_one(text, [], ["tensor<4xi32>"])
        np.testing.assert_array_equal(out, [0, 1, 2, 3])
    finally:
        unregister_custom_call("decorated")
