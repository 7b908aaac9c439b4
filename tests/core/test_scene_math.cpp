// The math module against hand-computed values: Euler orders, TRS round trips, inverses, skin blends.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "scene/math.hpp"
#include "scene/scene.hpp"
#include "scene/skin_joints.hpp"

namespace remodel::scene {
namespace {

constexpr float kHalfPi = std::numbers::pi_v<float> / 2;

void expect_near(Vec3 a, Vec3 b, float eps = 1e-5f) {
  EXPECT_NEAR(a.x, b.x, eps);
  EXPECT_NEAR(a.y, b.y, eps);
  EXPECT_NEAR(a.z, b.z, eps);
}

TEST(SceneMath, EulerXyzAppliesXThenYThenZ) {
  // (0,1,0) rotated 90 degrees about X is (0,0,1); then 90 about Y is (1,0,0); then 90 about Z is (0,1,0).
  const Mat4 r = rotation_matrix(euler_to_quat({kHalfPi, kHalfPi, kHalfPi}, EulerOrder::xyz));
  expect_near(transform_point(r, {0, 1, 0}), {0, 1, 0});
  // (1,0,0): X leaves it, Y takes it to (0,0,-1), Z leaves that.
  expect_near(transform_point(r, {1, 0, 0}), {0, 0, -1});
}

TEST(SceneMath, EulerZyxAppliesZFirst) {
  // (1,0,0): Z 90 -> (0,1,0); Y 90 leaves it; X 90 -> (0,0,1).
  const Mat4 r = rotation_matrix(euler_to_quat({kHalfPi, kHalfPi, kHalfPi}, EulerOrder::zyx));
  expect_near(transform_point(r, {1, 0, 0}), {0, 0, 1});
}

TEST(SceneMath, TrsDecomposeRoundTrip) {
  Trs t;
  t.translation = {1, -2, 3.5f};
  t.rotation = euler_to_quat({0.3f, -1.1f, 2.0f}, EulerOrder::xyz);
  t.scale = {2, 0.5f, 3};
  const Trs back = decompose(trs_matrix(t));
  expect_near(back.translation, t.translation);
  expect_near(back.scale, t.scale);
  EXPECT_LT(max_abs_difference(trs_matrix(back), trs_matrix(t)), 1e-5f);
}

TEST(SceneMath, MirroredMatrixKeepsItsHandedness) {
  Mat4 m;
  m.at(0, 0) = -1;
  const Trs t = decompose(m);
  EXPECT_LT(t.scale.x, 0);
  EXPECT_LT(max_abs_difference(trs_matrix(t), m), 1e-6f);
}

TEST(SceneMath, InverseTimesMatrixIsIdentity) {
  Trs t;
  t.translation = {10, 0, -4};
  t.rotation = euler_to_quat({1, 2, 3}, EulerOrder::zxy);
  t.scale = {0.01f, 0.01f, 0.01f};
  const Mat4 m = trs_matrix(t);
  bool ok = false;
  const Mat4 inv = inverse(m, &ok);
  EXPECT_TRUE(ok);
  EXPECT_LT(max_abs_difference(inv * m, Mat4::identity()), 1e-5f);
  Mat4 singular;
  singular.at(1, 1) = 0;
  inverse(singular, &ok);
  EXPECT_FALSE(ok);
}

TEST(SceneMath, RowVectorStorageIsColumnMajorForColumnVectors) {
  // A PSP row-vector matrix with translation (5, 6, 7) in elements 12-14.
  std::array<float, 16> stored{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1};
  expect_near(transform_point(Mat4::from_row_vector(stored), {1, 1, 1}), {6, 7, 8});
  const float rows[12] = {1, 0, 0, 5, 0, 1, 0, 6, 0, 0, 1, 7};
  expect_near(transform_point(Mat4::from_3x4_rows(rows), {0, 0, 0}), {5, 6, 7});
}

TEST(SceneMath, WorldMatricesFollowParentsAndSurviveCycles) {
  Scene s;
  Node a;
  a.local.translation = {1, 0, 0};
  const int ia = s.add_node(a);
  Node b;
  b.local.translation = {0, 2, 0};
  const int ib = s.add_node(b, ia);
  const std::vector<Mat4> w = world_matrices(s);
  expect_near(transform_point(w[static_cast<std::size_t>(ib)], {0, 0, 0}), {1, 2, 0});
  s.nodes[static_cast<std::size_t>(ia)].parent = ib;  // a hostile cycle must not hang
  EXPECT_EQ(world_matrices(s).size(), 2u);
}


// glTF's skinning blends the joints by weight; every format stores weights that sum to 1, so a vertex
// whose weights do not is taken to the pose its renormalised weights give.
TEST(SceneMath, SkinBlendRenormalisesTheWeights) {
  RestPose pose;
  pose.to_rest = {Mat4::identity(), Mat4::identity(), Mat4::identity()};
  pose.to_rest[1].m[12] = 4.0f;  // joint 1 moves +4 in x, joint 2 +8 in y
  pose.to_rest[2].m[13] = 8.0f;
  pose.at_rest = false;
  Primitive p;
  p.positions = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  p.influences = 4;
  p.joints = {1, 2, 0, 0, /**/ 1, 2, 0, 0, /**/ 1, 7, 0, 0};
  p.weights = {0.25f, 0.75f, 0, 0, /**/ 0.5f, 1.5f, 0, 0, /**/ 0, 0, 0, 0};
  // Normalised weights 1/4 and 3/4: (1, 6, 0).
  expect_near(transform_point(to_rest_of(p, 0, pose), {0, 0, 0}), {1, 6, 0});
  // The same proportions summing to 2 give the same point, not twice as far.
  expect_near(transform_point(to_rest_of(p, 1, pose), {0, 0, 0}), {1, 6, 0});
  // A vertex weighing nothing has no pose: all zeros (the primitive's checks refuse it).
  for (float f : to_rest_of(p, 2, pose).m) EXPECT_EQ(f, 0.0f);
}

}  // namespace
}  // namespace remodel::scene
