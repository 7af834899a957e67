// OpTester: runs one node through a real session on the CPU provider and checks its outputs
// against expected values computed independently (hand-derived or numpy-generated).
//   OpTester("Add", 14).Input<float>("a", {2}, {1, 2}).Input<float>("b", {2}, {3, 4})
//       .Output<float>("c", {2}, {4, 6}).Run();
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/io/compare.h"
#include "lib/ir/attribute.h"
#include "lib/ir/value.h"

namespace ort::test {

class OpTester {
 public:
  explicit OpTester(std::string op_type, int opset = 17, std::string domain = "");

  OpTester& Attr(Attribute attribute);
  OpTester& AttrInt(std::string name, int64_t value) {
    return Attr(Attribute::Int(std::move(name), value));
  }
  OpTester& AttrFloat(std::string name, float value) {
    return Attr(Attribute::Float(std::move(name), value));
  }
  OpTester& AttrString(std::string name, std::string value) {
    return Attr(Attribute::String(std::move(name), std::move(value)));
  }
  OpTester& AttrInts(std::string name, std::vector<int64_t> values) {
    return Attr(Attribute::Ints(std::move(name), std::move(values)));
  }
  OpTester& AttrFloats(std::string name, std::vector<float> values) {
    return Attr(Attribute::Floats(std::move(name), std::move(values)));
  }

  /// A graph input fed at run time.
  template <typename T>
  OpTester& Input(std::string name, std::vector<int64_t> dims, std::vector<T> values) {
    return AddInput(std::move(name), MakeTensor<T>(std::move(dims), values), false);
  }
  /// A constant initializer input (exercises constant-input paths such as pre-packing).
  template <typename T>
  OpTester& ConstantInput(std::string name, std::vector<int64_t> dims, std::vector<T> values) {
    return AddInput(std::move(name), MakeTensor<T>(std::move(dims), values), true);
  }
  OpTester& TensorInput(std::string name, Tensor tensor, bool constant = false) {
    return AddInput(std::move(name), std::move(tensor), constant);
  }
  /// An omitted optional input ("").
  OpTester& OmittedInput();

  template <typename T>
  OpTester& Output(std::string name, std::vector<int64_t> dims, std::vector<T> values) {
    return TensorOutput(std::move(name), MakeTensor<T>(std::move(dims), values));
  }
  OpTester& TensorOutput(std::string name, Tensor expected);
  /// An output the node produces but the test does not check.
  OpTester& UncheckedOutput(std::string name);
  /// An omitted optional output ("").
  OpTester& OmittedOutput();

  OpTester& SetTolerance(double rtol, double atol);
  OpTester& Threads(int intra_op_threads);

  /// Runs the node and CHECKs every output against its expected value.
  void Run();
  /// Runs the node and CHECKs that it fails with a message containing `substring`.
  void RunExpectingError(const std::string& substring);

  template <typename T>
  static Tensor MakeTensor(std::vector<int64_t> dims, const std::vector<T>& values) {
    return Tensor::FromVector<T>(TensorShape(std::move(dims)),
                                 std::span<const T>(values.data(), values.size()));
  }
  /// A float8 tensor (`type` one of the four float8 types) holding the given byte codes.
  static Tensor MakeFloat8(DataType type, std::vector<int64_t> dims,
                           const std::vector<uint8_t>& codes);
  /// An int4 or uint4 tensor holding `values`, packed two per byte.
  static Tensor MakeFourBit(DataType type, std::vector<int64_t> dims,
                            const std::vector<int>& values);

 private:
  struct InputSpec {
    std::string name;
    Tensor tensor;
    bool constant = false;
  };
  struct OutputSpec {
    std::string name;
    Tensor expected;  // undefined when unchecked
  };
  OpTester& AddInput(std::string name, Tensor tensor, bool constant);
  /// Builds the one-node model (consuming the attributes: a tester runs once) and runs it.
  Status Execute(std::vector<Value>* outputs);

  std::string op_type_;
  int opset_;
  std::string domain_;
  std::vector<Attribute> attributes_;
  std::vector<InputSpec> inputs_;
  std::vector<OutputSpec> outputs_;
  Tolerance tolerance_{1e-4, 1e-5};
  int threads_ = 1;
};

template <>
inline Tensor OpTester::MakeTensor<bool>(std::vector<int64_t> dims,
                                         const std::vector<bool>& values) {
  Tensor tensor = Tensor::Allocate(DataType::kBool, TensorShape(std::move(dims))).value();
  bool* data = tensor.MutableData<bool>();
  for (size_t i = 0; i < values.size(); ++i) data[i] = values[i];
  return tensor;
}

}  // namespace ort::test
