// KernelDef: what a kernel implements, keyed like ONNX Runtime's: (domain, op type, opset version
// range, type constraints). Written once, next to the kernel:
//   registry.Add<Relu>(KernelDef("Relu").Versions(6, 12).Input(0, FloatTypes::DataTypes()));
#pragma once

#include <climits>
#include <string>
#include <utility>
#include <vector>

#include "lib/ir/data_type.h"
#include "lib/ir/graph.h"

namespace ort {

/// Allowed element types for one formal input or output.
struct TypeConstraint {
  bool is_output = false;
  int index = 0;
  std::vector<DataType> allowed;
};

class KernelDef {
 public:
  explicit KernelDef(std::string op_type, std::string domain = "")
      : op_type_(std::move(op_type)), domain_(std::move(domain)) {}

  /// Opset versions [since, until] of the node's domain this kernel serves (inclusive). Close the
  /// range where a newer opset changed the op; leave `until` open for the newest version.
  KernelDef& Versions(int since, int until = INT_MAX) {
    since_ = since;
    until_ = until;
    return *this;
  }
  /// Input `index` must have one of `types` (checked when the type is known at load).
  KernelDef& Input(int index, std::vector<DataType> types) {
    constraints_.push_back({false, index, std::move(types)});
    return *this;
  }
  KernelDef& Output(int index, std::vector<DataType> types) {
    constraints_.push_back({true, index, std::move(types)});
    return *this;
  }
  /// Input `index` is read on the host (a shape, axes, ...), whatever the provider's device.
  KernelDef& HostInput(int index) {
    host_inputs_.push_back(index);
    return *this;
  }
  /// Only the shape and type of input `index` are read (Shape, Size): it is used wherever it
  /// lives and never copied between devices for this kernel.
  KernelDef& ShapeOnlyInput(int index) {
    shape_only_inputs_.push_back(index);
    return *this;
  }
  /// Output `index` is produced on the host.
  KernelDef& HostOutput(int index) {
    host_outputs_.push_back(index);
    return *this;
  }

  /// Output `output` may be written over input `input` when that input dies at this node: the
  /// kernel reads each input element before writing the output element at the same position.
  KernelDef& MayInplace(int input, int output) {
    in_place_.emplace_back(input, output);
    return *this;
  }

  /// Output `output` is always a view of input `input`'s memory (Reshape): the planner gives it
  /// that input's buffer and keeps the buffer until both are dead, instead of planning memory the
  /// kernel never writes.
  KernelDef& Alias(int input, int output) {
    aliases_.emplace_back(input, output);
    return *this;
  }

  const std::string& op_type() const { return op_type_; }
  const std::string& domain() const { return domain_; }
  int since() const { return since_; }
  int until() const { return until_; }
  const std::vector<TypeConstraint>& constraints() const { return constraints_; }
  const std::vector<int>& host_inputs() const { return host_inputs_; }
  const std::vector<int>& host_outputs() const { return host_outputs_; }
  const std::vector<std::pair<int, int>>& in_place() const { return in_place_; }
  const std::vector<std::pair<int, int>>& aliases() const { return aliases_; }
  bool IsHostInput(int index) const;
  bool IsHostOutput(int index) const;
  bool IsShapeOnlyInput(int index) const;

  /// "Relu [6, 12]" for messages.
  std::string Describe() const;

 private:
  std::string op_type_;
  std::string domain_;
  int since_ = 1;
  int until_ = INT_MAX;
  std::vector<TypeConstraint> constraints_;
  std::vector<int> host_inputs_;
  std::vector<int> shape_only_inputs_;
  std::vector<int> host_outputs_;
  std::vector<std::pair<int, int>> in_place_;
  std::vector<std::pair<int, int>> aliases_;
};

}  // namespace ort
