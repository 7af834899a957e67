// SessionState::PlanMemory: describes the state's slots and nodes to the allocation planner
// (lib/memory/allocation_planner.h) and keeps what each node needs from the plan at run time.
#include <algorithm>

#include "lib/common/logging.h"
#include "lib/session/session_state.h"
#include "lib/shape/dim_expr.h"

namespace ort {
namespace {

// What the planner needs to know about a value from its static type: a flat tensor's element
// size, its byte size when the shape is static, and a key that matches only equal sizes: the
// element count as a canonical expression, so that [batch,seq,768], its [batch*seq,768] reshape
// and its [batch,seq,12,64] head split all match. Strings and the packed 4-bit types (no
// per-element size) are left to the allocator.
void DescribeType(const ValueType* type, PlannerValue& value) {
  if (type == nullptr || !type->IsTensor() || type->elem_type == DataType::kString ||
      ElementSize(type->elem_type) == 0) {
    return;
  }
  value.element_size = ElementSize(type->elem_type);
  if (!type->shape) return;
  if (auto shape = ToConcreteShape(*type->shape)) {
    // A static size past int64 bytes is no size at all: the kernel fails on it at run time.
    if (auto bytes = TensorBytes(type->elem_type, *shape); bytes.ok()) value.static_bytes = *bytes;
    return;
  }
  // Named symbols vouch for equal sizes; an anonymous unknown dimension vouches for nothing.
  std::vector<DimExpr> dims;
  for (const Dimension& dim : *type->shape) {
    if (dim.IsKnown()) {
      dims.push_back(DimExpr::Constant(dim.value));
    } else if (!dim.param.empty()) {
      dims.push_back(ParseDimExpr(dim.param).value_or(DimExpr::Symbol(dim.param)));
    } else {
      return;
    }
  }
  if (auto elements = Product(dims)) value.shape_key = elements->ToString();
}

}  // namespace

Status SessionState::PlanMemory() {
  std::vector<std::string> names(slot_count_);
  for (const auto& [name, slot] : slots_) names[slot] = name;

  PlannerInput input;
  std::vector<bool> listed(slot_count_, false);
  std::vector<MemoryInfo> location(slot_count_);
  for (const NodePlan& plan : plans_) {
    for (size_t i = 0; i < plan.outputs.size(); ++i) {
      const auto& allocator = plan.output_allocators[i];
      if (std::find(allocators_.begin(), allocators_.end(), allocator) == allocators_.end()) {
        allocators_.push_back(allocator);
      }
      location[plan.outputs[i]] = allocator->Info();
    }
  }
  auto list = [&](int slot) {
    if (slot < 0 || listed[slot]) return;
    listed[slot] = true;
    PlannerValue value;
    value.id = slot;
    value.name = names[slot];
    value.kept = kept_[slot];
    value.location = location[slot];
    if (!value.name.empty()) DescribeType(graph_.FindTypeInScope(value.name), value);
    input.values.push_back(std::move(value));
  };

  for (const NodePlan& plan : plans_) {
    PlannerNode node;
    node.name = plan.node->name();
    for (int slot : plan.inputs) node.inputs.push_back(slot);
    for (int slot : plan.implicit_inputs) node.inputs.push_back(slot);
    for (size_t i = 0; i < plan.outputs.size(); ++i) {
      // An omitted output's private slot is released right after the node; nothing plans it.
      node.outputs.push_back(plan.node->HasOutput(i) ? plan.outputs[i] : -1);
    }
    for (const auto& [in, out] : plan.in_place_candidates) {
      if (static_cast<size_t>(in) < plan.inputs.size() &&
          static_cast<size_t>(out) < plan.outputs.size()) {
        node.in_place_candidates.emplace_back(in, out);
      }
    }
    for (const auto& [in, out] : plan.aliases) {
      if (static_cast<size_t>(in) < plan.inputs.size() &&
          static_cast<size_t>(out) < plan.outputs.size()) {
        node.aliases.emplace_back(in, out);
      }
    }
    for (int slot : node.inputs) list(slot);
    for (int slot : node.outputs) list(slot);
    input.nodes.push_back(std::move(node));
  }
  for (int slot : output_slots_) list(slot);

  auto plan = PlanAllocations(input);
  if (!plan.ok()) return plan.status().WithContext(fmt::format("graph '{}'", graph_.name()));
  allocation_plan_ = std::move(plan).value();

  for (size_t position = 0; position < plans_.size(); ++position) {
    NodePlan& node_plan = plans_[position];
    for (size_t i = 0; i < node_plan.outputs.size(); ++i) {
      const int value = node_plan.node->HasOutput(i) ? node_plan.outputs[i] : -1;
      node_plan.memory.output_buffers.push_back(allocation_plan_.BufferOf(value));
    }
  }
  for (const InPlaceReuse& reuse : allocation_plan_.in_place) {
    NodePlan& node_plan = plans_[reuse.node];
    const auto& ins = node_plan.inputs;
    const auto& outs = node_plan.outputs;
    const size_t in =
        static_cast<size_t>(std::find(ins.begin(), ins.end(), reuse.input) - ins.begin());
    const size_t out =
        static_cast<size_t>(std::find(outs.begin(), outs.end(), reuse.output) - outs.begin());
    if (in < ins.size() && out < outs.size()) node_plan.memory.in_place.emplace_back(in, out);
  }
  if (Logger().should_log(spdlog::level::debug)) {
    ORT_LOG_VERBOSE("graph '{}' {}", graph_.name(), allocation_plan_.Describe());
  }
  return Status::OK();
}

}  // namespace ort
