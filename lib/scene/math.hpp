// The one math module every lift and lower uses: vectors, quaternions, column-major 4x4 matrices,
// Euler angles and TRS decomposition.
#pragma once

#include <array>
#include <cstdint>

namespace remodel::scene {

struct Vec2 {
  float x = 0, y = 0;
  bool operator==(const Vec2&) const = default;
};

struct Vec3 {
  float x = 0, y = 0, z = 0;
  float operator[](std::size_t i) const { return i == 0 ? x : i == 1 ? y : z; }
  bool operator==(const Vec3&) const = default;
};

struct Vec4 {
  float x = 0, y = 0, z = 0, w = 0;
  bool operator==(const Vec4&) const = default;
};

// Unit quaternion (x, y, z, w), glTF's order.
struct Quat {
  float x = 0, y = 0, z = 0, w = 1;
  bool operator==(const Quat&) const = default;
};

// Column-major like glTF: element (row r, column c) is m[c * 4 + r]; translation in m[12..14].
struct Mat4 {
  std::array<float, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  float& at(int row, int col) { return m[static_cast<std::size_t>(col * 4 + row)]; }
  float at(int row, int col) const { return m[static_cast<std::size_t>(col * 4 + row)]; }
  static Mat4 identity() { return Mat4{}; }
  // From 16 floats stored row-vector style (v' = v * M, translation in 12-14), as the PSP formats and
  // D3D store them: the same memory order is a column-major matrix for column vectors.
  static Mat4 from_row_vector(const std::array<float, 16>& stored) { return Mat4{stored}; }
  // From 12 floats of a 3x4 row-major matrix (rows of rotation|translation), as J3D stores them.
  static Mat4 from_3x4_rows(const float* rows);
  bool operator==(const Mat4&) const = default;
};

// Every component is a finite number (no NaN, no infinity).
bool finite(float f);
bool finite(const Vec2& v);
bool finite(const Vec3& v);
bool finite(const Vec4& v);
bool finite(const Quat& q);
bool finite(const Mat4& m);

Mat4 operator*(const Mat4& a, const Mat4& b);
Vec3 transform_point(const Mat4& m, Vec3 p);
Vec3 transform_direction(const Mat4& m, Vec3 d);  // no translation
// General inverse (affine or not); a singular matrix gives the identity and `ok` false.
Mat4 inverse(const Mat4& m, bool* ok = nullptr);
float max_abs_difference(const Mat4& a, const Mat4& b);

Vec3 operator+(Vec3 a, Vec3 b);
Vec3 operator-(Vec3 a, Vec3 b);
Vec3 operator*(Vec3 a, float s);
float dot(Vec3 a, Vec3 b);
Vec3 cross(Vec3 a, Vec3 b);
float length(Vec3 v);
Vec3 normalize(Vec3 v);  // the zero vector stays zero

Quat operator*(const Quat& a, const Quat& b);  // a applied after b
Quat normalize(Quat q);
Quat axis_angle(Vec3 axis, float radians);
Mat4 rotation_matrix(const Quat& q);
Quat rotation_of(const Mat4& pure_rotation);  // from an orthonormal 3x3 part

// The order in which Euler rotations are applied to a vector: xyz = X first, then Y, then Z
// (matrix Rz * Ry * Rx). Formats name their own order beside their lift.
enum class EulerOrder : std::uint8_t { xyz, xzy, yxz, yzx, zxy, zyx };
Quat euler_to_quat(Vec3 radians, EulerOrder order);
// The X, Y, Z angles of unit `q` in order xyz (R = Rz * Ry * Rx), y in [-pi/2, pi/2]; at gimbal lock
// (y = +-pi/2) x is 0 and z carries the rest.
Vec3 euler_xyz_of(const Quat& q);

struct Trs {
  Vec3 translation{0, 0, 0};
  Quat rotation{};
  Vec3 scale{1, 1, 1};
  bool operator==(const Trs&) const = default;
};

Mat4 trs_matrix(const Trs& t);  // T * R * S
// Splits an affine matrix into T, R, S (positive scale; a mirrored matrix gets a negative x scale).
Trs decompose(const Mat4& m);

}  // namespace remodel::scene
