#include "lib/optimizer/shape_reads.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// A constant, or a dimension of an anchor equal to `dim`.
std::optional<ShapeElementSource> Resolve(SymbolicShapes& shapes, const DimExpr& dim,
                                          const std::vector<std::string>& anchors) {
  if (const auto constant = dim.AsConstant()) return ShapeElementSource{constant, "", 0, {}, dim};
  for (const auto& anchor : anchors) {
    const auto& shape = shapes.Facts(anchor).shape;
    if (!shape) continue;
    for (size_t axis = 0; axis < shape->size(); ++axis) {
      if ((*shape)[axis] == dim) {
        return ShapeElementSource{std::nullopt, anchor, static_cast<int64_t>(axis), {}, dim};
      }
    }
  }
  return std::nullopt;
}

// The bound e of a Slice [0, e) step 1 along `axis` of `slice` (of a rank-`rank` input).
std::optional<int64_t> SliceBound(const Graph& graph, const Node& slice, size_t axis, size_t rank) {
  if (graph.OpsetVersion("") < 10 || !slice.HasInput(3)) return std::nullopt;
  const auto starts = ConstantInts(graph, slice, 1), ends = ConstantInts(graph, slice, 2);
  const auto axes = ConstantInts(graph, slice, 3);
  const auto steps = slice.HasInput(4) ? ConstantInts(graph, slice, 4)
                                       : std::optional<std::vector<int64_t>>(
                                             std::vector<int64_t>(starts ? starts->size() : 0, 1));
  if (!starts || !ends || !axes || !steps || starts->size() != axes->size() ||
      ends->size() != axes->size() || steps->size() != axes->size()) {
    return std::nullopt;
  }
  const auto signed_rank = static_cast<int64_t>(rank);
  for (size_t i = 0; i < axes->size(); ++i) {
    const int64_t a = (*axes)[i] < 0 ? (*axes)[i] + signed_rank : (*axes)[i];
    if (a != static_cast<int64_t>(axis)) continue;
    if ((*starts)[i] != 0 || (*steps)[i] != 1 || (*ends)[i] < 1) return std::nullopt;
    return (*ends)[i];
  }
  return std::nullopt;
}

std::optional<std::vector<ShapeElementSource>> SourcesOf(const Graph& graph, SymbolicShapes& shapes,
                                                         const std::string& value,
                                                         const std::vector<std::string>& anchors,
                                                         int depth) {
  const auto& shape = shapes.Facts(value).shape;
  if (!shape) return std::nullopt;
  const std::vector<DimExpr> dims = *shape;
  std::vector<ShapeElementSource> sources;
  std::optional<std::vector<ShapeElementSource>> sliced;
  const Node* slice = graph.Producer(value);
  for (size_t axis = 0; axis < dims.size(); ++axis) {
    if (auto source = Resolve(shapes, dims[axis], anchors)) {
      sources.push_back(std::move(*source));
      continue;
    }
    // Inference cannot tell min(d, e) for a symbolic d; the slice's input may tell d.
    if (depth == 0 || !IsOnnxOp(slice, "Slice")) return std::nullopt;
    const auto bound = SliceBound(graph, *slice, axis, dims.size());
    if (!bound) return std::nullopt;
    if (!sliced) sliced = SourcesOf(graph, shapes, slice->inputs()[0], anchors, depth - 1);
    if (!sliced || sliced->size() != dims.size()) return std::nullopt;
    ShapeElementSource source = (*sliced)[axis];
    if (source.constant || source.bound) return std::nullopt;
    source.bound = bound;
    sources.push_back(std::move(source));
  }
  return sources;
}

// The indices of a Gather(axis 0) reading a shape vector of `rank` elements, and whether they
// are a scalar; nullopt unless constant and in range.
std::optional<std::pair<std::vector<int64_t>, bool>> GatherIndices(const Graph& graph,
                                                                   const Node& gather,
                                                                   const std::string& data,
                                                                   size_t rank) {
  const Attribute* axis = gather.FindAttribute("axis");
  if (!IsOnnxOp(&gather, "Gather") || (axis != nullptr && axis->i != 0) ||
      gather.inputs().size() != 2 || gather.inputs()[0] != data || gather.inputs()[1] == data) {
    return std::nullopt;
  }
  const Tensor* tensor = graph.GetConstantInitializer(gather.inputs()[1], true);
  auto indices = ConstantInts(graph, gather, 1);
  if (tensor == nullptr || !indices || tensor->shape().rank() > 1) return std::nullopt;
  const auto signed_rank = static_cast<int64_t>(rank);
  for (int64_t& index : *indices) {
    if (index < 0) index += signed_rank;
    if (index < 0 || index >= signed_rank) return std::nullopt;
  }
  return std::make_pair(std::move(*indices), tensor->shape().rank() == 0);
}

// Adds the targets of the Shape node `shape` (its Gathers', or its own) to `reads`.
bool PlanShape(const Graph& graph, SymbolicShapes& shapes, const Node& shape,
               const std::vector<std::string>& anchors, ShapeReads& reads) {
  if (shape.FindAttribute("start") != nullptr || shape.FindAttribute("end") != nullptr) {
    return false;
  }
  const auto sources = ShapeSources(graph, shapes, shape.inputs()[0], anchors);
  const std::string& output = shape.outputs()[0];
  if (!sources || graph.IsGraphOutput(output)) return false;
  std::vector<ShapeReads::Target> gathered;
  std::vector<const Node*> gathers;
  for (const Node* reader : graph.Consumers(output)) {
    const auto indices = GatherIndices(graph, *reader, output, sources->size());
    if (!indices || graph.IsGraphOutput(reader->outputs()[0])) {
      gathers.clear();
      break;
    }
    ShapeReads::Target target{reader->outputs()[0], {}, indices->second};
    for (int64_t index : indices->first) target.elements.push_back((*sources)[index]);
    gathered.push_back(std::move(target));
    gathers.push_back(reader);
  }
  if (gathers.empty()) {
    reads.targets.push_back({output, *sources, false});
  } else {
    reads.targets.insert(reads.targets.end(), gathered.begin(), gathered.end());
    reads.chain.insert(reads.chain.end(), gathers.begin(), gathers.end());
  }
  reads.chain.push_back(&shape);
  return true;
}

// Adds the chain from `reader` (a reader of a value that goes) to its Shape nodes to `reads`.
bool PlanReader(const Graph& graph, SymbolicShapes& shapes, const Node& reader,
                const std::vector<std::string>& anchors, ShapeReads& reads, int depth) {
  if (IsOnnxOp(&reader, "Shape")) return PlanShape(graph, shapes, reader, anchors, reads);
  if (depth == 0 || (!IsOnnxOp(&reader, "Slice") && !IsOnnxOp(&reader, "Transpose"))) return false;
  const std::string& output = reader.outputs()[0];
  if (graph.IsGraphOutput(output)) return false;
  for (const Node* next : graph.Consumers(output)) {
    if (next->inputs().empty() || next->inputs()[0] != output ||
        !PlanReader(graph, shapes, *next, anchors, reads, depth - 1))
      return false;
  }
  reads.chain.push_back(&reader);
  return true;
}

// Int64 values built from anchors' shapes, one Shape node per anchor.
class ShapeBuilder {
 public:
  explicit ShapeBuilder(Graph& graph) : graph_(graph) {}

  std::string Build(const ShapeReads::Target& target) {
    if (target.scalar) return Element(target.elements.front(), true);
    std::vector<std::string> pieces;
    const auto& elements = target.elements;
    for (size_t i = 0; i < elements.size();) {
      size_t end = i + 1;
      const auto same_kind = [&](const ShapeElementSource& e) {
        const ShapeElementSource& first = elements[i];
        if (first.bound || e.bound) return false;
        return first.constant ? e.constant.has_value() : !e.constant && e.anchor == first.anchor;
      };
      while (end < elements.size() && same_kind(elements[end])) ++end;
      if (elements[i].constant) {
        std::vector<int64_t> values;
        for (size_t j = i; j < end; ++j) values.push_back(*elements[j].constant);
        pieces.push_back(Constant(values, false));
      } else if (elements[i].bound) {
        pieces.push_back(Element(elements[i], false));
      } else {
        std::vector<int64_t> axes;
        for (size_t j = i; j < end; ++j) axes.push_back(elements[j].axis);
        pieces.push_back(Gather(elements[i].anchor, axes, false));
      }
      i = end;
    }
    if (pieces.size() == 1) return pieces.front();
    const std::string output = graph_.UniqueValueName("shape_concat");
    AddNode("ShapeConcat", "Concat", pieces, output, true);
    SetType(output, static_cast<int64_t>(elements.size()), false);
    return output;
  }

 private:
  void AddNode(std::string_view name, std::string op_type, std::vector<std::string> inputs,
               const std::string& output, bool axis0) {
    NodeSpec spec;
    spec.name = graph_.UniqueNodeName(name);
    spec.op_type = std::move(op_type);
    spec.inputs = std::move(inputs);
    spec.outputs = {output};
    if (axis0) spec.attributes.push_back(Attribute::Int("axis", 0));
    graph_.AddNode(std::move(spec));
  }

  void SetType(const std::string& value, int64_t length, bool scalar) {
    graph_.SetValueType(value, ValueType::Tensor(DataType::kInt64,
                                                 scalar ? SymbolicShape{}
                                                        : SymbolicShape{Dimension::Known(length)}));
  }

  std::string Constant(const std::vector<int64_t>& values, bool scalar) {
    const std::string name = graph_.UniqueValueName("shape_constant");
    graph_.AddInitializer(
        name, scalar ? Tensor::Scalar<int64_t>(values.front())
                     : Tensor::FromVector<int64_t>({static_cast<int64_t>(values.size())},
                                                   std::span<const int64_t>(values)));
    return name;
  }

  std::string Gather(const std::string& anchor, const std::vector<int64_t>& axes, bool scalar) {
    auto [shape, added] = shapes_.try_emplace(anchor);
    if (added) {
      shape->second = graph_.UniqueValueName(fmt::format("{}_shape", anchor));
      AddNode("AnchorShape", "Shape", {anchor}, shape->second, false);
      const ValueType* type = graph_.FindTypeInScope(anchor);
      const auto rank =
          type != nullptr && type->shape ? static_cast<int64_t>(type->shape->size()) : int64_t{0};
      if (rank > 0) SetType(shape->second, rank, false);
    }
    const std::string output = graph_.UniqueValueName(fmt::format("{}_dims", anchor));
    AddNode("AnchorDims", "Gather", {shape->second, Constant(axes, scalar)}, output, true);
    SetType(output, static_cast<int64_t>(axes.size()), scalar);
    return output;
  }

  std::string Element(const ShapeElementSource& element, bool scalar) {
    if (element.constant) return Constant({*element.constant}, scalar);
    std::string dim = Gather(element.anchor, {element.axis}, scalar);
    if (!element.bound) return dim;
    const std::string output = graph_.UniqueValueName(fmt::format("{}_bounded", dim));
    AddNode("BoundedDim", "Min", {dim, Constant({*element.bound}, scalar)}, output, false);
    SetType(output, 1, scalar);
    return output;
  }

  Graph& graph_;
  std::map<std::string, std::string> shapes_;
};

}  // namespace

std::optional<std::vector<ShapeElementSource>> ShapeSources(
    const Graph& graph, SymbolicShapes& shapes, const std::string& value,
    const std::vector<std::string>& anchors) {
  return SourcesOf(graph, shapes, value, anchors, 2);
}

std::optional<ShapeReads> PlanShapeReads(const Graph& graph, SymbolicShapes& shapes,
                                         const std::vector<std::string>& values,
                                         const std::vector<const Node*>& fused,
                                         const std::vector<std::string>& anchors) {
  // Min of int64 shape elements needs opset 12.
  if (graph.OpsetVersion("") < 12) return std::nullopt;
  ShapeReads reads;
  for (const auto& value : values) {
    if (value.empty()) continue;
    if (graph.IsGraphOutput(value)) return std::nullopt;
    for (const Node* reader : graph.Consumers(value)) {
      if (std::find(fused.begin(), fused.end(), reader) != fused.end() ||
          std::find(reads.readers.begin(), reads.readers.end(), reader) != reads.readers.end()) {
        continue;
      }
      if (reader->inputs().empty() || reader->inputs()[0] != value ||
          !PlanReader(graph, shapes, *reader, anchors, reads, 3)) {
        return std::nullopt;
      }
      reads.readers.push_back(reader);
    }
  }
  return reads;
}

void ApplyShapeReads(Graph& graph, const ShapeReads& reads) {
  ShapeBuilder builder(graph);
  for (const auto& target : reads.targets)
    graph.ReplaceAllUses(target.value, builder.Build(target));
  for (const Node* node : reads.chain) RemoveIfUnused(graph, *node);
}

void RemoveUnlessDataRead(Graph& graph, const std::vector<const Node*>& nodes,
                          const std::vector<std::string>& anchors) {
  for (const Node* node : nodes) {
    const bool read =
        std::any_of(node->outputs().begin(), node->outputs().end(), [&](const std::string& output) {
          return !output.empty() && !graph.Consumers(output).empty();
        });
    if (read) {
      SymbolicShapes shapes(graph);
      const auto reads = PlanShapeReads(graph, shapes, node->outputs(), {}, anchors);
      if (reads) ApplyShapeReads(graph, *reads);
    }
    RemoveIfUnused(graph, *node);
  }
}

}  // namespace ort
