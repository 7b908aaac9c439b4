// Texture access across containers: a format's add_textures lists its textures as refs, and each
// ref's codec decodes and replaces it.
#include "model/textures.hpp"

#include <algorithm>

namespace remodel {

namespace {

std::vector<TextureRef> texture_refs(Document& doc) {
  TextureRefs out;
  std::visit([&](auto& d) {
    if (const FormatEntry& e = format_entry(format_of(doc)); e.textures != nullptr) e.textures(&d, out);
  }, doc);
  return out;
}

Error located(Error e, const std::string& where) {
  e.field = e.field.empty() ? where : where + "." + e.field;
  return e;
}

}  // namespace

Error no_texture(std::size_t index, std::size_t count) {
  return Error{ErrorCode::bad_value, std::nullopt, "texture", "texture " + std::to_string(index) + " does not exist; the file has " + std::to_string(count)};
}

std::vector<TextureInfo> list_textures(const Document& doc) {
  std::vector<TextureInfo> out;
  for (const TextureRef& r : texture_refs(const_cast<Document&>(doc))) {
    TextureInfo info;
    info.name = r.name;
    info.where = r.where;
    r.codec->info(r.texture, r.index, info);
    out.push_back(std::move(info));
  }
  return out;
}

Result<RgbaImage> decode_texture(const Document& doc, std::size_t index) {
  const std::vector<TextureRef> refs = texture_refs(const_cast<Document&>(doc));
  if (index >= refs.size()) return no_texture(index, refs.size());
  const TextureRef& r = refs[index];
  Result<RgbaImage> image = r.codec->decode(r.texture, r.index);
  if (!image) return located(image.error(), r.where);
  return image;
}

Result<void> replace_texture(Document& doc, std::size_t index, const RgbaImage& image) {
  const std::vector<TextureRef> refs = texture_refs(doc);
  if (index >= refs.size()) return no_texture(index, refs.size());
  const TextureRef& r = refs[index];
  if (auto replaced = r.codec->replace(r.texture, r.index, image); !replaced) return located(replaced.error(), r.where);
  return {};
}

std::optional<std::size_t> find_texture(const Document& doc, const std::string& key) {
  const std::vector<TextureInfo> list = list_textures(doc);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].name == key) return i;
  }
  if (!key.empty() && key.size() < 10 && std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const std::size_t i = std::stoul(key);
    if (i < list.size()) return i;
  }
  return std::nullopt;
}

}  // namespace remodel
