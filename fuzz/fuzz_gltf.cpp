// libFuzzer target: the glTF reader over .glb bytes (no external files), with an oracle: a Scene that
// reads must export, and that export must read back; it must author a KH BBS PMO, an MHFU PAC, a
// BWM and a J3D BMD and BDL or refuse with an error, and what it authors must write and read back (a BWM byte for byte).
#include <cstddef>
#include <cstdint>

#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "scene/lower.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  Result<gltf::ReadScene> read = gltf::read_gltf(ByteSpan(data, size));
  if (!read.ok()) return 0;
  // The writer refuses Scenes glTF cannot hold (an empty animation...), which a read may give; what
  // it writes must read again.
  Result<Bytes> glb = gltf::write_glb(read->scene);
  if (glb.ok() && !gltf::read_gltf(*glb).ok()) fuzz::die("a Scene the reader gave and the writer wrote must read back");
  Result<scene::Lowered> authored = scene::author(read->scene, Format::kh_bbs_pmo);
  if (authored.ok()) {
    Result<Bytes> pmo = write_document(authored->document);
    if (!pmo.ok()) fuzz::die("an authored PMO must write");
    if (!read_document(*pmo).ok()) fuzz::die("an authored PMO must read back");
  }
  Result<scene::Lowered> pac = scene::author(read->scene, Format::mhfu_pac);
  if (pac.ok()) {
    Result<Bytes> bytes = write_document(pac->document);
    if (!bytes.ok()) fuzz::die("an authored PAC must write");
    if (!read_document(*bytes).ok()) fuzz::die("an authored PAC must read back");
  }
  Result<scene::Lowered> bwm = scene::author(read->scene, Format::bwm);
  if (bwm.ok()) {
    Result<Bytes> bytes = write_document(bwm->document);
    if (!bytes.ok()) fuzz::die("an authored BWM must write");
    Result<Document> back = read_document(*bytes);
    if (!back.ok()) fuzz::die("an authored BWM must read back");
    Result<Bytes> again = write_document(*back);
    if (!again.ok() || *again != *bytes) fuzz::die("an authored BWM must write back to its own bytes");
  }
  Result<scene::Lowered> bmd = scene::author(read->scene, Format::j3d);
  if (bmd.ok()) {
    Result<Bytes> bytes = write_document(bmd->document);
    if (!bytes.ok()) fuzz::die("an authored BMD must write");
    if (!read_document(*bytes).ok()) fuzz::die("an authored BMD must read back");
  }
  scene::LowerInputs as_bdl;
  as_bdl.j3d_bdl = true;
  Result<scene::Lowered> bdl = scene::author(read->scene, Format::j3d, as_bdl);
  if (bdl.ok()) {
    Result<Bytes> bytes = write_document(bdl->document);
    if (!bytes.ok()) fuzz::die("an authored BDL must write");
    if (!read_document(*bytes).ok()) fuzz::die("an authored BDL must read back");
  }
  return 0;
}
