#include "scene/demo.hpp"

#include <algorithm>

namespace remodel::scene {

Scene demo_grid(std::uint32_t columns, std::uint32_t rows) {
  columns = std::max<std::uint32_t>(columns, 2);
  rows = std::max<std::uint32_t>(rows, 2);
  Scene s;
  s.extras = {{"format", "demo"}};
  const auto named = [](const char* name) {
    Node n;
    n.name = name;
    return n;
  };
  const int root = s.add_node(named("skeleton"));
  const int lower = s.add_node(named("joint_lower"), root);
  Node upper_node = named("joint_upper");
  upper_node.local.translation = {0, 0.5f, 0};
  const int upper = s.add_node(std::move(upper_node), lower);

  Primitive p;
  const std::size_t count = std::size_t{columns} * rows;
  p.positions.reserve(count);
  p.normals.assign(count, Vec3{0, 0, 1});
  p.colors.reserve(count);
  p.uvs.resize(1);
  p.uvs[0].reserve(count);
  p.influences = 4;
  p.joints.reserve(count * 4);
  p.weights.reserve(count * 4);
  for (std::uint32_t r = 0; r < rows; ++r) {
    for (std::uint32_t c = 0; c < columns; ++c) {
      const float u = static_cast<float>(c) / static_cast<float>(columns - 1);
      const float v = static_cast<float>(r) / static_cast<float>(rows - 1);
      p.positions.push_back({u - 0.5f, v, 0});
      p.colors.push_back({u, v, 1 - u, 1});
      p.uvs[0].push_back({u, 1 - v});  // glTF's v runs down the image
      p.joints.insert(p.joints.end(), {0, 1, 0, 0});
      p.weights.insert(p.weights.end(), {1 - v, v, 0, 0});
    }
  }
  p.indices.reserve(std::size_t{columns - 1} * (rows - 1) * 6);
  for (std::uint32_t r = 0; r + 1 < rows; ++r) {
    for (std::uint32_t c = 0; c + 1 < columns; ++c) {
      const std::uint32_t a = r * columns + c, b = a + 1, d = a + columns, e = d + 1;
      p.indices.insert(p.indices.end(), {a, b, e, a, e, d});  // counter-clockwise seen from +Z
    }
  }
  p.material = 0;
  s.meshes.emplace_back();
  s.meshes.back().name = "grid";
  s.meshes.back().primitives.push_back(std::move(p));
  Node mesh_node = named("grid");
  mesh_node.mesh = 0;
  mesh_node.skin = 0;
  s.add_node(std::move(mesh_node));

  Skin skin;
  skin.name = "skeleton";
  skin.joints = {lower, upper};
  const std::vector<Mat4> world = world_matrices(s);
  for (int j : skin.joints) skin.inverse_bind_matrices.push_back(inverse(world[static_cast<std::size_t>(j)]));
  skin.skeleton = root;
  s.skins.push_back(std::move(skin));

  Texture t;
  t.name = "checker";
  t.image = RgbaImage(8, 8);
  t.encoding = "RGBA8";
  for (std::uint32_t y = 0; y < 8; ++y) {
    for (std::uint32_t x = 0; x < 8; ++x) {
      const std::uint8_t l = ((x + y) % 2) ? 255 : 64;
      std::uint8_t* px = t.image.at(x, y);
      px[0] = l, px[1] = l, px[2] = l, px[3] = 255;
    }
  }
  t.sampler = Sampler{Wrap::repeat, Wrap::mirror, Filter::nearest, Filter::nearest};
  s.textures.push_back(std::move(t));
  Material material;
  material.name = "checker";
  material.texture = 0;
  material.vertex_colors = true;
  material.double_sided = true;
  s.materials.push_back(std::move(material));

  Channel bend;
  bend.node = upper;
  bend.path = Path::rotation;
  bend.times = {0, 0.5f, 1};
  for (float angle : {0.0f, 0.6f, 0.0f}) {
    const Quat q = axis_angle({0, 0, 1}, angle);
    bend.values.insert(bend.values.end(), {q.x, q.y, q.z, q.w});
  }
  Animation animation;
  animation.name = "bend";
  animation.channels.push_back(std::move(bend));
  s.animations.push_back(std::move(animation));
  return s;
}

}  // namespace remodel::scene
