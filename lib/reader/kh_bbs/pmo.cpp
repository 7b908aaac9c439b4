// Reads Birth by Sleep PMO models (with BON skeletons and embedded TIM2s) and PMP map containers.
#include <algorithm>
#include <string>

#include "model/kh_bbs/pmo.hpp"
#include "model/psp/vertex.hpp"
#include "reader/cursor.hpp"
#include "reader/kh_bbs/tim2.hpp"

namespace remodel {

namespace {

constexpr std::size_t kPmoHeaderSize = 0xA0;
constexpr std::size_t kTextureInfoSize = 0x20;
constexpr std::size_t kSectionHeaderSize = 12;
constexpr std::size_t kBonJointSize = 0xA0;
constexpr std::size_t kPmpObjectSize = 0x30;

// Sorted, distinct, non-zero offsets: the order the pointed-to structures are laid out in.
std::vector<std::uint64_t> distinct_targets(const std::vector<std::uint64_t>& offsets) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t o : offsets) {
    if (o != 0) out.push_back(o);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::uint16_t rank_of(const std::vector<std::uint64_t>& sorted, std::uint64_t value) {
  return static_cast<std::uint16_t>(std::lower_bound(sorted.begin(), sorted.end(), value) - sorted.begin());
}

PmoTextureInfo read_texture_info(Cursor& c, std::uint32_t& offset) {
  PmoTextureInfo t;
  offset = c.u32("offset");
  t.name = c.array<12>("name");
  t.scroll_u = c.f32("scroll_u");
  t.scroll_v = c.f32("scroll_v");
  t.unknown_0x18 = c.array<8>("unknown_0x18");
  return t;
}

PmoSection read_section(Cursor& c, std::size_t base, bool has_skeleton) {
  PmoSection s;
  const std::size_t start = c.pos();
  const std::uint16_t vertex_count = c.u16("vertex_count");
  s.texture = c.u8("texture");
  const std::uint8_t vertex_size = c.u8("vertex_size");
  s.vertex_flags = c.u32("vertex_flags");
  s.group = c.u8("group");
  const std::uint8_t strip_count = c.u8("strip_count");
  s.attribute = c.u16("attribute");
  if (has_skeleton) s.joints = c.array<8>("joints");
  if (s.vertex_flags & PmoSection::kUniformDiffuse) s.diffuse = c.u32("diffuse");
  c.check_count(strip_count, 2, "strip_count");
  s.strip_lengths.resize(strip_count);
  for (std::uint16_t& len : s.strip_lengths) len = c.u16("strip_lengths");
  if (vertex_size == 0) c.fail_at(ErrorCode::bad_value, start + 3, "vertex_size", "is 0 but the section has vertices");
  c.check_count(vertex_count, vertex_size, "vertex_count");
  s.vertices = c.bytes(std::size_t{vertex_count} * vertex_size, "vertices");
  if (vertex_size != psp::VertexFormat::parse(s.vertex_flags & 0xFFFFFF).layout().size) s.stored_vertex_size = vertex_size;
  s.end_padding = c.padding(4, base, 0, "end_padding");
  return s;
}

PmoMeshList read_mesh_list(Cursor& c, std::size_t base, bool has_skeleton) {
  PmoMeshList list;
  for (std::size_t i = 0;; ++i) {
    PathScope scope(c, "section", static_cast<std::int64_t>(i));
    if (c.peek_u16(c.pos(), "vertex_count") == 0) {
      // A zero vertex count ends the list: its 12-byte header and zeros to 16 bytes.
      const std::size_t start = c.pos();
      c.skip(kSectionHeaderSize, "end");
      c.skip(c.aligned(16, base) - c.pos(), "end_padding");
      ByteSpan end = c.data().subspan(start, c.pos() - start);
      if (std::any_of(end.begin(), end.end(), [](std::uint8_t b) { return b != 0; })) list.end_verbatim = Verbatim(end);
      return list;
    }
    list.sections.push_back(read_section(c, base, has_skeleton));
  }
}

Bon read_bon(Cursor& c) {
  PathScope scope(c, "skeleton");
  Bon b;
  if (!c.has_magic(c.pos(), "BON\0")) c.fail(ErrorCode::bad_magic, "magic", "does not start with \"BON\\0\"");
  c.skip(4, "magic");
  b.unknown_0x04 = c.u32("unknown_0x04");
  const std::uint16_t count = c.u16("joint_count");
  b.unknown_0x0a = c.u16("unknown_0x0a");
  const std::uint16_t skinned = c.u16("skinned_count");
  b.standard_bone_count = c.u16("standard_bone_count");
  c.check_count(count, kBonJointSize, "joint_count");
  b.joints.resize(count);
  std::uint16_t skinned_seen = 0;
  for (std::size_t i = 0; i < count; ++i) {
    PathScope joint_scope(c, "joint", static_cast<std::int64_t>(i));
    BonJoint& j = b.joints[i];
    j.index = c.u16("index");
    j.unknown_0x02 = c.u16("unknown_0x02");
    j.parent = c.u16("parent");
    j.unknown_0x06 = c.u16("unknown_0x06");
    j.skin_index = c.u16("skin_index");
    j.unknown_0x0a = c.u16("unknown_0x0a");
    j.unknown_0x0c = c.u32("unknown_0x0c");
    j.name = c.array<16>("name");
    for (float& v : j.local) v = c.f32("local");
    for (float& v : j.inverse_bind) v = c.f32("inverse_bind");
    if (j.skin_index != 0xFFFF) ++skinned_seen;
  }
  if (skinned != skinned_seen) b.stored_skinned_count = skinned;
  return b;
}

// `shared` holds the PMP's TIM2 offsets (absolute, sorted) when the PMO sits in a PMP; null for a
// standalone PMO, whose texture offsets point at its own TIM2s.
Pmo read_pmo_at(Cursor& c, const std::vector<std::uint64_t>* shared) {
  Pmo p;
  const std::size_t base = c.pos();
  if (!c.has_magic(base, "PMO\0")) c.fail(ErrorCode::bad_magic, "magic", "does not start with \"PMO\\0\"");
  c.skip(4, "magic");
  p.number = c.u8("number");
  p.group = c.u8("group");
  p.version = c.u8("version");
  p.unknown_0x07 = c.u8("unknown_0x07");
  const std::uint8_t texture_count = c.u8("texture_count");
  p.unknown_0x09 = c.u8("unknown_0x09");
  p.flag = c.u16("flag");
  const std::uint32_t skeleton_offset = c.u32("skeleton_offset");
  const std::uint32_t mesh0_offset = c.u32("mesh0_offset");
  const std::uint16_t triangle_count = c.u16("triangle_count");
  const std::uint16_t vertex_count = c.u16("vertex_count");
  p.scale = c.f32("scale");
  const std::uint32_t mesh1_offset = c.u32("mesh1_offset");
  for (auto& corner : p.bounding_box) {
    for (float& v : corner) v = c.f32("bounding_box");
  }

  c.check_count(texture_count, kTextureInfoSize, "texture_count");
  std::vector<std::uint64_t> texture_offsets(texture_count);
  p.textures.resize(texture_count);
  for (std::size_t i = 0; i < texture_count; ++i) {
    PathScope scope(c, "texture", static_cast<std::int64_t>(i));
    std::uint32_t offset = 0;
    p.textures[i] = read_texture_info(c, offset);
    texture_offsets[i] = offset;
  }

  const bool has_skeleton = skeleton_offset != 0;
  if (mesh0_offset != 0) {
    p.gap_before_mesh0 = c.gap(std::uint64_t{base} + mesh0_offset, 4, base, 0, "mesh0_offset");
    PathScope scope(c, "mesh0");
    p.mesh0 = read_mesh_list(c, base, has_skeleton);
  }
  if (mesh1_offset != 0) {
    p.gap_before_mesh1 = c.gap(std::uint64_t{base} + mesh1_offset, 4, base, 0, "mesh1_offset");
    PathScope scope(c, "mesh1");
    p.mesh1 = read_mesh_list(c, base, has_skeleton);
  }

  if (shared == nullptr) {
    std::vector<std::uint64_t> targets = distinct_targets(texture_offsets);
    bool any_gap = false;
    for (std::size_t k = 0; k < targets.size(); ++k) {
      PathScope scope(c, "tim2", static_cast<std::int64_t>(k));
      p.gaps_before_tim2.push_back(c.gap(base + targets[k], 16, base, 0, "offset"));
      any_gap |= p.gaps_before_tim2.back().stored();
      p.tim2s.push_back(read_tim2_at(c));
    }
    if (!any_gap) p.gaps_before_tim2.clear();
    for (std::size_t i = 0; i < texture_count; ++i) {
      if (texture_offsets[i] != 0) p.textures[i].tim2 = rank_of(targets, texture_offsets[i]);
    }
  } else {
    for (std::size_t i = 0; i < texture_count; ++i) {
      if (texture_offsets[i] == 0) continue;
      if (!std::binary_search(shared->begin(), shared->end(), texture_offsets[i])) {
        c.fail_at(ErrorCode::bad_offset, base + kPmoHeaderSize + i * kTextureInfoSize,
                  ("texture[" + std::to_string(i) + "].offset").c_str(),
                  "points at no TIM2 of the PMP's texture list");
      }
      p.textures[i].tim2 = rank_of(*shared, texture_offsets[i]);
    }
  }

  if (has_skeleton) {
    p.gap_before_skeleton = c.gap(std::uint64_t{base} + skeleton_offset, 16, base, 0, "skeleton_offset");
    p.skeleton = read_bon(c);
  }
  if (triangle_count != (p.triangle_count() & 0xFFFF)) p.stored_triangle_count = triangle_count;
  if (vertex_count != (p.vertex_count() & 0xFFFF)) p.stored_vertex_count = vertex_count;
  return p;
}

}  // namespace

Result<PmoFile> read_pmo_file(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::little);
    PmoFile f;
    f.pmo = read_pmo_at(c, nullptr);
    f.tail = c.tail("tail");
    return f;
  });
}

Result<Pmp> read_pmp(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::little);
    Pmp p;
    if (!c.has_magic(0, "PMP\0")) c.fail(ErrorCode::bad_magic, "magic", "does not start with \"PMP\\0\"");
    c.skip(4, "magic");
    p.version = c.u16("version");
    p.unknown_0x06 = c.array<9>("unknown_0x06");
    p.flag = c.u8("flag");
    const std::uint16_t object_count = c.u16("object_count");
    const std::uint16_t model_count = c.u16("model_count");
    p.unknown_0x14 = c.array<6>("unknown_0x14");
    const std::uint16_t texture_count = c.u16("texture_count");
    const std::uint32_t texture_list_offset = c.u32("texture_list_offset");

    c.check_count(object_count, kPmpObjectSize, "object_count");
    p.objects.resize(object_count);
    std::vector<std::uint64_t> pmo_offsets(object_count);
    for (std::size_t i = 0; i < object_count; ++i) {
      PathScope scope(c, "object", static_cast<std::int64_t>(i));
      PmpObject& o = p.objects[i];
      for (float& v : o.position) v = c.f32("position");
      for (float& v : o.rotation) v = c.f32("rotation");
      for (float& v : o.scale) v = c.f32("scale");
      pmo_offsets[i] = c.u32("pmo_offset");
      o.unknown_0x28 = c.u32("unknown_0x28");
      o.flags = c.u16("flags");
      o.id = c.u16("id");
    }
    const std::size_t after_objects = c.pos();

    // The texture list comes after the PMOs, but their texture offsets point into it: read it first.
    std::vector<std::uint64_t> tim2_offsets(texture_count);
    {
      PathScope scope(c, "texture_list");
      c.seek(texture_list_offset, "texture_list_offset");
      c.check_count(texture_count, kTextureInfoSize, "texture_count");
      p.textures.resize(texture_count);
      for (std::size_t i = 0; i < texture_count; ++i) {
        PathScope entry(c, "texture", static_cast<std::int64_t>(i));
        std::uint32_t offset = 0;
        p.textures[i] = read_texture_info(c, offset);
        tim2_offsets[i] = offset;
      }
    }
    const std::vector<std::uint64_t> tim2_targets = distinct_targets(tim2_offsets);
    c.seek(after_objects, "objects");

    const std::vector<std::uint64_t> pmo_targets = distinct_targets(pmo_offsets);
    bool any_gap = false;
    for (std::size_t k = 0; k < pmo_targets.size(); ++k) {
      PathScope scope(c, "pmo", static_cast<std::int64_t>(k));
      p.gaps_before_pmo.push_back(c.gap(pmo_targets[k], 16, 0, 0, "offset"));
      any_gap |= p.gaps_before_pmo.back().stored();
      p.pmos.push_back(read_pmo_at(c, &tim2_targets));
    }
    if (!any_gap) p.gaps_before_pmo.clear();
    for (std::size_t i = 0; i < object_count; ++i) {
      if (pmo_offsets[i] != 0) p.objects[i].pmo = rank_of(pmo_targets, pmo_offsets[i]);
    }
    if (model_count != p.pmos.size()) p.stored_model_count = model_count;

    {
      PathScope scope(c, "texture_list");
      p.gap_before_texture_list = c.gap(texture_list_offset, 16, 0, 0, "texture_list_offset");
      c.skip(std::size_t{texture_count} * kTextureInfoSize, "textures");
    }
    any_gap = false;
    for (std::size_t k = 0; k < tim2_targets.size(); ++k) {
      PathScope scope(c, "tim2", static_cast<std::int64_t>(k));
      p.gaps_before_tim2.push_back(c.gap(tim2_targets[k], 16, 0, 0, "offset"));
      any_gap |= p.gaps_before_tim2.back().stored();
      p.tim2s.push_back(read_tim2_at(c));
    }
    if (!any_gap) p.gaps_before_tim2.clear();
    for (std::size_t i = 0; i < texture_count; ++i) {
      if (tim2_offsets[i] != 0) p.textures[i].tim2 = rank_of(tim2_targets, tim2_offsets[i]);
    }
    p.tail = c.tail("tail");
    return p;
  });
}

}  // namespace remodel
