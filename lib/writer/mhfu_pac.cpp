// Writes MHFU PAC containers: entry offsets and sizes come from where the entries land.
#include <string>

#include "model/document.hpp"
#include "model/mhfu_pac.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

namespace {

// Each entry by its own format's writer, through the format table; an unknown one as it was.
Result<Bytes> write_entry(const PacEntry& e, std::vector<FieldMark>* marks) {
  return std::visit([&](const auto& content) -> Result<Bytes> {
    if constexpr (std::is_same_v<std::decay_t<decltype(content)>, Bytes>) {
      return content;
    } else {
      return write_document(content, marks);
    }
  }, e.content);
}

}  // namespace

Result<Bytes> write_pac(const Pac& pac, std::vector<FieldMark>* marks) {
  return guarded_write([&] {
    ByteWriter w(Endian::little);
    if (marks) w.enable_marks();
    w.mark([] { return std::string("table"); });
    w.u32(static_cast<std::uint32_t>(pac.entries.size()));
    std::vector<std::size_t> at(pac.entries.size());
    for (std::size_t i = 0; i < pac.entries.size(); ++i) {
      at[i] = w.placeholder_u32();
      w.u32(0);
    }
    for (std::size_t i = 0; i < pac.entries.size(); ++i) {
      w.pad(16, 0, 0, i == 0 ? pac.gap_after_table : pac.entries[i - 1].gap_after);
      std::vector<FieldMark> entry_marks;
      Result<Bytes> b = write_entry(pac.entries[i], marks ? &entry_marks : nullptr);
      if (!b) w.fail("entry[" + std::to_string(i) + "]." + b.error().field, b.error().message);
      const std::size_t offset = w.pos();
      w.add_marks(entry_marks, offset, "entry[" + std::to_string(i) + "].");
      if (offset > 0xFFFFFFFFu || b->size() > 0xFFFFFFFFu) w.fail("entry[" + std::to_string(i) + "]", "past 4 GiB");
      w.patch_u32(at[i], static_cast<std::uint32_t>(offset));
      w.patch_u32(at[i] + 4, static_cast<std::uint32_t>(b->size()));
      w.bytes(*b);
    }
    if (pac.entries.empty()) w.bytes(pac.gap_after_table);
    if (pac.end_padding) {
      w.bytes(*pac.end_padding);
    } else {
      w.pad(0x800, 0, 0);
    }
    if (marks) *marks = w.take_marks();
    return w.take();
  });
}

}  // namespace remodel
