// Checked glTF document -> Scene: nodes, meshes, skins, materials, textures, animations and scenes,
// each value checked where the Scene or a lower relies on it (indices inside the vertices, joints
// that are nodes, no node cycles, finite numbers), errors naming the glTF location.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>

#include "gltf/reader_document.hpp"
#include "scene/anim_channels.hpp"

namespace remodel::gltf {

namespace {

using detail::bad;
using detail::json;
using scene::Scene;

std::string at(const std::string& where, std::size_t i) { return where + "[" + std::to_string(i) + "]"; }

// The array `key` of the root (absent: empty); anything but an array of objects is an Error.
Result<const json*> list(const json& root, const char* key) {
  static const json empty = json::array();
  if (!root.contains(key)) return &empty;
  const json& l = root[key];
  if (!l.is_array()) return bad(key, "is not an array");
  for (std::size_t i = 0; i < l.size(); ++i) {
    if (!l[i].is_object()) return bad(at(key, i), "is not an object");
  }
  return &l;
}

// Reads `count` finite numbers from o[key] (absent: keeps `out`).
Result<void> numbers(const json& o, const char* key, float* out, std::size_t count, const std::string& where) {
  if (!o.contains(key)) return {};
  const json& v = o[key];
  if (!v.is_array() || v.size() != count) return bad(where + "." + key, "is not an array of " + std::to_string(count) + " numbers");
  for (std::size_t i = 0; i < count; ++i) {
    if (!v[i].is_number() || !std::isfinite(v[i].get<double>())) return bad(where + "." + key, "holds something that is not a finite number");
    out[i] = v[i].get<float>();
  }
  return {};
}

int hex_digit(char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; }

// The element's name, and its `extras.remodel` object without the keys the writer added; a name
// that was not UTF-8 comes back from name_bytes.
Result<scene::Extras> name_and_extras(const json& o, std::string& name, const std::string& where) {
  if (o.contains("name")) {
    if (!o["name"].is_string()) return bad(where + ".name", "is not a string");
    name = o["name"].get<std::string>();
  }
  if (!o.contains("extras") || !o["extras"].is_object() || !o["extras"].contains("remodel")) return scene::Extras();
  scene::Extras extras = o["extras"]["remodel"];
  if (extras.is_object() && extras.contains("name_bytes")) {
    const json& hex = extras["name_bytes"];
    if (!hex.is_string() || hex.get<std::string>().size() % 2 != 0) return bad(where + ".extras.remodel.name_bytes", "is not a hex string");
    const std::string text = hex.get<std::string>();
    std::string bytes;
    for (std::size_t i = 0; i < text.size(); i += 2) {
      const int hi = hex_digit(text[i]), lo = hex_digit(text[i + 1]);
      if (hi < 0 || lo < 0) return bad(where + ".extras.remodel.name_bytes", "is not a hex string");
      bytes += static_cast<char>(hi * 16 + lo);
    }
    name = std::move(bytes);
    extras.erase("name_bytes");
    extras.erase("name_encoding");
  }
  if (extras.is_object() && extras.empty()) return scene::Extras();
  return extras;
}

class SceneReader {
 public:
  SceneReader(const detail::Document& d, std::vector<Warning>& warnings) : d_(d), warnings_(warnings) {}
  Result<Scene> read();

 private:
  const detail::Document& d_;
  std::vector<Warning>& warnings_;
  Scene s_;
  std::vector<RgbaImage> images_;         // each image source decoded once
  std::vector<std::size_t> image_of_;     // per glTF image: its entry in images_
  std::vector<std::string> image_names_;  // per glTF image: its name, else its URI's file stem

  void warn(std::string where, std::string message) { warnings_.push_back({std::move(where), std::move(message)}); }
  // Each object of the root's `key` list into `out` (sized first: a node names later nodes), its name
  // and extras read here, the rest by `read(object, where, index)`.
  template <typename T, typename Read>
  Result<void> each_named(const char* key, std::vector<T>& out, Read&& read) {
    auto l = list(d_.root, key);
    if (!l) return l.error();
    const json& items = **l;
    out.resize(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string where = at(key, i);
      auto extras = name_and_extras(items[i], out[i].name, where);
      if (!extras) return extras.error();
      out[i].extras = std::move(*extras);
      if (auto e = read(items[i], where, i); !e) return e.error();
    }
    return {};
  }
  Result<void> nodes();
  Result<void> meshes();
  Result<void> primitive(const json& o, const std::string& where, scene::Primitive& p);
  Result<void> skins();
  Result<void> materials();
  Result<void> textures();
  Result<void> animations();
  Result<void> scenes();
  Result<void> skinned_meshes();
};

Result<void> SceneReader::nodes() {
  const std::size_t count = d_.root.contains("nodes") && d_.root["nodes"].is_array() ? d_.root["nodes"].size() : 0;
  auto read = each_named("nodes", s_.nodes, [&](const json& o, const std::string& where, std::size_t i) -> Result<void> {
    scene::Node& n = s_.nodes[i];
    if (o.contains("children")) {
      const json& c = o["children"];
      if (!c.is_array()) return bad(where + ".children", "is not an array");
      for (const json& child : c) {
        if (!child.is_number_unsigned() || child.get<std::uint64_t>() >= count) {
          return bad(where + ".children", "lists " + child.dump() + ", which is not a node", ErrorCode::bad_offset);
        }
        const auto k = child.get<std::size_t>();
        if (k == i) return bad(where + ".children", "lists the node itself");
        if (s_.nodes[k].parent >= 0) {
          return bad(where + ".children", "lists node " + std::to_string(k) + ", already a child of node " + std::to_string(s_.nodes[k].parent));
        }
        s_.nodes[k].parent = static_cast<int>(i);
        n.children.push_back(static_cast<int>(k));
      }
    }
    if (o.contains("matrix")) {
      if (o.contains("translation") || o.contains("rotation") || o.contains("scale")) {
        return bad(where + ".matrix", "is given with translation, rotation or scale; glTF allows one or the other");
      }
      scene::Mat4 m;
      if (auto e = numbers(o, "matrix", m.m.data(), 16, where); !e) return e.error();
      n.local = scene::decompose(m);
    } else {
      if (auto e = numbers(o, "translation", &n.local.translation.x, 3, where); !e) return e.error();
      float q[4] = {0, 0, 0, 1};
      if (auto e = numbers(o, "rotation", q, 4, where); !e) return e.error();
      n.local.rotation = {q[0], q[1], q[2], q[3]};
      if (auto e = numbers(o, "scale", &n.local.scale.x, 3, where); !e) return e.error();
    }
    auto mesh = detail::index_of(o, "mesh", d_.root.contains("meshes") && d_.root["meshes"].is_array() ? d_.root["meshes"].size() : 0, where, "mesh");
    if (!mesh) return mesh.error();
    n.mesh = *mesh;
    auto skin = detail::index_of(o, "skin", d_.root.contains("skins") && d_.root["skins"].is_array() ? d_.root["skins"].size() : 0, where, "skin");
    if (!skin) return skin.error();
    n.skin = *skin;
    if (n.skin >= 0 && n.mesh < 0) return bad(where + ".skin", "is set on a node without a mesh");
    if (o.contains("weights")) warn(where + ".weights", "morph target weights are not read");
    return {};
  });
  if (!read) return read;
  // Every node has at most one parent, so a node no root reaches lies on (or under) a cycle.
  std::vector<bool> reached(count, false);
  std::vector<int> stack;
  for (std::size_t i = 0; i < count; ++i) if (s_.nodes[i].parent < 0) stack.push_back(static_cast<int>(i));
  while (!stack.empty()) {
    const int k = stack.back();
    stack.pop_back();
    reached[static_cast<std::size_t>(k)] = true;
    for (int c : s_.nodes[static_cast<std::size_t>(k)].children) stack.push_back(c);
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (!reached[i]) return bad(at("nodes", i) + ".children", "node " + std::to_string(i) + " is its own ancestor (the hierarchy has a cycle)");
  }
  return {};
}

Result<void> SceneReader::primitive(const json& o, const std::string& where, scene::Primitive& p) {
  if (!o.contains("attributes") || !o["attributes"].is_object()) return bad(where + ".attributes", "is missing or not an object");
  const json& attributes = o["attributes"];
  const std::string attr = where + ".attributes.";
  std::size_t count = 0;
  // The accessor an attribute names, checked for its type and (after POSITION) the vertex count.
  const auto get = [&](const std::string& name, std::initializer_list<const char*> types) -> Result<int> {
    auto a = d_.accessor(attributes[name], attr + name);
    if (!a) return a.error();
    const detail::Accessor& acc = **a;
    if (std::find_if(types.begin(), types.end(), [&](const char* t) { return acc.type == t; }) == types.end()) {
      return bad(attr + name, "is an accessor of type " + acc.type + ", which this attribute cannot be");
    }
    if (name != "POSITION" && acc.count != count) {
      return bad(attr + name, "has " + std::to_string(acc.count) + " elements but POSITION has " + std::to_string(count), ErrorCode::bad_count);
    }
    return static_cast<int>(*a - d_.accessors.data());
  };
  if (!attributes.contains("POSITION")) return bad(attr + "POSITION", "is missing; every primitive read needs positions");
  {
    auto a = d_.accessor(attributes["POSITION"], attr + "POSITION");
    if (!a) return a.error();
    count = (*a)->count;
  }
  auto position = get("POSITION", {"VEC3"});
  if (!position) return position.error();
  p.positions.resize(count);
  if (auto e = d_.floats_into(*position, attr + "POSITION", p.positions.data()); !e) return e.error();
  if (attributes.contains("NORMAL")) {
    auto a = get("NORMAL", {"VEC3"});
    if (!a) return a.error();
    p.normals.resize(count);
    if (auto e = d_.floats_into(*a, attr + "NORMAL", p.normals.data()); !e) return e.error();
  }
  for (const char* name : {"COLOR_0", "_COLOR_0"}) {
    if (!attributes.contains(name) || !p.colors.empty()) continue;
    auto a = get(name, {"VEC3", "VEC4"});
    if (!a) return a.error();
    auto v = d_.floats(*a, attr + name);
    if (!v) return v.error();
    const std::size_t width = d_.accessors[static_cast<std::size_t>(*a)].width;
    p.colors.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      const float* c = &(*v)[i * width];
      p.colors[i] = {c[0], c[1], c[2], width == 4 ? c[3] : 1.0f};
    }
  }
  for (std::size_t set = 0; attributes.contains("TEXCOORD_" + std::to_string(set)); ++set) {
    const std::string name = "TEXCOORD_" + std::to_string(set);
    auto a = get(name, {"VEC2"});
    if (!a) return a.error();
    p.uvs.emplace_back(count);
    if (auto e = d_.floats_into(*a, attr + name, p.uvs.back().data()); !e) return e.error();
  }
  std::size_t sets = 0;
  while (attributes.contains("JOINTS_" + std::to_string(sets)) || attributes.contains("WEIGHTS_" + std::to_string(sets))) ++sets;
  if (sets > 0) {
    p.influences = static_cast<std::uint32_t>(sets * 4);
    p.joints.resize(count * sets * 4);
    p.weights.resize(count * sets * 4);
    for (std::size_t s = 0; s < sets; ++s) {
      const std::string jn = "JOINTS_" + std::to_string(s), wn = "WEIGHTS_" + std::to_string(s);
      if (!attributes.contains(jn) || !attributes.contains(wn)) return bad(attr + (attributes.contains(jn) ? wn : jn), "is missing; joints and weights come in pairs");
      auto ja = get(jn, {"VEC4"});
      if (!ja) return ja.error();
      auto j = d_.uints(*ja, attr + jn);
      if (!j) return j.error();
      auto wa = get(wn, {"VEC4"});
      if (!wa) return wa.error();
      // One set (the usual case) has the Scene's layout: read straight into it.
      Result<std::vector<float>> w = std::vector<float>();
      if (sets == 1) {
        if (auto e = d_.floats_into(*wa, attr + wn, p.weights.data()); !e) return e.error();
      } else {
        w = d_.floats(*wa, attr + wn);
        if (!w) return w.error();
      }
      const float* weights = sets == 1 ? p.weights.data() : w->data();
      for (std::size_t v = 0; v < count; ++v) {
        for (std::size_t k = 0; k < 4; ++k) {
          const std::uint32_t joint = (*j)[v * 4 + k];
          const float weight = weights[v * 4 + k];
          if (joint > 0xFFFF) return bad(attr + jn, "vertex " + std::to_string(v) + " names joint " + std::to_string(joint) + "; at most 65535 are read");
          if (weight < 0) return bad(attr + wn, "vertex " + std::to_string(v) + " has a negative weight");
          p.joints[v * sets * 4 + s * 4 + k] = static_cast<std::uint16_t>(joint);
          p.weights[v * sets * 4 + s * 4 + k] = weight;
        }
      }
    }
  }
  if (o.contains("targets")) warn(where + ".targets", "morph targets are not read");

  int mode = 4;
  if (o.contains("mode")) {
    if (!o["mode"].is_number_unsigned() || o["mode"].get<std::uint64_t>() > 6) return bad(where + ".mode", "is not a glTF primitive mode (0-6)");
    mode = o["mode"].get<int>();
  }
  if (o.contains("indices")) {
    auto a = d_.accessor(o["indices"], where + ".indices");
    if (!a) return a.error();
    if ((*a)->type != "SCALAR") return bad(where + ".indices", "is an accessor of type " + (*a)->type + ", not SCALAR");
    auto ix = d_.uints(static_cast<int>(*a - d_.accessors.data()), where + ".indices");
    if (!ix) return ix.error();
    for (std::size_t i = 0; i < ix->size(); ++i) {
      if ((*ix)[i] >= count) {
        return bad(where + ".indices", "entry " + std::to_string(i) + " is " + std::to_string((*ix)[i]) + " but the primitive has " +
                                           std::to_string(count) + " vertices", ErrorCode::bad_offset);
      }
    }
    p.indices = std::move(*ix);
  }
  static constexpr scene::Topology kTopology[] = {scene::Topology::points, scene::Topology::lines, scene::Topology::lines,
                                                  scene::Topology::lines, scene::Topology::triangles, scene::Topology::triangle_strip,
                                                  scene::Topology::triangle_fan};
  p.topology = kTopology[mode];
  if (mode == 2 || mode == 3) {
    // LINE_LOOP and LINE_STRIP become the line list they draw (the Scene has no loops or line strips).
    std::vector<std::uint32_t> drawn = p.indices;
    if (!o.contains("indices")) {
      drawn.resize(count);
      for (std::size_t i = 0; i < count; ++i) drawn[i] = static_cast<std::uint32_t>(i);
    }
    p.indices.clear();
    for (std::size_t i = 0; i + 1 < drawn.size(); ++i) p.indices.insert(p.indices.end(), {drawn[i], drawn[i + 1]});
    if (mode == 2 && drawn.size() > 2) p.indices.insert(p.indices.end(), {drawn.back(), drawn.front()});
    if (p.indices.empty()) return bad(where + ".mode", "draws a line strip or loop of fewer than 2 vertices");
    warn(where + ".mode", mode == 2 ? "LINE_LOOP is read as the lines it draws" : "LINE_STRIP is read as the lines it draws");
  }
  const std::size_t drawn = p.indices.empty() ? count : p.indices.size();
  if ((mode == 4 && drawn % 3 != 0) || (mode == 1 && drawn % 2 != 0)) {
    return bad(o.contains("indices") ? where + ".indices" : where + ".attributes.POSITION",
               "draws " + std::to_string(drawn) + " vertices, not a whole number of " + (mode == 4 ? "triangles" : "lines"), ErrorCode::bad_count);
  }
  auto material = detail::index_of(o, "material", s_.materials.size(), where, "material");
  if (!material) return material.error();
  p.material = *material;
  if (p.material >= 0 && attributes.contains("COLOR_0")) s_.materials[static_cast<std::size_t>(p.material)].vertex_colors = true;
  // A texture read through a UV set the primitive lacks has no coordinates to read (the validator's
  // MESH_PRIMITIVE_TOO_FEW_TEXCOORDS); a writer would send none and draw from what is not there.
  if (p.material >= 0) {
    const scene::Material& m = s_.materials[static_cast<std::size_t>(p.material)];
    if (m.texture >= 0 && static_cast<std::size_t>(m.uv_set) >= p.uvs.size()) {
      return bad(where + ".attributes", "has " + std::to_string(p.uvs.size()) + " UV sets, but its material (materials[" + std::to_string(p.material) +
                                            "]) reads its texture through TEXCOORD_" + std::to_string(m.uv_set),
                 ErrorCode::inconsistent);
    }
  }
  std::string unused;
  auto extras = name_and_extras(o, unused, where);
  if (!extras) return extras.error();
  p.extras = std::move(*extras);
  return {};
}

Result<void> SceneReader::meshes() {
  return each_named("meshes", s_.meshes, [&](const json& o, const std::string& where, std::size_t m) -> Result<void> {
    scene::Mesh& mesh = s_.meshes[m];
    if (!o.contains("primitives") || !o["primitives"].is_array() || o["primitives"].empty()) {
      return bad(where + ".primitives", "is missing or empty");
    }
    for (std::size_t i = 0; i < o["primitives"].size(); ++i) {
      const json& p = o["primitives"][i];
      if (!p.is_object()) return bad(at(where + ".primitives", i), "is not an object");
      mesh.primitives.emplace_back();
      if (auto e = primitive(p, at(where + ".primitives", i), mesh.primitives.back()); !e) return e.error();
    }
    if (o.contains("weights")) warn(where + ".weights", "morph target weights are not read");
    return {};
  });
}

Result<void> SceneReader::skins() {
  return each_named("skins", s_.skins, [&](const json& o, const std::string& where, std::size_t k) -> Result<void> {
    scene::Skin& skin = s_.skins[k];
    if (!o.contains("joints") || !o["joints"].is_array() || o["joints"].empty()) return bad(where + ".joints", "is missing or empty");
    std::vector<bool> seen(s_.nodes.size(), false);
    for (std::size_t j = 0; j < o["joints"].size(); ++j) {
      const json& v = o["joints"][j];
      if (!v.is_number_unsigned() || v.get<std::uint64_t>() >= s_.nodes.size()) {
        return bad(at(where + ".joints", j), "is " + v.dump() + ", which is not a node", ErrorCode::bad_offset);
      }
      if (seen[v.get<std::size_t>()]) return bad(at(where + ".joints", j), "lists node " + v.dump() + " a second time");
      seen[v.get<std::size_t>()] = true;
      skin.joints.push_back(v.get<int>());
    }
    if (o.contains("inverseBindMatrices")) {
      auto a = d_.accessor(o["inverseBindMatrices"], where + ".inverseBindMatrices");
      if (!a) return a.error();
      if ((*a)->type != "MAT4" || (*a)->count != skin.joints.size()) {
        return bad(where + ".inverseBindMatrices", "is " + std::to_string((*a)->count) + " " + (*a)->type + " for " +
                                                      std::to_string(skin.joints.size()) + " joints; one MAT4 per joint is required", ErrorCode::bad_count);
      }
      auto v = d_.floats(static_cast<int>(*a - d_.accessors.data()), where + ".inverseBindMatrices");
      if (!v) return v.error();
      skin.inverse_bind_matrices.resize(skin.joints.size());
      std::memcpy(static_cast<void*>(skin.inverse_bind_matrices.data()), v->data(), v->size() * 4);
    }
    auto skeleton = detail::index_of(o, "skeleton", s_.nodes.size(), where, "node");
    if (!skeleton) return skeleton.error();
    skin.skeleton = *skeleton;
    return {};
  });
}

// A skinned mesh's joint indices must name joints of the skin that draws it.
Result<void> SceneReader::skinned_meshes() {
  for (std::size_t i = 0; i < s_.nodes.size(); ++i) {
    const scene::Node& n = s_.nodes[i];
    if (n.skin < 0) continue;
    const std::size_t joints = s_.skins[static_cast<std::size_t>(n.skin)].joints.size();
    const scene::Mesh& mesh = s_.meshes[static_cast<std::size_t>(n.mesh)];
    for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
      const std::string where = "meshes[" + std::to_string(n.mesh) + "].primitives[" + std::to_string(p) + "].attributes.JOINTS_0";
      const scene::Primitive& prim = mesh.primitives[p];
      if (prim.influences == 0) return bad(where, "is missing but node " + std::to_string(i) + " draws the mesh with skin " + std::to_string(n.skin));
      for (std::size_t k = 0; k < prim.joints.size(); ++k) {
        if (prim.weights[k] != 0 && prim.joints[k] >= joints) {
          return bad(where, "vertex " + std::to_string(k / prim.influences) + " names joint " + std::to_string(prim.joints[k]) + " but skin " +
                                std::to_string(n.skin) + " has " + std::to_string(joints) + " joints", ErrorCode::bad_offset);
        }
      }
    }
  }
  return {};
}

Result<void> SceneReader::materials() {
  const std::size_t textures = d_.root.contains("textures") && d_.root["textures"].is_array() ? d_.root["textures"].size() : 0;
  return each_named("materials", s_.materials, [&](const json& o, const std::string& where, std::size_t i) -> Result<void> {
    scene::Material& m = s_.materials[i];
    if (o.contains("pbrMetallicRoughness")) {
      const json& pbr = o["pbrMetallicRoughness"];
      const std::string p = where + ".pbrMetallicRoughness";
      if (!pbr.is_object()) return bad(p, "is not an object");
      if (auto e = numbers(pbr, "baseColorFactor", &m.base_color.x, 4, p); !e) return e.error();
      if (pbr.contains("baseColorTexture")) {
        const json& t = pbr["baseColorTexture"];
        auto index = detail::index_of(t, "index", textures, p + ".baseColorTexture", "texture");
        if (!index) return index.error();
        if (*index < 0) return bad(p + ".baseColorTexture.index", "is missing");
        m.texture = *index;
        if (t.contains("texCoord")) {
          if (!t["texCoord"].is_number_unsigned() || t["texCoord"].get<std::uint64_t>() > 255) return bad(p + ".baseColorTexture.texCoord", "is not a UV set number");
          m.uv_set = t["texCoord"].get<int>();
        }
        if (t.contains("extensions") && t["extensions"].is_object() && t["extensions"].contains("KHR_texture_transform")) {
          const json& x = t["extensions"]["KHR_texture_transform"];
          const std::string xw = p + ".baseColorTexture.extensions.KHR_texture_transform";
          if (!x.is_object()) return bad(xw, "is not an object");
          scene::TextureTransform& tt = m.texture_transform.emplace();
          if (auto e = numbers(x, "offset", &tt.offset.x, 2, xw); !e) return e.error();
          if (x.contains("rotation")) {
            if (!x["rotation"].is_number() || !std::isfinite(x["rotation"].get<double>())) return bad(xw + ".rotation", "is not a finite number");
            tt.rotation = x["rotation"].get<float>();
          }
          if (auto e = numbers(x, "scale", &tt.scale.x, 2, xw); !e) return e.error();
        }
      }
    }
    if (o.contains("alphaMode")) {
      const json& a = o["alphaMode"];
      if (a == "OPAQUE") m.alpha_mode = scene::AlphaMode::opaque;
      else if (a == "MASK") m.alpha_mode = scene::AlphaMode::mask;
      else if (a == "BLEND") m.alpha_mode = scene::AlphaMode::blend;
      else return bad(where + ".alphaMode", "is " + a.dump() + ", not OPAQUE, MASK or BLEND");
    }
    if (o.contains("alphaCutoff")) {
      const json& c = o["alphaCutoff"];
      if (!c.is_number() || !(c.get<double>() >= 0) || !std::isfinite(c.get<double>())) return bad(where + ".alphaCutoff", "is not a number of at least 0");
      m.alpha_cutoff = c.get<float>();
    }
    if (o.contains("doubleSided")) {
      if (!o["doubleSided"].is_boolean()) return bad(where + ".doubleSided", "is not true or false");
      m.double_sided = o["doubleSided"].get<bool>();
    }
    m.unlit = o.contains("extensions") && o["extensions"].is_object() && o["extensions"].contains("KHR_materials_unlit");
    return {};
  });
}

Result<scene::Wrap> wrap(const json& s, const char* key, const std::string& where) {
  if (!s.contains(key)) return scene::Wrap::repeat;
  const json& v = s[key];
  if (v == 33071) return scene::Wrap::clamp;
  if (v == 33648) return scene::Wrap::mirror;
  if (v == 10497) return scene::Wrap::repeat;
  return bad(where + "." + key, "is " + v.dump() + ", not a glTF wrap mode");
}

Result<scene::Filter> filter(const json& s, const char* key, scene::Filter absent, const std::string& where) {
  if (!s.contains(key)) return absent;
  const json& v = s[key];
  static constexpr int kFilters[] = {9728, 9729, 9984, 9985, 9986, 9987};
  for (std::size_t i = 0; i < 6; ++i) {
    if (v == kFilters[i]) return static_cast<scene::Filter>(i);
  }
  return bad(where + "." + key, "is " + v.dump() + ", not a glTF filter");
}

Result<void> SceneReader::textures() {
  auto images = list(d_.root, "images");
  if (!images) return images.error();
  std::unordered_map<std::string, std::size_t> decoded;  // an image's source -> images_ entry: each is decoded once
  for (std::size_t i = 0; i < (*images)->size(); ++i) {
    const json& o = (**images)[i];
    const std::string where = at("images", i);
    std::string source;
    std::string name = o.contains("name") && o["name"].is_string() ? o["name"].get<std::string>() : std::string();
    if (o.contains("uri")) {
      if (!o["uri"].is_string()) return bad(where + ".uri", "is not a string");
      const std::string& uri = o["uri"].get_ref<const std::string&>();
      if (name.empty() && uri.rfind("data:", 0) != 0) name = std::filesystem::path(uri).stem().string();
      source = "uri " + uri;
    } else {
      auto view = detail::index_of(o, "bufferView", d_.views.size(), where, "buffer view");
      if (!view) return view.error();
      if (*view < 0) return bad(where, "has neither a uri nor a bufferView");
      source = "view " + std::to_string(*view);
    }
    image_names_.push_back(std::move(name));
    if (auto it = decoded.find(source); it != decoded.end()) {
      image_of_.push_back(it->second);
      continue;
    }
    Bytes owned;
    ByteSpan bytes;
    if (o.contains("uri")) {
      auto loaded = detail::load_uri(o["uri"].get<std::string>(), d_.resources, where + ".uri");
      if (!loaded) return loaded.error();
      owned = std::move(*loaded);
      bytes = owned;
    } else {
      const detail::View& v = d_.views[static_cast<std::size_t>(o["bufferView"].get<std::size_t>())];
      bytes = ByteSpan(d_.buffers[v.buffer]).subspan(v.offset, v.length);
    }
    auto image = read_png_or_jpeg(bytes);
    if (!image) return bad(where, image.error().message, image.error().code);
    if (auto e = d_.spend(image->rgba.size(), where); !e) return e;
    decoded.emplace(std::move(source), images_.size());
    image_of_.push_back(images_.size());
    images_.push_back(std::move(*image));
  }
  auto samplers = list(d_.root, "samplers");
  if (!samplers) return samplers.error();
  std::vector<scene::Sampler> sampler_list;
  for (std::size_t i = 0; i < (*samplers)->size(); ++i) {
    const json& o = (**samplers)[i];
    const std::string where = at("samplers", i);
    scene::Sampler s;
    auto ws = wrap(o, "wrapS", where), wt = wrap(o, "wrapT", where);
    if (!ws) return ws.error();
    if (!wt) return wt.error();
    auto mag = filter(o, "magFilter", scene::Filter::linear, where), min = filter(o, "minFilter", scene::Filter::linear_mipmap_linear, where);
    if (!mag) return mag.error();
    if (!min) return min.error();
    if (*mag != scene::Filter::nearest && *mag != scene::Filter::linear) return bad(where + ".magFilter", "is a mipmap filter; magnification has none");
    s.wrap_s = *ws, s.wrap_t = *wt, s.mag = *mag, s.min = *min;
    sampler_list.push_back(s);
  }
  return each_named("textures", s_.textures, [&](const json& o, const std::string& where, std::size_t i) -> Result<void> {
    scene::Texture& t = s_.textures[i];
    if (t.extras.is_object() && t.extras.contains("encoding") && t.extras["encoding"].is_string()) {
      t.encoding = t.extras["encoding"].get<std::string>();
      t.extras.erase("encoding");
      if (t.extras.empty()) t.extras = scene::Extras();
    }
    auto source = detail::index_of(o, "source", image_of_.size(), where, "image");
    if (!source) return source.error();
    if (*source < 0) return bad(where + ".source", "is missing; only PNG and JPEG textures are read", ErrorCode::unsupported);
    const RgbaImage& image = images_[image_of_[static_cast<std::size_t>(*source)]];
    if (auto e = d_.spend(image.rgba.size(), where + ".source"); !e) return e;  // each texture holds its own copy
    t.image = image;
    t.image_name = image_names_[static_cast<std::size_t>(*source)];
    auto sampler = detail::index_of(o, "sampler", sampler_list.size(), where, "sampler");
    if (!sampler) return sampler.error();
    if (*sampler >= 0) t.sampler = sampler_list[static_cast<std::size_t>(*sampler)];
    return {};
  });
}

Result<void> SceneReader::animations() {
  auto read = each_named("animations", s_.animations, [&](const json& o, const std::string& where, std::size_t a) -> Result<void> {
    scene::Animation& anim = s_.animations[a];
    if (!o.contains("samplers") || !o["samplers"].is_array() || !o.contains("channels") || !o["channels"].is_array()) {
      return bad(where, "has no samplers or channels array");
    }
    const json& samplers = o["samplers"];
    for (std::size_t c = 0; c < o["channels"].size(); ++c) {
      const json& ch = o["channels"][c];
      const std::string cw = at(where + ".channels", c);
      auto sampler = detail::index_of(ch, "sampler", samplers.size(), cw, "sampler");
      if (!sampler) return sampler.error();
      if (*sampler < 0) return bad(cw + ".sampler", "is missing");
      if (!ch.contains("target") || !ch["target"].is_object()) return bad(cw + ".target", "is missing");
      const json& target = ch["target"];
      auto node = detail::index_of(target, "node", s_.nodes.size(), cw + ".target", "node");
      if (!node) return node.error();
      const json path = target.value("path", json());
      scene::Channel out;
      if (path == "weights") {
        warn(cw, "animates morph target weights, which are not read");
        continue;
      }
      if (path == "pointer") {
        const json* ext = target.contains("extensions") && target["extensions"].is_object() && target["extensions"].contains("KHR_animation_pointer")
                              ? &target["extensions"]["KHR_animation_pointer"] : nullptr;
        if (ext == nullptr || !ext->is_object() || !ext->contains("pointer") || !(*ext)["pointer"].is_string() || (*ext)["pointer"].get<std::string>().empty()) {
          return bad(cw + ".target.extensions.KHR_animation_pointer.pointer", "is missing or not a JSON pointer");
        }
        out.pointer = (*ext)["pointer"].get<std::string>();
      } else {
        if (path == "translation") out.path = scene::Path::translation;
        else if (path == "rotation") out.path = scene::Path::rotation;
        else if (path == "scale") out.path = scene::Path::scale;
        else return bad(cw + ".target.path", "is " + path.dump() + ", not translation, rotation, scale, weights or pointer");
        if (*node < 0) {
          warn(cw + ".target", "names no node and is skipped");
          continue;
        }
        out.node = *node;
      }
      for (const scene::Channel& other : anim.channels) {
        if (other.pointer == out.pointer && (!out.pointer.empty() || (other.node == out.node && other.path == out.path))) {
          return bad(cw + ".target", "animates the same node and path, or pointer, as an earlier channel");
        }
      }
      const json& s = samplers[static_cast<std::size_t>(*sampler)];
      const std::string sw = at(where + ".samplers", static_cast<std::size_t>(*sampler));
      const json interpolation = s.value("interpolation", json("LINEAR"));
      if (interpolation == "LINEAR") out.interpolation = scene::Interpolation::linear;
      else if (interpolation == "STEP") out.interpolation = scene::Interpolation::step;
      else if (interpolation == "CUBICSPLINE") out.interpolation = scene::Interpolation::cubic_spline;
      else return bad(sw + ".interpolation", "is " + interpolation.dump() + ", not LINEAR, STEP or CUBICSPLINE");
      if (!s.contains("input") || !s.contains("output")) return bad(sw, "has no input or output");
      auto input = d_.accessor(s["input"], sw + ".input");
      if (!input) return input.error();
      auto output = d_.accessor(s["output"], sw + ".output");
      if (!output) return output.error();
      if ((*input)->type != "SCALAR" || (*input)->component != detail::kFloat) return bad(sw + ".input", "is not a SCALAR float accessor");
      if (const std::optional<std::size_t> shown = scene::visibility_pointer_node(out.pointer)) {
        if (*shown >= s_.nodes.size()) return bad(cw + ".target.extensions.KHR_animation_pointer.pointer", "names node " + std::to_string(*shown) + ", which is not a node");
        // KHR_animation_pointer: a bool property's output is unsigned bytes (0 false) and its sampler STEP.
        if ((*output)->type != "SCALAR" || (*output)->component != detail::kUnsignedByte || (*output)->normalized) {
          return bad(sw + ".output", "is not a SCALAR unsigned byte accessor, which a bool (KHR_node_visibility's visible) takes");
        }
        if (out.interpolation != scene::Interpolation::step) return bad(sw + ".interpolation", "is not STEP, which a bool (KHR_node_visibility's visible) takes");
        out.boolean = true;
        out.pointer_width = 1;
      } else if (!out.pointer.empty()) {
        const std::string& t = (*output)->type;
        out.pointer_width = t == "SCALAR" ? 1 : t == "VEC2" ? 2 : t == "VEC3" ? 3 : t == "VEC4" ? 4 : 0;
        if (out.pointer_width == 0 || (*output)->component != detail::kFloat) return bad(sw + ".output", "is not a float SCALAR or VEC2 to VEC4 accessor");
      }
      static constexpr const char* kTypes[] = {"SCALAR", "VEC2", "VEC3", "VEC4"};
      const char* type = kTypes[scene::value_width(out) - 1];
      const std::size_t per_key = out.interpolation == scene::Interpolation::cubic_spline ? 3 : 1;
      if ((*output)->type != type || (*output)->count != (*input)->count * per_key) {
        return bad(sw + ".output", "has " + std::to_string((*output)->count) + " " + (*output)->type + " for " + std::to_string((*input)->count) +
                                       " keys; " + std::to_string(per_key) + " " + type + " per key are required", ErrorCode::bad_count);
      }
      auto times = d_.floats(static_cast<int>(*input - d_.accessors.data()), sw + ".input");
      if (!times) return times.error();
      for (std::size_t i = 0; i < times->size(); ++i) {
        if ((*times)[i] < 0 || (i > 0 && !((*times)[i] > (*times)[i - 1]))) {
          return bad(sw + ".input", "key " + std::to_string(i) + " is not a time of at least 0 after the one before it");
        }
      }
      auto values = d_.floats(static_cast<int>(*output - d_.accessors.data()), sw + ".output");
      if (!values) return values.error();
      out.times = std::move(*times);
      out.values = std::move(*values);
      if (out.boolean) std::ranges::replace_if(out.values, [](float v) { return v != 0; }, 1.0f);  // any other value is true
      anim.channels.push_back(std::move(out));
    }
    if (anim.channels.empty()) warn(where, "has no translation, rotation, scale or pointer channel and is left out");
    return {};
  });
  if (!read) return read;
  std::erase_if(s_.animations, [](const scene::Animation& anim) { return anim.channels.empty(); });
  return {};
}

Result<void> SceneReader::scenes() {
  auto l = list(d_.root, "scenes");
  if (!l) return l.error();
  for (std::size_t i = 0; i < (*l)->size(); ++i) {
    const json& o = (**l)[i];
    const std::string where = at("scenes", i);
    scene::SceneRoots r;
    if (o.contains("name")) {
      if (!o["name"].is_string()) return bad(where + ".name", "is not a string");
      r.name = o["name"].get<std::string>();
    }
    if (o.contains("nodes")) {
      if (!o["nodes"].is_array()) return bad(where + ".nodes", "is not an array");
      for (const json& n : o["nodes"]) {
        if (!n.is_number_unsigned() || n.get<std::uint64_t>() >= s_.nodes.size() || s_.nodes[n.get<std::size_t>()].parent >= 0) {
          return bad(where + ".nodes", "lists " + n.dump() + ", which is not a root node", ErrorCode::bad_offset);
        }
        r.nodes.push_back(n.get<int>());
      }
    }
    s_.scenes.push_back(std::move(r));
  }
  auto main = detail::index_of(d_.root, "scene", s_.scenes.size(), "", "scene");
  if (!main) return bad("scene", main.error().message, main.error().code);
  if (*main > 0) std::rotate(s_.scenes.begin(), s_.scenes.begin() + *main, s_.scenes.begin() + *main + 1);
  // Nodes outside the default scene (other LODs) are hidden, as the writer left them out of it.
  if (!s_.scenes.empty()) {
    for (scene::Node& n : s_.nodes) n.visible = false;
    std::vector<int> stack = s_.scenes[0].nodes;
    while (!stack.empty()) {
      scene::Node& n = s_.nodes[static_cast<std::size_t>(stack.back())];
      stack.pop_back();
      n.visible = true;
      stack.insert(stack.end(), n.children.begin(), n.children.end());
    }
  }
  return {};
}

Result<Scene> SceneReader::read() {
  if (auto e = textures(); !e) return e.error();
  if (auto e = materials(); !e) return e.error();
  if (auto e = nodes(); !e) return e.error();
  if (auto e = meshes(); !e) return e.error();
  if (auto e = skins(); !e) return e.error();
  if (auto e = skinned_meshes(); !e) return e.error();
  if (auto e = animations(); !e) return e.error();
  if (auto e = scenes(); !e) return e.error();
  std::string unused;
  auto extras = name_and_extras(d_.root, unused, "");
  if (!extras) return extras.error();
  s_.extras = std::move(*extras);
  if (s_.extras.is_object()) {
    s_.extras.erase("extras_version");
    if (s_.extras.empty()) s_.extras = scene::Extras();
  }
  return std::move(s_);
}

}  // namespace

Result<ReadScene> read_gltf(ByteSpan bytes, const ResourceLoader& resources) {
  try {
    auto document = detail::read_document(bytes, resources);
    if (!document) return document.error();
    ReadScene out;
    out.warnings = std::move(document->warnings);
    auto scene = SceneReader(*document, out.warnings).read();
    if (!scene) return scene.error();
    out.scene = std::move(*scene);
    return out;
  } catch (const nlohmann::json::exception& e) {  // a value of a type no check above expected
    return bad("json", std::string("holds a value of an unexpected type: ") + e.what());
  } catch (...) {
    return caught_allocation_failure();
  }
}

}  // namespace remodel::gltf
