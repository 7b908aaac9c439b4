// Scene -> KH BBS PMO and PMP over a base (issue 15). The base is lifted the way export lifts it and
// each incoming value is compared with the lifted one: equal values keep their stored bytes, changed
// ones are encoded the way the base stores them (sections: lower_section.cpp; BON matrices
// row-vector; names in their fixed-size fields; pictures through the TIM2 encoder).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>

#include "model/textures.hpp"
#include "scene/bone_turns.hpp"
#include "scene/image_check.hpp"
#include "scene/kh_bbs/lower.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"

namespace remodel::scene {

namespace {

void warn(std::vector<Warning>& warnings, std::string where, std::string message) {
  warnings.push_back(Warning{std::move(where), std::move(message)});
}

// `name` into a fixed, zero-padded field; an error when it does not fit.
template <std::size_t N>
Result<void> store_name(const std::string& name, std::array<std::uint8_t, N>& out, const std::string& field) {
  if (name.size() > N) {
    return at(field, "the name \"" + name + "\" has " + std::to_string(name.size()) + " bytes but the field holds " + std::to_string(N),
              ErrorCode::unsupported);
  }
  if (name.find('\0') != std::string::npos) return at(field, "the name \"" + name + "\" contains a NUL byte");
  out.fill(0);
  std::memcpy(out.data(), name.data(), name.size());
  return {};
}

std::optional<int> extras_int(const Extras& e, const char* key) {
  if (!e.is_object() || !e.contains(key) || !e[key].is_number_integer()) return std::nullopt;
  return e[key].get<int>();
}

// Which incoming skin joint is which BON joint: by the lift's `index` extras, else by name, else by
// order (said in a warning). Joints cannot be added or removed: the count must stay.
Result<std::vector<int>> match_joints(const Scene& lifted, const Skin& ls, const Scene& in, const Skin& is,
                                      const std::string& where, std::vector<Warning>& warnings) {
  const std::size_t n = ls.joints.size();
  for (std::size_t s = 0; s < is.joints.size(); ++s) {
    if (is.joints[s] < 0 || static_cast<std::size_t>(is.joints[s]) >= in.nodes.size()) {
      return at(where + ".joints[" + std::to_string(s) + "]", "joint " + std::to_string(s) + " is node " + std::to_string(is.joints[s]) + ", which does not exist");
    }
  }
  if (is.joints.size() != n) {
    return at(where + ".joints", "the skin has " + std::to_string(is.joints.size()) + " joints but the base BON has " + std::to_string(n) +
                                     ": the format's joints cannot be added or removed here", ErrorCode::unsupported);
  }
  auto complete = [&](const std::vector<int>& m) {
    std::vector<bool> seen(n, false);
    for (int b : m) {
      if (b < 0 || seen[static_cast<std::size_t>(b)]) return false;
      seen[static_cast<std::size_t>(b)] = true;
    }
    return true;
  };
  std::vector<int> bon_of(n, -1);
  for (std::size_t s = 0; s < n; ++s) {
    const auto index = extras_int(in.nodes[static_cast<std::size_t>(is.joints[s])].extras, "index");
    for (std::size_t b = 0; b < n && index; ++b) {
      if (extras_int(lifted.nodes[static_cast<std::size_t>(ls.joints[b])].extras, "index") == index) bon_of[s] = static_cast<int>(b);
    }
  }
  if (complete(bon_of)) return bon_of;
  std::fill(bon_of.begin(), bon_of.end(), -1);
  for (std::size_t s = 0; s < n; ++s) {
    const std::string& name = in.nodes[static_cast<std::size_t>(is.joints[s])].name;
    for (std::size_t b = 0; b < n; ++b) {
      if (lifted.nodes[static_cast<std::size_t>(ls.joints[b])].name == name) bon_of[s] = static_cast<int>(b);
    }
  }
  if (complete(bon_of)) return bon_of;
  for (std::size_t s = 0; s < n; ++s) bon_of[s] = static_cast<int>(s);
  warn(warnings, where, "joints matched to the BON by order: their names and extras did not identify every joint");
  return bon_of;
}

// A node's world matrix: its locals up to the root.
Mat4 world_of(const Scene& s, int node) {
  Mat4 w = Mat4::identity();
  for (std::size_t guard = 0; node >= 0 && static_cast<std::size_t>(node) < s.nodes.size() && guard <= s.nodes.size(); ++guard) {
    w = trs_matrix(s.nodes[static_cast<std::size_t>(node)].local) * w;
    node = s.nodes[static_cast<std::size_t>(node)].parent;
  }
  return w;
}

bool close(float a, float b) { return std::fabs(a - b) <= std::max({1.0f, std::fabs(a), std::fabs(b)}) * (1.0f / 131072.0f); }

// Whether the incoming skin binds every joint where the base does, its joint frames at most turned
// about their origins (Blender points bones along their children): each joint's world origin and
// world-times-inverse-bind agree within 2^-17 of their magnitude (at least 1), f32 noise. The game's
// PAM animations are stored against the BON's own frames, so then the stored pose is kept.
bool same_bind_pose(const Scene& lifted, const Skin& ls, const Scene& in, const Skin& is, const std::vector<int>& bon_of) {
  if (is.inverse_bind_matrices.size() != is.joints.size() || ls.inverse_bind_matrices.size() != ls.joints.size()) return false;
  for (std::size_t s = 0; s < is.joints.size(); ++s) {
    const std::size_t b = static_cast<std::size_t>(bon_of[s]);
    const Mat4 wi = world_of(in, is.joints[s]), wb = world_of(lifted, ls.joints[b]);
    const Mat4 si = wi * is.inverse_bind_matrices[s], sb = wb * ls.inverse_bind_matrices[b];
    for (int r = 0; r < 3; ++r) {
      if (!close(wi.at(r, 3), wb.at(r, 3))) return false;
    }
    for (std::size_t k = 0; k < 16; ++k) {
      if (!close(si.m[k], sb.m[k])) return false;
    }
  }
  return true;
}

// The BON's world bind matrices from its locals (row-vector form, which is Mat4's column-major order).
std::vector<Mat4> bon_worlds(const Bon& bon) {
  std::vector<Mat4> world(bon.joints.size());
  std::vector<char> done(bon.joints.size(), 0);
  const std::function<const Mat4&(std::size_t, std::size_t)> of = [&](std::size_t b, std::size_t depth) -> const Mat4& {
    if (done[b] != 0) return world[b];
    Mat4 local;
    local.m = bon.joints[b].local;
    const std::uint16_t parent = bon.joints[b].parent;
    world[b] = parent < bon.joints.size() && depth < bon.joints.size() ? of(parent, depth + 1) * local : local;
    done[b] = 1;
    return world[b];
  };
  for (std::size_t b = 0; b < bon.joints.size(); ++b) of(b, 0);
  return world;
}

// Names and parents of the BON from the incoming skin's joints; with `pose`, the bind locals of the
// joints that moved (`joints`: Blender's bone turns taken off, its noise ignored, bone_turns.hpp) and
// the inverse binds of the joints whose world moved with them (the inverse of their new world).
Result<void> lower_bon(Bon& out, const Scene& lifted, const Skin& ls, const Scene& in, const Skin& is,
                               const std::vector<int>& bon_of, const std::string& field, const std::string& where, bool pose,
                               const std::vector<IncomingJoint>& joints) {
  const std::vector<Mat4> world_before = bon_worlds(out);
  if (!is.inverse_bind_matrices.empty() && is.inverse_bind_matrices.size() != is.joints.size()) {
    return at(where + ".inverse_bind_matrices", "the skin has " + std::to_string(is.joints.size()) + " joints but " +
                                                    std::to_string(is.inverse_bind_matrices.size()) + " inverse bind matrices", ErrorCode::inconsistent);
  }
  std::vector<int> slot_of_node(in.nodes.size(), -1);
  for (std::size_t s = 0; s < is.joints.size(); ++s) slot_of_node[static_cast<std::size_t>(is.joints[s])] = static_cast<int>(s);
  for (std::size_t s = 0; s < is.joints.size(); ++s) {
    const std::size_t b = static_cast<std::size_t>(bon_of[s]);
    BonJoint& j = out.joints[b];
    const std::string jf = field + ".joints[" + std::to_string(b) + "]";
    const Node& node = in.nodes[static_cast<std::size_t>(is.joints[s])];
    const Node& was = lifted.nodes[static_cast<std::size_t>(ls.joints[b])];
    if (node.name != was.name) {
      if (auto e = store_name(node.name, j.name, jf + ".name"); !e) return e.error();
    }
    const int parent_slot = node.parent < 0 ? -1 : slot_of_node[static_cast<std::size_t>(node.parent)];
    const int parent = parent_slot < 0 ? -1 : bon_of[static_cast<std::size_t>(parent_slot)];
    if (parent != (j.parent == 0xFFFF ? -1 : static_cast<int>(j.parent))) {
      return at(where + ".joints[" + std::to_string(s) + "]", "joint \"" + node.name + "\" has another parent than in the base BON: "
                                                   "the hierarchy cannot be changed", ErrorCode::unsupported);
    }
    for (float f : trs_matrix(node.local).m) {
      if (!std::isfinite(f)) return at(where + ".joints[" + std::to_string(s) + "]", "joint \"" + node.name + "\" has a non-finite transform");
    }
    if (!is.inverse_bind_matrices.empty()) {
      for (float f : is.inverse_bind_matrices[s].m) {
        if (!std::isfinite(f)) return at(where + ".inverse_bind_matrices[" + std::to_string(s) + "]", "a non-finite inverse bind matrix");
      }
    }
    const IncomingJoint& ij = joints[s];
    if (pose && (ij.translation_moved || ij.rotation_moved || ij.scale_moved) && !(ij.local == was.local)) j.local = trs_matrix(ij.local).m;
  }
  if (!pose) return {};
  const std::vector<Mat4> world_after = bon_worlds(out);
  for (std::size_t b = 0; b < out.joints.size(); ++b) {
    if (world_after[b] == world_before[b]) continue;
    bool ok = true;
    const Mat4 inverse_bind = inverse(world_after[b], &ok);
    if (ok) out.joints[b].inverse_bind = inverse_bind.m;  // a joint scaled to 0 keeps what it stored
  }
  return {};
}

// The incoming node that draws a mesh named `name` (the lift's), else the only one drawing a mesh.
int find_mesh_node(const Scene& in, const std::string& name) {
  int only = -1, count = 0;
  for (std::size_t i = 0; i < in.nodes.size(); ++i) {
    const Node& n = in.nodes[i];
    if (n.mesh < 0 || static_cast<std::size_t>(n.mesh) >= in.meshes.size()) continue;
    if (in.meshes[static_cast<std::size_t>(n.mesh)].name == name) return static_cast<int>(i);
    only = static_cast<int>(i);
    ++count;
  }
  return count == 1 ? only : -1;
}

struct ModelEdit {
  const Scene& lifted;
  int lifted_node;  // the node drawing the base PMO's mesh
  const Scene& in;
  int node;         // the incoming node drawing it
  std::string field;
  kh_bbs::TextureLists lists;  // where a new material's texture info and TIM2 go
  kh_bbs::NewTextures& made;
};

// Which incoming material stands for each lifted one: by name (in order among equal names), then by
// name without the ".001"-style suffix Blender gives a repeated name. Never by order: an incoming
// material no base material is named for is the modder's own and gets sections of its own.
std::vector<int> match_materials(const Scene& lifted, const Scene& in) {
  std::vector<int> out(lifted.materials.size(), -1);
  std::vector<bool> taken(in.materials.size(), false);
  auto pass = [&](auto&& name_of) {
    for (std::size_t b = 0; b < out.size(); ++b) {
      for (std::size_t i = 0; i < in.materials.size() && out[b] < 0; ++i) {
        if (!taken[i] && name_of(in.materials[i].name) == lifted.materials[b].name) {
          out[b] = static_cast<int>(i);
          taken[i] = true;
        }
      }
    }
  };
  pass([](const std::string& n) { return n; });
  pass([](const std::string& n) {
    const std::size_t dot = n.rfind('.');
    const bool suffix = dot != std::string::npos && n.size() - dot == 4 &&
                        std::all_of(n.begin() + static_cast<std::ptrdiff_t>(dot) + 1, n.end(), [](char c) { return c >= '0' && c <= '9'; });
    return suffix ? n.substr(0, dot) : n;
  });
  return out;
}

// Corners that hold the same values become one vertex (Blender gives every corner its own, its face
// normals apart), so the rebuild can strip them: positions, UVs, colours, joints and weights bit for
// bit, normals only when the section stores them.
void weld(Primitive& p, bool normals) {
  std::unordered_map<std::string, std::uint32_t> first;
  std::string key;
  auto add = [&](const auto& value) { key.append(reinterpret_cast<const char*>(&value), sizeof value); };
  for (std::uint32_t& v : p.indices) {
    key.clear();
    add(p.positions[v]);
    if (normals && !p.normals.empty()) add(p.normals[v]);
    for (const auto& set : p.uvs) {
      if (set.size() == p.vertex_count()) add(set[v]);
    }
    if (!p.colors.empty()) add(p.colors[v]);
    for (std::size_t k = 0; k < p.influences; ++k) {
      add(p.joints[std::size_t{v} * p.influences + k]);
      add(p.weights[std::size_t{v} * p.influences + k]);
    }
    v = first.emplace(key, v).first->second;
  }
}

// Sections appended to mesh0 and mesh1 for materials no base material stands for.
using Added = std::array<std::vector<PmoSection>, 2>;

bool is_own_material(const std::vector<int>& material_of, int material) {
  return material < 0 || std::find(material_of.begin(), material_of.end(), material) == material_of.end();
}

// A primitive drawn with a material no base material stands for (the modder's own): its triangles
// become sections as authoring makes them, with a new texture info and TIM2 for its texture, never
// an unrelated base section's state.
Result<void> add_own_material(const ModelEdit& m, const Primitive& prim, const std::vector<int>* bon_of, float scale, const std::string& where,
                              Added& added, std::vector<Warning>& warnings) {
  Primitive drawn = prim;
  drawn.topology = Topology::triangles;
  drawn.indices = drawn_triangles(prim);
  if (drawn.indices.empty()) return {};
  weld(drawn, false);
  const std::size_t infos = m.lists.infos.size();
  auto section = kh_bbs::new_section(m.in, drawn, prim.material, bon_of != nullptr, m.made, m.lists, warnings);
  if (!section) return section.error();
  const std::string list = "mesh" + std::to_string(section->list);
  const kh_bbs::SectionEdit edit{section->base, section->lifted, drawn, scale, bon_of, where, m.field + "." + list, true};
  auto rebuilt = kh_bbs::rebuild_section(edit, warnings);
  if (!rebuilt) return rebuilt.error();
  const bool material = prim.material >= 0 && static_cast<std::size_t>(prim.material) < m.in.materials.size();
  const std::string name = material ? "material \"" + m.in.materials[static_cast<std::size_t>(prim.material)].name + "\"" : "no material";
  const std::string info = section->base.texture == 0xFF ? "" : "\"" + fixed_string(m.lists.infos[section->base.texture].name) + "\"";
  const std::string texture = section->base.texture == 0xFF ? "no texture"
                              : m.lists.infos.size() > infos ? "a new texture info " + info + " and its TIM2"
                                                             : "the texture info " + info + " made for it";
  warn(warnings, where, "drawn with " + name + ", which no base material stands for: " + std::to_string(drawn.indices.size() / 3) + " triangles become " +
                            std::to_string(rebuilt->size()) + " new sections at the end of " + m.field + "." + list + ", drawn with " + texture);
  auto& to = added[static_cast<std::size_t>(section->list)];
  to.insert(to.end(), rebuilt->begin(), rebuilt->end());
  return {};
}

using EditFor = std::function<kh_bbs::SectionEdit(std::size_t, std::size_t)>;  // (base primitive, incoming primitive)
using PartOf = std::function<std::vector<PmoSection>&(std::size_t)>;            // what a base primitive becomes

// Without section extras (Blender drops them, joins a mesh's primitives and splits them again by
// material): each base section is looked for among the triangles of the incoming primitives drawing
// its material, by its values as it stores them; a section found whole keeps its stored bytes. The
// triangles no section claims (edited, added) are re-partitioned into sections (rebuild_section) in
// place of the first section of their material that was not found, else after its last section;
// sections not found and not replaced were removed.
Result<void> lower_merged(const ModelEdit& m, const Mesh& lm, const Mesh& im, const std::string& where, const EditFor& edit_for,
                                  const PartOf& part_of, float scale, const std::vector<int>* bon_of, const kh_bbs::LiftedColours& lifted_colours,
                                  Added& added, std::vector<Warning>& warnings) {
  const std::vector<int> material_of = match_materials(m.lifted, m.in);
  auto incoming_material = [&](std::size_t b) {
    const int lmat = lm.primitives[b].material;
    return lmat >= 0 && static_cast<std::size_t>(lmat) < material_of.size() ? material_of[static_cast<std::size_t>(lmat)] : -1;
  };
  // The cell is 8 s16 steps of the model scale: a corner within half of it is looked at.
  const float cell = std::fabs(scale) / 4096.0f;
  std::vector<std::optional<TriangleFinder>> finders(im.primitives.size());
  std::vector<bool> found(lm.primitives.size(), false);
  bool exhausted = false;
  for (std::size_t b = 0; b < lm.primitives.size(); ++b) {
    for (std::size_t p = 0; p < im.primitives.size() && !found[b]; ++p) {
      if (im.primitives[p].material != incoming_material(b)) continue;
      const kh_bbs::SectionEdit edit = edit_for(b, p);
      auto values = kh_bbs::SectionValues::make(edit);
      if (!values) return values.error();
      if (!finders[p]) finders[p].emplace(im.primitives[p], cell);
      found[b] = finders[p]->claim(lm.primitives[b], [&](std::uint32_t bv, std::uint32_t iv) { return values->same(bv, iv); }).has_value();
      exhausted = exhausted || finders[p]->exhausted();
    }
  }
  const std::size_t kept = static_cast<std::size_t>(std::count(found.begin(), found.end(), true));
  warn(warnings, where, "primitives carry no section extras: " + std::to_string(kept) + " of " + std::to_string(lm.primitives.size()) +
                            " PMO sections found unchanged among the triangles of their material's primitives" +
                            (exhausted ? " (the search stopped at its work bound: the rest count as changed)" : ""));

  std::vector<bool> replaced(lm.primitives.size(), false);
  for (std::size_t p = 0; p < im.primitives.size(); ++p) {
    if (is_own_material(material_of, im.primitives[p].material)) {
      if (auto e = add_own_material(m, im.primitives[p], bon_of, scale, where + ".primitives[" + std::to_string(p) + "]", added, warnings); !e) return e;
      continue;
    }
    Primitive rest = im.primitives[p];
    rest.topology = Topology::triangles;
    rest.indices = finders[p] ? finders[p]->unclaimed() : drawn_triangles(im.primitives[p]);
    if (rest.indices.empty()) continue;
    if (lm.primitives.empty()) {
      return at(where + ".primitives[" + std::to_string(p) + "]", "the base PMO has no section to take a vertex format from", ErrorCode::unsupported);
    }
    // In place of the first section of its material not found, else after its last, else after the last section.
    std::optional<std::size_t> like;
    bool in_place = false;
    for (std::size_t b = 0; b < lm.primitives.size(); ++b) {
      if (incoming_material(b) != im.primitives[p].material || im.primitives[p].material < 0) continue;
      if (!found[b] && !in_place) {
        like = b;
        in_place = true;
      } else if (!in_place) {
        like = b;
      }
    }
    const std::size_t b = like.value_or(lm.primitives.size() - 1);
    const kh_bbs::SectionEdit whole = edit_for(b, p);
    lifted_colours.keep(rest);
    weld(rest, psp::VertexFormat::parse(whole.base.vertex_flags & 0xFFFFFF).normal != psp::NumFormat::none);
    const kh_bbs::SectionEdit edit{whole.base, whole.lifted, rest, whole.scale, whole.bon_of, whole.where, whole.field, whole.allow_lists};
    auto rebuilt = kh_bbs::rebuild_section(edit, warnings);
    if (!rebuilt) return rebuilt.error();
    std::vector<PmoSection>& part = part_of(b);
    if (in_place && !replaced[b]) part.clear();
    replaced[b] = replaced[b] || in_place;
    warn(warnings, whole.where, std::to_string(rest.indices.size() / 3) + " triangles stand for no unchanged PMO section: re-partitioned into " +
                                    std::to_string(rebuilt->size()) + " sections " + (in_place ? "in place of " : "after ") + whole.field);
    part.insert(part.end(), rebuilt->begin(), rebuilt->end());
  }
  for (std::size_t b = 0; b < lm.primitives.size(); ++b) {
    if (!found[b] && !replaced[b]) part_of(b).clear();  // its triangles are gone: removed
  }
  return {};
}

// One PMO: its BON from the incoming skin, and its sections from the incoming primitives.
Result<void> lower_model(const ModelEdit& m, const Pmo& base, Pmo& out, std::vector<Warning>& warnings) {
  const Node& ln = m.lifted.nodes[static_cast<std::size_t>(m.lifted_node)];
  const Node& node = m.in.nodes[static_cast<std::size_t>(m.node)];
  const std::string where = "meshes[" + std::to_string(node.mesh) + "]";
  std::vector<int> bon_of;
  if (base.skeleton) {
    if (node.skin < 0 || static_cast<std::size_t>(node.skin) >= m.in.skins.size()) {
      return at("nodes[" + std::to_string(m.node) + "].skin", "the base PMO has a skeleton but the node drawing it has no skin",
                ErrorCode::unsupported);
    }
    const Skin& ls = m.lifted.skins[static_cast<std::size_t>(ln.skin)];
    const Skin& is = m.in.skins[static_cast<std::size_t>(node.skin)];
    const std::string sw = "skins[" + std::to_string(node.skin) + "]";
    auto matched = match_joints(m.lifted, ls, m.in, is, sw, warnings);
    if (!matched) return matched.error();
    bon_of = std::move(*matched);
    // Joint frames turned about their origins (any turn, f32 noise), or Blender's axis turns with its
    // bone-roll noise taken off: no joint moved, so the stored pose stays, which the game's
    // animations are made for. Non-finite matrices never compare close, so lower_bon still refuses them.
    std::vector<int> base_nodes(is.joints.size(), -1);
    for (std::size_t s = 0; s < is.joints.size(); ++s) base_nodes[s] = ls.joints[static_cast<std::size_t>(bon_of[s])];
    const std::vector<IncomingJoint> joints = incoming_joints(m.in, is.joints, m.lifted, base_nodes);
    const bool moved = std::any_of(joints.begin(), joints.end(), [](const IncomingJoint& j) { return j.translation_moved || j.rotation_moved || j.scale_moved; });
    const bool pose = moved && !same_bind_pose(m.lifted, ls, m.in, is, bon_of);
    if (!pose && !(is.inverse_bind_matrices == ls.inverse_bind_matrices)) {
      warn(warnings, sw, "the joints bind where the BON's do, their frames turned about their origins (as Blender orients bones): "
                         "the stored bind pose is kept, which the game's animations are made for");
    }
    if (auto e = lower_bon(*out.skeleton, m.lifted, ls, m.in, is, bon_of, m.field + ".skeleton", sw, pose, joints); !e) return e.error();
  }

  const Mesh& lm = m.lifted.meshes[static_cast<std::size_t>(ln.mesh)];
  const Mesh& im = m.in.meshes[static_cast<std::size_t>(node.mesh)];
  for (std::size_t p = 0; p < im.primitives.size(); ++p) {
    if (auto e = kh_bbs::check_primitive(im.primitives[p], where + ".primitives[" + std::to_string(p) + "]"); !e) return e.error();
    for (std::size_t k = 0; k < im.primitives[p].joints.size() && base.skeleton; ++k) {
      if (im.primitives[p].joints[k] >= bon_of.size()) {
        return at(where + ".primitives[" + std::to_string(p) + "].joints", "joint " + std::to_string(im.primitives[p].joints[k]) +
                                                                   " is past the skin's " + std::to_string(bon_of.size()) + " joints");
      }
    }
  }
  // Incoming primitive for each base section: by the lift's list/section extras, else by order.
  std::vector<int> incoming_of(lm.primitives.size(), -1);
  bool any_extras = false;
  for (std::size_t p = 0; p < im.primitives.size(); ++p) {
    const auto list = extras_int(im.primitives[p].extras, "list"), section = extras_int(im.primitives[p].extras, "section");
    if (!list || !section) continue;
    any_extras = true;
    for (std::size_t b = 0; b < lm.primitives.size(); ++b) {
      if (extras_int(lm.primitives[b].extras, "list") == list && extras_int(lm.primitives[b].extras, "section") == section) {
        if (incoming_of[b] >= 0) {
          return at(where + ".primitives[" + std::to_string(p) + "].extras", "two primitives claim section " + std::to_string(*section) +
                                                                  " of mesh" + std::to_string(*list), ErrorCode::inconsistent);
        }
        incoming_of[b] = static_cast<int>(p);
      }
    }
  }
  // What each base section becomes: itself edited in place, rebuilt sections, or nothing (removed).
  std::array<std::vector<std::vector<PmoSection>>, 2> parts;
  for (int list = 0; list < 2; ++list) {
    if (const auto& l = list == 0 ? out.mesh0 : out.mesh1) {
      for (const PmoSection& s : l->sections) parts[static_cast<std::size_t>(list)].push_back({s});
    }
  }
  auto key = [&](std::size_t b) {
    return std::pair<std::size_t, std::size_t>{static_cast<std::size_t>(*extras_int(lm.primitives[b].extras, "list")),
                                               static_cast<std::size_t>(*extras_int(lm.primitives[b].extras, "section"))};
  };
  auto edit_for = [&](std::size_t b, std::size_t p) {
    const auto [list, section] = key(b);
    const PmoMeshList& bl = list == 0 ? *base.mesh0 : *base.mesh1;
    return kh_bbs::SectionEdit{bl.sections[section], lm.primitives[b], im.primitives[p], base.scale,
                               base.skeleton ? &bon_of : nullptr, where + ".primitives[" + std::to_string(p) + "]",
                               m.field + ".mesh" + std::to_string(list) + ".sections[" + std::to_string(section) + "]"};
  };
  Added added;
  const auto part_of = [&](std::size_t b) -> std::vector<PmoSection>& {
    const auto [list, section] = key(b);
    return parts[list][section];
  };
  const kh_bbs::LiftedColours lifted_colours(lm.primitives);
  if (!any_extras) {
    if (auto e = lower_merged(m, lm, im, where, edit_for, part_of, base.scale, base.skeleton ? &bon_of : nullptr, lifted_colours, added, warnings); !e) {
      return e.error();
    }
  }
  for (std::size_t b = 0; b < lm.primitives.size() && any_extras; ++b) {
    const auto [list, section] = key(b);
    std::vector<PmoSection>& part = parts[list][section];
    if (incoming_of[b] < 0) {
      part.clear();  // no primitive stands for it: removed
      continue;
    }
    const kh_bbs::SectionEdit edit = edit_for(b, static_cast<std::size_t>(incoming_of[b]));
    auto done = kh_bbs::lower_section_in_place(edit, part[0]);
    if (!done) return done.error();
    if (*done) continue;
    Primitive kept = edit.incoming;
    lifted_colours.keep(kept);
    auto rebuilt = kh_bbs::rebuild_section({edit.base, edit.lifted, kept, edit.scale, edit.bon_of, edit.where, edit.field, edit.allow_lists}, warnings);
    if (!rebuilt) return rebuilt.error();
    part = std::move(*rebuilt);
  }
  // A primitive standing for no section is added after the last section drawing its material (by
  // name), in that section's format and state; drawn with another material, as authoring makes it.
  for (std::size_t p = 0; p < im.primitives.size() && any_extras; ++p) {
    if (std::find(incoming_of.begin(), incoming_of.end(), static_cast<int>(p)) != incoming_of.end()) continue;
    const int mat = im.primitives[p].material;
    const std::string name = mat >= 0 && static_cast<std::size_t>(mat) < m.in.materials.size() ? m.in.materials[static_cast<std::size_t>(mat)].name : "";
    std::optional<std::size_t> like;
    for (std::size_t b = 0; b < lm.primitives.size(); ++b) {
      const int lmat = lm.primitives[b].material;
      if (lmat >= 0 && m.lifted.materials[static_cast<std::size_t>(lmat)].name == name) like = b;
    }
    if (!like) {
      if (auto e = add_own_material(m, im.primitives[p], base.skeleton ? &bon_of : nullptr, base.scale, where + ".primitives[" + std::to_string(p) + "]",
                                    added, warnings); !e) return e.error();
      continue;
    }
    auto rebuilt = kh_bbs::rebuild_section(edit_for(*like, p), warnings);
    if (!rebuilt) return rebuilt.error();
    const auto [list, section] = key(*like);
    auto& part = parts[list][section];
    part.insert(part.end(), rebuilt->begin(), rebuilt->end());
  }
  for (std::size_t list = 0; list < 2; ++list) {
    auto& l = list == 0 ? out.mesh0 : out.mesh1;
    if (!l && added[list].empty()) continue;
    if (!l) l.emplace();
    l->sections.clear();
    for (auto& part : parts[list]) l->sections.insert(l->sections.end(), part.begin(), part.end());
    l->sections.insert(l->sections.end(), added[list].begin(), added[list].end());
  }
  return {};
}

// Replaced pictures through the TIM2 encoder, and renamed textures into the texture info naming them.
// Incoming textures stand for base pictures by the lift's extras, else by name, else through their
// materials (Blender names materials, not textures), else by order when the counts agree; `own`
// marks incoming textures made into new TIM2s, which stand for none. `drawn` (per TIM2, nullptr: all)
// says which pictures sections still draw: only those are said to be kept.
Result<void> lower_textures(Document& doc, std::vector<PmoTextureInfo>& infos, const Scene& lifted, const Scene& in, const std::vector<bool>& own,
                            const std::vector<bool>* drawn, std::vector<Warning>& warnings) {
  std::vector<int> incoming_of(lifted.textures.size(), -1);
  const auto stand = [&](std::size_t b, std::size_t t) {
    if (incoming_of[b] < 0 && !(t < own.size() && own[t])) incoming_of[b] = static_cast<int>(t);
  };
  for (std::size_t t = 0; t < in.textures.size(); ++t) {
    const auto tim2 = extras_int(in.textures[t].extras, "tim2"), picture = extras_int(in.textures[t].extras, "picture");
    for (std::size_t b = 0; b < lifted.textures.size(); ++b) {
      const bool same = tim2 ? extras_int(lifted.textures[b].extras, "tim2") == tim2 && extras_int(lifted.textures[b].extras, "picture") == picture
                             : !in.textures[t].name.empty() && lifted.textures[b].name == in.textures[t].name;
      if (same) stand(b, t);
    }
  }
  const std::vector<int> material_of = match_materials(lifted, in);
  for (std::size_t b = 0; b < material_of.size(); ++b) {
    const int lt = lifted.materials[b].texture, i = material_of[b];
    const int it = i < 0 ? -1 : in.materials[static_cast<std::size_t>(i)].texture;
    if (lt >= 0 && static_cast<std::size_t>(lt) < lifted.textures.size() && it >= 0 && static_cast<std::size_t>(it) < in.textures.size()) {
      stand(static_cast<std::size_t>(lt), static_cast<std::size_t>(it));
    }
  }
  if (std::count(incoming_of.begin(), incoming_of.end(), -1) != 0 && in.textures.size() == lifted.textures.size() &&
      std::none_of(own.begin(), own.end(), [](bool o) { return o; })) {
    for (std::size_t b = 0; b < lifted.textures.size(); ++b) incoming_of[b] = static_cast<int>(b);
    if (!lifted.textures.empty()) warn(warnings, "textures", "textures matched to the TIM2 pictures by order: names and extras did not identify them all");
  }
  for (std::size_t b = 0; b < lifted.textures.size(); ++b) {
    if (incoming_of[b] < 0) {
      const int tim2 = extras_int(lifted.textures[b].extras, "tim2").value_or(-1);
      const bool still = drawn == nullptr || tim2 < 0 || static_cast<std::size_t>(tim2) >= drawn->size() || (*drawn)[static_cast<std::size_t>(tim2)];
      if (still) warn(warnings, "textures", "no incoming texture stands for \"" + lifted.textures[b].name + "\": its picture is kept");
      continue;
    }
    const Texture& t = in.textures[static_cast<std::size_t>(incoming_of[b])];
    const Texture& was = lifted.textures[b];
    const std::string where = "textures[" + std::to_string(incoming_of[b]) + "]";
    if (!(t.image == was.image)) {
      if (auto e = check_image(t.image, where); !e) return e.error();
      if (auto replaced = replace_texture(doc, b, t.image); !replaced) return image_error(replaced.error(), where);
    }
    if (!t.name.empty() && t.name != was.name) {  // Blender's textures have no name (their images do)
      const int tim2 = extras_int(was.extras, "tim2").value_or(-1);
      auto info = std::find_if(infos.begin(), infos.end(), [&](const PmoTextureInfo& i) { return i.tim2 && *i.tim2 == tim2; });
      if (info == infos.end() || extras_int(was.extras, "picture").value_or(0) != 0) {
        warn(warnings, where, "the file stores no name for \"" + was.name + "\" (no texture info names its TIM2): the rename is dropped");
      } else if (auto e = store_name(t.name, info->name, "texture_infos[" + std::to_string(static_cast<std::size_t>(info - infos.begin())) + "].name"); !e) {
        return e;
      }
    }
  }
  return {};
}

// Which TIM2s the sections draw, through their texture infos.
std::vector<bool> drawn_tim2s(const Pmo& pmo) {
  std::vector<bool> out(pmo.tim2s.size(), false);
  for (const auto* l : {&pmo.mesh0, &pmo.mesh1}) {
    for (std::size_t s = 0; l->has_value() && s < (*l)->sections.size(); ++s) {
      const std::uint8_t t = (*l)->sections[s].texture;
      if (t < pmo.textures.size() && pmo.textures[t].tim2 && *pmo.textures[t].tim2 < out.size()) out[*pmo.textures[t].tim2] = true;
    }
  }
  return out;
}

std::vector<bool> drawn_infos(const Pmo& pmo) {
  std::vector<bool> out(pmo.textures.size(), false);
  for (const auto* l : {&pmo.mesh0, &pmo.mesh1}) {
    for (std::size_t s = 0; l->has_value() && s < (*l)->sections.size(); ++s) {
      if ((*l)->sections[s].texture < out.size()) out[(*l)->sections[s].texture] = true;
    }
  }
  return out;
}

// Texture infos the base drew and no section draws any more are removed, with the TIM2s only they
// named; sections and infos re-indexed. Infos the base itself never drew stay (their bytes with them).
void remove_undrawn_textures(const Pmo& base, Pmo& out, std::vector<Warning>& warnings) {
  const std::vector<bool> was = drawn_infos(base), now = drawn_infos(out);
  std::vector<int> info_to(out.textures.size(), -1);
  std::vector<bool> keep_tim2(out.tim2s.size(), false), named_before(out.tim2s.size(), false);
  std::vector<PmoTextureInfo> infos;
  for (std::size_t i = 0; i < out.textures.size(); ++i) {
    const PmoTextureInfo& info = out.textures[i];
    if (info.tim2 && *info.tim2 < named_before.size()) named_before[*info.tim2] = true;
    if (i < was.size() && was[i] && !now[i]) {
      warn(warnings, "pmo.texture_infos[" + std::to_string(i) + "]", "\"" + fixed_string(info.name) + "\" is drawn by no section any more: removed");
      continue;
    }
    info_to[i] = static_cast<int>(infos.size());
    infos.push_back(info);
    if (info.tim2 && *info.tim2 < keep_tim2.size()) keep_tim2[*info.tim2] = true;
  }
  if (infos.size() == out.textures.size()) return;
  std::vector<int> tim2_to(out.tim2s.size(), -1);
  std::vector<Tim2> tim2s;
  std::vector<Verbatim> gaps;
  for (std::size_t k = 0; k < out.tim2s.size(); ++k) {
    if (named_before[k] && !keep_tim2[k]) continue;  // only removed infos named it
    tim2_to[k] = static_cast<int>(tim2s.size());
    tim2s.push_back(std::move(out.tim2s[k]));
    if (k < out.gaps_before_tim2.size()) gaps.push_back(out.gaps_before_tim2[k]);
  }
  for (PmoTextureInfo& info : infos) {
    if (info.tim2 && *info.tim2 < tim2_to.size()) info.tim2 = static_cast<std::uint16_t>(tim2_to[*info.tim2]);
  }
  for (auto* l : {&out.mesh0, &out.mesh1}) {
    for (std::size_t s = 0; l->has_value() && s < (*l)->sections.size(); ++s) {
      std::uint8_t& t = (*l)->sections[s].texture;
      if (t < info_to.size()) t = static_cast<std::uint8_t>(info_to[t]);
    }
  }
  out.textures = std::move(infos);
  out.tim2s = std::move(tim2s);
  out.gaps_before_tim2 = std::move(gaps);
}

// Incoming textures made into new TIM2s.
std::vector<bool> own_textures(const Scene& in, const kh_bbs::NewTextures& made) {
  std::vector<bool> out(in.textures.size(), false);
  for (std::size_t t = 0; t < made.info_of.size() && t < out.size(); ++t) out[t] = made.info_of[t] >= 0;
  return out;
}

}  // namespace

Result<Lowered> lower_kh_bbs_pmo(const Scene& scene, const PmoFile& base, const LowerInputs& inputs) {
  if (inputs.skeleton != nullptr) {
    return at("skeleton", "a PMO holds its own skeleton: pass a skeleton only with a PAM", ErrorCode::unsupported);
  }
  auto lifted = lift_kh_bbs_pmo(base, {});
  if (!lifted) return lifted.error();
  Lowered out{Document{base}, {}};
  PmoFile& file = std::get<PmoFile>(out.document);
  kh_bbs::NewTextures made;
  const int lifted_node = find_mesh_node(*lifted, "PMO");
  if (lifted_node >= 0) {
    const int node = find_mesh_node(scene, "PMO");
    if (node < 0) return at("nodes", "no node draws the PMO's mesh (a mesh named \"PMO\", or the only mesh)", ErrorCode::unsupported);
    if (auto e = lower_model(ModelEdit{*lifted, lifted_node, scene, node, "pmo", {file.pmo.textures, file.pmo.tim2s, file.pmo.gaps_before_tim2}, made},
                             base.pmo, file.pmo, out.warnings); !e) return e.error();
  }
  const std::vector<bool> drawn = drawn_tim2s(file.pmo);
  if (auto e = lower_textures(out.document, file.pmo.textures, *lifted, scene, own_textures(scene, made), &drawn, out.warnings); !e) return e.error();
  remove_undrawn_textures(base.pmo, file.pmo, out.warnings);
  return out;
}

// Objects are matched by name (the lift's "objectN"), else by the order of the root nodes. Each
// object's placement is stored as position, X-then-Y-then-Z Euler angles and scale; each PMO is
// lowered from the first object that draws it.
Result<Lowered> lower_kh_bbs_pmp(const Scene& scene, const Pmp& base, const LowerInputs& inputs) {
  if (inputs.skeleton != nullptr) {
    return at("skeleton", "a PMP's objects take no PAM skeleton: pass a skeleton only with a PAM", ErrorCode::unsupported);
  }
  auto lifted = lift_kh_bbs_pmp(base, {});
  if (!lifted) return lifted.error();
  Lowered out{Document{base}, {}};
  Pmp& pmp = std::get<Pmp>(out.document);
  std::vector<bool> own(scene.textures.size(), false);  // incoming textures made into new TIM2s
  std::vector<int> roots;
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    if (scene.nodes[i].parent < 0) roots.push_back(static_cast<int>(i));
  }
  std::vector<bool> pmo_done(base.pmos.size(), false);
  bool by_order = false;
  for (std::size_t i = 0; i < base.objects.size(); ++i) {
    const int ln = lifted->scenes[0].nodes[i];
    const Node& lo = lifted->nodes[static_cast<std::size_t>(ln)];
    int node = -1;
    for (int r : roots) {
      if (scene.nodes[static_cast<std::size_t>(r)].name == lo.name) node = r;
    }
    if (node < 0 && roots.size() == base.objects.size()) {
      node = roots[i];
      by_order = true;
    }
    if (node < 0) {
      return at("nodes", "no root node stands for PMP object " + std::to_string(i) + " (named \"" + lo.name + "\"): objects cannot be added or removed",
                ErrorCode::unsupported);
    }
    const Node& n = scene.nodes[static_cast<std::size_t>(node)];
    const std::string where = "nodes[" + std::to_string(node) + "]";
    PmpObject& o = pmp.objects[i];
    const Trs& t = n.local;
    for (float f : {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w,
                    t.scale.x, t.scale.y, t.scale.z}) {
      if (!std::isfinite(f)) return at(where, "object " + std::to_string(i) + " has a non-finite translation, rotation or scale");
    }
    if (!(t.translation == lo.local.translation)) o.position = {t.translation.x, t.translation.y, t.translation.z};
    if (!(t.rotation == lo.local.rotation)) {
      const Vec3 e = euler_xyz_of(normalize(t.rotation));
      o.rotation = {e.x, e.y, e.z};
    }
    if (!(t.scale == lo.local.scale)) o.scale = {t.scale.x, t.scale.y, t.scale.z};
    if (!o.pmo || pmo_done[*o.pmo]) continue;
    pmo_done[*o.pmo] = true;
    // The object's PMO: the child drawing a mesh, in the lift and incoming.
    auto mesh_child = [](const Scene& s, const Node& parent) {
      for (int c : parent.children) {
        if (s.nodes[static_cast<std::size_t>(c)].mesh >= 0) return c;
      }
      return -1;
    };
    const int lifted_child = mesh_child(*lifted, lo);
    int child = -1;
    for (int c : n.children) {
      if (c >= 0 && static_cast<std::size_t>(c) < scene.nodes.size() && scene.nodes[static_cast<std::size_t>(c)].mesh >= 0 &&
          static_cast<std::size_t>(scene.nodes[static_cast<std::size_t>(c)].mesh) < scene.meshes.size())
        child = c;
    }
    if (child < 0) return at(where, "object " + std::to_string(i) + " draws PMO " + std::to_string(*o.pmo) + " in the base but no child node draws a mesh", ErrorCode::unsupported);
    const std::string field = "pmp.pmos[" + std::to_string(*o.pmo) + "]";
    kh_bbs::NewTextures made;
    const ModelEdit edit{*lifted, lifted_child, scene, child, field, {pmp.pmos[*o.pmo].textures, pmp.tim2s, pmp.gaps_before_tim2}, made};
    if (auto e = lower_model(edit, base.pmos[*o.pmo], pmp.pmos[*o.pmo], out.warnings); !e) {
      return e.error();
    }
    const std::vector<bool> made_here = own_textures(scene, made);
    for (std::size_t t = 0; t < own.size(); ++t) own[t] = own[t] || made_here[t];
  }
  if (by_order) warn(out.warnings, "nodes", "objects matched to the PMP's by the order of the root nodes: their names did not identify them");
  if (auto e = lower_textures(out.document, pmp.textures, *lifted, scene, own, nullptr, out.warnings); !e) return e.error();
  return out;
}

}  // namespace remodel::scene
