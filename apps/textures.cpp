// `remodel textures`: list, extract to PNG, and replace from PNG.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

#include "cli.hpp"
#include "model/json.hpp"
#include "model/textures.hpp"

namespace remodel::cli {

namespace fs = std::filesystem;

namespace {

// File names keep letters, digits, '-', '_' and '.'; anything else becomes '_'.
std::string file_safe(const std::string& name) {
  std::string out;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    out += ok ? c : '_';
  }
  return out.empty() ? "texture" : out;
}

}  // namespace

int cmd_textures_list(const Invocation& in) {
  const fs::path file = in.value("FILE");
  const bool json = in.flag("json");
  Bytes bytes;
  Result<Document> doc = load(file, bytes, in.value("member"));
  if (!doc) {
    print_error(file, doc.error());
    return kFailed;
  }
  const std::vector<TextureInfo> textures = list_textures(*doc);
  if (json) {
    for (std::size_t i = 0; i < textures.size(); ++i) {
      const TextureInfo& t = textures[i];
      const nlohmann::ordered_json line = {{"index", i},          {"name", json_text(t.name)}, {"format", t.format},     {"width", t.width},
                                           {"height", t.height},  {"levels", t.levels},        {"sampling", t.sampling}, {"field", json_text(t.where)}};
      std::printf("%s\n", line.dump().c_str());
    }
    return kOk;
  }
  for (std::size_t i = 0; i < textures.size(); ++i) {
    const TextureInfo& t = textures[i];
    std::printf("%3zu  %-24s %-18s %4ux%-4u  %u level%s%s%s\n", i, shown(t.name).c_str(), t.format.c_str(), t.width, t.height, t.levels,
                t.levels == 1 ? " " : "s", t.sampling.empty() ? "" : "  ", t.sampling.c_str());
  }
  if (textures.empty()) std::printf("%s has no textures\n", shown(file).c_str());
  return kOk;
}

int cmd_textures_extract(const Invocation& in) {
  const fs::path file = in.value("FILE"), dir = in.value("output");
  Bytes bytes;
  Result<Document> doc = load(file, bytes, in.value("member"));
  if (!doc) {
    print_error(file, doc.error());
    return kFailed;
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    print_error(dir, Error{ErrorCode::io, std::nullopt, "", "cannot create the directory: " + ec.message()});
    return kFailed;
  }
  const std::vector<TextureInfo> textures = list_textures(*doc);
  int status = kOk;
  for (std::size_t i = 0; i < textures.size(); ++i) {
    Result<RgbaImage> image = decode_texture(*doc, i);
    if (!image) {
      print_error(file, image.error());
      status = kFailed;
      continue;
    }
    const fs::path out = dir / (std::to_string(i) + "_" + file_safe(textures[i].name) + ".png");
    if (auto error = write_file_atomic(out, write_png(*image)); !error) {
      print_error(out, error.error());
      status = kFailed;
      continue;
    }
    std::printf("%s  %s %ux%u\n", shown(out).c_str(), textures[i].format.c_str(), image->width, image->height);
  }
  return status;
}

int cmd_textures_replace(const Invocation& in) {
  const fs::path file = in.value("FILE"), png = in.value("IMAGE"), output = in.value("output");
  const std::string& which = in.value("TEXTURE");
  const bool resize = in.flag("resize");
  Bytes bytes;
  Result<Document> doc = load(file, bytes);
  if (!doc) {
    print_error(file, doc.error());
    return kFailed;
  }
  const std::optional<std::size_t> index = find_texture(*doc, which);
  if (!index) {
    print_error(file, Error{ErrorCode::bad_value, std::nullopt, "texture", "no texture has the index or name '" + which + "' (see remodel textures list)"});
    return kFailed;
  }
  Result<Bytes> png_bytes = read_file(png);
  if (!png_bytes) {
    print_error(png, png_bytes.error());
    return kFailed;
  }
  Result<RgbaImage> image = read_png(*png_bytes);
  if (!image) {
    print_error(png, image.error());
    return kFailed;
  }
  const TextureInfo info = list_textures(*doc)[*index];
  if (resize && (image->width != info.width || image->height != info.height)) *image = resize_image(*image, info.width, info.height);
  if (auto replaced = replace_texture(*doc, *index, *image); !replaced) {
    print_error(file, replaced.error());
    return kFailed;
  }
  Result<Bytes> out = write_document(*doc);
  if (!out) {
    print_error(file, out.error());
    return kFailed;
  }
  if (auto error = write_file_atomic(output, *out); !error) {
    print_error(output, error.error());
    return kFailed;
  }
  std::printf("replaced texture %zu (%s, %s) with %ux%u; wrote %s (%zu bytes)\n", *index, shown(info.name).c_str(), info.format.c_str(), image->width,
              image->height, shown(output).c_str(), out->size());
  return kOk;
}

}  // namespace remodel::cli
