// Writes SHP1: every offset, the descriptor list offsets, packet sizes and offsets from the layout.
#include <cstring>
#include <string>

#include "writer/j3d/common.hpp"

namespace remodel {

namespace {

// Sizes the packet's draw commands first and stores them in place: packets hold most of a model's bytes.
void write_packet(ByteWriter& w, const J3dPacket& p, const std::vector<J3dVertexDescriptor>& descriptors, std::size_t index) {
  if (w.verbatim(p.raw, [&] { return "SHP1.packet[" + std::to_string(index) + "].raw"; })) return;
  std::vector<std::uint8_t> wide;  // per present descriptor: a 16-bit index (else one byte)
  wide.reserve(descriptors.size());
  for (const J3dVertexDescriptor& d : descriptors) {
    if (d.type != 0) wide.push_back(d.type == 3);
  }
  const std::size_t present = wide.size();
  std::size_t vertex_bytes = 0;
  for (std::uint8_t w16 : wide) vertex_bytes += 1 + w16;
  std::size_t used = 0;
  for (std::size_t i = 0; i < p.primitives.size(); ++i) {
    const J3dPrimitive& prim = p.primitives[i];
    const std::optional<std::size_t> vertices = j3d_dl_vertex_count(prim, descriptors);
    const auto field = [&] { return "SHP1.packet[" + std::to_string(index) + "].primitive[" + std::to_string(i) + "]"; };
    if (!vertices) {
      w.fail(field(), "holds " + std::to_string(prim.values.size()) + " values, not a whole number of vertices of " +
                          std::to_string(present) + " present descriptors");
    }
    if (*vertices > 0xFFFF) w.fail(field(), "draws " + std::to_string(*vertices) + " vertices, more than its u16 count holds");
    used += 3 + *vertices * vertex_bytes;
  }
  const std::size_t size = p.stored_size.value_or(used + (32 - used % 32) % 32);
  if (size < used) w.fail("SHP1.packet[" + std::to_string(index) + "]", "its stored size is smaller than its primitives");
  std::uint8_t* out = w.append(size);
  for (const J3dPrimitive& prim : p.primitives) {
    out[0] = prim.opcode;
    w.store(out + 1, prim.values.size() / present, 2);  // whole vertices, checked above
    out += 3;
    const std::uint16_t* value = prim.values.data();
    for (std::size_t v = 0; v < prim.values.size(); v += present) {
      for (std::size_t k = 0; k < present; ++k, ++value) {
        if (wide[k]) {
          w.store(out, *value, 2);
          out += 2;
        } else {
          *out++ = static_cast<std::uint8_t>(*value);
        }
      }
    }
  }
  std::memset(out, 0, size - used);  // GX NOPs
}

}  // namespace

void write_j3d_shp1(ByteWriter& w, const J3dShp1& s, std::size_t base, const std::string& filler) {
  if (s.shapes.size() > 0xFFFF || s.remap.size() != s.shapes.size()) w.fail("SHP1", "needs one remap entry per shape");
  w.u16(static_cast<std::uint16_t>(s.shapes.size()));
  w.u16(s.unknown_0x0a);
  const std::size_t offsets_at = w.pos();
  w.fill(32, 0);
  const auto offset_here = [&](std::size_t k) { w.patch_u32(offsets_at + 4 * k, static_cast<std::uint32_t>(w.pos() - base)); };
  offset_here(0);
  std::vector<std::size_t> shape_at(s.shapes.size());
  for (std::size_t i = 0; i < s.shapes.size(); ++i) {
    const J3dShape& sh = s.shapes[i];
    if (sh.descriptors >= s.descriptor_lists.size()) w.fail("SHP1.shape[" + std::to_string(i) + "]", "refers to a missing descriptor list");
    if (std::size_t{sh.first_packet} + sh.packet_count > s.packets.size() ||
        std::size_t{sh.first_matrix_group} + sh.packet_count > s.matrix_groups.size()) {
      w.fail("SHP1.shape[" + std::to_string(i) + "]", "its packets or matrix groups run past their tables");
    }
    shape_at[i] = w.pos();
    w.mark([&] { return "SHP1.shape[" + std::to_string(i) + "]"; });
    w.u8(sh.matrix_type);
    w.u8(sh.unknown_0x01);
    w.u16(sh.packet_count);
    w.u16(0);  // descriptor list offset, patched
    w.u16(sh.first_matrix_group);
    w.u16(sh.first_packet);
    w.u16(sh.unknown_0x0a);
    w.f32(sh.radius);
    for (float v : sh.min) w.f32(v);
    for (float v : sh.max) w.f32(v);
  }
  offset_here(1);
  for (std::uint16_t r : s.remap) w.u16(r);
  write_j3d_gap(w, filler, 32, base, s.gap_after_remap, [] { return std::string("SHP1.gap_after_remap"); }, s.remap_filled_to_4 ? 4 : 1);
  offset_here(3);
  for (const auto& [list, type] : s.terminator_types) {
    if (list >= s.descriptor_lists.size() || type == 0) {
      w.fail("SHP1.terminator_types[" + std::to_string(list) + "]", "names no descriptor list, or keeps a type of 0 (the canonical value)");
    }
  }
  const std::size_t pool = w.pos();
  std::vector<std::size_t> list_at(s.descriptor_lists.size());
  w.mark([] { return std::string("SHP1.descriptors"); });
  for (std::size_t i = 0; i < s.descriptor_lists.size(); ++i) {
    list_at[i] = w.pos() - pool;
    if (list_at[i] > 0xFFFF) w.fail("SHP1.descriptors", "the pool is larger than a u16 offset reaches");
    for (const J3dVertexDescriptor& d : s.descriptor_lists[i]) {
      w.u32(d.attribute);
      w.u32(d.type);
    }
    w.u32(0xFF);
    const auto terminator = s.terminator_types.find(static_cast<std::uint32_t>(i));
    w.stored_or(terminator == s.terminator_types.end() ? std::nullopt : std::optional(terminator->second), std::uint32_t{0},
                [&] { return "SHP1.terminator_types[" + std::to_string(i) + "]"; });
  }
  for (std::size_t i = 0; i < s.shapes.size(); ++i) w.patch_u16(shape_at[i] + 4, static_cast<std::uint16_t>(list_at[s.shapes[i].descriptors]));
  offset_here(4);
  w.mark([] { return std::string("SHP1.matrix_table"); });
  for (std::uint16_t m : s.matrix_table) w.u16(m);
  write_j3d_gap(w, filler, 32, base, s.gap_after_matrix_table, [] { return std::string("SHP1.gap_after_matrix_table"); });
  offset_here(5);
  const std::size_t dl = w.pos();
  const auto owner = j3d_packet_descriptors(s);
  std::vector<std::pair<std::size_t, std::size_t>> placed(s.packets.size());
  for (std::size_t i = 0; i < s.packets.size(); ++i) {
    if (owner[i] == nullptr && !s.packets[i].raw.stored()) w.fail("SHP1.packet[" + std::to_string(i) + "]", "no shape draws this packet");
    const std::size_t at = w.pos();
    w.mark([&] { return "SHP1.packet[" + std::to_string(i) + "]"; });
    static const std::vector<J3dVertexDescriptor> none;  // a raw packet no shape draws
    write_packet(w, s.packets[i], owner[i] != nullptr ? *owner[i] : none, i);
    placed[i] = {w.pos() - at, at - dl};
  }
  write_j3d_gap(w, filler, 32, base, s.gap_after_display_lists, [] { return std::string("SHP1.gap_after_display_lists"); });
  offset_here(6);
  w.mark([] { return std::string("SHP1.matrix_groups"); });
  for (const J3dMatrixGroup& g : s.matrix_groups) {
    w.u16(g.use_matrix);
    w.u16(g.count);
    w.u32(g.first);
  }
  offset_here(7);
  for (const auto& [size, offset] : placed) {
    w.u32(static_cast<std::uint32_t>(size));
    w.u32(static_cast<std::uint32_t>(offset));
  }
  write_j3d_gap(w, filler, 32, base, s.gap_after_tables, [] { return std::string("SHP1.gap_after_tables"); });
}

}  // namespace remodel
