#include "lib/framework/kernel_def.h"

#include <algorithm>

namespace ort {

bool KernelDef::IsHostInput(int index) const {
  return std::find(host_inputs_.begin(), host_inputs_.end(), index) != host_inputs_.end();
}

bool KernelDef::IsShapeOnlyInput(int index) const {
  return std::find(shape_only_inputs_.begin(), shape_only_inputs_.end(), index) !=
         shape_only_inputs_.end();
}

bool KernelDef::IsHostOutput(int index) const {
  return std::find(host_outputs_.begin(), host_outputs_.end(), index) != host_outputs_.end();
}

std::string KernelDef::Describe() const {
  std::string name = domain_.empty() ? op_type_ : domain_ + ":" + op_type_;
  name += " [" + std::to_string(since_) + ", ";
  name += until_ == INT_MAX ? std::string("latest") : std::to_string(until_);
  return name + "]";
}

}  // namespace ort
