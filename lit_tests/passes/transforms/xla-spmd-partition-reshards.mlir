// RUN: xla-opt %s -p xla-spmd-partition --split-input-file --verify-diagnostics | filecheck %s

// How a value moves from one sharding to another (partition.py's reshard), in the spirit
// of Shardy's sdy-reshard-to-collectives tests; devices 0..N-1 laid out row-major.

// A sharded dimension moved (with_sharding_constraint rows -> columns): one all_to_all,
// splitting the columns among the group and concatenating the rows.
// CHECK-LABEL: func.func @main(%x: tensor<2x12xf32> {{.*}}) -> (tensor<8x3xf32> {{.*}})
// CHECK-NEXT:    %0 = xla.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 4, replica_groups = {{\[\[}}0, 1, 2, 3]] : (tensor<2x12xf32>) -> tensor<8x3xf32>
// CHECK-NEXT:    func.return %0 : tensor<8x3xf32>
module attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["d"=4]>
  func.func @main(%x: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) -> (tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"d"}]>}) {
    %0 = sdy.sharding_constraint %x <@mesh, [{}, {"d"}]> : tensor<8x12xf32>
    func.return %0 : tensor<8x12xf32>
  }
}

// -----

// One value returned sharded finer and whole: a finer split of a shard is sliced from the
// shard itself (device 1 = (x 0, y 1) keeps rows 2..3 of its rows 0..3: offset 2), the
// whole value gathered over x.
// CHECK-LABEL: func.func @main(%x: tensor<4x12xf32> {{.*}}) -> (tensor<2x12xf32> {{.*}}, tensor<8x12xf32> {{.*}})
// CHECK:         %[[OFFSETS:.*]] = xla.constant dense<[0, 2, 0, 2]> : tensor<4xi32>
// CHECK:         %[[FINER:.*]] = xla.dynamic_slice %x, %{{.*}}, %{{.*}}, slice_sizes = [2, 12] : (tensor<4x12xf32>, tensor<i32>, tensor<i32>) -> tensor<2x12xf32>
// CHECK-NEXT:    %[[WHOLE:.*]] = xla.all_gather %x, all_gather_dim = 0, replica_groups = {{\[\[}}0, 2], [1, 3]] : (tensor<4x12xf32>) -> tensor<8x12xf32>
// CHECK-NEXT:    func.return %[[FINER]], %[[WHOLE]] : tensor<2x12xf32>, tensor<8x12xf32>
module attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%x: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}, tensor<8x12xf32>) {
    func.return %x, %x : tensor<8x12xf32>, tensor<8x12xf32>
  }
}

// -----

// shard_map: the operand sliced to the manual shard, the body (one device's program,
// its collective naming devices) copied in.
// CHECK-LABEL: func.func @main(%x: tensor<8xf32> {{.*}}) -> (tensor<4xf32> {{.*}})
// CHECK:         %[[SHARD:.*]] = xla.dynamic_slice %x, %{{.*}}, slice_sizes = [4] : (tensor<8xf32>, tensor<i32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[SUM:.*]] = xla.all_reduce %[[SHARD]], replica_groups = {{\[\[}}0, 1]] computation {
// CHECK:         func.return %[[SUM]] : tensor<4xf32>
module attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%x: tensor<8xf32>) -> (tensor<4xf32>) {
    %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%a: tensor<4xf32>) {
      %1 = xla.all_reduce %a, replica_groups = [[0, 1]] computation {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = xla.add %p, %q : tensor<f32>
        xla.return %s : tensor<f32>
      } : tensor<4xf32>
      sdy.return %1 : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<4xf32>
    func.return %0 : tensor<4xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  // expected-error @+1 {{the mesh has 2 devices, the module 4 partitions}}
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    func.return %x : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @a = <["x"=2]>
  sdy.mesh @b = <["y"=2]>
  // expected-error @+1 {{shardings over several meshes (a, b): one mesh is supported}}
  func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@a, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@b, [{"y"}]>}) {
    func.return %x : tensor<8xf32>
  }
}

// -----

// An uneven split (10 over 4 devices: shards of ceil(10 / 4) = 3, from 0, 3, 6, 9; the
// last holds 1 entry and 2 of padding): a shard is cut from the whole value padded to
// 12, the padding is replaced by the reducer's identity before a reduction over the
// dimension, and a gather of the shards drops it.
// CHECK-LABEL: func.func @main(%x: tensor<10xf32> {{.*}}) -> (tensor<f32> {{.*}}, tensor<10xf32> {{.*}})
// CHECK:         %[[PADDED:.*]] = xla.pad %x, %{{.*}}, edge_padding_low = [0], edge_padding_high = [2], interior_padding = [0] : (tensor<10xf32>, tensor<f32>) -> tensor<12xf32>
// CHECK:         xla.constant dense<[0, 3, 6, 9]> : tensor<4xi32>
// CHECK:         %[[SHARD:.*]] = xla.dynamic_slice %[[PADDED]], %{{.*}}, slice_sizes = [3] : (tensor<12xf32>, tensor<i32>) -> tensor<3xf32>
// CHECK-NEXT:    %e = xla.exponential %[[SHARD]] : tensor<3xf32>
// CHECK:         %[[POSITION:.*]] = xla.add %{{.*}}, %{{.*}} : tensor<3xi32>
// CHECK-NEXT:    %[[SIZE:.*]] = xla.constant dense<10> : tensor<i32>
// CHECK:         %[[INSIDE:.*]] = xla.compare %[[POSITION]], %{{.*}}, comparison_direction = LT
// CHECK-NEXT:    %[[IDENTITY:.*]] = xla.broadcast_in_dim %zero, broadcast_dimensions = [] : (tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[MASKED:.*]] = xla.select %[[INSIDE]], %e, %[[IDENTITY]]
// CHECK-NEXT:    %sum = xla.reduce (%[[MASKED]]), (%zero), dimensions = [0] body {
// CHECK:         %[[TOTAL:.*]] = xla.all_reduce %sum
// CHECK:         %[[ALL:.*]] = xla.all_gather %e, all_gather_dim = 0, replica_groups = {{\[\[}}0, 1, 2, 3]] : (tensor<3xf32>) -> tensor<12xf32>
// CHECK-NEXT:    %[[WHOLE:.*]] = xla.slice %[[ALL]], start_indices = [0], limit_indices = [10], strides = [1] : (tensor<12xf32>) -> tensor<10xf32>
// CHECK-NEXT:    func.return %[[TOTAL]], %[[WHOLE]] : tensor<f32>, tensor<10xf32>
module attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["d"=4]>
  func.func @main(%x: tensor<10xf32>) -> (tensor<f32>, tensor<10xf32>) {
    %c = sdy.sharding_constraint %x <@mesh, [{"d"}]> : tensor<10xf32>
    %e = xla.exponential %c : tensor<10xf32>
    %zero = xla.constant dense<0.0> : tensor<f32>
    %sum = xla.reduce (%e), (%zero), dimensions = [0] body {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.add %a, %b : tensor<f32>
      xla.return %s : tensor<f32>
    } : (tensor<10xf32>, tensor<f32>) -> tensor<f32>
    func.return %sum, %e : tensor<f32>, tensor<10xf32>
  }
}
