#include "model/mhfu/demo.hpp"

namespace remodel {

namespace {

MhfuPmo demo_pmo() {
  MhfuPmo p;
  p.clip_distance = 1.0f;
  p.meshes.push_back(MhfuMesh{{1.0f, 1.0f}, 0x80000003, 0, 1, 0, 0, 1, 0});
  p.groups.push_back(MhfuGroup{0, 1, 0, 0});
  p.remap = {0};
  p.bone_palette = {{0, 0}};
  p.materials.push_back(MhfuMaterial{0xFFFFFFFF, 0x007F7F7F, 0, {}, 0});
  constexpr std::uint32_t kVtype = 0x0B22;  // u8 weight, u16 UV, s8 normal, s16 position, u8 indices
  MhfuBlock b;
  b.commands = {psp::GeCommand::make(psp::ge::kOrigin, 0), psp::GeCommand::make(psp::ge::kBase, 0), psp::GeCommand::make(psp::ge::kIaddr, 0),
                psp::GeCommand::make(psp::ge::kVaddr, 0),  psp::GeCommand::make(psp::ge::kVtype, kVtype), psp::GeCommand::make(psp::ge::kFface, 0),
                psp::GeCommand::make(psp::ge::kPrim, psp::ge::kPrimStrip << 16 | 4), psp::GeCommand::make(psp::ge::kOffset, 0),
                psp::GeCommand::make(psp::ge::kRet, 0)};
  std::vector<psp::Vertex> quad(4);
  for (std::uint32_t i = 0; i < 4; ++i) {
    quad[i].weights[0] = 0x80;
    quad[i].texcoord = {(i & 1) ? 0x8000u : 0u, (i & 2) ? 0x8000u : 0u};
    quad[i].normal = {0, 0, 0x7F};
    quad[i].position = {(i & 1) ? 0x4000u : 0xC000u, (i & 2) ? 0x4000u : 0xC000u, 0};
  }
  b.vertices = psp::encode_vertices(psp::VertexFormat::parse(kVtype), quad);
  b.indices = {0, 1, 2, 3};
  p.blocks.push_back(std::move(b));
  return p;
}

}  // namespace

Pac build_demo_mhfu_pac() {
  Pac pac;
  pac.entries.push_back(PacEntry{MhfuPmoFile{demo_pmo(), {}}, {}});
  MhfuSkeletonFile skel;
  skel.skeleton.parameters = {0};
  skel.skeleton.bones.resize(1);
  pac.entries.push_back(PacEntry{skel, {}});
  TmhFile tmh;
  Bytes pixels(16 * 8 / 2);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<std::uint8_t>(i * 0x11);
  Bytes palette(16 * 2);
  for (std::size_t i = 0; i < 16; ++i) {
    palette[2 * i] = static_cast<std::uint8_t>(i * 2);
    palette[2 * i + 1] = 0x80;  // alpha bit of 5551
  }
  tmh.tmh.images.push_back(TmhImage{0, 1, 1, 4, 16, 8, pixels, TmhClut{2, 1, 16, palette}});
  pac.entries.push_back(PacEntry{tmh, {}});
  return pac;
}

}  // namespace remodel
