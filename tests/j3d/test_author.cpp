// J3D BMD/BDL authored from a Scene alone (issue 17): hand-made Scenes and every shared glTF sample
// become files that read back, round-trip byte-exactly, pass j3d_check_indices and lift to the input
// within the format's quantisation (positions: one VTX1 step, 2^-frac, moved by the joint that
// stores them; UVs: one step of their s16; colours: one RGBA8 step; weights: EVP1's f32; joint world
// matrices: 1e-4 relative, JNT1's s16 angles).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "author_checks.hpp"
#include "author_scenes.hpp"
#include "gltf/gltf.hpp"
#include "j3d/big_endian.hpp"
#include "gltf_samples.hpp"
#include "model/document.hpp"
#include "model/j3d/j3d.hpp"
#include "model/j3d/decode.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"

namespace remodel {
namespace {

using scene::Mat4;
using scene::Scene;
using test::cylinder;
using test::one_mesh;
using test::triangle;
using test::used_skin;

constexpr float kTurn = 0.3f;  // the chain's second joint turns about Z, so Euler angles are tested

// 8x8 texels in three colours; the third's alpha is 255 (an RGB5A3 palette holds all three) or 128 (it does not).
Scene textured_quad(bool translucent_texel) { return test::three_colour_quad(translucent_texel ? 128 : 255); }


// The input as J3D holds it: unnamed nodes named by index; skinned positions moved from the bind pose to the rest pose (world *
// inverse bind), where EVP1's envelopes store them.
Scene as_authored(Scene s) {
  for (std::size_t n = 0; n < s.nodes.size(); ++n) {
    if (s.nodes[n].name.empty()) s.nodes[n].name = "node" + std::to_string(n);  // as JNT1 names them
  }
  const std::vector<Mat4> world = scene::world_matrices(s);
  for (const scene::Node& node : s.nodes) {
    if (node.mesh < 0 || node.skin < 0) continue;
    const scene::Skin& skin = s.skins[static_cast<std::size_t>(node.skin)];
    std::vector<Mat4> to_rest;
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
      const Mat4& w = world[static_cast<std::size_t>(skin.joints[j])];
      to_rest.push_back(w * (skin.inverse_bind_matrices.empty() ? scene::inverse(w) : skin.inverse_bind_matrices[j]));
    }
    for (scene::Primitive& p : s.meshes[static_cast<std::size_t>(node.mesh)].primitives) {
      for (std::size_t v = 0; v < p.vertex_count(); ++v) {
        Mat4 sum;
        sum.m.fill(0);
        float total = 0;
        for (std::size_t k = 0; k < p.influences; ++k) {
          const float w = p.weights[v * p.influences + k];
          if (!(w > 0)) continue;
          total += w;
          for (std::size_t i = 0; i < 16; ++i) sum.m[i] += w * to_rest[p.joints[v * p.influences + k]].m[i];
        }
        if (!(total > 0)) continue;
        for (float& f : sum.m) f /= total;
        p.positions[v] = scene::transform_point(sum, p.positions[v]);
      }
    }
  }
  return s;
}

struct Authored {
  J3dFile file;
  std::vector<Warning> warnings;
  Scene lifted;
  std::size_t size = 0;
  bool ok = false;
};

// Writes an authored file, reads it back, checks the round trip and the indices, lifts it.
Authored written_back(const scene::Lowered& made, const std::string& what) {
  Authored out;
  out.warnings = made.warnings;
  auto bytes = write_document(made.document);
  EXPECT_TRUE(bytes.ok()) << what << ": " << (bytes ? "" : bytes.error().field + ": " + bytes.error().message);
  if (!bytes) return out;
  out.size = bytes->size();
  EXPECT_EQ(bytes->size() % 32, 0u) << what;
  auto read = read_document(*bytes);
  EXPECT_TRUE(read.ok()) << what << ": " << (read ? "" : read.error().field + ": " + read.error().message);
  if (!read || !std::holds_alternative<J3dFile>(*read)) return out;
  auto again = write_document(*read);
  EXPECT_TRUE(again.ok() && *again == *bytes) << what << ": write(read(authored)) differs from the authored bytes";
  out.file = std::get<J3dFile>(*read);
  EXPECT_EQ(verbatim_bytes(out.file), 0u) << what << ": an authored file is all structure";
  auto checked = j3d_check_indices(out.file);
  EXPECT_TRUE(checked.ok()) << what << ": " << (checked ? "" : checked.error().field + ": " + checked.error().message);
  auto lifted = scene::lift_j3d(out.file, {});
  EXPECT_TRUE(lifted.ok()) << what << ": " << (lifted ? "" : lifted.error().field + ": " + lifted.error().message);
  if (!lifted) return out;
  out.lifted = std::move(*lifted);
  out.ok = true;
  return out;
}

scene::LowerInputs as_bdl(bool bdl) {
  scene::LowerInputs inputs;
  inputs.j3d_bdl = bdl;
  return inputs;
}

Authored author_checked(const Scene& in, const std::string& what, bool bdl = false) {
  auto made = scene::author(in, Format::j3d, as_bdl(bdl));
  EXPECT_TRUE(made.ok()) << what << ": " << (made ? "" : made.error().field + ": " + made.error().message);
  if (!made) return {};
  return written_back(*made, what);
}

// One VTX1 step of an attribute (its fixed-point 2^-frac; 0 for f32 or when absent).
float step_of(const J3dFile& f, std::uint32_t attribute) {
  const J3dVtx1* vtx = j3d_section<J3dVtx1>(f);
  for (const J3dVertexFormat& fmt : vtx->formats) {
    if (fmt.attribute == attribute) return fmt.type == 4 ? 0.0f : std::ldexp(1.0f, -static_cast<int>(fmt.frac));
  }
  return 0.0f;
}

// Triangles drawn, as floats (drawn_surface's f32 keys are the bits of each coordinate).
struct Tri {
  std::array<scene::Vec3, 3> p;
  std::array<test::Corner, 3> c;
};

std::vector<Tri> surface(const Scene& s) {
  std::vector<Tri> out;
  for (const test::Triangle3& t : test::drawn_surface(s, test::PositionCode{})) {
    Tri tri;
    for (std::size_t k = 0; k < 3; ++k) {
      const auto f = [&](std::size_t a) { return std::bit_cast<float>(static_cast<std::uint32_t>(t[k].key[a])); };
      tri.p[k] = {f(0), f(1), f(2)};
      tri.c[k] = t[k];
    }
    out.push_back(tri);
  }
  return out;
}

// Every input triangle is drawn by the authored file exactly once, and the reverse, corner by corner
// (winding kept): positions within `position`, colour bytes within one RGBA8 step, UVs and weights
// within `tol`. Returns the triangles matched.
std::size_t expect_same_surface(const Scene& in, const Scene& lifted, float position, const test::Tolerance& tol, const std::string& what) {
  const bool skinned = used_skin(in) >= 0;  // an unskinned input's vertices lean on their node's joint: no weights to compare
  const std::vector<Tri> expected = surface(in), actual = surface(lifted);
  const float cell = std::max(position * 4, 1e-6f);
  const auto cell_of = [&](const Tri& t) {
    const scene::Vec3 c = (t.p[0] + t.p[1] + t.p[2]) * (1.0f / 3.0f);
    return std::array<std::int64_t, 3>{std::llround(std::floor(c.x / cell)), std::llround(std::floor(c.y / cell)), std::llround(std::floor(c.z / cell))};
  };
  std::map<std::array<std::int64_t, 3>, std::vector<std::size_t>> grid;
  for (std::size_t i = 0; i < expected.size(); ++i) grid[cell_of(expected[i])].push_back(i);
  std::vector<bool> used(expected.size(), false);
  const auto corner_close = [&](const Tri& a, std::size_t ka, const Tri& b, std::size_t kb) {
    const scene::Vec3 d = a.p[ka] - b.p[kb];
    if (std::fabs(d.x) > position || std::fabs(d.y) > position || std::fabs(d.z) > position) return false;
    const test::Corner &x = a.c[ka], &y = b.c[kb];
    for (std::size_t i = 0; i < 4; ++i) {
      if ((x.colour[i] < 0) != (y.colour[i] < 0) || std::llabs(x.colour[i] - y.colour[i]) > 1) return false;
    }
    if (x.uv.has_value() != y.uv.has_value()) return false;
    if (x.uv && (std::fabs(x.uv->x - y.uv->x) > tol.uv || std::fabs(x.uv->y - y.uv->y) > tol.uv)) return false;
    if (!skinned) return true;
    std::map<std::string, float> joints = x.weights;
    for (const auto& [name, w] : y.weights) joints[name];
    for (const auto& [name, w] : joints) {
      const auto o = y.weights.find(name);
      if (std::fabs(w - (o == y.weights.end() ? 0.0f : o->second)) > tol.weight + 1e-5f) return false;
    }
    return true;
  };
  std::size_t matched = 0, unmatched = 0;
  for (const Tri& t : actual) {
    const auto c = cell_of(t);
    bool found = false;
    for (std::int64_t dx = -1; dx <= 1 && !found; ++dx) {
      for (std::int64_t dy = -1; dy <= 1 && !found; ++dy) {
        for (std::int64_t dz = -1; dz <= 1 && !found; ++dz) {
          const auto it = grid.find({c[0] + dx, c[1] + dy, c[2] + dz});
          if (it == grid.end()) continue;
          for (std::size_t i : it->second) {
            if (used[i]) continue;
            for (std::size_t r = 0; r < 3 && !found; ++r) {
              found = corner_close(expected[i], 0, t, r) && corner_close(expected[i], 1, t, (r + 1) % 3) && corner_close(expected[i], 2, t, (r + 2) % 3);
            }
            if (found) {
              used[i] = true;
              break;
            }
          }
        }
      }
    }
    if (found) {
      ++matched;
    } else if (++unmatched <= 3) {
      ADD_FAILURE() << what << ": an authored triangle at (" << t.p[0].x << "," << t.p[0].y << "," << t.p[0].z << ") matches no input triangle within the tolerances";
    }
  }
  EXPECT_EQ(unmatched, 0u) << what;
  EXPECT_EQ(matched, expected.size()) << what << ": input triangles not drawn by the authored file";
  return matched;
}

// Every skin joint's world matrix equals its joint's in the lifted file: within 1e-4 relative per
// joint down its chain (JNT1's s16 angles are each within half a step, 4.8e-5 rad, and add up).
void expect_same_joints(const Scene& in, const Scene& lifted, const std::string& what) {
  const int used = used_skin(in);
  if (used < 0 || lifted.skins.empty()) return;
  const std::vector<Mat4> wi = scene::world_matrices(in), wl = scene::world_matrices(lifted);
  for (int joint : in.skins[static_cast<std::size_t>(used)].joints) {
    const std::string& name = in.nodes[static_cast<std::size_t>(joint)].name;
    const auto it = std::find_if(lifted.nodes.begin(), lifted.nodes.end(), [&](const scene::Node& n) { return n.name == name; });
    ASSERT_NE(it, lifted.nodes.end()) << what << ": joint " << name << " is not in the authored JNT1";
    const Mat4& a = wi[static_cast<std::size_t>(joint)];
    const Mat4& b = wl[static_cast<std::size_t>(it - lifted.nodes.begin())];
    float size = 1;
    for (float f : a.m) size = std::max(size, std::abs(f));
    float depth = 1;
    for (int p = in.nodes[static_cast<std::size_t>(joint)].parent; p >= 0; p = in.nodes[static_cast<std::size_t>(p)].parent) ++depth;
    EXPECT_LE(scene::max_abs_difference(a, b), 1e-4f * size * depth) << what << ": joint " << name << "'s world matrix";
  }
}

// Position tolerance: one VTX1 step scaled by the largest joint scale, plus float noise at the model's size.
float position_tolerance(const Authored& a, const Scene& in) {
  float extent = 1, scale = 1;
  for (const scene::Mesh& m : in.meshes) {
    for (const scene::Primitive& p : m.primitives) {
      for (const scene::Vec3& v : p.positions) extent = std::max({extent, std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
    }
  }
  for (const scene::Mat4& w : scene::world_matrices(in)) {
    for (int c = 0; c < 3; ++c) scale = std::max(scale, scene::length(scene::Vec3{w.at(0, c), w.at(1, c), w.at(2, c)}));
  }
  extent *= scale;
  return step_of(a.file, 9) * scale + 2e-5f * extent;
}

std::size_t check(const Scene& raw, const std::string& what, Authored* keep = nullptr, bool bdl = false) {
  Authored a = author_checked(raw, what, bdl);
  if (!a.ok) return 0;
  const Scene in = as_authored(raw);
  test::Tolerance tol;
  tol.uv = std::max(step_of(a.file, 13), 1e-6f);
  tol.weight = 1e-5f;
  const std::size_t n = expect_same_surface(in, a.lifted, position_tolerance(a, raw), tol, what);
  expect_same_joints(in, a.lifted, what);
  if (keep != nullptr) *keep = std::move(a);
  return n;
}

TEST(AuthorJ3d, Triangle) {
  Authored a;
  EXPECT_EQ(check(triangle(), "triangle", &a), 1u);
  ASSERT_TRUE(a.ok);
  const J3dJnt1* jnt = j3d_section<J3dJnt1>(a.file);
  ASSERT_EQ(jnt->joints.size(), 1u) << "the one node is the one joint";
  EXPECT_EQ(jnt->names.names[0], "model");
  EXPECT_EQ(std::string(a.file.type.begin(), a.file.type.end()), "bmd3");
  EXPECT_EQ(std::string(a.file.header_0x10.begin(), a.file.header_0x10.begin() + 4), "SVR3");
  const J3dShp1* shp = j3d_section<J3dShp1>(a.file);
  ASSERT_EQ(shp->shapes.size(), 1u);
  EXPECT_EQ(shp->shapes[0].matrix_type, 0) << "one joint draws it: a single-matrix shape without PNMTXIDX";
  const J3dVtx1* vtx = j3d_section<J3dVtx1>(a.file);
  ASSERT_FALSE(vtx->formats.empty());
  EXPECT_EQ(vtx->formats[0].type, 3u) << "positions in s16";
  EXPECT_EQ(vtx->formats[0].frac, 14u) << "|1| fits s16 with 14 fractional bits (32000 / 2^14 = 1.95)";
}

// A BDL is the BMD's eight sections with MDL3 between MAT3 and TEX1: one packet per material,
// generated from the file's own MAT3 and TEX1 (tests/j3d/test_mdl3.cpp compares the generator with
// Nintendo's packets).
void expect_bdl_layout(const J3dFile& f, const std::string& what) {
  EXPECT_EQ(std::string(f.type.begin(), f.type.end()), "bdl4") << what;
  std::vector<std::string> magics;
  for (const J3dSection& s : f.sections) magics.push_back(j3d_section_magic(s));
  EXPECT_EQ(magics, (std::vector<std::string>{"INF1", "VTX1", "EVP1", "DRW1", "JNT1", "SHP1", "MAT3", "MDL3", "TEX1"})) << what;
  const J3dMdl3* mdl = j3d_section<J3dMdl3>(f);
  const J3dMat3* mat = j3d_section<J3dMat3>(f);
  ASSERT_TRUE(mdl && mat) << what;
  EXPECT_EQ(mdl->packets.size(), mat->remap.size()) << what << ": one packet per material";
  EXPECT_EQ(mdl->names.names, mat->names.names) << what;
  for (const J3dMdlPacket& p : mdl->packets) EXPECT_FALSE(p.commands.empty() || p.raw.stored()) << what;
}

// Every hand-made scene authors as a BDL the way it does as a BMD: reads back, round-trips, passes
// the index check and draws the input (the 40,000-vertex grid is left to the BMD test: MDL3 does not
// depend on geometry).
TEST(AuthorJ3d, HandMadeScenesAsBdl) {
  Scene materials = triangle();
  scene::Material m;
  m.alpha_mode = scene::AlphaMode::blend;
  materials.materials.push_back(m);
  materials.meshes[0].primitives[0].material = 0;
  Scene cylinder_chain = one_mesh({cylinder(12, 5, 2.0f, 2, true)});
  test::add_chain(cylinder_chain, 2, 2.0f, kTurn);
  Scene no_normals = one_mesh({cylinder(8, 3, 1.0f, 2, false)});
  test::add_chain(no_normals, 2, 1.0f, kTurn);
  Scene two_uvs = textured_quad(false);
  two_uvs.meshes[0].primitives[0].uvs.push_back({{0.5f, 0.5f}, {0.75f, 0.5f}, {0.5f, 0.25f}, {0.75f, 0.25f}});
  two_uvs.materials[0].uv_set = 1;
  const std::pair<const char*, Scene> scenes[] = {{"triangle", triangle()}, {"opaque quad", textured_quad(false)},
                                                  {"translucent quad", textured_quad(true)}, {"blended material", materials},
                                                  {"cylinder", cylinder_chain}, {"strip", test::twelve_joint_strip(kTurn)},
                                                  {"no normals", no_normals}, {"two UV sets", two_uvs}};
  for (const auto& [what, s] : scenes) {
    Authored a;
    EXPECT_GT(check(s, std::string(what) + " (BDL)", &a, true), 0u) << what;
    if (a.ok) expect_bdl_layout(a.file, what);
  }
}

TEST(AuthorJ3d, TexturedQuadKeepsItsTexelsAndColours) {
  for (bool translucent : {false, true}) {
    const Scene s = textured_quad(translucent);
    Authored a;
    EXPECT_EQ(check(s, "quad", &a), 2u);
    ASSERT_TRUE(a.ok);
    const J3dTex1* tex = j3d_section<J3dTex1>(a.file);
    ASSERT_EQ(tex->textures.size(), 1u);
    // These opaque colours fit RGB5A3 exactly (132 does not fit RGB565): C4 with an RGB5A3 palette;
    // alpha 128 fits no palette format (RGB5A3 gives 146) and is not 1-bit: RGBA8.
    EXPECT_EQ(tex->textures[0].format, translucent ? gx_rgba8 : gx_c4);
    ASSERT_EQ(a.lifted.textures.size(), 1u);
    EXPECT_EQ(a.lifted.textures[0].image, s.textures[0].image) << "texel for texel";
    ASSERT_EQ(a.lifted.materials.size(), 1u);
    EXPECT_EQ(a.lifted.materials[0].texture, 0);
    EXPECT_TRUE(a.lifted.materials[0].vertex_colors);
    EXPECT_EQ(a.lifted.materials[0].name, "quad");
  }
}

// Exporters write one glTF texture per material: two with the same name, sampler and texels are one
// TEX1 texture (as Nintendo's converter stores one), a third with other texels its own.
TEST(AuthorJ3d, TexturesAlikeAreStoredOnce) {
  Scene s = textured_quad(false);
  s.textures.push_back(s.textures[0]);  // the same texture again
  s.textures.push_back(s.textures[0]);
  s.textures[2].image.rgba[0] ^= 0xFF;  // other texels, same name
  for (int t : {1, 2}) {
    scene::Material m = s.materials[0];
    m.texture = t;
    s.materials.push_back(m);
    s.meshes[0].primitives.push_back(s.meshes[0].primitives[0]);
    s.meshes[0].primitives.back().material = t;
  }
  auto made = scene::author(s, Format::j3d);
  ASSERT_TRUE(made.ok()) << made.error().message;
  const J3dTex1* tex = j3d_section<J3dTex1>(std::get<J3dFile>(made->document));
  ASSERT_EQ(tex->textures.size(), 2u) << "textures 0 and 1 are one";
}

TEST(AuthorJ3d, MaterialStateComesBack) {
  Scene s = triangle();
  scene::Material m;
  m.name = "cut";
  m.base_color = {0.2f, 0.4f, 0.6f, 1.0f};
  m.alpha_mode = scene::AlphaMode::mask;
  m.alpha_cutoff = 0.5f;
  m.double_sided = true;
  m.unlit = true;
  s.materials.push_back(m);
  m.name = "glass";
  m.alpha_mode = scene::AlphaMode::blend;
  m.double_sided = false;
  m.unlit = false;
  s.materials.push_back(m);
  s.meshes[0].primitives[0].material = 0;
  s.meshes[0].primitives.push_back(s.meshes[0].primitives[0]);
  s.meshes[0].primitives[1].material = 1;
  Authored a;
  EXPECT_EQ(check(s, "materials", &a), 2u);
  ASSERT_EQ(a.lifted.materials.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const scene::Material& in = s.materials[i];
    const scene::Material& out = a.lifted.materials[i];
    EXPECT_EQ(out.name, in.name);
    EXPECT_EQ(out.alpha_mode, in.alpha_mode) << in.name;
    EXPECT_EQ(out.double_sided, in.double_sided) << in.name;
    EXPECT_EQ(out.unlit, in.unlit) << in.name;
    EXPECT_NEAR(out.base_color.y, in.base_color.y, 0.5f / 255) << in.name;
  }
  EXPECT_NEAR(a.lifted.materials[0].alpha_cutoff, 0.5f, 1.0f / 255) << "the GX reference byte";
  const J3dMat3* mat = j3d_section<J3dMat3>(a.file);
  EXPECT_EQ(mat->cull_modes, (std::vector<std::uint32_t>{2, 1, 0})) << "Nintendo's pre-seeded cull pool";
}

// The 0x138-byte indirect record of a material without indirect texturing, as every real file in the
// J3D samples stores it (measured on j3d/ and j3d-layouts/): off, four unused orders, three 0.5-scale
// matrices of exponent 1, scales 0x0000FFFF, sixteen stages of nine zeros and three 0xFF.
Bytes real_unused_indirect_record() {
  Bytes r = {0x00, 0x00, 0xFF, 0xFF};
  r.insert(r.end(), 16, 0xFF);
  for (int m = 0; m < 3; ++m) {
    const Bytes matrix = {0x3F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xFF, 0xFF, 0xFF};
    r.insert(r.end(), matrix.begin(), matrix.end());
  }
  for (int k = 0; k < 4; ++k) r.insert(r.end(), {0x00, 0x00, 0xFF, 0xFF});
  for (int k = 0; k < 16; ++k) r.insert(r.end(), {0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF});
  return r;
}

// Every MAT3 indirect record in the written bytes is the real files' unused record (the 255 real
// J3D files store scales 0x0000FFFF where authoring once stored zeros).
TEST(AuthorJ3d, IndirectRecordsAreTheRealFilesUnusedRecord) {
  const Bytes expected = real_unused_indirect_record();
  ASSERT_EQ(expected.size(), 0x138u);
  Scene two = triangle();
  two.materials.resize(2);
  two.meshes[0].primitives[0].material = 0;
  two.meshes[0].primitives.push_back(two.meshes[0].primitives[0]);
  two.meshes[0].primitives[1].material = 1;
  const std::pair<const char*, Scene> scenes[] = {{"triangle", triangle()}, {"opaque quad", textured_quad(false)}, {"two materials", two}};
  for (const auto& [what, s] : scenes) {
    for (bool bdl : {false, true}) {
      auto made = scene::author(s, Format::j3d, as_bdl(bdl));
      ASSERT_TRUE(made.ok()) << what << ": " << made.error().message;
      auto bytes = write_document(made->document);
      ASSERT_TRUE(bytes.ok()) << what;
      std::size_t mat3 = 0x20;  // sections follow the 0x20-byte header, each with its size at +4
      while (mat3 + 8 <= bytes->size() && test::be32_at(*bytes, mat3) != 0x4D415433 && test::be32_at(*bytes, mat3 + 4) > 0) {  // "MAT3"
        mat3 += test::be32_at(*bytes, mat3 + 4);
      }
      ASSERT_LT(mat3 + 0x20, bytes->size()) << what << ": no MAT3";
      const std::size_t count = std::size_t{bytes->at(mat3 + 8)} << 8 | bytes->at(mat3 + 9);
      const std::size_t indirect = mat3 + test::be32_at(*bytes, mat3 + 0x18);
      ASSERT_GT(count, 0u) << what;
      for (std::size_t i = 0; i < count; ++i) {
        const auto at = bytes->begin() + static_cast<std::ptrdiff_t>(indirect + i * 0x138);
        ASSERT_LE(indirect + (i + 1) * 0x138, bytes->size()) << what;
        EXPECT_TRUE(std::equal(expected.begin(), expected.end(), at)) << what << (bdl ? " (BDL)" : "") << ": indirect record " << i;
      }
    }
  }
}

TEST(AuthorJ3d, SkinnedCylinderWithTwoJoints) {
  Scene s = one_mesh({cylinder(12, 5, 2.0f, 2, true)});
  test::add_chain(s, 2, 2.0f, kTurn);
  Authored a;
  EXPECT_EQ(check(s, "cylinder", &a), 12u * 4 * 2);
  ASSERT_TRUE(a.ok);
  const J3dEvp1* evp = j3d_section<J3dEvp1>(a.file);
  EXPECT_FALSE(evp->envelopes.empty());
  EXPECT_EQ(evp->inverse_binds.size(), j3d_section<J3dJnt1>(a.file)->joints.size()) << "one inverse bind per joint";
  const J3dDrw1* drw = j3d_section<J3dDrw1>(a.file);
  const std::size_t rigid = static_cast<std::size_t>(std::count(drw->weighted.begin(), drw->weighted.end(), 0));
  EXPECT_EQ(drw->indices.size() - rigid, 2 * evp->envelopes.size()) << "the envelope run written twice, as Nintendo's files";
  EXPECT_EQ(j3d_section<J3dShp1>(a.file)->shapes[0].matrix_type, 3);
}

TEST(AuthorJ3d, TwelveJointsOnOneStripSplitAtTenMatrices) {
  Authored a;
  EXPECT_EQ(check(test::twelve_joint_strip(kTurn), "strip", &a), 22u);
  ASSERT_TRUE(a.ok);
  const J3dShp1* shp = j3d_section<J3dShp1>(a.file);
  EXPECT_GE(shp->packets.size(), 2u);
  for (const J3dMatrixGroup& g : shp->matrix_groups) EXPECT_LE(g.count, 10u);
}

TEST(AuthorJ3d, SeventyThousandPositionsAreRefusedAtTheIndexLimit) {
  auto made = scene::author(test::grid(280, 250), Format::j3d);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.error().code, ErrorCode::unsupported);
  EXPECT_NE(made.error().message.find("16-bit"), std::string::npos) << made.error().message;
}

TEST(AuthorJ3d, AGridUnderTheIndexLimit) {
  Authored a;
  EXPECT_EQ(check(test::grid(200, 200), "grid", &a), 199u * 199 * 2);
}

TEST(AuthorJ3d, NoNormalsDrawsNone) {
  Scene s = one_mesh({cylinder(8, 3, 1.0f, 2, false)});
  test::add_chain(s, 2, 1.0f, kTurn);
  Authored a;
  EXPECT_GT(check(s, "no normals", &a), 0u);
  ASSERT_TRUE(a.ok);
  for (const J3dVertexFormat& f : j3d_section<J3dVtx1>(a.file)->formats) EXPECT_NE(f.attribute, 10u) << "no NRM format";
}

TEST(AuthorJ3d, TwoUvSetsAreBothDrawn) {
  Scene s = textured_quad(false);
  auto& p = s.meshes[0].primitives[0];
  p.uvs.push_back({{0.5f, 0.5f}, {0.75f, 0.5f}, {0.5f, 0.25f}, {0.75f, 0.25f}});
  s.materials[0].uv_set = 1;
  Authored a;
  EXPECT_EQ(check(s, "two UV sets (material on set 1)", &a), 2u);
  ASSERT_TRUE(a.ok);
  ASSERT_EQ(a.lifted.meshes[0].primitives[0].uvs.size(), 2u);
  EXPECT_EQ(a.lifted.materials[0].uv_set, 1);
}

TEST(AuthorJ3d, HostileScenesAreClearErrors) {
  test::expect_author_refuses_hostile_scenes(Format::j3d);
  Scene twice = test::twelve_joint_strip(kTurn);
  twice.skins[0].joints[3] = twice.skins[0].joints[2];
  test::expect_author_refuses(twice, Format::j3d, "skins[0].joints[3]", "a joint twice in the skin");
  Scene bad_texture = textured_quad(false);
  bad_texture.textures[0].image.rgba.resize(5);
  test::expect_author_refuses(bad_texture, Format::j3d, "textures[0].image", "an image shorter than its size");
  Scene nul = triangle();
  nul.nodes[0].name = std::string("a\0b", 3);
  test::expect_author_refuses(nul, Format::j3d, "nodes[0].name", "a NUL in a name");
}

// A chain of `depth` nodes, the last drawing a triangle rigidly (issue 32 F1).
Scene chain_drawn_at_its_end(std::size_t depth) {
  Scene s = triangle();  // its node is the chain's first
  int parent = 0;
  for (std::size_t d = 1; d < depth; ++d) {
    scene::Node n;
    n.name = "j" + std::to_string(d);
    n.local.translation = {0, 0.01f, 0};
    parent = s.add_node(std::move(n), parent);
  }
  s.nodes[static_cast<std::size_t>(parent)].mesh = 0;  // the triangle's own node draws nothing more
  s.nodes[0].mesh = -1;
  return s;
}

// INF1 nests at most 256 levels: a joint 255 deep with its material and shape nodes is the deepest
// file; one level more, or 60,000 (which crashed: the hierarchy was built and walked recursively
// and the limit checked only by the writer), is refused up front naming the depth.
TEST(AuthorJ3d, ChainsPastInf1DepthAreRefusedUpFront) {
  Authored a;
  EXPECT_EQ(check(chain_drawn_at_its_end(255), "255-deep chain", &a), 1u);
  for (std::size_t depth : {256u, 60000u}) {
    SCOPED_TRACE(depth);
    auto made = scene::author(chain_drawn_at_its_end(depth), Format::j3d);
    ASSERT_FALSE(made.ok());
    EXPECT_EQ(made.error().code, ErrorCode::unsupported);
    EXPECT_NE(made.error().message.find("nests at most 256 levels"), std::string::npos) << made.error().message;
  }
  Scene skinned = one_mesh({cylinder(8, 3, 1.0f, 2, true)});  // a 10,000-joint skinned chain
  test::add_chain(skinned, 10000, 0.01f);
  auto made = scene::author(skinned, Format::j3d);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.error().message.find("nests at most 256 levels"), std::string::npos) << made.error().message;
}

// Joint world matrices walk INF1 without recursion: a 10,000-deep hierarchy (deeper than any file
// can hold) is walked, each joint one step past its parent.
TEST(AuthorJ3d, JointWorldMatricesWalkADeepHierarchy) {
  constexpr std::size_t kDepth = 10000;
  J3dFile f;
  J3dJnt1 jnt;
  jnt.joints.resize(kDepth);
  for (J3dJoint& j : jnt.joints) j.translation = {0, 1, 0};
  J3dInf1 inf;
  std::vector<J3dNode>* level = &inf.roots;
  for (std::size_t d = 0; d < kDepth; ++d) {
    level->push_back(J3dNode{0x10, static_cast<std::uint16_t>(d), {}});
    level = &level->back().children;
  }
  f.sections.emplace_back(std::move(inf));  // moved, never copied: a copy would recurse
  f.sections.emplace_back(std::move(jnt));
  auto world = j3d_joint_world_matrices(f);
  ASSERT_TRUE(world.ok()) << world.error().describe();
  EXPECT_FLOAT_EQ((*world)[kDepth - 1][13], static_cast<float>(kDepth));
  // Taken apart from the leaf up, so no destructor recurses either.
  std::vector<J3dNode> parts;
  parts.reserve(kDepth);  // `n` points into it
  for (J3dNode* n = &std::get<J3dInf1>(f.sections[0]).roots[0]; !n->children.empty();) {
    parts.push_back(std::move(n->children[0]));
    n->children.clear();
    n = &parts.back();
  }
}

// Linear in the nodes: 65,000 nodes side by side (quadratic before: 5 s) are authored at once.
TEST(AuthorJ3d, SixtyFiveThousandFlatNodesAreQuick) {
  Scene s = triangle();
  for (std::size_t n = 1; n < 65000; ++n) {
    scene::Node node;
    node.name = "n" + std::to_string(n);
    s.add_node(std::move(node));
  }
  const auto start = std::chrono::steady_clock::now();
  auto made = scene::author(s, Format::j3d);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(made.ok()) << made.error().describe();
  EXPECT_EQ(j3d_section<J3dJnt1>(std::get<J3dFile>(made->document))->joints.size(), 65001u) << "every node a joint under an added root";
  EXPECT_LT(seconds, 2.0) << "authoring 65,000 flat nodes took " << seconds << " s";
}

// Each section of a written J3D file, by magic.
std::map<std::string, Bytes> section_bytes(const Bytes& b) {
  std::map<std::string, Bytes> out;
  for (std::size_t at = 0x20; at + 8 <= b.size();) {
    const std::size_t size = std::size_t{b[at + 4]} << 24 | std::size_t{b[at + 5]} << 16 | std::size_t{b[at + 6]} << 8 | b[at + 7];
    if (size < 8 || size > b.size() - at) break;
    out[std::string(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at) + 4)] =
        Bytes(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + size));
    at += size;
  }
  return out;
}

// The shared real glTFs, one case each (each stays well under a minute under ASan): each becomes a
// BMD drawing its surface with its joints and weights, and a BDL of the same sections plus MDL3, or
// is refused naming the limit.
class AuthorJ3dGltf : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(AuthorJ3dGltf, BecomesABmdAndBdlOrIsRefusedNamingTheLimit) {
  const auto read = test::readable_gltf_samples({GetParam()});
  if (read.empty()) GTEST_SKIP() << GetParam() << " is not a glTF the reader takes";
  const auto& [what, file] = read[0];
  auto made = scene::author(file.scene, Format::j3d);
  if (!made) {
    EXPECT_EQ(made.error().code, ErrorCode::unsupported) << what << ": " << made.error().field << ": " << made.error().message;
    std::printf("refused %s: %s: %s\n", what.c_str(), made.error().field.c_str(), made.error().message.c_str());
    return;
  }
  Authored a = written_back(*made, what);
  ASSERT_TRUE(a.ok) << what;
  const Scene in = as_authored(file.scene);
  test::Tolerance tol;
  tol.uv = std::max(step_of(a.file, 13), 1e-6f);
  tol.weight = 1e-5f;
  expect_same_surface(in, a.lifted, position_tolerance(a, file.scene), tol, what);
  expect_same_joints(in, a.lifted, what);
  std::printf("authored %s: %zu bytes, %zu warnings\n", what.c_str(), a.size, a.warnings.size());
  // As a BDL: the same eight sections, byte for byte, and MDL3.
  auto bdl = scene::author(file.scene, Format::j3d, as_bdl(true));
  ASSERT_TRUE(bdl.ok()) << what << ": " << bdl.error().field << ": " << bdl.error().message;
  Authored b = written_back(*bdl, what + " (BDL)");
  ASSERT_TRUE(b.ok) << what;
  expect_bdl_layout(b.file, what);
  const auto bmd_sections = section_bytes(write_j3d(a.file).value()), bdl_sections = section_bytes(write_j3d(b.file).value());
  for (const auto& [magic, bytes] : bmd_sections) EXPECT_TRUE(bdl_sections.count(magic) && bdl_sections.at(magic) == bytes) << what << ": " << magic;
  std::printf("authored %s as BDL: %zu bytes, MDL3 %zu\n", what.c_str(), b.size, bdl_sections.count("MDL3") ? bdl_sections.at("MDL3").size() : 0);
}

std::vector<std::filesystem::path> gltf_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& p : test::sample_files("gltf")) {
    if ((p.extension() == ".glb" || p.extension() == ".gltf") && p.string().find("/invalid/") == std::string::npos) out.push_back(p);
  }
  return out;
}

std::string case_name(const ::testing::TestParamInfo<std::filesystem::path>& info) {
  return test::identifier(info.param.parent_path().filename().string() + "_" + info.param.filename().string());
}

INSTANTIATE_TEST_SUITE_P(Samples, AuthorJ3dGltf, ::testing::ValuesIn(gltf_files()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AuthorJ3dGltf);

// Section sizes of a written J3D file, by magic.
std::map<std::string, std::size_t> section_sizes(const Bytes& b) {
  std::map<std::string, std::size_t> out;
  for (const auto& [magic, bytes] : section_bytes(b)) out[magic] = bytes.size();
  return out;
}

std::string formats_of(const J3dFile& f) {
  std::string out;
  for (const J3dVertexFormat& v : j3d_section<J3dVtx1>(f)->formats) {
    static const char* types[6] = {"u8", "s8", "u16", "s16", "f32", "rgba8"};
    const char* name = v.attribute == 9 ? "POS" : v.attribute == 10 ? "NRM" : v.attribute == 11 ? "CLR0" : v.attribute == 12 ? "CLR1" : "TEX";
    const bool colour = v.attribute == 11 || v.attribute == 12;
    out += (out.empty() ? "" : " ") + std::string(name) + ":" + (colour ? "rgba8" : v.type < 5 ? types[v.type] : "?") +
           (!colour && v.type != 4 ? "/" + std::to_string(v.frac) : "");
  }
  return out;
}

std::string tex_formats(const J3dFile& f) {
  std::map<std::string, int> n;
  if (const J3dTex1* t = j3d_section<J3dTex1>(f)) {
    for (const J3dTexture& x : t->textures) ++n[gx_format_name(x.format)];
  }
  std::string out;
  for (const auto& [k, c] : n) out += (out.empty() ? "" : " ") + std::to_string(c) + "x" + k;
  return out.empty() ? "-" : out;
}

std::size_t mat3_table_items(const J3dFile& f) {
  const J3dMat3* m = j3d_section<J3dMat3>(f);
  std::size_t n = 0;
  for (std::size_t t = 3; t < kJ3dMatTables; ++t) n += j3d_mat_table_size(*m, static_cast<J3dMatTable>(t));  // the pools, past entries/remap/names
  return n;
}

// Each J3D sample's export with its extras dropped (as Blender drops them), authored with no base:
// it reads back, round-trips, draws the original's surface, and its layout against Nintendo's is
// printed as a row of the converter-likeness table (lib/gltf/README.md).
class AuthorJ3dLikeness : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(AuthorJ3dLikeness, SampleAuthoredWithoutExtrasIsLikeTheOriginal) {
  const std::filesystem::path& path = GetParam();
  const Document doc = test::load_document(path);
  const auto* original = std::get_if<J3dFile>(&doc);
  ASSERT_NE(original, nullptr) << path;
  auto lifted = scene::lift_j3d(*original, {});
  ASSERT_TRUE(lifted.ok()) << path << ": " << lifted.error().message;
  auto glb = gltf::write_glb(*lifted);
  ASSERT_TRUE(glb.ok()) << path << ": " << glb.error().message;
  auto read = gltf::read_gltf(*glb);
  ASSERT_TRUE(read.ok()) << path << ": " << read.error().message;
  const Scene s = test::without_extras(read->scene);
  const std::string what = path.filename().string();
  const bool bdl = std::string(original->type.begin(), original->type.end()) == "bdl4";  // a BDL sample authors as a BDL
  auto made = scene::author(s, Format::j3d, as_bdl(bdl));
  if (!made) {
    EXPECT_EQ(made.error().code, ErrorCode::unsupported) << what << ": " << made.error().field << ": " << made.error().message;
    std::printf("| %s | refused: %s: %s |\n", what.c_str(), made.error().field.c_str(), made.error().message.c_str());
    return;
  }
  Authored a = written_back(*made, what);
  ASSERT_TRUE(a.ok) << what;
  if (bdl) expect_bdl_layout(a.file, what);
  test::Tolerance tol;
  tol.uv = std::max(step_of(a.file, 13), 1e-6f);
  tol.weight = 1e-5f;
  expect_same_surface(as_authored(s), a.lifted, position_tolerance(a, s), tol, what);
  const Bytes ob = write_j3d(*original).value(), ab = write_j3d(a.file).value();
  const auto os = section_sizes(ob), as = section_sizes(ab);
  std::string sizes;
  for (const char* k : {"INF1", "VTX1", "EVP1", "DRW1", "JNT1", "SHP1", "MAT3", "MDL3", "TEX1"}) {
    if (!os.count(k) && !as.count(k)) continue;
    sizes += std::string(sizes.empty() ? "" : ", ") + k + " " + std::to_string(os.count(k) ? os.at(k) : 0) + "/" + std::to_string(as.count(k) ? as.at(k) : 0);
  }
  std::printf("| %s | %zu / %zu | %s | %s / %s | %zu / %zu | %zu / %zu | %s / %s |\n", what.c_str(), ob.size(), ab.size(), sizes.c_str(),
              formats_of(*original).c_str(), formats_of(a.file).c_str(), j3d_section<J3dShp1>(*original)->packets.size(),
              j3d_section<J3dShp1>(a.file)->packets.size(), mat3_table_items(*original), mat3_table_items(a.file), tex_formats(*original).c_str(),
              tex_formats(a.file).c_str());
  // The same joints (a skinned shape's node is no joint) and one shape per original shape.
  EXPECT_EQ(j3d_section<J3dJnt1>(a.file)->joints.size(), j3d_section<J3dJnt1>(*original)->joints.size()) << what;
  EXPECT_EQ(j3d_section<J3dShp1>(a.file)->shapes.size(), j3d_section<J3dShp1>(*original)->shapes.size()) << what;
}

std::vector<std::filesystem::path> j3d_files() { return test::sample_files("j3d"); }

INSTANTIATE_TEST_SUITE_P(Samples, AuthorJ3dLikeness, ::testing::ValuesIn(j3d_files()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AuthorJ3dLikeness);

}  // namespace
}  // namespace remodel
