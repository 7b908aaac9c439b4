#include "model/mhfu/tmh.hpp"

#include <string>

#include "model/psp/texture.hpp"
#include "model/texture_codec.hpp"

namespace remodel {

namespace {

void image_info(const TmhImage& t, std::size_t, TextureInfo& info) {
  info.format = tmh_format_name(t);
  info.width = t.width, info.height = t.height;
}
Result<RgbaImage> decode_image(const TmhImage& t, std::size_t) { return decode_tmh_image(t); }
Result<void> replace_image(TmhImage& t, std::size_t, const RgbaImage& image) { return encode_tmh_image(t, image); }

}  // namespace

constinit const TextureCodec tmh_image_codec = texture_codec<TmhImage, image_info, decode_image, replace_image>();

void add_info(const TmhFile& f, DocumentInfo& info) {
  info.textures += f.tmh.images.size();
}

void add_textures(TmhFile& f, TextureRefs& out) {
  add_texture_refs(f.tmh.images, "image", "tmh.images", tmh_image_codec, out);
}

}  // namespace remodel
