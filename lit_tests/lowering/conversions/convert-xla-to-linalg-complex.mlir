// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// Complex numbers: element-wise ops take them apart (complex.re/im) and compute with
// numpy's algorithms on the parts; the C library's functions stay complex ops (called
// by convert-to-llvm). Constants keep their dense complex value.

// CHECK-LABEL: func.func @multiply
// CHECK:       linalg.generic
// CHECK:       ^bb0(%[[A:.*]]: complex<f32>, %[[B:.*]]: complex<f32>, %{{.*}}: complex<f32>):
// CHECK-DAG:     %[[AR:.*]] = complex.re %[[A]] : complex<f32>
// CHECK-DAG:     %[[AI:.*]] = complex.im %[[A]] : complex<f32>
// CHECK-DAG:     %[[BR:.*]] = complex.re %[[B]] : complex<f32>
// CHECK-DAG:     %[[BI:.*]] = complex.im %[[B]] : complex<f32>
// CHECK:         %[[II:.*]] = arith.mulf %[[AI]], %[[BI]] : f32
// CHECK:         %[[NEG:.*]] = arith.negf %[[II]] : f32
// CHECK:         %[[RE:.*]] = math.fma %[[AR]], %[[BR]], %[[NEG]] : f32
// CHECK:         %[[IR:.*]] = arith.mulf %[[AI]], %[[BR]] : f32
// CHECK:         %[[IM:.*]] = math.fma %[[AR]], %[[BI]], %[[IR]] : f32
// CHECK:         %[[Z:.*]] = complex.create %[[RE]], %[[IM]] : complex<f32>
// CHECK:         linalg.yield %[[Z]] : complex<f32>
func.func @multiply(%a: tensor<2xcomplex<f32>>, %b: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %r = xla.multiply %a, %b : tensor<2xcomplex<f32>>
  func.return %r : tensor<2xcomplex<f32>>
}

// CHECK-LABEL: func.func @exponential
// CHECK:       ^bb0(%[[X:.*]]: complex<f64>, %{{.*}}: complex<f64>):
// CHECK-NEXT:    %[[E:.*]] = complex.exp %[[X]] : complex<f64>
// CHECK-NEXT:    linalg.yield %[[E]] : complex<f64>
func.func @exponential(%a: tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
  %r = xla.exponential %a : tensor<2xcomplex<f64>>
  func.return %r : tensor<2xcomplex<f64>>
}

// CHECK-LABEL: func.func @real_to_complex
// CHECK:         %[[F:.*]] = arith.sitofp %{{.*}} : i32 to f32
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         complex.create %[[F]], %[[ZERO]] : complex<f32>
func.func @real_to_complex(%a: tensor<2xi32>) -> tensor<2xcomplex<f32>> {
  %r = xla.convert %a : (tensor<2xi32>) -> tensor<2xcomplex<f32>>
  func.return %r : tensor<2xcomplex<f32>>
}

// CHECK-LABEL: func.func @constant
// CHECK:         arith.constant dense<[(1.000000e+00,2.000000e+00), (-5.000000e-01,0.000000e+00)]> : tensor<2xcomplex<f32>>
func.func @constant() -> tensor<2xcomplex<f32>> {
  %c = xla.constant dense<[(1.0, 2.0), (-0.5, 0.0)]> : tensor<2xcomplex<f32>>
  func.return %c : tensor<2xcomplex<f32>>
}

// bitcast_convert between widths (little endian): to a narrower type, element k of
// the new minor dimension is bits [8k, 8k + 8) of the operand's element ...
// CHECK-LABEL: func.func @to_bytes
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:         %[[K:.*]] = linalg.index 1 : index
// CHECK:         %[[KI:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK:         %[[SHIFT:.*]] = arith.muli %[[KI]], %{{.*}} : i32
// CHECK:         %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK:         %[[SHIFTED:.*]] = arith.shrui %[[BITS]], %[[SHIFT]] : i32
// CHECK:         arith.trunci %[[SHIFTED]] : i32 to i8
func.func @to_bytes(%a: tensor<2xf32>) -> tensor<2x4xi8> {
  %r = xla.bitcast_convert %a : (tensor<2xf32>) -> tensor<2x4xi8>
  func.return %r : tensor<2x4xi8>
}

// ... to a wider type, the minor dimension's elements are read and joined, the first
// the lowest bits.
// CHECK-LABEL: func.func @from_words
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>]
// CHECK:         %[[LO:.*]] = tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<3x2xi32>
// CHECK:         %[[HI:.*]] = tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<3x2xi32>
// CHECK:         %[[LOW:.*]] = arith.extui %[[LO]] : i32 to i64
// CHECK:         %[[HIGH:.*]] = arith.extui %[[HI]] : i32 to i64
// CHECK:         %[[UP:.*]] = arith.shli %[[HIGH]], %{{.*}} : i64
// CHECK:         %[[JOINED:.*]] = arith.ori %[[LOW]], %[[UP]] : i64
// CHECK:         arith.bitcast %[[JOINED]] : i64 to f64
func.func @from_words(%a: tensor<3x2xi32>) -> tensor<3xf64> {
  %r = xla.bitcast_convert %a : (tensor<3x2xi32>) -> tensor<3xf64>
  func.return %r : tensor<3xf64>
}
