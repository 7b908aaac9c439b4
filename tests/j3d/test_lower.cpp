// The J3D lower over its base: every BMD/BDL sample gives its own bytes back from its own lift, each
// edit kind of issue 15 on a real sample shows in the output and nowhere else, hostile Scenes are
// clear errors (the Blender-like round trips: test_lower_blender.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <limits>

#include "model/j3d/j3d.hpp"
#include "model/j3d/texture.hpp"
#include "error_checks.hpp"
#include "j3d/lower_fixture.hpp"
#include "scene/match.hpp"

namespace remodel {
namespace {

using namespace j3d_lower_test;

TEST(LowerJ3d, EverySampleGivesItsOwnBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const auto& path : files) {
    const Bytes bytes = test::load_file(path);
    auto doc = read_document(bytes);
    ASSERT_TRUE(doc.ok()) << path;
    auto s = scene::lift(*doc);
    ASSERT_TRUE(s.ok()) << path << ": " << s.error().describe();
    auto lowered = scene::lower(*s, *doc);
    ASSERT_TRUE(lowered.ok()) << path << ": " << lowered.error().describe();
    EXPECT_TRUE(lowered->warnings.empty()) << path << ": " << lowered->warnings.front().where << " " << lowered->warnings.front().message;
    auto out = write_document(lowered->document);
    ASSERT_TRUE(out.ok()) << path;
    EXPECT_TRUE(*out == bytes) << path << ": the unedited lower is not the original";
  }
}

// Blender drops extras and keeps names: the same bytes must come back from names alone.
TEST(LowerJ3d, WithoutExtrasByName) {
  LOAD_OR_SKIP(b, "ww_ka.bdl");
  scene::Scene s = b.scene;
  for (auto& n : s.nodes) n.extras = nullptr;
  for (auto& m : s.meshes) {
    for (auto& p : m.primitives) p.extras = nullptr;
  }
  for (auto& m : s.materials) m.extras = nullptr;
  for (auto& t : s.textures) t.extras = nullptr;
  std::reverse(s.materials.begin(), s.materials.end());  // order must not matter when names match
  for (auto& m : s.meshes) {
    for (auto& p : m.primitives) p.material = p.material < 0 ? -1 : static_cast<int>(s.materials.size()) - 1 - p.material;
  }
  auto lowered = scene::lower(s, b.doc);
  ASSERT_TRUE(lowered.ok()) << lowered.error().describe();
  auto out = write_document(lowered->document);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(*out == b.bytes);
}

// What Blender does to an unedited mesh: vertices reordered and split, triangles starting at another
// corner. The same bytes come back (match_vertices finds each base vertex).
TEST(LowerJ3d, ReorderedAndSplitVerticesGiveTheSameBytes) {
  LOAD_OR_SKIP(b, "ww_cl.bdl");
  scene::Scene s = b.scene;
  for (auto& mesh : s.meshes) {
    scene::Primitive& p = mesh.primitives[0];
    const std::size_t n = p.vertex_count();
    const auto old = p;
    // Reverse the vertices, then split: every triangle's last corner gets a copy of its own.
    std::vector<std::uint32_t> at(n);
    for (std::size_t v = 0; v < n; ++v) at[v] = static_cast<std::uint32_t>(n - 1 - v);
    const auto copy_vertex = [&](scene::Primitive& to, std::uint32_t from) {
      to.positions.push_back(old.positions[from]);
      if (!old.normals.empty()) to.normals.push_back(old.normals[from]);
      if (!old.colors.empty()) to.colors.push_back(old.colors[from]);
      for (std::size_t u = 0; u < old.uvs.size(); ++u) to.uvs[u].push_back(old.uvs[u][from]);
      for (std::uint32_t k = 0; k < old.influences; ++k) {
        to.joints.push_back(old.joints[from * old.influences + k]);
        to.weights.push_back(old.weights[from * old.influences + k]);
      }
    };
    scene::Primitive q = old;
    q.positions.clear();
    q.normals.clear();
    q.colors.clear();
    for (auto& u : q.uvs) u.clear();
    q.joints.clear();
    q.weights.clear();
    q.indices.clear();
    for (std::size_t v = 0; v < n; ++v) copy_vertex(q, at[v]);
    const auto tri = scene::drawn_triangles(old);
    for (std::size_t t = 0; t + 2 < tri.size(); t += 3) {
      const auto split = static_cast<std::uint32_t>(q.vertex_count());
      copy_vertex(q, tri[t + 2]);
      q.indices.insert(q.indices.end(), {at[tri[t + 1]], split, at[tri[t]]});  // rotated: b, c, a
    }
    p = std::move(q);
  }
  auto lowered = scene::lower(s, b.doc);
  ASSERT_TRUE(lowered.ok()) << lowered.error().describe();
  auto out = write_document(lowered->document);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(*out == b.bytes);
}

// Moved positions, normals, UVs and a colour on one shape of a small model with s16 positions
// (6 fractional bits), s16 normals and UVs and RGBA8 colours: the re-lifted shape shows the edit
// within the format's quantisation; every other shape and every section but VTX1 and SHP1 are
// untouched (INF1's vertex count follows VTX1 as written).
TEST(LowerJ3d, MovedVertices) {
  LOAD_OR_SKIP(b, "smg_poltaformationrock.bdl");
  scene::Scene s = b.scene;
  scene::Primitive& p = s.meshes[0].primitives[0];
  ASSERT_GE(p.vertex_count(), 4u);
  ASSERT_FALSE(p.normals.empty());
  ASSERT_FALSE(p.colors.empty());
  ASSERT_FALSE(p.uvs.empty());
  // Every copy of the edited vertices (split by the lift for other attributes) moves together.
  const scene::Vec3 moved_from = p.positions[0];
  for (auto& v : p.positions) {
    if (v == moved_from) v = v + scene::Vec3{1.5f, -2.0f, 0.25f};
  }
  p.normals[1] = scene::normalize(scene::Vec3{0.3f, 0.9f, -0.1f});
  p.uvs[0][2] = {p.uvs[0][2].x + 0.125f, p.uvs[0][2].y - 0.5f};
  p.colors[3] = {0.2f, 0.4f, 0.6f, 1.0f};
  const Output o = lower_and_reread(s, b);
  ASSERT_FALSE(o.bytes.empty());
  EXPECT_TRUE(o.warnings.empty());
  const scene::Primitive& q = o.scene.meshes[0].primitives[0];
  ASSERT_EQ(q.vertex_count(), p.vertex_count());
  ASSERT_EQ(q.indices, p.indices);
  for (std::size_t v = 0; v < p.vertex_count(); ++v) {
    EXPECT_LE(distance(q.positions[v], p.positions[v]), 1.0f / 32) << v;  // 1/64 per stored component
    EXPECT_LE(distance(q.normals[v], p.normals[v]), 1e-3f) << v;
    EXPECT_LE(std::fabs(q.uvs[0][v].x - p.uvs[0][v].x) + std::fabs(q.uvs[0][v].y - p.uvs[0][v].y), 1e-3f) << v;
    EXPECT_LE(std::fabs(q.colors[v].x - p.colors[v].x) + std::fabs(q.colors[v].y - p.colors[v].y) + std::fabs(q.colors[v].z - p.colors[v].z), 2.0f / 255) << v;
  }
  EXPECT_NE(q.positions[0], b.scene.meshes[0].primitives[0].positions[0]);
  for (std::size_t m = 1; m < s.meshes.size(); ++m) {
    const scene::Primitive& was = b.scene.meshes[m].primitives[0];
    const scene::Primitive& now = o.scene.meshes[m].primitives[0];
    EXPECT_EQ(was.positions, now.positions) << m;
    EXPECT_EQ(was.indices, now.indices) << m;
  }
  expect_other_sections_equal(std::get<J3dFile>(b.doc), o.file, {"VTX1", "SHP1"});  // INF1 too: its counts are derived
  expect_diff_only(b.doc, o.bytes, {at(o.file, "VTX1") + ".arrays", at(o.file, "SHP1") + ".packets[0]"});
  // Unchanged values keep their stored elements: only the edited ones were appended.
  const J3dVtx1& was = section<J3dVtx1>(std::get<J3dFile>(b.doc));
  const J3dVtx1& now = section<J3dVtx1>(o.file);
  for (std::size_t a = 0; a < was.arrays.size(); ++a) {
    ASSERT_GE(now.arrays[a].data.size(), was.arrays[a].data.size());
    EXPECT_TRUE(std::equal(was.arrays[a].data.begin(), was.arrays[a].data.end(), now.arrays[a].data.begin())) << "array " << a;
  }
  // The moved position was appended: INF1's vertex count follows, written from VTX1.
  EXPECT_GT(expect_inf1_counts_follow(o).second, j3d_vertex_count(std::get<J3dFile>(b.doc)));
}

// A primitive's drawn triangles as values (positions to 1/16, joints with weights to 1/100), each
// rotated to start at its smallest corner (winding kept) and sorted: equal for the same surface
// however the vertices and triangles are ordered or stripped.
std::vector<std::string> surface(const scene::Primitive& p) {
  const auto corner = [&](std::uint32_t v) {
    std::string c = std::to_string(std::lround(p.positions[v].x * 16)) + "," + std::to_string(std::lround(p.positions[v].y * 16)) + "," +
                    std::to_string(std::lround(p.positions[v].z * 16));
    std::map<std::uint16_t, long> w;
    for (std::uint32_t k = 0; k < p.influences; ++k) {
      const float x = p.weights[v * p.influences + k];
      if (x > 0) w[p.joints[v * p.influences + k]] += std::lround(x * 100);
    }
    for (const auto& [j, x] : w) {
      c.push_back('|');
      c.append(std::to_string(j));
      c.push_back(':');
      c.append(std::to_string(x));
    }
    return c;
  };
  std::vector<std::string> out;
  const auto t = scene::drawn_triangles(p);
  for (std::size_t i = 0; i + 2 < t.size(); i += 3) {
    std::array<std::string, 3> c{corner(t[i]), corner(t[i + 1]), corner(t[i + 2])};
    const auto first = static_cast<std::size_t>(std::min_element(c.begin(), c.end()) - c.begin());
    out.push_back(c[first] + " / " + c[(first + 1) % 3] + " / " + c[(first + 2) % 3]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Changed weights and joint assignments on a skinned shape drawn through envelopes: a third of
// the vertices move to one joint (rigid DRW1 entries), another third get new two-joint weights
// (new EVP1 envelopes); the shape is rebuilt into packets of at most 10 matrix slots.
TEST(LowerJ3d, ChangedWeightsAndJoints) {
  LOAD_OR_SKIP(b, "ww_ka.bdl");
  scene::Scene s = b.scene;
  scene::Primitive& p = s.meshes[0].primitives[0];
  const std::size_t joints = s.skins[0].joints.size();
  ASSERT_GE(joints, 4u);
  for (std::uint32_t v = 0; v < p.vertex_count(); ++v) {
    float* w = &p.weights[v * p.influences];
    std::uint16_t* j = &p.joints[v * p.influences];
    if (v % 3 == 0) {
      std::fill(w, w + p.influences, 0.0f);
      w[0] = 1;
      j[0] = static_cast<std::uint16_t>((j[0] + 1) % joints);
    } else if (v % 3 == 1) {
      std::fill(w, w + p.influences, 0.0f);
      w[0] = 0.75f;
      w[1] = 0.25f;
      j[1] = static_cast<std::uint16_t>((j[0] + 2) % joints);
      if (j[1] == j[0]) j[1] = static_cast<std::uint16_t>((j[0] + 1) % joints);
    }
  }
  const Output o = lower_and_reread(s, b);
  ASSERT_FALSE(o.bytes.empty());
  const scene::Primitive& q = o.scene.meshes[0].primitives[0];
  EXPECT_FALSE(surface(p).empty());
  EXPECT_EQ(surface(q), surface(p));
  const J3dShp1& shp = section<J3dShp1>(o.file);
  std::size_t strips = 0;
  for (const J3dPacket& k : shp.packets) {
    for (const J3dPrimitive& prim : k.primitives) strips += (prim.opcode & 0xF8) == 0x98;
  }
  EXPECT_GT(strips, 0u);
  for (const J3dMatrixGroup& g : shp.matrix_groups) EXPECT_LE(g.count, 10u);
  expect_inf1_counts_follow(o);
  EXPECT_GT(section<J3dEvp1>(o.file).envelopes.size(), section<J3dEvp1>(std::get<J3dFile>(b.doc)).envelopes.size());
  expect_other_sections_equal(std::get<J3dFile>(b.doc), o.file, {"VTX1", "SHP1", "INF1", "DRW1", "EVP1"});
}

// Rigid vertices through joints: every vertex of a multi-matrix shape bound to its strongest joint.
TEST(LowerJ3d, JointAssignmentsRigid) {
  LOAD_OR_SKIP(b, "sms_mom_model.bmd");
  scene::Scene s = b.scene;
  scene::Primitive& p = s.meshes[1].primitives[0];
  for (std::uint32_t v = 0; v < p.vertex_count(); ++v) {
    float* w = &p.weights[v * p.influences];
    std::uint16_t* j = &p.joints[v * p.influences];
    const auto strongest = static_cast<std::size_t>(std::max_element(w, w + p.influences) - w);
    j[0] = j[strongest];
    std::fill(w, w + p.influences, 0.0f);
    w[0] = 1;
  }
  const Output o = lower_and_reread(s, b);
  ASSERT_FALSE(o.bytes.empty());
  EXPECT_EQ(surface(o.scene.meshes[1].primitives[0]), surface(p));
  EXPECT_EQ(surface(o.scene.meshes[0].primitives[0]), surface(b.scene.meshes[0].primitives[0]));
  EXPECT_EQ(surface(o.scene.meshes[2].primitives[0]), surface(b.scene.meshes[2].primitives[0]));
}

// Changed topology: every other triangle of a shape removed; a whole shape removed.
TEST(LowerJ3d, TopologyChangedAndPrimitiveRemoved) {
  LOAD_OR_SKIP(b, "ww_cl.bdl");
  scene::Scene s = b.scene;
  scene::Primitive& p = s.meshes[0].primitives[0];
  std::vector<std::uint32_t> kept;
  const auto tri = scene::drawn_triangles(p);
  for (std::size_t i = 0; i + 2 < tri.size(); i += 3) {
    if ((i / 3) % 2 == 0) kept.insert(kept.end(), {tri[i], tri[i + 1], tri[i + 2]});
  }
  p.indices = kept;
  s.meshes.erase(s.meshes.begin() + 2);  // shape 2 goes; nodes drawing later meshes follow
  for (auto& n : s.nodes) {
    if (n.mesh == 2) n.mesh = -1;
    else if (n.mesh > 2) --n.mesh;
  }
  const Output o = lower_and_reread(s, b);
  ASSERT_FALSE(o.bytes.empty());
  EXPECT_EQ(surface(o.scene.meshes[0].primitives[0]), surface(p));
  ASSERT_EQ(o.scene.meshes.size(), b.scene.meshes.size() - 1);  // shape 2 left SHP1: later shapes move down
  ASSERT_EQ(o.warnings.size(), 1u);
  EXPECT_NE(o.warnings[0].message.find("removed"), std::string::npos);
  for (std::size_t m = 2; m < o.scene.meshes.size(); ++m) {
    EXPECT_EQ(surface(o.scene.meshes[m].primitives[0]), surface(b.scene.meshes[m + 1].primitives[0])) << m;
  }
  expect_other_sections_equal(std::get<J3dFile>(b.doc), o.file, {"SHP1", "INF1"});
}

// An added primitive: a copy of shape 3, moved aside and without extras, becomes a new SHP1 shape
// drawn like shape 3 (its descriptors, beside it in INF1); one with another material goes under a
// new INF1 material node. Base shapes keep their packets.
TEST(LowerJ3d, PrimitiveAdded) {
  LOAD_OR_SKIP(b, "ww_cl.bdl");
  scene::Scene s = b.scene;
  const std::size_t base_meshes = s.meshes.size();
  for (int copy = 0; copy < 2; ++copy) {
    scene::Mesh m = s.meshes[3];
    m.name = "added" + std::to_string(copy);
    for (auto& p : m.primitives) {
      p.extras = nullptr;
      for (auto& v : p.positions) v = v + scene::Vec3{10.0f * static_cast<float>(copy + 1), 0, 0};
      if (copy == 1) p.material = s.meshes[0].primitives[0].material != p.material ? s.meshes[0].primitives[0].material : p.material;
    }
    s.meshes.push_back(m);
    scene::Node n;
    n.name = m.name;
    n.mesh = static_cast<int>(s.meshes.size() - 1);
    n.skin = 0;
    s.add_node(n);
  }
  const Output o = lower_and_reread(s, b);
  ASSERT_FALSE(o.bytes.empty());
  ASSERT_EQ(o.scene.meshes.size(), base_meshes + 2);
  for (std::size_t k = 0; k < 2; ++k) {
    const auto& p = s.meshes[base_meshes + k].primitives[0];
    const auto& q = o.scene.meshes[base_meshes + k].primitives[0];
    EXPECT_FALSE(q.extras.contains("not_in_inf1")) << k;
    EXPECT_EQ(q.material, p.material) << k;
    EXPECT_EQ(surface(q), surface(p)) << k;
  }
  for (std::size_t m = 0; m < base_meshes; ++m) EXPECT_EQ(surface(o.scene.meshes[m].primitives[0]), surface(b.scene.meshes[m].primitives[0])) << m;
  // Two shapes' packets added: INF1's packet count follows, written from SHP1.
  EXPECT_GT(expect_inf1_counts_follow(o).first, j3d_packet_count(std::get<J3dFile>(b.doc)));
}

// Renamed joints and materials: JNT1 and MAT3 name tables (and MDL3's copy in a BDL) only.
TEST(LowerJ3d, RenamedJointsAndMaterials) {
  LOAD_OR_SKIP(b, "ww_cl.bdl");
  scene::Scene s = b.scene;
  s.nodes[static_cast<std::size_t>(s.skins[0].joints[3])].name = "renamed_joint";
  s.materials[1].name = "renamed_material";
  const Output o = lower_and_reread(s, b);
  ASSERT_FALSE(o.bytes.empty());
  EXPECT_EQ(section<J3dJnt1>(o.file).names.names[3], "renamed_joint");
  EXPECT_EQ(section<J3dMat3>(o.file).names.names[1], "renamed_material");
  EXPECT_EQ(section<J3dMdl3>(o.file).names.names[1], "renamed_material");
  expect_diff_only(b.doc, o.bytes, {at(o.file, "JNT1") + ".joints[3].name", at(o.file, "MAT3") + ".materials[1]", at(o.file, "MDL3")});
}

// A moved bind pose: a joint translated and turned. JNT1 holds the new pose (s16 angles), EVP1's
// inverse binds follow, and vertices stay where the Scene has them (model space).
TEST(LowerJ3d, MovedBindPose) {
  LOAD_OR_SKIP(b, "ww_ka.bdl");
  scene::Scene s = b.scene;
  const int joint = 5;
  scene::Node& n = s.nodes[static_cast<std::size_t>(s.skins[0].joints[joint])];
  n.local.translation = n.local.translation + scene::Vec3{2.0f, -1.0f, 0.5f};
  n.local.rotation = scene::normalize(scene::axis_angle({0, 0, 1}, 0.3f) * n.local.rotation);
  const Output o = lower_and_reread(s, b);
  ASSERT_FALSE(o.bytes.empty());
  const scene::Node& m = o.scene.nodes[static_cast<std::size_t>(o.scene.skins[0].joints[joint])];
  EXPECT_LE(distance(m.local.translation, n.local.translation), 1e-5f);
  const scene::Mat4 want = scene::rotation_matrix(n.local.rotation), got = scene::rotation_matrix(m.local.rotation);
  EXPECT_LE(scene::max_abs_difference(want, got), 1e-3f);  // s16 angles: 1/10430 radian steps
  const auto w = scene::world_matrices(o.scene);
  for (std::size_t j = 0; j < o.scene.skins[0].joints.size(); ++j) {
    const scene::Mat4 id = w[static_cast<std::size_t>(o.scene.skins[0].joints[j])] * o.scene.skins[0].inverse_bind_matrices[j];
    EXPECT_LE(scene::max_abs_difference(id, scene::Mat4::identity()), 1e-3f) << j;
  }
  const scene::Primitive& was = b.scene.meshes[0].primitives[0];
  const scene::Primitive& now = o.scene.meshes[0].primitives[0];
  ASSERT_EQ(was.vertex_count(), now.vertex_count());
  for (std::size_t v = 0; v < was.vertex_count(); ++v) EXPECT_LE(distance(was.positions[v], now.positions[v]), 0.05f) << v;
  expect_other_sections_equal(std::get<J3dFile>(b.doc), o.file, {"JNT1", "EVP1", "VTX1", "SHP1", "INF1"});
  // Only the moved joint and the joints under it get new EVP1 inverse binds; JNT1 changes only there.
  std::vector<bool> under(s.nodes.size(), false);
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    for (int k = static_cast<int>(i); k >= 0; k = s.nodes[static_cast<std::size_t>(k)].parent) {
      if (k == s.skins[0].joints[joint]) under[i] = true;
    }
  }
  const auto& ibm_was = section<J3dEvp1>(std::get<J3dFile>(b.doc)).inverse_binds;
  const auto& ibm_now = section<J3dEvp1>(o.file).inverse_binds;
  ASSERT_EQ(ibm_was.size(), ibm_now.size());
  for (std::size_t j = 0; j < ibm_was.size(); ++j) {
    EXPECT_EQ(ibm_was[j] != ibm_now[j], under[static_cast<std::size_t>(s.skins[0].joints[j])]) << j;
  }
  const auto& jnt_was = section<J3dJnt1>(std::get<J3dFile>(b.doc)).joints;
  const auto& jnt_now = section<J3dJnt1>(o.file).joints;
  for (std::size_t j = 0; j < jnt_was.size(); ++j) {
    EXPECT_EQ(jnt_was[j].translation != jnt_now[j].translation, j == joint) << j;
  }
}

// A replaced texture image, encoded in the base's GX format: TEX1 equals replace_j3d_texture's own.
TEST(LowerJ3d, ReplacedTexture) {
  LOAD_OR_SKIP(b, "ww_letter.bdl");
  scene::Scene s = b.scene;
  ASSERT_FALSE(s.textures.empty());
  RgbaImage& image = s.textures[0].image;
  for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
    for (std::size_t c = 0; c < 3; ++c) image.rgba[i + c] = static_cast<std::uint8_t>(255 - image.rgba[i + c]);
  }
  const Output o = lower_and_reread(s, b);
  ASSERT_FALSE(o.bytes.empty());
  J3dTex1 want = section<J3dTex1>(std::get<J3dFile>(b.doc));
  ASSERT_TRUE(replace_j3d_texture(want, 0, image).ok());
  const J3dTex1& got = section<J3dTex1>(o.file);
  ASSERT_EQ(got.blocks.size(), want.blocks.size());
  for (std::size_t k = 0; k < got.blocks.size(); ++k) EXPECT_TRUE(got.blocks[k].data == want.blocks[k].data) << k;
  expect_other_sections_equal(std::get<J3dFile>(b.doc), o.file, {"TEX1"});
}

// Every J3D sample lifted, changed by `blender`, lowered over itself: its own bytes, without a warning.

// Hostile Scenes: each a clear error naming where, never a crash.
TEST(LowerJ3d, HostileScenes) {
  LOAD_OR_SKIP(b, "ww_ka.bdl");
  const auto fails = [&](const scene::Scene& s, const std::string& field_part) {
    auto r = scene::lower(s, b.doc);
    ASSERT_FALSE(r.ok()) << "expected an error at " << field_part;
    EXPECT_NE((r.error().field + " " + r.error().message).find(field_part), std::string::npos) << r.error().describe();
    test::expect_no_file_position(r.error());
    EXPECT_FALSE(r.error().message.empty());
  };
  {
    scene::Scene s = b.scene;
    s.meshes[0].primitives[0].positions[3].y = std::numeric_limits<float>::quiet_NaN();
    fails(s, "positions[3]");
  }
  {
    scene::Scene s = b.scene;
    auto& p = s.meshes[0].primitives[0];
    p.joints[0] = 9999;
    fails(s, "joint 9999");
  }
  {
    scene::Scene s = b.scene;
    s.meshes[0].primitives[0].normals.pop_back();
    fails(s, "normals");
  }
  {
    scene::Scene s = b.scene;
    s.meshes[0].primitives[0].weights.pop_back();
    fails(s, "weights");
  }
  {
    scene::Scene s = b.scene;
    s.meshes[0].primitives[0].indices.push_back(100000);
    fails(s, "indices");
  }
  {
    scene::Scene s = b.scene;
    s.skins[0].joints[0] = 100000;
    fails(s, "skins[0].joints[0]");
  }
  {
    scene::Scene s = b.scene;
    auto& p = s.meshes[0].primitives[0];
    std::fill(p.weights.begin(), p.weights.begin() + p.influences, 0.0f);
    fails(s, "no positive weight");
  }
  {
    scene::Scene s = b.scene;
    s.meshes[0].primitives[0].positions[0].x = 1e9f;  // far past s16 / f32 is fine, so use the s16 file below
    auto r = scene::lower(s, b.doc);  // ww_ka stores f32 positions: any finite value fits
    EXPECT_TRUE(r.ok()) << r.error().describe();
  }
  {
    scene::Scene s = b.scene;
    scene::Node extra;
    extra.name = "new_joint";
    s.skins[0].joints.push_back(s.add_node(extra));
    fails(s, "joints cannot be added");
  }
  {  // reparenting is said in a warning, not carried
    scene::Scene s = b.scene;
    const int moved = s.skins[0].joints[3];
    auto& siblings = s.nodes[static_cast<std::size_t>(s.nodes[static_cast<std::size_t>(moved)].parent)].children;
    siblings.erase(std::find(siblings.begin(), siblings.end(), moved));
    s.nodes[static_cast<std::size_t>(moved)].parent = -1;
    auto r = scene::lower(s, b.doc);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_FALSE(r->warnings.empty());
    EXPECT_NE(r->warnings[0].message.find("hierarchy was kept"), std::string::npos);
    EXPECT_TRUE(*write_document(r->document) == b.bytes);
  }
  {
    scene::Scene s = b.scene;
    s.nodes[static_cast<std::size_t>(s.skins[0].joints[1])].local.translation.x = std::numeric_limits<float>::infinity();
    fails(s, "not finite");
  }
  {
    // UV sets a shape draws that the primitive lacks are zeros, with a warning naming them.
    scene::Scene s = b.scene;
    s.meshes[0].primitives[0].uvs.clear();
    auto r = scene::lower(s, b.doc);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_TRUE(std::any_of(r->warnings.begin(), r->warnings.end(), [](const Warning& w) { return w.message.find("lacks TEXCOORD_0") != std::string::npos; }));
  }
}

// Limits of s16 positions, and a single-matrix shape whose vertices bind to several matrices, on a file with both.
TEST(LowerJ3d, FormatLimits) {
  LOAD_OR_SKIP(b, "smg_poltaformationrock.bdl");
  {
    scene::Scene s = b.scene;
    s.meshes[0].primitives[0].positions[0].x = 1e6f;  // s16 with 6 fractional bits holds +-512
    auto r = scene::lower(s, b.doc);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("does not fit"), std::string::npos) << r.error().describe();
  }
  {
    scene::Scene s = b.scene;
    auto& p = s.meshes[0].primitives[0];
    ASSERT_GE(s.skins[0].joints.size(), 2u);
    for (std::uint32_t v = 0; v < p.vertex_count(); v += 2) p.joints[v * p.influences] = static_cast<std::uint16_t>((p.joints[v * p.influences] + 1) % s.skins[0].joints.size());
    // The single-matrix shape is rebuilt to draw PNMTXIDX (matrix type multi): no weight is narrowed.
    const Output o = lower_and_reread(s, b);
    ASSERT_FALSE(o.bytes.empty());
    const J3dShp1& shp = section<J3dShp1>(o.file);
    EXPECT_EQ(shp.shapes[0].matrix_type, 3);
    EXPECT_EQ(shp.descriptor_lists[shp.shapes[0].descriptors].front(), (J3dVertexDescriptor{0, 1}));
    EXPECT_EQ(scene::drawn_triangles(o.scene.meshes[0].primitives[0]).size(), scene::drawn_triangles(p).size());
  }
}

}  // namespace
}  // namespace remodel
