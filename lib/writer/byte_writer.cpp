#include "writer/byte_writer.hpp"

namespace remodel {

void ByteWriter::pad(std::size_t alignment, std::size_t base, std::uint8_t fill_byte,
                     std::span<const std::uint8_t> verbatim) {
  std::size_t rel = pos() - base;
  std::size_t n = (alignment - rel % alignment) % alignment;
  if (!verbatim.empty() && (rel + verbatim.size()) % alignment == 0) {
    bytes(verbatim);
  } else {
    fill(n, fill_byte);
  }
}

void ByteWriter::patch_u32(std::size_t at, std::uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) {
    std::size_t shift = 8 * (endian_ == Endian::little ? i : 3 - i);
    out_[at + i] = static_cast<std::uint8_t>(v >> shift);
  }
}

void ByteWriter::patch_u16(std::size_t at, std::uint16_t v) {
  for (std::size_t i = 0; i < 2; ++i) {
    std::size_t shift = 8 * (endian_ == Endian::little ? i : 1 - i);
    out_[at + i] = static_cast<std::uint8_t>(v >> shift);
  }
}

}  // namespace remodel
