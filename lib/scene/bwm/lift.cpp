// Black & White 2 BWM -> Scene: a mesh per mesh description (LOD 0 in the default scene, each other
// LOD in a scene of its own), a primitive per material reference, materials by their texture names,
// bones as flat joints of one skin, entities as nodes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "scene/lift.hpp"

namespace remodel::scene {

namespace {

// BW2 draws through Direct3D: left-handed, Y up. glTF is right-handed, Y up: z is negated (a mirror),
// and every triangle's winding is reversed so that front faces stay front faces.
Vec3 to_gltf(const BwmVec3& v) { return {v[0], v[1], -v[2]}; }

// A D3D frame (rows x, y, z axes and position, for row vectors) as a right-handed column-vector
// matrix: S * M * S with S = diag(1, 1, -1).
Mat4 frame_matrix(const BwmBone& b) {
  Mat4 m;
  const Vec3 x = to_gltf(b.xaxis), y = to_gltf(b.yaxis), z = to_gltf(b.zaxis), p = to_gltf(b.position);
  const Vec3 columns[4] = {x, y, z * -1.0f, p};
  for (int c = 0; c < 4; ++c) {
    m.at(0, c) = columns[c].x;
    m.at(1, c) = columns[c].y;
    m.at(2, c) = columns[c].z;
  }
  return m;
}

template <std::size_t N>
std::string name_of(const std::array<std::uint8_t, N>& stored) {
  const auto end = std::find(stored.begin(), stored.end(), std::uint8_t{0});
  return std::string(stored.begin(), end);
}

std::string hex(const Bytes& bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  char two[3];
  for (std::uint8_t b : bytes) {
    std::snprintf(two, sizeof two, "%02x", b);
    out += two;
  }
  return out;
}

Extras vec(const BwmVec3& v) { return Extras::array({v[0], v[1], v[2]}); }

Extras frame_extras(const BwmBone& b) {
  return {{"zaxis", vec(b.zaxis)}, {"xaxis", vec(b.xaxis)}, {"yaxis", vec(b.yaxis)}, {"position", vec(b.position)}};
}

Material lift_material(const BwmMaterial& m, std::size_t i) {
  Material mat;
  mat.name = name_of(m.diffuse);
  if (mat.name.empty()) mat.name = "material" + std::to_string(i);
  // The seven texture names, as stored; no image files come with a BWM.
  mat.extras = {{"diffuse", name_of(m.diffuse)},   {"light", name_of(m.light)},
                {"growth", name_of(m.growth)},     {"specular", name_of(m.specular)},
                {"animated", name_of(m.animated)}, {"normal", name_of(m.normal)},
                {"type", name_of(m.type)}};
  return mat;
}

// What the material references may still lift: they may overlap, but not without bound.
struct Budget {
  std::uint64_t vertices, indices;
};

Result<Primitive> lift_ref(const Bwm& bwm, const BwmVertices& v, const BwmMaterialRef& ref, const std::string& field,
                           bool skinned, Budget& budget) {
  if (std::uint64_t{ref.indices_size} + 2 > budget.indices) {
    return Error{ErrorCode::unsupported, std::nullopt, field + ".indices_size",
                 "the material references overlap so much that they would draw more than 8 times the file's indices"};
  }
  budget.indices -= std::uint64_t{ref.indices_size} + 2;
  Result<std::vector<std::array<std::uint32_t, 3>>> triangles = bwm_triangles(bwm, ref);
  if (!triangles) return Error{triangles.error().code, std::nullopt, field + ".indices_size", triangles.error().message};
  if (ref.material >= bwm.materials.size()) {
    return Error{ErrorCode::bad_value, std::nullopt, field + ".material",
                 "material " + std::to_string(ref.material) + " is past the " + std::to_string(bwm.materials.size()) +
                     " material definitions"};
  }
  Primitive prim;
  prim.material = static_cast<int>(ref.material);
  // The primitive holds the vertices its indices reach, from the lowest to the highest.
  std::uint32_t lo = UINT32_MAX, hi = 0;
  const std::uint32_t vertex_count = bwm_vertex_count(bwm);
  for (const auto& t : *triangles) {
    for (std::uint32_t i : t) {
      if (i >= vertex_count) {
        return Error{ErrorCode::bad_value, std::nullopt, field, "index " + std::to_string(i) + " is past the " +
                                                         std::to_string(vertex_count) + " vertices"};
      }
      lo = std::min(lo, i);
      hi = std::max(hi, i);
    }
  }
  if (triangles->empty()) lo = hi = 0;
  const std::size_t count = triangles->empty() ? 0 : std::size_t{hi} - lo + 1;
  if (count > budget.vertices) {
    return Error{ErrorCode::unsupported, std::nullopt, field, "the material references overlap so much that they would lift more "
                                                   "than 8 times the file's vertices"};
  }
  budget.vertices -= count;
  for (const auto& t : *triangles) {
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) continue;  // zero-area list entries are not triangles
    prim.indices.insert(prim.indices.end(), {t[0] - lo, t[2] - lo, t[1] - lo});  // reversed: see to_gltf
  }
  for (std::size_t k = lo; k < lo + count; ++k) {
    if (!v.positions.empty()) prim.positions.push_back(to_gltf(v.positions[k]));
    if (!v.normals.empty()) prim.normals.push_back(normalize(to_gltf(v.normals[k])));
  }
  if (prim.positions.size() != count) {
    return Error{ErrorCode::unsupported, std::nullopt, "strides", "no stride holds vertex positions (attribute 0 as f32x3)"};
  }
  for (const auto& set : v.uv_sets) {
    // D3D's texture origin is the top-left, as glTF's: UVs are kept as stored.
    auto& out = prim.uvs.emplace_back();
    for (std::size_t k = lo; k < lo + count; ++k) out.push_back({set[k][0], set[k][1]});
  }
  if (skinned) {
    prim.influences = 4;
    for (std::size_t k = lo; k < lo + count; ++k) {
      std::array<float, 4> w = v.weights.empty() ? std::array<float, 4>{} : v.weights[k];
      const std::array<std::uint8_t, 4> j = v.joints.empty() ? std::array<std::uint8_t, 4>{} : v.joints[k];
      float sum = 0;
      for (float& x : w) sum += x = std::isfinite(x) && x > 0 ? x : 0.0f;
      if (sum <= 0) w = {1, 0, 0, 0}, sum = 1;  // no weight stored: bound to its first bone
      for (std::size_t s = 0; s < 4; ++s) {
        if (w[s] > 0 && j[s] >= bwm.bones.size()) {
          return Error{ErrorCode::bad_value, std::nullopt, "strides.bone_index",
                       "vertex " + std::to_string(k) + " weighs bone " + std::to_string(j[s]) + " of " +
                           std::to_string(bwm.bones.size())};
        }
        prim.joints.push_back(w[s] > 0 ? j[s] : 0);
        prim.weights.push_back(w[s] / sum);
      }
    }
  }
  prim.extras = {{"primitive", bwm.type == 3 ? "triangle_strip" : "triangles"}, {"vertex_first", lo}};
  return prim;
}

// The mesh's fields and its material references as stored (a reference that draws nothing has no
// primitive; the others' primitives say which reference they are).
Extras mesh_extras(const BwmMesh& m) {
  Extras refs = Extras::array();
  for (const BwmMaterialRef& r : m.material_refs) {
    refs.push_back({{"material", r.material},
                    {"indices_offset", r.indices_offset},
                    {"indices_size", r.indices_size},
                    {"vertex_offset", r.vertex_offset},
                    {"vertex_size", r.vertex_size},
                    {"faces_offset", r.faces_offset},
                    {"faces_size", r.faces_size},
                    {"unknown_0x1c", r.unknown_0x1c}});
  }
  return {{"faces_count", m.faces_count},
          {"indices_offset", m.indices_offset},
          {"indices_size", m.indices_size},
          {"vertex_offset", m.vertex_offset},
          {"vertex_size", m.vertex_size},
          {"zaxis", vec(m.zaxis)},
          {"xaxis", vec(m.xaxis)},
          {"yaxis", vec(m.yaxis)},
          {"position", vec(m.position)},
          {"center", vec(m.center)},
          {"radius", m.radius},
          {"box1", vec(m.box1)},
          {"box2", vec(m.box2)},
          {"unknown_0x6c", vec(m.unknown_0x6c)},
          {"height", m.height},
          {"unknown_0x7c", m.unknown_0x7c},
          {"unknown_0x80", m.unknown_0x80},
          {"volume", m.volume},
          {"unknown_0x8c", m.unknown_0x8c},
          {"lod_level", m.lod_level},
          {"unknown_0xd4", m.unknown_0xd4},
          {"material_refs", std::move(refs)}};
}

Extras file_extras(const Bwm& bwm) {
  Extras strides = Extras::array();
  for (const BwmStride& s : bwm.strides) {
    Extras attributes = Extras::array();
    for (const BwmAttribute& a : s.attributes) attributes.push_back({a.id, static_cast<std::uint32_t>(a.format)});
    Extras stride{{"attributes", std::move(attributes)}};
    if (s.tail.stored()) stride["tail"] = hex(s.tail.bytes());  // none: zeros, the canonical fill
    strides.push_back(std::move(stride));
  }
  const auto points = [](const std::vector<BwmVec3>& list) {
    Extras out = Extras::array();
    for (const BwmVec3& p : list) out.push_back(vec(p));
    return out;
  };
  return {{"format", "bwm"},
          {"handedness", "left-handed Y-up as stored; z negated and windings reversed for glTF"},
          {"identifier", hex(Bytes(bwm.identifier.begin(), bwm.identifier.end()))},
          {"version", bwm.version},
          {"type", bwm.type},
          {"unknown_0x38", bwm.unknown_0x38},
          {"pnt", vec(bwm.pnt)},
          {"box1", vec(bwm.box1)},
          {"box2", vec(bwm.box2)},
          {"center", vec(bwm.center)},
          {"height", bwm.height},
          {"radius", bwm.radius},
          {"unknown_0x74", bwm.unknown_0x74},
          {"volume", bwm.volume},
          {"unknown_0x94", hex(Bytes(bwm.unknown_0x94.begin(), bwm.unknown_0x94.end()))},
          {"vertex_count", bwm_vertex_count(bwm)},
          {"strides", std::move(strides)},
          {"unknown_points", points(bwm.unknown_points)},
          {"collision_points", points(bwm.collision_points)},
          {"cleave_points", points(bwm.cleave_points)}};
}

}  // namespace

Result<Scene> lift_bwm(const Bwm& bwm, const LiftInputs& inputs) {
  static_cast<void>(inputs);  // a BWM needs nothing beside it
  Result<BwmVertices> vertices = decode_bwm_vertices(bwm);
  if (!vertices) return vertices.error();
  Scene scene;
  scene.scenes.push_back(SceneRoots{"lod0", {}});
  scene.extras = file_extras(bwm);
  for (std::size_t i = 0; i < bwm.materials.size(); ++i) scene.materials.push_back(lift_material(bwm.materials[i], i));

  // Bones: no parents (the hierarchy lives in the .al files), so every joint hangs from one identity
  // root, the common root glTF asks a skin's joints to have. They skin the vertices when the file
  // stores bone indices and weights (skins, type 3).
  const bool skinned = !bwm.bones.empty() && (bwm.type == 3 || !vertices->weights.empty());
  std::vector<int> shared_roots;  // the bones' root and the entities, in every LOD's scene
  Skin skin;
  skin.name = "bones";
  if (!bwm.bones.empty()) {
    Node root;
    root.name = "bones";
    skin.skeleton = scene.add_node(std::move(root));
    shared_roots.push_back(skin.skeleton);
  }
  for (std::size_t b = 0; b < bwm.bones.size(); ++b) {
    const Mat4 world = frame_matrix(bwm.bones[b]);
    bool ok = true;
    const Mat4 ibm = inverse(world, &ok);
    if (!ok) {
      return Error{ErrorCode::bad_value, std::nullopt, "bones[" + std::to_string(b) + "]",
                   "the bone's axes are singular, so it has no inverse bind matrix"};
    }
    Node node;
    node.name = "bone" + std::to_string(b);
    node.local = decompose(world);
    node.extras = frame_extras(bwm.bones[b]);
    const int n = scene.add_node(std::move(node), skin.skeleton);
    skin.joints.push_back(n);
    skin.inverse_bind_matrices.push_back(ibm);
  }
  int skin_index = -1;
  if (skinned) {
    scene.skins.push_back(std::move(skin));
    skin_index = 0;
  }
  for (std::size_t e = 0; e < bwm.entities.size(); ++e) {
    Node node;
    node.name = name_of(bwm.entities[e].name);
    if (node.name.empty()) node.name = "entity" + std::to_string(e);
    node.local = decompose(frame_matrix(bwm.entities[e].transform));
    node.extras = frame_extras(bwm.entities[e].transform);
    node.extras["entity"] = e;
    shared_roots.push_back(scene.add_node(std::move(node)));
  }

  std::size_t ref_index = 0;
  Budget budget{8 * std::uint64_t{bwm_vertex_count(bwm)} + 65536, 8 * std::uint64_t{bwm.indices.size()} + 65536};
  for (std::size_t m = 0; m < bwm.meshes.size(); ++m) {
    const BwmMesh& record = bwm.meshes[m];
    Mesh mesh;
    mesh.name = name_of(record.name);
    if (mesh.name.empty()) mesh.name = "mesh" + std::to_string(m);
    mesh.extras = mesh_extras(record);
    for (std::size_t r = 0; r < record.material_refs.size(); ++r, ++ref_index) {
      Result<Primitive> prim =
          lift_ref(bwm, *vertices, record.material_refs[r], "material_refs[" + std::to_string(ref_index) + "]", skinned, budget);
      if (!prim) return prim.error();
      if (prim->indices.empty()) continue;  // glTF has no empty primitive: the reference stays in the mesh's extras
      prim->extras["ref"] = r;
      mesh.primitives.push_back(std::move(*prim));
    }
    Node node;
    node.name = mesh.name;
    if (mesh.primitives.empty()) {
      node.extras = std::move(mesh.extras);  // nothing to draw: the node keeps the mesh's fields
    } else {
      scene.meshes.push_back(std::move(mesh));
      node.mesh = static_cast<int>(scene.meshes.size()) - 1;
      node.skin = skin_index;
    }
    // lod_level counts from 1; LOD 0 is the default scene, each other level a scene of its own.
    const std::uint32_t lod = record.lod_level == 0 ? 0 : record.lod_level - 1;
    if (lod == 0) {
      scene.add_node(std::move(node));
      continue;
    }
    node.visible = false;
    const int index = static_cast<int>(scene.nodes.size());
    scene.nodes.push_back(std::move(node));
    const std::string name = "lod" + std::to_string(lod);
    auto it = std::find_if(scene.scenes.begin(), scene.scenes.end(), [&](const SceneRoots& r) { return r.name == name; });
    if (it == scene.scenes.end()) {
      scene.scenes.push_back(SceneRoots{name, shared_roots});
      it = scene.scenes.end() - 1;
    }
    it->nodes.push_back(index);
  }
  return scene;
}

}  // namespace remodel::scene
