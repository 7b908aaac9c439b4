#include "model/kh_bbs/tim2.hpp"
#include <string>

#include "model/psp/texture.hpp"
#include "model/texture_codec.hpp"

namespace remodel {

namespace {
constexpr std::size_t kFileHeaderSize = 0x10;
constexpr std::size_t kPictureHeaderSize = 0x30;

void picture_info(const Tim2Picture& p, std::size_t, TextureInfo& info) {
  info.format = tim2_format_name(p);
  info.width = p.width, info.height = p.height, info.levels = p.mipmap_count;
}
Result<RgbaImage> decode_picture(const Tim2Picture& p, std::size_t) { return decode_tim2_picture(p); }
Result<void> replace_picture(Tim2Picture& p, std::size_t, const RgbaImage& image) { return encode_tim2_picture(p, image); }

}  // namespace

constinit const TextureCodec tim2_picture_codec = texture_codec<Tim2Picture, picture_info, decode_picture, replace_picture>();

std::size_t tim2_clut_entry_size(std::uint8_t clut_type) {
  switch (clut_type & 0x3F) {
    case 1: return 2;
    case 2: return 3;
    case 3: return 4;
    default: return 0;
  }
}

std::size_t tim2_size(const Tim2& t) {
  std::size_t n = kFileHeaderSize;
  if (t.format == 1) n += t.gap_after_header.stored() ? t.gap_after_header.size() : kTim2Alignment128 - kFileHeaderSize;
  for (const Tim2Picture& p : t.pictures) n += kPictureHeaderSize + p.extended_header.size() + p.image.size() + p.clut.size();
  return n;
}

void add_info(const Tim2File& f, DocumentInfo& info) {
  info.textures += f.tim2.pictures.size();
}

void add_textures(Tim2File& f, TextureRefs& out) {
  add_texture_refs(f.tim2.pictures, "picture", "tim2.pictures", tim2_picture_codec, out);
}

}  // namespace remodel
