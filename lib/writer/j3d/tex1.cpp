// Writes TEX1: header and data offsets (relative to each BTI header) from where blocks land.
#include <string>

#include "writer/j3d/common.hpp"

namespace remodel {

void write_j3d_tex1(ByteWriter& w, const J3dTex1& s, std::size_t base, const std::string& filler) {
  if (s.textures.size() > 0xFFFF || s.names.names.size() != s.textures.size()) {
    w.fail("TEX1", "needs one name per texture and at most 65535 textures");
  }
  w.u16(static_cast<std::uint16_t>(s.textures.size()));
  w.u16(s.unknown_0x0a);
  const std::size_t offsets_at = w.pos();
  w.fill(8, 0);
  write_j3d_gap(w, filler, 32, base, s.gap_after_header, [] { return std::string("TEX1.gap_after_header"); });
  if (!s.textures.empty()) w.patch_u32(offsets_at, static_cast<std::uint32_t>(w.pos() - base));
  std::vector<std::size_t> header_at(s.textures.size());
  for (std::size_t i = 0; i < s.textures.size(); ++i) {
    const J3dTexture& t = s.textures[i];
    if (t.image_block >= s.blocks.size() || (t.palette_block && *t.palette_block >= s.blocks.size())) {
      w.fail("TEX1.texture[" + std::to_string(i) + "]", "refers to a data block that does not exist");
    }
    header_at[i] = w.pos();
    w.mark([&] { return "TEX1.texture[" + std::to_string(i) + "]"; });
    w.u8(t.format);
    w.u8(t.alpha);
    w.u16(t.width);
    w.u16(t.height);
    w.u8(t.wrap_s);
    w.u8(t.wrap_t);
    w.u8(t.palette_enable);
    w.u8(t.palette_format);
    w.u16(t.palette_count);
    w.u32(0);  // palette offset, patched
    w.u8(t.mip_enable);
    w.u8(t.edge_lod);
    w.u8(t.bias_clamp);
    w.u8(t.max_aniso);
    w.u8(t.min_filter);
    w.u8(t.mag_filter);
    w.i8(t.min_lod);
    w.i8(t.max_lod);
    w.u8(t.mip_count);
    w.stored_or(t.unknown_0x19, std::uint8_t{0}, [&] { return "TEX1.texture[" + std::to_string(i) + "].unknown_0x19"; });
    w.i16(t.lod_bias);
    w.u32(0);  // image offset, patched
  }
  std::vector<std::size_t> block_at(s.blocks.size());
  for (std::size_t i = 0; i < s.blocks.size(); ++i) {
    block_at[i] = w.pos();
    w.mark([&] { return "TEX1.block[" + std::to_string(i) + "]"; });
    w.bytes(s.blocks[i].data);
    write_j3d_gap(w, filler, 32, base, s.blocks[i].gap_after, [&] { return "TEX1.block[" + std::to_string(i) + "].gap_after"; });
  }
  for (std::size_t i = 0; i < s.textures.size(); ++i) {
    const J3dTexture& t = s.textures[i];
    if (t.palette_block) w.patch_u32(header_at[i] + 0xC, static_cast<std::uint32_t>(block_at[*t.palette_block] - header_at[i]));
    w.patch_u32(header_at[i] + 0x1C, static_cast<std::uint32_t>(block_at[t.image_block] - header_at[i]));
  }
  w.patch_u32(offsets_at + 4, static_cast<std::uint32_t>(w.pos() - base));
  w.mark([] { return std::string("TEX1.names"); });
  write_j3d_names(w, s.names);
  write_j3d_gap(w, filler, 32, base, s.gap_after_names, [] { return std::string("TEX1.gap_after_names"); });
}

}  // namespace remodel
