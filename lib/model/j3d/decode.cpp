#include "model/j3d/decode.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "model/gx/colour.hpp"
#include "model/j3d/anim_eval.hpp"

namespace remodel {

namespace {

std::array<float, 16> multiply(const std::array<float, 16>& a, const std::array<float, 16>& b) {
  std::array<float, 16> r{};
  for (int c = 0; c < 4; ++c) {
    for (int row = 0; row < 4; ++row) {
      float v = 0;
      for (int k = 0; k < 4; ++k) v += a[k * 4 + row] * b[c * 4 + k];
      r[c * 4 + row] = v;
    }
  }
  return r;
}

std::array<float, 16> local_matrix(const J3dJoint& j) {
  constexpr float kPi = 3.14159265358979f;
  J3dJointPose pose;
  for (std::size_t i = 0; i < 3; ++i) {
    pose.scale[i] = j.scale[i];
    pose.rotation[i] = j.rotation[i] * kPi / 32768.0f;
    pose.translation[i] = j.translation[i];
  }
  return j3d_pose_matrix(pose);
}

// Each joint's world matrix down INF1's hierarchy, iterative (an explicit stack): a file or a Scene
// controls the depth.
std::optional<Error> walk(const std::vector<J3dNode>& roots, const J3dJnt1& jnt, std::vector<std::array<float, 16>>& out) {
  std::array<float, 16> identity{};
  identity[0] = identity[5] = identity[10] = identity[15] = 1;
  std::vector<bool> seen(jnt.joints.size(), false);
  struct Level {
    const std::vector<J3dNode>* nodes;
    std::size_t next;
    std::array<float, 16> parent;
  };
  std::vector<Level> stack{{&roots, 0, identity}};
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.nodes->size()) {
      stack.pop_back();
      continue;
    }
    const J3dNode& n = (*level.nodes)[level.next++];
    std::array<float, 16> here = level.parent;
    if (n.type == 0x10) {
      if (n.index >= jnt.joints.size() || seen[n.index]) {
        return Error{ErrorCode::bad_value, std::nullopt, "INF1.node.index", "joint " + std::to_string(n.index) + " is missing from JNT1 or placed twice in the hierarchy"};
      }
      seen[n.index] = true;
      here = multiply(level.parent, local_matrix(jnt.joints[n.index]));
      out[n.index] = here;
    }
    if (!n.children.empty()) stack.push_back({&n.children, 0, here});  // `level` is not used past here
  }
  return std::nullopt;
}

}  // namespace

Result<J3dDecodedArray> j3d_decode_array(const J3dVtx1& vtx, std::uint8_t slot) {
  const J3dVertexFormat* f = j3d_vertex_format(vtx, slot);
  const J3dVertexArray* array = nullptr;
  for (const J3dVertexArray& a : vtx.arrays) {
    if (a.slot == slot) array = &a;
  }
  J3dDecodedArray out;
  if (array == nullptr) return out;
  if (f == nullptr) return Error{ErrorCode::bad_value, std::nullopt, "VTX1.formats", "no vertex format describes array " + std::to_string(slot)};
  const std::size_t element = j3d_vertex_element_size(vtx, slot);
  if (element == 0) return Error{ErrorCode::unsupported, std::nullopt, "VTX1.formats", "array " + std::to_string(slot) + " has an unknown component type"};
  const Bytes& d = array->data;
  const std::size_t n = d.size() / element;
  if (slot == 3 || slot == 4) {  // colours to 0-1 RGBA
    out.components = 4;
    out.values.reserve(n * 4);
    for (std::size_t e = 0; e < n; ++e) {
      const std::uint8_t* p = d.data() + e * element;
      const Rgba rgba = gx::decode_vertex_colour(f->type, p);
      for (std::uint8_t c : rgba) out.values.push_back(c / 255.0f);
    }
    return out;
  }
  const std::size_t size = j3d_component_size(f->type);
  out.components = element / size;
  out.values.reserve(n * out.components);
  for (std::size_t i = 0; i < n * out.components; ++i) {
    out.values.push_back(static_cast<float>(j3d_component_value(f->type, f->frac, d.data() + i * size)));
  }
  return out;
}

Result<std::vector<GxMatrixPalette>> j3d_packet_matrices(const J3dShp1& shp, std::size_t shape) {
  if (shape >= shp.shapes.size()) return Error{ErrorCode::bad_value, std::nullopt, "SHP1.shape", "no such shape"};
  const J3dShape& s = shp.shapes[shape];
  std::vector<GxMatrixPalette> out;
  GxMatrixPalette slots;
  for (std::size_t k = 0; k < s.packet_count; ++k) {
    const std::size_t g = std::size_t{s.first_matrix_group} + k;
    if (g >= shp.matrix_groups.size()) return Error{ErrorCode::bad_value, std::nullopt, "SHP1.shape.first_matrix_group", "runs past the matrix groups"};
    const J3dMatrixGroup& group = shp.matrix_groups[g];
    if (group.count > GxMatrixPalette::kSlots || std::size_t{group.first} + group.count > shp.matrix_table.size()) {
      return Error{ErrorCode::bad_value, std::nullopt, "SHP1.matrix_group[" + std::to_string(g) + "]",
                   "loads more than 10 matrices or runs past the matrix table"};
    }
    for (std::size_t i = 0; i < group.count; ++i) {
      const std::uint16_t m = shp.matrix_table[group.first + i];
      if (m != 0xFFFF) slots.load(i, m);  // 0xFFFF keeps what the previous packet loaded
    }
    out.push_back(slots);
  }
  return out;
}

Result<std::vector<J3dInfluence>> j3d_draw_influences(const J3dDrw1& drw, const J3dEvp1& evp, std::size_t index) {
  if (index >= drw.indices.size()) return Error{ErrorCode::bad_value, std::nullopt, "DRW1.index", "draw matrix " + std::to_string(index) + " does not exist"};
  if (drw.weighted[index] == 0) return std::vector<J3dInfluence>{{drw.indices[index], 1.0f}};
  const std::size_t e = drw.indices[index];
  if (e >= evp.envelopes.size()) return Error{ErrorCode::bad_value, std::nullopt, "DRW1.index", "envelope " + std::to_string(e) + " does not exist"};
  std::vector<J3dInfluence> out;
  for (std::size_t k = 0; k < evp.envelopes[e].joints.size(); ++k) out.push_back({evp.envelopes[e].joints[k], evp.envelopes[e].weights[k]});
  return out;
}

Result<std::vector<std::array<float, 16>>> j3d_joint_world_matrices(const J3dFile& file) {
  const J3dInf1* inf = j3d_section<J3dInf1>(file);
  const J3dJnt1* jnt = j3d_section<J3dJnt1>(file);
  if (inf == nullptr || jnt == nullptr) return Error{ErrorCode::bad_value, std::nullopt, "sections", "the file has no INF1 or no JNT1"};
  std::array<float, 16> identity{};
  identity[0] = identity[5] = identity[10] = identity[15] = 1;
  std::vector<std::array<float, 16>> out(jnt->joints.size(), identity);
  if (auto error = walk(inf->roots, *jnt, out)) return *error;
  return out;
}

namespace {

// Every index a material entry holds is unused (all ones) or inside its table.
Result<void> check_material(const J3dMat3& m, std::size_t& checked) {
  const auto bad = [&](std::size_t entry, const char* field, std::size_t value, std::size_t size) {
    return Error{ErrorCode::bad_value, std::nullopt, "MAT3.entry[" + std::to_string(entry) + "]." + field,
                 "index " + std::to_string(value) + " is past the table's " + std::to_string(size) + " records"};
  };
  for (std::size_t i = 0; i < m.remap.size(); ++i) {
    ++checked;
    if (m.remap[i] >= m.entries.size()) return bad(i, "remap", m.remap[i], m.entries.size());
  }
  for (std::size_t e = 0; e < m.entries.size(); ++e) {
    const J3dMaterialEntry& x = m.entries[e];
    const std::pair<const char*, std::pair<std::size_t, std::size_t>> bytes[] = {
        {"cull", {x.cull, m.cull_modes.size()}}, {"channel_count", {x.channel_count, m.channel_counts.size()}},
        {"texgen_count", {x.texgen_count, m.texgen_counts.size()}}, {"tev_stage_count", {x.tev_stage_count, m.tev_stage_counts.size()}},
        {"zcompare_location", {x.zcompare_location, m.zcompare_locations.size()}}, {"zmode", {x.zmode, m.zmodes.size()}},
        {"dither", {x.dither, m.dithers.size()}}};
    for (const auto& [field, v] : bytes) {
      ++checked;
      if (v.first != 0xFF && v.first >= v.second) return bad(e, field, v.first, v.second);
    }
    // Post-transform slots hold stale values (0 from RiiStudio, small numbers in SMG) when those
    // tables are empty: they are checked only when the table has records.
    const auto each = [&](const char* field, const auto& indices, std::size_t size, bool unused_when_empty = false) -> Result<void> {
      for (std::uint16_t v : indices) {
        ++checked;
        if (unused_when_empty && size == 0) continue;
        if (v != 0xFFFF && v >= size) return bad(e, field, v, size);
      }
      return {};
    };
    if (auto err = each("material_colors", x.material_colors, m.material_colors.size()); !err) return err;
    if (auto err = each("color_channels", x.color_channels, m.color_channels.size()); !err) return err;
    if (auto err = each("ambient_colors", x.ambient_colors, m.ambient_colors.size()); !err) return err;
    if (auto err = each("lights", x.lights, m.lights.size()); !err) return err;
    if (auto err = each("texgens", x.texgens, m.texgens.size()); !err) return err;
    if (auto err = each("post_texgens", x.post_texgens, m.post_texgens.size(), true); !err) return err;
    if (auto err = each("tex_matrices", x.tex_matrices, m.tex_matrices.size()); !err) return err;
    if (auto err = each("post_tex_matrices", x.post_tex_matrices, m.post_tex_matrices.size(), true); !err) return err;
    if (auto err = each("textures", x.textures, m.textures.size()); !err) return err;
    if (auto err = each("tev_kcolors", x.tev_kcolors, m.tev_kcolors.size()); !err) return err;
    if (auto err = each("tev_orders", x.tev_orders, m.tev_orders.size()); !err) return err;
    if (auto err = each("tev_colors", x.tev_colors, m.tev_colors.size()); !err) return err;
    if (auto err = each("tev_stages", x.tev_stages, m.tev_stages.size()); !err) return err;
    if (auto err = each("swap_modes", x.swap_modes, m.swap_modes.size()); !err) return err;
    if (auto err = each("swap_tables", x.swap_tables, m.swap_tables.size()); !err) return err;
    const std::array<std::uint16_t, 1> fog{x.fog}, alpha{x.alpha_compare}, blend{x.blend}, nbt{x.nbt_scale};
    if (auto err = each("fog", fog, m.fogs.size()); !err) return err;
    if (auto err = each("alpha_compare", alpha, m.alpha_compares.size()); !err) return err;
    if (auto err = each("blend", blend, m.blends.size()); !err) return err;
    if (auto err = each("nbt_scale", nbt, m.nbt_scales.size()); !err) return err;
  }
  return {};
}

}  // namespace

Result<std::size_t> j3d_check_indices(const J3dFile& file) {
  std::size_t checked = 0;
  if (const J3dMat3* mat = j3d_section<J3dMat3>(file)) {
    if (auto err = check_material(*mat, checked); !err) return err.error();
  }
  const J3dVtx1* vtx = j3d_section<J3dVtx1>(file);
  const J3dShp1* shp = j3d_section<J3dShp1>(file);
  if (vtx == nullptr || shp == nullptr) return checked;
  std::array<std::size_t, 21> limit{};  // by GX attribute; 0 = no array
  for (std::uint8_t slot = 0; slot < 13; ++slot) {
    const std::size_t element = j3d_vertex_element_size(*vtx, slot);
    const std::uint32_t attribute = j3d_slot_attribute(slot);
    for (const J3dVertexArray& a : vtx->arrays) {
      if (a.slot == slot && element != 0 && attribute < limit.size()) limit[attribute] = a.data.size() / element;
    }
  }
  for (std::size_t s = 0; s < shp->shapes.size(); ++s) {
    const J3dShape& shape = shp->shapes[s];
    if (shape.descriptors >= shp->descriptor_lists.size() || std::size_t{shape.first_packet} + shape.packet_count > shp->packets.size()) {
      return Error{ErrorCode::bad_value, std::nullopt, "SHP1.shape[" + std::to_string(s) + "]", "refers past the descriptor lists or packets"};
    }
    const auto& descriptors = shp->descriptor_lists[shape.descriptors];
    for (std::size_t k = 0; k < shape.packet_count; ++k) {
      const J3dPacket& packet = shp->packets[shape.first_packet + k];
      for (std::size_t p = 0; p < packet.primitives.size(); ++p) {
        const J3dPrimitive& prim = packet.primitives[p];
        const std::optional<std::size_t> vertices = j3d_dl_vertex_count(prim, descriptors);
        if (!vertices) {
          return Error{ErrorCode::inconsistent, std::nullopt, "SHP1.packet", "a primitive's values do not match its descriptors"};
        }
        std::size_t i = 0;
        for (std::size_t v = 0; v < *vertices; ++v) {
          for (const J3dVertexDescriptor& d : descriptors) {
            if (d.type == 0) continue;
            const std::uint16_t value = prim.values[i++];
            ++checked;
            const bool matrix = d.attribute <= 8;
            // Position matrices are rows 0-27 (3 per slot); texture matrices 30-57, 60 = identity.
            const std::size_t bound = d.attribute == 0 ? 30 : matrix ? 61 : (d.attribute < limit.size() ? limit[d.attribute] : 0);
            if (value >= bound) {
              return Error{ErrorCode::bad_value, std::nullopt,
                           "SHP1.packet[" + std::to_string(shape.first_packet + k) + "].primitive[" + std::to_string(p) + "]",
                           "vertex " + std::to_string(v) + " uses index " + std::to_string(value) + " of attribute " +
                               std::to_string(d.attribute) + ", which has " + std::to_string(bound) + (matrix ? " slots" : " elements")};
            }
          }
        }
      }
    }
  }
  return checked;
}

}  // namespace remodel
