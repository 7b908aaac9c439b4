// `remodel textures`: list, extract to PNG, and replace from PNG.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

#include "commands.hpp"
#include "file_io.hpp"
#include "model/json.hpp"
#include "model/textures.hpp"

namespace remodel::cli {

namespace fs = std::filesystem;

namespace {

const char* kTexturesUsage =
    "usage: remodel textures list FILE [--json]\n"
    "       remodel textures extract FILE -o DIR\n"
    "       remodel textures replace FILE INDEX|NAME IMAGE.png -o OUT [--resize]\n"
    "  list: every texture with its index, name, format, size, mip levels and (GX) wrap and filters;\n"
    "  --json prints one object per texture (index, name, format, width, height, levels, sampling, field).\n"
    "  extract: writes each texture's top level as DIR/<index>_<name>.png.\n"
    "  replace: encodes the PNG into that texture's own format (indexed formats keep their palette\n"
    "  when every colour is in it, else get a new one; CMPR is compressed) and writes OUT, which\n"
    "  differs from FILE only in that texture and the sizes and offsets after it. The texture takes\n"
    "  the PNG's size; --resize scales the PNG to the texture's current size instead.\n"
    "  examples: remodel textures extract ww_jb.bdl -o jb_textures\n"
    "            remodel textures replace ww_jb.bdl 3 edited.png -o ww_jb_mod.bdl\n";

struct TextureOptions {
  bool help = false, resize = false, json = false;
  std::string output, unknown, missing_value;
  std::vector<std::string> positional;
};

TextureOptions parse_texture_options(const Args& args) {
  TextureOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--resize") {
      o.resize = true;
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "-o" || a == "--output") {
      if (i + 1 < args.size()) {
        o.output = args[++i];
      } else {
        o.missing_value = a;
      }
    } else if (a.size() > 1 && a[0] == '-' && o.unknown.empty()) {
      o.unknown = a;
    } else {
      o.positional.push_back(a);
    }
  }
  return o;
}

int usage(const std::string& message) {
  std::fprintf(stderr, "remodel: %s\n%s", message.c_str(), kTexturesUsage);
  return 2;
}

// File names keep letters, digits, '-', '_' and '.'; anything else becomes '_'.
std::string file_safe(const std::string& name) {
  std::string out;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    out += ok ? c : '_';
  }
  return out.empty() ? "texture" : out;
}

int list(const fs::path& file, bool json) {
  Bytes bytes;
  Result<Document> doc = load(file, bytes);
  if (!doc) {
    print_error(file, doc.error());
    return 1;
  }
  const std::vector<TextureInfo> textures = list_textures(*doc);
  if (json) {
    for (std::size_t i = 0; i < textures.size(); ++i) {
      const TextureInfo& t = textures[i];
      const nlohmann::ordered_json line = {{"index", i},          {"name", json_text(t.name)}, {"format", t.format},     {"width", t.width},
                                           {"height", t.height},  {"levels", t.levels},        {"sampling", t.sampling}, {"field", json_text(t.where)}};
      std::printf("%s\n", line.dump().c_str());
    }
    return 0;
  }
  for (std::size_t i = 0; i < textures.size(); ++i) {
    const TextureInfo& t = textures[i];
    std::printf("%3zu  %-24s %-18s %4ux%-4u  %u level%s%s%s\n", i, t.name.c_str(), t.format.c_str(), t.width, t.height, t.levels,
                t.levels == 1 ? " " : "s", t.sampling.empty() ? "" : "  ", t.sampling.c_str());
  }
  if (textures.empty()) std::printf("%s has no textures\n", file.string().c_str());
  return 0;
}

int extract(const fs::path& file, const fs::path& dir) {
  Bytes bytes;
  Result<Document> doc = load(file, bytes);
  if (!doc) {
    print_error(file, doc.error());
    return 1;
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    print_error(dir, Error{ErrorCode::io, 0, "", "cannot create the directory: " + ec.message()});
    return 1;
  }
  const std::vector<TextureInfo> textures = list_textures(*doc);
  int status = 0;
  for (std::size_t i = 0; i < textures.size(); ++i) {
    Result<RgbaImage> image = decode_texture(*doc, i);
    if (!image) {
      print_error(file, image.error());
      status = 1;
      continue;
    }
    const fs::path out = dir / (std::to_string(i) + "_" + file_safe(textures[i].name) + ".png");
    if (auto error = write_file_atomic(out, write_png(*image))) {
      print_error(out, *error);
      status = 1;
      continue;
    }
    std::printf("%s  %s %ux%u\n", out.string().c_str(), textures[i].format.c_str(), image->width, image->height);
  }
  return status;
}

int replace(const fs::path& file, const std::string& which, const fs::path& png, const fs::path& output, bool resize) {
  Bytes bytes;
  Result<Document> doc = load(file, bytes);
  if (!doc) {
    print_error(file, doc.error());
    return 1;
  }
  const std::optional<std::size_t> index = find_texture(*doc, which);
  if (!index) {
    print_error(file, Error{ErrorCode::bad_value, 0, "texture", "no texture has the index or name '" + which + "' (see remodel textures list)"});
    return 1;
  }
  Result<Bytes> png_bytes = read_file(png);
  if (!png_bytes) {
    print_error(png, png_bytes.error());
    return 1;
  }
  Result<RgbaImage> image = read_png(*png_bytes);
  if (!image) {
    print_error(png, image.error());
    return 1;
  }
  const TextureInfo info = list_textures(*doc)[*index];
  if (resize && (image->width != info.width || image->height != info.height)) *image = resize_image(*image, info.width, info.height);
  if (auto error = replace_texture(*doc, *index, *image)) {
    print_error(file, *error);
    return 1;
  }
  Result<Bytes> out = write_document(*doc);
  if (!out) {
    print_error(file, out.error());
    return 1;
  }
  if (auto error = write_file_atomic(output, *out)) {
    print_error(output, *error);
    return 1;
  }
  std::printf("replaced texture %zu (%s, %s) with %ux%u; wrote %s (%zu bytes)\n", *index, info.name.c_str(), info.format.c_str(), image->width,
              image->height, output.string().c_str(), out->size());
  return 0;
}

}  // namespace

int cmd_textures(const Args& args) {
  const TextureOptions o = parse_texture_options(args);
  if (o.help) {
    std::fputs(kTexturesUsage, stdout);
    return 0;
  }
  if (!o.unknown.empty()) return usage("unknown option " + o.unknown);
  if (!o.missing_value.empty()) return usage(o.missing_value + " needs a value");
  if (o.positional.empty()) return usage("textures needs a subcommand: list, extract or replace");
  const std::string& sub = o.positional[0];
  if (sub == "list") {
    if (o.positional.size() != 2) return usage("textures list takes one file");
    return list(o.positional[1], o.json);
  }
  if (sub == "extract") {
    if (o.positional.size() != 2 || o.output.empty()) return usage("textures extract takes one file and -o DIR");
    return extract(o.positional[1], o.output);
  }
  if (sub == "replace") {
    if (o.positional.size() != 4 || o.output.empty()) return usage("textures replace takes FILE INDEX|NAME IMAGE.png and -o OUT");
    return replace(o.positional[1], o.positional[2], o.positional[3], o.output, o.resize);
  }
  return usage("unknown textures subcommand '" + sub + "'");
}

}  // namespace remodel::cli
