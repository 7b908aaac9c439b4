#include "model/mhfu/tmh.hpp"

#include <string>

#include "model/texture_refs.hpp"

namespace remodel {

void add_info(const TmhFile& f, DocumentInfo& info) {
  info.textures += f.tmh.images.size();
}

void add_textures(TmhFile& f, TextureRefs& out) {
  add_texture_refs(f.tmh.images, "image", "tmh.images", &TextureRef::tmh, out);
}

}  // namespace remodel
