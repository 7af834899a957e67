#include "lib/session/memcpy_insertion.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "lib/ir/model.h"
#include "lib/profiler/profiler.h"
#include "lib/session/inference_session.h"
#include "lib/session/partitioner.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort {
namespace {

using test::CountOps;

// A stand-in device: host memory labelled as device 0, so the copy logic runs without a GPU and
// kernels can check which side their tensors are on.
const MemoryInfo kDevice{MemoryInfo::Device::kGpu, 0};

class FakeDeviceAllocator final : public IAllocator {
 public:
  void* Alloc(size_t bytes) override { return std::aligned_alloc(kAlignment, RoundUp(bytes)); }
  void Free(void* pointer) override { std::free(pointer); }
  const MemoryInfo& Info() const override { return kDevice; }

 private:
  static size_t RoundUp(size_t bytes) { return (bytes + kAlignment) / kAlignment * kAlignment; }
};

class FakeTransfer final : public IDataTransfer {
 public:
  mutable int copies = 0;
  bool CanCopy(const MemoryInfo& source, const MemoryInfo& destination) const override {
    return source.IsHost() != destination.IsHost();
  }
  Status Copy(const Tensor& source, Tensor& destination) const override {
    ORT_RETURN_IF_NOT(CanCopy(source.location(), destination.location()),
                      "copy from {} to {} does not cross devices", source.location().ToString(),
                      destination.location().ToString());
    std::memcpy(destination.MutableRawData(), source.RawData(), source.SizeInBytes());
    ++copies;
    return Status::OK();
  }
};

// Relu that refuses inputs not on the device.
class DeviceRelu final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_RETURN_IF_NOT(x->location() == kDevice, "input is on {}", x->location().ToString());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, x->shape()));
    for (int64_t i = 0; i < x->NumElements(); ++i) {
      y->MutableData<float>()[i] = std::max(0.0f, x->Data<float>()[i]);
    }
    return Status::OK();
  }
};

// Elementwise Add of equal shapes, on the device only.
class DeviceAdd final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    ORT_RETURN_IF_NOT(a->location() == kDevice && b->location() == kDevice, "inputs on {} and {}",
                      a->location().ToString(), b->location().ToString());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, a->shape()));
    for (int64_t i = 0; i < a->NumElements(); ++i) {
      y->MutableData<float>()[i] = a->Data<float>()[i] + b->Data<float>()[i];
    }
    return Status::OK();
  }
};

// Reshape whose shape input is read on the host.
class DeviceReshape final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* shape, context.RequiredInput(1));
    ORT_RETURN_IF_NOT(x->location() == kDevice && shape->location().IsHost(),
                      "data on {}, shape on {}", x->location().ToString(),
                      shape->location().ToString());
    ORT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ReadInt64Values(*shape));
    ORT_ASSIGN_OR_RETURN(Tensor view, x->Reshaped(TensorShape(std::move(dims))));
    return context.SetOutput(0, std::move(view));
  }
};

class FakeDeviceProvider final : public IExecutionProvider {
 public:
  FakeDeviceProvider() : IExecutionProvider("fakedev") {
    registry_.Add<DeviceRelu>(KernelDef("Relu").Versions(1).Input(0, {DataType::kFloat}));
    registry_.Add<DeviceReshape>(KernelDef("Reshape").Versions(5).HostInput(1));
    registry_.Add<DeviceAdd>(KernelDef("Add").Versions(7).Input(0, {DataType::kFloat}));
    RegisterMemcpyKernels(registry_);
  }
  const KernelRegistry& kernel_registry() const override { return registry_; }
  std::shared_ptr<IAllocator> allocator() const override { return allocator_; }
  const IDataTransfer* data_transfer() const override { return &transfer_; }
  Status Synchronize() const override {
    ++synchronizations;
    return Status::OK();
  }
  Result<std::optional<double>> TimeDeviceWork(const std::function<Status()>& work) const override {
    if (!device_clock_us) return IExecutionProvider::TimeDeviceWork(work);
    ORT_RETURN_IF_ERROR(work());
    return device_clock_us;
  }
  int copies() const { return transfer_.copies; }
  mutable int synchronizations = 0;
  /// Set: what the device reports as each node's own time (as CUDA events would).
  std::optional<double> device_clock_us;

 private:
  KernelRegistry registry_;
  std::shared_ptr<IAllocator> allocator_ = std::make_shared<FakeDeviceAllocator>();
  FakeTransfer transfer_;
};

// x -> Relu (device) -> r -> Exp (CPU) -> e -> Relu (device) -> y, and r -> Reshape (device,
// shape from an initializer read on the host) -> q; y and q are graph outputs.
std::unique_ptr<Model> MixedModel() {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y", "q"});
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Known(2)}));
  graph.AddInitializer("shape", Tensor::FromVector<int64_t>(TensorShape{2}, {2, 1}));
  graph.AddNode({"relu1", "Relu", "", {"x"}, {"r"}, {}});
  graph.AddNode({"exp", "Exp", "", {"r"}, {"e"}, {}});
  graph.AddNode({"relu2", "Relu", "", {"e"}, {"y"}, {}});
  graph.AddNode({"reshape", "Reshape", "", {"r", "shape"}, {"q"}, {}});
  graph.ResolveOuterScope();
  return model;
}

}  // namespace

TEST_CASE("Copies are inserted where values cross between host and device", "[session][memcpy]") {
  auto model = MixedModel();
  FakeDeviceProvider device;
  CpuExecutionProvider cpu;
  std::vector<IExecutionProvider*> providers{&device, &cpu};
  REQUIRE(PartitionGraph(model->graph(), providers).ok());
  auto counts = InsertMemcpyNodes(model->graph(), providers);
  REQUIRE(counts.ok());
  // x and e go up; r (read by Exp), y and q (graph outputs) come down. The shape stays put.
  CHECK(counts->to_device == 2);
  CHECK(counts->to_host == 3);
  const Graph& graph = model->graph();
  CHECK(CountOps(graph, kMemcpyFromHost) == 2);
  CHECK(CountOps(graph, kMemcpyToHost) == 3);
  CHECK(graph.Producer("y")->op_type() == kMemcpyToHost);
  CHECK(graph.Producer("r")->op_type() == kMemcpyToHost);
  const Node* reshape = nullptr;
  for (const Node* node : graph.Nodes()) {
    if (node->op_type() == "Reshape") reshape = node;
    if (node->op_type().rfind("Memcpy", 0) == 0) CHECK(node->provider() == "fakedev");
  }
  REQUIRE(reshape != nullptr);
  CHECK(reshape->inputs()[0] != "r");
  CHECK(graph.Producer(reshape->inputs()[0])->op_type() == "Relu");
  CHECK(reshape->inputs()[1] == "shape");

  // Only host providers: nothing to copy.
  auto cpu_only = MixedModel();
  std::vector<IExecutionProvider*> just_cpu{&cpu};
  REQUIRE(PartitionGraph(cpu_only->graph(), just_cpu).ok());
  auto none = InsertMemcpyNodes(cpu_only->graph(), just_cpu);
  REQUIRE(none.ok());
  CHECK(none->to_device + none->to_host == 0);
}

TEST_CASE("A session runs across host and device and returns host outputs", "[session][memcpy]") {
  InferenceSession session;
  REQUIRE(session.RegisterProvider(std::make_unique<FakeDeviceProvider>()).ok());
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(MixedModel()).ok());
  REQUIRE(session.Initialize().ToString() == "OK");
  std::vector<NamedValue> feeds;
  feeds.emplace_back("x", Value(Tensor::FromVector<float>(TensorShape{2}, {-1.0f, 2.0f})));
  std::vector<Value> outputs;
  REQUIRE(session.Run(RunOptions{}, feeds, {}, &outputs).ToString() == "OK");
  REQUIRE(outputs.size() == 2);
  const Tensor& y = outputs[0].tensor();
  const Tensor& q = outputs[1].tensor();
  CHECK(y.location().IsHost());
  CHECK(q.location().IsHost());
  // relu(exp(relu(x))) and relu(x) as [2, 1].
  CHECK(y.Data<float>()[0] == Approx(1.0f));
  CHECK(y.Data<float>()[1] == Approx(std::exp(2.0f)));
  CHECK(q.shape() == TensorShape({2, 1}));
  CHECK(q.Data<float>()[0] == 0.0f);
  CHECK(q.Data<float>()[1] == 2.0f);
}

TEST_CASE("Weights read on the device are uploaded once, at initialization", "[session][memcpy]") {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Known(2)}));
  graph.AddInitializer("bias", Tensor::FromVector<float>(TensorShape{2}, {10.0f, 20.0f}));
  graph.AddNode({"add", "Add", "", {"x", "bias"}, {"y"}, {}});
  graph.ResolveOuterScope();

  auto device = std::make_unique<FakeDeviceProvider>();
  const FakeDeviceProvider* device_view = device.get();
  InferenceSession session;
  REQUIRE(session.RegisterProvider(std::move(device)).ok());
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(std::move(model)).ok());
  REQUIRE(session.Initialize().ToString() == "OK");
  CHECK(device_view->copies() == 1);  // the bias
  int uploads = 0;
  for (const Node* node : session.ExecutionOrder()) uploads += node->op_type() == kMemcpyFromHost;
  CHECK(uploads == 1);  // only x, on every run
  std::vector<NamedValue> feeds;
  feeds.emplace_back("x", Value(Tensor::FromVector<float>(TensorShape{2}, {1.0f, 2.0f})));
  std::vector<Value> outputs;
  for (int run = 0; run < 2; ++run) {
    REQUIRE(session.Run(RunOptions{}, feeds, {}, &outputs).ToString() == "OK");
    CHECK(outputs[0].tensor().Data<float>()[0] == 11.0f);
    CHECK(outputs[0].tensor().Data<float>()[1] == 22.0f);
  }
  CHECK(device_view->copies() == 1 + 2 * 2);  // x up and y down per run
}

TEST_CASE("Reading only a value's shape copies nothing", "[session][memcpy]") {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"s"});
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Known(3)}));
  graph.AddNode({"relu", "Relu", "", {"x"}, {"r"}, {}});
  graph.AddNode({"shape", "Shape", "", {"r"}, {"s"}, {}});
  graph.ResolveOuterScope();
  FakeDeviceProvider device;
  CpuExecutionProvider cpu;
  std::vector<IExecutionProvider*> providers{&device, &cpu};
  REQUIRE(PartitionGraph(graph, providers).ok());
  auto counts = InsertMemcpyNodes(graph, providers);
  REQUIRE(counts.ok());
  // x goes up for Relu; the CPU's Shape reads r's shape where r lives.
  CHECK(counts->to_device == 1);
  CHECK(counts->to_host == 0);
}

struct ProfiledRun {
  std::vector<ProfileEvent> events;
  int synchronizations = 0;
};

// Runs MixedModel once, profiled, on a stand-in device (reporting `device_clock_us` per node when
// set) ahead of the CPU.
ProfiledRun RunMixedModelProfiled(std::optional<double> device_clock_us) {
  SessionOptions options;
  options.enable_profiling = true;
  InferenceSession session(options);
  auto device = std::make_unique<FakeDeviceProvider>();
  device->device_clock_us = device_clock_us;
  const FakeDeviceProvider* device_view = device.get();
  REQUIRE(session.RegisterProvider(std::move(device)).ok());
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(MixedModel()).ok());
  REQUIRE(session.Initialize().ok());
  std::vector<NamedValue> feeds;
  feeds.emplace_back("x", Value(Tensor::FromVector<float>(TensorShape{2}, {-1.0f, 2.0f})));
  std::vector<Value> outputs;
  REQUIRE(session.Run(RunOptions{}, feeds, {}, &outputs).ok());
  return {session.ProfilingEvents(), device_view->synchronizations};
}

TEST_CASE("Profiled device nodes wait for the device and go on its own track",
          "[session][memcpy][profiler]") {
  const ProfiledRun run = RunMixedModelProfiled(std::nullopt);
  int device_events = 0;
  for (const ProfileEvent& event : run.events) {
    if (event.category != ProfileCategory::kNode) continue;
    const bool on_device = event.op_type == "Relu" || event.op_type == "Reshape" ||
                           event.op_type.rfind("Memcpy", 0) == 0;
    CHECK((event.tid < 0) == on_device);
    device_events += on_device;
  }
  // Two Relus, the Reshape and five copies, each waited for.
  CHECK(device_events == 8);
  CHECK(run.synchronizations == 8);
}

TEST_CASE("Device nodes carry the device's own time when the provider measures it",
          "[session][memcpy][profiler]") {
  int timed = 0;
  for (const ProfileEvent& event : RunMixedModelProfiled(12.5).events) {
    if (event.category != ProfileCategory::kNode) continue;
    const bool has_device_time = event.args.contains("device_duration_us");
    CHECK(has_device_time == (event.tid < 0));
    if (has_device_time) CHECK(event.args["device_duration_us"] == 12.5);
    timed += has_device_time;
  }
  CHECK(timed == 8);
}

}  // namespace ort
