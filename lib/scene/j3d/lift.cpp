// J3D BMD/BDL -> Scene: INF1 joints as nodes with their shapes under them, one skin over every JNT1
// joint (EVP1 envelopes and rigid DRW1 entries), every SHP1 packet's primitives as one triangle list
// per shape in bind-pose model space, MAT3/TEX1 reduced to glTF materials (materials.cpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>

#include "model/j3d/decode.hpp"
#include "scene/j3d/lift.hpp"
#include "scene/lift.hpp"

namespace remodel::scene {

namespace {

constexpr float kPi = 3.14159265358979f;

Trs joint_trs(const J3dJoint& j) {
  Trs t;
  t.scale = {j.scale[0], j.scale[1], j.scale[2]};
  // s16 angles (0x8000 = 180 degrees) applied X, then Y, then Z, as j3d_joint_world_matrices does.
  const Vec3 radians{j.rotation[0] * kPi / 32768.0f, j.rotation[1] * kPi / 32768.0f, j.rotation[2] * kPi / 32768.0f};
  t.rotation = euler_to_quat(radians, EulerOrder::xyz);
  t.translation = {j.translation[0], j.translation[1], j.translation[2]};
  return t;
}

const char* billboard_name(unsigned mode) {
  switch (mode) {
    case 0: return "none";
    case 1: return "billboard";
    case 2: return "billboard_y";
    case 3: return "multi";
    default: return "unknown";
  }
}

const char* primitive_name(std::uint8_t opcode) {
  switch (opcode & 0xF8) {
    case 0x80: return "quads";
    case 0x90: return "triangles";
    case 0x98: return "triangle_strip";
    case 0xA0: return "triangle_fan";
    default: return "other";
  }
}

std::string joint_name(const J3dJnt1& jnt, std::size_t i) {
  return i < jnt.names.names.size() ? jnt.names.names[i] : "joint" + std::to_string(i);
}

// The INF1 walk: joints become nodes under their parent joint; a shape becomes a node under the joint
// that holds it, drawn with the nearest material above it.
struct Hierarchy {
  const J3dJnt1& jnt;
  std::size_t shape_count;
  Scene& scene;
  std::vector<int> joint_node;      // JNT1 index -> node
  std::vector<int> shape_material;  // SHP1 index -> J3D material (-1 none)
  std::vector<bool> shape_placed;
  std::vector<int> shape_nodes;     // every node drawing a shape, with its shape
  std::optional<Error> error;

  void walk(const std::vector<J3dNode>& nodes, int parent, int material) {
    for (const J3dNode& n : nodes) {
      if (error) return;
      int here = parent;
      int here_material = material;
      if (n.type == 0x10) {
        if (n.index >= jnt.joints.size() || joint_node[n.index] >= 0) {
          error = Error{ErrorCode::bad_value, std::nullopt, "INF1.node.index",
                        "joint " + std::to_string(n.index) + " is missing from JNT1 or placed twice in the hierarchy"};
          return;
        }
        const J3dJoint& j = jnt.joints[n.index];
        Node node;
        node.name = joint_name(jnt, n.index);
        node.local = joint_trs(j);
        node.extras = {{"joint", n.index},
                       {"flags", j.flags},
                       {"billboard", billboard_name(j.flags & 0xF)},
                       {"scale_compensate", j.inherit_scale},
                       {"radius", j.radius},
                       {"min", j.min},
                       {"max", j.max}};
        here = scene.add_node(std::move(node), parent);
        joint_node[n.index] = here;
      } else if (n.type == 0x11) {
        here_material = n.index;
      } else if (n.type == 0x12) {
        if (n.index >= shape_count) {
          error = Error{ErrorCode::bad_value, std::nullopt, "INF1.node.index", "shape " + std::to_string(n.index) + " is missing from SHP1"};
          return;
        }
        Node node;
        node.name = "shape" + std::to_string(n.index);
        node.mesh = n.index;
        node.extras = {{"shape", n.index}, {"material", material}};
        const int at = scene.add_node(std::move(node), parent);
        shape_nodes.push_back(at);
        if (!shape_placed[n.index]) shape_material[n.index] = material;
        shape_placed[n.index] = true;
      }
      walk(n.children, here, here_material);
    }
  }
};

// One display-list vertex: its DRW1 matrix and the array indices it draws (all ones = absent).
struct VertexKey {
  std::array<std::uint32_t, 13> v;  // DRW1 index, POS, NRM, CLR0, CLR1, TEX0-7
  bool operator==(const VertexKey&) const = default;
};

struct VertexKeyHash {
  std::size_t operator()(const VertexKey& k) const {
    std::size_t h = 1469598103934665603ull;
    for (std::uint32_t x : k.v) h = (h ^ x) * 1099511628211ull;
    return h;
  }
};

struct Arrays {
  J3dDecodedArray position, normal;
  std::array<J3dDecodedArray, 2> color;
  std::array<J3dDecodedArray, 8> uv;
};

// What one DRW1 entry does to the vertices drawn with it.
struct Influences {
  std::vector<std::pair<std::uint16_t, float>> weights;  // renormalised to sum 1
  Mat4 bind;    // stored vertex -> bind-pose model space
  Mat4 normal;  // its inverse transpose, for normals
};

struct Geometry {
  const J3dShp1& shp;
  const J3dDrw1& drw;
  const J3dEvp1& evp;
  const Arrays& arrays;
  const std::vector<Mat4>& joint_world;  // bind pose, from JNT1
  const std::vector<Mat4>& evp1_inverse_binds;
  std::vector<std::optional<Influences>> cache;  // by DRW1 index

  Result<const Influences*> influences(std::size_t d) {
    if (d >= cache.size()) return Error{ErrorCode::bad_value, std::nullopt, "SHP1.matrix_table", "draw matrix " + std::to_string(d) + " is past DRW1's " + std::to_string(cache.size())};
    if (cache[d]) return &*cache[d];
    auto list = j3d_draw_influences(drw, evp, d);
    if (!list) return list.error();
    Influences in;
    float sum = 0;
    for (const J3dInfluence& i : *list) {
      if (i.joint >= joint_world.size()) {
        return Error{ErrorCode::bad_value, std::nullopt, "DRW1.index[" + std::to_string(d) + "]",
                     "draw matrix binds joint " + std::to_string(i.joint) + " but JNT1 has " + std::to_string(joint_world.size())};
      }
      sum += i.weight;
      in.weights.emplace_back(i.joint, i.weight);
    }
    if (in.weights.empty() || !(sum > 0) || !std::isfinite(sum)) {
      return Error{ErrorCode::bad_value, std::nullopt, "EVP1.envelope[" + std::to_string(drw.indices[d]) + "]",
                   "the envelope's weights do not add up to a positive number"};
    }
    for (auto& w : in.weights) w.second /= sum;  // the game's weights are stored rounded
    // A rigid entry draws its vertices in its joint's space. An envelope's are in model space as
    // EVP1's inverse binds saw it; the game shows them at rest through sum(w * world * EVP1 inverse
    // bind), which differs from the identity by JNT1's rounded s16 angles: that is the pose lifted.
    if (drw.weighted[d] == 0) {
      in.bind = joint_world[in.weights[0].first];
    } else {
      std::array<double, 16> blend{};
      for (const auto& [joint, weight] : in.weights) {
        const Mat4 m = joint_world[joint] * evp1_inverse_binds[joint];
        for (std::size_t i = 0; i < 16; ++i) blend[i] += static_cast<double>(weight) * m.m[i];
      }
      for (std::size_t i = 0; i < 16; ++i) in.bind.m[i] = static_cast<float>(blend[i]);
    }
    const Mat4 inv = inverse(in.bind);
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) in.normal.at(r, c) = inv.at(c, r);
    }
    cache[d] = std::move(in);
    return &*cache[d];
  }

  Result<Primitive> shape(std::size_t s) {
    const J3dShape& shape = shp.shapes[s];
    const std::string where = "SHP1.shape[" + std::to_string(s) + "]";
    if (shape.descriptors >= shp.descriptor_lists.size() || std::size_t{shape.first_packet} + shape.packet_count > shp.packets.size()) {
      return Error{ErrorCode::bad_value, std::nullopt, where, "refers past the descriptor lists or packets"};
    }
    const auto& descriptors = shp.descriptor_lists[shape.descriptors];
    auto matrices = j3d_packet_matrices(shp, s);
    if (!matrices) return matrices.error();

    // Which key position each present descriptor fills (-1 = the position matrix, -2 = ignored).
    std::vector<int> fills;
    bool has_normal = false, has_color = false, has_color1 = false;
    int uv_sets = 0;
    Extras descriptor_list = Extras::array();
    for (const J3dVertexDescriptor& d : descriptors) {
      descriptor_list.push_back({d.attribute, d.type});
      if (d.type == 0) continue;
      if (d.type == 1 && d.attribute > 8) return Error{ErrorCode::unsupported, std::nullopt, where, "draws direct vertex data, which is not supported"};
      if (d.attribute == 0) fills.push_back(-1);
      else if (d.attribute <= 8) fills.push_back(-2);  // texture matrix rows: texture projection, not geometry
      else if (d.attribute <= 20) {
        fills.push_back(static_cast<int>(d.attribute) - 8);  // POS 9 -> 1 ... TEX7 20 -> 12
        has_normal |= d.attribute == 10;
        has_color |= d.attribute == 11;
        has_color1 |= d.attribute == 12;
        if (d.attribute >= 13) uv_sets = std::max(uv_sets, static_cast<int>(d.attribute) - 12);
      } else {
        return Error{ErrorCode::unsupported, std::nullopt, where, "draws GX attribute " + std::to_string(d.attribute) + ", which is not supported"};
      }
    }

    Primitive prim;
    prim.topology = Topology::triangles;
    prim.uvs.resize(static_cast<std::size_t>(uv_sets));
    std::vector<const Influences*> vertex_influences;
    std::unordered_map<VertexKey, std::uint32_t, VertexKeyHash> seen;
    std::size_t degenerate = 0;
    Extras packets = Extras::array();

    for (std::size_t k = 0; k < shape.packet_count; ++k) {
      const std::size_t packet_index = std::size_t{shape.first_packet} + k;
      const J3dPacket& packet = shp.packets[packet_index];
      const std::string packet_where = "SHP1.packet[" + std::to_string(packet_index) + "]";
      if (packet.raw.stored()) return Error{ErrorCode::unsupported, std::nullopt, packet_where, "is not a plain run of draw commands, so its triangles cannot be exported"};
      const auto& slots = (*matrices)[k];
      Extras packet_extras = {{"matrices", Extras::array()}, {"primitives", Extras::array()}};
      for (const auto& m : slots.slots) packet_extras["matrices"].push_back(m.value_or(0xFFFF));  // 0xFFFF: none loaded yet
      for (std::size_t p = 0; p < packet.primitives.size(); ++p) {
        const J3dPrimitive& dl = packet.primitives[p];
        const std::optional<std::size_t> vertex_count = j3d_dl_vertex_count(dl, descriptors);
        if (!vertex_count) {
          return Error{ErrorCode::inconsistent, std::nullopt, packet_where + ".primitive[" + std::to_string(p) + "]", "holds values that do not match its descriptors"};
        }
        packet_extras["primitives"].push_back({{"type", primitive_name(dl.opcode)}, {"opcode", dl.opcode}, {"vertex_count", *vertex_count}});
        std::vector<std::uint32_t> ids(*vertex_count);
        for (std::size_t v = 0; v < *vertex_count; ++v) {
          VertexKey key;
          key.v.fill(0xFFFFFFFF);
          std::uint32_t slot = 0;  // without PNMTXIDX, GX draws with the matrix in slot 0
          for (std::size_t f = 0; f < fills.size(); ++f) {
            const std::uint16_t value = dl.values[v * fills.size() + f];
            if (fills[f] == -1) slot = value / 3u;
            else if (fills[f] >= 0) key.v[static_cast<std::size_t>(fills[f])] = value;
          }
          if (slot >= GxMatrixPalette::kSlots || !slots[slot]) {
            return Error{ErrorCode::bad_value, std::nullopt, packet_where + ".primitive[" + std::to_string(p) + "]",
                         "vertex " + std::to_string(v) + " uses matrix slot " + std::to_string(slot) + ", which no packet loaded"};
          }
          key.v[0] = *slots[slot];
          const auto [it, added] = seen.try_emplace(key, static_cast<std::uint32_t>(prim.positions.size()));
          if (added) {
            if (auto e = add_vertex(key, prim, vertex_influences, has_normal, has_color); !e) return e.error();
          }
          ids[v] = it->second;
        }
        // GX front faces wind clockwise; glTF's wind counter-clockwise.
        for (const auto& t : j3d_triangles(dl.opcode, *vertex_count)) {
          const std::uint32_t a = ids[t[0]], b = ids[t[1]], c = ids[t[2]];
          if (a == b || b == c || a == c) {
            ++degenerate;
            continue;
          }
          prim.indices.insert(prim.indices.end(), {a, c, b});
        }
      }
      packets.push_back(std::move(packet_extras));
    }

    // Joints and weights, padded to a multiple of 4.
    std::size_t most = 1;
    for (const Influences* in : vertex_influences) most = std::max(most, in->weights.size());
    prim.influences = static_cast<std::uint32_t>((most + 3) / 4 * 4);
    prim.joints.assign(vertex_influences.size() * prim.influences, 0);
    prim.weights.assign(vertex_influences.size() * prim.influences, 0.0f);
    for (std::size_t v = 0; v < vertex_influences.size(); ++v) {
      for (std::size_t i = 0; i < vertex_influences[v]->weights.size(); ++i) {
        prim.joints[v * prim.influences + i] = vertex_influences[v]->weights[i].first;
        prim.weights[v * prim.influences + i] = vertex_influences[v]->weights[i].second;
      }
    }

    prim.extras = {{"shape", s},
                   {"matrix_type", billboard_name(shape.matrix_type)},
                   {"descriptors", std::move(descriptor_list)},
                   {"packets", std::move(packets)},
                   {"degenerate_triangles", degenerate}};
    if (has_color1) prim.extras["color1_not_exported"] = true;
    return prim;
  }

  Result<void> add_vertex(const VertexKey& key, Primitive& prim, std::vector<const Influences*>& vertex_influences,
                                  bool has_normal, bool has_color) {
    auto in = influences(key.v[0]);
    if (!in) return in.error();
    vertex_influences.push_back(*in);
    const auto element = [&](const J3dDecodedArray& a, std::uint32_t index, const char* what) -> Result<const float*> {
      if (index == 0xFFFFFFFF || a.components == 0 || index >= a.count()) {
        return Error{ErrorCode::bad_value, std::nullopt, std::string("VTX1.") + what, "index " + std::to_string(index) + " is past the array's " + std::to_string(a.count()) + " elements"};
      }
      return &a.values[std::size_t{index} * a.components];
    };
    auto p = element(arrays.position, key.v[1], "positions");
    if (!p) return p.error();
    Vec3 position{(*p)[0], arrays.position.components > 1 ? (*p)[1] : 0.0f, arrays.position.components > 2 ? (*p)[2] : 0.0f};
    if (!std::isfinite(position.x) || !std::isfinite(position.y) || !std::isfinite(position.z)) {
      return Error{ErrorCode::bad_value, std::nullopt, "VTX1.positions[" + std::to_string(key.v[1]) + "]", "is not a finite number"};
    }
    prim.positions.push_back(transform_point((*in)->bind, position));
    if (has_normal) {
      auto n = element(arrays.normal, key.v[2], "normals");
      if (!n) return n.error();
      Vec3 normal{(*n)[0], arrays.normal.components > 1 ? (*n)[1] : 0.0f, arrays.normal.components > 2 ? (*n)[2] : 0.0f};
      normal = normalize(transform_direction((*in)->normal, normal));
      if (!(length(normal) > 0.5f)) normal = {0, 1, 0};  // glTF wants unit normals; a zero one has no direction
      prim.normals.push_back(normal);
    }
    if (has_color) {
      auto c = element(arrays.color[0], key.v[3], "colors0");
      if (!c) return c.error();
      prim.colors.push_back({(*c)[0], (*c)[1], (*c)[2], (*c)[3]});
    }
    for (std::size_t u = 0; u < prim.uvs.size(); ++u) {
      if (key.v[5 + u] == 0xFFFFFFFF) {
        prim.uvs[u].push_back({0, 0});  // a set this shape skips: kept so TEXCOORD_n stays GX's TEXn
        continue;
      }
      auto t = element(arrays.uv[u], key.v[5 + u], "uvs");
      if (!t) return t.error();
      const Vec2 uv{(*t)[0], arrays.uv[u].components > 1 ? (*t)[1] : 0.0f};
      if (!std::isfinite(uv.x) || !std::isfinite(uv.y)) {
        return Error{ErrorCode::bad_value, std::nullopt, "VTX1.uvs" + std::to_string(u) + "[" + std::to_string(key.v[5 + u]) + "]", "is not a finite number"};
      }
      prim.uvs[u].push_back(uv);
    }
    return {};
  }
};

Extras vertex_formats(const J3dVtx1& vtx) {
  Extras out = Extras::array();
  for (const J3dVertexFormat& f : vtx.formats) out.push_back({{"attribute", f.attribute}, {"components", f.components}, {"type", f.type}, {"frac", f.frac}});
  return out;
}

}  // namespace

Result<Scene> lift_j3d(const J3dFile& file, const LiftInputs& inputs) {
  const J3dInf1* inf = j3d_section<J3dInf1>(file);
  const J3dVtx1* vtx = j3d_section<J3dVtx1>(file);
  const J3dEvp1* evp = j3d_section<J3dEvp1>(file);
  const J3dDrw1* drw = j3d_section<J3dDrw1>(file);
  const J3dJnt1* jnt = j3d_section<J3dJnt1>(file);
  const J3dShp1* shp = j3d_section<J3dShp1>(file);
  if (inf == nullptr || vtx == nullptr || evp == nullptr || drw == nullptr || jnt == nullptr || shp == nullptr) {
    static const std::array<std::string, 6> kNeeded{"INF1", "VTX1", "EVP1", "DRW1", "JNT1", "SHP1"};
    for (const J3dSection& s : file.sections) {
      if (std::holds_alternative<J3dRawSection>(s) && std::ranges::find(kNeeded, j3d_section_magic(s)) != kNeeded.end()) {
        return Error{ErrorCode::unsupported, std::nullopt, j3d_section_magic(s),
                     "is kept as its bytes (a layout its tables cannot express), so the model cannot be lifted; it still reads and writes back"};
      }
    }
    return Error{ErrorCode::bad_value, std::nullopt, "sections", "a J3D model needs INF1, VTX1, EVP1, DRW1, JNT1 and SHP1; this file lacks one"};
  }
  if (drw->weighted.size() != drw->indices.size()) {
    return Error{ErrorCode::inconsistent, std::nullopt, "DRW1", "has " + std::to_string(drw->weighted.size()) + " flags but " + std::to_string(drw->indices.size()) + " indices"};
  }
  if (jnt->joints.empty()) return Error{ErrorCode::bad_value, std::nullopt, "JNT1", "has no joints, so nothing can hold the shapes"};

  Scene scene;
  scene.scenes.push_back(SceneRoots{});
  scene.extras = {{"format", "j3d"},
                  {"type", std::string(file.type.begin(), file.type.end())},
                  {"vertex_formats", vertex_formats(*vtx)}};

  Hierarchy h{*jnt, shp->shapes.size(), scene, std::vector<int>(jnt->joints.size(), -1),
              std::vector<int>(shp->shapes.size(), -1), std::vector<bool>(shp->shapes.size(), false), {}, {}};
  h.walk(inf->roots, -1, -1);
  if (h.error) return *h.error;
  for (std::size_t j = 0; j < jnt->joints.size(); ++j) {  // joints INF1 leaves out stand at the root
    if (h.joint_node[j] >= 0) continue;
    Node node;
    node.name = joint_name(*jnt, j);
    node.local = joint_trs(jnt->joints[j]);
    node.extras = {{"joint", j}, {"not_in_inf1", true}};
    h.joint_node[j] = scene.add_node(std::move(node));
  }
  for (std::size_t s = 0; s < shp->shapes.size(); ++s) {
    if (h.shape_placed[s]) continue;
    Node node;
    node.name = "shape" + std::to_string(s);
    node.mesh = static_cast<int>(s);
    node.extras = {{"shape", s}, {"not_in_inf1", true}};
    h.shape_nodes.push_back(scene.add_node(std::move(node)));
  }

  // The skin: every joint, with the inverse of its world matrix at rest (glTF's own chain of node
  // transforms). EVP1's stored inverse binds are kept in the skin's extras for the way back.
  auto world = j3d_joint_world_matrices(file);
  if (!world) return world.error();
  const std::vector<Mat4> node_world = world_matrices(scene);
  std::vector<Mat4> joint_world(jnt->joints.size()), evp1_inverse_binds(jnt->joints.size());
  Skin skin;
  skin.name = "skeleton";
  Extras stored = Extras::array();
  for (std::size_t j = 0; j < jnt->joints.size(); ++j) {
    joint_world[j].m = (*world)[j];
    skin.joints.push_back(h.joint_node[j]);
    bool invertible = true;
    Mat4 ibm = inverse(node_world[static_cast<std::size_t>(h.joint_node[j])], &invertible);
    if (j < evp->inverse_binds.size()) {
      evp1_inverse_binds[j] = Mat4::from_3x4_rows(evp->inverse_binds[j].data());
      stored.push_back(evp->inverse_binds[j]);
    } else {
      evp1_inverse_binds[j] = inverse(joint_world[j]);
    }
    // A joint scaled to 0 at rest (Mario's PartsControl) has no inverse and nothing weighted to it:
    // its bind is where it stands, unscaled.
    if (!invertible) {
      Trs placed = decompose(node_world[static_cast<std::size_t>(h.joint_node[j])]);
      placed.scale = {1, 1, 1};
      ibm = inverse(trs_matrix(placed));
    }
    skin.inverse_bind_matrices.push_back(ibm);
  }
  if (!inf->roots.empty() && inf->roots.front().type == 0x10 && inf->roots.size() == 1) skin.skeleton = h.joint_node[inf->roots.front().index];
  skin.extras = {{"evp1_inverse_binds", std::move(stored)}};  // 3x4 rows, one per joint, as stored
  scene.skins.push_back(std::move(skin));
  for (int n : h.shape_nodes) scene.nodes[static_cast<std::size_t>(n)].skin = 0;

  Arrays arrays;
  auto decode = [&](std::uint8_t slot, J3dDecodedArray& out) -> Result<void> {
    auto a = j3d_decode_array(*vtx, slot);
    if (!a) return a.error();
    out = std::move(*a);
    return {};
  };
  if (auto e = decode(0, arrays.position); !e) return e.error();
  if (auto e = decode(1, arrays.normal); !e) return e.error();
  if (auto e = decode(3, arrays.color[0]); !e) return e.error();
  if (auto e = decode(4, arrays.color[1]); !e) return e.error();
  for (std::uint8_t u = 0; u < 8; ++u) {
    if (auto e = decode(static_cast<std::uint8_t>(5 + u), arrays.uv[u]); !e) return e.error();
  }

  Geometry g{*shp, *drw, *evp, arrays, joint_world, evp1_inverse_binds, std::vector<std::optional<Influences>>(drw->indices.size())};
  for (std::size_t s = 0; s < shp->shapes.size(); ++s) {
    auto prim = g.shape(s);
    if (!prim) return prim.error();
    prim->material = h.shape_material[s];
    Mesh mesh;
    mesh.name = "shape" + std::to_string(s);
    mesh.primitives.push_back(std::move(*prim));
    scene.meshes.push_back(std::move(mesh));
  }

  if (auto error = lift_j3d_materials(file, scene); !error) return error.error();
  if (auto error = lift_j3d_animations(inputs, h.joint_node, scene); !error) return error.error();
  // A material may sample UVs its shape does not draw (a texgen from TEXn the descriptors lack, or
  // generated coordinates shown on UV 0): those sets are added as zeros so TEXCOORD_n exists.
  for (Mesh& mesh : scene.meshes) {
    for (Primitive& p : mesh.primitives) {
      if (p.material < 0) continue;
      const Material& m = scene.materials[static_cast<std::size_t>(p.material)];
      const std::size_t wanted = m.texture >= 0 ? static_cast<std::size_t>(m.uv_set) + 1 : 0;
      if (p.uvs.size() >= wanted) continue;
      p.extras["uvs_added"] = wanted - p.uvs.size();
      p.uvs.resize(wanted, std::vector<Vec2>(p.vertex_count(), Vec2{}));
    }
  }
  return scene;
}

}  // namespace remodel::scene
