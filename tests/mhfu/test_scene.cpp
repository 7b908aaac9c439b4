// MHFU PAC and PMO lifted into a Scene, on every sample in ../shared/samples/mhfu.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <unistd.h>

#include "model/document.hpp"
#include "model/image.hpp"
#include "model/textures.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"
#include "scene_checks.hpp"

namespace remodel {
namespace {

using scene::Scene;

using test::load_document;

using test::mhfu_sibling;

bool is_bare_pmo(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  return name.size() > 6 && name.ends_with(".0.pmo");
}

const MhfuSkeleton* skeleton_of(const Document& doc) {
  for (const PacEntry& e : std::get<Pac>(doc).entries) {
    if (const auto* s = std::get_if<MhfuSkeletonFile>(&e.content)) return &s->skeleton;
  }
  return nullptr;
}

TEST(SceneMhfu, EverySampleLiftsWellFormed) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const Document doc = load_document(path);
    const Format format = format_of(doc);
    if (format != Format::mhfu_pac && format != Format::mhfu_pmo) {
      // A skeleton or texture bank alone has nothing to show: the error says what to pass instead.
      Result<Scene> none = scene::lift(doc);
      ASSERT_FALSE(none.ok());
      EXPECT_EQ(none.error().code, ErrorCode::unsupported);
      continue;
    }
    std::optional<Document> skel, tmh;
    scene::LiftInputs inputs;
    if (format == Format::mhfu_pmo && is_bare_pmo(path)) {
      skel = load_document(mhfu_sibling(path, ".1.skel"));
      tmh = load_document(mhfu_sibling(path, ".2.tmh"));
      inputs.skeleton = &std::get<MhfuSkeletonFile>(*skel);
      inputs.textures = &std::get<TmhFile>(*tmh);
    }
    Result<Scene> s = scene::lift(doc, inputs);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    test::expect_well_formed(*s, path.string());
    const float bind = test::max_bind_error(*s);
    EXPECT_LE(bind, 1e-4f);
    const DocumentInfo info = document_info(doc);
    // Both count triangles with three different corners, one per group's block (no sample shares a block).
    EXPECT_EQ(test::triangle_count(*s), info.triangles);
    ASSERT_EQ(s->skins.size(), 1u);
    EXPECT_EQ(s->skins[0].joints.size(), format == Format::mhfu_pac ? info.joints
                                                                    : std::get<MhfuSkeletonFile>(*skel).skeleton.bones.size());
    EXPECT_EQ(s->materials.size(), info.materials);
    EXPECT_EQ(s->textures.size(), 1u);
    for (const scene::Material& m : s->materials) EXPECT_EQ(m.texture, 0);
    std::printf("%s: %zu nodes, %zu meshes, %zu primitives, %zu triangles, max |world x IBM - I| = %.3g\n",
                path.filename().c_str(), s->nodes.size(), s->meshes.size(), s->meshes[0].primitives.size(),
                test::triangle_count(*s), static_cast<double>(bind));
  }
}

// The bare PMO with its skeleton and bank lifts to the same geometry as its PAC.
TEST(SceneMhfu, BarePmoWithInputsEqualsPac) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const auto& path : files) {
    if (!is_bare_pmo(path)) continue;
    SCOPED_TRACE(path.string());
    std::filesystem::path pac_path = path;
    pac_path.replace_filename(mhfu_sibling(path, ".pac").filename());
    const Document pmo = load_document(path), skel = load_document(mhfu_sibling(path, ".1.skel")), tmh = load_document(mhfu_sibling(path, ".2.tmh")),
                   pac = load_document(pac_path);
    scene::LiftInputs inputs;
    inputs.skeleton = &std::get<MhfuSkeletonFile>(skel);
    inputs.textures = &std::get<TmhFile>(tmh);
    Result<Scene> a = scene::lift(pmo, inputs), b = scene::lift(pac);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_EQ(a->meshes.size(), b->meshes.size());
    for (std::size_t m = 0; m < a->meshes.size(); ++m) {
      ASSERT_EQ(a->meshes[m].primitives.size(), b->meshes[m].primitives.size());
      for (std::size_t p = 0; p < a->meshes[m].primitives.size(); ++p) {
        EXPECT_EQ(a->meshes[m].primitives[p].positions, b->meshes[m].primitives[p].positions);
        EXPECT_EQ(a->meshes[m].primitives[p].indices, b->meshes[m].primitives[p].indices);
        EXPECT_EQ(a->meshes[m].primitives[p].joints, b->meshes[m].primitives[p].joints);
      }
    }
    EXPECT_EQ(a->textures[0].image, b->textures[0].image);
    // Without inputs: geometry only, unskinned and untextured.
    Result<Scene> bare = scene::lift(pmo);
    ASSERT_TRUE(bare.ok());
    EXPECT_TRUE(bare->skins.empty());
    EXPECT_TRUE(bare->textures.empty());
    EXPECT_EQ(test::triangle_count(*bare), test::triangle_count(*b));
    test::expect_well_formed(*bare, "bare");
  }
}

// Every exported image equals `remodel textures extract`'s PNG pixel for pixel.
TEST(SceneMhfu, TexturesEqualExtract) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("remodel_scene_mhfu_" + std::to_string(::getpid()));
  for (const auto& path : files) {
    const Document doc = load_document(path);
    if (format_of(doc) != Format::mhfu_pac) continue;
    SCOPED_TRACE(path.string());
    std::filesystem::remove_all(dir);
    const std::string cmd = std::string(REMODEL_CLI) + " textures extract '" + path.string() + "' -o '" + dir.string() + "' >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    Result<Scene> s = scene::lift(doc);
    ASSERT_TRUE(s.ok());
    ASSERT_FALSE(s->textures.empty());
    const std::vector<TextureInfo> listed = list_textures(doc);
    for (const scene::Texture& t : s->textures) {
      const std::size_t index = t.extras.at("tmh_image").get<std::size_t>();  // one bank per sample PAC
      ASSERT_LT(index, listed.size());
      EXPECT_EQ(t.name, listed[index].name);
      const std::filesystem::path png = dir / (std::to_string(index) + "_" + listed[index].name + ".png");
      Result<RgbaImage> image = read_png(test::load_file(png));
      ASSERT_TRUE(image.ok()) << png;
      EXPECT_EQ(t.image, *image) << t.name;
      Result<RgbaImage> decoded = decode_texture(doc, index);
      ASSERT_TRUE(decoded.ok());
      EXPECT_EQ(t.image, *decoded);
    }
  }
  std::filesystem::remove_all(dir);
}

// Front faces are counter-clockwise: each triangle's winding agrees with its stored vertex normals.
TEST(SceneMhfu, WindingAgreesWithNormals) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const auto& path : files) {
    const Document doc = load_document(path);
    if (format_of(doc) != Format::mhfu_pac) continue;
    Result<Scene> s = scene::lift(doc);
    ASSERT_TRUE(s.ok());
    std::size_t agree = 0, total = 0;
    for (const scene::Mesh& m : s->meshes) {
      for (const scene::Primitive& p : m.primitives) {
        ASSERT_EQ(p.normals.size(), p.positions.size());
        for (std::size_t i = 0; i < p.indices.size(); i += 3) {
          const scene::Vec3 a = p.positions[p.indices[i]], b = p.positions[p.indices[i + 1]], c = p.positions[p.indices[i + 2]];
          const scene::Vec3 n = p.normals[p.indices[i]] + p.normals[p.indices[i + 1]] + p.normals[p.indices[i + 2]];
          agree += scene::dot(scene::cross(b - a, c - a), n) > 0;
          ++total;
        }
      }
    }
    EXPECT_GE(agree * 100, total * 99) << path << ": " << agree << " of " << total;
  }
}

// Which Euler order the skeleton uses: the world matrices under each of the six orders, against the
// lift's (X then Y then Z). Vertices are stored at bind pose in model space, so a skinned vertex lands
// where it is stored under any order whose IBMs come from the same matrices; what the data can show is
// how far the orders' world matrices (and the vertices skinned with one order's world matrices and
// the lift's IBMs) lie apart.
TEST(SceneMhfu, EulerOrderIsUndeterminedBySamples) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  const scene::EulerOrder orders[] = {scene::EulerOrder::xyz, scene::EulerOrder::xzy, scene::EulerOrder::yxz,
                                      scene::EulerOrder::yzx, scene::EulerOrder::zxy, scene::EulerOrder::zyx};
  const char* names[] = {"xyz", "xzy", "yxz", "yzx", "zxy", "zyx"};
  for (const auto& path : files) {
    const Document doc = load_document(path);
    if (format_of(doc) != Format::mhfu_pac) continue;
    Result<Scene> lifted = scene::lift(doc);
    ASSERT_TRUE(lifted.ok());
    const MhfuSkeleton* skel = skeleton_of(doc);
    ASSERT_NE(skel, nullptr);
    const scene::Skin& skin = lifted->skins[0];
    for (std::size_t o = 0; o < 6; ++o) {
      Scene s = *lifted;
      for (std::size_t j = 0; j < skel->bones.size(); ++j) {
        const auto& r = skel->bones[j].rotation;
        s.nodes[static_cast<std::size_t>(skin.joints[j])].local.rotation = scene::euler_to_quat({r[0], r[1], r[2]}, orders[o]);
      }
      const std::vector<scene::Mat4> world = scene::world_matrices(s);
      const std::vector<scene::Mat4> lift_world = scene::world_matrices(*lifted);
      float matrix_error = 0, vertex_error = 0;
      for (std::size_t j = 0; j < skin.joints.size(); ++j) {
        const auto n = static_cast<std::size_t>(skin.joints[j]);
        matrix_error = std::max(matrix_error, scene::max_abs_difference(world[n], lift_world[n]));
      }
      for (const scene::Mesh& m : s.meshes) {
        for (const scene::Primitive& p : m.primitives) {
          for (std::size_t v = 0; v < p.vertex_count(); ++v) {
            scene::Vec3 skinned{0, 0, 0};
            for (std::size_t i = 0; i < p.influences; ++i) {
              const std::size_t j = p.joints[v * p.influences + i];
              const scene::Mat4 m4 = world[static_cast<std::size_t>(skin.joints[j])] * skin.inverse_bind_matrices[j];
              skinned = skinned + scene::transform_point(m4, p.positions[v]) * p.weights[v * p.influences + i];
            }
            vertex_error = std::max(vertex_error, scene::length(skinned - p.positions[v]));
          }
        }
      }
      std::printf("%s: order %s: max |world - world(xyz)| %.3g, max skinned-vertex offset %.3g\n",
                  path.filename().c_str(), names[o], static_cast<double>(matrix_error), static_cast<double>(vertex_error));
      EXPECT_LE(vertex_error, 1e-3f);  // no order is ruled out by these samples
    }
  }
}

TEST(SceneMhfu, BadReferencesAreErrors) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const auto& path : files) {
    const Document doc = load_document(path);
    if (format_of(doc) != Format::mhfu_pac) continue;
    Pac pac = std::get<Pac>(doc);
    Pac bad_texture = pac;
    std::get<MhfuPmoFile>(bad_texture.entries[0].content).pmo.materials[0].texture = 7;
    Result<Scene> s = scene::lift(Document{bad_texture});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().field, "materials[0].texture");
    Pac bad_bone = pac;
    std::get<MhfuPmoFile>(bad_bone.entries[0].content).pmo.bone_palette[0].bone = 200;
    s = scene::lift(Document{bad_bone});
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("bone 200"), std::string::npos) << s.error().message;
    // Groups may share a block, but not multiply its vertices without bound.
    Pac shared = pac;
    auto& groups = std::get<MhfuPmoFile>(shared.entries[0].content).pmo.groups;
    groups.resize(5000, groups[0]);
    s = scene::lift(Document{shared});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().field, "groups");
    Pac cycle = pac;
    auto& bones = std::get<MhfuSkeletonFile>(cycle.entries[1].content).skeleton.bones;
    bones[0].parent = static_cast<std::int32_t>(bones.size()) - 1;
    s = scene::lift(Document{cycle});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().field, "skeleton.bones[0].parent");
  }
}

}  // namespace
}  // namespace remodel
