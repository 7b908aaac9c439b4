// Any supported file: one Document type and the format table every dispatch goes through (detection,
// read, write, info, JSON, textures; the verbatim count is what the write counts). Formats register in
// format_table.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/archive/rarc.hpp"
#include "model/archive/yaz0.hpp"
#include "model/bytes.hpp"
#include "model/bwm/bwm.hpp"
#include "model/error.hpp"
#include "model/verbatim.hpp"
#include "model/format.hpp"
#include "model/j3d/anim.hpp"
#include "model/j3d/j3d.hpp"
#include "model/kh_bbs/pam.hpp"
#include "model/kh_bbs/pmo.hpp"
#include "model/mhfu/pac.hpp"
#include "model/mhfu/pmo.hpp"
#include "model/mhfu/skeleton.hpp"
#include "model/kh_bbs/tim2.hpp"
#include "model/mhfu/tmh.hpp"

namespace remodel {

// Alternatives in the order of Format.
using Document = std::variant<PmoFile, Pmp, Tim2File, Pam, MhfuPmoFile, MhfuSkeletonFile, TmhFile, J3dFile, Bwm, Rarc, Yaz0File, Pac, PamAnimFile, J3dAnimFile>;

// One registered format. The typed functions are erased to `const void*` once, in the table, so a
// container (PAC) reaches its entries' formats through the same entry as a file does.
struct FormatEntry {
  Format format;
  const char* name;            // as `info` and `check` print it
  std::string_view magic;      // the bytes a file starts with; empty when the format has none
  bool (*detect)(ByteSpan);    // when set, decides instead of the magic (a magic elsewhere, or none)
  Result<Document> (*read)(ByteSpan);
  Result<Bytes> (*write)(const void* doc, WriteReport* report);  // report: nullptr, or counts and marks
  void (*info)(const void* doc, DocumentInfo& info);
  void (*json)(const void* doc, nlohmann::ordered_json& out);  // the Document's own keys
  void (*textures)(void* doc, TextureRefs& out);                // nullptr: the format holds none
  // lift and lower (Document <-> Scene) join here with lib/scene.
};

// Every format, in detection order.
std::span<const FormatEntry> format_table();
const FormatEntry& format_entry(Format f);

template <typename T>
constexpr Format format_of_type() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    static_assert((std::is_same_v<std::variant_alternative_t<I, Document>, T> + ...) == 1, "not a registered format");
    std::size_t index = 0;
    ((std::is_same_v<std::variant_alternative_t<I, Document>, T> ? (index = I) : 0), ...);
    return static_cast<Format>(index);
  }(std::make_index_sequence<std::variant_size_v<Document>>{});
}

const char* format_name(Format f);
// By magic, never by file extension; nullopt when no supported format starts this way.
std::optional<Format> detect_format(ByteSpan bytes);

Format format_of(const Document& d);
Result<Document> read_document(ByteSpan bytes);
// Reads the bytes as format `f` (a container's entry whose format its container already knows).
Result<Document> read_document(ByteSpan bytes, Format f);
Result<Bytes> write_document(const Document& d, WriteReport* report = nullptr);
// The bytes the writer counts as it writes the runs and stored values the Document holds (a Document
// the writer refuses counts what was written before the refusal).
std::size_t verbatim_bytes(const Document& d);
DocumentInfo document_info(const Document& d);

// The same operations on one alternative held outside a Document (a PAC entry).
template <typename T>
Result<Bytes> write_document(const T& doc, WriteReport* report = nullptr) {
  return format_entry(format_of_type<T>()).write(&doc, report);
}
template <typename T>
  requires(!std::is_same_v<T, Document>)
std::size_t verbatim_bytes(const T& doc) {
  WriteReport report;
  (void)write_document(doc, &report);
  return report.verbatim_bytes;
}
template <typename T>
void add_document_info(const T& doc, DocumentInfo& info) {
  format_entry(format_of_type<T>()).info(&doc, info);
}

}  // namespace remodel
