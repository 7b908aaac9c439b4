// Writes the seed corpus the project builds itself: fuzz/corpus/<target>/.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "model/kh_bbs/demo.hpp"
#include "model/kh_bbs/pmo.hpp"
#include "bwm_golden.hpp"
#include "model/gx/texture.hpp"
#include "model/j3d/anim.hpp"
#include "model/j3d/j3d.hpp"
#include "model/mhfu/demo.hpp"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace remodel;
  if (argc != 2) {
    std::fputs("usage: make_seeds CORPUS_DIR\n", stderr);
    return 2;
  }
  const fs::path root = argv[1];
  auto save = [&](const char* target, const char* name, const Result<Bytes>& bytes) {
    if (!bytes.ok()) {
      std::fprintf(stderr, "%s: %s\n", name, bytes.error().describe().c_str());
      std::exit(1);
    }
    fs::create_directories(root / target);
    std::ofstream(root / target / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
  };
  const PmoFile demo = build_demo_pmo();
  save("kh_bbs_pmo", "demo.pmo", write_pmo_file(demo));
  PmoFile bare = demo;
  bare.pmo.skeleton.reset();
  for (PmoSection& s : bare.pmo.mesh0->sections) s.joints.reset();
  bare.pmo.mesh1 = bare.pmo.mesh0;
  bare.pmo.mesh0.reset();
  save("kh_bbs_pmo", "static-mesh1.pmo", write_pmo_file(bare));

  Pmp pmp;
  Pmo inner = bare.pmo;
  inner.tim2s.clear();
  pmp.textures = inner.textures;
  pmp.tim2s = demo.pmo.tim2s;
  pmp.pmos = {inner};
  pmp.objects.resize(2);
  pmp.objects[0].pmo = 0;
  save("kh_bbs_pmp", "demo.pmp", write_pmp(pmp));

  save("tim2", "demo.tm2", write_tim2_file(Tim2File{demo.pmo.tim2s[0], {}}));
  // One picture of every other TIM2 pixel type, odd sizes, a CSM2 CLUT: the texture codec's variants.
  for (const auto& [name, image_type, clut_type] : {std::tuple{"rgba5551.tm2", 1, 0}, {"rgb888.tm2", 2, 0}, {"rgba8888.tm2", 3, 0},
                                                    {"clut4-odd.tm2", 4, 1}, {"clut8-csm2.tm2", 5, 0x83}}) {
    Tim2File f{demo.pmo.tim2s[0], {}};
    Tim2Picture& p = f.tim2.pictures[0];
    p.image_type = static_cast<std::uint8_t>(image_type);
    p.clut_type = static_cast<std::uint8_t>(clut_type);
    p.width = 5, p.height = 3;
    const unsigned bits = image_type == 1 ? 16 : image_type == 2 ? 24 : image_type == 3 ? 32 : image_type == 4 ? 4 : 8;
    p.image.assign((5 * bits + 7) / 8 * 3, 0);
    for (std::size_t i = 0; i < p.image.size(); ++i) p.image[i] = static_cast<std::uint8_t>(i * 37 % (bits == 4 ? 256 : 251));
    p.clut_colors = static_cast<std::uint16_t>(image_type == 4 ? 16 : image_type == 5 ? 256 : 0);
    p.clut.assign(p.clut_colors * tim2_clut_entry_size(p.clut_type), 0);
    for (std::size_t i = 0; i < p.clut.size(); ++i) p.clut[i] = static_cast<std::uint8_t>(i * 13);
    save("tim2", name, write_tim2_file(f));
  }

  // GX codec inputs (fuzz/gx_texture_input.hpp): every format at a partial-tile size with mip levels,
  // the indexed ones with each palette format.
  for (std::uint8_t format : {0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 14}) {
    for (std::uint8_t palette_format = 0; palette_format < (gx_is_indexed(format) ? 3 : 1); ++palette_format) {
      Bytes input = {format, palette_format, 13, 9, 3, 16, 0, 0};
      for (int i = 0; i < 32 + 1024; ++i) input.push_back(static_cast<std::uint8_t>((i * 29 + format) % 16));  // indices below 16
      const std::string name =
          std::string(gx_format_name(format)) + (gx_is_indexed(format) ? std::string("-") + gx_palette_format_name(palette_format) : "") + ".gx";
      save("gx_texture", name.c_str(), Result<Bytes>(input));
    }
  }

  const Pam pam = build_demo_pam();
  save("kh_bbs_pam", "demo.pam", write_pam(pam));
  save("kh_bbs_pam", "sway.anim", write_pam_anim_file(PamAnimFile{pam.animations[0]}));
  save("kh_bbs_pam", "long.anim", write_pam_anim_file(PamAnimFile{pam.animations[1]}));

  const Pac pac = build_demo_mhfu_pac();
  save("mhfu_pac", "demo.pac", write_pac(pac));
  save("mhfu_pmo", "demo.pmo", write_mhfu_pmo_file(std::get<MhfuPmoFile>(pac.entries[0].content)));
  save("mhfu_skeleton", "demo.skel", write_mhfu_skeleton_file(std::get<MhfuSkeletonFile>(pac.entries[1].content)));
  save("tmh", "demo.tmh", write_tmh_file(std::get<TmhFile>(pac.entries[2].content)));

  // The BWM seeds are the golden files the tests write by hand from the spec.
  save("bwm", "v5-model.bwm", golden::bwm_v5_model());
  save("bwm", "v6-model.bwm", golden::bwm_v6_model());
  save("bwm", "skin.bwm", golden::bwm_skin());

  // A small J3D: a joint, a material and a shape in INF1, three float positions, one rigid draw
  // matrix, one joint, a shape drawing one strip, one white material, one 8x4 I8 texture.
  J3dFile j3d;
  J3dInf1 inf;
  inf.roots = {J3dNode{0x10, 0, {J3dNode{0x11, 0, {J3dNode{0x12, 0, {}}}}}}};
  J3dVtx1 vtx;
  vtx.formats = {J3dVertexFormat{9, 1, 4, 0, {0xFF, 0xFF, 0xFF}}};
  J3dVertexArray positions;
  for (float v : {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f}) {
    const auto bits = std::bit_cast<std::uint32_t>(v);
    for (int k = 3; k >= 0; --k) positions.data.push_back(static_cast<std::uint8_t>(bits >> (8 * k)));
  }
  vtx.arrays = {positions};
  J3dDrw1 drw;
  drw.weighted = {0};
  drw.indices = {0};
  J3dJnt1 jnt;
  jnt.joints.resize(1);
  jnt.remap = {0};
  jnt.names.names = {"root"};
  J3dTex1 tex;
  tex.textures.resize(1);
  tex.textures[0].format = 1;  // I8, 8x4: one 32-byte tile
  tex.textures[0].width = 8;
  tex.textures[0].height = 4;
  tex.textures[0].palette_block = 0;
  tex.blocks.push_back(J3dTexBlock{Bytes(32, 0x80), {}});
  tex.names.names = {"grey"};
  J3dShp1 shp;
  shp.shapes.resize(1);
  shp.shapes[0].packet_count = 1;
  shp.remap = {0};
  shp.descriptor_lists = {{J3dVertexDescriptor{9, 3}}};  // 16-bit position indices
  shp.matrix_table = {0};
  shp.matrix_groups = {J3dMatrixGroup{0, 1, 0}};
  shp.packets.resize(1);
  shp.packets[0].primitives = {J3dPrimitive{0x98, {0, 1, 2}}};
  j3d.sections = {inf, vtx, J3dEvp1{}, drw, jnt, shp};
  J3dMat3 mat;
  mat.entries.resize(1);
  mat.remap = {0};
  mat.names.names = {"white"};
  mat.cull_modes = {2, 1, 0};  // Nintendo's pre-seeded back, front, none
  mat.material_colors = {J3dColor8{255, 255, 255, 255}};
  mat.channel_counts = {1};
  mat.color_channels.resize(1);
  mat.ambient_colors = {J3dColor8{50, 50, 50, 50}};
  mat.texgen_counts = {1};
  mat.texgens = {J3dTexGen{1, 4, 60, 0xFF}};
  mat.textures = {0};
  mat.tev_orders = {J3dTevOrder{0, 0, 4, 0xFF}};
  mat.tev_colors = {J3dTevColor{255, 255, 255, 255}};
  mat.tev_kcolors = {J3dColor8{255, 255, 255, 255}};
  mat.tev_stage_counts = {1};
  mat.tev_stages.resize(1);
  mat.swap_modes.resize(1);
  mat.swap_tables = {J3dSwapTable{0, 1, 2, 3}};
  mat.alpha_compares.resize(1);
  mat.blends.resize(1);
  mat.zmodes = {J3dZMode{1, 3, 1, 0xFF}};
  mat.zcompare_locations = {0, 1};
  mat.dithers = {0, 1};
  mat.nbt_scales.resize(1);
  for (std::size_t t = 0; t < kJ3dMatTables; ++t) {
    if (j3d_mat_table_size(mat, static_cast<J3dMatTable>(t)) != 0) mat.order.push_back(static_cast<J3dMatTable>(t));
  }
  j3d.sections.push_back(mat);
  j3d.sections.push_back(tex);
  save("j3d", "demo.bmd", write_j3d(j3d));

  // A BCK: one joint, scale x keyed twice (tangent In), translation y 5, everything else one value.
  J3dAnimFile bck;
  J3dAnk1 ank;
  ank.loop_mode = 2;
  ank.angle_scale = 1;
  ank.duration = 30;
  J3dJointAnim joint;
  for (auto& t : joint.scale) t.values = {1.0f};
  for (auto& t : joint.rotation) t.values = {0};
  for (auto& t : joint.translation) t.values = {0.0f};
  joint.scale[0].count = 2;
  joint.scale[0].values = {0.0f, 1.0f, 0.0f, 30.0f, 2.0f, 0.5f};
  joint.translation[1].values = {5.0f};
  ank.joints.push_back(joint);
  bck.section = ank;
  save("j3d_anim", "one_joint.bck", write_j3d_anim(bck));
  return 0;
}
