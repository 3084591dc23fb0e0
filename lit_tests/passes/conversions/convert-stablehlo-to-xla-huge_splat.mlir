// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s
// RUN: xla-opt %s -p convert-stablehlo-to-xla -t stablehlo | filecheck %s --check-prefix=EXPORT

// A splat of 78 GiB stays one value through parse, import, verify and print (issue 13).
// CHECK: xla.constant dense<1.000000e+00> : tensor<512x1x6400x6400xf32>
// EXPORT: "stablehlo.constant"() <{value = dense<1.0e+00> : tensor<512x1x6400x6400xf32>}>
func.func @main() -> tensor<512x1x6400x6400xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<512x1x6400x6400xf32>
  return %0 : tensor<512x1x6400x6400xf32>
}
