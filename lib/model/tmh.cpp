#include "model/tmh.hpp"

#include <string>

namespace remodel {

void add_info(const TmhFile& f, DocumentInfo& info) {
  info.textures += f.tmh.images.size();
}

void add_textures(TmhFile& f, TextureRefs& out) {
  for (std::size_t i = 0; i < f.tmh.images.size(); ++i) {
    TextureRef r;
    r.name = "image" + std::to_string(i);
    r.where = "tmh.images[" + std::to_string(i) + "]";
    r.tmh = &f.tmh.images[i];
    out.push_back(std::move(r));
  }
}

}  // namespace remodel
