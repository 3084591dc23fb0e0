// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file --verify-diagnostics

// A malformed GSPMD sharding string.
module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  // expected-error @+1 {{malformed mhlo.sharding: sharding '{devices=[2,2]<=[3]}': <=[3] holds 3 devices but the tiles are 4}}
  func.func @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,2]<=[3]}"}) -> tensor<8x4xf32> {
    return %arg0 : tensor<8x4xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    // expected-error @+1 {{malformed mhlo.sharding: sharding '{replicatd}': unexpected 'replicatd'}}
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{replicatd}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

// A sharding over another number of devices than the program's.
module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    // expected-error @+1 {{mhlo.sharding '{devices=[2,1]<=[2]}' spans 2 devices but the program has 4}}
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

// A tile shape of another rank than the tensor's.
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  // expected-error @+1 {{mhlo.sharding {devices=[2,1,1]<=[2]} has 3 tile dimensions for a tensor of rank 2 (tensor<8x4xf32>)}}
  func.func @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1,1]<=[2]}"}) -> tensor<8x4xf32> {
    return %arg0 : tensor<8x4xf32>
  }
}

// -----

// A Shardy mesh of another device count than the program's.
module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  // expected-error @+1 {{mesh @mesh has 2 devices but the program has 4 (mhlo.num_partitions * mhlo.num_replicas)}}
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}

// -----

// A shard_map entry without the Sharding custom call that says how its operand is sharded.
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{SPMDFullToShardShape's operand is no Sharding custom call: its sharding is unknown}}
    %0 = stablehlo.custom_call @SPMDFullToShardShape(%arg0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
    %1 = stablehlo.custom_call @SPMDShardToFullShape(%0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<4xf32>) -> tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}

// -----

// A manual region whose ops use a value from outside it.
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
    // expected-error @+1 {{a manual region's op uses a value from outside the region, not through SPMDFullToShardShape}}
    %2 = stablehlo.add %1, %arg1 : tensor<4xf32>
    %3 = stablehlo.custom_call @SPMDShardToFullShape(%2) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<4xf32>) -> tensor<8xf32>
    return %3 : tensor<8xf32>
  }
}

// -----

// A shard shape the region's sharding does not give.
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error @+1 {{body argument #0 has type tensor<2xf32>, but the operand's local type over manual axes {"_axis_0"} is tensor<4xf32> (global tensor<8xf32>)}}
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
    %2 = stablehlo.custom_call @SPMDShardToFullShape(%1) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<2xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}
