// RUN: xla-opt %s -p xla-spmd-partition --split-input-file | filecheck %s

// Each op family's sharding rule (passes/transforms/xla_spmd_partition/rules.py): what
// a device computes on its shards, on a mesh of devices 0..N-1 laid out row-major
// (over x=2, y=2: x groups are [[0, 2], [1, 3]], y groups [[0, 1], [2, 3]]).

// broadcast_in_dim, transpose and reshape keep the sharding of the dimensions they carry.
// CHECK-LABEL: func.func @main(%v: tensor<6xf32> {{.*}}) -> (tensor<6x4xf32> {{.*}}, tensor<3x4x4xf32> {{.*}})
// The broadcast makes the rows of its device (x) of the columns it holds (y) itself:
// CHECK-NEXT:    %b = xla.broadcast_in_dim %v, broadcast_dimensions = [1] : (tensor<6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %t = xla.transpose %b, permutation = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
// The reshape splits dimension 0 (12 -> 3x4): it is gathered over y first; dimension 1 keeps x.
// CHECK-NEXT:    %0 = xla.all_gather %t, all_gather_dim = 0, replica_groups = {{\[\[}}0, 1], [2, 3]] : (tensor<6x4xf32>) -> tensor<12x4xf32>
// CHECK-NEXT:    %r = xla.reshape %0 : (tensor<12x4xf32>) -> tensor<3x4x4xf32>
module attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%v: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<12x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, tensor<3x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}]>}) {
    %b = xla.broadcast_in_dim %v, broadcast_dimensions = [1] : (tensor<12xf32>) -> tensor<8x12xf32>
    %t = xla.transpose %b, permutation = [1, 0] : (tensor<8x12xf32>) -> tensor<12x8xf32>
    %r = xla.reshape %t : (tensor<12x8xf32>) -> tensor<3x4x8xf32>
    func.return %t, %r : tensor<12x8xf32>, tensor<3x4x8xf32>
  }
}

// -----

// An iota sharded along its dimension counts from the device's offset; a splat constant
// CHECK-LABEL: func.func @main() -> (tensor<2xi32> {{.*}}, tensor<2xf32> {{.*}})
// CHECK-NEXT:    %i = xla.iota iota_dimension = 0 : tensor<2xi32>
// CHECK-NEXT:    %[[TABLE:.*]] = xla.constant dense<[0, 2, 4, 6]> : tensor<4xi32>
// CHECK-NEXT:    %[[DEVICE:.*]] = xla.replica_id : tensor<ui32>
// CHECK:         xla.dynamic_slice %[[TABLE]]
// CHECK:         %[[COUNT:.*]] = xla.add %i, %{{.*}} : tensor<2xi32>
// CHECK-NEXT:    %c = xla.constant dense<2.500000e+00> : tensor<2xf32>
// CHECK-NEXT:    func.return %[[COUNT]], %c : tensor<2xi32>, tensor<2xf32>
// is made at the shard's shape.
module attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["d"=4]>
  func.func @main() -> (tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}]>}) {
    %i = xla.iota iota_dimension = 0 : tensor<8xi32>
    %c = xla.constant dense<2.5> : tensor<8xf32>
    func.return %i, %c : tensor<8xi32>, tensor<8xf32>
  }
}

// -----

// A convolution sharded along its batch: each device convolves its images.
// CHECK-LABEL: func.func @main(%x: tensor<2x6x6x3xf32> {{.*}}, %k: tensor<3x3x3x8xf32> {{.*}}) -> (tensor<2x4x4x8xf32> {{.*}})
// CHECK-NEXT:    %0 = xla.convolution %x, %k, {{.*}} : (tensor<2x6x6x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x4x4x8xf32>
// CHECK-NEXT:    func.return %0 : tensor<2x4x4x8xf32>
module attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["b"=2]>
  func.func @main(%x: tensor<4x6x6x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}, {}, {}]>}, %k: tensor<3x3x3x8xf32>) -> (tensor<4x4x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}, {}, {}]>}) {
    %0 = xla.convolution %x, %k,
           input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2],
           kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1],
           output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]
           : (tensor<4x6x6x3xf32>, tensor<3x3x3x8xf32>) -> tensor<4x4x4x8xf32>
    func.return %0 : tensor<4x4x4x8xf32>
  }
}

// -----

// A sort along a sharded dimension has no local form: its operand is gathered first.
// CHECK-LABEL: func.func @main(%x: tensor<4xf32> {{.*}}) -> (tensor<8xf32> {{.*}})
// CHECK-NEXT:    %0 = xla.all_gather %x, all_gather_dim = 0, replica_groups = {{\[\[}}0, 1]] : (tensor<4xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %1 = xla.sort %0, dimension = 0
module attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["d"=2]>
  func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}]>}) -> tensor<8xf32> {
    %0 = xla.sort %x, dimension = 0 comparator {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      xla.return %lt : tensor<i1>
    } : tensor<8xf32>
    func.return %0 : tensor<8xf32>
  }
}

// -----

// A contraction sharded on both sides (y): partial products, all-reduced over y.
// CHECK-LABEL: func.func @main(%x: tensor<4x2xf32> {{.*}}, %w: tensor<2x6xf32> {{.*}}) -> (tensor<4x6xf32> {{.*}})
// CHECK-NEXT:    %0 = xla.dot_general %x, %w, {{.*}} : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %1 = xla.all_reduce %0, replica_groups = {{\[\[}}0, 1], [2, 3]] computation {
// CHECK:           xla.add
// CHECK:         func.return %1 : tensor<4x6xf32>
module attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %w: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = xla.dot_general %x, %w, lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    func.return %0 : tensor<8x6xf32>
  }
}

// -----

// A sum over a dimension sharded by x: partial sums, all-reduced over x with the
// reducer; the kept dimension stays sharded by y.
// CHECK-LABEL: func.func @main(%x: tensor<4x3xf32> {{.*}}) -> (tensor<3xf32> {{.*}})
// CHECK:         %0 = xla.reduce (%x), (%z), dimensions = [0] body {
// CHECK:         } : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %1 = xla.all_reduce %0, replica_groups = {{\[\[}}0, 2], [1, 3]] computation {
module attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%x: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
    %z = xla.constant dense<0.0> : tensor<f32>
    %0 = xla.reduce (%x), (%z), dimensions = [0] body {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.add %a, %b : tensor<f32>
      xla.return %s : tensor<f32>
    } : (tensor<8x6xf32>, tensor<f32>) -> tensor<6xf32>
    func.return %0 : tensor<6xf32>
  }
}

// -----

// gather from a table sharded along the rows its indices pick (an embedding with a
// vocabulary-sharded table): each index clamped to the global rows, made local, the
// rows another device holds zeroed, and the partial lookups summed.
// CHECK-LABEL: func.func @main(%table: tensor<4x6xf32> {{.*}}, %ids: tensor<3xi32> {{.*}}) -> (tensor<3x6xf32> {{.*}})
// CHECK:         %[[WIDE:.*]] = xla.convert %ids : (tensor<3xi32>) -> tensor<3xi64>
// CHECK:         %[[CLAMPED:.*]] = xla.clamp %{{.*}}, %[[WIDE]], %{{.*}} : tensor<3xi64>
// CHECK:         %[[OFFSETS:.*]] = xla.constant dense<[0, 4]> : tensor<2xi32>
// CHECK:         %[[LOCAL:.*]] = xla.subtract %[[CLAMPED]], %{{.*}} : tensor<3xi64>
// CHECK:         xla.compare %[[LOCAL]], %{{.*}}, comparison_direction = GE
// CHECK:         %[[ROWS:.*]] = xla.constant dense<4> : tensor<i64>
// CHECK:         xla.compare %[[LOCAL]], %{{.*}}, comparison_direction = LT
// CHECK:         %[[HELD:.*]] = xla.and
// CHECK:         %[[INDICES:.*]] = xla.convert %[[LOCAL]] : (tensor<3xi64>) -> tensor<3xi32>
// CHECK-NEXT:    %g = xla.gather %table, %[[INDICES]], {{.*}} slice_sizes = [1, 6]{{.*}} : (tensor<4x6xf32>, tensor<3xi32>) -> tensor<3x6xf32>
// CHECK-NEXT:    %[[MASK:.*]] = xla.broadcast_in_dim %[[HELD]], broadcast_dimensions = [0] : (tensor<3xi1>) -> tensor<3x6xi1>
// CHECK:         %[[KEPT:.*]] = xla.select %[[MASK]], %g, %{{.*}}
// CHECK-NEXT:    %[[SUM:.*]] = xla.all_reduce %[[KEPT]], replica_groups = {{\[\[}}0, 1]] computation
// CHECK:         func.return %[[SUM]] : tensor<3x6xf32>
module attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["v"=2]>
  func.func @main(%table: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"v"}, {}]>}, %ids: tensor<3xi32>) -> tensor<3x6xf32> {
    %g = xla.gather %table, %ids, offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 6] : (tensor<8x6xf32>, tensor<3xi32>) -> tensor<3x6xf32>
    func.return %g : tensor<3x6xf32>
  }
}

// -----

// gather with its indices' batch sharded and the table's features sharded: both carried
// to the result (the slice of the features made local), no collective.
// CHECK-LABEL: func.func @main(%table: tensor<8x3xf32> {{.*}}, %ids: tensor<2xi32> {{.*}}) -> (tensor<2x3xf32> {{.*}})
// CHECK-NEXT:    %g = xla.gather %table, %ids, {{.*}} slice_sizes = [1, 3]{{.*}} : (tensor<8x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %g : tensor<2x3xf32>
module attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%table: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %ids: tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
    %g = xla.gather %table, %ids, offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 6] : (tensor<8x6xf32>, tensor<4xi32>) -> tensor<4x6xf32>
    func.return %g : tensor<4x6xf32>
  }
}

// -----

// A reduce whose reducer no all-reduce computes (argmax: a value and its index): each
// device reduces its shard (the iota counting from its offset), and the partial
// results, gathered in shard order, are reduced again by the same reducer.
// CHECK-LABEL: func.func @main(%x: tensor<4xf32> {{.*}}) -> (tensor<f32> {{.*}}, tensor<i32> {{.*}})
// CHECK:         %[[INDEX:.*]] = xla.add %i, %{{.*}} : tensor<4xi32>
// CHECK:         %m, %at = xla.reduce (%x, %[[INDEX]]), (%lowest, %zero), dimensions = [0] body {
// CHECK:         } : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
// CHECK-NEXT:    %[[M1:.*]] = xla.reshape %m : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:    %[[MS:.*]] = xla.all_gather %[[M1]], all_gather_dim = 0, replica_groups = {{\[\[}}0, 1]] : (tensor<1xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[AT1:.*]] = xla.reshape %at : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT:    %[[ATS:.*]] = xla.all_gather %[[AT1]], all_gather_dim = 0, replica_groups = {{\[\[}}0, 1]] : (tensor<1xi32>) -> tensor<2xi32>
// CHECK-NEXT:    %[[MAX:.*]], %[[ARGMAX:.*]] = xla.reduce (%[[MS]], %[[ATS]]), (%lowest, %zero), dimensions = [0] body {
// CHECK:         } : (tensor<2xf32>, tensor<2xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
// CHECK-NEXT:    func.return %[[MAX]], %[[ARGMAX]] : tensor<f32>, tensor<i32>
module attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["d"=2]>
  func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}]>}) -> (tensor<f32>, tensor<i32>) {
    %i = xla.iota iota_dimension = 0 : tensor<8xi32>
    %lowest = xla.constant dense<0xff800000> : tensor<f32>
    %zero = xla.constant dense<0> : tensor<i32>
    %m, %at = xla.reduce (%x, %i), (%lowest, %zero), dimensions = [0] body {
    ^bb0(%a: tensor<f32>, %ia: tensor<i32>, %b: tensor<f32>, %ib: tensor<i32>):
      %gt = xla.compare %a, %b, comparison_direction = GT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = xla.select %gt, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %j = xla.select %gt, %ia, %ib : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      xla.return %v, %j : tensor<f32>, tensor<i32>
    } : (tensor<8xf32>, tensor<8xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
    func.return %m, %at : tensor<f32>, tensor<i32>
  }
}
