// RUN: not xla-opt %s -p convert-xla-to-linalg 2>&1 | filecheck %s

// Complex dots stay on the interpreter: the linear-algebra lowering multiplies and accumulates real numbers only.
// CHECK: error: 'xla.dot' op is not lowered to linalg: complex<f32> values run on the interpreter only
func.func @complex_dot(%a: tensor<2xcomplex<f32>>, %b: tensor<2xcomplex<f32>>) -> tensor<complex<f32>> {
  %r = xla.dot %a, %b : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<complex<f32>>
  func.return %r : tensor<complex<f32>>
}
