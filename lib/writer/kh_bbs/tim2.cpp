#include "writer/kh_bbs/tim2.hpp"

#include <limits>
#include <string>

namespace remodel {

void write_tim2_into(ByteWriter& w, const Tim2& t) {
  const std::size_t start = w.pos();
  w.mark([] { return std::string("tim2.header"); });
  w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>("TIM2"), 4));
  w.u8(t.version);
  w.u8(t.format);
  if (t.pictures.size() > 0xFFFF) w.fail("tim2.picture_count", "a TIM2 holds at most 65535 pictures");
  w.u16(static_cast<std::uint16_t>(t.pictures.size()));
  w.bytes(t.unknown_0x08);
  if (t.format == 1) w.pad(kTim2Alignment128, start, 0, t.gap_after_header, [] { return std::string("tim2.gap_after_header"); });
  for (std::size_t i = 0; i < t.pictures.size(); ++i) {
    const Tim2Picture& p = t.pictures[i];
    w.mark([&] { return "tim2.picture[" + std::to_string(i) + "].header"; });
    const std::uint64_t header_size = 0x30 + std::uint64_t{p.extended_header.size()};
    const std::uint64_t total = header_size + p.image.size() + p.clut.size();
    if (header_size > 0xFFFF || total > std::numeric_limits<std::uint32_t>::max()) {
      w.fail("tim2.picture[" + std::to_string(i) + "]", "the picture is larger than a TIM2 can describe");
    }
    const auto picture = [i](const char* field) { return "tim2.picture[" + std::to_string(i) + "]." + field; };
    w.stored_or(p.stored_total_size, static_cast<std::uint32_t>(total), [&] { return picture("stored_total_size"); });
    w.stored_or(p.stored_clut_size, static_cast<std::uint32_t>(p.clut.size()), [&] { return picture("stored_clut_size"); });
    w.u32(static_cast<std::uint32_t>(p.image.size()));
    w.u16(static_cast<std::uint16_t>(header_size));
    w.u16(p.clut_colors);
    w.u8(p.pict_format);
    w.u8(p.mipmap_count);
    w.u8(p.clut_type);
    w.u8(p.image_type);
    w.u16(p.width);
    w.u16(p.height);
    w.u64(p.gs_tex0);
    w.u64(p.gs_tex1);
    w.u32(p.gs_texa_fba_pabe);
    w.u32(p.gs_tex_clut);
    w.bytes(p.extended_header);
    w.mark([&] { return "tim2.picture[" + std::to_string(i) + "].image"; });
    w.bytes(p.image);
    w.mark([&] { return "tim2.picture[" + std::to_string(i) + "].clut"; });
    w.bytes(p.clut);
  }
}

Result<Bytes> write_tim2_file(const Tim2File& f, WriteReport* report) {
  return guarded_write([&] {
    ByteWriter w(Endian::little, tim2_size(f.tim2) + f.tail.size(), report);
    write_tim2_into(w, f.tim2);
    w.tail(f.tail);
    return w.take();
  });
}

}  // namespace remodel
