"""The sharding family (the sdy dialect) in a program run whole, on both backends
(xla_opt/interpreter/sharding.py, lowering/conversions/convert_xla_to_linalg/sharding.py):
a sharding constraint or a reshard is its operand, a sharding group nothing, so a
sharded program run whole (`partitions=1`) gives what the same program without its
shardings gives; a manual computation (one device's code) is one located error saying
it needs xla-spmd-partition. Programs without shardings are not touched (the IR
snapshot of benchmarks/ir_snapshot.py shows it)."""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from xla_opt.diagnostics import ProgramError

SHARDED = """
module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
    %0 = xla.sine %a attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x4xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {"x"}]> : tensor<8x4xf32>
    %2 = xla.multiply %1, %a : tensor<8x4xf32>
    %3 = sdy.reshard %2 <@mesh, [{}, {"y"}]> : tensor<8x4xf32>
    sdy.sharding_group %3 group_id=0 : tensor<8x4xf32>
    func.return %3 : tensor<8x4xf32>
  }
}
"""

MANUAL = """
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%b: tensor<4xf32>) {
      %1 = xla.add %b, %b : tensor<4xf32>
      sdy.return %1 : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %0 : tensor<8xf32>
  }
}
"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_constraints_reshards_and_groups_are_identities(backend):
    a = np.random.default_rng(0).standard_normal((8, 4)).astype(np.float32)
    (got,) = xla_opt.run(SHARDED, a, backend=backend, partitions=1)
    np.testing.assert_allclose(got, np.sin(a) * a, rtol=1e-6, atol=1e-6)


def test_a_manual_computation_needs_partitioning_on_the_interpreter():
    with pytest.raises(ProgramError) as info:
        xla_opt.run(MANUAL, np.zeros(8, np.float32), partitions=1)
    (line,) = str(info.value).splitlines()
    assert line == (
        "<program>:5:5: error: 'sdy.manual_computation' op is one device's code over its manual axes: it runs "
        "in a partitioned program only (xla-spmd-partition), not in the global program run whole"
    )


def test_a_manual_computation_needs_partitioning_on_the_jit():
    with pytest.raises(Exception, match=r"<program>:5:5: error: 'sdy.manual_computation' op is one device's code"):
        xla_opt.run(MANUAL, np.zeros(8, np.float32), backend="jit", partitions=1)
