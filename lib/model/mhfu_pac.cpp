#include "model/mhfu_pac.hpp"

#include <type_traits>

namespace remodel {

std::size_t verbatim_bytes(const Pac& pac) {
  std::size_t n = pac.gap_after_table.size() + (pac.end_padding ? pac.end_padding->size() : 0);
  for (const PacEntry& e : pac.entries) {
    n += e.gap_after.size();
    n += std::visit([](const auto& c) -> std::size_t {
      if constexpr (std::is_same_v<std::decay_t<decltype(c)>, Bytes>) {
        return c.size();  // an entry no reader recognised is verbatim as a whole
      } else {
        return verbatim_bytes(c);
      }
    }, e.content);
  }
  return n;
}

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

}  // namespace remodel
