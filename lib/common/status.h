// Status and Result<T>: the library's only error channel. Nothing throws across the library
// boundary; every fallible call returns one of these and messages name the model, node, op and
// tensor involved.
#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace ort {

enum class StatusCode {
  kOk = 0,
  kFail,
  kInvalidArgument,  // bad input from the caller: wrong dtype, shape, missing feed
  kNotFound,         // a file, value or attribute that does not exist
  kNotImplemented,   // no kernel or an unsupported feature
  kInvalidModel,     // the model itself is malformed
  kIoError,
  kOutOfMemory,
  kRuntimeError,
};

std::string_view StatusCodeName(StatusCode code);

/// An empty (OK) status or an error code with a message. Cheap to copy and move.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message);

  static Status OK() { return Status(); }

  bool ok() const { return state_ == nullptr; }
  StatusCode code() const { return state_ ? state_->code : StatusCode::kOk; }
  /// The message alone ("" when OK).
  const std::string& message() const;
  /// "CODE: message", or "OK".
  std::string ToString() const;

  /// Returns an error with `context + ": "` put in front of the message; OK stays OK. The
  /// result names the same node as this status.
  Status WithContext(std::string_view context) const;

  /// Returns an error whose message names the node described by `node_description` (its
  /// Node::Describe()) once: this status unchanged when it already names that node, else with
  /// `node_description + ": "` put in front. OK stays OK. Errors from inside a subgraph name an
  /// inner node, so the node running the subgraph is still put in front of them.
  Status WithNode(std::string_view node_description) const;
  /// True when the message names the node where the error arose (see WithNode).
  bool names_node() const { return state_ != nullptr && !state_->node.empty(); }
  /// The description of the node the message names (see WithNode); "" when none.
  const std::string& node() const;

  /// Explicitly discards a status whose failure does not matter to the caller.
  void IgnoreError() const {}

 private:
  struct State {
    StatusCode code;
    std::string message;
    std::string node;  // the description of the node the message names; empty when none
  };
  // This error with `prefix + ": "` put in front of the message, naming `node`.
  Status Prefixed(std::string_view prefix, std::string node) const;

  std::shared_ptr<const State> state_;
};

/// Builds an error status with a fmt-formatted message.
template <typename... Args>
Status MakeStatus(StatusCode code, fmt::format_string<Args...> format, Args&&... args) {
  return Status(code, fmt::format(format, std::forward<Args>(args)...));
}

/// A value or an error status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : data_(std::move(status)) {  // NOLINT: implicit by design
    if (std::get<Status>(data_).ok()) {
      data_ = Status(StatusCode::kFail, "Result constructed from an OK status without a value");
    }
  }

  bool ok() const { return std::holds_alternative<T>(data_); }
  Status status() const { return ok() ? Status::OK() : std::get<Status>(data_); }

  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> data_;
};

}  // namespace ort

#define ORT_STATUS_CONCAT_IMPL(a, b) a##b
#define ORT_STATUS_CONCAT(a, b) ORT_STATUS_CONCAT_IMPL(a, b)

/// Returns the status of `expr` from the enclosing function when it is an error.
#define ORT_RETURN_IF_ERROR(expr)                                    \
  do {                                                               \
    ::ort::Status ORT_STATUS_CONCAT(ort_status_, __LINE__) = (expr); \
    if (!ORT_STATUS_CONCAT(ort_status_, __LINE__).ok())              \
      return ORT_STATUS_CONCAT(ort_status_, __LINE__);               \
  } while (0)

/// Returns an kInvalidArgument error with a fmt-formatted message when `cond` is false.
#define ORT_RETURN_IF_NOT(cond, ...)                                                         \
  do {                                                                                       \
    if (!(cond)) return ::ort::MakeStatus(::ort::StatusCode::kInvalidArgument, __VA_ARGS__); \
  } while (0)

/// Returns a formatted error with the given code (e.g. kNotImplemented).
#define ORT_ERROR(code, ...) ::ort::MakeStatus(::ort::StatusCode::code, __VA_ARGS__)

/// `lhs = value of expr`, or returns the error of `expr`. `lhs` may be a declaration.
#define ORT_ASSIGN_OR_RETURN(lhs, expr) \
  ORT_ASSIGN_OR_RETURN_IMPL(ORT_STATUS_CONCAT(ort_result_, __LINE__), lhs, expr)
#define ORT_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()
