#include "reader/kh_bbs/tim2.hpp"

namespace remodel {

namespace {

constexpr std::size_t kPictureHeaderSize = 0x30;

Tim2Picture read_picture(Cursor& c) {
  Tim2Picture p;
  const std::size_t start = c.pos();
  const std::uint32_t total_size = c.u32("total_size");
  const std::uint32_t clut_size = c.u32("clut_size");
  const std::uint32_t image_size = c.u32("image_size");
  const std::uint16_t header_size = c.u16("header_size");
  p.clut_colors = c.u16("clut_colors");
  p.pict_format = c.u8("pict_format");
  p.mipmap_count = c.u8("mipmap_count");
  p.clut_type = c.u8("clut_type");
  p.image_type = c.u8("image_type");
  p.width = c.u16("width");
  p.height = c.u16("height");
  p.gs_tex0 = c.u64("gs_tex0");
  p.gs_tex1 = c.u64("gs_tex1");
  p.gs_texa_fba_pabe = c.u32("gs_texa_fba_pabe");
  p.gs_tex_clut = c.u32("gs_tex_clut");
  if (header_size < kPictureHeaderSize) {
    c.fail_at(ErrorCode::bad_value, start + 12, "header_size",
              "is " + std::to_string(header_size) + " but a picture header is at least 48 bytes");
  }
  p.extended_header = c.bytes(header_size - kPictureHeaderSize, "extended_header");
  p.image = c.bytes(image_size, "image");
  // A consistent total size vouches for clut_size; otherwise the palette is as long as its colours say.
  const std::uint64_t claimed = std::uint64_t{header_size} + image_size + clut_size;
  const std::uint64_t from_colours = std::uint64_t{p.clut_colors} * tim2_clut_entry_size(p.clut_type);
  const std::uint64_t clut_length = (claimed == total_size || from_colours == 0) ? clut_size : from_colours;
  p.clut = c.bytes(clut_length, "clut");
  if (clut_length != clut_size) p.stored_clut_size = clut_size;
  if (std::uint64_t{header_size} + image_size + clut_length != total_size) p.stored_total_size = total_size;
  return p;
}

}  // namespace

Tim2 read_tim2_at(Cursor& c) {
  Tim2 t;
  const std::size_t start = c.pos();
  if (!c.has_magic(start, "TIM2")) c.fail(ErrorCode::bad_magic, "magic", "does not start with \"TIM2\"");
  c.skip(4, "magic");
  t.version = c.u8("version");
  t.format = c.u8("format");
  const std::uint16_t count = c.u16("picture_count");
  t.unknown_0x08 = c.array<8>("unknown_0x08");
  // No real file has another format: Sony's TIM2 defines 0 (16-byte) and 1 (128-byte alignment) only.
  if (t.format > 1) c.fail_at(ErrorCode::bad_value, start + 5, "format", "is " + std::to_string(t.format) + "; TIM2 defines 0 and 1");
  if (t.format == 1) t.gap_after_header = c.padding(kTim2Alignment128, start, 0, "format");
  c.check_count(count, kPictureHeaderSize, "picture_count");
  t.pictures.reserve(count);
  for (std::uint16_t i = 0; i < count; ++i) {
    PathScope scope(c, "picture", i);
    t.pictures.push_back(read_picture(c));
  }
  return t;
}

Result<Tim2File> read_tim2_file(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::little);
    Tim2File f;
    f.tim2 = read_tim2_at(c);
    f.tail = c.tail("tail");
    return f;
  });
}

}  // namespace remodel
