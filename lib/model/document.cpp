// The operations on any Document, each one loop or lookup over the format table.
#include "model/document.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include <nlohmann/json.hpp>

namespace remodel {

const FormatEntry& format_entry(Format f) {
  return format_table()[static_cast<std::size_t>(f)];
}

const char* format_name(Format f) {
  return format_entry(f).name;
}

std::optional<Format> detect_format(ByteSpan b) {
  for (const FormatEntry& e : format_table()) {
    const bool match = e.detect != nullptr ? e.detect(b)
                                           : !e.magic.empty() && b.size() >= e.magic.size() && std::memcmp(b.data(), e.magic.data(), e.magic.size()) == 0;
    if (match) return e.format;
  }
  return std::nullopt;
}

Format format_of(const Document& d) {
  return static_cast<Format>(d.index());
}

// The library boundary: an allocation that fails while reading or writing becomes an Error.
Result<Document> read_document(ByteSpan bytes) {
  const std::optional<Format> f = detect_format(bytes);
  if (!f) return Error{ErrorCode::bad_magic, 0, "magic", "the file does not start with the magic of any supported format"};
  return read_document(bytes, *f);
}

Result<Document> read_document(ByteSpan bytes, Format f) try {
  return format_entry(f).read(bytes);
} catch (...) {
  return caught_allocation_failure();
}

namespace {

template <typename F>
auto with_alternative(const Document& d, F&& f) {
  return std::visit([&](const auto& doc) { return f(format_entry(format_of(d)), static_cast<const void*>(&doc)); }, d);
}

}  // namespace

Result<Bytes> write_document(const Document& d, WriteReport* report) try {
  return with_alternative(d, [&](const FormatEntry& e, const void* doc) { return e.write(doc, report); });
} catch (...) {
  return caught_allocation_failure();
}

std::size_t verbatim_bytes(const Document& d) {
  WriteReport report;
  (void)write_document(d, &report);
  return report.verbatim_bytes;
}

DocumentInfo document_info(const Document& d) {
  DocumentInfo info{format_of(d)};
  with_alternative(d, [&](const FormatEntry& e, const void* doc) { e.info(doc, info); });
  return info;
}

}  // namespace remodel
