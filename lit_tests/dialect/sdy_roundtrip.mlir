// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The sdy dialect (Shardy's), printed as Shardy prints it: the pretty forms below are
// Shardy's own output for this file (tests/test_sdy_dialect.py compares them with
// jaxlib's printer).

// Meshes: axes, an explicit device order, a maximal mesh (one device), an empty mesh;
// an explicit identity order is dropped (as Shardy drops it).
// CHECK:      sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-NEXT: sdy.mesh @mesh_4 = <["x"=4], device_ids=[3, 2, 1, 0]>
// CHECK-NEXT: sdy.mesh @maximal = <[], device_ids=[1]>
// CHECK-NEXT: sdy.mesh @empty = <[]>
// CHECK-NEXT: sdy.mesh @jax = <["a"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}]}}
// CHECK-NEXT: sdy.mesh @identity = <["a"=2]>
// GENERIC:      "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=2]>}> : () -> ()
// GENERIC-NEXT: "sdy.mesh"() <{sym_name = "mesh_4", mesh = #sdy.mesh<["x"=4], device_ids=[3, 2, 1, 0]>}> : () -> ()
// GENERIC-NEXT: "sdy.mesh"() <{sym_name = "maximal", mesh = #sdy.mesh<[], device_ids=[1]>}> : () -> ()
// GENERIC-NEXT: "sdy.mesh"() <{sym_name = "empty", mesh = #sdy.mesh<[]>}> : () -> ()
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @mesh_4 = <["x"=4], device_ids=[3, 2, 1, 0]>
sdy.mesh @maximal = <[], device_ids=[1]>
sdy.mesh @empty = <[]>
sdy.mesh @jax = <["a"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}]}}
sdy.mesh @identity = <["a"=2], device_ids=[0, 1]>

// Tensor shardings on arguments and results: closed and open dimensions, several
// axes on one dimension, replicated and unreduced axes, sub-axes, priorities.
// CHECK-LABEL: func.func @arguments
// CHECK-SAME:  (%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
// CHECK-SAME:  %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {?}]>},
// CHECK-SAME:  %arg2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {}], replicated={"y"}>},
// CHECK-SAME:  %arg3: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>},
// CHECK-SAME:  %arg4: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_4, [{"x":(1)2}p0, {"x":(2)2, ?}p3]>},
// CHECK-SAME:  %arg5: tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>},
// CHECK-SAME:  %arg6: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@maximal, []>})
// CHECK-SAME:  -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}p1, {"y"}]>})
// GENERIC-LABEL: "func.func"() <{sym_name = "arguments"
// GENERIC-SAME:  arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {?}]>},
func.func @arguments(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                     %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {?}]>},
                     %arg2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {}], replicated={"y"}>},
                     %arg3: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>},
                     %arg4: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_4, [{"x":(1)2}p0, {"x":(2)2, ?}p3]>},
                     %arg5: tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>},
                     %arg6: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@maximal, []>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}p1, {"y"}]>}) {
  func.return %arg0 : tensor<8x4xf32>
}

// sharding_constraint and reshard, on a named mesh and on an inline one; an op's
// sharding per result.
// CHECK-LABEL: func.func @constraints
// CHECK:      %0 = sdy.sharding_constraint %arg0 <@mesh, [{"y"}, {"x"}]> : tensor<8x4xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}, {"x", "y"}]> : tensor<8x4xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %1 <mesh<["q"=2, "r"=2]>, [{"q"}, {}], replicated={"r"}> : tensor<8x4xf32>
// CHECK-NEXT: %3 = xla.add %2, %2 attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x4xf32>
// CHECK-NEXT: %4 = sdy.sharding_constraint %arg1 <@mesh, []> : tensor<f32>
// GENERIC:      "sdy.sharding_constraint"(%{{.*}}) <{sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT: "sdy.reshard"(%{{.*}}) <{sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT: "sdy.sharding_constraint"(%{{.*}}) <{sharding = #sdy.sharding<mesh<["q"=2, "r"=2]>, [{"q"}, {}], replicated={"r"}>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT: "xla.add"(%{{.*}}, %{{.*}}) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
func.func @constraints(%arg0: tensor<8x4xf32>, %arg1: tensor<f32>) -> tensor<8x4xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"y"}, {"x"}]> : tensor<8x4xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"x", "y"}]> : tensor<8x4xf32>
  %2 = sdy.sharding_constraint %1 <mesh<["q"=2, "r"=2]>, [{"q"}, {}], replicated={"r"}> : tensor<8x4xf32>
  %3 = xla.add %2, %2 attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x4xf32>
  %4 = sdy.sharding_constraint %arg1 <@mesh, []> : tensor<f32>
  func.return %3 : tensor<8x4xf32>
}

// A manual computation (what shard_map writes): manual on both axes, on one, on none;
// the body sees each device's shard.
// CHECK-LABEL: func.func @manual
// CHECK:      %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x", "y"} (%arg1: tensor<4xf32>) {
// CHECK-NEXT:   %1 = xla.multiply %arg1, %arg1 : tensor<4xf32>
// CHECK-NEXT:   sdy.return %1 : tensor<4xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<4xf32>
// CHECK:      {{.*}} = sdy.manual_computation(%arg2, %arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>, <@mesh, [{"y"}]>] out_shardings=[<@mesh, [{?}, {?}]>, <@mesh, [{}]>] manual_axes={"x"} (%arg3: tensor<4x4xf32>, %arg4: tensor<8xf32>) {
// CHECK-NEXT:   sdy.return %arg3, %arg4 : tensor<4x4xf32>, tensor<8xf32>
// CHECK-NEXT: } : (tensor<8x4xf32>, tensor<8xf32>) -> (tensor<4x4xf32>, tensor<8xf32>)
// CHECK:      sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
// CHECK-NEXT:   sdy.return
// CHECK-NEXT: } : () -> ()
// GENERIC: "sdy.manual_computation"(%{{.*}}) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>}> ({
// GENERIC-NEXT: ^{{.*}}(%{{.*}}: tensor<4xf32>):
// GENERIC:      "sdy.return"(%{{.*}}) : (tensor<4xf32>) -> ()
// GENERIC-NEXT: }) : (tensor<8xf32>) -> tensor<4xf32>
func.func @manual(%arg0: tensor<8xf32>, %arg2: tensor<8x4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x", "y"} (%arg1: tensor<4xf32>) {
    %1 = xla.multiply %arg1, %arg1 : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<4xf32>
  %2:2 = sdy.manual_computation(%arg2, %arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>, <@mesh, [{"y"}]>] out_shardings=[<@mesh, [{?}, {?}]>, <@mesh, [{}]>] manual_axes={"x"} (%arg3: tensor<4x4xf32>, %arg4: tensor<8xf32>) {
    sdy.return %arg3, %arg4 : tensor<4x4xf32>, tensor<8xf32>
  } : (tensor<8x4xf32>, tensor<8xf32>) -> (tensor<4x4xf32>, tensor<8xf32>)
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
    sdy.return
  } : () -> ()
  func.return %0 : tensor<4xf32>
}

// The other ops JAX can write: sharding groups (shard_alike), propagation barriers,
// named computations.
// CHECK-LABEL: func.func @others
// CHECK:      sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
// CHECK-NEXT: %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8xf32>
// CHECK-NEXT: %1 = sdy.propagation_barrier %0 allowed_direction=NONE : tensor<8xf32>
// CHECK-NEXT: %2 = sdy.named_computation<"body">(%1) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] (%arg1: tensor<8xf32>) {
// CHECK-NEXT:   sdy.return %arg1 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %3 = sdy.named_computation<"plain">(%2) (%arg1: tensor<8xf32>) {
// GENERIC:      "sdy.sharding_group"(%{{.*}}) <{group_id = 0 : i64}> : (tensor<8xf32>) -> ()
// GENERIC-NEXT: "sdy.propagation_barrier"(%{{.*}}) <{allowed_direction = 1 : i32}> : (tensor<8xf32>) -> tensor<8xf32>
// GENERIC:      "sdy.named_computation"(%{{.*}}) <{name = "body", in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}]>]>}> ({
func.func @others(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
  %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=NONE : tensor<8xf32>
  %2 = sdy.named_computation<"body">(%1) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %3 = sdy.named_computation<"plain">(%2) (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return %3 : tensor<8xf32>
}

// A sharding rule (on custom calls) is kept as its text.
// CHECK-LABEL: func.func @rule
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=2, j=3}, custom>
func.func @rule(%arg0: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = xla.custom_call %arg0, call_target_name = "t" attributes {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=2, j=3}, custom>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
