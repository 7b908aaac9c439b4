// Hand-made Scenes every authoring test builds (issue 16's checks): a triangle, a textured quad, a
// skinned cylinder, a 12-joint strip, a grid; shared so each format is tested on the same inputs.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "model/image.hpp"
#include "scene/math.hpp"
#include "scene/scene.hpp"

namespace remodel::test {

// A Scene with one node drawing one mesh of `prims`.
inline scene::Scene one_mesh(std::vector<scene::Primitive> prims) {
  scene::Scene s;
  s.scenes.push_back({"scene", {}});
  scene::Mesh m;
  m.name = "mesh";
  m.primitives = std::move(prims);
  s.meshes.push_back(std::move(m));
  scene::Node n;
  n.name = "model";
  n.mesh = 0;
  s.add_node(std::move(n));
  return s;
}

inline scene::Scene triangle() {
  scene::Primitive p;
  p.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  p.indices = {0, 1, 2};
  return one_mesh({p});
}

// A quad with vertex colours (one half-transparent) drawn with material "quad" showing `image`.
inline scene::Scene textured_quad(RgbaImage image) {
  scene::Primitive p;
  p.positions = {{-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}, {1, 1, 0}};
  p.uvs = {{{0, 1}, {1, 1}, {0, 0}, {1, 0}}};
  p.colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 0.5f}};
  p.indices = {0, 1, 2, 2, 1, 3};
  p.material = 0;
  scene::Scene s = one_mesh({p});
  scene::Texture t;
  t.name = "quad_tex";
  t.image = std::move(image);
  s.textures.push_back(std::move(t));
  scene::Material m;
  m.name = "quad";
  m.texture = 0;
  m.vertex_colors = true;
  s.materials.push_back(m);
  return s;
}

// An 8x8 quad texture of three colours in diagonal stripes, the third with alpha `third_alpha`: which
// palette or direct format holds it exactly depends on that alpha.
inline scene::Scene three_colour_quad(std::uint8_t third_alpha) {
  RgbaImage image(8, 8);
  const Rgba colours[3] = {{255, 0, 0, 255}, {0, 132, 255, 255}, {24, 206, 16, third_alpha}};
  for (std::uint32_t y = 0; y < 8; ++y) {
    for (std::uint32_t x = 0; x < 8; ++x) std::copy(colours[(x + y) % 3].begin(), colours[(x + y) % 3].end(), image.at(x, y));
  }
  return textured_quad(std::move(image));
}

// The skin a drawn mesh uses, -1 for none.
inline int used_skin(const scene::Scene& s) {
  for (const scene::Node& n : s.nodes) {
    if (n.mesh >= 0 && n.visible && n.skin >= 0) return n.skin;
  }
  return -1;
}

// A skin over a chain of `count` joints standing `step` apart on +Y, the second turned by
// `second_turn` radians about Z; inverse binds from their world.
inline void add_chain(scene::Scene& s, std::size_t count, float step, float second_turn = 0) {
  scene::Skin skin;
  skin.name = "skin";
  int parent = -1;
  for (std::size_t j = 0; j < count; ++j) {
    scene::Node n;
    n.name = "joint" + std::to_string(j);
    n.local.translation = {0, j == 0 ? 0.0f : step, 0};
    if (j == 1 && second_turn != 0) n.local.rotation = scene::axis_angle({0, 0, 1}, second_turn);
    parent = s.add_node(std::move(n), parent);
    skin.joints.push_back(parent);
  }
  const std::vector<scene::Mat4> world = scene::world_matrices(s);
  for (int j : skin.joints) skin.inverse_bind_matrices.push_back(scene::inverse(world[static_cast<std::size_t>(j)]));
  s.nodes[0].skin = static_cast<int>(s.skins.size());
  s.skins.push_back(std::move(skin));
}

// `rings` rings of `segments` vertices from y = 0 to y = height; each vertex leans on the two joints
// around its height (joints `step` apart), as a bent limb is weighted.
inline scene::Primitive cylinder(std::size_t segments, std::size_t rings, float height, std::size_t joints, bool normals) {
  constexpr float kPi = std::numbers::pi_v<float>;
  scene::Primitive p;
  p.influences = 4;
  const float step = height / static_cast<float>(joints - 1);
  for (std::size_t r = 0; r < rings; ++r) {
    const float y = height * static_cast<float>(r) / static_cast<float>(rings - 1);
    for (std::size_t k = 0; k < segments; ++k) {
      const float a = 2 * kPi * static_cast<float>(k) / static_cast<float>(segments);
      p.positions.push_back({0.3f * std::cos(a), y, 0.3f * std::sin(a)});
      if (normals) p.normals.push_back({std::cos(a), 0, std::sin(a)});
      const float f = std::min(y / step, static_cast<float>(joints - 1) - 1e-3f);
      const auto j = static_cast<std::uint16_t>(f);
      const float t = f - static_cast<float>(j);
      p.joints.insert(p.joints.end(), {j, static_cast<std::uint16_t>(j + 1), 0, 0});
      p.weights.insert(p.weights.end(), {1 - t, t, 0, 0});
    }
  }
  for (std::size_t r = 0; r + 1 < rings; ++r) {
    for (std::size_t k = 0; k < segments; ++k) {
      const auto a = static_cast<std::uint32_t>(r * segments + k), b = static_cast<std::uint32_t>(r * segments + (k + 1) % segments);
      const auto c = static_cast<std::uint32_t>(a + segments), d = static_cast<std::uint32_t>(b + segments);
      p.indices.insert(p.indices.end(), {a, c, b, b, c, d});
    }
  }
  return p;
}

// One triangle strip along +Y over 12 joints: a ribbon whose every pair of vertices leans on its own
// joint; the chain's second joint turned by `second_turn`.
inline scene::Scene twelve_joint_strip(float second_turn = 0) {
  scene::Primitive p;
  p.topology = scene::Topology::triangle_strip;
  p.influences = 4;
  for (std::uint16_t j = 0; j < 12; ++j) {
    for (int side = 0; side < 2; ++side) {
      p.positions.push_back({side == 0 ? -0.1f : 0.1f, 0.25f * j, 0});
      p.joints.insert(p.joints.end(), {j, 0, 0, 0});
      p.weights.insert(p.weights.end(), {1, 0, 0, 0});
    }
  }
  scene::Scene s = one_mesh({p});
  add_chain(s, 12, 0.25f, second_turn);
  return s;
}

// A grid of w x h vertices in one unskinned primitive, placed by its node (a map piece).
inline scene::Scene grid(std::size_t w, std::size_t h) {
  scene::Primitive p;
  p.uvs.resize(1);
  for (std::size_t y = 0; y < h; ++y) {
    for (std::size_t x = 0; x < w; ++x) {
      p.positions.push_back({static_cast<float>(x) * 0.5f, std::sin(static_cast<float>(x + y) * 0.1f), static_cast<float>(y) * 0.5f});
      p.uvs[0].push_back({static_cast<float>(x) / static_cast<float>(w - 1), static_cast<float>(y) / static_cast<float>(h - 1)});
    }
  }
  for (std::size_t y = 0; y + 1 < h; ++y) {
    for (std::size_t x = 0; x + 1 < w; ++x) {
      const auto a = static_cast<std::uint32_t>(y * w + x), b = a + 1, c = static_cast<std::uint32_t>(a + w), d = c + 1;
      p.indices.insert(p.indices.end(), {a, c, b, b, c, d});
    }
  }
  scene::Scene s = one_mesh({p});
  s.nodes[0].local.translation = {10, 0, -5};
  return s;
}

// A Scene no format can be authored from, with a part of the field its error must name (and of its
// sentence, where formats name different fields).
struct HostileScene {
  std::string what;
  scene::Scene scene;
  std::string field_part;
  std::string message_part;
};

// The Scenes every authoring refuses (each format's own limits are tested beside it): a check every
// format shares is written once, and a format that forgets one fails here.
inline std::vector<HostileScene> hostile_scenes() {
  std::vector<HostileScene> out;
  const auto add = [&](std::string what, scene::Scene s, std::string field, std::string message = "") {
    out.push_back({std::move(what), std::move(s), std::move(field), std::move(message)});
  };
  add("no nodes", scene::Scene{}, "nodes");
  scene::Scene nan = triangle();
  nan.meshes[0].primitives[0].positions[1].y = std::nanf("");
  add("a NaN position", nan, "positions");
  scene::Scene sizes = triangle();
  sizes.meshes[0].primitives[0].normals.resize(2);
  add("fewer normals than positions", sizes, "normals");
  scene::Scene bad_index = triangle();
  bad_index.meshes[0].primitives[0].indices[2] = 7;
  add("an index past the vertices", bad_index, "indices");
  scene::Scene lines = triangle();
  lines.meshes[0].primitives[0].topology = scene::Topology::lines;
  add("lines", lines, "meshes[0].primitives[0]");
  scene::Scene bad_joint = twelve_joint_strip(0.3f);
  bad_joint.meshes[0].primitives[0].joints[4] = 40;
  add("a joint past the skin", bad_joint, "joints");
  scene::Scene weights = twelve_joint_strip(0.3f);
  weights.meshes[0].primitives[0].weights.resize(3);
  add("fewer weights than joints", weights, "weights");
  scene::Scene no_weight = twelve_joint_strip(0.3f);
  std::fill(no_weight.meshes[0].primitives[0].weights.begin(), no_weight.meshes[0].primitives[0].weights.end(), 0.0f);
  add("vertices weighted to nothing", no_weight, "weights");
  scene::Scene cycle = twelve_joint_strip(0.3f);
  cycle.nodes[1].parent = 2;  // joint0 under joint1 under joint0
  cycle.nodes[2].parent = 1;
  add("a parent cycle", cycle, "", "cycle");  // the nodes (J3D) or the skin's joints (the others)
  scene::Scene bad_material = triangle();
  bad_material.meshes[0].primitives[0].material = 3;
  add("a material past the list", bad_material, "material");
  return out;
}

}  // namespace remodel::test
