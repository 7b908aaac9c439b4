// Issue 30 on the BWM skin golden: a Blender-made replacement (the game's meshes deleted, a new mesh
// weighted to the game's two bones, its own textured material and a colour layer, Blender's bone turns)
// lowered over the original keeps every bone record byte for byte, counts its faces and indices alike,
// names its material after its image, says what it dropped, and poses as the incoming Scene does.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "blender_like.hpp"
#include "posing.hpp"
#include "bwm/lower_checks.hpp"
#include "scene/bone_turns.hpp"
#include "scene/math.hpp"

namespace remodel {
namespace {

using scene::Mat4;
using scene::Scene;
using scene::Vec3;
using namespace bwm_lower_test;

std::string text(const BwmName64& n) { return std::string(reinterpret_cast<const char*>(n.data())); }

std::vector<Bytes> bone_records(const Bwm& bwm) {
  std::vector<Bytes> out;
  for (const BwmBone& b : bwm.bones) {
    Bytes r(sizeof(BwmBone));
    std::memcpy(r.data(), &b, sizeof(BwmBone));
    out.push_back(r);
  }
  return out;
}

// A stretched sphere along the golden's bones (bone 0 at the origin, bone 1 one up), weighted to both
// by height, textured "checker" (what the glTF reader names a texture Blender exports: its image's name),
// with a colour layer; the game's mesh deleted. `turned`: Blender's bone turns and stripped extras.
Scene replacement(const Scene& lifted, bool turned) {
  Scene s = lifted;
  scene::Primitive p;
  p.topology = scene::Topology::triangles;
  const int rings = 6, segments = 8;
  for (int r = 0; r <= rings; ++r) {
    const float a = 3.14159265f * static_cast<float>(r) / rings, y = 0.5f - 0.6f * std::cos(a);
    for (int k = 0; k < segments; ++k) {
      const float b = 6.2831853f * static_cast<float>(k) / segments;
      p.positions.push_back({0.3f * std::sin(a) * std::cos(b), y, 0.3f * std::sin(a) * std::sin(b)});
      p.normals.push_back(scene::normalize(Vec3{std::sin(a) * std::cos(b), -std::cos(a), std::sin(a) * std::sin(b)}));
      p.uvs.resize(1);
      p.uvs[0].push_back({static_cast<float>(k) / segments, static_cast<float>(r) / rings});
      p.colors.push_back({1.0f, 0.5f, 0.25f, 1.0f});
      const float up = std::clamp(y, 0.0f, 1.0f);
      p.joints.insert(p.joints.end(), {0, 1, 0, 0});
      p.weights.insert(p.weights.end(), {1.0f - up, up, 0.0f, 0.0f});
    }
  }
  for (int r = 0; r < rings; ++r) {
    for (int k = 0; k < segments; ++k) {
      const auto at = [&](int rr, int kk) { return static_cast<std::uint32_t>(rr * segments + (kk % segments)); };
      p.indices.insert(p.indices.end(), {at(r, k), at(r + 1, k), at(r + 1, k + 1), at(r, k), at(r + 1, k + 1), at(r, k + 1)});
    }
  }
  p.influences = 4;
  p.material = 0;
  s.meshes[0].primitives = {p};
  scene::Texture checker;
  checker.name = "checker";
  checker.image = RgbaImage(4, 4);
  s.textures = {checker};
  s.materials[0].name = "Material";
  s.materials[0].texture = 0;
  if (turned) {
    test::strip_extras_like_blender(s);
    test::turn_bones_like_blender(s);
  }
  return s;
}

// A written file poses as the incoming Scene under the same bend of the game's bones, within Blender's
// bone noise (the incoming bones carry it, the written ones are the game's): kBoneRollNoise radians
// over the replacement's reach of about a unit.
void expect_poses_as(const Scene& in, const Scene& written, const Scene& game) {
  const float tolerance = static_cast<float>(scene::kBoneRollNoise);
  const test::PosedDrift d = test::posed_drift(in, written, game, test::bend_every_joint(game, 0.7f), tolerance);
  EXPECT_GT(d.vertices, 0u);
  EXPECT_LT(d.max_rest, tolerance) << "every incoming vertex is drawn at its rest position";
  EXPECT_EQ(d.beyond, 0u) << "posed apart by up to " << d.max_posed;
}

TEST(ReplaceBwm, BlenderTurnedBonesKeepTheirRecords) {
  const Document doc = read_ok(golden::bwm_skin());
  Scene s = lift_ok(doc);
  test::strip_extras_like_blender(s);
  test::turn_bones_like_blender(s);  // bone 0 turned -90 degrees about X, as Blender turned the golden's
  std::vector<Warning> warnings;
  Result<Bytes> out = lower_write(s, doc, &warnings);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  EXPECT_EQ(bone_records(std::get<Bwm>(read_ok(*out))), bone_records(std::get<Bwm>(doc)));
}

TEST(ReplaceBwm, AnEditedBoneIsWrittenWithoutBlendersTurn) {
  const Document doc = read_ok(golden::bwm_skin());
  Scene s = lift_ok(doc);
  const int bone1 = s.skins[0].joints[1];
  s.nodes[static_cast<std::size_t>(bone1)].local.translation.y += 0.5f;  // moved up half a unit
  test::turn_bones_like_blender(s);
  Result<Bytes> out = lower_write(s, doc);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  const Document written = read_ok(*out);
  const Bwm& back = std::get<Bwm>(written);
  const Bwm& base = std::get<Bwm>(doc);
  EXPECT_EQ(bone_records(back)[0], bone_records(base)[0]);
  EXPECT_NEAR(back.bones[1].position[1], 1.5f, 1e-3f);
  for (std::size_t k = 0; k < 3; ++k) {  // the axes as stored, not turned by 90 degrees
    EXPECT_NEAR(back.bones[1].xaxis[k], base.bones[1].xaxis[k], 1e-3f);
    EXPECT_NEAR(back.bones[1].yaxis[k], base.bones[1].yaxis[k], 1e-3f);
    EXPECT_NEAR(back.bones[1].zaxis[k], base.bones[1].zaxis[k], 1e-3f);
  }
}

TEST(ReplaceBwm, ABlenderReplacementKeepsTheSkeletonAndPosesAsTheScene) {
  const Document doc = read_ok(golden::bwm_skin());
  const Scene lifted = lift_ok(doc);
  const Scene in = replacement(lifted, true);
  std::vector<Warning> warnings;
  Result<Bytes> out = lower_write(in, doc, &warnings);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  const Document written = read_ok(*out);
  const Bwm& bwm = std::get<Bwm>(written);
  EXPECT_EQ(bone_records(bwm), bone_records(std::get<Bwm>(doc))) << "the game's skeleton, byte for byte";
  // Counts from the structure: the mesh's are its references' sums.
  ASSERT_EQ(bwm.meshes.size(), 1u);
  std::uint32_t faces = 0, indices = 0;
  for (const BwmMaterialRef& r : bwm.meshes[0].material_refs) faces += r.faces_size, indices += r.indices_size;
  EXPECT_EQ(bwm.meshes[0].faces_count, faces);
  EXPECT_EQ(bwm.meshes[0].indices_size, indices);
  EXPECT_EQ(bwm.meshes[0].faces_count, bwm.meshes[0].indices_size) << "a strip's faces are its length - 2, as its indices";
  // Blender's "Material" stands for no base material: added (not the base's by order), the base's
  // one, drawn no more, removed.
  ASSERT_EQ(bwm.materials.size(), std::get<Bwm>(doc).materials.size());
  EXPECT_EQ(text(bwm.materials.back().diffuse), "checker") << "named after its image, not the Blender material";
  EXPECT_EQ(text(bwm.materials.back().type), "SKIN") << "typed as a skin's";
  bool added = false;
  for (const Warning& w : warnings) added = added || w.message.find("added as material") != std::string::npos;
  EXPECT_TRUE(added) << "the new material is named";
  bool colours = false;
  for (const Warning& w : warnings) colours = colours || (w.where.find(".colors") != std::string::npos && w.message.find("dropped") != std::string::npos);
  EXPECT_TRUE(colours) << "the dropped colour layer is named";
  // It exports again and poses as the incoming Scene does.
  expect_poses_as(in, reread(*out), lifted);
}

TEST(ReplaceBwm, ANewSkinsMaterialIsTypedSkinAndNamedAfterItsImage) {
  const Scene in = replacement(lift_ok(read_ok(golden::bwm_skin())), false);
  auto made = scene::author(in, Format::bwm);
  ASSERT_TRUE(made.ok()) << made.error().describe();
  const Bwm& bwm = std::get<Bwm>(made->document);
  ASSERT_EQ(bwm.materials.size(), 1u);
  EXPECT_EQ(text(bwm.materials[0].diffuse), "checker");
  EXPECT_EQ(text(bwm.materials[0].type), "SKIN");
  std::uint32_t faces = 0, indices = 0;
  for (const BwmMaterialRef& r : bwm.meshes[0].material_refs) faces += r.faces_size, indices += r.indices_size;
  EXPECT_EQ(bwm.meshes[0].faces_count, faces);
  EXPECT_EQ(bwm.meshes[0].indices_size, indices);
}

TEST(ReplaceBwm, WeightsNarrowedToFourBonesAreOneWarningPerPrimitive) {
  Scene s = replacement(lift_ok(read_ok(golden::bwm_skin())), false);
  // Six bones under the root; the first two vertices lean on all six.
  const int root = s.skins[0].skeleton;
  for (int b = 2; b < 6; ++b) {
    scene::Node n;
    n.name = "extra" + std::to_string(b);
    s.skins[0].joints.push_back(s.add_node(std::move(n), root));
    s.skins[0].inverse_bind_matrices.push_back(Mat4::identity());
  }
  scene::Primitive& p = s.meshes[0].primitives[0];
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
  for (std::size_t v = 0; v < p.vertex_count(); ++v) {
    for (std::uint16_t k = 0; k < 6; ++k) {
      joints.push_back(k);
      weights.push_back(v < 2 ? (k < 4 ? 0.2f : 0.1f) : (k < 2 ? p.weights[v * 4 + k] : 0.0f));
    }
  }
  p.influences = 6, p.joints = joints, p.weights = weights;
  auto made = scene::author(s, Format::bwm);
  ASSERT_TRUE(made.ok()) << made.error().describe();
  std::vector<std::string> said;
  for (const Warning& w : made->warnings) {
    if (w.message.find("more than 4 joints") != std::string::npos) said.push_back(w.message);
  }
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("2 vertices"), std::string::npos) << said[0];
  EXPECT_NE(said[0].find("0.200"), std::string::npos) << said[0] << ": two of six bones at 0.1 each";
}

// A new file on the game's skeleton (--skeleton GAME.bwm): Blender's turned bones are bound back to
// the game's, whose 48-byte records the written file stores as they are; it poses as the glTF did.
TEST(ReplaceBwm, ANewFileOnTheGamesSkeletonStoresItsBoneRecords) {
  const Document game = read_ok(golden::bwm_skin());
  const Scene lifted = lift_ok(game);
  const Scene in = replacement(lifted, true);
  scene::LowerInputs inputs;
  inputs.skeleton = &game;
  auto made = scene::author(in, Format::bwm, inputs);
  ASSERT_TRUE(made.ok()) << made.error().describe();
  EXPECT_EQ(bone_records(std::get<Bwm>(made->document)), bone_records(std::get<Bwm>(game)));
  Result<Bytes> bytes = write_document(made->document);
  ASSERT_TRUE(bytes.ok());
  expect_poses_as(in, reread(*bytes), lifted);
  // Without it, Blender's turns are the bones' (what --skeleton is for).
  auto alone = scene::author(in, Format::bwm);
  ASSERT_TRUE(alone.ok());
  EXPECT_NE(bone_records(std::get<Bwm>(alone->document)), bone_records(std::get<Bwm>(game)));
}

}  // namespace
}  // namespace remodel
