// RUN: xla-opt %s --split-input-file --verify-diagnostics

// ---- meshes ----

// expected-error @+1 {{axis "x" appears twice in the mesh}}
sdy.mesh @mesh = <["x"=2, "x"=2]>

// -----

// expected-error @+1 {{axis "x" has size 0; an axis size is at least 1}}
sdy.mesh @mesh = <["x"=0]>

// -----

// expected-error @+1 {{device_ids [0, 1, 1, 2] is not a permutation of 0..3}}
sdy.mesh @mesh = <["x"=4], device_ids=[0, 1, 1, 2]>

// -----

// expected-error @+1 {{the mesh's axes hold 4 devices but device_ids lists 2}}
sdy.mesh @mesh = <["x"=4], device_ids=[1, 0]>

// -----

// expected-error @+1 {{a mesh without axes has at most one device id, got [0, 1]}}
sdy.mesh @mesh = <[], device_ids=[0, 1]>

// -----

func.func @mesh_in_a_function() {
  // expected-error @+1 {{'sdy.mesh' expects parent op 'builtin.module'}}
  sdy.mesh @mesh = <["x"=2]>
  func.return
}

// -----

// ---- tensor shardings ----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @rank(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{the sharding has 1 dimension shardings but the tensor has rank 2}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @unknown_axis(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{dimension 0 uses unknown axis "z" (mesh axes: "x", "y")}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"z"}, {}]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @axis_twice(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{dimension 1: axis "x" is used twice in the sharding}}
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y", "x"}]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @sharded_and_replicated(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{replicated: axis "x" is used twice in the sharding}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}], replicated={"x"}> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @replicated_and_unreduced(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{unreduced: axis "y" is used twice in the sharding}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {}], replicated={"y"}, unreduced={"y"}> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
func.func @overlapping_sub_axes(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{dimension 1: "x":(2)4 overlaps "x":(1)4, used in the sharding too}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x":(1)4}, {"x":(2)4}]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
func.func @sub_axis_and_axis(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{dimension 1: "x" overlaps "x":(1)2, used in the sharding too}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x":(1)2}, {"x"}]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
func.func @sub_axis_does_not_divide(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{dimension 0: sub-axis "x":(3)2 does not divide axis "x" of size 8 (pre-size times size 6)}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x":(3)2}, {}]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
func.func @sub_axis_of_one(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{dimension 0: sub-axis "x":(2)1 has size 1; a sub-axis is larger than 1}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x":(2)1}, {}]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
func.func @sub_axis_is_the_axis(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{dimension 0: sub-axis "x":(1)8 is all of axis "x": write "x"}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x":(1)8}, {}]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
func.func @mergeable_sub_axes(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{dimension 0: consecutive sub-axes "x":(1)2, "x":(2)2 are one sub-axis}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x":(1)2, "x":(2)2}, {}]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @replicated_order(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{replicated axes {"y", "x"} are not in the mesh's order (x, y)}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {}], replicated={"y", "x"}> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @priority(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{dimension 1 is empty and closed but has a priority}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}p0, {}p1]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @priority_zeros(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{a priority has no leading zeros, got 'p01'}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}p01, {}]> : tensor<8x4xf32>
  func.return
}

// -----

func.func @unknown_mesh(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{unknown mesh @mesh: no sdy.mesh of that name in the module}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8x4xf32>
  func.return
}

// -----

func.func @not_a_mesh(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{@not_a_mesh is a 'func.func', not an sdy.mesh}}
  %0 = sdy.sharding_constraint %arg0 <@not_a_mesh, [{"x"}, {}]> : tensor<8x4xf32>
  func.return
}

// -----

func.func @bad_inline_mesh(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{inline mesh #sdy.mesh<["x"=2, "x"=2]>: axis "x" appears twice in the mesh}}
  %0 = sdy.sharding_constraint %arg0 <mesh<["x"=2, "x"=2]>, [{"x"}, {}]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @maximal = <[], device_ids=[0]>
func.func @maximal_with_dimensions(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{a sharding on a maximal mesh has no dimension shardings and no replicated or unreduced axes}}
  %0 = sdy.sharding_constraint %arg0 <@maximal, [{}, {}]> : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @result_type(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{result type tensor<4x8xf32> differs from operand type tensor<8x4xf32>}}
  %0 = "sdy.sharding_constraint"(%arg0) <{sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// expected-error @+1 {{argument #0 sharding #sdy.sharding<@mesh, [{"x"}]>: the sharding has 1 dimension shardings but the tensor has rank 2}}
func.func @argument(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
// expected-error @+1 {{result #0 sharding #sdy.sharding<@mesh, [{"w"}, {}]>: dimension 0 uses unknown axis "w"}}
func.func @result(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"w"}, {}]>}) {
  func.return %arg0 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @per_value(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{sdy.sharding has 2 shardings for 1 results}}
  %0 = xla.add %arg0, %arg0 attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>} : tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @per_value_kind(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{sdy.sharding on an op must be a #sdy.sharding_per_value, got #sdy.sharding<@mesh, [{"x"}, {}]>}}
  %0 = xla.add %arg0, %arg0 attributes {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>} : tensor<8x4xf32>
  func.return
}

// -----

// ---- manual computations ----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @in_shardings_count(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{in_shardings has 2 shardings for 1 operands}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @out_shardings_count(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{out_shardings has 0 shardings for 1 results}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @argument_local_type(%arg0: tensor<8x4xf32>) {
  // expected-error @+1 {{body argument #0 has type tensor<8x4xf32>, but the operand's local type over manual axes {"x", "y"} is tensor<4x2xf32> (global tensor<8x4xf32>)}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<8x4xf32>) {
    sdy.return %arg1 : tensor<8x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @result_local_type(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{returned value #0 has type tensor<4xf32>, but the result's local type over manual axes {"x"} is tensor<8xf32> (global tensor<8xf32>)}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @free_axes_stay_global(%arg0: tensor<8xf32>) {
  // Only the manual axes make the local type: "y" is free.
  // expected-error @+1 {{body argument #0 has type tensor<2xf32>, but the operand's local type over manual axes {"x"} is tensor<4xf32> (global tensor<8xf32>)}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}]>] out_shardings=[<@mesh, [{"x", "y"}]>] manual_axes={"x"} (%arg1: tensor<2xf32>) {
    sdy.return %arg1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @not_divisible(%arg0: tensor<7xf32>) {
  // expected-error @+1 {{operand shape: dimension 0 of size 7 of [7] is not divisible by its manual axes' size 2}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<3xf32>) {
    sdy.return %arg1 : tensor<3xf32>
  } : (tensor<7xf32>) -> tensor<7xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @unknown_manual_axis(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{unknown manual axis "z" (mesh axes: x, y)}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"z"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @manual_axis_twice(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{manual axis "x" is listed twice}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x", "x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @manual_axes_first(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{in_shardings #0: dimension 0 lists manual axis "x" after free axis "y"; manual axes come first}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y", "x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @other = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
func.func @two_meshes(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{in_shardings and out_shardings are on different meshes; they share one}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@other, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @nested(%arg0: tensor<8xf32>) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    // expected-error @+1 {{manual axis "x" is already manual in an enclosing sdy.manual_computation}}
    %1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%arg2: tensor<4xf32>) {
      sdy.return %arg2 : tensor<4xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @bound_axis_inside(%arg0: tensor<8xf32>) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    // expected-error @+1 {{uses axis "x", manual in an enclosing sdy.manual_computation}}
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{"x"}]> : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @returned_count(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{the body returns 2 values for 1 results}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1, %arg1 : tensor<4xf32>, tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

func.func @return_outside(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{ends the region of a 'func.func'; it ends manual and named computations}}
  sdy.return %arg0 : tensor<8xf32>
}

// -----

// ---- the other ops ----

func.func @barrier_both(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{allowed_direction BOTH blocks nothing: the barrier would be redundant}}
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : tensor<8xf32>
  func.return
}

// -----

func.func @named_types(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{the body ends with an sdy.return of the result types}}
  %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<4xf32>
  func.return
}
