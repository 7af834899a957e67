#include "lib/profiler/profiler.h"

#include <unistd.h>

#include <cmath>

#include "lib/common/file_writer.h"
#include "lib/threading/thread_pool.h"

namespace ort {
namespace {

// Trace times in microseconds, kept to the nanosecond so the file stays compact.
double RoundedMicroseconds(double us) { return std::round(us * 1000.0) / 1000.0; }

ProfileArgs EventJson(const ProfileEvent& event, int64_t pid) {
  return {{"cat", ProfileCategoryName(event.category)},
          {"pid", pid},
          {"tid", event.tid},
          {"dur", RoundedMicroseconds(event.dur_us)},
          {"ts", RoundedMicroseconds(event.ts_us)},
          {"ph", "X"},
          {"name", event.name},
          {"args", event.args}};
}

// Names come from models and may hold invalid UTF-8, which must not make writing the trace throw.
std::string Dump(const ProfileArgs& json) {
  return json.dump(-1, ' ', false, ProfileArgs::error_handler_t::replace);
}

ProfileArgs MetadataJson(std::string_view name, int64_t pid, int64_t tid, std::string_view value) {
  return {{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", value}}}};
}

}  // namespace

std::string_view ProfileCategoryName(ProfileCategory category) {
  return category == ProfileCategory::kNode ? "Node" : "Session";
}

Profiler::Profiler() : start_(Clock::now()) { NameThreadLocked(CurrentThreadId(), "main"); }

double Profiler::Microseconds(Clock::time_point time) const {
  return std::chrono::duration<double, std::micro>(time - start_).count();
}

void Profiler::Record(ProfileCategory category, std::string name, Clock::time_point start,
                      Clock::time_point end, ProfileArgs args) {
  ProfileEvent event;
  event.category = category;
  event.name = std::move(name);
  event.ts_us = Microseconds(start);
  event.dur_us = std::chrono::duration<double, std::micro>(end - start).count();
  event.tid = CurrentThreadId();
  event.args = std::move(args);
  Record(std::move(event));
}

void Profiler::Record(ProfileEvent event) {
  if (!enabled()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  ThreadNameLocked(event.tid);
  events_.push_back(std::move(event));
}

void Profiler::NameThread(int64_t tid, std::string name) {
  std::lock_guard<std::mutex> lock(mutex_);
  NameThreadLocked(tid, std::move(name));
}

void Profiler::NameThreadLocked(int64_t tid, std::string name) {
  for (const auto& entry : thread_names_) {
    if (entry.first == tid) return;
  }
  thread_names_.emplace_back(tid, std::move(name));
}

void Profiler::NamePoolThreads(const ThreadPool& pool) {
  const std::vector<int64_t> tids = pool.WorkerThreadIds();
  for (size_t i = 0; i < tids.size(); ++i) {
    if (tids[i] != 0) NameThread(tids[i], pool.name() + "-" + std::to_string(i));
  }
}

std::string Profiler::ThreadName(int64_t tid) {
  std::lock_guard<std::mutex> lock(mutex_);
  return ThreadNameLocked(tid);
}

const std::string& Profiler::ThreadNameLocked(int64_t tid) {
  for (const auto& [id, name] : thread_names_) {
    if (id == tid) return name;
  }
  thread_names_.emplace_back(tid, "caller-" + std::to_string(++unnamed_threads_));
  return thread_names_.back().second;
}

std::vector<ProfileEvent> Profiler::Events() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return events_;
}

std::string Profiler::TraceJson() const {
  const int64_t pid = static_cast<int64_t>(::getpid());
  std::lock_guard<std::mutex> lock(mutex_);
  // One event per line, as ONNX Runtime writes its traces: large traces stay greppable.
  std::string out = "[\n" + Dump(MetadataJson("process_name", pid, 0, "ort"));
  for (const auto& [tid, name] : thread_names_) {
    out += ",\n" + Dump(MetadataJson("thread_name", pid, tid, name));
  }
  for (const auto& event : events_) out += ",\n" + Dump(EventJson(event, pid));
  out += "\n]\n";
  return out;
}

Status Profiler::WriteTrace(const std::string& path) const {
  return WriteStringToFile(path, TraceJson()).WithContext("profile");
}

ScopedProfileEvent::ScopedProfileEvent(Profiler* profiler, std::string name) : profiler_(profiler) {
  if (profiler_ == nullptr) return;
  name_ = std::move(name);
  start_ = Profiler::Clock::now();
}

ScopedProfileEvent::~ScopedProfileEvent() {
  if (profiler_ == nullptr) return;
  profiler_->Record(ProfileCategory::kSession, std::move(name_), start_, Profiler::Clock::now(),
                    std::move(args_));
}

void ScopedProfileEvent::AddArg(const std::string& key, ProfileArgs value) {
  if (profiler_ != nullptr) args_[key] = std::move(value);
}

}  // namespace ort
