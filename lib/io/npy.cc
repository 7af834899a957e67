#include "lib/io/npy.h"

#include <charconv>
#include <cstring>
#include <string>

#include "lib/common/file_writer.h"
#include "lib/common/mapped_file.h"

namespace ort {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

// Returns the text of key `key` in the header dict: the quoted string, the tuple, or the word.
Result<std::string> HeaderField(std::string_view header, std::string_view key,
                                const std::string& label) {
  const std::string quoted = fmt::format("'{}'", key);
  size_t position = header.find(quoted);
  if (position == std::string_view::npos) {
    return ORT_ERROR(kInvalidArgument, "{}: .npy header has no '{}'", label, key);
  }
  position = header.find(':', position + quoted.size());
  if (position == std::string_view::npos) {
    return ORT_ERROR(kInvalidArgument, "{}: malformed .npy header", label);
  }
  ++position;
  while (position < header.size() && header[position] == ' ') ++position;
  if (position >= header.size())
    return ORT_ERROR(kInvalidArgument, "{}: malformed .npy header", label);
  const char open = header[position];
  if (open == '\'' || open == '"') {
    const size_t end = header.find(open, position + 1);
    if (end == std::string_view::npos) {
      return ORT_ERROR(kInvalidArgument, "{}: malformed .npy header", label);
    }
    return std::string(header.substr(position + 1, end - position - 1));
  }
  if (open == '(') {
    const size_t end = header.find(')', position);
    if (end == std::string_view::npos) {
      return ORT_ERROR(kInvalidArgument, "{}: malformed .npy header", label);
    }
    return std::string(header.substr(position + 1, end - position - 1));
  }
  size_t end = position;
  while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
  return std::string(header.substr(position, end - position));
}

Result<TensorShape> ParseShapeTuple(const std::string& tuple, const std::string& label) {
  std::vector<int64_t> dims;
  size_t position = 0;
  while (position < tuple.size()) {
    while (position < tuple.size() && (tuple[position] == ' ' || tuple[position] == ',')) {
      ++position;
    }
    if (position >= tuple.size()) break;
    size_t end = position;
    while (end < tuple.size() && tuple[end] >= '0' && tuple[end] <= '9') ++end;
    if (end == position) {
      return ORT_ERROR(kInvalidArgument, "{}: bad .npy shape '({})'", label, tuple);
    }
    int64_t dim = 0;
    auto [ptr, error] = std::from_chars(tuple.data() + position, tuple.data() + end, dim);
    if (error != std::errc()) {
      return ORT_ERROR(kInvalidArgument, "{}: .npy shape '({})' has a dimension past int64", label,
                       tuple);
    }
    dims.push_back(dim);
    position = end;
    while (position < tuple.size() && tuple[position] == 'L') ++position;
  }
  return TensorShape(std::move(dims));
}

}  // namespace

Result<Tensor> ParseNpy(std::string_view bytes, const std::string& label) {
  if (bytes.size() < 10 || bytes.substr(0, kMagic.size()) != kMagic) {
    return ORT_ERROR(kInvalidArgument, "{} is not a .npy file (bad magic)", label);
  }
  const auto major = static_cast<uint8_t>(bytes[6]);
  size_t header_length = 0;
  size_t header_start = 0;
  if (major == 1) {
    header_length = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return ORT_ERROR(kInvalidArgument, "{}: truncated .npy header", label);
    for (int i = 3; i >= 0; --i)
      header_length = (header_length << 8) | static_cast<uint8_t>(bytes[8 + i]);
    header_start = 12;
  } else {
    return ORT_ERROR(kInvalidArgument, "{}: unsupported .npy version {}", label, major);
  }
  if (header_start + header_length > bytes.size()) {
    return ORT_ERROR(kInvalidArgument, "{}: truncated .npy header", label);
  }
  const std::string_view header = bytes.substr(header_start, header_length);
  ORT_ASSIGN_OR_RETURN(std::string descr, HeaderField(header, "descr", label));
  ORT_ASSIGN_OR_RETURN(std::string fortran, HeaderField(header, "fortran_order", label));
  ORT_ASSIGN_OR_RETURN(std::string shape_text, HeaderField(header, "shape", label));
  if (fortran.find("True") != std::string::npos) {
    return ORT_ERROR(kInvalidArgument, "{}: Fortran-ordered .npy arrays are not supported", label);
  }
  auto type = DataTypeFromNumpyDescriptor(descr);
  if (!type.ok()) return type.status().WithContext(label);
  ORT_ASSIGN_OR_RETURN(TensorShape shape, ParseShapeTuple(shape_text, label));
  auto needed = TensorBytes(*type, shape);
  if (!needed.ok()) return needed.status().WithContext(label);
  // The header is checked against the data before anything is allocated: a tiny file must not
  // make us reserve the terabytes its header claims.
  const size_t data_start = header_start + header_length;
  const size_t available = bytes.size() - data_start;
  if (available != *needed) {
    return ORT_ERROR(kInvalidArgument,
                     "{}: the header says {}{} ({} bytes) but the file holds {} bytes of data",
                     label, DataTypeName(*type), shape.ToString(), *needed, available);
  }
  ORT_ASSIGN_OR_RETURN(Tensor tensor, Tensor::Allocate(*type, shape));
  if (available > 0) std::memcpy(tensor.MutableRawData(), bytes.data() + data_start, available);
  return tensor;
}

Result<Tensor> ReadNpy(const std::string& path) {
  ORT_ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(path));
  return ParseNpy(bytes, "'" + path + "'");
}

Result<std::string> SerializeNpy(const Tensor& tensor) {
  const std::string_view descr = NumpyDescriptor(tensor.dtype());
  if (descr.empty()) {
    return ORT_ERROR(kNotImplemented, "{} tensors cannot be written as .npy",
                     DataTypeName(tensor.dtype()));
  }
  std::string shape = "(";
  for (size_t i = 0; i < tensor.shape().rank(); ++i) {
    shape += std::to_string(tensor.shape()[i]);
    shape += tensor.shape().rank() == 1 ? "," : (i + 1 < tensor.shape().rank() ? ", " : "");
  }
  shape += ")";
  std::string header =
      "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // numpy pads the header with spaces so the data starts on a 64-byte boundary.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string bytes(kMagic);
  bytes += '\x01';
  bytes += '\x00';
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>((header.size() >> 8) & 0xff);
  bytes += header;
  bytes.append(static_cast<const char*>(tensor.RawData()), tensor.SizeInBytes());
  return bytes;
}

Status WriteNpy(const std::string& path, const Tensor& tensor) {
  ORT_ASSIGN_OR_RETURN(std::string bytes, SerializeNpy(tensor));
  return WriteStringToFile(path, bytes);
}

}  // namespace ort
