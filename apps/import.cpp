// remodel import: a glTF written over the model it came from (--like): the base supplies what glTF
// cannot carry, the glTF what it can (scene::lower, one arm per format); without --like, a new file
// authored from the glTF alone (scene::author).
#include <cstdio>
#include <filesystem>
#include <optional>

#include "cli.hpp"
#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "scene/lower.hpp"

namespace remodel::cli {

namespace fs = std::filesystem;

namespace {

// The format a new file is authored in: --format, else the output's extension.
std::optional<Format> authored_format(const std::string& name, const fs::path& out) {
  struct Known {
    const char* extension;
    Format format;
  };
  // An MHFU PMO shares KH BBS's extension: it is authored by --format mhfu-pmo.
  static constexpr Known kKnown[] = {{".pmo", Format::kh_bbs_pmo}, {".pam", Format::kh_bbs_pam}, {".pac", Format::mhfu_pac}, {"", Format::mhfu_pmo},
                                     {".bwm", Format::bwm}};
  // J3D's two containers are one format: BDL adds MDL3 (scene::LowerInputs::j3d_bdl).
  if (name.empty() ? out.extension() == ".bmd" || out.extension() == ".bdl" : name == "j3d-bmd" || name == "j3d-bdl") return Format::j3d;
  for (const Known& k : kKnown) {
    if (name.empty() ? *k.extension != '\0' && out.extension() == k.extension : name == format_name(k.format)) return k.format;
  }
  return std::nullopt;
}

}  // namespace

int cmd_import(const Invocation& invocation) {
  const fs::path in = invocation.value("INPUT"), like = invocation.value("like"), out = invocation.value("output");
  const std::string& skeleton_path = invocation.value("skeleton");
  if (in.extension() != ".glb" && in.extension() != ".gltf") {
    std::fprintf(stderr, "remodel: import: %s is not a .glb or .gltf file\nRun 'remodel import --help' for more.\n", in.string().c_str());
    return kUsage;
  }
  const std::string& format_option = invocation.value("format");
  std::optional<Format> authored;
  if (like.empty()) {
    authored = authored_format(format_option, out);
    if (!authored) {
      std::fprintf(stderr, "remodel: import: %s\nRun 'remodel import --help' for more.\n",
                   format_option.empty() ? ("without --like the format comes from --format or OUT's extension, and \"" + out.extension().string() +
                                            "\" names none (.pmo, .pam, .pac, .bmd, .bdl, .bwm)").c_str()
                                         : ("--format " + format_option + " is not one a glTF can be authored into (kh-bbs-pmo, kh-bbs-pam, mhfu-pac, mhfu-pmo, j3d-bmd, j3d-bdl, bwm)").c_str());
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
    std::fprintf(stderr, "remodel: %s: warning: %s: %s\n", in.string().c_str(), w.where.c_str(), w.message.c_str());
  }
  Bytes base_bytes, skeleton_bytes;
  std::optional<Document> skeleton;
  scene::LowerInputs inputs;
  if (bwm_version == "5") inputs.bwm_version = 5;
  inputs.j3d_bdl = format_option.empty() ? out.extension() == ".bdl" : format_option == "j3d-bdl";
  if (!skeleton_path.empty()) {
    Result<Document> s = load(skeleton_path, skeleton_bytes);
    if (!s) {
      print_error(skeleton_path, s.error());
      return kFailed;
    }
    if (!std::holds_alternative<PmoFile>(*s) && !std::holds_alternative<MhfuSkeletonFile>(*s)) {
      std::fprintf(stderr, "remodel: %s: --skeleton takes the KH BBS PMO a PAM animates or a bare MHFU PMO's skeleton, not a %s file\n",
                   skeleton_path.c_str(), format_name(format_of(*s)));
      return kFailed;
    }
    skeleton = std::move(*s);
    inputs.skeleton = &*skeleton;
  }
  std::optional<Result<scene::Lowered>> made;
  if (authored) {
    made = scene::author(scene->scene, *authored, inputs);
  } else {
    Result<Document> base = load(like, base_bytes);
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
    std::fprintf(stderr, "remodel: %s: warning: %s: %s\n", out.string().c_str(), w.where.c_str(), w.message.c_str());
  }
  Result<Bytes> bytes = write_document(lowered->document);
  if (!bytes) {
    print_error(out, bytes.error());
    return kFailed;
  }
  if (auto e = write_file_atomic(out, *bytes); !e) {
    print_error(out, e.error());
    return kFailed;
  }
  if (authored) {
    std::printf("imported %s as a new %s -> %s (%zu bytes)\n", in.string().c_str(), format_name(*authored), out.string().c_str(), bytes->size());
  } else {
    std::printf("imported %s over %s -> %s (%zu bytes)\n", in.string().c_str(), like.string().c_str(), out.string().c_str(), bytes->size());
  }
  return kOk;
}

}  // namespace remodel::cli
