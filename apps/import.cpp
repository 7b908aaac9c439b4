// remodel import: a glTF written over the model it came from (--like): the base supplies what glTF
// cannot carry, the glTF what it can (scene::lower, one arm per format).
#include <cstdio>
#include <filesystem>

#include "cli.hpp"
#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "scene/lower.hpp"

namespace remodel::cli {

namespace fs = std::filesystem;

int cmd_import(const Invocation& invocation) {
  const fs::path in = invocation.value("INPUT"), like = invocation.value("like"), out = invocation.value("output");
  const std::string& skeleton_path = invocation.value("skeleton");
  if (in.extension() != ".glb" && in.extension() != ".gltf") {
    std::fprintf(stderr, "remodel: import: %s is not a .glb or .gltf file\nRun 'remodel import --help' for more.\n", in.string().c_str());
    return kUsage;
  }
  if (like.empty()) {
    std::fprintf(stderr,
                 "remodel: import: --like ORIGINAL is required: importing writes over the model the glTF was exported from;\n"
                 "authoring a new file from glTF alone is not done yet (issue 16)\n");
    return kFailed;
  }
  Result<gltf::ReadScene> scene = gltf::read_gltf_file(in);
  if (!scene) {
    print_error(in, scene.error());
    return kFailed;
  }
  for (const gltf::ReadWarning& w : scene->warnings) {
    std::fprintf(stderr, "remodel: %s: warning: %s: %s\n", in.string().c_str(), w.where.c_str(), w.message.c_str());
  }
  Bytes base_bytes, skeleton_bytes;
  Result<Document> base = load(like, base_bytes);
  if (!base) {
    print_error(like, base.error());
    return kFailed;
  }
  std::optional<Document> skeleton;
  scene::LowerInputs inputs;
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
  Result<scene::Lowered> lowered = scene::lower(scene->scene, *base, inputs);
  if (!lowered) {
    print_error(in, lowered.error());
    return kFailed;
  }
  for (const scene::LowerWarning& w : lowered->warnings) {
    std::fprintf(stderr, "remodel: %s: warning: %s: %s\n", out.string().c_str(), w.where.c_str(), w.message.c_str());
  }
  Result<Bytes> bytes = write_document(lowered->document);
  if (!bytes) {
    print_error(out, bytes.error());
    return kFailed;
  }
  if (auto e = write_file_atomic(out, *bytes)) {
    print_error(out, *e);
    return kFailed;
  }
  std::printf("imported %s over %s -> %s (%zu bytes)\n", in.string().c_str(), like.string().c_str(), out.string().c_str(), bytes->size());
  return kOk;
}

}  // namespace remodel::cli
