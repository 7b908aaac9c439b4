// Reads SHP1: shapes, the pool of vertex descriptor lists, the matrix table, display-list packets
// (decoded into primitives) and the matrix-group and packet tables.
#include <algorithm>
#include <map>
#include <string>

#include "reader/j3d/common.hpp"

namespace remodel {

namespace {

constexpr std::size_t kShapeSize = 0x28;

bool is_draw(std::uint8_t op) {
  switch (op & 0xF8) {
    case 0x80: case 0x90: case 0x98: case 0xA0: case 0xA8: case 0xB0: case 0xB8: return true;
    default: return false;
  }
}

// A packet as primitives, or nullopt when it holds anything else (it is then kept raw). A draw
// command whose vertices run past the packet is an error, reported through the cursor.
std::optional<J3dPacket> decode_packet(Cursor& c, std::size_t packet_at, ByteSpan b,
                                       const std::vector<J3dVertexDescriptor>* descriptors) {
  if (descriptors == nullptr) return std::nullopt;
  const std::size_t vertex_size = j3d_dl_vertex_size(*descriptors);
  if (vertex_size == 0) return std::nullopt;
  J3dPacket p;
  std::size_t at = 0;
  while (at < b.size() && b[at] != 0) {
    if (!is_draw(b[at]) || b.size() - at < 3) return std::nullopt;
    J3dPrimitive prim;
    prim.opcode = b[at];
    const std::size_t vertex_count = std::size_t{b[at + 1]} << 8 | b[at + 2];
    at += 3;
    if ((b.size() - at) / vertex_size < vertex_count) {
      c.fail_at(ErrorCode::bad_count, packet_at + at - 2, "vertex_count",
                "draws " + std::to_string(vertex_count) + " vertices of " + std::to_string(vertex_size) +
                    " bytes but the packet has " + std::to_string(b.size() - at) + " bytes left");
    }
    prim.values.reserve(vertex_count * descriptors->size());
    for (std::size_t v = 0; v < vertex_count; ++v) {
      for (const J3dVertexDescriptor& d : *descriptors) {
        if (d.type == 0) continue;
        if (d.type == 3) {
          prim.values.push_back(static_cast<std::uint16_t>(b[at] << 8 | b[at + 1]));
          at += 2;
        } else {
          prim.values.push_back(b[at++]);
        }
      }
    }
    p.primitives.push_back(std::move(prim));
  }
  for (std::size_t k = at; k < b.size(); ++k) {
    if (b[k] != 0) return std::nullopt;
  }
  if (b.size() != at + (32 - at % 32) % 32) p.stored_size = static_cast<std::uint32_t>(b.size());
  return p;
}


}  // namespace

J3dShp1 read_j3d_shp1(Cursor& c, J3dFiller& filler) {
  J3dShp1 s;
  const std::uint16_t count = c.u16("count");
  s.unknown_0x0a = c.u16("unknown_0x0a");
  const std::uint32_t shapes_at = c.u32("shapes_offset");
  const std::uint32_t remap_at = c.u32("remap_offset");
  const std::uint32_t names_at = c.u32("names_offset");
  const std::uint32_t descriptors_at = c.u32("descriptors_offset");
  const std::uint32_t matrix_table_at = c.u32("matrix_table_offset");
  const std::uint32_t dl_at = c.u32("display_list_offset");
  const std::uint32_t groups_at = c.u32("matrix_groups_offset");
  const std::uint32_t packets_at = c.u32("packets_offset");
  if (names_at != 0) c.fail_at(ErrorCode::unsupported, 0x14, "names_offset", "SHP1 name tables are not supported");

  j3d_expect_at(c, shapes_at, "shapes_offset");
  c.check_count(count, kShapeSize, "count");
  s.shapes.resize(count);
  std::vector<std::uint16_t> descriptor_offsets(count);
  std::size_t group_count = 0, packet_count = 0;
  for (std::size_t i = 0; i < count; ++i) {
    PathScope scope(c, "shape", static_cast<std::int64_t>(i));
    J3dShape& sh = s.shapes[i];
    sh.matrix_type = c.u8("matrix_type");
    sh.unknown_0x01 = c.u8("unknown_0x01");
    sh.packet_count = c.u16("packet_count");
    descriptor_offsets[i] = c.u16("descriptors_offset");
    sh.first_matrix_group = c.u16("first_matrix_group");
    sh.first_packet = c.u16("first_packet");
    sh.unknown_0x0a = c.u16("unknown_0x0a");
    sh.radius = c.f32("radius");
    for (float& v : sh.min) v = c.f32("min");
    for (float& v : sh.max) v = c.f32("max");
    group_count = std::max<std::size_t>(group_count, std::size_t{sh.first_matrix_group} + sh.packet_count);
    packet_count = std::max<std::size_t>(packet_count, std::size_t{sh.first_packet} + sh.packet_count);
  }
  j3d_expect_at(c, remap_at, "remap_offset");
  s.remap.resize(count);
  for (std::uint16_t& r : s.remap) r = c.u16("remap");
  // Fill to 4 then to 32 (the default), or straight to 32 when that is what the gap holds.
  if (const std::size_t remap_end = c.pos(); descriptors_at >= remap_end && descriptors_at <= c.size()) {
    const ByteSpan gap = c.data().subspan(remap_end, descriptors_at - remap_end);
    s.remap_filled_to_4 = j3d_is_canonical_gap(gap, remap_end, filler.text, 32, 4) || !j3d_is_canonical_gap(gap, remap_end, filler.text, 32);
  }
  s.gap_after_remap = read_j3d_gap(c, filler, descriptors_at, 32, "descriptors_offset", s.remap_filled_to_4 ? 4 : 1);

  // The descriptor pool runs up to the matrix table; shapes point at the start of a list.
  std::map<std::size_t, std::uint32_t> list_at;
  if (matrix_table_at < c.pos() || matrix_table_at > c.size()) c.fail(ErrorCode::bad_offset, "matrix_table_offset", "points outside the section");
  while (c.pos() < matrix_table_at) {
    PathScope scope(c, "descriptor_list", static_cast<std::int64_t>(s.descriptor_lists.size()));
    list_at[c.pos() - descriptors_at] = static_cast<std::uint32_t>(s.descriptor_lists.size());
    std::vector<J3dVertexDescriptor> list;
    for (;;) {
      J3dVertexDescriptor d{c.u32("attribute"), c.u32("type")};
      if (d.attribute == 0xFF) {
        if (d.type != 0) s.terminator_types[static_cast<std::uint32_t>(s.descriptor_lists.size())] = d.type;
        break;
      }
      list.push_back(d);
    }
    s.descriptor_lists.push_back(std::move(list));
  }
  j3d_expect_at(c, matrix_table_at, "matrix_table_offset");
  for (std::size_t i = 0; i < count; ++i) {
    const auto it = list_at.find(descriptor_offsets[i]);
    if (it == list_at.end()) {
      c.fail_at(ErrorCode::bad_offset, shapes_at + i * kShapeSize + 4, "shape.descriptors_offset", "does not point at the start of a descriptor list");
    }
    s.shapes[i].descriptors = it->second;
  }

  // The groups say how long the matrix table is, so they are read first.
  const std::size_t resume = c.pos();
  c.seek(groups_at, "matrix_groups_offset");
  c.check_count(group_count, 8, "matrix_groups");
  s.matrix_groups.resize(group_count);
  std::size_t table_length = 0;
  for (J3dMatrixGroup& g : s.matrix_groups) {
    g.use_matrix = c.u16("use_matrix");
    g.count = c.u16("count");
    g.first = c.u32("first");
    table_length = std::max<std::size_t>(table_length, std::size_t{g.first} + g.count);
  }
  j3d_expect_at(c, packets_at, "packets_offset");
  c.check_count(packet_count, 8, "packets");
  std::vector<std::pair<std::uint32_t, std::uint32_t>> packet_info(packet_count);  // size, offset
  for (auto& p : packet_info) {
    p.first = c.u32("size");
    p.second = c.u32("offset");
  }
  const std::size_t tables_end = c.pos();
  c.seek(resume, "matrix_table_offset");

  c.check_count(table_length, 2, "matrix_groups.count");
  s.matrix_table.resize(table_length);
  for (std::uint16_t& m : s.matrix_table) m = c.u16("matrix_table");
  s.gap_after_matrix_table = read_j3d_gap(c, filler, dl_at, 32, "display_list_offset");

  // Each packet is drawn with the descriptors of the shape it belongs to.
  s.packets.resize(packet_count);
  const auto owner = j3d_packet_descriptors(s);
  for (std::size_t i = 0; i < packet_count; ++i) {
    PathScope scope(c, "packet", static_cast<std::int64_t>(i));
    j3d_expect_at(c, std::uint64_t{dl_at} + packet_info[i].second, "offset");
    const std::size_t packet_at = c.pos();
    ByteSpan bytes = c.span(packet_info[i].first, "size");
    std::optional<J3dPacket> p = decode_packet(c, packet_at, bytes, owner[i]);
    if (!p) {
      p = J3dPacket{};
      p->raw = Verbatim(bytes);
    }
    s.packets[i] = std::move(*p);
  }
  s.gap_after_display_lists = read_j3d_gap(c, filler, groups_at, 32, "matrix_groups_offset");
  c.seek(tables_end, "packets");
  s.gap_after_tables = read_j3d_gap(c, filler, c.size(), 32, "size");
  return s;
}

}  // namespace remodel
