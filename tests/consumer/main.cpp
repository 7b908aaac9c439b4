// The package's consumer: reads a model file, prints its format and counts, writes it back through
// the library's atomic write, and checks the bytes are the same (exit 1 otherwise).
#include <remodel/model/document.hpp>
#include <remodel/remodel.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: remodel_consumer FILE OUT\n");
    return 2;
  }
  const remodel::Result<remodel::Bytes> bytes = remodel::read_file(argv[1]);
  if (!bytes) {
    std::fprintf(stderr, "%s: %s\n", argv[1], bytes.error().describe().c_str());
    return 1;
  }
  const remodel::Result<remodel::Document> doc = remodel::read_document(*bytes);
  if (!doc) {
    std::fprintf(stderr, "%s: %s\n", argv[1], doc.error().describe().c_str());
    return 1;
  }
  const remodel::DocumentInfo info = remodel::document_info(*doc);
  std::printf("%s: %s, %zu vertices, %zu triangles\n", argv[1], remodel::format_name(remodel::format_of(*doc)),
              static_cast<std::size_t>(info.vertices), static_cast<std::size_t>(info.triangles));
  const remodel::Result<remodel::Bytes> written = remodel::write_document(*doc);
  if (!written) {
    std::fprintf(stderr, "%s: %s\n", argv[1], written.error().describe().c_str());
    return 1;
  }
  if (const auto stored = remodel::write_file_atomic(argv[2], *written); !stored) {
    std::fprintf(stderr, "%s: %s\n", argv[2], stored.error().describe().c_str());
    return 1;
  }
  if (*written != *bytes) {
    std::fprintf(stderr, "%s: written back, the bytes differ\n", argv[1]);
    return 1;
  }
  return 0;
}
