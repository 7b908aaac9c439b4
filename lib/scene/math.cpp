#include "scene/math.hpp"

#include <algorithm>
#include <cmath>

namespace remodel::scene {

Mat4 Mat4::from_3x4_rows(const float* rows) {
  Mat4 r;
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 4; ++col) r.at(row, col) = rows[row * 4 + col];
  }
  return r;
}

bool finite(float f) { return std::isfinite(f); }
bool finite(const Vec2& v) { return finite(v.x) && finite(v.y); }
bool finite(const Vec3& v) { return finite(v.x) && finite(v.y) && finite(v.z); }
bool finite(const Vec4& v) { return finite(v.x) && finite(v.y) && finite(v.z) && finite(v.w); }
bool finite(const Quat& q) { return finite(q.x) && finite(q.y) && finite(q.z) && finite(q.w); }
bool finite(const Mat4& m) {
  return std::all_of(m.m.begin(), m.m.end(), [](float f) { return std::isfinite(f); });
}

Mat4 operator*(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int c = 0; c < 4; ++c) {
    for (int row = 0; row < 4; ++row) {
      float s = 0;
      for (int k = 0; k < 4; ++k) s += a.at(row, k) * b.at(k, c);
      r.at(row, c) = s;
    }
  }
  return r;
}

Vec3 transform_point(const Mat4& m, Vec3 p) {
  return {m.at(0, 0) * p.x + m.at(0, 1) * p.y + m.at(0, 2) * p.z + m.at(0, 3),
          m.at(1, 0) * p.x + m.at(1, 1) * p.y + m.at(1, 2) * p.z + m.at(1, 3),
          m.at(2, 0) * p.x + m.at(2, 1) * p.y + m.at(2, 2) * p.z + m.at(2, 3)};
}

Vec3 transform_direction(const Mat4& m, Vec3 d) {
  return {m.at(0, 0) * d.x + m.at(0, 1) * d.y + m.at(0, 2) * d.z,
          m.at(1, 0) * d.x + m.at(1, 1) * d.y + m.at(1, 2) * d.z,
          m.at(2, 0) * d.x + m.at(2, 1) * d.y + m.at(2, 2) * d.z};
}

Mat4 inverse(const Mat4& mat, bool* ok) {
  // Gauss-Jordan with partial pivoting in double: bind matrices of small joints are badly scaled.
  double a[4][8];
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) {
      a[r][c] = mat.at(r, c);
      a[r][c + 4] = r == c ? 1.0 : 0.0;
    }
  }
  for (int col = 0; col < 4; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 4; ++r) {
      if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) pivot = r;
    }
    if (!(std::fabs(a[pivot][col]) > 1e-30)) {
      if (ok != nullptr) *ok = false;
      return Mat4::identity();
    }
    if (pivot != col) {
      for (int c = 0; c < 8; ++c) std::swap(a[pivot][c], a[col][c]);
    }
    const double inv = 1.0 / a[col][col];
    for (int c = 0; c < 8; ++c) a[col][c] *= inv;
    for (int r = 0; r < 4; ++r) {
      if (r == col) continue;
      const double f = a[r][col];
      if (f == 0.0) continue;
      for (int c = 0; c < 8; ++c) a[r][c] -= f * a[col][c];
    }
  }
  Mat4 out;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) out.at(r, c) = static_cast<float>(a[r][c + 4]);
  }
  if (ok != nullptr) *ok = true;
  return out;
}

float max_abs_difference(const Mat4& a, const Mat4& b) {
  float d = 0;
  for (std::size_t i = 0; i < 16; ++i) d = std::max(d, std::fabs(a.m[i] - b.m[i]));
  return d;
}

Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
float length(Vec3 v) { return std::sqrt(dot(v, v)); }

Vec3 normalize(Vec3 v) {
  const float l = length(v);
  return l > 0 ? v * (1.0f / l) : v;
}

Quat operator*(const Quat& a, const Quat& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

Quat normalize(Quat q) {
  const float l = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (!(l > 0)) return Quat{};
  return {q.x / l, q.y / l, q.z / l, q.w / l};
}

Quat axis_angle(Vec3 axis, float radians) {
  const Vec3 a = normalize(axis);
  const float s = std::sin(radians * 0.5f);
  return {a.x * s, a.y * s, a.z * s, std::cos(radians * 0.5f)};
}

Mat4 rotation_matrix(const Quat& q) {
  const float x = q.x, y = q.y, z = q.z, w = q.w;
  Mat4 r;
  r.at(0, 0) = 1 - 2 * (y * y + z * z);
  r.at(0, 1) = 2 * (x * y - z * w);
  r.at(0, 2) = 2 * (x * z + y * w);
  r.at(1, 0) = 2 * (x * y + z * w);
  r.at(1, 1) = 1 - 2 * (x * x + z * z);
  r.at(1, 2) = 2 * (y * z - x * w);
  r.at(2, 0) = 2 * (x * z - y * w);
  r.at(2, 1) = 2 * (y * z + x * w);
  r.at(2, 2) = 1 - 2 * (x * x + y * y);
  return r;
}

Quat rotation_of(const Mat4& m) {
  // Shepperd's method: pick the largest diagonal term for stability.
  const float m00 = m.at(0, 0), m11 = m.at(1, 1), m22 = m.at(2, 2);
  const float trace = m00 + m11 + m22;
  Quat q;
  if (trace > 0) {
    const float s = std::sqrt(trace + 1.0f) * 2;
    q = {(m.at(2, 1) - m.at(1, 2)) / s, (m.at(0, 2) - m.at(2, 0)) / s, (m.at(1, 0) - m.at(0, 1)) / s, 0.25f * s};
  } else if (m00 > m11 && m00 > m22) {
    const float s = std::sqrt(1.0f + m00 - m11 - m22) * 2;
    q = {0.25f * s, (m.at(0, 1) + m.at(1, 0)) / s, (m.at(0, 2) + m.at(2, 0)) / s, (m.at(2, 1) - m.at(1, 2)) / s};
  } else if (m11 > m22) {
    const float s = std::sqrt(1.0f + m11 - m00 - m22) * 2;
    q = {(m.at(0, 1) + m.at(1, 0)) / s, 0.25f * s, (m.at(1, 2) + m.at(2, 1)) / s, (m.at(0, 2) - m.at(2, 0)) / s};
  } else {
    const float s = std::sqrt(1.0f + m22 - m00 - m11) * 2;
    q = {(m.at(0, 2) + m.at(2, 0)) / s, (m.at(1, 2) + m.at(2, 1)) / s, 0.25f * s, (m.at(1, 0) - m.at(0, 1)) / s};
  }
  q = normalize(q);
  if (q.w < 0) q = {-q.x, -q.y, -q.z, -q.w};  // one canonical sign
  return q;
}

Quat euler_to_quat(Vec3 r, EulerOrder order) {
  const Quat qx = axis_angle({1, 0, 0}, r.x), qy = axis_angle({0, 1, 0}, r.y), qz = axis_angle({0, 0, 1}, r.z);
  // The first rotation applied is the rightmost factor.
  switch (order) {
    case EulerOrder::xyz: return normalize(qz * qy * qx);
    case EulerOrder::xzy: return normalize(qy * qz * qx);
    case EulerOrder::yxz: return normalize(qz * qx * qy);
    case EulerOrder::yzx: return normalize(qx * qz * qy);
    case EulerOrder::zxy: return normalize(qy * qx * qz);
    case EulerOrder::zyx: return normalize(qx * qy * qz);
  }
  return Quat{};
}

Vec3 euler_xyz_of(const Quat& q) {
  // Rz * Ry * Rx has row 2 = (-sin y, sin x cos y, cos x cos y) and column 0 = cos y (cos z, sin z, .).
  const Mat4 r = rotation_matrix(q);
  const float sy = std::clamp(-r.at(2, 0), -1.0f, 1.0f);
  const float y = std::asin(sy);
  if (std::fabs(sy) > 0.99999f) return {0.0f, y, std::atan2(-r.at(0, 1), r.at(1, 1))};  // gimbal lock: X folded into Z
  return {std::atan2(r.at(2, 1), r.at(2, 2)), y, std::atan2(r.at(1, 0), r.at(0, 0))};
}

Mat4 trs_matrix(const Trs& t) {
  Mat4 m = rotation_matrix(t.rotation);
  const float s[3] = {t.scale.x, t.scale.y, t.scale.z};
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) m.at(r, c) *= s[c];
  }
  m.at(0, 3) = t.translation.x;
  m.at(1, 3) = t.translation.y;
  m.at(2, 3) = t.translation.z;
  return m;
}

Trs decompose(const Mat4& m) {
  Trs t;
  t.translation = {m.at(0, 3), m.at(1, 3), m.at(2, 3)};
  Vec3 cols[3];
  for (int c = 0; c < 3; ++c) cols[c] = {m.at(0, c), m.at(1, c), m.at(2, c)};
  t.scale = {length(cols[0]), length(cols[1]), length(cols[2])};
  if (dot(cross(cols[0], cols[1]), cols[2]) < 0) t.scale.x = -t.scale.x;
  Mat4 r;
  const float s[3] = {t.scale.x, t.scale.y, t.scale.z};
  for (int c = 0; c < 3; ++c) {
    for (int row = 0; row < 3; ++row) r.at(row, c) = s[c] != 0 ? m.at(row, c) / s[c] : (row == c ? 1.0f : 0.0f);
  }
  t.rotation = rotation_of(r);
  return t;
}

}  // namespace remodel::scene
