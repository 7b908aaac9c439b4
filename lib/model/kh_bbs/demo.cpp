#include "model/kh_bbs/demo.hpp"

#include <algorithm>
#include <cmath>

#include "model/psp/ge.hpp"
#include "model/psp/texture.hpp"
#include "model/psp/vertex.hpp"

namespace remodel {

namespace {

constexpr float kScale = 2.0f;  // positions are s16 / 32768 * scale

std::uint32_t quantise(float v) { return static_cast<std::uint16_t>(static_cast<std::int16_t>(std::lround(v / kScale * 32768.0f))); }

psp::Vertex make_vertex(float x, float y, float z, float u, float v) {
  psp::Vertex out;
  const std::uint32_t upper = static_cast<std::uint32_t>(std::lround((y + 1.0f) * 64.0f));  // 0..128 over the cube
  out.weights[0] = 128 - upper;
  out.weights[1] = upper;
  out.texcoord = {static_cast<std::uint32_t>(u * 32768.0f), static_cast<std::uint32_t>(v * 32768.0f)};
  out.position = {quantise(x), quantise(y), quantise(z)};
  return out;
}

// An 8x8 checkerboard of 2-pixel cells in two colours, encoded as authoring encodes a texture (its
// pixel type, CLUT and GS registers from new_tim2_picture: PSMT4, TW = TH = 3).
Tim2 make_texture() {
  RgbaImage image(8, 8);
  const Rgba colours[2] = {{0xE0, 0xE0, 0xE0, 0xFF}, {0x30, 0x60, 0xC0, 0xFF}};
  for (std::uint32_t y = 0; y < 8; ++y) {
    for (std::uint32_t x = 0; x < 8; ++x) std::copy(colours[(x / 2 + y) % 2].begin(), colours[(x / 2 + y) % 2].end(), image.at(x, y));
  }
  Tim2 t;
  t.pictures.push_back(new_tim2_picture(image).value());  // two colours in 8x8 always encode
  return t;
}

std::array<float, 16> translation(float x, float y, float z) {
  return {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1};
}

}  // namespace

PmoFile build_demo_pmo() {
  psp::VertexFormat format;
  format.texcoord = psp::NumFormat::i16;
  format.position = psp::NumFormat::i16;
  format.weight = psp::NumFormat::i8;
  format.weight_count = 2;

  // Six faces: four as one triangle list, the top and bottom as two 4-vertex strips.
  const float c[8][3] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}};
  const int sides[4][4] = {{0, 1, 2, 3}, {1, 5, 3, 7}, {5, 4, 7, 6}, {4, 0, 6, 2}};
  std::vector<psp::Vertex> list;
  for (const auto& q : sides) {
    const int tri[6] = {q[0], q[1], q[2], q[2], q[1], q[3]};
    const float uv[6][2] = {{0, 1}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, {1, 0}};
    for (int i = 0; i < 6; ++i) list.push_back(make_vertex(c[tri[i]][0], c[tri[i]][1], c[tri[i]][2], uv[i][0], uv[i][1]));
  }
  const int caps[2][4] = {{4, 5, 0, 1}, {2, 3, 6, 7}};
  std::vector<psp::Vertex> strips;
  for (const auto& q : caps) {
    const float uv[4][2] = {{0, 1}, {1, 1}, {0, 0}, {1, 0}};
    for (int i = 0; i < 4; ++i) strips.push_back(make_vertex(c[q[i]][0], c[q[i]][1], c[q[i]][2], uv[i][0], uv[i][1]));
  }

  PmoFile file;
  Pmo& p = file.pmo;
  p.scale = kScale;
  p.group = 1;
  for (std::size_t i = 0; i < 8; ++i) {
    // Corner order: x fastest, then z, then y.
    p.bounding_box[i] = {i & 1 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, 1.0f};
  }
  PmoTextureInfo tex;
  tex.tim2 = 0;
  const char name[] = "demo_cube";
  for (std::size_t i = 0; i + 1 < sizeof name; ++i) tex.name[i] = static_cast<std::uint8_t>(name[i]);
  p.textures.push_back(tex);
  p.tim2s.push_back(make_texture());

  const std::uint32_t vtype = format.vtype();
  PmoSection a;
  a.vertex_flags = vtype | std::uint32_t{psp::ge::kPrimTriangles} << 28;
  a.joints = std::array<std::uint8_t, 8>{0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  a.vertices = psp::encode_vertices(format, list);
  PmoSection b = a;
  b.vertex_flags = vtype | std::uint32_t{psp::ge::kPrimStrip} << 28;
  b.strip_lengths = {4, 4};
  b.vertices = psp::encode_vertices(format, strips);
  p.mesh0 = PmoMeshList{{a, b}, {}};

  Bon bon;
  BonJoint root;
  root.index = 0;
  root.skin_index = 0;
  const char root_name[] = "root";
  for (std::size_t i = 0; i + 1 < sizeof root_name; ++i) root.name[i] = static_cast<std::uint8_t>(root_name[i]);
  root.local = translation(0, 0, 0);
  root.inverse_bind = translation(0, 0, 0);
  BonJoint top = root;
  top.index = 1;
  top.parent = 0;
  top.skin_index = 1;
  const char top_name[] = "top";
  top.name = {};
  for (std::size_t i = 0; i + 1 < sizeof top_name; ++i) top.name[i] = static_cast<std::uint8_t>(top_name[i]);
  top.local = translation(0, 1, 0);
  top.inverse_bind = translation(0, -1, 0);
  bon.joints = {root, top};
  p.skeleton = bon;
  return file;
}

namespace {

template <std::size_t N>
std::array<std::uint8_t, N> name_of(const char* text) {
  std::array<std::uint8_t, N> out{};
  for (std::size_t i = 0; i + 1 < N && text[i] != '\0'; ++i) out[i] = static_cast<std::uint8_t>(text[i]);
  return out;
}

PamChannel constant(float v) { return PamChannel{v, v, true, {}}; }

}  // namespace

Pam build_demo_pam() {
  constexpr float kPi = 3.14159265f;
  PamAnimation sway;
  sway.frame_count = 30;
  sway.loop_from = 29;
  sway.bones.resize(2);
  for (int axis = 0; axis < 3; ++axis) sway.bones[0].channels[axis] = constant(0.0f);
  sway.bones[1].channels[1] = constant(1.0f);  // the top joint sits one unit above the root
  PamChannel yaw{kPi / 4, -kPi / 4, false, {}};
  for (std::uint16_t f = 0; f < 30; ++f) {  // a sine sway, a key on every frame
    const float t = 0.5f + 0.5f * std::sin(2 * kPi * f / 30.0f);
    yaw.keys.push_back({f, static_cast<std::uint16_t>(std::lround(t * 65535.0f))});
  }
  sway.bones[1].channels[4] = yaw;
  sway.bones[1].channels[7] = PamChannel{1.25f, 1.0f, false, {{0, 0}, {15, 65535}, {29, 0}}};  // sparse

  PamAnimation long_run = sway;
  long_run.flag = 0x0101;
  long_run.frame_count = 300;
  long_run.loop_from = 299;
  long_run.bones[1].channels[4] = PamChannel{kPi, -kPi, false, {{0, 0}, {150, 32768}, {299, 65535}}};
  long_run.bones[1].channels[7] = constant(1.0f);

  Pam pam;
  pam.animations = {sway, long_run};
  pam.entries = {PamEntry{std::uint16_t{0}, name_of<12>("sway")}, PamEntry{std::nullopt, {}},
                 PamEntry{std::uint16_t{1}, name_of<12>("long")}};
  return pam;
}

}  // namespace remodel
