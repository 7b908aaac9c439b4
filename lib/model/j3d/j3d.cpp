#include "model/j3d/j3d.hpp"
#include "model/j3d/decode.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "model/gx/colour.hpp"

namespace remodel {

std::uint16_t j3d_name_hash(const std::string& name) {
  std::uint16_t hash = 0;
  for (char ch : name) {
    hash = static_cast<std::uint16_t>(hash * 3 + static_cast<std::int16_t>(static_cast<signed char>(ch)));
  }
  return hash;
}

std::uint32_t j3d_slot_attribute(std::uint8_t slot) {
  static const std::uint32_t attribute_of_slot[13] = {9, 10, 0x19, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
  return slot < 13 ? attribute_of_slot[slot] : 0xFF;
}

const J3dVertexFormat* j3d_vertex_format(const J3dVtx1& vtx, std::uint8_t slot) {
  if (slot >= 13) return nullptr;
  for (const J3dVertexFormat& f : vtx.formats) {
    if (f.attribute == j3d_slot_attribute(slot)) return &f;
  }
  return nullptr;
}

std::size_t j3d_vertex_element_size(const J3dVtx1& vtx, std::uint8_t slot) {
  if (slot >= 13) return 0;
  const std::uint32_t attribute = j3d_slot_attribute(slot);
  for (const J3dVertexFormat& f : vtx.formats) {
    if (f.attribute != attribute) continue;
    if (attribute == 11 || attribute == 12) return gx::vertex_colour_size(f.type);
    if (j3d_component_size(f.type) == 0) return 0;
    std::size_t components = 0;
    if (attribute == 9) components = f.components == 0 ? 2 : 3;
    else if (attribute == 10) components = f.components == 1 ? 9 : 3;
    else if (attribute == 0x19) components = 9;
    else components = f.components == 0 ? 1 : 2;
    return components * j3d_component_size(f.type);
  }
  return 0;
}

std::size_t j3d_component_size(std::uint32_t type) {
  static constexpr std::size_t size[5] = {1, 1, 2, 2, 4};
  return type < 5 ? size[type] : 0;
}

double j3d_component_value(std::uint32_t type, std::uint8_t frac, const std::uint8_t* p) {
  const double scale = std::ldexp(1.0, -(frac & 31));
  switch (type) {
    case 0: return p[0] * scale;
    case 1: return static_cast<std::int8_t>(p[0]) * scale;
    case 2: return static_cast<std::uint16_t>(p[0] << 8 | p[1]) * scale;
    case 3: return static_cast<std::int16_t>(p[0] << 8 | p[1]) * scale;
    default: {
      const std::uint32_t bits = static_cast<std::uint32_t>(p[0]) << 24 | p[1] << 16 | p[2] << 8 | p[3];
      float f = 0;
      std::memcpy(&f, &bits, 4);
      return f;
    }
  }
}

std::size_t j3d_dl_vertex_size(const std::vector<J3dVertexDescriptor>& descriptors) {
  std::size_t n = 0;
  for (const J3dVertexDescriptor& d : descriptors) {
    switch (d.type) {
      case 0: break;
      case 1:
        if (d.attribute > 8) return 0;  // direct data other than matrix indices is not supported
        n += 1;
        break;
      case 2: n += 1; break;
      case 3: n += 2; break;
      default: return 0;
    }
  }
  return n;
}

std::optional<std::size_t> j3d_dl_vertex_count(const J3dPrimitive& p, const std::vector<J3dVertexDescriptor>& descriptors) {
  std::size_t present = 0;
  for (const J3dVertexDescriptor& d : descriptors) present += d.type != 0;
  if (present == 0 || p.values.size() % present != 0) return std::nullopt;
  return p.values.size() / present;
}

std::vector<const std::vector<J3dVertexDescriptor>*> j3d_packet_descriptors(const J3dShp1& s) {
  std::vector<const std::vector<J3dVertexDescriptor>*> owner(s.packets.size(), nullptr);
  for (const J3dShape& sh : s.shapes) {
    if (sh.descriptors >= s.descriptor_lists.size()) continue;
    for (std::size_t k = sh.first_packet; k < std::size_t{sh.first_packet} + sh.packet_count && k < owner.size(); ++k) {
      owner[k] = &s.descriptor_lists[sh.descriptors];
    }
  }
  return owner;
}

std::optional<Topology> j3d_topology(std::uint8_t opcode) {
  switch (opcode & 0xF8) {  // the low 3 bits pick the vertex attribute table
    case 0x80: return Topology::quads;
    case 0x90: return Topology::list;
    case 0x98: return Topology::strip;
    case 0xA0: return Topology::fan;
    default: return std::nullopt;  // lines, line strips and points
  }
}

std::vector<Triangle> j3d_triangles(std::uint8_t opcode, std::size_t vertex_count) {
  std::vector<Triangle> out;
  if (const std::optional<Topology> t = j3d_topology(opcode)) append_triangles(*t, 0, vertex_count, out);
  return out;
}

std::size_t j3d_gx_command_size(ByteSpan at) {
  if (at.empty()) return 0;
  switch (at[0]) {
    case 0x61: return 4;
    case 0x08: return 5;
    case 0x10: {
      if (at.size() < 3) return 0;
      const std::size_t count = (std::size_t{at[1]} << 8 | at[2]) + 1;
      return 4 + 4 * count;
    }
    default: return 0;
  }
}

std::size_t j3d_mat_table_size(const J3dMat3& m, J3dMatTable t) {
  switch (t) {
    case J3dMatTable::entries: return m.entries.size();
    case J3dMatTable::remap: return m.remap.size();
    case J3dMatTable::names: return m.names.names.size();
    case J3dMatTable::indirect: return m.indirect.size();
    case J3dMatTable::cull: return m.cull_modes.size();
    case J3dMatTable::material_color: return m.material_colors.size();
    case J3dMatTable::channel_count: return m.channel_counts.size();
    case J3dMatTable::color_channel: return m.color_channels.size();
    case J3dMatTable::ambient_color: return m.ambient_colors.size();
    case J3dMatTable::light: return m.lights.size();
    case J3dMatTable::texgen_count: return m.texgen_counts.size();
    case J3dMatTable::texgen: return m.texgens.size();
    case J3dMatTable::post_texgen: return m.post_texgens.size();
    case J3dMatTable::tex_matrix: return m.tex_matrices.size();
    case J3dMatTable::post_tex_matrix: return m.post_tex_matrices.size();
    case J3dMatTable::texture: return m.textures.size();
    case J3dMatTable::tev_order: return m.tev_orders.size();
    case J3dMatTable::tev_color: return m.tev_colors.size();
    case J3dMatTable::tev_kcolor: return m.tev_kcolors.size();
    case J3dMatTable::tev_stage_count: return m.tev_stage_counts.size();
    case J3dMatTable::tev_stage: return m.tev_stages.size();
    case J3dMatTable::swap_mode: return m.swap_modes.size();
    case J3dMatTable::swap_table: return m.swap_tables.size();
    case J3dMatTable::fog: return m.fogs.size();
    case J3dMatTable::alpha_compare: return m.alpha_compares.size();
    case J3dMatTable::blend: return m.blends.size();
    case J3dMatTable::zmode: return m.zmodes.size();
    case J3dMatTable::zcompare_location: return m.zcompare_locations.size();
    case J3dMatTable::dither: return m.dithers.size();
    case J3dMatTable::nbt_scale: return m.nbt_scales.size();
  }
  return 0;
}

std::string j3d_section_magic(const J3dSection& s) {
  return std::visit([](const auto& v) -> std::string {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, J3dInf1>) return "INF1";
    else if constexpr (std::is_same_v<T, J3dVtx1>) return "VTX1";
    else if constexpr (std::is_same_v<T, J3dEvp1>) return "EVP1";
    else if constexpr (std::is_same_v<T, J3dDrw1>) return "DRW1";
    else if constexpr (std::is_same_v<T, J3dJnt1>) return "JNT1";
    else if constexpr (std::is_same_v<T, J3dTex1>) return "TEX1";
    else if constexpr (std::is_same_v<T, J3dShp1>) return "SHP1";
    else if constexpr (std::is_same_v<T, J3dMdl3>) return "MDL3";
    else if constexpr (std::is_same_v<T, J3dMat3>) return "MAT3";
    else return std::string(v.stored.bytes().begin(), v.stored.bytes().begin() + std::min<std::ptrdiff_t>(std::ssize(v.stored.bytes()), 4));
  }, s);
}

std::uint32_t j3d_packet_count(const J3dFile& file) {
  const J3dShp1* shp = j3d_section<J3dShp1>(file);
  return shp == nullptr ? 0 : static_cast<std::uint32_t>(std::min<std::size_t>(shp->packets.size(), 0xFFFFFFFF));
}

std::uint32_t j3d_vertex_count(const J3dFile& file) {
  const J3dVtx1* vtx = j3d_section<J3dVtx1>(file);
  if (vtx == nullptr) return 0;
  const std::size_t element = j3d_vertex_element_size(*vtx, 0);
  for (const J3dVertexArray& a : vtx->arrays) {
    if (a.slot == 0 && element != 0) return static_cast<std::uint32_t>(std::min<std::size_t>(a.data.size() / element, 0xFFFFFFFF));
  }
  return 0;
}

void add_info(const J3dFile& file, DocumentInfo& info) {
  info.models += 1;
  for (const J3dSection& s : file.sections) {
    if (const auto* inf = std::get_if<J3dInf1>(&s)) info.vertices = inf->stored_vertex_count.value_or(j3d_vertex_count(file));
    if (const auto* jnt = std::get_if<J3dJnt1>(&s)) info.joints = jnt->joints.size();
    if (const auto* tex = std::get_if<J3dTex1>(&s)) info.textures = tex->textures.size();
    if (const auto* mat = std::get_if<J3dMat3>(&s)) info.materials = mat->remap.size();
    if (const auto* shp = std::get_if<J3dShp1>(&s)) {
      info.sections = shp->shapes.size();
      const auto descriptors = j3d_packet_descriptors(*shp);
      for (std::size_t k = 0; k < shp->packets.size(); ++k) {
        if (descriptors[k] == nullptr) continue;
        for (const J3dPrimitive& prim : shp->packets[k].primitives) {
          info.triangles += j3d_triangles(prim.opcode, j3d_dl_vertex_count(prim, *descriptors[k]).value_or(0)).size();
        }
      }
    }
  }
}

}  // namespace remodel
