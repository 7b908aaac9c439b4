// remodel formats: every format as the two tables register it (lib/model's format table, lib/scene's
// family table), for a reader and for programs (the Blender add-on reads --json for its menus).
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "scene/family_table.hpp"

namespace remodel::cli {

namespace {

using Json = nlohmann::ordered_json;

// The operations a format supports, by the names `formats` prints.
Json operations(const FormatEntry& model, const scene::FamilyEntry& family) {
  return Json{{"read", model.read != nullptr},          {"write", model.write != nullptr},
              {"lift", family.lift != nullptr},         {"lower", family.lower != nullptr},
              {"author", family.author != nullptr},     {"textures", model.textures != nullptr}};
}

// A magic as a C string literal: printable ASCII as is, every other byte as \xNN.
std::string quoted_magic(std::string_view magic) {
  std::string out = "\"";
  for (const char c : magic) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\') {
      out += c;
    } else {
      char escape[5];
      std::snprintf(escape, sizeof escape, "\\x%02x", byte);
      out += escape;
    }
  }
  return out + "\"";
}

// A magic as JSON text: each byte the code point of its value (U+0000-U+00FF), so "\0\0\0\xC0" reads
// back byte for byte; printed ASCII-only, bytes outside it as \u00NN.
std::string magic_text(std::string_view magic) {
  std::string out;
  for (const char c : magic) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) {
      out += c;
    } else {
      out += static_cast<char>(0xC0 | (byte >> 6));
      out += static_cast<char>(0x80 | (byte & 0x3F));
    }
  }
  return out;
}

}  // namespace

int cmd_formats(const Invocation& in) {
  const bool json = in.flag("json");
  Json all = Json::array();
  for (const scene::FamilyEntry* family : scene::entries_by_family()) {
    const FormatEntry& model = format_entry(family->format);
    const Json supports = operations(model, *family);
    if (!json) {
      std::string extensions, supported;
      for (const scene::FileKind& kind : family->files) (extensions += extensions.empty() ? "" : " ") += kind.extension;
      for (const auto& [operation, yes] : supports.items()) {
        if (yes.get<bool>()) (supported += supported.empty() ? "" : " ") += operation;
      }
      const std::string magic = model.magic.empty() ? "(by content)" : quoted_magic(model.magic);
      std::printf("%-16s %-10s %-18s %s\n", model.name, extensions.c_str(), magic.c_str(), supported.c_str());
      continue;
    }
    Json extensions = Json::array(), files = Json::array();
    for (const scene::FileKind& kind : family->files) {
      extensions.push_back(kind.extension);
      files.push_back(Json{{"name", family->option(kind)}, {"extension", kind.extension}, {"label", kind.label}, {"authored", kind.authored && family->author != nullptr}});
    }
    Json j{{"name", model.name},
           {"family", family->family},
           {"extensions", extensions},
           {"magic", model.magic.empty() ? Json() : Json(magic_text(model.magic))}};
    j.update(supports);
    j["holds_model"] = family->holds_model();
    j["by_extension"] = family->by_extension;
    j["files"] = files;
    all.push_back(std::move(j));
  }
  if (json) std::puts(all.dump(2, ' ', true).c_str());
  return kOk;
}

}  // namespace remodel::cli
