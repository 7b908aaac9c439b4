// Reads TEX1: BTI headers, then image and palette blocks (shared where headers point at the same
// offset), then the name table.
#include <algorithm>
#include <string>

#include "reader/j3d/common.hpp"

namespace remodel {

namespace {

constexpr std::size_t kBtiSize = 0x20;

struct StoredOffsets {
  std::size_t header = 0, palette = 0, image = 0;
};

}  // namespace

J3dTex1 read_j3d_tex1(Cursor& c, J3dFiller& filler) {
  J3dTex1 s;
  const std::uint16_t count = c.u16("count");
  s.unknown_0x0a = c.u16("unknown_0x0a");
  const std::uint32_t headers_at = c.u32("headers_offset");
  const std::uint32_t names_at = c.u32("names_offset");
  if ((count == 0) != (headers_at == 0)) {
    c.fail_at(ErrorCode::unsupported, 0xC, "headers_offset", "a header offset that disagrees with the texture count is not supported");
  }
  s.gap_after_header = read_j3d_gap(c, filler, count != 0 ? headers_at : names_at, 32, "headers_offset");
  c.check_count(count, kBtiSize, "count");
  s.textures.resize(count);
  std::vector<StoredOffsets> stored(count);
  for (std::size_t i = 0; i < count; ++i) {
    PathScope scope(c, "texture", static_cast<std::int64_t>(i));
    J3dTexture& t = s.textures[i];
    stored[i].header = c.pos();
    t.format = c.u8("format");
    t.alpha = c.u8("alpha");
    t.width = c.u16("width");
    t.height = c.u16("height");
    t.wrap_s = c.u8("wrap_s");
    t.wrap_t = c.u8("wrap_t");
    t.palette_enable = c.u8("palette_enable");
    t.palette_format = c.u8("palette_format");
    t.palette_count = c.u16("palette_count");
    stored[i].palette = stored[i].header + c.u32("palette_offset");
    t.mip_enable = c.u8("mip_enable");
    t.edge_lod = c.u8("edge_lod");
    t.bias_clamp = c.u8("bias_clamp");
    t.max_aniso = c.u8("max_aniso");
    t.min_filter = c.u8("min_filter");
    t.mag_filter = c.u8("mag_filter");
    t.min_lod = c.i8("min_lod");
    t.max_lod = c.i8("max_lod");
    t.mip_count = c.u8("mip_count");
    if (const std::uint8_t v = c.u8("unknown_0x19"); v != 0) t.unknown_0x19 = v;
    t.lod_bias = c.i16("lod_bias");
    stored[i].image = stored[i].header + c.u32("image_offset");
    if (stored[i].image == stored[i].header) c.fail(ErrorCode::unsupported, "image_offset", "an image at its own header is not supported");
  }
  // Blocks: every distinct image offset, palette offset and palette cursor, with the length the
  // headers that point at it give it (the image's tiles, or two bytes per palette entry).
  std::vector<std::pair<std::size_t, std::size_t>> blocks;  // offset, length
  for (std::size_t i = 0; i < count; ++i) {
    const J3dTexture& t = s.textures[i];
    blocks.push_back({stored[i].image, gx_image_size(t.format, t.width, t.height, t.mip_count)});
    if (stored[i].palette != stored[i].header) blocks.push_back({stored[i].palette, std::size_t{t.palette_count} * 2});
  }
  std::sort(blocks.begin(), blocks.end());
  std::vector<std::pair<std::size_t, std::size_t>> merged;
  for (const auto& b : blocks) {
    if (!merged.empty() && merged.back().first == b.first) {
      merged.back().second = std::max(merged.back().second, b.second);
    } else {
      merged.push_back(b);
    }
  }
  s.blocks.resize(merged.size());
  for (std::size_t i = 0; i < merged.size(); ++i) {
    PathScope scope(c, "block", static_cast<std::int64_t>(i));
    const auto [start, length] = merged[i];
    if (start != c.pos()) {
      c.fail_at(ErrorCode::unsupported, start, "offset",
                "data at " + std::to_string(start) + " does not follow the data before it (at " + std::to_string(c.pos()) + ")");
    }
    const std::size_t end = i + 1 < merged.size() ? merged[i + 1].first : names_at;
    if (end < start || length > end - start) {
      c.fail_at(ErrorCode::bad_value, start, "data", std::to_string(length) + " bytes of texture data run into the next block");
    }
    s.blocks[i].data = c.bytes(length, "data");
    s.blocks[i].gap_after = read_j3d_gap(c, filler, end, 32, "padding");
  }
  const auto block_of = [&](std::size_t offset) {
    return static_cast<std::uint32_t>(std::lower_bound(merged.begin(), merged.end(), std::make_pair(offset, std::size_t{0})) - merged.begin());
  };
  for (std::size_t i = 0; i < count; ++i) {
    s.textures[i].image_block = block_of(stored[i].image);
    if (stored[i].palette != stored[i].header) s.textures[i].palette_block = block_of(stored[i].palette);
  }
  {
    PathScope scope(c, "names");
    s.names = read_j3d_names(c, count);
  }
  s.gap_after_names = read_j3d_gap(c, filler, c.size(), 32, "size");
  return s;
}

}  // namespace remodel
