// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// broadcast: the operand fills the minor dimensions.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME:    (%[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<3xf32>) outs(%[[E]] : tensor<2x3xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK-NEXT:    } -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @broadcast(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = xla.broadcast %x, broadcast_sizes = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// broadcast_in_dim: a projected map; the stretched size-1 dimension reads index 0.
// CHECK-LABEL: func.func @broadcast_in_dim
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<3x1xf32>) outs(%{{.*}} : tensor<3x2x4xf32>)
func.func @broadcast_in_dim(%x: tensor<3x1xf32>) -> tensor<3x2x4xf32> {
  %r = xla.broadcast_in_dim %x, broadcast_dimensions = [0, 2] : (tensor<3x1xf32>) -> tensor<3x2x4xf32>
  func.return %r : tensor<3x2x4xf32>
}

// A size-1 dimension broadcast to size 1 keeps its loop.
// CHECK-LABEL: func.func @broadcast_in_dim_scalar_like
// CHECK:         indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]
func.func @broadcast_in_dim_scalar_like(%x: tensor<1xi8>) -> tensor<1x5xi8> {
  %r = xla.broadcast_in_dim %x, broadcast_dimensions = [0] : (tensor<1xi8>) -> tensor<1x5xi8>
  func.return %r : tensor<1x5xi8>
}

// transpose: operand dimension permutation[i] reads loop i.
// CHECK-LABEL: func.func @transpose
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<4x2x3xf32>)
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %r = xla.transpose %x, permutation = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  func.return %r : tensor<4x2x3xf32>
}

// reverse: -d + size - 1.
// CHECK-LABEL: func.func @reverse
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, ((d1 * -1) + 7))>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<2x8xi32>) outs(%{{.*}} : tensor<2x8xi32>)
func.func @reverse(%x: tensor<2x8xi32>) -> tensor<2x8xi32> {
  %r = xla.reverse %x, dimensions = [1] : tensor<2x8xi32>
  func.return %r : tensor<2x8xi32>
}

// slice: d * stride + start.
// CHECK-LABEL: func.func @slice
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (((d0 * 2) + 1))>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<10xf32>) outs(%{{.*}} : tensor<4xf32>)
func.func @slice(%x: tensor<10xf32>) -> tensor<4xf32> {
  %r = xla.slice %x, start_indices = [1], limit_indices = [9], strides = [2] : (tensor<10xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// reshape: the result's row-major index L (here one group: 2x3 and 3x2 have no
// common split) is split into the operand's coordinates, L floordiv 3 and L mod 3:
// an affine map, so the reshape is a data move like a transpose.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<3x2xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ((((d0 * 2) + d1) floordiv 3), (((d0 * 2) + d1) mod 3))>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<2x3xf32>) outs(%[[E]] : tensor<3x2xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
func.func @reshape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %r = xla.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// reshape with `dimensions` collapses in that order: the index is split over the
// transposed shape [3, 2], so operand dimension 1 reads d0 floordiv 2, dimension 0
// d0 mod 2.
// CHECK-LABEL: func.func @reshape_dimensions
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 mod 2), (d0 floordiv 2))>, affine_map<(d0) -> (d0)>]
func.func @reshape_dimensions(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %r = xla.reshape %x, dimensions = [1, 0] : (tensor<2x3xf32>) -> tensor<6xf32>
  func.return %r : tensor<6xf32>
}

// A reshape that only splits dimensions (size-1 ones aside) reads no division:
// 2x12 -> 2x1x3x4 reads (d0, d2 * 4 + d3); the removed size-1 dimension of 1x2x12
// reads index 0.
// CHECK-LABEL: func.func @reshape_splitting
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x12xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d0, ((d2 * 4) + d3))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[X]] : tensor<1x2x12xf32>)
// CHECK-NEXT:    ^{{.*}}(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
func.func @reshape_splitting(%x: tensor<1x2x12xf32>) -> tensor<2x1x3x4xf32> {
  %r = xla.reshape %x : (tensor<1x2x12xf32>) -> tensor<2x1x3x4xf32>
  func.return %r : tensor<2x1x3x4xf32>
}

// With `dimensions`, the split applies to the transposed operand: 3x2 in the order
// [1, 0] is 2x3, which splits (trivially) into the result 2x3: a transpose.
// CHECK-LABEL: func.func @reshape_splitting_dimensions
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]
func.func @reshape_splitting_dimensions(%x: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %r = xla.reshape %x, dimensions = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// A reshape to the same type in the default order is the operand.
// CHECK-LABEL: func.func @reshape_identity
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    func.return %[[X]]
func.func @reshape_identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = xla.reshape %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// collapse: a row-major reshape; the merged dimensions read d1 floordiv 4, d1 mod 4.
// CHECK-LABEL: func.func @collapse
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 floordiv 4), (d1 mod 4))>, affine_map<(d0, d1) -> (d0, d1)>]
func.func @collapse(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %r = xla.collapse %x, dimensions = [1, 2] : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  func.return %r : tensor<2x12xf32>
}

// dynamic_slice: each start is read, widened by its signedness and clamped to
// [0, dim - size] before the generic, which reads the operand at index + start.
// CHECK-LABEL: func.func @dynamic_slice
// CHECK-SAME:    (%[[X:.*]]: tensor<5x6xf32>, %[[I:.*]]: tensor<i32>, %[[J:.*]]: tensor<i32>)
// CHECK-NEXT:    %[[IV:.*]] = tensor.extract %[[I]][] : tensor<i32>
// CHECK-NEXT:    %[[IW:.*]] = arith.extsi %[[IV]] : i32 to i64
// CHECK-NEXT:    %[[IHI:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[IZ:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[IMIN:.*]] = arith.minsi %[[IW]], %[[IHI]] : i64
// CHECK-NEXT:    %[[IMAX:.*]] = arith.maxsi %[[IMIN]], %[[IZ]] : i64
// CHECK-NEXT:    %[[S0:.*]] = arith.index_cast %[[IMAX]] : i64 to index
// CHECK-NEXT:    %[[JV:.*]] = tensor.extract %[[J]][] : tensor<i32>
// CHECK:         %[[S1:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<2x3xf32>) {
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: f32):
// CHECK-NEXT:      %[[L0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[P0:.*]] = arith.addi %[[L0]], %[[S0]] : index
// CHECK-NEXT:      %[[L1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[P1:.*]] = arith.addi %[[L1]], %[[S1]] : index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %[[X]][%[[P0]], %[[P1]]] : tensor<5x6xf32>
// CHECK-NEXT:      linalg.yield %[[V]] : f32
func.func @dynamic_slice(%x: tensor<5x6xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<2x3xf32> {
  %r = xla.dynamic_slice %x, %i, %j, slice_sizes = [2, 3] : (tensor<5x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// dynamic_update_slice: an unsigned start clamps with minui; the generic over the
// operand selects the update element (read at the clamped relative index) inside
// the updated window.
// CHECK-LABEL: func.func @dynamic_update_slice
// CHECK-SAME:    (%[[X:.*]]: tensor<5xf32>, %[[U:.*]]: tensor<2xf32>, %[[I:.*]]: tensor<i32>)
// CHECK-NEXT:    %[[IV:.*]] = tensor.extract %[[I]][] : tensor<i32>
// CHECK-NEXT:    %[[IW:.*]] = arith.extui %[[IV]] : i32 to i64
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[C:.*]] = arith.minui %[[IW]], %[[HI]] : i64
// CHECK-NEXT:    %[[S:.*]] = arith.index_cast %[[C]] : i64 to index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<5xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[X]] : tensor<5xf32>) outs(%[[E]] : tensor<5xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[OLD:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[L:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[REL:.*]] = arith.subi %[[L]], %[[S]] : index
// CHECK-NEXT:      %[[LAST:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi ule, %[[REL]], %[[LAST]] : index
// CHECK-NEXT:      %[[CL:.*]] = arith.minui %[[REL]], %[[LAST]] : index
// CHECK-NEXT:      %[[NEW:.*]] = tensor.extract %[[U]][%[[CL]]] : tensor<2xf32>
// CHECK-NEXT:      %[[V:.*]] = arith.select %[[IN]], %[[NEW]], %[[OLD]] : f32
// CHECK-NEXT:      linalg.yield %[[V]] : f32
func.func @dynamic_update_slice(%x: tensor<5xf32>, %u: tensor<2xf32>, %i: tensor<ui32>) -> tensor<5xf32> {
  %r = xla.dynamic_update_slice %x, %u, %i : (tensor<5xf32>, tensor<2xf32>, tensor<ui32>) -> tensor<5xf32>
  func.return %r : tensor<5xf32>
}

// An update reshaped by unit dimensions only (JAX's scans write each step's 16 x 128
// value into their 32 x 16 x 128 stacks so) is read in the value itself: the reshape
// makes no copy, and goes once dead.
// CHECK-LABEL: func.func @dynamic_update_slice_of_a_unit_reshape
// CHECK-SAME:    (%[[X:.*]]: tensor<4x2x3xf32>, %[[U:.*]]: tensor<2x3xf32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>)
// CHECK-NOT:     tensor<1x2x3xf32>
// CHECK:         tensor.empty() : tensor<4x2x3xf32>
// CHECK-NEXT:    linalg.generic
// CHECK:           %{{.*}} = tensor.extract %[[U]][%{{.*}}, %{{.*}}] : tensor<2x3xf32>
// CHECK-NOT:     tensor<1x2x3xf32>
// CHECK:         func.return
func.func @dynamic_update_slice_of_a_unit_reshape(%x: tensor<4x2x3xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>, %z: tensor<i32>) -> tensor<4x2x3xf32> {
  %r = xla.reshape %u : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %d = xla.dynamic_update_slice %x, %r, %i, %z, %z : (tensor<4x2x3xf32>, tensor<1x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x2x3xf32>
  func.return %d : tensor<4x2x3xf32>
}
// ... and by a broadcast_in_dim that inserts unit dimensions only (what JAX emits).
// CHECK-LABEL: func.func @dynamic_update_slice_of_a_unit_broadcast
// CHECK-SAME:    (%[[X:.*]]: tensor<4x2x3xf32>, %[[U:.*]]: tensor<2x3xf32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>)
// CHECK-NOT:     tensor<1x2x3xf32>
// CHECK:         tensor.empty() : tensor<4x2x3xf32>
// CHECK-NEXT:    linalg.generic
// CHECK:           %{{.*}} = tensor.extract %[[U]][%{{.*}}, %{{.*}}] : tensor<2x3xf32>
// CHECK-NOT:     tensor<1x2x3xf32>
// CHECK:         func.return
func.func @dynamic_update_slice_of_a_unit_broadcast(%x: tensor<4x2x3xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>, %z: tensor<i32>) -> tensor<4x2x3xf32> {
  %r = xla.broadcast_in_dim %u, broadcast_dimensions = [1, 2] : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %d = xla.dynamic_update_slice %x, %r, %i, %z, %z : (tensor<4x2x3xf32>, tensor<1x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x2x3xf32>
  func.return %d : tensor<4x2x3xf32>
}

// concatenate: each input read at the position clamped into it; selects by offset.
// CHECK-LABEL: func.func @concatenate
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x1xf32>)
// CHECK:         outs(%{{.*}} : tensor<2x4xf32>) {
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: f32):
// CHECK-NEXT:      %[[L0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[L1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[OFF:.*]] = arith.constant -3 : index
// CHECK-NEXT:      %[[PB:.*]] = arith.addi %[[L1]], %[[OFF]] : index
// CHECK-NEXT:      %[[LASTB:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[CB:.*]] = arith.minui %[[PB]], %[[LASTB]] : index
// CHECK-NEXT:      %[[VB:.*]] = tensor.extract %[[B]][%[[L0]], %[[CB]]] : tensor<2x1xf32>
// CHECK-NEXT:      %[[LASTA:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[CA:.*]] = arith.minui %[[L1]], %[[LASTA]] : index
// CHECK-NEXT:      %[[VA:.*]] = tensor.extract %[[A]][%[[L0]], %[[CA]]] : tensor<2x3xf32>
// CHECK-NEXT:      %[[END:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[INA:.*]] = arith.cmpi ult, %[[L1]], %[[END]] : index
// CHECK-NEXT:      %[[V:.*]] = arith.select %[[INA]], %[[VA]], %[[VB]] : f32
// CHECK-NEXT:      linalg.yield %[[V]] : f32
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %r = xla.concatenate %a, %b, dimension = 1 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// pad with a negative low edge and interior padding: position p maps to operand
// index (p + 1) / 2 when (p + 1) is even and within [0, 4].
// CHECK-LABEL: func.func @pad
// CHECK-SAME:    (%[[X:.*]]: tensor<3xf32>, %[[P:.*]]: tensor<f32>)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<6xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[P]] : tensor<f32>) outs(%[[E]] : tensor<6xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[PV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[L:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[LOW:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[SH:.*]] = arith.addi %[[L]], %[[LOW]] : index
// CHECK-NEXT:      %[[SPAN:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[INSPAN:.*]] = arith.cmpi ule, %[[SH]], %[[SPAN]] : index
// CHECK-NEXT:      %[[K:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[REM:.*]] = arith.remsi %[[SH]], %[[K]] : index
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[ONGRID:.*]] = arith.cmpi eq, %[[REM]], %[[Z]] : index
// CHECK-NEXT:      %[[K2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[Q:.*]] = arith.divsi %[[SH]], %[[K2]] : index
// CHECK-NEXT:      %[[LAST:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[IDX:.*]] = arith.minui %[[Q]], %[[LAST]] : index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %[[X]][%[[IDX]]] : tensor<3xf32>
// CHECK-NEXT:      %[[OK:.*]] = arith.andi %[[INSPAN]], %[[ONGRID]] : i1
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[OK]], %[[V]], %[[PV]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @pad(%x: tensor<3xf32>, %p: tensor<f32>) -> tensor<6xf32> {
  %r = xla.pad %x, %p, edge_padding_low = [-1], edge_padding_high = [2], interior_padding = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  func.return %r : tensor<6xf32>
}

// Padding an empty operand is a fill with the padding value.
// CHECK-LABEL: func.func @pad_empty
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<2xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[PV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[PV]] : f32
func.func @pad_empty(%x: tensor<0xf32>, %p: tensor<f32>) -> tensor<2xf32> {
  %r = xla.pad %x, %p, edge_padding_low = [1], edge_padding_high = [1], interior_padding = [0] : (tensor<0xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// A pad of nothing anywhere (JAX's irfft pads its operand so) is its operand, no copy.
// CHECK-LABEL: func.func @pad_nothing
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>, %{{.*}}: tensor<f32>)
// CHECK-NEXT:    func.return %[[X]] : tensor<2x3xf32>
func.func @pad_nothing(%x: tensor<2x3xf32>, %p: tensor<f32>) -> tensor<2x3xf32> {
  %r = xla.pad %x, %p, edge_padding_low = [0, 0], edge_padding_high = [0, 0], interior_padding = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// get_tuple_element of xla.tuple and optimization_barrier forward their operands.
// CHECK-LABEL: func.func @tuples
// CHECK-SAME:    (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<i32>)
// CHECK-NEXT:    func.return %[[B]], %[[A]] : tensor<i32>, tensor<2xf32>
func.func @tuples(%a: tensor<2xf32>, %b: tensor<i32>) -> (tensor<i32>, tensor<2xf32>) {
  %t = xla.tuple %a, %b : (tensor<2xf32>, tensor<i32>) -> tuple<tensor<2xf32>, tensor<i32>>
  %e = xla.get_tuple_element %t, index = 1 : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  %o:2 = xla.optimization_barrier %a, %b : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>)
  func.return %e, %o#0 : tensor<i32>, tensor<2xf32>
}
