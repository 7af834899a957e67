#include "lib/common/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ort {

Result<std::shared_ptr<MappedFile>> MappedFile::Open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return ORT_ERROR(kIoError, "cannot open '{}': {}", path, std::strerror(errno));
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return ORT_ERROR(kIoError, "'{}' is not a regular file", path);
  }
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->path_ = path;
  file->size_ = static_cast<size_t>(info.st_size);
  if (file->size_ > 0) {
    void* mapped = ::mmap(nullptr, file->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
      const int error = errno;
      ::close(fd);
      return ORT_ERROR(kIoError, "cannot map '{}': {}", path, std::strerror(error));
    }
    file->data_ = mapped;
  }
  ::close(fd);
  return file;
}

std::shared_ptr<const void> MappedFile::RangeOwner(std::shared_ptr<MappedFile> file,
                                                   const char* data, size_t bytes) {
  const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (begin + page - 1) / page * page;
  const uintptr_t last = (begin + bytes) / page * page;
  return std::shared_ptr<const void>(data, [file = std::move(file), first, last](const void*) {
    if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
  });
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

Result<std::string> ReadFileToString(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return ORT_ERROR(kIoError, "'{}' is a directory, not a file", path);
  }
  std::ifstream stream(path, std::ios::binary);
  if (!stream) return ORT_ERROR(kIoError, "cannot open '{}': {}", path, std::strerror(errno));
  std::ostringstream buffer;
  buffer << stream.rdbuf();
  if (stream.bad()) return ORT_ERROR(kIoError, "error reading '{}'", path);
  return buffer.str();
}

}  // namespace ort
