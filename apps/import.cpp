// remodel import: a glTF written over the model it came from (--like): the base supplies what glTF
// cannot carry, the glTF what it can (scene::lower, one arm per format); without --like, a new file
// authored from the glTF alone (scene::author).
#include <cstdio>
#include <filesystem>
#include <optional>
#include <vector>

#include "cli.hpp"
#include "model/archive/members.hpp"
#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "scene/family_table.hpp"
#include "scene/lower.hpp"

namespace remodel::cli {

namespace fs = std::filesystem;

namespace {

// The formats a new file can be authored in, grouped by family as the help lists them.
std::vector<const scene::FamilyEntry*> authored_entries() {
  std::vector<const scene::FamilyEntry*> out = scene::entries_by_family();
  std::erase_if(out, [](const scene::FamilyEntry* e) { return e->author == nullptr; });
  return out;
}

// The format a new file is authored in: --format, else the output's extension.
std::optional<Format> authored_format(const std::string& name, const fs::path& out) {
  for (const scene::FamilyEntry* e : authored_entries()) {
    for (const scene::FileKind& kind : e->files) {
      if (!kind.authored) continue;
      if (name.empty() ? e->by_extension && out.extension() == kind.extension : name == e->option(kind)) return e->format;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string new_file_formats(const char* separator) {
  std::string out;
  for (const scene::FamilyEntry* e : authored_entries()) {
    for (const scene::FileKind& kind : e->files) {
      if (kind.authored) out += (out.empty() ? "" : separator) + std::string(e->option(kind));
    }
  }
  return out;
}

std::string new_file_extensions(const char* separator, const char* last) {
  std::vector<std::string> extensions;
  for (const scene::FamilyEntry* e : authored_entries()) {
    if (!e->by_extension) continue;
    for (const scene::FileKind& kind : e->files) {
      if (kind.authored) extensions.emplace_back(kind.extension);
    }
  }
  std::string out;
  for (std::size_t i = 0; i < extensions.size(); ++i) out += (i == 0 ? "" : i + 1 == extensions.size() ? last : separator) + extensions[i];
  return out;
}

namespace {

// The archive `path` with the file at `member` replaced by `data`: every other member, the order,
// IDs and compression as they were.
Result<Bytes> with_member(const fs::path& path, const std::string& member, Bytes data) {
  Result<Bytes> bytes = read_file(path);
  if (!bytes) return bytes.error();
  Result<Archive> archive = open_archive(*bytes);
  if (!archive) return archive.error();
  Result<RarcEntry*> entry = member_at(archive->rarc, member);
  if (!entry) return entry.error();
  (*entry)->data = std::move(data);
  return write_archive(*archive);
}

}  // namespace

int cmd_import(const Invocation& invocation) {
  const fs::path in = invocation.value("INPUT"), like = invocation.value("like"), out = invocation.value("output");
  const std::string& skeleton_path = invocation.value("skeleton");
  const std::string& member = invocation.value("member");
  if (!member.empty() && like.empty()) {
    std::fprintf(stderr, "remodel: import: --member names a model inside --like's archive\nRun 'remodel import --help' for more.\n");
    return kUsage;
  }
  if (in.extension() != ".glb" && in.extension() != ".gltf") {
    std::fprintf(stderr, "remodel: import: %s is not a .glb or .gltf file\nRun 'remodel import --help' for more.\n", shown(in).c_str());
    return kUsage;
  }
  const std::string& format_option = invocation.value("format");
  std::optional<Format> authored;
  if (like.empty()) {
    authored = authored_format(format_option, out);
    if (!authored) {
      std::fprintf(stderr, "remodel: import: %s\nRun 'remodel import --help' for more.\n",
                   shown(format_option.empty() ? "without --like the format comes from --format or OUT's extension, and \"" + out.extension().string() +
                                                     "\" names none (" + new_file_extensions(", ", ", ") + ")"
                                                 : "--format " + format_option + " is not one a glTF can be authored into (" + new_file_formats(", ") + ")")
                       .c_str());
      return kUsage;
    }
  } else if (!format_option.empty()) {
    std::fprintf(stderr, "remodel: import: --format is for authoring without --like; with --like OUT takes ORIGINAL's format\n");
    return kUsage;
  }
  const std::string& bwm_version = invocation.value("bwm-version");
  if (!bwm_version.empty() && (authored != Format::bwm || (bwm_version != "5" && bwm_version != "6"))) {
    std::fprintf(stderr, "remodel: import: --bwm-version is 5 or 6, for a new BWM (without --like)\nRun 'remodel import --help' for more.\n");
    return kUsage;
  }
  Result<gltf::ReadScene> scene = gltf::read_gltf_file(in);
  if (!scene) {
    print_error(in, scene.error());
    return kFailed;
  }
  for (const Warning& w : scene->warnings) {
    std::fprintf(stderr, "remodel: %s: warning: %s: %s\n", shown(in).c_str(), shown(w.where).c_str(), shown(w.message).c_str());
  }
  Bytes base_bytes, skeleton_bytes;
  std::optional<Document> skeleton;
  scene::LowerInputs inputs;
  if (bwm_version == "5") inputs.bwm_version = 5;
  inputs.j3d_bdl = format_option.empty() ? out.extension() == ".bdl" : format_option == "j3d-bdl";
  inputs.j3d_bca = format_option.empty() ? out.extension() == ".bca" : format_option == "j3d-bca";
  inputs.base_name = like.stem().string();
  if (!skeleton_path.empty()) {
    Result<Document> s = load(skeleton_path, skeleton_bytes);
    if (!s) {
      print_error(skeleton_path, s.error());
      return kFailed;
    }
    if (authored ? std::string(scene::family_entry(format_of(*s)).family) != scene::family_entry(*authored).family
                 : !std::holds_alternative<PmoFile>(*s) && !std::holds_alternative<MhfuSkeletonFile>(*s) && !std::holds_alternative<J3dFile>(*s)) {
      std::fprintf(stderr, "remodel: %s: --skeleton takes %s, not a %s file\n", shown(skeleton_path).c_str(),
                   authored ? (std::string("a game file of the new ") + format_name(*authored) + "'s family whose skeleton it takes").c_str()
                            : "the KH BBS PMO a PAM animates, the J3D model a BCK animates or a bare MHFU PMO's skeleton",
                   format_name(format_of(*s)));
      return kFailed;
    }
    skeleton = std::move(*s);
    inputs.skeleton = &*skeleton;
  }
  std::optional<Result<scene::Lowered>> made;
  if (authored) {
    made = scene::author(scene->scene, *authored, inputs);
  } else {
    Result<Document> base = load(like, base_bytes, member);
    if (!base) {
      print_error(like, base.error());
      return kFailed;
    }
    made = scene::lower(scene->scene, *base, inputs);
  }
  Result<scene::Lowered>& lowered = *made;
  if (!lowered) {
    print_error(in, lowered.error());
    return kFailed;
  }
  for (const Warning& w : lowered->warnings) {
    std::fprintf(stderr, "remodel: %s: warning: %s: %s\n", shown(out).c_str(), shown(w.where).c_str(), shown(w.message).c_str());
  }
  Result<Bytes> bytes = write_document(lowered->document);
  if (bytes && !member.empty()) bytes = with_member(like, member, std::move(*bytes));
  if (!bytes) {
    // The offset would be in a file that was never written: the field and the limit say it.
    Error e = bytes.error();
    e.offset.reset();
    e.message = "not written: " + e.message;
    print_error(out, e);
    return kFailed;
  }
  if (auto e = write_file_atomic(out, *bytes); !e) {
    print_error(out, e.error());
    return kFailed;
  }
  if (authored) {
    std::printf("imported %s as a new %s -> %s (%zu bytes)\n", shown(in).c_str(), format_name(*authored), shown(out).c_str(), bytes->size());
  } else {
    std::printf("imported %s over %s%s%s -> %s (%zu bytes)\n", shown(in).c_str(), shown(like).c_str(), member.empty() ? "" : " member ",
                shown(member).c_str(), shown(out).c_str(), bytes->size());
  }
  return kOk;
}

}  // namespace remodel::cli
