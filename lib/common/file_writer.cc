#include "lib/common/file_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>

namespace ort {
namespace {

namespace fs = std::filesystem;

// splitmix64: spreads the counter, pid and clock over every bit of the name suffix.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::string UniqueSuffix() {
  static std::atomic<uint64_t> counter{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  uint64_t bits = Mix(counter.fetch_add(1) ^ (static_cast<uint64_t>(::getpid()) << 40) ^
                      static_cast<uint64_t>(now));
  static constexpr char kDigits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string suffix;
  for (int i = 0; i < 8; ++i, bits /= 36) suffix += kDigits[bits % 36];
  return suffix;
}

// Creates the temporary file next to `target` with O_EXCL, so a name another writer holds is
// never shared; the mode 0666 lets the umask decide its permissions as for any new file.
Result<int> CreateTemporary(const fs::path& target, std::string& temporary) {
  const fs::path directory = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  // Long names keep room for the suffix within the file system's name limit.
  const std::string base = target.filename().string().substr(0, 200);
  int error = 0;
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary = (directory / ("." + base + ".tmp-" + UniqueSuffix())).string();
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    error = errno;
    if (error != EEXIST && error != EINTR) break;
  }
  temporary.clear();
  return ORT_ERROR(kIoError, "cannot write '{}': cannot create a file in '{}': {}", target.string(),
                   directory.string(), std::strerror(error));
}

// Makes a rename durable; a directory that cannot be synced (some file systems refuse) still
// holds the renamed file.
void SyncDirectory(const fs::path& target) {
  const fs::path directory = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

// /dev/stdout, /dev/fd/N and /proc/<pid>/fd/N name an open descriptor, not a place in a
// directory: whatever it refers to (a terminal, a pipe, a file the shell opened with > or >>)
// is written in place, appending as the descriptor itself would.
bool NamesDescriptor(const std::string& path) {
  const fs::path normal = fs::path(path).lexically_normal();
  auto it = normal.begin();
  if (normal.is_relative() || ++it == normal.end()) return false;
  const std::string top = (it++)->string();
  if (top == "dev") {
    if (it == normal.end()) return false;
    const std::string name = it->string();
    return name == "stdin" || name == "stdout" || name == "stderr" || name == "fd";
  }
  if (top != "proc" || it == normal.end() || ++it == normal.end()) return false;
  return it->string() == "fd";
}

}  // namespace

bool WritesInPlace(const std::string& path) {
  struct stat info {};
  return NamesDescriptor(path) ||
         (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode));
}

Result<FileWriter> FileWriter::Open(const std::string& path) {
  FileWriter writer;
  writer.path_ = path;
  writer.target_ = path;
  struct stat info {};
  if (NamesDescriptor(path)) {
    writer.fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (writer.fd_ < 0) {
      return ORT_ERROR(kIoError, "cannot write '{}': {}", path, std::strerror(errno));
    }
    return writer;
  }
  if (::lstat(path.c_str(), &info) == 0 && S_ISLNK(info.st_mode) &&
      ::stat(path.c_str(), &info) == 0) {
    std::error_code error;
    const auto resolved = fs::canonical(path, error);
    if (!error) writer.target_ = resolved.string();
  }
  const bool exists = ::stat(writer.target_.c_str(), &info) == 0;
  if (!exists && errno != ENOENT) {
    return ORT_ERROR(kIoError, "cannot write '{}': {}", path, std::strerror(errno));
  }
  if (exists && S_ISDIR(info.st_mode)) {
    return ORT_ERROR(kIoError, "cannot write '{}': it is a directory", path);
  }
  if (exists && !S_ISREG(info.st_mode)) {
    writer.fd_ = ::open(writer.target_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (writer.fd_ < 0) {
      return ORT_ERROR(kIoError, "cannot write '{}': {}", path, std::strerror(errno));
    }
    return writer;
  }
  ORT_ASSIGN_OR_RETURN(writer.fd_, CreateTemporary(writer.target_, writer.temporary_));
  // A replaced file keeps its permissions, as it would had it been truncated and rewritten.
  if (exists && ::fchmod(writer.fd_, info.st_mode & 07777) != 0) {
    return writer.Fail("cannot set the permissions of", errno);
  }
  return writer;
}

FileWriter::FileWriter(FileWriter&& other) noexcept
    : path_(std::move(other.path_)),
      target_(std::move(other.target_)),
      temporary_(std::move(other.temporary_)),
      fd_(other.fd_),
      failed_(other.failed_),
      committed_(other.committed_) {
  other.fd_ = -1;
  other.temporary_.clear();
  other.committed_ = true;
}

FileWriter& FileWriter::operator=(FileWriter&& other) noexcept {
  if (this != &other) {
    Abandon();
    path_ = std::move(other.path_);
    target_ = std::move(other.target_);
    temporary_ = std::move(other.temporary_);
    fd_ = other.fd_;
    failed_ = other.failed_;
    committed_ = other.committed_;
    other.fd_ = -1;
    other.temporary_.clear();
    other.committed_ = true;
  }
  return *this;
}

FileWriter::~FileWriter() { Abandon(); }

void FileWriter::Abandon() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
  temporary_.clear();
}

Status FileWriter::Fail(std::string_view action, int error) {
  failed_ = true;
  Abandon();
  return ORT_ERROR(kIoError, "{} '{}': {}", action, path_, std::strerror(error));
}

Status FileWriter::Write(std::string_view bytes) {
  if (failed_ || committed_) {
    return ORT_ERROR(kIoError, "cannot write '{}': the file was already {}", path_,
                     failed_ ? "abandoned after an error" : "committed");
  }
  if (fd_ < 0) return ORT_ERROR(kIoError, "cannot write '{}': the file was already closed", path_);
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd_, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return Fail("cannot write", errno);
    }
    bytes.remove_prefix(static_cast<size_t>(written));
  }
  return Status::OK();
}

Status FileWriter::Finish() {
  if (failed_ || committed_) {
    return ORT_ERROR(kIoError, "cannot write '{}': the file was already {}", path_,
                     failed_ ? "abandoned after an error" : "committed");
  }
  if (fd_ < 0) return Status::OK();
  // Devices and pipes cannot be synced (EINVAL); their writes have already succeeded.
  if (::fsync(fd_) != 0 && !(temporary_.empty() && (errno == EINVAL || errno == EROFS))) {
    return Fail("cannot write", errno);
  }
  const int fd = fd_;
  fd_ = -1;
  // Linux releases the descriptor even when close reports EINTR, and the data was synced.
  if (::close(fd) != 0 && errno != EINTR) return Fail("cannot write", errno);
  return Status::OK();
}

Status FileWriter::Commit() {
  ORT_RETURN_IF_ERROR(Finish());
  if (!temporary_.empty()) {
    if (::rename(temporary_.c_str(), target_.c_str()) != 0) return Fail("cannot replace", errno);
    SyncDirectory(target_);
  }
  committed_ = true;
  temporary_.clear();
  return Status::OK();
}

Status WriteStringToFile(const std::string& path, std::string_view bytes) {
  ORT_ASSIGN_OR_RETURN(FileWriter writer, FileWriter::Open(path));
  ORT_RETURN_IF_ERROR(writer.Write(bytes));
  return writer.Commit();
}

}  // namespace ort
