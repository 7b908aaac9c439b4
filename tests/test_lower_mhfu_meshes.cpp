// MHFU lowers over a base whose structure the edit changes (issue 15): a group handing its place to new
// groups, primitives drawing materials their mesh did not, meshes added and removed. On every sample
// in ../shared/samples/mhfu: the output reads back and round-trips, shows the edit, and diff_documents
// reports nothing outside it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "mhfu_lower_samples.hpp"
#include "scene_compare.hpp"

namespace remodel {
namespace {

using scene::Scene;
using namespace test::mhfu;

const MhfuPmo& pmo_of(const Document& d) {
  if (const auto* pac = std::get_if<Pac>(&d)) return std::get<MhfuPmoFile>(pac->entries[0].content).pmo;
  return std::get<MhfuPmoFile>(d).pmo;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Every vertex of a group now weighs only a bone its palette does not hold: no triangle fits, so the
// new groups take its place (and its block, which no other group draws), the first loading every slot
// it weighs. Every other group draws its own block with its palette; the mesh shows the same surface
// on the new bone.
TEST(LowerMhfuMeshes, GroupNoTriangleFitsHandsItsPlaceToNewGroups) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : models(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    as_exported(scene);
    scene::Primitive& q = scene.meshes[0].primitives[0];
    std::vector<int> held;
    for (const auto& slot : q.extras["palette"]) held.push_back(slot.get<int>());
    std::uint16_t other = 0;
    while (std::find(held.begin(), held.end(), other) != held.end()) ++other;
    ASSERT_LT(other, scene.skins[0].joints.size());
    for (std::size_t i = 0; i < q.joints.size(); ++i) {
      q.joints[i] = other;
      q.weights[i] = i % q.influences == 0 ? 1.0f : 0.0f;
    }
    const MhfuPmo& base = pmo_of(s.doc);
    const std::uint32_t block = base.groups[0].block;
    std::vector<scene::LowerWarning> warnings;
    const Edited e = lower_diff(scene, s, &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(contains(warnings[0].message, "every triangle of group 0 weighs a bone outside its GE palette: the group is replaced")) << warnings[0].message;
    for (const FieldDifference& f : e.fields) {
      const bool ok = contains(f.field, ".groups") || contains(f.field, ".bone_palette") || contains(f.field, ".meshes[") ||
                      contains(f.field, ".blocks[" + std::to_string(block) + "]") || contains(f.field, ".blocks[" + std::to_string(base.blocks.size()));
      EXPECT_TRUE(ok) << f.field << " changed";
    }
    const MhfuPmo& out = pmo_of(e.doc);
    ASSERT_GE(out.groups.size(), base.groups.size());
    const std::size_t added = out.groups.size() - base.groups.size();  // beyond the one taking group 0's place
    EXPECT_EQ(out.groups[0].block, block);
    EXPECT_EQ(out.blocks.size(), base.blocks.size() + added);
    EXPECT_FALSE(same_block(out.blocks[block], base.blocks[block]));
    const auto before = mhfu_group_palettes(base), after = mhfu_group_palettes(out);
    ASSERT_TRUE(before.ok() && after.ok());
    for (std::size_t g = 1; g < base.groups.size(); ++g) {
      EXPECT_TRUE(same_block(out.blocks[out.groups[g + added].block], base.blocks[base.groups[g].block])) << "group " << g;
      for (std::size_t k = 0; k < GeBonePalette::kSlots; ++k) {
        if ((*before)[g][k]) {
          EXPECT_EQ((*after)[g + added][k], (*before)[g][k]) << "group " << g << " slot " << k;
        }
      }
    }
    Sample edited{s.path, e.bytes, e.doc, s.skeleton, s.bank};
    const Scene back = lift_ok(edited);
    std::vector<std::array<float, 9>> drawn;
    for (std::size_t k = 0; k <= added; ++k) {
      const scene::Primitive& p = back.meshes[0].primitives[k];
      const auto part = test::primitive_surface(p);
      drawn.insert(drawn.end(), part.begin(), part.end());
      for (std::uint32_t v : scene::drawn_triangles(p)) {
        for (std::size_t i = 0; i < p.influences; ++i) {
          if (p.weights[v * p.influences + i] > 0) {
            EXPECT_EQ(p.joints[v * p.influences + i], other);
          }
        }
      }
    }
    std::sort(drawn.begin(), drawn.end());
    EXPECT_EQ(drawn, test::primitive_surface(q));
  }
}

}  // namespace
}  // namespace remodel
