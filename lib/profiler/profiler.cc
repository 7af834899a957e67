#include "lib/profiler/profiler.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "lib/threading/thread_pool.h"

namespace ort {
namespace {

void AppendEvent(std::string& out, const ProfileEvent& event, int64_t pid) {
  out += fmt::format(
      R"({{"cat":"{}","pid":{},"tid":{},"dur":{:.3f},"ts":{:.3f},"ph":"X","name":{},"args":{{)",
      ProfileCategoryName(event.category), pid, event.tid, event.dur_us, event.ts_us,
      JsonString(event.name));
  for (size_t i = 0; i < event.args.size(); ++i) {
    if (i > 0) out += ',';
    out += JsonString(event.args[i].first);
    out += ':';
    out += event.args[i].second;
  }
  out += "}}";
}

}  // namespace

std::string_view ProfileCategoryName(ProfileCategory category) {
  return category == ProfileCategory::kNode ? "Node" : "Session";
}

std::string JsonString(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<int>(c));
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

Profiler::Profiler() : start_(Clock::now()) { NameThreadLocked(CurrentThreadId(), "main"); }

double Profiler::Microseconds(Clock::time_point time) const {
  return std::chrono::duration<double, std::micro>(time - start_).count();
}

void Profiler::Record(ProfileCategory category, std::string name, Clock::time_point start,
                      Clock::time_point end,
                      std::vector<std::pair<std::string, std::string>> args) {
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
  std::string out = "[\n";
  out += fmt::format(
      R"({{"name":"process_name","ph":"M","pid":{},"tid":0,"args":{{"name":"ort"}}}})", pid);
  for (const auto& [tid, name] : thread_names_) {
    out += fmt::format(
        ",\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{},"
        "\"args\":{{\"name\":{}}}}}",
        pid, tid, JsonString(name));
  }
  for (const auto& event : events_) {
    out += ",\n";
    AppendEvent(out, event, pid);
  }
  out += "\n]\n";
  return out;
}

Status Profiler::WriteTrace(const std::string& path) const {
  const std::string text = TraceJson();
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!file) {
    return ORT_ERROR(kIoError, "cannot write profile '{}': {}", path, std::strerror(errno));
  }
  if (std::fwrite(text.data(), 1, text.size(), file.get()) != text.size() ||
      std::fclose(file.release()) != 0) {
    return ORT_ERROR(kIoError, "cannot write profile '{}': {}", path, std::strerror(errno));
  }
  return Status::OK();
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

void ScopedProfileEvent::AddArg(std::string key, std::string json_value) {
  if (profiler_ != nullptr) args_.emplace_back(std::move(key), std::move(json_value));
}

}  // namespace ort
