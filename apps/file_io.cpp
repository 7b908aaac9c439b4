// Loading an input and printing an error line, shared by the commands.
#include "file_io.hpp"

#include <cstdio>

namespace remodel::cli {

namespace fs = std::filesystem;

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
