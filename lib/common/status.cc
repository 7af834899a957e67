#include "lib/common/status.h"

namespace ort {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kFail:
      return "FAIL";
    case StatusCode::kInvalidArgument:
      return "INVALID_ARGUMENT";
    case StatusCode::kNotFound:
      return "NOT_FOUND";
    case StatusCode::kNotImplemented:
      return "NOT_IMPLEMENTED";
    case StatusCode::kInvalidModel:
      return "INVALID_MODEL";
    case StatusCode::kIoError:
      return "IO_ERROR";
    case StatusCode::kOutOfMemory:
      return "OUT_OF_MEMORY";
    case StatusCode::kRuntimeError:
      return "RUNTIME_ERROR";
  }
  return "UNKNOWN";
}

Status::Status(StatusCode code, std::string message) {
  if (code != StatusCode::kOk) {
    state_ = std::make_shared<const State>(State{code, std::move(message), {}});
  }
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return state_ ? state_->message : kEmpty;
}

const std::string& Status::node() const {
  static const std::string kNone;
  return state_ ? state_->node : kNone;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return fmt::format("{}: {}", StatusCodeName(state_->code), state_->message);
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  return Prefixed(context, state_->node);
}

Status Status::WithNode(std::string_view node_description) const {
  if (ok() || state_->node == node_description) return *this;
  return Prefixed(node_description, std::string(node_description));
}

Status Status::Prefixed(std::string_view prefix, std::string node) const {
  Status result;
  result.state_ = std::make_shared<const State>(
      State{state_->code, fmt::format("{}: {}", prefix, state_->message), std::move(node)});
  return result;
}

}  // namespace ort
