// MHFU PAC and bare PMO lowered over their base, on every sample in ../shared/samples/mhfu: unedited
// Scenes give the original bytes; each edit changes only the bytes it reaches; hostile Scenes fail.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "model/document.hpp"
#include "model/textures.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"

namespace remodel {
namespace {

using scene::Scene;

Document load(const std::filesystem::path& path) {
  Result<Document> doc = read_document(test::load_file(path));
  EXPECT_TRUE(doc.ok()) << path << ": " << (doc.ok() ? "" : doc.error().describe());
  return doc.ok() ? std::move(doc.value()) : Document{};
}

std::filesystem::path sibling(const std::filesystem::path& pmo, const char* suffix) {
  std::string stem = pmo.filename().string();
  stem = stem.substr(0, stem.size() - std::string(".0.pmo").size());
  return pmo.parent_path() / (stem + suffix);
}

// A model with what it needs to lift and lower: a PAC alone, a bare PMO with its skeleton and bank.
struct Sample {
  std::filesystem::path path;
  Bytes bytes;
  Document doc;
  std::optional<Document> skeleton, bank;
  scene::LiftInputs lift_inputs() const {
    scene::LiftInputs in;
    if (skeleton) in.skeleton = &std::get<MhfuSkeletonFile>(*skeleton);
    if (bank) in.textures = &std::get<TmhFile>(*bank);
    return in;
  }
  scene::LowerInputs lower_inputs() const {
    scene::LowerInputs in;
    if (skeleton) in.skeleton = &*skeleton;
    return in;
  }
};

std::vector<Sample> models(const std::vector<std::filesystem::path>& files) {
  std::vector<Sample> out;
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    const bool pac = name.ends_with(".pac"), pmo = name.ends_with(".0.pmo");
    if (!pac && !pmo) continue;
    Sample s{path, test::load_file(path), load(path), {}, {}};
    if (pmo) {
      s.skeleton = load(sibling(path, ".1.skel"));
      s.bank = load(sibling(path, ".2.tmh"));
    }
    out.push_back(std::move(s));
  }
  return out;
}

Scene lift_ok(const Sample& s) {
  Result<Scene> scene = scene::lift(s.doc, s.lift_inputs());
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().describe());
  return scene.ok() ? std::move(*scene) : Scene{};
}

// What the glTF export writes: each primitive's drawn triangles, degenerates dropped.
void as_exported(Scene& s) {
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) {
      p.indices = scene::drawn_triangles(p);
      p.topology = scene::Topology::triangles;
    }
  }
}

Result<Bytes> lower_write(const Scene& s, const Sample& sample, std::vector<scene::LowerWarning>* warnings = nullptr) {
  Result<scene::Lowered> low = scene::lower(s, sample.doc, sample.lower_inputs());
  if (!low) return low.error();
  if (warnings) *warnings = low->warnings;
  return write_document(low->document);
}

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
      std::vector<scene::LowerWarning> warnings;
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

}  // namespace
}  // namespace remodel
