// Writes MHFU PAC containers: entry offsets and sizes come from where the entries land.
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "model/document.hpp"
#include "model/mhfu/pac.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

Result<Bytes> write_pac(const Pac& pac, WriteReport* report) {
  return guarded_write([&] {
    ByteWriter w(Endian::little, 0, report);
    w.mark([] { return std::string("table"); });
    w.u32(static_cast<std::uint32_t>(pac.entries.size()));
    std::vector<std::size_t> at(pac.entries.size());
    for (std::size_t i = 0; i < pac.entries.size(); ++i) {
      at[i] = w.placeholder_u32();
      w.u32(0);
    }
    for (std::size_t i = 0; i < pac.entries.size(); ++i) {
      const std::string entry = "entry[" + std::to_string(i) + "]";
      if (i == 0) {
        w.pad(16, 0, 0, pac.gap_after_table, [] { return std::string("gap_after_table"); });
      } else {
        w.pad(16, 0, 0, pac.entries[i - 1].gap_after, [&] { return "entry[" + std::to_string(i - 1) + "].gap_after"; });
      }
      const std::size_t offset = w.pos();
      // Each entry by its own format's writer, through the format table; an unknown one as it was.
      std::visit([&](const auto& content) {
        if constexpr (std::is_same_v<std::decay_t<decltype(content)>, Verbatim>) {
          w.mark([&] { return entry; });
          w.verbatim(content, [&] { return entry; });
        } else {
          std::optional<WriteReport> nested = w.nested_report();
          Result<Bytes> b = write_document(content, nested ? &*nested : nullptr);
          if (!b) w.fail(entry + "." + b.error().field, b.error().message);
          if (nested) w.add_report(*nested, offset, entry + ".");
          w.bytes(*b);
        }
      }, pac.entries[i].content);
      const std::size_t size = w.pos() - offset;
      if (offset > 0xFFFFFFFFu || size > 0xFFFFFFFFu) w.fail(entry, "past 4 GiB");
      w.patch_u32(at[i], static_cast<std::uint32_t>(offset));
      w.patch_u32(at[i] + 4, static_cast<std::uint32_t>(size));
    }
    if (pac.entries.empty()) w.verbatim(pac.gap_after_table, [] { return std::string("gap_after_table"); });
    if (!w.verbatim(pac.end_padding, [] { return std::string("end_padding"); })) w.pad(0x800, 0, 0);
    return w.take();
  });
}

}  // namespace remodel
