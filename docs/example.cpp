// The library in ten calls: read a model, export it to .glb in memory, read the .glb back, import
// it over the original and write the result. Unedited, the written bytes equal the input's.
//   example MODEL OUT
#include <remodel/remodel.hpp>

#include <cstdio>

using namespace remodel;

int fail(const Error& e) {
  std::fprintf(stderr, "%s\n", e.describe().c_str());
  return 1;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: example MODEL OUT\n");
    return 2;
  }
  auto bytes = read_file(argv[1]);
  if (!bytes) return fail(bytes.error());
  auto doc = read_document(*bytes);
  if (!doc) return fail(doc.error());
  std::printf("%s: %zu vertices\n", format_name(format_of(*doc)), static_cast<std::size_t>(document_info(*doc).vertices));

  auto scene = scene::lift(*doc);
  if (!scene) return fail(scene.error());
  auto glb = gltf::write_glb(*scene);
  if (!glb) return fail(glb.error());
  auto edited = gltf::read_gltf(*glb);  // a modder's Blender session would sit between these two
  if (!edited) return fail(edited.error());
  auto lowered = scene::lower(edited->scene, *doc);
  if (!lowered) return fail(lowered.error());
  auto out = write_document(lowered->document);
  if (!out) return fail(out.error());
  if (auto stored = write_file_atomic(argv[2], *out); !stored) return fail(stored.error());
  return 0;
}
