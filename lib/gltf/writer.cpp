// Scene -> glTF 2.0 JSON and buffer 0, written directly with nlohmann::ordered_json: every vertex
// array is copied once into the buffer (tinygltf's Model would hold a copy, then serialise through a
// stringstream), extras keep their key order, and nothing touches the disk here (see README.md).
// Animations are written by write_animations.cpp.
#include "gltf/gltf.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#ifdef __linux__
#include <sys/mman.h>
#endif

#include "gltf/names.hpp"
#include "gltf/writer.hpp"
#include "scene/match.hpp"

namespace remodel::gltf {

namespace {

using scene::Scene;
using json = nlohmann::ordered_json;

bool finite(float v) { return std::isfinite(v); }

// |length² - 1| within 8 float epsilons: what dividing by the length in float arithmetic leaves.
bool unit_within_rounding(double length_squared) { return std::fabs(length_squared - 1.0) <= 8.0 * std::numeric_limits<float>::epsilon(); }

bool has_degenerate(const scene::Primitive& p) {
  const auto& ix = p.indices;
  const auto degenerate = [](std::uint32_t a, std::uint32_t b, std::uint32_t c) { return a == b || b == c || a == c; };
  if (p.topology == scene::Topology::triangles) {
    for (std::size_t i = 0; i + 2 < ix.size(); i += 3) if (degenerate(ix[i], ix[i + 1], ix[i + 2])) return true;
  } else if (p.topology == scene::Topology::triangle_strip) {
    for (std::size_t i = 0; i + 2 < ix.size(); ++i) if (degenerate(ix[i], ix[i + 1], ix[i + 2])) return true;
  } else if (p.topology == scene::Topology::triangle_fan) {
    for (std::size_t i = 1; i + 1 < ix.size(); ++i) if (degenerate(ix[0], ix[i], ix[i + 1])) return true;
  }
  return false;
}

int gl_wrap(scene::Wrap w) {
  switch (w) {
    case scene::Wrap::clamp: return 33071;
    case scene::Wrap::mirror: return 33648;
    case scene::Wrap::repeat: break;
  }
  return 10497;
}

int gl_filter(scene::Filter f) {
  switch (f) {
    case scene::Filter::nearest: return 9728;
    case scene::Filter::linear: return 9729;
    case scene::Filter::nearest_mipmap_nearest: return 9984;
    case scene::Filter::linear_mipmap_nearest: return 9985;
    case scene::Filter::nearest_mipmap_linear: return 9986;
    case scene::Filter::linear_mipmap_linear: return 9987;
  }
  return 9729;
}

// Magnification has no mip levels: a mipmapped filter magnifies with its base filter.
int gl_mag_filter(scene::Filter f) {
  return f == scene::Filter::nearest || f == scene::Filter::nearest_mipmap_nearest ||
                 f == scene::Filter::nearest_mipmap_linear
             ? 9728
             : 9729;
}

int mode(scene::Topology t) {
  switch (t) {
    case scene::Topology::points: return 0;
    case scene::Topology::lines: return 1;
    case scene::Topology::triangle_strip: return 5;
    case scene::Topology::triangle_fan: return 6;
    case scene::Topology::triangles: break;
  }
  return 4;
}

// About buffer 0's size plus room for the GLB header and JSON in front of it, so the buffer is
// allocated once and a .glb is finished in place (strips turned into lists and PNGs may still grow it).
std::size_t estimate_buffer(const Scene& s) {
  std::size_t n = std::size_t{1} << 20;  // the GLB header and JSON
  for (const scene::Mesh& m : s.meshes) {
    for (const scene::Primitive& p : m.primitives) {
      n += p.positions.size() * 12 + p.normals.size() * 12 + p.colors.size() * 16;
      for (const auto& uv : p.uvs) n += uv.size() * 8;
      n += p.joints.size() * 2 + p.weights.size() * 4 + p.indices.size() * 4 + 1024;
    }
  }
  for (const scene::Skin& k : s.skins) n += k.joints.size() * 64 + 4;
  for (const scene::Animation& a : s.animations) {
    for (const scene::Channel& c : a.channels) n += (c.times.size() + c.values.size()) * 4 + 512;
  }
  for (const scene::Texture& t : s.textures) n += t.image.rgba.size() / 2 + 1024;
  return n;
}

// Large buffers in 2 MiB pages where the kernel offers them on request: page faults on a fresh
// 100 MB buffer otherwise cost more than writing it (measured in bench/bench_gltf.cpp).
void advise_huge_pages([[maybe_unused]] std::uint8_t* data, [[maybe_unused]] std::size_t size) {
#ifdef __linux__
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + size) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

}  // namespace

namespace detail {

Result<void> Writer::primitive(const scene::Primitive& p, const std::string& where, int mesh, json& out) {
  const std::size_t count = p.vertex_count();
  if (count == 0) return bad(where, "has no vertices; a glTF primitive needs at least one");
  if (count > std::numeric_limits<std::uint32_t>::max() - 1) return bad(where, "has more vertices than 32-bit indices can address");
  const auto same = [&](std::size_t n, const char* what) -> Result<void> {
    if (n != 0 && n != count) {
      return bad(where + "." + what, "has " + std::to_string(n) + " entries for " + std::to_string(count) + " vertices");
    }
    return {};
  };
  if (auto e = same(p.normals.size(), "normals"); !e) return e.error();
  if (auto e = same(p.colors.size(), "colors"); !e) return e.error();
  for (std::size_t i = 0; i < p.uvs.size(); ++i) {
    if (auto e = same(p.uvs[i].size(), ("uvs[" + std::to_string(i) + "]").c_str()); !e) return e.error();
  }
  json attributes = json::object();

  // POSITION needs min and max; every float must be finite for the JSON and for viewers.
  std::array<float, 3> lo{}, hi{};
  lo.fill(std::numeric_limits<float>::infinity());
  hi.fill(-std::numeric_limits<float>::infinity());
  for (std::size_t v = 0; v < count; ++v) {
    const scene::Vec3& q = p.positions[v];
    if (!finite(q.x) || !finite(q.y) || !finite(q.z)) return bad(where + ".positions[" + std::to_string(v) + "]", "is not a finite number");
    lo[0] = std::min(lo[0], q.x), lo[1] = std::min(lo[1], q.y), lo[2] = std::min(lo[2], q.z);
    hi[0] = std::max(hi[0], q.x), hi[1] = std::max(hi[1], q.y), hi[2] = std::max(hi[2], q.z);
  }
  const int position = float_accessor(p.positions.data(), count, "VEC3", kArrayBuffer);
  accessors_[static_cast<std::size_t>(position)]["min"] = lo;
  accessors_[static_cast<std::size_t>(position)]["max"] = hi;
  attributes["POSITION"] = position;

  if (!p.normals.empty()) {
    // glTF normals are unit length; a zero or non-finite normal (nothing to point along) becomes +Y.
    int view = 0;
    auto* out_n = reinterpret_cast<scene::Vec3*>(reserve_view(count * 12, kArrayBuffer, &view));
    for (std::size_t v = 0; v < count; ++v) out_n[v] = unit_normal(p.normals[v]);
    attributes["NORMAL"] = accessor(view, kFloat, count, "VEC3");
  }
  for (std::size_t set = 0; set < p.uvs.size(); ++set) {
    for (std::size_t v = 0; v < count; ++v) {
      if (!finite(p.uvs[set][v].x) || !finite(p.uvs[set][v].y)) {
        return bad(where + ".uvs[" + std::to_string(set) + "][" + std::to_string(v) + "]", "is not a finite number");
      }
    }
    attributes["TEXCOORD_" + std::to_string(set)] = float_accessor(p.uvs[set].data(), count, "VEC2", kArrayBuffer);
  }
  if (!p.colors.empty()) {
    // glTF colours are 0-1; COLOR_0 always tints the base colour, so colours a material does not use
    // are kept as the application-specific _COLOR_0, which viewers ignore.
    int view = 0;
    auto* out_c = reinterpret_cast<scene::Vec4*>(reserve_view(count * 16, kArrayBuffer, &view));
    for (std::size_t v = 0; v < count; ++v) {
      const scene::Vec4 c = p.colors[v];
      const auto clamp = [](float x) { return std::isfinite(x) ? std::clamp(x, 0.0f, 1.0f) : 0.0f; };
      out_c[v] = {clamp(c.x), clamp(c.y), clamp(c.z), clamp(c.w)};
    }
    const bool used = p.material >= 0 && static_cast<std::size_t>(p.material) < s_.materials.size() &&
                      s_.materials[static_cast<std::size_t>(p.material)].vertex_colors;
    attributes[used ? "COLOR_0" : "_COLOR_0"] = accessor(view, kFloat, count, "VEC4");
  }
  if (auto e = skinning(p, where, mesh, attributes); !e) return e.error();

  out = json::object();
  out["attributes"] = std::move(attributes);

  if (!p.indices.empty()) {
    for (std::size_t i = 0; i < p.indices.size(); ++i) {
      if (p.indices[i] >= count) {
        return bad(where + ".indices[" + std::to_string(i) + "]",
                   "is " + std::to_string(p.indices[i]) + " but the primitive has " + std::to_string(count) + " vertices");
      }
    }
    const bool triangles = p.topology == scene::Topology::triangles || p.topology == scene::Topology::triangle_strip ||
                           p.topology == scene::Topology::triangle_fan;
    if (p.topology == scene::Topology::triangles && p.indices.size() % 3 != 0) {
      return bad(where + ".indices", "has " + std::to_string(p.indices.size()) + " entries, not a multiple of 3");
    }
    std::vector<std::uint32_t> kept;
    const std::vector<std::uint32_t>* ix = &p.indices;
    int draw_mode = mode(p.topology);
    if (triangles && has_degenerate(p)) {
      kept = scene::drawn_triangles(p);
      ix = &kept;
      draw_mode = 4;
    }
    if (ix->empty()) return bad(where + ".indices", "draws no triangle once the degenerate ones (a repeated index) are dropped");
    int view = 0;
    if (count <= 0xFFFF) {  // 0xFFFF is primitive restart: only indices below it fit 16 bits
      auto* o = reinterpret_cast<std::uint16_t*>(reserve_view(ix->size() * 2, kElementArrayBuffer, &view));
      for (std::size_t i = 0; i < ix->size(); ++i) o[i] = static_cast<std::uint16_t>((*ix)[i]);
      out["indices"] = accessor(view, kUnsignedShort, ix->size(), "SCALAR");
    } else {
      std::memcpy(reserve_view(ix->size() * 4, kElementArrayBuffer, &view), ix->data(), ix->size() * 4);
      out["indices"] = accessor(view, kUnsignedInt, ix->size(), "SCALAR");
    }
    if (draw_mode != 4) out["mode"] = draw_mode;
  } else {
    if (p.topology == scene::Topology::triangles && count % 3 != 0) {
      return bad(where, "draws " + std::to_string(count) + " unindexed vertices as triangles, not a multiple of 3");
    }
    if (mode(p.topology) != 4) out["mode"] = mode(p.topology);
  }

  if (p.material >= 0) {
    if (static_cast<std::size_t>(p.material) >= s_.materials.size()) {
      return bad(where + ".material", "is " + std::to_string(p.material) + " but the scene has " +
                                          std::to_string(s_.materials.size()) + " materials");
    }
    const scene::Material& m = s_.materials[static_cast<std::size_t>(p.material)];
    if (m.texture >= 0 && (m.uv_set < 0 || static_cast<std::size_t>(m.uv_set) >= p.uvs.size())) {
      return bad(where + ".uvs", "has " + std::to_string(p.uvs.size()) + " UV sets but its material's texture uses set " +
                                     std::to_string(m.uv_set));
    }
    out["material"] = p.material;
  }
  put_extras(out, p.extras, {});
  return {};
}

// JOINTS_n/WEIGHTS_n, four influences a set: weights renormalised to sum to 1, a joint repeated in a
// vertex merged into its first slot, zero-weight slots pointing at joint 0 (what the validator wants).
Result<void> Writer::skinning(const scene::Primitive& p, const std::string& where, int mesh, json& attributes) {
  const std::size_t count = p.vertex_count();
  const std::size_t k = p.influences;
  if (k == 0) {
    if (!p.joints.empty() || !p.weights.empty()) return bad(where + ".influences", "is 0 but the primitive has joints or weights");
    return {};
  }
  if (k % 4 != 0) return bad(where + ".influences", "is " + std::to_string(k) + ", not a multiple of 4");
  if (p.joints.size() != count * k || p.weights.size() != count * k) {
    return bad(where + ".joints", "has " + std::to_string(p.joints.size()) + " joints and " + std::to_string(p.weights.size()) +
                                      " weights for " + std::to_string(count) + " vertices of " + std::to_string(k) + " influences");
  }
  const std::uint16_t max_joint = *std::max_element(p.joints.begin(), p.joints.end());
  auto& mesh_max = mesh_max_joint_[static_cast<std::size_t>(mesh)];
  mesh_max = std::max(mesh_max, static_cast<int>(max_joint));
  const bool narrow = max_joint < 256;
  const std::size_t sets = k / 4;
  std::vector<std::uint8_t*> joint_out(sets), weight_out(sets);
  std::vector<int> joint_view(sets), weight_view(sets);
  for (std::size_t s = 0; s < sets; ++s) {
    joint_out[s] = reserve_view(count * 4 * (narrow ? 1 : 2), kArrayBuffer, &joint_view[s]);
    weight_out[s] = reserve_view(count * 16, kArrayBuffer, &weight_view[s]);
  }
  std::vector<std::uint16_t> j(k);
  std::vector<float> w(k);
  for (std::size_t v = 0; v < count; ++v) {
    const std::uint16_t* jv = &p.joints[v * k];
    const float* wv = &p.weights[v * k];
    float sum = 0;
    for (std::size_t i = 0; i < k; ++i) {
      if (!finite(wv[i]) || wv[i] < 0) {
        return bad(where + ".weights[" + std::to_string(v * k + i) + "]", "is not a finite weight of at least 0");
      }
      j[i] = jv[i];
      w[i] = wv[i];
      if (w[i] == 0) j[i] = 0;
      for (std::size_t e = 0; e < i; ++e) {
        if (w[i] != 0 && w[e] != 0 && j[e] == j[i]) {
          w[e] += w[i];
          w[i] = 0;
          j[i] = 0;
          break;
        }
      }
      sum += wv[i];
    }
    if (!(sum > 0)) return bad(where + ".weights", "vertex " + std::to_string(v) + " has no weight on any joint");
    // A sum too small (denormal) or too large for its reciprocal to be finite and nonzero cannot be
    // renormalised in float: as good as no weight.
    const float scale = 1.0f / sum;
    if (!std::isfinite(scale) || !(scale > 0)) {
      char text[32];
      std::snprintf(text, sizeof text, "%.9g", static_cast<double>(sum));
      return bad(where + ".weights", "vertex " + std::to_string(v) + "'s weights sum to " + text + ", too small or too large to renormalise in float");
    }
    for (std::size_t i = 0; i < k; ++i) w[i] *= scale;
    for (std::size_t s = 0; s < sets; ++s) {
      if (narrow) {
        for (std::size_t i = 0; i < 4; ++i) joint_out[s][v * 4 + i] = static_cast<std::uint8_t>(j[s * 4 + i]);
      } else {
        std::memcpy(joint_out[s] + v * 8, &j[s * 4], 8);
      }
      std::memcpy(weight_out[s] + v * 16, &w[s * 4], 16);
    }
  }
  for (std::size_t s = 0; s < sets; ++s) {
    attributes["JOINTS_" + std::to_string(s)] = accessor(joint_view[s], narrow ? kUnsignedByte : kUnsignedShort, count, "VEC4");
    attributes["WEIGHTS_" + std::to_string(s)] = accessor(weight_view[s], kFloat, count, "VEC4");
  }
  mesh_skinned_[static_cast<std::size_t>(mesh)] = true;
  return {};
}

Result<void> Writer::meshes(json& out) {
  mesh_max_joint_.assign(s_.meshes.size(), -1);
  mesh_skinned_.assign(s_.meshes.size(), false);
  for (std::size_t m = 0; m < s_.meshes.size(); ++m) {
    const scene::Mesh& mesh = s_.meshes[m];
    const std::string where = "meshes[" + std::to_string(m) + "]";
    if (mesh.primitives.empty()) return bad(where, "has no primitives; a glTF mesh needs at least one");
    json prims = json::array();
    bool skinned = false, unskinned = false;
    for (std::size_t i = 0; i < mesh.primitives.size(); ++i) {
      json prim;
      if (auto e = primitive(mesh.primitives[i], where + ".primitives[" + std::to_string(i) + "]", static_cast<int>(m), prim); !e) return e.error();
      (mesh.primitives[i].influences > 0 ? skinned : unskinned) = true;
      prims.push_back(std::move(prim));
    }
    if (skinned && unskinned) return bad(where, "mixes skinned and unskinned primitives; a skinned mesh's primitives all need joints and weights");
    json o = json::object();
    put_name(o, mesh.name);
    o["primitives"] = std::move(prims);
    put_extras(o, mesh.extras, mesh.name);
    out.push_back(std::move(o));
  }
  return {};
}

Result<void> Writer::nodes(json& out) {
  const std::size_t n = s_.nodes.size();
  auto driven = visibility_driven();
  if (!driven) return driven.error();
  for (std::size_t i = 0; i < n; ++i) {
    const scene::Node& node = s_.nodes[i];
    const std::string where = "nodes[" + std::to_string(i) + "]";
    json o = json::object();
    put_name(o, node.name);
    if (!node.children.empty()) {
      for (int c : node.children) {
        if (c < 0 || static_cast<std::size_t>(c) >= n || s_.nodes[static_cast<std::size_t>(c)].parent != static_cast<int>(i)) {
          return bad(where + ".children", "lists node " + std::to_string(c) + ", which is not a node whose parent is " + std::to_string(i));
        }
      }
      o["children"] = node.children;
    }
    if (node.parent >= static_cast<int>(n)) return bad(where + ".parent", "is not a node");
    const scene::Trs& t = node.local;
    const std::array<float, 10> all{t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                                    t.rotation.z, t.rotation.w, t.scale.x, t.scale.y, t.scale.z};
    for (float v : all) if (!finite(v)) return bad(where + ".local", "has a transform value that is not a finite number");
    if (t.translation != scene::Vec3{0, 0, 0}) o["translation"] = {t.translation.x, t.translation.y, t.translation.z};
    if (t.rotation != scene::Quat{}) {
      const scene::Quat q = unit_rotation(t.rotation);
      o["rotation"] = {q.x, q.y, q.z, q.w};
    }
    if (t.scale != scene::Vec3{1, 1, 1}) o["scale"] = {t.scale.x, t.scale.y, t.scale.z};
    if (node.mesh >= 0) {
      if (static_cast<std::size_t>(node.mesh) >= s_.meshes.size()) return bad(where + ".mesh", "is not a mesh");
      const auto mesh = static_cast<std::size_t>(node.mesh);
      if (node.skin >= 0) {
        if (static_cast<std::size_t>(node.skin) >= s_.skins.size()) return bad(where + ".skin", "is not a skin");
        if (!mesh_skinned_[mesh]) return bad(where + ".skin", "is set but mesh " + std::to_string(mesh) + " has no joints and weights");
        const std::size_t joints = s_.skins[static_cast<std::size_t>(node.skin)].joints.size();
        if (mesh_max_joint_[mesh] >= static_cast<int>(joints)) {
          return bad(where + ".skin", "has " + std::to_string(joints) + " joints but mesh " + std::to_string(mesh) + " uses joint " +
                                          std::to_string(mesh_max_joint_[mesh]));
        }
      } else if (mesh_skinned_[mesh]) {
        return bad(where + ".skin", "is not set but mesh " + std::to_string(mesh) + " has joints and weights");
      }
      o["mesh"] = node.mesh;
      if (node.skin >= 0) o["skin"] = node.skin;
    } else if (node.skin >= 0) {
      return bad(where + ".skin", "is set on a node without a mesh");
    }
    if ((*driven)[i]) {
      // Shown at rest, as the model draws without its animation; stated: a pointer must name a property that is there.
      o["extensions"] = {{"KHR_node_visibility", {{"visible", true}}}};
      used_.insert("KHR_node_visibility");
    }
    put_extras(o, node.extras, node.name);
    out.push_back(std::move(o));
  }
  return {};
}

Result<void> Writer::skins(json& out) {
  for (std::size_t k = 0; k < s_.skins.size(); ++k) {
    const scene::Skin& skin = s_.skins[k];
    const std::string where = "skins[" + std::to_string(k) + "]";
    if (skin.joints.empty()) return bad(where + ".joints", "is empty; a glTF skin needs at least one joint");
    std::vector<bool> seen(s_.nodes.size(), false);
    for (int j : skin.joints) {
      if (j < 0 || static_cast<std::size_t>(j) >= s_.nodes.size()) return bad(where + ".joints", "lists " + std::to_string(j) + ", which is not a node");
      if (seen[static_cast<std::size_t>(j)]) return bad(where + ".joints", "lists node " + std::to_string(j) + " twice");
      seen[static_cast<std::size_t>(j)] = true;
    }
    json o = json::object();
    put_name(o, skin.name);
    if (!skin.inverse_bind_matrices.empty()) {
      if (skin.inverse_bind_matrices.size() != skin.joints.size()) {
        return bad(where + ".inverse_bind_matrices", "has " + std::to_string(skin.inverse_bind_matrices.size()) + " matrices for " +
                                                         std::to_string(skin.joints.size()) + " joints");
      }
      for (const scene::Mat4& m : skin.inverse_bind_matrices) {
        for (float v : m.m) if (!finite(v)) return bad(where + ".inverse_bind_matrices", "has a value that is not a finite number");
      }
      o["inverseBindMatrices"] = float_accessor(skin.inverse_bind_matrices.data(), skin.inverse_bind_matrices.size(), "MAT4", 0);
    }
    if (skin.skeleton >= 0) {
      // glTF's skeleton is the joints' common root: every joint must be it or below it.
      if (static_cast<std::size_t>(skin.skeleton) >= s_.nodes.size()) return bad(where + ".skeleton", "is not a node");
      for (int j : skin.joints) {
        int a = j;
        for (std::size_t steps = 0; a >= 0 && a != skin.skeleton && steps <= s_.nodes.size(); ++steps) {
          a = s_.nodes[static_cast<std::size_t>(a)].parent;
        }
        if (a != skin.skeleton) return bad(where + ".skeleton", "node " + std::to_string(skin.skeleton) + " is not an ancestor of joint " + std::to_string(j));
      }
      o["skeleton"] = skin.skeleton;
    }
    o["joints"] = skin.joints;
    put_extras(o, skin.extras, skin.name);
    out.push_back(std::move(o));
  }
  return {};
}

Result<void> Writer::materials(json& out) {
  for (std::size_t i = 0; i < s_.materials.size(); ++i) {
    const scene::Material& m = s_.materials[i];
    const std::string where = "materials[" + std::to_string(i) + "]";
    json o = json::object();
    put_name(o, m.name);
    json pbr = json::object();
    const scene::Vec4& c = m.base_color;
    for (float v : {c.x, c.y, c.z, c.w}) if (!finite(v)) return bad(where + ".base_color", "is not a finite colour");
    const auto unit = [](float v) { return std::clamp(v, 0.0f, 1.0f); };
    if (c != scene::Vec4{1, 1, 1, 1}) pbr["baseColorFactor"] = {unit(c.x), unit(c.y), unit(c.z), unit(c.w)};
    if (m.texture >= 0) {
      if (static_cast<std::size_t>(m.texture) >= s_.textures.size()) return bad(where + ".texture", "is not a texture");
      json t = {{"index", m.texture}};
      if (m.uv_set != 0) t["texCoord"] = m.uv_set;
      if (const auto& x = m.texture_transform) {
        // All three written, defaults too: an animation pointer must name a property that is there.
        if (!finite(x->offset) || !finite(x->rotation) || !finite(x->scale)) return bad(where + ".texture_transform", "is not finite");
        t["extensions"] = {{"KHR_texture_transform", {{"offset", {x->offset.x, x->offset.y}}, {"rotation", x->rotation}, {"scale", {x->scale.x, x->scale.y}}}}};
        used_.insert("KHR_texture_transform");
      }
      pbr["baseColorTexture"] = std::move(t);
    }
    pbr["metallicFactor"] = 0;  // game materials are dielectric; glTF's default of 1 renders them black
    o["pbrMetallicRoughness"] = std::move(pbr);
    if (m.alpha_mode == scene::AlphaMode::mask) {
      o["alphaMode"] = "MASK";
      if (!finite(m.alpha_cutoff) || m.alpha_cutoff < 0) return bad(where + ".alpha_cutoff", "is not a number of at least 0");
      if (m.alpha_cutoff != 0.5f) o["alphaCutoff"] = m.alpha_cutoff;
    } else if (m.alpha_mode == scene::AlphaMode::blend) {
      o["alphaMode"] = "BLEND";
    }
    if (m.double_sided) o["doubleSided"] = true;
    if (m.unlit) {
      o["extensions"] = {{"KHR_materials_unlit", json::object()}};
      used_.insert("KHR_materials_unlit");
    }
    put_extras(o, m.extras, m.name);
    out.push_back(std::move(o));
  }
  return {};
}

Result<void> Writer::textures(json& textures, json& images, json& samplers, const std::string& image_stem) {
  std::vector<scene::Sampler> distinct;
  for (std::size_t i = 0; i < s_.textures.size(); ++i) {
    const scene::Texture& t = s_.textures[i];
    const std::string where = "textures[" + std::to_string(i) + "]";
    if (t.image.width == 0 || t.image.height == 0 || t.image.rgba.size() != std::size_t{t.image.width} * t.image.height * 4) {
      return bad(where + ".image", "is empty or its pixels do not match its size");
    }
    Bytes png = write_png(t.image);
    json image = json::object();
    put_name(image, t.name);
    if (embed_images_) {
      int view = 0;
      std::memcpy(reserve_view(png.size(), 0, &view), png.data(), png.size());
      image["bufferView"] = view;
      image["mimeType"] = "image/png";
    } else {
      std::string uri = image_stem + "_" + std::to_string(i);
      if (!t.name.empty()) uri += "_" + safe_file_name(t.name);
      uri += ".png";
      image["uri"] = uri;
      this->images.push_back(Resource{uri, std::move(png)});
    }
    images.push_back(std::move(image));

    const auto found = std::find(distinct.begin(), distinct.end(), t.sampler);
    const std::size_t sampler = static_cast<std::size_t>(found - distinct.begin());
    if (found == distinct.end()) {
      distinct.push_back(t.sampler);
      samplers.push_back({{"magFilter", gl_mag_filter(t.sampler.mag)},
                          {"minFilter", gl_filter(t.sampler.min)},
                          {"wrapS", gl_wrap(t.sampler.wrap_s)},
                          {"wrapT", gl_wrap(t.sampler.wrap_t)}});
    }
    json o = json::object();
    put_name(o, t.name);
    o["sampler"] = sampler;
    o["source"] = i;
    scene::Extras extras = t.extras;
    if (!t.encoding.empty()) {
      if (extras.is_null()) extras = scene::Extras::object();
      if (extras.is_object() && !extras.contains("encoding")) extras["encoding"] = t.encoding;
    }
    put_extras(o, extras, t.name);
    textures.push_back(std::move(o));
  }
  return {};
}

Result<void> Writer::build(const std::string& bin_uri, const std::string& image_stem) {
  bin.reserve(estimate_buffer(s_));
  advise_huge_pages(bin.data(), bin.capacity());
  doc = json::object();
  doc["asset"] = {{"version", "2.0"}, {"generator", "remodel"}};
  json mesh_list = json::array(), node_list = json::array(), skin_list = json::array(), material_list = json::array(),
       texture_list = json::array(), image_list = json::array(), sampler_list = json::array(), animation_list = json::array();
  if (auto e = meshes(mesh_list); !e) return e.error();
  if (auto e = nodes(node_list); !e) return e.error();
  if (auto e = skins(skin_list); !e) return e.error();
  if (auto e = materials(material_list); !e) return e.error();
  if (auto e = animations(animation_list); !e) return e.error();
  if (auto e = textures(texture_list, image_list, sampler_list, image_stem); !e) return e.error();

  json scenes = json::array();
  if (s_.scenes.empty() && !s_.nodes.empty()) {
    json roots = json::array();
    for (std::size_t i = 0; i < s_.nodes.size(); ++i) {
      if (s_.nodes[i].parent < 0 && s_.nodes[i].visible) roots.push_back(i);
    }
    scenes.push_back({{"nodes", std::move(roots)}});
  }
  for (std::size_t i = 0; i < s_.scenes.size(); ++i) {
    const scene::SceneRoots& r = s_.scenes[i];
    json o = json::object();
    put_name(o, r.name);
    for (int n : r.nodes) {
      if (n < 0 || static_cast<std::size_t>(n) >= s_.nodes.size() || s_.nodes[static_cast<std::size_t>(n)].parent >= 0) {
        return bad("scenes[" + std::to_string(i) + "].nodes", "lists " + std::to_string(n) + ", which is not a root node");
      }
    }
    o["nodes"] = r.nodes;
    scenes.push_back(std::move(o));
  }
  if (!used_.empty()) doc["extensionsUsed"] = used_;
  json extras = {{"extras_version", kExtrasVersion}};  // not "version": PMP and BWM lifts keep their own
  if (s_.extras.is_object()) {
    for (const auto& [key, value] : s_.extras.items()) extras[key] = json_extras(value);
  } else if (!s_.extras.is_null()) {
    extras["value"] = json_extras(s_.extras);
  }
  doc["extras"] = {{"remodel", std::move(extras)}};
  if (!scenes.empty()) {
    doc["scene"] = 0;
    doc["scenes"] = std::move(scenes);
  }
  const auto put = [&](const char* key, json& list) {
    if (!list.empty()) doc[key] = std::move(list);
  };
  put("nodes", node_list);
  put("meshes", mesh_list);
  put("skins", skin_list);
  put("materials", material_list);
  put("textures", texture_list);
  put("images", image_list);
  put("samplers", sampler_list);
  put("animations", animation_list);
  put("accessors", accessors_);
  put("bufferViews", views_);
  bin.resize((bin.size() + 3) & ~std::size_t{3}, 0);  // the BIN chunk and buffer end 4-aligned
  if (!bin.empty()) {
    json buffer = {{"byteLength", bin.size()}};
    if (!bin_uri.empty()) buffer["uri"] = bin_uri;
    doc["buffers"] = json::array({std::move(buffer)});
  }
  return {};
}

}  // namespace detail

namespace {

using detail::Writer;

void append_u32(Bytes& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace

scene::Vec3 unit_normal(scene::Vec3 n) {
  const double x = n.x, y = n.y, z = n.z;
  const double len2 = x * x + y * y + z * z;
  if (unit_within_rounding(len2)) return n;
  const double len = std::sqrt(len2);
  if (!(len > 1e-12) || !std::isfinite(len)) return scene::Vec3{0, 1, 0};
  return scene::Vec3{static_cast<float>(x / len), static_cast<float>(y / len), static_cast<float>(z / len)};
}

scene::Quat unit_rotation(scene::Quat q) {
  const double len2 = static_cast<double>(q.x) * q.x + static_cast<double>(q.y) * q.y + static_cast<double>(q.z) * q.z +
                      static_cast<double>(q.w) * q.w;
  return unit_within_rounding(len2) ? q : scene::normalize(q);
}

Result<Bytes> write_glb(const Scene& scene) try {
  Writer w(scene, true);
  if (auto e = w.build("", ""); !e) return e.error();
  std::string text = w.doc.dump(-1, ' ', false, json::error_handler_t::replace);
  text.resize((text.size() + 3) & ~std::size_t{3}, ' ');  // the JSON chunk is padded with spaces
  const std::size_t total = 12 + 8 + text.size() + (w.bin.empty() ? 0 : 8 + w.bin.size());
  if (total > std::numeric_limits<std::uint32_t>::max()) {
    return Error{ErrorCode::unsupported, std::nullopt, "glb", "is " + std::to_string(total) + " bytes; a .glb holds at most 4 GiB"};
  }
  Bytes head;
  head.reserve(28 + text.size());
  append_u32(head, 0x46546C67);  // "glTF"
  append_u32(head, 2);
  append_u32(head, static_cast<std::uint32_t>(total));
  append_u32(head, static_cast<std::uint32_t>(text.size()));
  append_u32(head, 0x4E4F534A);  // "JSON"
  head.insert(head.end(), text.begin(), text.end());
  if (w.bin.empty()) return head;
  append_u32(head, static_cast<std::uint32_t>(w.bin.size()));
  append_u32(head, 0x004E4942);  // "BIN\0"
  // The BIN chunk stays where it was written: the header and JSON move in front of it, within the
  // capacity reserved for them (no second buffer of the model's size).
  w.bin.insert(w.bin.begin(), head.begin(), head.end());
  return std::move(w.bin);
} catch (...) {
  return caught_allocation_failure();
}

Result<GltfFiles> write_gltf(const Scene& scene, std::string_view stem) try {
  const std::string safe = safe_file_name(stem);
  Writer w(scene, false);
  if (auto e = w.build(safe + ".bin", safe); !e) return e.error();
  const std::string text = w.doc.dump(1, '\t', false, json::error_handler_t::replace) + "\n";
  GltfFiles files;
  files.gltf.assign(text.begin(), text.end());
  if (!w.bin.empty()) files.resources.push_back(Resource{safe + ".bin", std::move(w.bin)});
  for (Resource& r : w.images) files.resources.push_back(std::move(r));
  return files;
} catch (...) {
  return caught_allocation_failure();
}

}  // namespace remodel::gltf
