// Building models and running single nodes on the CUDA provider in tests; every test needing a GPU
// starts with `if (!HasGpu()) return;` (Catch2 v2 has no SKIP), which warns once why it did not
// run. Partitioning needs no device.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lib/ir/attribute.h"
#include "lib/ir/model.h"
#include "lib/ir/tensor.h"
#include "providers/cpu/cpu_provider.h"
#include "providers/cuda/cuda_provider.h"

namespace ort {

/// Named tensors: a model's inputs and their feeds.
using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

/// Whether a CUDA device can be used; warns with the reason when not.
bool HasGpu();

/// A tensor type of known `dims`.
ValueType KnownTensorType(DataType type, const std::vector<int64_t>& dims);

/// An empty model importing the default domain at `opset` and com.microsoft at 1.
std::unique_ptr<Model> EmptyModel(int opset = 17);

/// A one-node model of `op` ("com.microsoft:Op" names a contrib op), its graph inputs the named
/// `inputs` with their tensors' types (an empty name leaves that optional input out), its graph
/// outputs `outputs`; resolved.
std::unique_ptr<Model> OneNodeModel(const std::string& op, const NamedTensors& inputs,
                                    std::vector<Attribute> attributes,
                                    const std::vector<std::string>& outputs, int opset = 17);

/// Runs `model` on the CUDA provider with the CPU as fallback, requiring every node on the GPU,
/// with `feeds` (unnamed ones skipped); returns Run's status.
Status RunOnCuda(std::unique_ptr<Model> model, const NamedTensors& feeds,
                 std::vector<Value>* outputs);

/// Runs a one-node model (OneNodeModel with output "y") on the CUDA provider with the CPU as
/// fallback, requires the node to land on the GPU and the run to succeed, and returns its output.
Tensor RunOneNode(const std::string& op, NamedTensors inputs,
                  std::vector<Attribute> attributes = {}, int opset = 17);

/// The CUDA provider (created without touching a device) and the CPU as its fallback.
class CudaWithCpuFallback {
 public:
  CudaExecutionProvider cuda;
  CpuExecutionProvider cpu;
  /// Both, CUDA first, as PartitionGraph and InsertMemcpyNodes take them.
  std::vector<IExecutionProvider*> providers() { return {&cuda, &cpu}; }
};

/// Resolves `graph`'s outer scope and partitions it over `providers` (fresh ones when null),
/// requiring success.
void PartitionOnCuda(Graph& graph, CudaWithCpuFallback* providers = nullptr);

/// Checks that each node of `graph` was placed on the GPU exactly when `on_gpu` says so.
void CheckOnGpu(const Graph& graph, const std::function<bool(const Node&)>& on_gpu);

}  // namespace ort
