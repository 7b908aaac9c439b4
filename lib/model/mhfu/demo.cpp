#include "model/mhfu/demo.hpp"

#include "model/psp/texture.hpp"

namespace remodel {

namespace {

MhfuPmo demo_pmo() {
  MhfuPmo p;
  p.clip_distance = 1.0f;
  p.meshes.push_back(MhfuMesh{{1.0f, 1.0f}, mhfu::kOpaqueFlags, 0, 1, 0, 0, 1, 0});
  p.groups.push_back(MhfuGroup{0, 1, 0, 0});
  p.remap = {0};
  p.bone_palette = {{0, 0}};
  p.materials.push_back(MhfuMaterial{0xFFFFFFFF, mhfu::kShadow, 0, {}, 0});
  psp::VertexFormat format;  // one u8 weight, u16 UVs, s8 normals, s16 positions, u8 indices
  format.weight = psp::NumFormat::i8;
  format.weight_count = 1;
  format.texcoord = psp::NumFormat::i16;
  format.normal = psp::NumFormat::i8;
  format.position = psp::NumFormat::i16;
  format.index = psp::NumFormat::i8;
  MhfuBlock b;
  b.commands = {psp::GeCommand::make(psp::ge::kOrigin, 0), psp::GeCommand::make(psp::ge::kBase, 0), psp::GeCommand::make(psp::ge::kIaddr, 0),
                psp::GeCommand::make(psp::ge::kVaddr, 0),  psp::GeCommand::make(psp::ge::kVtype, format.vtype()), psp::GeCommand::make(psp::ge::kFface, 0),
                psp::GeCommand::make(psp::ge::kPrim, psp::ge::kPrimStrip << 16 | 4), psp::GeCommand::make(psp::ge::kOffset, 0),
                psp::GeCommand::make(psp::ge::kRet, 0)};
  std::vector<psp::Vertex> quad(4);
  for (std::uint32_t i = 0; i < 4; ++i) {
    quad[i].weights[0] = 0x80;
    quad[i].texcoord = {(i & 1) ? 0x8000u : 0u, (i & 2) ? 0x8000u : 0u};
    quad[i].normal = {0, 0, 0x7F};
    quad[i].position = {(i & 1) ? 0x4000u : 0xC000u, (i & 2) ? 0x4000u : 0xC000u, 0};
  }
  b.vertices = psp::encode_vertices(format, quad);
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
  // 16 reds in diagonal stripes, exact in RGBA5551, encoded as authoring encodes a texture.
  RgbaImage image(16, 8);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    for (std::uint32_t x = 0; x < image.width; ++x) {
      const auto red5 = static_cast<std::uint8_t>(2 * ((x + y) % 16));
      std::uint8_t* texel = image.at(x, y);
      texel[0] = static_cast<std::uint8_t>(red5 << 3 | red5 >> 2);
      texel[3] = 255;
    }
  }
  TmhFile tmh;
  tmh.tmh.images.push_back(new_tmh_image(image).value());  // a 16x8 image of 16 colours always encodes
  pac.entries.push_back(PacEntry{tmh, {}});
  return pac;
}

}  // namespace remodel
