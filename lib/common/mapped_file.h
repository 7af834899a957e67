// Read-only memory mapping of a whole file, so large models and external tensor data are used in
// place instead of being copied.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "lib/common/status.h"

namespace ort {

class MappedFile {
 public:
  /// Maps `path` read-only; errors name the file and the reason.
  static Result<std::shared_ptr<MappedFile>> Open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return static_cast<const char*>(data_); }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }

  /// An owner handle for tensor data at [data, data + bytes) of `file`: it keeps the mapping
  /// alive and, once released, drops the resident pages lying wholly inside the range. Without
  /// that, a tensor read once (weights packed into another layout at session creation, then
  /// freed) stayed in the process's resident memory as long as any other tensor of the file did:
  /// an `ort optimize`d ViT-B/32 with external data held 691 MB against 368 MB for its
  /// single-file original. The mapping is private and read-only, so a page touched again is
  /// read back from the file unchanged.
  static std::shared_ptr<const void> RangeOwner(std::shared_ptr<MappedFile> file, const char* data,
                                                size_t bytes);

 private:
  MappedFile() = default;
  void* data_ = nullptr;
  size_t size_ = 0;
  std::string path_;
};

/// Reads a whole file into a string (for small files such as tensors and test data).
Result<std::string> ReadFileToString(const std::string& path);

}  // namespace ort
