// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// xla.gather (jnp.take of rows): one generic over the result; the body reads the start
// index of its batch position, sign-extends it, clamps it to [0, 6 - 1] and extracts
// the operand at (start, column).
// CHECK-LABEL: func.func @take_rows
// CHECK-SAME:    (%[[X:.*]]: tensor<6x4xf32>, %[[I:.*]]: tensor<5x1xi32>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<5x4xf32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[EMPTY]] : tensor<5x4xf32>) {
// CHECK:           %[[ROW:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[COL:.*]] = linalg.index 1 : index
// CHECK:           %[[S:.*]] = tensor.extract %[[I]][%[[ROW]], %{{.*}}] : tensor<5x1xi32>
// CHECK-NEXT:      %[[W:.*]] = arith.extsi %[[S]] : i32 to i64
// CHECK-NEXT:      %[[IDX:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK-NEXT:      %[[HI:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[BELOW:.*]] = arith.minsi %[[IDX]], %[[HI]] : index
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[START:.*]] = arith.maxsi %[[BELOW]], %[[ZERO]] : index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %[[X]][%[[START]], %[[COL]]] : tensor<6x4xf32>
// CHECK-NEXT:      linalg.yield %[[V]] : f32
// CHECK:         func.return %[[G]]
func.func @take_rows(%x: tensor<6x4xf32>, %i: tensor<5x1xi32>) -> tensor<5x4xf32> {
  %r = xla.gather %x, %i, offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<6x4xf32>, tensor<5x1xi32>) -> tensor<5x4xf32>
  func.return %r : tensor<5x4xf32>
}

// Unsigned start indices (index_vector_dim = rank: an implicit trailing 1) are
// zero-extended and need only an upper clamp (here to 7 - 3 for a 3-row slice).
// CHECK-LABEL: func.func @gather_unsigned
// CHECK:         linalg.generic
// CHECK:           tensor.extract %{{.*}}[%{{.*}}] : tensor<2xi8>
// CHECK-NEXT:      arith.extui %{{.*}} : i8 to i64
// CHECK-NEXT:      arith.index_cast
// CHECK-NEXT:      arith.constant 4 : index
// CHECK-NEXT:      arith.minui
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:      tensor.extract %{{.*}} : tensor<7x3xf32>
func.func @gather_unsigned(%x: tensor<7x3xf32>, %i: tensor<2xui8>) -> tensor<2x3x2xf32> {
  %r = xla.gather %x, %i, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0], index_vector_dim = 1, slice_sizes = [3, 2] : (tensor<7x3xf32>, tensor<2xui8>) -> tensor<2x3x2xf32>
  func.return %r : tensor<2x3x2xf32>
}

// xla.scatter: a loop over the scatter indices (row-major: repeated indices are
// applied in order) carrying the result, which starts as the input; the start is
// checked with one unsigned compare (negative is out of bounds too) and an out-of-bounds
// window gets a window loop of zero trips. The window loop extracts the current and
// update values, applies the update computation inlined and inserts the new value.
// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME:    (%[[X:.*]]: tensor<6x3xf32>, %[[I:.*]]: tensor<4x1xi32>, %[[U:.*]]: tensor<4x3xf32>)
// CHECK:         %[[R:.*]] = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T:.*]] = %[[X]]) -> (tensor<6x3xf32>) {
// CHECK:           %[[S:.*]] = tensor.extract %[[I]][%[[B]], %{{.*}}] : tensor<4x1xi32>
// CHECK:           %[[START:.*]] = arith.index_cast
// CHECK-NEXT:      %[[LAST:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi ule, %[[START]], %[[LAST]] : index
// CHECK-NEXT:      %[[N:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[NONE:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[TRIPS:.*]] = arith.select %[[IN]], %[[N]], %[[NONE]] : index
// CHECK:           %[[W:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[TRIPS]] step %{{.*}} iter_args(%[[T2:.*]] = %[[T]]) -> (tensor<6x3xf32>) {
// CHECK-NEXT:        %[[CUR:.*]] = tensor.extract %[[T2]][%[[START]], %[[J]]] : tensor<6x3xf32>
// CHECK-NEXT:        %[[UPD:.*]] = tensor.extract %[[U]][%[[B]], %[[J]]] : tensor<4x3xf32>
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %[[CUR]], %[[UPD]] : f32
// CHECK-NEXT:        %[[NEW:.*]] = tensor.insert %[[SUM]] into %[[T2]][%[[START]], %[[J]]] : tensor<6x3xf32>
// CHECK-NEXT:        scf.yield %[[NEW]] : tensor<6x3xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[W]] : tensor<6x3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : tensor<6x3xf32>
func.func @scatter_add(%x: tensor<6x3xf32>, %i: tensor<4x1xi32>, %u: tensor<4x3xf32>) -> tensor<6x3xf32> {
  %r = xla.scatter (%x), %i, (%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<6x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  func.return %r : tensor<6x3xf32>
}

// Variadic scatter with every dimension inserted: the window is one element, its loop
// runs once when the start is in bounds; both results are carried, every value is
// read before any is written.
// CHECK-LABEL: func.func @scatter_variadic
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<5xf32>, tensor<5xi32>) {
// CHECK:           arith.select %{{.*}}, %[[ONE]], %{{.*}} : index
// CHECK:           scf.for %{{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (tensor<5xf32>, tensor<5xi32>) {
// CHECK-NEXT:        tensor.extract %[[A]]
// CHECK-NEXT:        tensor.extract %[[B]]
// CHECK-NEXT:        tensor.extract
// CHECK-NEXT:        tensor.extract
// CHECK:             arith.select
// CHECK-NEXT:        arith.addi
// CHECK-NEXT:        tensor.insert %{{.*}} into %[[A]]
// CHECK-NEXT:        tensor.insert %{{.*}} into %[[B]]
func.func @scatter_variadic(%v: tensor<5xf32>, %n: tensor<5xi32>, %i: tensor<3xui16>, %uv: tensor<3xf32>, %un: tensor<3xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %r:2 = xla.scatter (%v, %n), %i, (%uv, %un), update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %m = xla.maximum %a, %c : tensor<f32>
    %s = xla.add %b, %d : tensor<i32>
    xla.return %m, %s : tensor<f32>, tensor<i32>
  } : (tensor<5xf32>, tensor<5xi32>, tensor<3xui16>, tensor<3xf32>, tensor<3xi32>) -> (tensor<5xf32>, tensor<5xi32>)
  func.return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
}
