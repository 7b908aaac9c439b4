// MHFU lowers over a base whose structure the edit changes (issue 15): a group handing its place to new
// groups, primitives drawing materials their mesh did not, meshes added and removed. On every sample
// in ../shared/samples/mhfu: the output reads back and round-trips, shows the edit, and diff_documents
// reports nothing outside it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "mhfu/lower_samples.hpp"
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

// The field is an element of `table` (e.g. ".groups") at index n or past it: one the edit added.
bool added_entry(const std::string& field, const std::string& table, std::size_t n) {
  const std::size_t at = field.find(table + "[");
  return at != std::string::npos && std::stoul(field.substr(at + table.size() + 1)) >= n;
}

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
    std::vector<Warning> warnings;
    const Edited e = lower_diff(scene, s, &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(contains(warnings[0].message, "every triangle of group 0 weighs a bone outside its GE palette: the group is replaced")) << warnings[0].message;
    for (const FieldDifference& f : e.fields) {
      const bool ok = contains(f.field, ".groups") || contains(f.field, ".bone_palette") || contains(f.field, ".meshes[") ||
                      contains(f.field, ".blocks[" + std::to_string(block) + "]") || added_entry(f.field, ".blocks", base.blocks.size());
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

// A 16x16 image of four opaque colours a 5551 palette holds exactly.
RgbaImage four_colour_checker() {
  RgbaImage image(16, 16);
  const Rgba colours[4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}};
  for (std::uint32_t y = 0; y < 16; ++y) {
    for (std::uint32_t x = 0; x < 16; ++x) std::copy_n(colours[(x / 4 + y / 4) % 4].begin(), 4, image.at(x, y));
  }
  return image;
}

// A copy of mesh 0's first primitive (no group extras: a new one) drawing a material the base does not
// have, textured with a new image, or with an image the base's TMH holds: the material is added at the
// end of the PMO's table and of mesh 0's remap run, the image (when new) at the end of the TMH; the
// new primitive reads back with that colour and image; nothing else changes.
TEST(LowerMhfuMeshes, AddedPrimitiveDrawsANewMaterial) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : pacs(files)) {
    for (const bool new_image : {true, false}) {
      SCOPED_TRACE(s.path.string() + (new_image ? ": new image" : ": the base's image"));
      Scene scene = lift_ok(s);
      as_exported(scene);
      const MhfuPmo& base = pac_pmo(s.doc);
      const std::size_t base_images = std::get<TmhFile>(std::get<Pac>(s.doc).entries[2].content).tmh.images.size();
      int textured = -1;  // a base material with a texture
      for (std::size_t m = 0; m < scene.materials.size() && textured < 0; ++m) textured = scene.materials[m].texture >= 0 ? static_cast<int>(m) : -1;
      ASSERT_GE(textured, 0);
      scene::Material added = scene.materials[static_cast<std::size_t>(textured)];
      added.name = "added";
      added.base_color = {0.5f, 0.25f, 1.0f, 1.0f};
      added.extras = nullptr;
      if (new_image) {
        scene::Texture t;
        t.name = "checker";
        t.image = four_colour_checker();
        scene.textures.push_back(t);
        added.texture = static_cast<int>(scene.textures.size()) - 1;
      } else {
        scene.textures[static_cast<std::size_t>(added.texture)].extras = nullptr;  // found by its pixels
      }
      scene.materials.push_back(added);
      scene::Primitive p = scene.meshes[0].primitives[0];
      p.extras = scene::Extras::object();
      p.material = static_cast<int>(scene.materials.size()) - 1;
      scene.meshes[0].primitives.push_back(p);

      std::vector<Warning> warnings;
      const Edited e = lower_diff(scene, s, &warnings);
      const MhfuPmo& out = pac_pmo(e.doc);
      const std::size_t material = base.materials.size();
      ASSERT_EQ(out.materials.size(), material + 1);
      EXPECT_EQ(out.materials[material].color, 0xFFFF4080u);
      EXPECT_EQ(out.materials[material].shadow, base.materials[0].shadow);
      ASSERT_EQ(out.remap.size(), base.remap.size() + 1);
      EXPECT_EQ(out.remap.back(), material);
      EXPECT_EQ(out.meshes[0].material_count, base.meshes[0].material_count + 1u);
      EXPECT_EQ(out.groups.back().material_offset, base.meshes[0].material_count);
      const Tmh& tmh = std::get<TmhFile>(std::get<Pac>(e.doc).entries[2].content).tmh;
      EXPECT_EQ(tmh.images.size(), base_images + (new_image ? 1 : 0));
      EXPECT_EQ(out.materials[material].texture, new_image ? base_images : base.materials[static_cast<std::size_t>(textured)].texture);
      std::size_t said = 0;
      for (const auto& w : warnings) {
        for (const char* part : {"added as PMO material", "added to the TMH", "run of the remap table"}) said += contains(w.message, part) ? 1 : 0;
      }
      EXPECT_EQ(said, new_image ? 3u : 2u);
      for (const FieldDifference& f : e.fields) {
        const bool ok = contains(f.field, ".materials[" + std::to_string(material) + "]") || contains(f.field, ".remap") ||
                        contains(f.field, ".meshes[0]") || added_entry(f.field, ".groups", base.groups.size()) ||
                        added_entry(f.field, ".bone_palette", base.bone_palette.size()) ||
                        added_entry(f.field, ".blocks", base.blocks.size()) ||
                        (new_image && contains(f.field, "tmh.images[" + std::to_string(base_images) + "]"));
        EXPECT_TRUE(ok) << f.field << " changed";
      }
      const Scene back = lift_ok({s.path, e.bytes, e.doc, {}, {}});
      ASSERT_EQ(back.meshes[0].primitives.size(), scene.meshes[0].primitives.size());
      const scene::Primitive& q = back.meshes[0].primitives.back();
      EXPECT_EQ(test::primitive_surface(q), test::primitive_surface(p));
      ASSERT_GE(q.material, 0);
      const scene::Material& m = back.materials[static_cast<std::size_t>(q.material)];
      EXPECT_NEAR(m.base_color.x, 0.5f, 1.0f / 255);
      EXPECT_NEAR(m.base_color.y, 0.25f, 1.0f / 255);
      ASSERT_GE(m.texture, 0);
      EXPECT_TRUE(back.textures[static_cast<std::size_t>(m.texture)].image == scene.textures[static_cast<std::size_t>(added.texture)].image);
    }
  }
}

// Every triangle a mesh's primitives draw, as one sorted surface.
std::vector<std::array<float, 9>> mesh_surface(const scene::Mesh& m) {
  std::vector<std::array<float, 9>> out;
  for (const scene::Primitive& p : m.primitives) {
    const auto part = test::primitive_surface(p);
    out.insert(out.end(), part.begin(), part.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A copy of mesh 0 under a new name, drawn by a node of its own: a PMO mesh record after the base's,
// its groups after the PMO's, its remap run after the table's; every base record, group, palette
// entry and block is unchanged, and it reads back as a second mesh drawing the same surface. Leaving
// its node out again over that output removes it: the original bytes come back.
TEST(LowerMhfuMeshes, AddedMeshAndRemovedAgain) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : pacs(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    as_exported(scene);
    const MhfuPmo& base = pac_pmo(s.doc);
    scene::Mesh copy = scene.meshes[0];
    copy.name = "added";
    copy.extras = nullptr;
    for (scene::Primitive& p : copy.primitives) p.extras = nullptr;
    scene.meshes.push_back(copy);
    scene::Node node;
    node.name = "added";
    node.mesh = static_cast<int>(scene.meshes.size()) - 1;
    node.skin = 0;
    scene.add_node(node);

    std::vector<Warning> warnings;
    const Edited e = lower_diff(scene, s, &warnings);
    std::size_t said = 0;
    for (const auto& w : warnings) said += contains(w.message, "mesh added is none of the base's: added as PMO mesh 1") ? 1 : 0;
    EXPECT_EQ(said, 1u);
    const MhfuPmo& out = pac_pmo(e.doc);
    ASSERT_EQ(out.meshes.size(), base.meshes.size() + 1);
    const MhfuMesh& added = out.meshes.back();
    EXPECT_EQ(added.group_start, base.groups.size());
    EXPECT_EQ(added.group_start + std::size_t{added.group_count}, out.groups.size());
    EXPECT_EQ(added.material_start, base.remap.size());
    EXPECT_EQ(added.material_start + std::size_t{added.material_count}, out.remap.size());
    for (const FieldDifference& f : e.fields) {
      const bool ok = contains(f.field, ".meshes[1]") || added_entry(f.field, ".groups", base.groups.size()) ||
                      contains(f.field, ".remap") || added_entry(f.field, ".bone_palette", base.bone_palette.size()) ||
                      added_entry(f.field, ".blocks", base.blocks.size());
      EXPECT_TRUE(ok) << f.field << " changed";
    }
    EXPECT_TRUE(std::equal(base.remap.begin(), base.remap.end(), out.remap.begin()));
    const Sample with{s.path, e.bytes, e.doc, {}, {}};
    Scene back = lift_ok(with);
    ASSERT_EQ(back.meshes.size(), 2u);
    EXPECT_EQ(mesh_surface(back.meshes[1]), mesh_surface(scene.meshes[0]));
    std::vector<int> drawn;  // the new mesh draws the base mesh's materials
    for (const scene::Primitive& p : back.meshes[0].primitives) drawn.push_back(p.material);
    for (const scene::Primitive& p : back.meshes[1].primitives) EXPECT_NE(std::find(drawn.begin(), drawn.end(), p.material), drawn.end());

    // The added mesh's node left out over the output: the original comes back byte for byte.
    for (scene::Node& n : back.nodes) {
      if (n.mesh == 1) n.mesh = -1;
    }
    warnings.clear();
    const Edited again = lower_diff(back, with, &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(contains(warnings[0].message, "no node draws a mesh named pmo_mesh1")) << warnings[0].message;
    EXPECT_TRUE(again.bytes == s.bytes);
  }
}

// What cannot be lowered is an error naming the limit and the mesh: every mesh removed, a new mesh
// without weights, a new texture over a bare PMO (its TMH is not part of it).
TEST(LowerMhfuMeshes, RefusedMeshEditsAreClearErrors) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : models(files)) {
    SCOPED_TRACE(s.path.string());
    const Scene base = lift_ok(s);
    const auto expect_error = [&](const Scene& scene, const std::string& field_part, const std::string& message_part) {
      Result<scene::Lowered> low = scene::lower(scene, s.doc, s.lower_inputs());
      ASSERT_FALSE(low.ok()) << field_part;
      EXPECT_EQ(low.error().code, ErrorCode::unsupported) << low.error().describe();
      EXPECT_TRUE(contains(low.error().field, field_part)) << low.error().describe();
      EXPECT_TRUE(contains(low.error().message, message_part)) << low.error().describe();
    };
    Scene e = base;
    for (scene::Node& n : e.nodes) n.mesh = -1;
    expect_error(e, "meshes", "every mesh of the PMO is removed");
    e = base;
    scene::Mesh copy = e.meshes[0];
    copy.name = "added";
    for (scene::Primitive& p : copy.primitives) p.influences = 0, p.joints.clear(), p.weights.clear();
    e.meshes.push_back(copy);
    scene::Node node;
    node.name = "added";
    node.mesh = static_cast<int>(e.meshes.size()) - 1;
    e.add_node(node);
    expect_error(e, "meshes[1].primitives[0]", "weighs no joint");
    if (format_of(s.doc) == Format::mhfu_pmo) {
      e = base;
      scene::Texture t;
      t.name = "checker";
      t.image = four_colour_checker();
      e.textures.push_back(t);
      scene::Material m;
      m.name = "added";
      m.texture = static_cast<int>(e.textures.size()) - 1;
      e.materials.push_back(m);
      scene::Primitive p = e.meshes[0].primitives[0];
      p.extras = scene::Extras::object();
      p.material = static_cast<int>(e.materials.size()) - 1;
      e.meshes[0].primitives.push_back(p);
      expect_error(e, "textures[", "a bare PMO holds no textures");
    }
  }
}

// A primitive standing for a base group now draws another of the base's materials: only the group's
// material offset changes, and it reads back with that material.
TEST(LowerMhfuMeshes, PrimitiveDrawingAnotherMaterialChangesItsGroupsOffset) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : models(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    scene::Primitive& p = scene.meshes[0].primitives[0];
    const int other = p.material == 0 ? 1 : 0;
    ASSERT_LT(static_cast<std::size_t>(other), scene.materials.size());
    p.material = other;
    const Edited e = lower_diff(scene, s);
    ASSERT_EQ(e.fields.size(), 1u);
    EXPECT_TRUE(contains(e.fields[0].field, ".groups[0].material_offset")) << e.fields[0].field;
    Sample edited{s.path, e.bytes, e.doc, s.skeleton, s.bank};
    EXPECT_EQ(lift_ok(edited).meshes[0].primitives[0].material, other);
  }
}

}  // namespace
}  // namespace remodel
