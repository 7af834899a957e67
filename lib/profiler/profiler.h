// Profiler: collects timed events of a session (initialization steps, one event per node per
// profiled run, one per run) and writes them as a Chrome trace (a JSON array of "X" complete
// events plus "M" thread-name metadata) that Perfetto and chrome://tracing open. The layout
// follows ONNX Runtime's profiler so tools reading its traces read these too.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/status.h"

namespace ort {

/// False in a library configured with -DORT_ENABLE_PROFILING=OFF, which has no profiled path
/// in its executor: the build that shows what profiling costs when it is off.
#ifdef ORT_PROFILING_DISABLED
inline constexpr bool kProfilingCompiledIn = false;
#else
inline constexpr bool kProfilingCompiledIn = true;
#endif

class ThreadPool;

enum class ProfileCategory { kSession, kNode };

/// "Session" or "Node", the event's "cat" in the trace.
std::string_view ProfileCategoryName(ProfileCategory category);

/// An event's "args": a JSON object whose members keep the order they were added in, as ONNX
/// Runtime writes them.
using ProfileArgs = nlohmann::ordered_json;

/// One complete span of the trace ("ph":"X").
struct ProfileEvent {
  ProfileCategory category = ProfileCategory::kSession;
  /// "model_run", "session_initialization", ... or "<node name>_kernel_time".
  std::string name;
  /// Start and duration in microseconds; the start is relative to the profiler's start.
  double ts_us = 0;
  double dur_us = 0;
  /// OS id of the thread that recorded the event.
  int64_t tid = 0;
  /// Node events: the node's name and op type (both also in `args`), for summaries.
  std::string node_name;
  std::string op_type;
  ProfileArgs args = ProfileArgs::object();
};

/// Thread-safe event collector. Events are recorded only while enabled (from construction until
/// Stop); the collected events stay readable after Stop.
class Profiler {
 public:
  using Clock = std::chrono::steady_clock;

  /// Starts the clock that event times are relative to, and names the calling thread "main".
  Profiler();

  bool enabled() const { return enabled_.load(std::memory_order_acquire); }
  /// Stops recording; later Record calls are ignored.
  void Stop() { enabled_.store(false, std::memory_order_release); }

  /// Microseconds from the profiler's start to `time`.
  double Microseconds(Clock::time_point time) const;

  /// Records an event spanning [start, end] on the calling thread.
  void Record(ProfileCategory category, std::string name, Clock::time_point start,
              Clock::time_point end, ProfileArgs args = ProfileArgs::object());
  /// Records a prepared event (its tid is kept as given).
  void Record(ProfileEvent event);

  /// Names thread `tid` in the trace's metadata; the first name given to a tid stays. Threads
  /// that record events without a name are called "caller-<n>".
  void NameThread(int64_t tid, std::string name);
  /// Names the workers of `pool` "<pool name>-<i>".
  void NamePoolThreads(const ThreadPool& pool);
  /// The name of `tid`; a thread without one is named "caller-<n>" now, so what an event's args
  /// say of it before the event is recorded matches the trace's metadata.
  std::string ThreadName(int64_t tid);

  /// A copy of the events recorded so far, in recording order.
  std::vector<ProfileEvent> Events() const;

  /// The whole trace: process and thread-name metadata, then the events.
  std::string TraceJson() const;
  /// Writes TraceJson() to `path`.
  Status WriteTrace(const std::string& path) const;

 private:
  void NameThreadLocked(int64_t tid, std::string name);
  const std::string& ThreadNameLocked(int64_t tid);

  const Clock::time_point start_;
  std::atomic<bool> enabled_{true};
  mutable std::mutex mutex_;
  std::vector<ProfileEvent> events_;
  std::vector<std::pair<int64_t, std::string>> thread_names_;
  int unnamed_threads_ = 0;
};

/// Records a Session-category event from construction to destruction; does nothing when
/// `profiler` is null, so call sites need no branch of their own.
class ScopedProfileEvent {
 public:
  ScopedProfileEvent(Profiler* profiler, std::string name);
  ~ScopedProfileEvent();
  ScopedProfileEvent(const ScopedProfileEvent&) = delete;
  ScopedProfileEvent& operator=(const ScopedProfileEvent&) = delete;

  /// Adds an "args" member.
  void AddArg(const std::string& key, ProfileArgs value);

 private:
  Profiler* profiler_;
  std::string name_;
  Profiler::Clock::time_point start_;
  ProfileArgs args_ = ProfileArgs::object();
};

}  // namespace ort
