// MHFU PAC and bare PMO lowered over their base, on every sample in ../shared/samples/mhfu: unedited
// Scenes give the original bytes; each edit changes only the bytes it reaches; hostile Scenes fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "model/diff.hpp"
#include "model/document.hpp"
#include "model/textures.hpp"
#include "blender_like.hpp"
#include "samples.hpp"
#include "error_checks.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene_compare.hpp"
#include "mhfu/lower_samples.hpp"

namespace remodel {
namespace {

using scene::Scene;
using namespace test::mhfu;

// Byte positions where a and b differ (sizes must agree).
std::vector<std::size_t> differing(const Bytes& a, const Bytes& b) {
  std::vector<std::size_t> out;
  EXPECT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) out.push_back(i);
  }
  return out;
}

TEST(LowerMhfu, EverySampleUnchangedGivesItsBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : models(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) as_exported(scene);
      std::vector<Warning> warnings;
      Result<Bytes> out = lower_write(scene, s, &warnings);
      ASSERT_TRUE(out.ok()) << out.error().describe();
      EXPECT_TRUE(*out == s.bytes) << "pass " << pass;
      EXPECT_TRUE(warnings.empty());
    }
    // Without extras (Blender's default), names and order match the same.
    for (scene::Node& n : scene.nodes) n.extras = nullptr;
    for (scene::Mesh& m : scene.meshes) {
      for (scene::Primitive& p : m.primitives) p.extras = nullptr;
    }
    Result<Bytes> out = lower_write(scene, s);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    EXPECT_TRUE(*out == s.bytes);
  }
}

// issue 32: over a bare PMO every texture edit was dropped with exit 0 and no warning.
TEST(LowerMhfu, ABarePmosEditedTextureIsNamedAsNotStored) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  std::size_t bare = 0;
  for (const Sample& s : models(files)) {
    if (!std::holds_alternative<MhfuPmoFile>(s.doc) || !s.bank) continue;
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    ASSERT_FALSE(scene.textures.empty());
    for (std::uint8_t& v : scene.textures[0].image.rgba) v = static_cast<std::uint8_t>(255 - v);
    Result<scene::Lowered> low = scene::lower(scene, s.doc, s.lower_inputs());
    ASSERT_TRUE(low.ok()) << low.error().describe();
    Result<Bytes> out = write_document(low->document);
    ASSERT_TRUE(out.ok());
    EXPECT_TRUE(*out == s.bytes);
    const std::string name = scene.textures[0].name;
    EXPECT_TRUE(std::any_of(low->warnings.begin(), low->warnings.end(), [&](const Warning& w) {
      return w.where == "textures[0]" && is_bare_pmo_image_warning(w) && w.message.find("texture " + name + " is not stored") != std::string::npos;
    })) << name;
    ++bare;
  }
  if (bare == 0) GTEST_SKIP() << "no bare MHFU PMO with its TMH among the samples";
}

// A vertex the first primitive draws.
struct Spot {
  std::size_t mesh = 0, prim = 0;
  std::uint32_t vertex = 0;
};
Spot first_drawn(const Scene& s) {
  const scene::Primitive& p = s.meshes[0].primitives[0];
  return {0, 0, scene::drawn_triangles(p).at(0)};
}

TEST(LowerMhfu, MovedVertexChangesOnlyItsBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : models(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    as_exported(scene);
    const Spot at = first_drawn(scene);
    scene::Primitive& p = scene.meshes[at.mesh].primitives[at.prim];
    // Every vertex that is the same stored vertex moves with it (match_vertices keeps them together).
    const scene::Vec3 old = p.positions[at.vertex];
    const scene::Vec3 moved{old.x + 0.05f, old.y - 0.03f, old.z};
    for (scene::Vec3& q : p.positions) {
      if (q == old) q = moved;
    }
    if (!p.uvs.empty()) p.uvs[0][at.vertex].x += 0.125f;
    Result<Bytes> out = lower_write(scene, s);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    const std::vector<std::size_t> diff = differing(*out, s.bytes);
    EXPECT_FALSE(diff.empty());
    ASSERT_FALSE(diff.empty());
    EXPECT_LE(diff.back() - diff.front(), 64u) << "bytes outside one vertex changed";
    // Reads back, round-trips, and shows the move within the position quantisation.
    Result<Document> back = read_document(*out);
    ASSERT_TRUE(back.ok());
    Result<Bytes> again = write_document(*back);
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(*again == *out);
    Sample edited{s.path, *out, std::move(*back), s.skeleton, s.bank};
    const Scene lifted = lift_ok(edited);
    bool found = false;
    for (const scene::Vec3& q : lifted.meshes[at.mesh].primitives[at.prim].positions) {
      found = found || (std::abs(q.x - moved.x) < 1e-3f && std::abs(q.y - moved.y) < 1e-3f && std::abs(q.z - moved.z) < 1e-3f);
    }
    EXPECT_TRUE(found);
  }
}

// Every reported field's path contains `part`.
void expect_only(const std::vector<FieldDifference>& fields, const std::string& part) {
  EXPECT_FALSE(fields.empty());
  for (const FieldDifference& f : fields) EXPECT_NE(f.field.find(part), std::string::npos) << f.field << " changed";
}

TEST(LowerMhfu, ChangedWeightsWithinThePalette) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  std::size_t edited = 0;
  for (const Sample& s : pacs(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    // A drawn vertex of a group whose VTYPE stores two or more weights now weighs the palette's first
    // two bones 5:3.
    bool done = false;
    std::size_t mesh = 0, prim = 0, vertex = 0;
    for (std::size_t m = 0; m < scene.meshes.size() && !done; ++m) {
      for (std::size_t p = 0; p < scene.meshes[m].primitives.size() && !done; ++p) {
        scene::Primitive& pr = scene.meshes[m].primitives[p];
        const psp::VertexFormat f = psp::VertexFormat::parse(pr.extras["vtype"].get<std::uint32_t>());
        const int slot0 = pr.extras["palette"][0].get<int>(), slot1 = pr.extras["palette"][1].get<int>();
        if (f.weight == psp::NumFormat::none || f.weight_count < 2 || slot0 < 0 || slot1 < 0 || slot0 == slot1) continue;
        const std::uint32_t v = scene::drawn_triangles(pr).at(0);
        for (std::size_t k = 0; k < pr.influences; ++k) {
          pr.joints[v * pr.influences + k] = k == 0 ? static_cast<std::uint16_t>(slot0) : k == 1 ? static_cast<std::uint16_t>(slot1) : 0;
          pr.weights[v * pr.influences + k] = k == 0 ? 0.625f : k == 1 ? 0.375f : 0.0f;
        }
        done = true, mesh = m, prim = p, vertex = v;
      }
    }
    if (!done) continue;  // f_hair000's groups store one weight each
    ++edited;
    const scene::Primitive& pr = scene.meshes[mesh].primitives[prim];
    const Edited e = lower_diff(scene, s);
    expect_only(e.fields, "vertices");
    const Scene back = lift_ok({s.path, {}, e.doc, {}, {}});
    const scene::Primitive& bp = back.meshes[mesh].primitives[prim];
    for (std::size_t k = 0; k < 2; ++k) {
      EXPECT_EQ(bp.joints[vertex * pr.influences + k], pr.joints[vertex * pr.influences + k]);
      EXPECT_NEAR(bp.weights[vertex * pr.influences + k], pr.weights[vertex * pr.influences + k], 1.0f / 128);
    }
  }
  EXPECT_GE(edited, 1u) << "no sample PAC has a group storing two weights over two bones";
}

// One vertex moved as Blender exports it: the vertex's copies move together, and the corner of one of
// its triangles comes back as a copy of its own whose normal turned (Blender keeps custom normals per
// face corner). One stored vertex holds one normal: it takes the copies' mean, and only that vertex's
// bytes change: the strips, indices and every other vertex stay (f_hair097's group was re-stripped).
TEST(LowerMhfu, BlenderLikeMovedVertexKeepsTheStrips) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : pacs(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    as_exported(scene);
    scene::Primitive& p = scene.meshes[0].primitives[0];
    ASSERT_FALSE(p.normals.empty());
    // A vertex two triangles draw; the second one's corner becomes a copy.
    const std::uint32_t v = p.indices.at(0);
    std::size_t corner = p.indices.size();
    for (std::size_t i = 3; i < p.indices.size() && corner == p.indices.size(); ++i) corner = p.indices[i] == v ? i : corner;
    ASSERT_LT(corner, p.indices.size());
    const auto n = static_cast<std::uint32_t>(p.vertex_count());
    p.positions.push_back(p.positions[v]);
    p.normals.push_back(scene::normalize(p.normals[v] + scene::Vec3{0.25f, 0.0f, 0.0f}));
    for (auto& set : p.uvs) set.push_back(set[v]);
    if (!p.colors.empty()) p.colors.push_back(p.colors[v]);
    for (std::size_t k = 0; k < p.influences; ++k) {
      p.joints.push_back(p.joints[v * p.influences + k]);
      p.weights.push_back(p.weights[v * p.influences + k]);
    }
    p.indices[corner] = n;
    for (std::uint32_t c : {v, n}) p.positions[c] = p.positions[c] * 0.9f;  // inward: inside the stored range
    std::vector<Warning> warnings;
    Result<Bytes> out = lower_write(scene, s, &warnings);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].message.find("mean normal"), std::string::npos) << warnings[0].message;
    const std::vector<std::size_t> diff = differing(*out, s.bytes);
    ASSERT_FALSE(diff.empty());
    EXPECT_LE(diff.back() - diff.front(), 32u) << "bytes outside one vertex changed";
    const Edited e = lower_diff(scene, s);
    for (const FieldDifference& f : e.fields) EXPECT_NE(f.field.find(".vertices"), std::string::npos) << f.field << " changed";
    const Scene back = lift_ok({s.path, {}, e.doc, {}, {}});
    const scene::Primitive& q = back.meshes[0].primitives[0];
    const scene::Vec3 mean = scene::normalize(p.normals[v] + p.normals[n]);
    EXPECT_NEAR(q.positions[v].x, p.positions[v].x, 2e-3f);
    EXPECT_NEAR(q.positions[v].y, p.positions[v].y, 2e-3f);
    EXPECT_NEAR(q.normals[v].x, mean.x, 1.0f / 64);
    EXPECT_NEAR(q.normals[v].y, mean.y, 1.0f / 64);
  }
}

TEST(LowerMhfu, MovedBindPoseReencodesTheBone) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : pacs(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    ASSERT_FALSE(scene.skins.empty());
    scene::Node& bone = scene.nodes[static_cast<std::size_t>(scene.skins[0].joints.back())];
    bone.local.translation.y += 1.5f;
    bone.local.rotation = scene::euler_to_quat({0.1f, -0.2f, 0.3f}, scene::EulerOrder::xyz);
    const Edited e = lower_diff(scene, s);
    expect_only(e.fields, "bones[" + std::to_string(scene.skins[0].joints.size() - 1) + "]");
    const Scene back = lift_ok({s.path, {}, e.doc, {}, {}});
    const scene::Node& moved = back.nodes[static_cast<std::size_t>(back.skins[0].joints.back())];
    EXPECT_EQ(moved.local.translation, bone.local.translation);
    const scene::Vec3 angles = scene::euler_xyz_of(moved.local.rotation);
    EXPECT_NEAR(angles.x, 0.1f, 1e-5f);
    EXPECT_NEAR(angles.y, -0.2f, 1e-5f);
    EXPECT_NEAR(angles.z, 0.3f, 1e-5f);
  }
}

// Blender's round trip made in code (tests/blender_like.hpp): extras gone, every bone turned in its
// local transform and inverse bind with Blender's float noise. The stored bone records stand.
TEST(LowerMhfu, BlenderLikeBoneTurnsGiveTheSameBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : models(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    ASSERT_FALSE(scene.skins.empty());
    as_exported(scene);
    test::strip_extras_like_blender(scene);
    test::turn_bones_like_blender(scene);
    Result<Bytes> out = lower_write(scene, s);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    EXPECT_TRUE(*out == s.bytes);
  }
}

// Blender merges groups of one material into one primitive (f_hair097's two material3 groups) and
// splits every corner with its own normal noise: the groups are split back, the noise is below the
// stored step, the bytes are the original's.
TEST(LowerMhfu, BlenderLikeMergedPrimitivesGiveTheSameBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  bool merged_any = false;
  for (const Sample& s : models(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    std::size_t before = 0, after = 0;
    for (const scene::Mesh& m : scene.meshes) before += m.primitives.size();
    test::strip_extras_like_blender(scene);
    test::merge_primitives_like_blender(scene);
    for (const scene::Mesh& m : scene.meshes) after += m.primitives.size();
    merged_any = merged_any || after < before;
    std::vector<Warning> warnings;
    Result<Bytes> out = lower_write(scene, s, &warnings);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    EXPECT_TRUE(*out == s.bytes);
    EXPECT_EQ(warnings.empty(), after == before);  // the split back is said
  }
  EXPECT_TRUE(merged_any) << "no sample has two groups of one material";
}

// A bone moved before Blender's turns: only its record changes, to the moved translation.
TEST(LowerMhfu, BlenderLikeMovedBoneChangesOnlyItsRecord) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : pacs(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    ASSERT_FALSE(scene.skins.empty());
    ASSERT_FALSE(scene.skins[0].joints.empty());
    const std::size_t last = scene.skins[0].joints.size() - 1;
    scene::Node& bone = scene.nodes[static_cast<std::size_t>(scene.skins[0].joints[last])];
    const scene::Vec3 want = bone.local.translation + scene::Vec3{0, 1.5f, 0};
    bone.local.translation = want;
    test::strip_extras_like_blender(scene);
    test::turn_bones_like_blender(scene);
    const Edited e = lower_diff(scene, s);
    expect_only(e.fields, "bones[" + std::to_string(last) + "].position");
    const Scene back = lift_ok({s.path, {}, e.doc, {}, {}});
    const scene::Node& moved = back.nodes[static_cast<std::size_t>(back.skins[0].joints[last])];
    EXPECT_LE(scene::length(moved.local.translation - want), 0.01f);  // within the noise added
  }
}

TEST(LowerMhfu, ReplacedTextureAndMaterialColour) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : pacs(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    ASSERT_FALSE(scene.textures.empty());
    RgbaImage& image = scene.textures[0].image;
    for (std::size_t p = 0; p < image.rgba.size(); p += 4) {
      for (std::size_t c = 0; c < 3; ++c) image.rgba[p + c] = static_cast<std::uint8_t>(255 - image.rgba[p + c]);
    }
    const Edited e = lower_diff(scene, s);
    expect_only(e.fields, "tmh");
    const Scene back = lift_ok({s.path, {}, e.doc, {}, {}});
    EXPECT_FALSE(back.textures[0].image == lift_ok(s).textures[0].image);
    EXPECT_EQ(back.textures[0].image.width, image.width);

    scene = lift_ok(s);
    scene.materials[0].base_color.y = 0.5f;
    const Edited c = lower_diff(scene, s);
    expect_only(c.fields, "materials[0]");
    EXPECT_NEAR(lift_ok({s.path, {}, c.doc, {}, {}}).materials[0].base_color.y, 0.5f, 1.0f / 255);
  }
}

// A vertex weighing one bone more than its VTYPE stores (issue 30: the weaker one used to be dropped
// in silence): the group is rebuilt in new groups whose VTYPE stores every weight, with a warning.
TEST(LowerMhfu, WeightsBeyondTheVtypeRebuildTheGroupWider) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  std::size_t edited = 0;
  for (const Sample& s : pacs(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    scene::Vec3 moved{};
    int bone = -1;
    for (scene::Mesh& mesh : scene.meshes) {
      for (scene::Primitive& pr : mesh.primitives) {
        const psp::VertexFormat f = psp::VertexFormat::parse(pr.extras["vtype"].get<std::uint32_t>());
        const std::size_t n = f.weight == psp::NumFormat::none ? 1 : f.weight_count;
        const int held = pr.extras["palette"][0].get<int>();
        if (edited > 0 || held < 0) continue;
        if (pr.influences < n + 1) {  // four more influences per vertex, zero
          std::vector<std::uint16_t> joints;
          std::vector<float> weights;
          for (std::size_t v = 0; v < pr.vertex_count(); ++v) {
            for (std::size_t k = 0; k < pr.influences + 4; ++k) {
              joints.push_back(k < pr.influences ? pr.joints[v * pr.influences + k] : 0);
              weights.push_back(k < pr.influences ? pr.weights[v * pr.influences + k] : 0.0f);
            }
          }
          pr.influences += 4;
          pr.joints = std::move(joints);
          pr.weights = std::move(weights);
        }
        int outside = 0;
        for (const auto& slot : pr.extras["palette"]) outside = std::max(outside, slot.get<int>() + 1);
        if (static_cast<std::size_t>(outside) >= scene.skins[0].joints.size()) outside = 0;
        while (std::find_if(pr.extras["palette"].begin(), pr.extras["palette"].end(), [&](const auto& e) { return e.template get<int>() == outside; }) !=
               pr.extras["palette"].end()) {
          ++outside;
        }
        if (static_cast<std::size_t>(outside) >= scene.skins[0].joints.size()) continue;
        const std::uint32_t v = scene::drawn_triangles(pr).at(0);
        moved = pr.positions[v];
        bone = outside;
        std::uint16_t* j = &pr.joints[v * pr.influences];
        float* w = &pr.weights[v * pr.influences];
        // Stored weights as lifted, then one weaker joint outside the palette.
        float sum = 0;
        for (std::size_t k = 0; k < n; ++k) sum += w[k];
        for (std::size_t k = 0; k < n; ++k) w[k] *= 0.9f / sum;
        j[n] = static_cast<std::uint16_t>(outside);
        w[n] = 0.1f * 0.5f;
        w[0] += 0.05f;
        ++edited;
      }
    }
    if (edited == 0) continue;
    std::vector<Warning> warnings;
    Result<Bytes> out = lower_write(scene, s, &warnings);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].message.find("the group is replaced"), std::string::npos) << warnings[0].message;
    // The vertex weighs the added bone in the file: 0.05 of its weight, within a u8 step.
    Result<Document> back = read_document(*out);
    ASSERT_TRUE(back.ok());
    const Scene lifted = lift_ok({s.path, {}, *back, {}, {}});
    std::size_t found = 0;
    for (const scene::Primitive& pr : lifted.meshes[0].primitives) {
      for (std::size_t i = 0; i < pr.vertex_count(); ++i) {
        if (scene::length(pr.positions[i] - moved) > 1e-3f) continue;
        float w = 0;
        for (std::size_t k = 0; k < pr.influences; ++k) w += pr.joints[i * pr.influences + k] == bone ? pr.weights[i * pr.influences + k] : 0.0f;
        EXPECT_NEAR(w, 0.05f, 1.0f / 128);
        ++found;
      }
    }
    EXPECT_GT(found, 0u);
    break;
  }
  EXPECT_GE(edited, 1u);
}

// A triangle removed and one corner's triangle flipped: the group's block is re-stripped and draws
// exactly the incoming triangles; other groups keep their bytes.
TEST(LowerMhfu, ChangedTopologyRestripsTheGroup) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : models(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    as_exported(scene);
    scene::Primitive& p = scene.meshes[0].primitives[0];
    ASSERT_GE(p.indices.size(), 6u);
    p.indices.resize(p.indices.size() - 3);
    std::swap(p.indices[1], p.indices[2]);
    Result<Bytes> out = lower_write(scene, s);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    Result<Document> back = read_document(*out);
    ASSERT_TRUE(back.ok());
    Result<Bytes> again = write_document(*back);
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(*again == *out);
    Sample edited{s.path, *out, std::move(*back), s.skeleton, s.bank};
    const Scene lifted = lift_ok(edited);
    EXPECT_EQ(test::primitive_surface(lifted.meshes[0].primitives[0]), test::primitive_surface(p));
    for (std::size_t k = 1; k < scene.meshes[0].primitives.size(); ++k) {
      EXPECT_EQ(lifted.meshes[0].primitives[k].positions, lift_ok(s).meshes[0].primitives[k].positions);
    }
    std::vector<FieldDifference> fields;
    diff_documents(s.doc, edited.doc, fields);
    for (const FieldDifference& f : fields) EXPECT_NE(f.field.find("blocks[0]"), std::string::npos) << f.field;
  }
}

// A drawn vertex of a group now weighs only a bone its palette does not hold: the group keeps its
// palette and the triangles that still fit it; the others go to new groups after it whose palettes
// hold their bones. Every base group still draws with its base palette and keeps its block, but for
// the edited one; the new vertex reads back on the new bone.
TEST(LowerMhfu, WeightsOutsideThePaletteAddGroups) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  std::size_t edited = 0;
  for (const Sample& s : pacs(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    as_exported(scene);
    // The first primitive of four triangles or more, and the lowest bone outside its weighed slots.
    std::size_t mesh = 0, prim = 0;
    int outside = -1;
    for (std::size_t m = 0; m < scene.meshes.size() && outside < 0; ++m) {
      for (std::size_t p = 0; p < scene.meshes[m].primitives.size() && outside < 0; ++p) {
        const scene::Primitive& pr = scene.meshes[m].primitives[p];
        const psp::VertexFormat f = psp::VertexFormat::parse(pr.extras["vtype"].get<std::uint32_t>());
        const std::size_t slots = f.weight == psp::NumFormat::none ? 1 : f.weight_count;
        if (pr.influences == 0 || scene::drawn_triangles(pr).size() < 12) continue;
        for (int b = 0; b < static_cast<int>(scene.skins[0].joints.size()) && outside < 0; ++b) {
          bool held = false;
          for (std::size_t k = 0; k < slots; ++k) held = held || pr.extras["palette"][k].get<int>() == b;
          if (!held) outside = b, mesh = m, prim = p;
        }
      }
    }
    ASSERT_GE(outside, 0);
    scene::Primitive& pr = scene.meshes[mesh].primitives[prim];
    const std::uint32_t v = scene::drawn_triangles(pr).at(0);
    for (std::size_t k = 0; k < pr.influences; ++k) {
      pr.joints[v * pr.influences + k] = k == 0 ? static_cast<std::uint16_t>(outside) : 0;
      pr.weights[v * pr.influences + k] = k == 0 ? 1.0f : 0.0f;
    }
    ++edited;
    const std::size_t group = pr.extras["group"].get<std::size_t>();
    const MhfuPmo& base = std::get<MhfuPmoFile>(std::get<Pac>(s.doc).entries[0].content).pmo;
    const std::uint32_t block = base.groups[group].block;

    std::vector<Warning> warnings;
    const Edited e = lower_diff(scene, s, &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].message.find("outside group " + std::to_string(group) + "'s GE palette: drawn by"), std::string::npos) << warnings[0].message;
    const MhfuPmo& out = std::get<MhfuPmoFile>(std::get<Pac>(e.doc).entries[0].content).pmo;
    ASSERT_GT(out.groups.size(), base.groups.size());
    const std::size_t added = out.groups.size() - base.groups.size();
    EXPECT_EQ(out.blocks.size(), base.blocks.size() + added);
    // Nothing changed but the tables around the groups, the edited group's block and the new blocks.
    for (const FieldDifference& f : e.fields) {
      const bool ok = f.field.find(".groups") != std::string::npos || f.field.find(".bone_palette") != std::string::npos ||
                      f.field.find(".meshes[") != std::string::npos || f.field.find(".blocks[" + std::to_string(block) + "]") != std::string::npos ||
                      f.field.find(".blocks[" + std::to_string(base.blocks.size())) != std::string::npos;
      EXPECT_TRUE(ok) << f.field << " changed";
    }
    // Every base group draws with its own palette and block; the new ones follow the edited group.
    const auto before = mhfu_group_palettes(base), after = mhfu_group_palettes(out);
    ASSERT_TRUE(before.ok() && after.ok());
    for (std::size_t g = 0; g < base.groups.size(); ++g) {
      const std::size_t at = g <= group ? g : g + added;
      for (std::size_t k = 0; k < GeBonePalette::kSlots; ++k) {
        if ((*before)[g][k]) {
          EXPECT_EQ((*after)[at][k], (*before)[g][k]) << "group " << g << " slot " << k;
        }
      }
      EXPECT_EQ(out.groups[at].block, base.groups[g].block);
      EXPECT_EQ(out.groups[at].material_offset, base.groups[g].material_offset);
    }
    // The mesh draws the same surface, and the edited vertex is on the new bone.
    const Scene back = lift_ok({s.path, {}, e.doc, {}, {}});
    ASSERT_EQ(back.meshes[mesh].primitives.size(), scene.meshes[mesh].primitives.size() + added);
    std::vector<std::array<float, 9>> drawn, expected = test::primitive_surface(pr);
    for (std::size_t k = prim; k <= prim + added; ++k) {
      const auto part = test::primitive_surface(back.meshes[mesh].primitives[k]);
      drawn.insert(drawn.end(), part.begin(), part.end());
    }
    std::sort(drawn.begin(), drawn.end());
    EXPECT_EQ(drawn, expected);
    bool moved = false;
    for (std::size_t k = prim + 1; k <= prim + added; ++k) {
      const scene::Primitive& q = back.meshes[mesh].primitives[k];
      for (std::size_t i = 0; i < q.vertex_count(); ++i) {
        if (std::abs(q.positions[i].x - pr.positions[v].x) > 1e-3f || std::abs(q.positions[i].y - pr.positions[v].y) > 1e-3f ||
            std::abs(q.positions[i].z - pr.positions[v].z) > 1e-3f) {
          continue;
        }
        for (std::size_t k2 = 0; k2 < q.influences; ++k2) {
          moved = moved || (q.joints[i * q.influences + k2] == outside && q.weights[i * q.influences + k2] > 0.99f);
        }
      }
    }
    EXPECT_TRUE(moved);
  }
  EXPECT_GE(edited, 1u);
}

// A primitive removed (named by the others' group extras) and one added (a copy of the first, no group
// extra): the removed group and its block go, the new one follows the mesh's last group with the
// palette it needs, and every other group draws its own block, bytes unchanged, with its palette;
// the skeleton, materials and textures are untouched.
TEST(LowerMhfu, AddedAndRemovedGroups) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : pacs(files)) {
    SCOPED_TRACE(s.path.string());
    const Scene lifted = lift_ok(s);
    const MhfuPmo& base = pac_pmo(s.doc);
    const auto base_palettes = mhfu_group_palettes(base);
    ASSERT_TRUE(base_palettes.ok());
    const std::size_t groups = lifted.meshes[0].primitives.size();
    ASSERT_GE(groups, 2u);
    for (int edit = 0; edit < 2; ++edit) {
      SCOPED_TRACE(edit == 0 ? "removed" : "added");
      Scene scene = lifted;
      std::vector<scene::Primitive>& prims = scene.meshes[0].primitives;
      if (edit == 0) {
        prims.erase(prims.begin());
      } else {
        prims.push_back(prims[0]);
        prims.back().extras = scene::Extras::object();
      }
      std::vector<Warning> warnings;
      const Edited e = lower_diff(scene, s, &warnings);
      EXPECT_EQ(warnings.size(), std::size_t(edit));
      for (const FieldDifference& f : e.fields) {
        for (const char* kept : {"skeleton", "tmh", "materials", "remap", "scale"}) EXPECT_EQ(f.field.find(kept), std::string::npos) << f.field;
      }
      const MhfuPmo& out = pac_pmo(e.doc);
      const auto palettes = mhfu_group_palettes(out);
      ASSERT_TRUE(palettes.ok());
      const std::vector<const MhfuBlock*> before = drawn_blocks(base), after = drawn_blocks(out);
      // Base group g is now group at(g); the added ones follow mesh 0's last group.
      const std::size_t added = out.groups.size() + (edit == 0 ? 1 : 0) - base.groups.size();
      EXPECT_EQ(added, std::size_t(edit == 0 ? 0 : 1));
      const auto at = [&](std::size_t g) { return edit == 0 ? g - 1 : g < groups ? g : g + added; };
      for (std::size_t g = edit == 0 ? 1 : 0; g < base.groups.size(); ++g) {
        EXPECT_TRUE(same_block(*after[at(g)], *before[g])) << "group " << g;
        EXPECT_EQ(out.groups[at(g)].material_offset, base.groups[g].material_offset);
        for (std::size_t k = 0; k < GeBonePalette::kSlots; ++k) {
          if ((*base_palettes)[g][k]) {
            EXPECT_EQ((*palettes)[at(g)][k], (*base_palettes)[g][k]) << "group " << g << " slot " << k;
          }
        }
      }
      EXPECT_EQ(out.blocks.size(), base.blocks.size() + added - (edit == 0 ? 1 : 0));
      const Scene back = lift_ok({s.path, {}, e.doc, {}, {}});
      ASSERT_EQ(back.meshes[0].primitives.size(), prims.size());
      if (edit == 1) {
        EXPECT_EQ(test::primitive_surface(back.meshes[0].primitives.back()), test::primitive_surface(prims.back()));
      }
    }
  }
}

// MHFU stores no joint names: a renamed joint changes no byte, and matching says it fell back to
// order. Materials match by name only (issue 30): a renamed one is a new material, and the base's
// it replaced, drawn no more, leaves the table.
TEST(LowerMhfu, RenamedJointChangesNothingRenamedMaterialIsNew) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : pacs(files)) {
    SCOPED_TRACE(s.path.string());
    Scene scene = lift_ok(s);
    for (scene::Node& n : scene.nodes) {
      n.extras = nullptr;
      if (n.name == "bone0") n.name = "root";
    }
    std::vector<Warning> warnings;
    Result<Bytes> out = lower_write(scene, s, &warnings);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    EXPECT_TRUE(*out == s.bytes);
    EXPECT_EQ(warnings.size(), 1u);

    scene.materials[0].name = "skin";
    const Edited renamed = lower_diff(scene, s, &warnings);
    ASSERT_FALSE(renamed.bytes.empty());
    const MhfuPmo& before = pac_pmo(s.doc);
    const MhfuPmo& after = pac_pmo(renamed.doc);
    ASSERT_EQ(after.materials.size(), before.materials.size());
    EXPECT_TRUE(after.materials.back().color == before.materials[0].color && after.materials.back().texture == before.materials[0].texture);
    const auto said = [&](const std::string& part) {
      return std::any_of(warnings.begin(), warnings.end(), [&](const Warning& w) { return w.message.find(part) != std::string::npos; });
    };
    EXPECT_TRUE(said("material skin is not the base's"));
    EXPECT_TRUE(said("material material0 is drawn no more: removed"));
  }
}

TEST(LowerMhfu, HostileScenesAreClearErrors) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const Sample& s : models(files)) {
    SCOPED_TRACE(s.path.string());
    const Scene base = lift_ok(s);
    const auto expect_error = [&](const Scene& scene, ErrorCode code, const std::string& field_part) {
      Result<scene::Lowered> low = scene::lower(scene, s.doc, s.lower_inputs());
      ASSERT_FALSE(low.ok()) << field_part;
      EXPECT_EQ(low.error().code, code) << low.error().describe();
      EXPECT_NE(low.error().field.find(field_part), std::string::npos) << low.error().describe();
      test::expect_no_file_position(low.error());
    };
    Scene e = base;
    scene::Primitive& p = e.meshes[0].primitives[0];
    const std::uint32_t v = scene::drawn_triangles(p).at(0);
    p.positions[v].y = std::numeric_limits<float>::quiet_NaN();
    expect_error(e, ErrorCode::bad_value, "positions");
    e = base;
    e.meshes[0].primitives[0].joints[std::size_t{v} * e.meshes[0].primitives[0].influences] = 999;
    expect_error(e, ErrorCode::bad_value, "joints");
    e = base;
    e.meshes[0].primitives[0].uvs.at(0).pop_back();
    expect_error(e, ErrorCode::bad_value, "uvs");
    e = base;
    e.meshes[0].primitives[0].indices = {0, 0, 0};  // draws nothing: a group cannot be removed
    expect_error(e, ErrorCode::unsupported, "primitives[0]");
    e = base;  // two materials with a base material's name: which stands for it cannot be told
    e.materials.push_back(e.materials[0]);
    expect_error(e, ErrorCode::unsupported, "materials");
    e = base;
    e.meshes[0].primitives[0].positions[v].x = 1e9f;
    expect_error(e, ErrorCode::unsupported, "positions");
  }
}

}  // namespace
}  // namespace remodel
