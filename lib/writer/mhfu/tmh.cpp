// Writes TMH texture banks; block and entry sizes and the has-CLUT word come from the structure.
#include <limits>
#include <string>

#include "model/mhfu/tmh.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

Result<Bytes> write_tmh_file(const TmhFile& f, WriteReport* report) {
  return guarded_write([&] {
    std::size_t reserve = 16 + f.tail.size();
    for (const TmhImage& img : f.tmh.images) reserve += 48 + img.pixels.size() + (img.clut ? img.clut->data.size() : 0);
    const bool too_big = reserve > std::numeric_limits<std::uint32_t>::max();
    ByteWriter w(Endian::little, too_big ? 0 : reserve, report);
    if (too_big) w.fail("images", "the bank is larger than its 32-bit sizes can describe");
    w.mark([] { return std::string("header"); });
    w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>(".TMH0.14"), 8));
    w.u32(static_cast<std::uint32_t>(f.tmh.images.size()));
    w.u32(f.tmh.unknown_0x0c);
    for (std::size_t i = 0; i < f.tmh.images.size(); ++i) {
      const TmhImage& img = f.tmh.images[i];
      const std::size_t pixel_size = 16 + img.pixels.size();
      const std::size_t clut_size = img.clut ? 16 + img.clut->data.size() : 0;
      w.mark([&] { return "image[" + std::to_string(i) + "]"; });
      w.u32(static_cast<std::uint32_t>(16 + pixel_size + clut_size));
      w.u32(img.unknown_0x04);
      w.u32(img.unknown_0x08);
      w.u32(img.clut ? 1 : 0);
      w.mark([&] { return "image[" + std::to_string(i) + "].pixels"; });
      w.u32(static_cast<std::uint32_t>(pixel_size));
      w.u32(img.pixel_kind);
      w.u32(img.mode);
      w.u16(img.width);
      w.u16(img.height);
      w.bytes(img.pixels);
      if (img.clut) {
        w.mark([&] { return "image[" + std::to_string(i) + "].clut"; });
        w.u32(static_cast<std::uint32_t>(clut_size));
        w.u32(img.clut->kind);
        w.u32(img.clut->mode);
        w.u32(img.clut->entry_count);
        w.bytes(img.clut->data);
      }
    }
    w.tail(f.tail);
    return w.take();
  });
}

}  // namespace remodel
