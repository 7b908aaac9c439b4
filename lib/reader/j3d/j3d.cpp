// Reads J3D files (J3D2 bmd3/bdl4): the file header, the section list, and the INF1, VTX1, EVP1,
// DRW1 and JNT1 sections table by table. Other sections are kept as their bytes.
#include <algorithm>
#include <cstring>
#include <string>

#include "reader/j3d/common.hpp"

namespace remodel {

namespace {



J3dInf1 read_inf1(Cursor& c, J3dFiller& filler) {
  J3dInf1 s;
  s.flags = c.u16("flags");
  s.unknown_0x0a = c.u16("unknown_0x0a");
  s.stored_packet_count = c.u32("packet_count");  // kept only if the sections disagree, once all are read
  s.stored_vertex_count = c.u32("vertex_count");
  j3d_expect_at(c, c.u32("hierarchy_offset"), "hierarchy_offset");
  // Open (1) and close (2) nodes bracket the children of the node before them.
  std::vector<std::vector<J3dNode>*> stack{&s.roots};
  for (;;) {
    const std::size_t at = c.pos();
    const std::uint16_t type = c.u16("node.type");
    const std::uint16_t index = c.u16("node.index");
    if (type == 0 || type == 1 || type == 2) {
      if (index != 0) c.fail_at(ErrorCode::unsupported, at + 2, "node.index", "a control node with an index is not supported");
    }
    if (type == 0) break;
    if (type == 1) {
      if (stack.back()->empty()) c.fail_at(ErrorCode::bad_value, at, "node.type", "opens children with no node before it");
      if (stack.size() > kJ3dMaxDepth) c.fail_at(ErrorCode::bad_value, at, "node.type", "the hierarchy is deeper than 256 levels");
      if (!stack.back()->back().children.empty()) {
        c.fail_at(ErrorCode::unsupported, at, "node.type", "a second child list for one node is not supported");
      }
      stack.push_back(&stack.back()->back().children);
    } else if (type == 2) {
      if (stack.size() == 1) c.fail_at(ErrorCode::bad_value, at, "node.type", "closes more child lists than were opened");
      if (stack.back()->empty()) c.fail_at(ErrorCode::unsupported, at, "node.type", "an empty child list is not supported");
      stack.pop_back();
    } else {
      stack.back()->push_back(J3dNode{type, index, {}});
    }
  }
  if (stack.size() != 1) c.fail(ErrorCode::bad_value, "node.type", "the hierarchy ends with child lists still open");
  s.gap_after_hierarchy = read_j3d_gap(c, filler, c.size(), 32, "size");
  return s;
}

J3dVtx1 read_vtx1(Cursor& c, J3dFiller& filler) {
  J3dVtx1 s;
  const std::uint32_t format_offset = c.u32("format_offset");
  std::array<std::uint32_t, 13> offsets;
  for (std::uint32_t& o : offsets) o = c.u32("array_offset");
  j3d_expect_at(c, format_offset, "format_offset");
  for (;;) {
    PathScope scope(c, "format", static_cast<std::int64_t>(s.formats.size()));
    J3dVertexFormat f;
    f.attribute = c.u32("attribute");
    f.components = c.u32("components");
    f.type = c.u32("type");
    f.frac = c.u8("frac");
    f.unknown_0x0d = c.array<3>("unknown_0x0d");
    if (f.attribute == 0xFF) {
      s.terminator = f;
      break;
    }
    s.formats.push_back(f);
  }
  std::vector<std::pair<std::uint32_t, std::uint8_t>> order;
  for (std::uint8_t slot = 0; slot < 13; ++slot) {
    if (offsets[slot] != 0) order.push_back({offsets[slot], slot});
  }
  std::sort(order.begin(), order.end());
  for (std::size_t i = 1; i < order.size(); ++i) {
    if (order[i].first == order[i - 1].first) {
      c.fail(ErrorCode::unsupported, "array_offset", "two attribute arrays share one offset");
    }
  }
  s.gap_after_formats = read_j3d_gap(c, filler, order.empty() ? c.size() : order.front().first, 32, "array_offset");
  for (std::size_t i = 0; i < order.size(); ++i) {
    PathScope scope(c, "array", order[i].second);
    const std::size_t end = i + 1 < order.size() ? order[i + 1].first : c.size();
    if (end > c.size() || end < c.pos()) c.fail(ErrorCode::bad_offset, "offset", "points outside the section");
    J3dVertexArray a;
    a.slot = order[i].second;
    const std::size_t length = j3d_data_length(c.data().subspan(c.pos(), end - c.pos()), j3d_vertex_element_size(s, a.slot), filler.text);
    a.data = c.bytes(length, "data");
    a.gap_after = read_j3d_gap(c, filler, end, 32, "padding");
    s.arrays.push_back(std::move(a));
  }
  return s;
}

J3dEvp1 read_evp1(Cursor& c, J3dFiller& filler) {
  J3dEvp1 s;
  const std::uint16_t count = c.u16("count");
  s.unknown_0x0a = c.u16("unknown_0x0a");
  const std::uint32_t counts_at = c.u32("counts_offset");
  const std::uint32_t indices_at = c.u32("indices_offset");
  const std::uint32_t weights_at = c.u32("weights_offset");
  const std::uint32_t matrices_at = c.u32("matrices_offset");
  if (count == 0 && counts_at == 0 && indices_at == 0 && weights_at == 0 && matrices_at == 0) {
    s.gap_after_matrices = read_j3d_gap(c, filler, c.size(), 32, "size");
    return s;
  }
  j3d_expect_at(c, counts_at, "counts_offset");
  c.check_count(count, 1, "count");
  std::vector<std::uint8_t> counts(count);
  std::size_t total = 0;
  for (std::uint8_t& n : counts) total += (n = c.u8("influence_count"));
  j3d_expect_at(c, indices_at, "indices_offset");
  c.check_count(total, 6, "influence_count");
  s.envelopes.resize(count);
  for (std::size_t e = 0; e < count; ++e) {
    s.envelopes[e].joints.resize(counts[e]);
    for (std::uint16_t& j : s.envelopes[e].joints) j = c.u16("joint");
  }
  s.gap_after_indices = read_j3d_gap(c, filler, weights_at, 4, "weights_offset");
  for (J3dEnvelope& e : s.envelopes) {
    e.weights.resize(e.joints.size());
    for (float& w : e.weights) w = c.f32("weight");
  }
  j3d_expect_at(c, matrices_at, "matrices_offset");
  const std::size_t matrices = (c.size() - c.pos()) / 48;  // one per joint up to the section's end pad
  s.inverse_binds.resize(matrices);
  for (auto& m : s.inverse_binds) {
    for (float& v : m) v = c.f32("inverse_bind");
  }
  s.gap_after_matrices = read_j3d_gap(c, filler, c.size(), 32, "size");
  if (s.envelopes.empty() && s.inverse_binds.empty()) {
    c.fail_at(ErrorCode::unsupported, 0xC, "counts_offset", "an EVP1 with table offsets but no tables is not supported");
  }
  return s;
}

J3dDrw1 read_drw1(Cursor& c, J3dFiller& filler) {
  J3dDrw1 s;
  const std::uint16_t count = c.u16("count");
  s.unknown_0x0a = c.u16("unknown_0x0a");
  const std::uint32_t flags_at = c.u32("flags_offset");
  const std::uint32_t indices_at = c.u32("indices_offset");
  j3d_expect_at(c, flags_at, "flags_offset");
  c.check_count(count, 3, "count");
  s.weighted.resize(count);
  for (std::uint8_t& f : s.weighted) f = c.u8("weighted");
  s.gap_after_flags = read_j3d_gap(c, filler, indices_at, 2, "indices_offset");
  s.indices.resize(count);
  for (std::uint16_t& i : s.indices) i = c.u16("index");
  s.gap_after_indices = read_j3d_gap(c, filler, c.size(), 32, "size");
  return s;
}

J3dJnt1 read_jnt1(Cursor& c, J3dFiller& filler) {
  J3dJnt1 s;
  const std::uint16_t count = c.u16("count");
  s.unknown_0x0a = c.u16("unknown_0x0a");
  const std::uint32_t joints_at = c.u32("joints_offset");
  const std::uint32_t remap_at = c.u32("remap_offset");
  const std::uint32_t names_at = c.u32("names_offset");
  j3d_expect_at(c, joints_at, "joints_offset");
  c.check_count(count, 0x40, "count");
  s.joints.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    PathScope scope(c, "joint", static_cast<std::int64_t>(i));
    J3dJoint& j = s.joints[i];
    j.flags = c.u16("flags");
    j.inherit_scale = c.u8("inherit_scale");
    j.unknown_0x03 = c.u8("unknown_0x03");
    for (float& v : j.scale) v = c.f32("scale");
    for (std::int16_t& v : j.rotation) v = c.i16("rotation");
    j.unknown_0x16 = c.u16("unknown_0x16");
    for (float& v : j.translation) v = c.f32("translation");
    j.radius = c.f32("radius");
    for (float& v : j.min) v = c.f32("min");
    for (float& v : j.max) v = c.f32("max");
  }
  j3d_expect_at(c, remap_at, "remap_offset");
  s.remap.resize(count);
  for (std::uint16_t& r : s.remap) r = c.u16("remap");
  s.gap_after_remap = read_j3d_gap(c, filler, names_at, 4, "names_offset");
  {
    PathScope scope(c, "names");
    s.names = read_j3d_names(c, count);
  }
  s.gap_after_names = read_j3d_gap(c, filler, c.size(), 32, "size");
  return s;
}

J3dSection read_section(Cursor& c, const std::array<std::uint8_t, 4>& magic, J3dFiller& filler) {
  const std::string m(magic.begin(), magic.end());
  if (m == "INF1") return read_inf1(c, filler);
  if (m == "VTX1") return read_vtx1(c, filler);
  if (m == "EVP1") return read_evp1(c, filler);
  if (m == "DRW1") return read_drw1(c, filler);
  if (m == "JNT1") return read_jnt1(c, filler);
  if (m == "TEX1") return read_j3d_tex1(c, filler);
  if (m == "SHP1") return read_j3d_shp1(c, filler);
  if (m == "MDL3") return read_j3d_mdl3(c, filler);
  if (m == "MAT3") return read_j3d_mat3(c, filler);
  c.skip(c.remaining(), "body");
  return J3dRawSection{Verbatim(c.data())};
}

}  // namespace

std::size_t j3d_data_length(ByteSpan region, std::size_t element, const std::string& filler) {
  // The longest run at the end that is the filler's prefix and leaves whole elements before it.
  const std::size_t most = std::min<std::size_t>(31, region.size());
  for (std::size_t k = most; k > 0; --k) {
    const std::size_t data = region.size() - k;
    if (element != 0 && data % element != 0) continue;
    if (j3d_is_filler(region.subspan(data), filler)) return data;
  }
  return element == 0 ? region.size() : region.size() / element * element;
}

void j3d_expect_at(Cursor& c, std::uint64_t target, const char* field) {
  if (target != c.pos()) {
    c.fail(ErrorCode::unsupported, field,
           "points to " + std::to_string(target) + " but the previous table ends at " + std::to_string(c.pos()) +
               "; this layout is not supported");
  }
}

bool j3d_is_filler(ByteSpan bytes, const std::string& filler) {
  if (filler.empty()) return bytes.empty();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] != static_cast<std::uint8_t>(filler[i % filler.size()])) return false;
  }
  return true;
}

bool j3d_is_canonical_gap(ByteSpan gap, std::size_t start, const std::string& filler, std::size_t alignment,
                          std::size_t first_alignment) {
  const std::size_t first = (first_alignment - start % first_alignment) % first_alignment;
  const std::size_t second = (alignment - (start + first) % alignment) % alignment;
  return gap.size() == first + second && j3d_is_filler(gap.first(first), filler) && j3d_is_filler(gap.subspan(first), filler);
}

Verbatim read_j3d_gap(Cursor& c, J3dFiller& filler, std::uint64_t target, std::size_t alignment, const char* field,
                      std::size_t first_alignment) {
  if (target < c.pos()) c.fail_at(ErrorCode::unsupported, target, field, "points back inside the table before it: another table order");
  if (target > c.size()) c.fail_at(ErrorCode::bad_offset, target, field, "points past the end of the section");
  const std::size_t start = c.pos();
  ByteSpan s = c.span(target - start, field);
  if (j3d_is_canonical_gap(s, start, filler.text, alignment, first_alignment)) return {};
  filler.unexplained += s.size();
  return Verbatim(s);
}

J3dNameTable read_j3d_names(Cursor& c, std::size_t expected_count) {
  J3dNameTable t;
  const std::size_t start = c.pos();
  const std::uint16_t count = c.u16("count");
  t.unknown_0x02 = c.u16("unknown_0x02");
  if (count != expected_count) {  // SuperBMD writes MDL3's as 0 (wwrando_Vscroll.arc): the section is kept as bytes
    c.fail_at(ErrorCode::unsupported, start, "count", "is " + std::to_string(count) + " but the section has " +
                                                          std::to_string(expected_count) + " entries");
  }
  c.check_count(count, 5, "count");
  std::vector<std::pair<std::uint16_t, std::uint16_t>> entries(count);
  for (auto& e : entries) {
    e.first = c.u16("hash");
    e.second = c.u16("offset");
  }
  t.names.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (start + entries[i].second != c.pos()) {
      c.fail_at(ErrorCode::unsupported, start + 4 + 4 * i + 2, "offset", "names not packed in entry order are not supported");
    }
    const std::size_t from = c.pos();
    ByteSpan rest = c.data().subspan(from);
    const auto nul = std::find(rest.begin(), rest.end(), std::uint8_t{0});
    if (nul == rest.end()) c.fail(ErrorCode::truncated, "name", "the name has no terminating NUL");
    t.names[i].assign(rest.begin(), nul);
    c.skip(t.names[i].size() + 1, "name");
    if (j3d_name_hash(t.names[i]) != entries[i].first) {
      c.fail_at(ErrorCode::unsupported, start + 4 + 4 * i, "hash", "does not match the name's hash; not supported");
    }
  }
  return t;
}

J3dFileHeader read_j3d_file_header(Cursor& c, const char* magic) {
  if (!c.has_magic(0, magic)) c.fail(ErrorCode::bad_magic, "magic", std::string("does not start with \"") + magic + "\"");
  c.skip(4, "magic");
  J3dFileHeader h;
  h.type = c.array<4>("type");
  h.size = c.u32("size");
  h.section_count = c.u32("section_count");
  h.header_0x10 = c.array<16>("header_0x10");
  return h;
}

namespace {

J3dFile read_with_filler(ByteSpan bytes, J3dFiller& filler) {
  Cursor c(bytes, Endian::big);
  J3dFile f;
  f.padding = filler.text;
  const J3dFileHeader header = read_j3d_file_header(c, "J3D2");
  f.type = header.type;
  f.header_0x10 = header.header_0x10;
  const std::uint32_t size = header.size;
  const std::uint32_t count = header.section_count;
  if (size != bytes.size()) {
    c.fail_at(ErrorCode::bad_value, 8, "size", "is " + std::to_string(size) + " but the file has " + std::to_string(bytes.size()) + " bytes");
  }
  c.check_count(count, 8, "section_count");
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t at = c.pos();
    const auto magic = c.array<4>("section.magic");
    const std::uint32_t section_size = c.u32("section.size");
    if (section_size < 8) c.fail_at(ErrorCode::bad_value, at + 4, "section.size", "is smaller than its own header");
    c.seek(at, "section");
    ByteSpan span = c.span(section_size, "section.size");
    Cursor s(span, Endian::big);
    const std::string name(magic.begin(), magic.end());
    s.push(name.c_str());
    const std::size_t unexplained = filler.unexplained;
    try {
      s.skip(8, "header");
      f.sections.push_back(read_section(s, magic, filler));
      if (!s.at_end()) s.fail(ErrorCode::bad_value, "size", "the tables end before the section does");
    } catch (ParseFailure& failure) {
      if (failure.error.code != ErrorCode::unsupported) {
        if (failure.error.offset) *failure.error.offset += at;
        throw;
      }
      // A valid layout the section's tables cannot express (another tool's order or name table):
      // the section is kept as its bytes, every one counted, and written back as it was.
      filler.unexplained = unexplained + span.size();
      f.sections.push_back(J3dRawSection{Verbatim(span)});
    }
  }
  if (!c.at_end()) c.fail(ErrorCode::bad_value, "section_count", "bytes follow the last section");
  for (J3dSection& s : f.sections) {
    auto* inf = std::get_if<J3dInf1>(&s);
    if (inf == nullptr) continue;
    if (inf->stored_packet_count == j3d_packet_count(f)) inf->stored_packet_count.reset();
    if (inf->stored_vertex_count == j3d_vertex_count(f)) inf->stored_vertex_count.reset();
  }
  return f;
}

}  // namespace

Result<J3dFile> read_j3d(ByteSpan bytes) {
  return guarded([&] {
    // The filler is a fact about the file: Nintendo's text, or a tool's. The one that explains the
    // most gap bytes wins; the structure is the same whichever it is.
    J3dFiller nintendo{kJ3dNintendoPadding};
    J3dFile best = read_with_filler(bytes, nintendo);
    std::size_t best_unexplained = nintendo.unexplained;
    for (const char* other : {kJ3dSuperBmdPadding}) {
      if (best_unexplained == 0) break;
      J3dFiller filler{other};
      J3dFile f = read_with_filler(bytes, filler);
      if (filler.unexplained < best_unexplained) {
        best = std::move(f);
        best_unexplained = filler.unexplained;
      }
    }
    return best;
  });
}

}  // namespace remodel
