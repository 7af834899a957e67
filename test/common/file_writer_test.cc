#include "lib/common/file_writer.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace ort {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern = (fs::temp_directory_path() / "ort_file_writer_XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code error;
    fs::remove_all(path_, error);
  }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  std::vector<std::string> Entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path path_;
};

std::string Contents(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << stream.rdbuf();
  return buffer.str();
}

void Put(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

mode_t Mode(const std::string& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

// Limits the size of files this process writes, so that a write fails part-way even for root
// (EFBIG instead of the SIGXFSZ that would end the test).
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old_) == 0);
    struct rlimit limit = old_;
    limit.rlim_cur = bytes;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &limit) == 0);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }

 private:
  struct rlimit old_ {};
  void (*old_handler_)(int) = nullptr;
};

}  // namespace

TEST_CASE("WriteStringToFile creates a file with the umask's permissions", "[common][FileWriter]") {
  ScratchDirectory dir;
  const mode_t mask = ::umask(022);
  ::umask(mask);
  REQUIRE(WriteStringToFile(dir / "new.bin", std::string("abc\0def", 7)).ok());
  CHECK(Contents(dir / "new.bin") == std::string("abc\0def", 7));
  CHECK(Mode(dir / "new.bin") == (0666 & ~mask));
  CHECK(dir.Entries() == std::vector<std::string>{"new.bin"});
}

TEST_CASE("WriteStringToFile replaces a file by a new one", "[common][FileWriter]") {
  ScratchDirectory dir;
  const std::string target = dir / "model.onnx";
  Put(target, "old content");
  REQUIRE(::chmod(target.c_str(), 0640) == 0);
  // A reader that opened the old file (as a loader mapping it does) keeps the old bytes.
  std::ifstream reader(target, std::ios::binary);
  REQUIRE(WriteStringToFile(target, "new").ok());
  CHECK(Contents(target) == "new");
  CHECK(Mode(target) == 0640);
  std::ostringstream old;
  old << reader.rdbuf();
  CHECK(old.str() == "old content");
  CHECK(dir.Entries() == std::vector<std::string>{"model.onnx"});
}

TEST_CASE("FileWriter appends writes and replaces the target only on Commit",
          "[common][FileWriter]") {
  ScratchDirectory dir;
  const std::string target = dir / "data.bin";
  Put(target, "old");
  {
    auto writer = FileWriter::Open(target);
    REQUIRE(writer.ok());
    REQUIRE(writer->Write("first ").ok());
    REQUIRE(writer->Write("second").ok());
    REQUIRE(writer->Finish().ok());
    CHECK(Contents(target) == "old");
    REQUIRE(writer->Commit().ok());
    CHECK_FALSE(writer->Write("more").ok());
  }
  CHECK(Contents(target) == "first second");
  CHECK(dir.Entries() == std::vector<std::string>{"data.bin"});
}

TEST_CASE("A FileWriter dropped without Commit leaves the target and no temporary file",
          "[common][FileWriter]") {
  ScratchDirectory dir;
  const std::string target = dir / "data.bin";
  Put(target, "old");
  {
    auto writer = FileWriter::Open(target);
    REQUIRE(writer.ok());
    REQUIRE(writer->Write("partial").ok());
    CHECK(dir.Entries().size() == 2);
  }
  CHECK(Contents(target) == "old");
  CHECK(dir.Entries() == std::vector<std::string>{"data.bin"});
  {
    auto writer = FileWriter::Open(dir / "never.bin");
    REQUIRE(writer.ok());
    REQUIRE(writer->Write("all").ok());
    REQUIRE(writer->Finish().ok());
  }
  CHECK(dir.Entries() == std::vector<std::string>{"data.bin"});
}

TEST_CASE("A failed write leaves the target untouched and no temporary file",
          "[common][FileWriter]") {
  ScratchDirectory dir;
  const std::string target = dir / "model.onnx";
  Put(target, "old");
  Status status;
  {
    FileSizeLimit limit(100);
    status = WriteStringToFile(target, std::string(1000, 'x'));
  }
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find(target) != std::string::npos);
  CHECK(status.message().find(std::strerror(EFBIG)) != std::string::npos);
  CHECK(Contents(target) == "old");
  CHECK(dir.Entries() == std::vector<std::string>{"model.onnx"});
}

TEST_CASE("FileWriter writes devices in place and reports their errors", "[common][FileWriter]") {
  const Status full = WriteStringToFile("/dev/full", "bytes");
  REQUIRE_FALSE(full.ok());
  CHECK(full.message() == "cannot write '/dev/full': " + std::string(std::strerror(ENOSPC)));
  REQUIRE(WriteStringToFile("/dev/null", "bytes").ok());
  struct stat info {};
  REQUIRE(::stat("/dev/null", &info) == 0);
  CHECK(S_ISCHR(info.st_mode));
}

TEST_CASE("FileWriter names the file it cannot create", "[common][FileWriter]") {
  ScratchDirectory dir;
  const Status missing = WriteStringToFile(dir / "none/x.bin", "bytes");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.message().find(dir / "none/x.bin") != std::string::npos);
  Put(dir / "file", "");
  CHECK_FALSE(WriteStringToFile(dir / "file/x.bin", "bytes").ok());
  fs::create_directory(dir / "sub");
  const Status directory = WriteStringToFile(dir / "sub", "bytes");
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.message() == "cannot write '" + (dir / "sub") + "': it is a directory");
  CHECK(dir.Entries() == std::vector<std::string>{"file", "sub"});
}

TEST_CASE("FileWriter replaces the file a symbolic link names, keeping the link",
          "[common][FileWriter]") {
  ScratchDirectory dir;
  Put(dir / "real.bin", "old");
  fs::create_symlink("real.bin", dir / "link.bin");
  REQUIRE(WriteStringToFile(dir / "link.bin", "new").ok());
  CHECK(fs::is_symlink(dir / "link.bin"));
  CHECK(Contents(dir / "real.bin") == "new");
  CHECK(dir.Entries() == std::vector<std::string>{"link.bin", "real.bin"});
}

TEST_CASE("FileWriter writes an open descriptor's file in place", "[common][FileWriter]") {
  ScratchDirectory dir;
  Put(dir / "out.txt", "abc");
  struct stat before {};
  REQUIRE(::stat((dir / "out.txt").c_str(), &before) == 0);
  const int fd = ::open((dir / "out.txt").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  REQUIRE(fd >= 0);
  const Status status = WriteStringToFile("/dev/fd/" + std::to_string(fd), "def");
  ::close(fd);
  REQUIRE(status.ok());
  CHECK(Contents(dir / "out.txt") == "abcdef");
  struct stat after {};
  REQUIRE(::stat((dir / "out.txt").c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
  CHECK(dir.Entries() == std::vector<std::string>{"out.txt"});
}

}  // namespace ort
