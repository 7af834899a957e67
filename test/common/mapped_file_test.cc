#include "lib/common/mapped_file.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

namespace ort {
namespace {

namespace fs = std::filesystem;

// A file of `bytes` bytes whose value is a function of their offset.
fs::path WritePatternFile(size_t bytes) {
  std::string pattern = (fs::temp_directory_path() / "ort_mapped_file_XXXXXX").string();
  const int fd = ::mkstemp(pattern.data());
  REQUIRE(fd >= 0);
  ::close(fd);
  std::ofstream out(pattern, std::ios::binary);
  for (size_t i = 0; i < bytes; ++i) out.put(static_cast<char>(i * 7 + i / 4096));
  return pattern;
}

bool MatchesPattern(const char* data, size_t offset, size_t bytes) {
  for (size_t i = offset; i < offset + bytes; ++i) {
    if (data[i - offset] != static_cast<char>(i * 7 + i / 4096)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("MappedFile range owners keep the mapping and its contents after releasing pages",
          "[common][mapped_file]") {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const fs::path path = WritePatternFile(5 * page);
  auto opened = MappedFile::Open(path.string());
  REQUIRE(opened.ok());
  std::shared_ptr<MappedFile> file = std::move(opened).value();
  const char* base = file->data();
  // Two tensors over overlapping ranges (models may point two initializers at one offset), one
  // starting and ending mid-page.
  auto first = MappedFile::RangeOwner(file, base + 100, 3 * page);
  auto second = MappedFile::RangeOwner(file, base + page, 2 * page);
  file.reset();  // the owners alone keep the file mapped
  REQUIRE(MatchesPattern(base + 100, 100, 3 * page));
  first.reset();  // drops the pages wholly inside the first range
  CHECK(MatchesPattern(base + page, page, 2 * page));
  second.reset();
  fs::remove(path);
}

}  // namespace ort
