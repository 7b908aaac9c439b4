// File access shared by the commands.
#include "file_io.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace remodel::cli {

namespace fs = std::filesystem;

Result<Bytes> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{ErrorCode::io, 0, "", "cannot open " + path.string()};
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) return Error{ErrorCode::io, 0, "", "cannot read " + path.string()};
  in.seekg(0);
  Bytes data(static_cast<std::size_t>(size));
  if (size > 0 && !in.read(reinterpret_cast<char*>(data.data()), size)) {
    return Error{ErrorCode::io, 0, "", "cannot read " + path.string()};
  }
  return data;
}

std::optional<Error> write_file_atomic(const fs::path& path, ByteSpan data) {
  fs::path tmp = path;
  tmp += ".remodel-tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Error{ErrorCode::io, 0, "", "cannot create " + tmp.string()};
    out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
    out.flush();
    if (!out) {
      out.close();
      std::error_code ignored;
      fs::remove(tmp, ignored);
      return Error{ErrorCode::io, 0, "", "cannot write " + tmp.string()};
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return Error{ErrorCode::io, 0, "", "cannot replace " + path.string()};
  }
  return std::nullopt;
}

void print_error(const fs::path& path, const Error& e) {
  std::fprintf(stderr, "remodel: %s: %s\n", path.string().c_str(), e.describe().c_str());
}

Result<Document> load(const fs::path& path, Bytes& bytes) {
  Result<Bytes> data = read_file(path);
  if (!data) return data.error();
  bytes = std::move(data).value();
  return read_document(bytes);
}

}  // namespace remodel::cli
