// Reads MHFU PAC containers and the PMO, skeleton and TMH entries inside them.
#include <cstring>
#include <string>

#include "model/document.hpp"
#include "model/mhfu/pac.hpp"
#include "reader/cursor.hpp"

namespace remodel {

namespace {

constexpr std::size_t kPacAlignment = 0x800;

template <typename T>
T lift_entry(Cursor& c, Result<T> r, std::size_t offset) {
  if (!r) {
    const Error& e = r.error();
    c.fail_at(e.code, offset + e.offset.value_or(0), e.field.c_str(), e.message);
  }
  return std::move(*r);
}

// An entry in a format PacEntry can hold is read as that format (through the format table); any
// other is kept whole.
template <std::size_t I = 0>
bool read_content(Cursor& c, PacEntry& e, ByteSpan bytes, Format format, std::size_t offset) {
  using Content = decltype(PacEntry::content);
  if constexpr (I < std::variant_size_v<Content>) {
    using T = std::variant_alternative_t<I, Content>;
    if constexpr (!std::is_same_v<T, Verbatim>) {
      if (format_of_type<T>() == format) {
        e.content = std::get<T>(lift_entry(c, read_document(bytes, format), offset));
        return true;
      }
    }
    return read_content<I + 1>(c, e, bytes, format, offset);
  }
  return false;
}

PacEntry read_entry(Cursor& c, ByteSpan bytes, std::size_t offset) {
  PacEntry e;
  const std::optional<Format> format = detect_format(bytes);
  if (!format || !read_content(c, e, bytes, *format, offset)) e.content = Verbatim(bytes);
  return e;
}

}  // namespace

Result<Pac> read_pac(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::little);
    Pac pac;
    const std::uint32_t count = c.u32("count");
    c.check_count(count, 8, "count");
    std::vector<std::pair<std::uint32_t, std::uint32_t>> table(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      PathScope scope(c, "entry", i);
      table[i].first = c.u32("offset");
      table[i].second = c.u32("size");
    }
    pac.entries.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      PathScope scope(c, "entry", i);
      const auto [offset, size] = table[i];
      Verbatim& gap = i == 0 ? pac.gap_after_table : pac.entries.back().gap_after;
      gap = c.gap(offset, 16, 0, 0, "offset");
      ByteSpan content = c.span(size, "size");
      pac.entries.push_back(read_entry(c, content, offset));
    }
    // The pad to 0x800 after the last entry often holds leftover memory: kept when not zeros.
    ByteSpan end = c.span(c.remaining(), "end_padding");
    const std::size_t canonical = (kPacAlignment - (bytes.size() - end.size()) % kPacAlignment) % kPacAlignment;
    bool zeros = end.size() == canonical;
    for (std::size_t k = 0; zeros && k < end.size(); ++k) zeros = end[k] == 0;
    if (!zeros) pac.end_padding = Verbatim(end);
    return pac;
  });
}

}  // namespace remodel
