// Issue 32 F9: a vertex's DRW1 entry and EVP1 envelope are found by a hash of its joints, not by a
// scan of every envelope (8,000 triangles on random 4-of-255-joint weights took 51 s).
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <set>

#include "j3d/shapes_fixture.hpp"
#include "model/document.hpp"
#include "model/j3d/decode.hpp"
#include "model/j3d/j3d.hpp"
#include "scene/lower.hpp"
#include "scene/math.hpp"

namespace remodel {
namespace {

// A chain of 255 joints and a 64 x 64 grid (8,192 triangles) whose every vertex leans on 4 random
// joints with random weights.
scene::Scene random_weighted_grid(std::size_t& distinct_sets) {
  scene::Scene s;
  s.scenes.push_back({});
  scene::Skin skin;
  for (int j = 0; j < 255; ++j) {
    scene::Node n;
    n.name = "j" + std::to_string(j);
    n.local.translation = {j == 0 ? 0.0f : 0.1f, 0, 0};
    const int at = s.add_node(std::move(n), j == 0 ? -1 : skin.joints.back());
    skin.joints.push_back(at);
    skin.inverse_bind_matrices.push_back(scene::trs_matrix(scene::Trs{{-0.1f * static_cast<float>(j), 0, 0}, {}, {1, 1, 1}}));
  }
  s.skins.push_back(skin);
  scene::Primitive p;
  p.influences = 4;
  std::mt19937 random(30);
  std::set<std::vector<std::pair<std::uint16_t, float>>> sets;
  constexpr std::uint32_t kSide = 65;
  for (std::uint32_t y = 0; y < kSide; ++y) {
    for (std::uint32_t x = 0; x < kSide; ++x) {
      p.positions.push_back({static_cast<float>(x) * 0.4f, static_cast<float>(y) * 0.4f, 0});
      std::set<std::uint16_t> joints;
      while (joints.size() < 4) joints.insert(static_cast<std::uint16_t>(random() % 255));
      std::vector<std::pair<std::uint16_t, float>> set;
      float sum = 0;
      for (std::uint16_t j : joints) {
        const float w = 0.05f + static_cast<float>(random() % 1000) / 1000.0f;
        set.emplace_back(j, w);
        sum += w;
      }
      for (auto& [j, w] : set) {
        w /= sum;
        p.joints.push_back(j);
        p.weights.push_back(w);
      }
      sets.insert(set);
    }
  }
  for (std::uint32_t y = 0; y + 1 < kSide; ++y) {
    for (std::uint32_t x = 0; x + 1 < kSide; ++x) {
      const std::uint32_t v = y * kSide + x;
      p.indices.insert(p.indices.end(), {v, v + 1, v + kSide, v + 1, v + kSide + 1, v + kSide});
    }
  }
  distinct_sets = sets.size();
  add_skinned_mesh(s, std::move(p), "grid");
  return s;
}

TEST(ShapesWeights, RandomWeightsOn255JointsLowerInLinearTime) {
  std::size_t distinct = 0;
  const scene::Scene s = random_weighted_grid(distinct);
  const auto start = std::chrono::steady_clock::now();
  auto made = scene::author(s, Format::j3d);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(made.ok()) << made.error().describe();
  const J3dFile& f = std::get<J3dFile>(made->document);
  const J3dEvp1* evp = j3d_section<J3dEvp1>(f);
  const J3dDrw1* drw = j3d_section<J3dDrw1>(f);
  ASSERT_NE(evp, nullptr);
  ASSERT_NE(drw, nullptr);
  // One envelope per distinct weight set (each found again, none appended twice), every one drawn
  // through DRW1 (authoring repeats DRW1 entries as Nintendo's converter does: author.cpp).
  EXPECT_EQ(evp->envelopes.size(), distinct);
  std::set<std::uint16_t> enveloped;
  for (std::size_t d = 0; d < drw->indices.size(); ++d) {
    if (drw->weighted[d] == 1) enveloped.insert(drw->indices[d]);
  }
  EXPECT_EQ(enveloped.size(), distinct);
  // Generous: the scan this replaces took 51 s; the hash lookups take a small fraction of a second.
  EXPECT_LT(seconds, 10.0);
  auto bytes = write_document(made->document);
  ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
}

}  // namespace
}  // namespace remodel
