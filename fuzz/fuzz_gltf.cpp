// libFuzzer target: the glTF reader over .glb or .gltf bytes (no external files), with an oracle: a
// Scene that reads must export and read back, or author a KH BBS PMO, an MHFU PAC, a BWM or a J3D BMD
// or BDL (or refuse with an error), and what it authors must write and read back (a BWM byte for
// byte). One of the six per input, picked by its size (a .glb's in 4-byte units: its chunks are
// 4-aligned), so an execution's work stays that of one output (fuzz/regressions/gltf/ pads a kept
// input with spaces to pick its own), and only for a Scene of at most 4,096 vertices.
#include <cstddef>
#include <cstdint>

#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "mutators.hpp"
#include "scene/lower.hpp"
#include "round_trip.hpp"

namespace {

using namespace remodel;

constexpr std::size_t kMaxAuthoredVertices = 4096;

// The authored file must write and read back.
void expect_authored(const scene::Scene& scene, Format format, bool bdl, const char* what) {
  scene::LowerInputs inputs;
  inputs.j3d_bdl = bdl;
  Result<scene::Lowered> authored = scene::author(scene, format, inputs);
  if (!authored.ok()) return;
  Result<Bytes> bytes = write_document(authored->document);
  if (!bytes.ok()) fuzz::die((std::string("an authored ") + what + " must write").c_str());
  Result<Document> back = read_document(*bytes);
  if (!back.ok()) fuzz::die((std::string("an authored ") + what + " must read back").c_str());
  if (format == Format::bwm) {
    Result<Bytes> again = write_document(*back);
    if (!again.ok() || *again != *bytes) fuzz::die("an authored BWM must write back to its own bytes");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Result<gltf::ReadScene> read = gltf::read_gltf(ByteSpan(data, size));
  if (!read.ok()) return 0;
  const scene::Scene& scene = read->scene;
  // A large Scene (a sample's export) is only read: authoring it is the sample tests' work, and
  // would keep the fuzzer far below 200 executions a second.
  std::size_t vertices = 0;
  for (const scene::Mesh& m : scene.meshes) {
    for (const scene::Primitive& p : m.primitives) vertices += p.positions.size();
  }
  if (vertices > kMaxAuthoredVertices) return 0;
  const bool glb = size >= 4 && data[0] == 'g' && data[1] == 'l' && data[2] == 'T' && data[3] == 'F';
  switch ((glb ? size / 4 : size) % 6) {
    case 0: {
      // The writer refuses Scenes glTF cannot hold (an empty animation...), which a read may give;
      // what it writes must read again.
      Result<Bytes> glb = gltf::write_glb(scene);
      if (glb.ok() && !gltf::read_gltf(*glb).ok()) fuzz::die("a Scene the reader gave and the writer wrote must read back");
      break;
    }
    case 1: expect_authored(scene, Format::kh_bbs_pmo, false, "PMO"); break;
    case 2: expect_authored(scene, Format::mhfu_pac, false, "PAC"); break;
    case 3: expect_authored(scene, Format::bwm, false, "BWM"); break;
    case 4: expect_authored(scene, Format::j3d, false, "BMD"); break;
    default: expect_authored(scene, Format::j3d, true, "BDL"); break;
  }
  return 0;
}

#ifdef REMODEL_LIBFUZZER
// Most mutations edit the glTF's JSON (node trees, counts, references, sharing) and keep its BIN
// chunk; the rest, and inputs whose JSON does not parse, are libFuzzer's byte mutations.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed) {
  if (seed % 4 != 0) {
    const std::size_t n = remodel::fuzz::mutate_gltf(data, size, max_size, seed);
    if (n != 0) return n;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
#endif
