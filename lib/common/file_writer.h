// Writing files so that a failed write is never reported as success and never leaves a
// half-written file where a good one was.
#pragma once

#include <string>
#include <string_view>

#include "lib/common/status.h"

namespace ort {

/// One file being written. A regular target (or one that does not exist yet) is written to a
/// temporary file in the same directory, which replaces the target only on Commit: readers,
/// including ones that mapped the old file, see either the old or the new content, never a mix.
/// A target that exists and is not a regular file (a device such as /dev/null, a FIFO) is
/// written in place, since renaming over it would replace the device; so is whatever an open
/// descriptor's name (/dev/stdout, /dev/fd/N, /proc/self/fd/N) refers to, appending to it. Other
/// symbolic links are followed: the file a link names is replaced, the link stays.
///
/// Every error names the target and the system's reason. A writer destroyed without a successful
/// Commit removes its temporary file, leaving the target as it was.
class FileWriter {
 public:
  /// Starts writing `path`.
  static Result<FileWriter> Open(const std::string& path);
  FileWriter(FileWriter&& other) noexcept;
  FileWriter& operator=(FileWriter&& other) noexcept;
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;
  ~FileWriter();

  /// Appends `bytes`. After an error the writer is abandoned (its temporary file is removed) and
  /// every later call fails.
  Status Write(std::string_view bytes);
  /// Flushes the bytes to storage and closes the file without replacing the target yet, so that
  /// several files can be fully written before any of them is committed.
  Status Finish();
  /// Finishes (if not done yet) and replaces the target with the written file.
  Status Commit();

  /// The target path, as given to Open.
  const std::string& path() const { return path_; }

 private:
  FileWriter() = default;
  // Closes the file and removes the temporary file, keeping the target as it was.
  void Abandon();
  Status Fail(std::string_view action, int error);

  std::string path_;
  std::string target_;     // where the bytes end up: path_ with symbolic links resolved
  std::string temporary_;  // empty when writing the target in place
  int fd_ = -1;
  bool failed_ = false;
  bool committed_ = false;
};

/// True when FileWriter writes `path` in place: it names an open descriptor or an existing file
/// that is neither regular nor a directory (a device, a FIFO). Nothing belongs beside such a
/// target: `-o /dev/null` must not create /dev/null.data.
bool WritesInPlace(const std::string& path);

/// Writes `bytes` to `path` through a FileWriter: the target is replaced only when every byte
/// reached storage.
Status WriteStringToFile(const std::string& path, std::string_view bytes);

}  // namespace ort
