#include "model/mhfu/pac.hpp"
#include <string>
#include "model/document.hpp"

#include <type_traits>

namespace remodel {

bool looks_like_pac(ByteSpan b) {
  if (b.size() < 12) return false;
  const auto u32 = [&](std::size_t at) {
    return static_cast<std::uint32_t>(b[at] | b[at + 1] << 8 | b[at + 2] << 16 | static_cast<std::uint32_t>(b[at + 3]) << 24);
  };
  const std::uint32_t count = u32(0);
  if (count == 0 || count > 4096 || 4 + 8 * std::size_t{count} > b.size()) return false;
  const std::size_t table_end = 4 + 8 * std::size_t{count};
  std::size_t pos = (table_end + 15) / 16 * 16;
  if (u32(4) != pos) return false;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t offset = u32(4 + 8 * i), size = u32(8 + 8 * i);
    if (offset % 16 != 0 || offset < pos || offset > b.size() || size > b.size() - offset) return false;
    pos = offset + size;
  }
  return true;
}

// Each entry summarised by its own format; the PAC's textures are the ones its entries hold (an MHFU
// PMO's material references are not textures of their own).
void add_info(const Pac& pac, DocumentInfo& info) {
  info.entries += pac.entries.size();
  for (const PacEntry& e : pac.entries) {
    std::visit([&](const auto& content) {
      using T = std::decay_t<decltype(content)>;
      if constexpr (!std::is_same_v<T, Verbatim>) {
        DocumentInfo part{format_of_type<T>()};
        add_document_info(content, part);
        if (format_entry(part.format).textures == nullptr) part.textures = 0;
        info.models += part.models, info.sections += part.sections, info.vertices += part.vertices;
        info.triangles += part.triangles, info.joints += part.joints, info.textures += part.textures;
        info.materials += part.materials;
      }
    }, e.content);
  }
}

void add_textures(Pac& pac, TextureRefs& out) {
  for (std::size_t i = 0; i < pac.entries.size(); ++i) {
    std::visit([&](auto& content) {
      using T = std::decay_t<decltype(content)>;
      if constexpr (!std::is_same_v<T, Verbatim>) {
        const FormatEntry& format = format_entry(format_of_type<T>());
        if (format.textures == nullptr) return;
        TextureRefs refs;
        format.textures(&content, refs);
        for (TextureRef& r : refs) {
          r.name = "entry" + std::to_string(i) + "_" + r.name;
          r.where = "pac.entries[" + std::to_string(i) + "]." + r.where;
          out.push_back(std::move(r));
        }
      }
    }, pac.entries[i].content);
  }
}

}  // namespace remodel
