// Writes J3D files: section sizes, table offsets, counts, name hashes and padding from the structure.
#include <cstring>
#include <string>

#include "writer/j3d/common.hpp"

namespace remodel {

namespace {

// The bulk of a file (vertex arrays, display lists, texture data, raw sections) plus room for its
// tables, so the output is sized once rather than grown through every section.
std::size_t bulk_size(const J3dFile& f) {
  std::size_t n = 0x20 + 0x1000 * f.sections.size();
  for (const J3dSection& s : f.sections) {
    if (const auto* vtx = std::get_if<J3dVtx1>(&s)) {
      for (const J3dVertexArray& a : vtx->arrays) n += a.data.size() + 32;
    } else if (const auto* shp = std::get_if<J3dShp1>(&s)) {
      for (const J3dPacket& p : shp->packets) {
        n += p.raw.stored() ? p.raw.size() : p.stored_size.value_or(32);
        for (const J3dPrimitive& prim : p.primitives) n += 3 + 2 * prim.values.size();
      }
    } else if (const auto* mdl = std::get_if<J3dMdl3>(&s)) {
      for (const J3dMdlPacket& p : mdl->packets) {
        n += p.raw.stored() ? p.raw.size() : p.stored_size.value_or(32);
        for (const J3dGxCommand& c : p.commands) n += 1 + c.args.size();
      }
    } else if (const auto* tex = std::get_if<J3dTex1>(&s)) {
      n += 0x20 * tex->textures.size();
      for (const J3dTexBlock& b : tex->blocks) n += b.data.size() + 32;
    } else if (const auto* raw = std::get_if<J3dRawSection>(&s)) {
      n += raw->stored.size();
    }
  }
  return n;
}

void write_nodes(ByteWriter& w, const std::vector<J3dNode>& nodes, std::size_t depth) {
  if (depth > kJ3dMaxDepth) w.fail("INF1.hierarchy", "deeper than 256 levels");
  for (const J3dNode& n : nodes) {
    if (n.type <= 2) w.fail("INF1.node", "node types 0-2 are the hierarchy's own control nodes");
    w.u16(n.type);
    w.u16(n.index);
    if (n.children.empty()) continue;
    w.u16(1);
    w.u16(0);
    write_nodes(w, n.children, depth + 1);
    w.u16(2);
    w.u16(0);
  }
}

// Each section writer starts after the 8-byte section header; `base` is the section's start.
void write_inf1(ByteWriter& w, const J3dInf1& s, const J3dFile& f, std::size_t base) {
  w.u16(s.flags);
  w.u16(s.unknown_0x0a);
  w.stored_or(s.stored_packet_count, j3d_packet_count(f), [] { return std::string("INF1.stored_packet_count"); });
  w.stored_or(s.stored_vertex_count, j3d_vertex_count(f), [] { return std::string("INF1.stored_vertex_count"); });
  w.u32(0x18);
  w.mark([] { return std::string("INF1.hierarchy"); });
  write_nodes(w, s.roots, 0);
  w.u32(0);  // terminator
  write_j3d_gap(w, f.padding, 32, base, s.gap_after_hierarchy, [] { return std::string("INF1.gap_after_hierarchy"); });
}

void write_vtx1(ByteWriter& w, const J3dVtx1& s, std::size_t base, const std::string& filler) {
  w.u32(0x40);
  const std::size_t offsets_at = w.pos();
  w.fill(13 * 4, 0);
  w.mark([] { return std::string("VTX1.formats"); });
  for (const J3dVertexFormat* f : [&] {
         std::vector<const J3dVertexFormat*> all;
         for (const J3dVertexFormat& v : s.formats) all.push_back(&v);
         all.push_back(&s.terminator);
         return all;
       }()) {
    w.u32(f->attribute);
    w.u32(f->components);
    w.u32(f->type);
    w.u8(f->frac);
    w.bytes(f->unknown_0x0d);
  }
  write_j3d_gap(w, filler, 32, base, s.gap_after_formats, [] { return std::string("VTX1.gap_after_formats"); });
  std::uint32_t seen = 0;
  for (const J3dVertexArray& a : s.arrays) {
    if (a.slot >= 13 || (seen & (1u << a.slot))) w.fail("VTX1.array", "each of the 13 array slots holds at most one array");
    seen |= 1u << a.slot;
    w.patch_u32(offsets_at + 4 * a.slot, static_cast<std::uint32_t>(w.pos() - base));
    w.mark([&] { return "VTX1.array[" + std::to_string(a.slot) + "]"; });
    w.bytes(a.data);
    write_j3d_gap(w, filler, 32, base, a.gap_after, [&] { return "VTX1.array[" + std::to_string(a.slot) + "].gap_after"; });
  }
}

void write_evp1(ByteWriter& w, const J3dEvp1& s, std::size_t base, const std::string& filler) {
  if (s.envelopes.size() > 0xFFFF) w.fail("EVP1.count", "more than 65535 envelopes");
  w.u16(static_cast<std::uint16_t>(s.envelopes.size()));
  w.u16(s.unknown_0x0a);
  const std::size_t offsets_at = w.pos();
  w.fill(16, 0);
  const auto gap_after_matrices = [] { return std::string("EVP1.gap_after_matrices"); };
  if (s.envelopes.empty() && s.inverse_binds.empty()) {
    write_j3d_gap(w, filler, 32, base, s.gap_after_matrices, gap_after_matrices);
    return;
  }
  const auto offset_here = [&](std::size_t k) { w.patch_u32(offsets_at + 4 * k, static_cast<std::uint32_t>(w.pos() - base)); };
  offset_here(0);
  w.mark([] { return std::string("EVP1.counts"); });
  for (const J3dEnvelope& e : s.envelopes) {
    if (e.joints.size() > 0xFF || e.weights.size() != e.joints.size()) {
      w.fail("EVP1.envelope", "needs one weight per joint and at most 255 of them");
    }
    w.u8(static_cast<std::uint8_t>(e.joints.size()));
  }
  offset_here(1);
  for (const J3dEnvelope& e : s.envelopes) {
    for (std::uint16_t j : e.joints) w.u16(j);
  }
  write_j3d_gap(w, filler, 4, base, s.gap_after_indices, [] { return std::string("EVP1.gap_after_indices"); });
  offset_here(2);
  for (const J3dEnvelope& e : s.envelopes) {
    for (float v : e.weights) w.f32(v);
  }
  offset_here(3);
  w.mark([] { return std::string("EVP1.matrices"); });
  for (const auto& m : s.inverse_binds) {
    for (float v : m) w.f32(v);
  }
  write_j3d_gap(w, filler, 32, base, s.gap_after_matrices, gap_after_matrices);
}

void write_drw1(ByteWriter& w, const J3dDrw1& s, std::size_t base, const std::string& filler) {
  if (s.weighted.size() != s.indices.size() || s.indices.size() > 0xFFFF) {
    w.fail("DRW1", "needs one flag per index and at most 65535 entries");
  }
  w.u16(static_cast<std::uint16_t>(s.indices.size()));
  w.u16(s.unknown_0x0a);
  const std::size_t offsets_at = w.pos();
  w.fill(8, 0);
  w.patch_u32(offsets_at, static_cast<std::uint32_t>(w.pos() - base));
  w.mark([] { return std::string("DRW1.flags"); });
  for (std::uint8_t f : s.weighted) w.u8(f);
  write_j3d_gap(w, filler, 2, base, s.gap_after_flags, [] { return std::string("DRW1.gap_after_flags"); });
  w.patch_u32(offsets_at + 4, static_cast<std::uint32_t>(w.pos() - base));
  for (std::uint16_t i : s.indices) w.u16(i);
  write_j3d_gap(w, filler, 32, base, s.gap_after_indices, [] { return std::string("DRW1.gap_after_indices"); });
}

void write_jnt1(ByteWriter& w, const J3dJnt1& s, std::size_t base, const std::string& filler) {
  if (s.joints.size() > 0xFFFF || s.remap.size() != s.joints.size() || s.names.names.size() != s.joints.size()) {
    w.fail("JNT1", "needs one remap entry and one name per joint, at most 65535 joints");
  }
  w.u16(static_cast<std::uint16_t>(s.joints.size()));
  w.u16(s.unknown_0x0a);
  const std::size_t offsets_at = w.pos();
  w.fill(12, 0);
  w.patch_u32(offsets_at, static_cast<std::uint32_t>(w.pos() - base));
  for (std::size_t i = 0; i < s.joints.size(); ++i) {
    const J3dJoint& j = s.joints[i];
    w.mark([&] { return "JNT1.joint[" + std::to_string(i) + "]"; });
    w.u16(j.flags);
    w.u8(j.inherit_scale);
    w.u8(j.unknown_0x03);
    for (float v : j.scale) w.f32(v);
    for (std::int16_t v : j.rotation) w.i16(v);
    w.u16(j.unknown_0x16);
    for (float v : j.translation) w.f32(v);
    w.f32(j.radius);
    for (float v : j.min) w.f32(v);
    for (float v : j.max) w.f32(v);
  }
  w.patch_u32(offsets_at + 4, static_cast<std::uint32_t>(w.pos() - base));
  for (std::uint16_t r : s.remap) w.u16(r);
  write_j3d_gap(w, filler, 4, base, s.gap_after_remap, [] { return std::string("JNT1.gap_after_remap"); });
  w.patch_u32(offsets_at + 8, static_cast<std::uint32_t>(w.pos() - base));
  w.mark([] { return std::string("JNT1.names"); });
  write_j3d_names(w, s.names);
  write_j3d_gap(w, filler, 32, base, s.gap_after_names, [] { return std::string("JNT1.gap_after_names"); });
}

}  // namespace

void write_j3d_filler(ByteWriter& w, const std::string& filler, std::size_t alignment, std::size_t base,
                      std::size_t first_alignment) {
  for (std::size_t a : {first_alignment, alignment}) {
    const std::size_t n = (a - (w.pos() - base) % a) % a;
    if (n != 0 && filler.empty()) w.fail("padding", "the file's filler text is empty but a gap needs filling");
    for (std::size_t i = 0; i < n; ++i) w.u8(static_cast<std::uint8_t>(filler[i % filler.size()]));
  }
}

void write_j3d_names(ByteWriter& w, const J3dNameTable& t) {
  if (t.names.size() > 0xFFFF) w.fail("names", "more than 65535 names");
  std::size_t offset = 4 + 4 * t.names.size();
  w.u16(static_cast<std::uint16_t>(t.names.size()));
  w.u16(t.unknown_0x02);
  for (const std::string& n : t.names) {
    if (offset > 0xFFFF) w.fail("names", "the strings run past the 64 KiB a u16 offset reaches");
    if (n.find('\0') != std::string::npos) w.fail("names", "a name holds a NUL");
    w.u16(j3d_name_hash(n));
    w.u16(static_cast<std::uint16_t>(offset));
    offset += n.size() + 1;
  }
  for (const std::string& n : t.names) {
    w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>(n.data()), n.size()));
    w.u8(0);
  }
}

std::size_t write_j3d_file_header(ByteWriter& w, const char* magic, const std::array<std::uint8_t, 4>& type,
                                  std::uint32_t section_count, const std::array<std::uint8_t, 16>& header_0x10,
                                  std::optional<std::uint32_t> stored_size) {
  w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>(magic), 4));
  w.bytes(type);
  const std::size_t size_at = w.pos();
  w.stored_or(stored_size, std::uint32_t{0}, [] { return std::string("size"); });
  w.u32(section_count);
  w.bytes(header_0x10);
  return size_at;
}

Result<Bytes> write_j3d(const J3dFile& f, WriteReport* report) {
  return guarded_write([&] {
    ByteWriter w(Endian::big, bulk_size(f), report);
    w.mark([] { return std::string("header"); });
    const std::size_t size_at = write_j3d_file_header(w, "J3D2", f.type, static_cast<std::uint32_t>(f.sections.size()), f.header_0x10);
    for (const J3dSection& s : f.sections) {
      const std::size_t base = w.pos();
      const std::string magic = j3d_section_magic(s);
      w.mark([&] { return magic; });
      const auto* raw = std::get_if<J3dRawSection>(&s);
      if (raw != nullptr) {
        // Kept whole, header included; its size is patched below like any section's.
        if (raw->stored.size() < 8) w.fail(magic, "a section kept as its bytes holds at least its 8-byte header");
        w.verbatim(raw->stored, [&] { return magic; });
      } else {
        w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>(magic.data()), 4));
        w.u32(0);  // size, patched
      }
      const std::string& filler = f.padding;
      if (const auto* inf = std::get_if<J3dInf1>(&s)) write_inf1(w, *inf, f, base);
      else if (const auto* vtx = std::get_if<J3dVtx1>(&s)) write_vtx1(w, *vtx, base, filler);
      else if (const auto* evp = std::get_if<J3dEvp1>(&s)) write_evp1(w, *evp, base, filler);
      else if (const auto* drw = std::get_if<J3dDrw1>(&s)) write_drw1(w, *drw, base, filler);
      else if (const auto* jnt = std::get_if<J3dJnt1>(&s)) write_jnt1(w, *jnt, base, filler);
      else if (const auto* tex = std::get_if<J3dTex1>(&s)) write_j3d_tex1(w, *tex, base, filler);
      else if (const auto* shp = std::get_if<J3dShp1>(&s)) write_j3d_shp1(w, *shp, base, filler);
      else if (const auto* mdl = std::get_if<J3dMdl3>(&s)) write_j3d_mdl3(w, *mdl, base, filler);
      else if (const auto* mat = std::get_if<J3dMat3>(&s)) write_j3d_mat3(w, *mat, base, filler);
      if (w.pos() - base > 0xFFFFFFFFu) w.fail(magic, "the section is larger than 4 GiB");
      w.patch_u32(base + 4, static_cast<std::uint32_t>(w.pos() - base));
    }
    if (w.pos() > 0xFFFFFFFFu) w.fail("size", "the file is larger than 4 GiB");
    w.patch_u32(size_at, static_cast<std::uint32_t>(w.pos()));
    return w.take();
  });
}

}  // namespace remodel
