// SessionOptions::max_tensor_bytes: a tensor above it is an error naming the node, output and
// sizes; free dimension overrides that no feed could satisfy fail at initialization.
#include <catch2/catch.hpp>

#include "lib/ir/model.h"
#include "lib/session/inference_session.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort {
namespace {

using test::BatchedAddModel;

Status RunTwoRows(InferenceSession& session) {
  std::vector<NamedValue> feeds{
      {"a", Value(Tensor::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}))}};
  std::vector<Value> outputs;
  return session.Run({}, feeds, {}, &outputs);
}

}  // namespace

TEST_CASE("Outputs above max_tensor_bytes are an error naming the node", "[session]") {
  SessionOptions options;
  options.optimization_level = OptimizationLevel::kDisable;
  options.max_tensor_bytes = 23;  // the output is 2 x 3 floats: 24 bytes
  auto session = test::MakeCpuSession(BatchedAddModel(), options);
  const Status status = RunTwoRows(*session);
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.message(),
             Catch::Contains("node 'add' (Add): output 'out' (float[2,3]) would need 24 bytes, "
                             "above the max-tensor-bytes limit of 23 bytes"));

  options.max_tensor_bytes = 24;
  CHECK(RunTwoRows(*test::MakeCpuSession(BatchedAddModel(), options)).ok());
}

TEST_CASE("Free dimension overrides past int64 or the limit fail initialization", "[session]") {
  for (const int64_t batch : {int64_t{1} << 62, int64_t{1} << 40}) {
    SessionOptions options;
    options.free_dimension_overrides["batch"] = batch;
    options.max_tensor_bytes = size_t{1} << 40;
    InferenceSession session(options);
    REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
    REQUIRE(session.Load(BatchedAddModel()).ok());
    const Status status = session.Initialize();
    REQUIRE_FALSE(status.ok());
    CHECK_THAT(status.message(), Catch::Contains("input 'a'"));
    CHECK_THAT(status.message(), Catch::Contains("max-tensor-bytes limit of 1 TiB"));
  }
}

}  // namespace ort
