// Building a format's TextureRefs (its add_textures) from its own list of pictures or images.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "model/format.hpp"

namespace remodel {

// One ref per item: named "<name><i>", found at "<where>[<i>]", held in `slot`.
template <typename T>
void add_texture_refs(std::vector<T>& items, const char* name, const char* where, T* TextureRef::*slot, TextureRefs& out) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    TextureRef r;
    const std::string index = std::to_string(i);
    r.name = std::string(name) + index;
    r.where = std::string(where) + "[" + index + "]";
    r.*slot = &items[i];
    out.push_back(std::move(r));
  }
}

}  // namespace remodel
