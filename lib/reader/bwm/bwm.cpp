// Reads BWM models and skins: a 184-byte header, fixed-size records in a fixed order, planar vertex
// blocks per stride, u16 indices and (version 6) cleave points.
#include <algorithm>
#include <string>

#include "model/bwm/bwm.hpp"
#include "reader/cursor.hpp"

namespace remodel {

namespace {

constexpr std::size_t kHeaderSize = 0xB8;
constexpr std::size_t kStrideSize = 0x88;

BwmVec3 vec3(Cursor& c, const char* field) { return {c.f32(field), c.f32(field), c.f32(field)}; }

BwmBone read_transform(Cursor& c) {
  BwmBone b;
  b.zaxis = vec3(c, "zaxis");
  b.xaxis = vec3(c, "xaxis");
  b.yaxis = vec3(c, "yaxis");
  b.position = vec3(c, "position");
  return b;
}

BwmMesh read_mesh(Cursor& c, std::uint32_t& ref_count) {
  BwmMesh m;
  m.faces_count = c.u32("faces_count");
  m.indices_offset = c.u32("indices_offset");
  m.indices_size = c.u32("indices_size");
  m.vertex_offset = c.u32("vertex_offset");
  m.vertex_size = c.u32("vertex_size");
  m.zaxis = vec3(c, "zaxis");
  m.xaxis = vec3(c, "xaxis");
  m.yaxis = vec3(c, "yaxis");
  m.position = vec3(c, "position");
  m.center = vec3(c, "center");
  m.radius = c.f32("radius");
  m.box1 = vec3(c, "box1");
  m.box2 = vec3(c, "box2");
  m.unknown_0x6c = vec3(c, "unknown_0x6c");
  m.height = c.f32("height");
  m.unknown_0x7c = c.f32("unknown_0x7c");
  m.unknown_0x80 = c.u32("unknown_0x80");
  m.volume = c.f32("volume");
  ref_count = c.u32("material_ref_count");
  m.unknown_0x8c = c.u32("unknown_0x8c");
  m.lod_level = c.u32("lod_level");
  m.name = c.array<64>("name");
  m.unknown_0xd4[0] = c.u32("unknown_0xd4");
  m.unknown_0xd4[1] = c.u32("unknown_0xd4");
  return m;
}

BwmStride read_stride(Cursor& c) {
  BwmStride s;
  const std::size_t start = c.pos();
  const std::uint32_t count = c.u32("count");
  if (count > 16) {
    c.fail_at(ErrorCode::bad_count, start, "count", "is " + std::to_string(count) + " but a stride record holds at most 16 attributes");
  }
  s.attributes.resize(count);
  for (BwmAttribute& a : s.attributes) {
    a.id = c.u32("id");
    const std::uint32_t format = c.u32("format");
    if (format > 4) c.fail_at(ErrorCode::bad_value, c.pos() - 4, "format", "is " + std::to_string(format) + ", outside 0-4");
    a.format = static_cast<BwmFormat>(format);
  }
  ByteSpan tail = c.span(kStrideSize - 4 - 8 * count, "tail");
  if (std::any_of(tail.begin(), tail.end(), [](std::uint8_t v) { return v != 0; })) s.tail = Verbatim(tail);
  return s;
}

template <typename T, typename F>
void read_records(Cursor& c, std::vector<T>& out, std::uint32_t count, std::size_t record_size, const char* name, F&& read) {
  c.check_count(count, record_size, name);
  out.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    PathScope scope(c, name, i);
    out.push_back(read(c));
  }
}

}  // namespace

Result<Bwm> read_bwm(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::little);
    Bwm b;
    c.need(kHeaderSize, "header");
    b.identifier = c.array<40>("identifier");
    if (!looks_like_bwm(bytes)) c.fail_at(ErrorCode::bad_magic, 0, "magic", "is not \"LiOnHeAdMODEL\" with 0x2B00B1E5 at 0x2C");
    const std::uint32_t size = c.u32("size");
    c.skip(4, "magic");
    b.version = c.u32("version");
    if (b.version != 5 && b.version != 6) c.fail_at(ErrorCode::unsupported, 0x30, "version", "is " + std::to_string(b.version) + "; versions 5 and 6 exist");
    const std::uint32_t metadata_size = c.u32("metadata_size");
    b.unknown_0x38 = c.f32("unknown_0x38");
    b.pnt = vec3(c, "pnt");
    b.box1 = vec3(c, "box1");
    b.box2 = vec3(c, "box2");
    b.center = vec3(c, "center");
    b.height = c.f32("height");
    b.radius = c.f32("radius");
    b.unknown_0x74 = c.u32("unknown_0x74");
    b.volume = c.f32("volume");
    const std::uint32_t n_materials = c.u32("material_count");
    const std::uint32_t n_meshes = c.u32("mesh_count");
    const std::uint32_t n_bones = c.u32("bone_count");
    const std::uint32_t n_entities = c.u32("entity_count");
    const std::uint32_t n_unknown = c.u32("unknown_point_count");
    const std::uint32_t n_collision = c.u32("collision_point_count");
    b.unknown_0x94 = c.array<20>("unknown_0x94");
    const std::uint32_t vertex_count = c.u32("vertex_count");
    const std::uint32_t n_strides = c.u32("stride_count");
    b.type = c.u32("type");
    const std::uint32_t n_indices = c.u32("index_count");
    if (std::uint64_t{size} + 0x2C != bytes.size()) {
      c.fail_at(ErrorCode::bad_value, 0x28, "size", "is " + std::to_string(size) + " but the file length - 0x2C is " +
                                                        std::to_string(bytes.size() >= 0x2C ? bytes.size() - 0x2C : 0));
    }

    read_records(c, b.materials, n_materials, 0x1C0, "material", [](Cursor& c) {
      BwmMaterial m;
      for (BwmName64* name : {&m.diffuse, &m.light, &m.growth, &m.specular, &m.animated, &m.normal, &m.type}) *name = c.array<64>("name");
      return m;
    });
    c.check_count(n_meshes, 0xDC, "mesh");  // before ref_counts is sized from it
    std::vector<std::uint32_t> ref_counts(n_meshes);
    std::size_t mesh_index = 0;
    read_records(c, b.meshes, n_meshes, 0xDC, "mesh", [&](Cursor& c) { return read_mesh(c, ref_counts[mesh_index++]); });
    for (std::size_t i = 0; i < b.meshes.size(); ++i) {
      read_records(c, b.meshes[i].material_refs, ref_counts[i], 0x20, "material_ref", [](Cursor& c) {
        BwmMaterialRef r;
        r.material = c.u32("material");
        r.indices_offset = c.u32("indices_offset");
        r.indices_size = c.u32("indices_size");
        r.vertex_offset = c.u32("vertex_offset");
        r.vertex_size = c.u32("vertex_size");
        r.faces_offset = c.u32("faces_offset");
        r.faces_size = c.u32("faces_size");
        r.unknown_0x1c = c.u32("unknown_0x1c");
        return r;
      });
    }
    read_records(c, b.bones, n_bones, 0x30, "bone", read_transform);
    read_records(c, b.entities, n_entities, 0x130, "entity", [](Cursor& c) {
      BwmEntity e;
      e.transform = read_transform(c);
      e.name = c.array<256>("name");
      return e;
    });
    read_records(c, b.unknown_points, n_unknown, 12, "unknown_point", [](Cursor& c) { return vec3(c, "xyz"); });
    read_records(c, b.collision_points, n_collision, 12, "collision_point", [](Cursor& c) { return vec3(c, "xyz"); });
    read_records(c, b.strides, n_strides, kStrideSize, "stride", read_stride);
    if (std::uint64_t{metadata_size} + 0x38 != c.pos()) {
      c.fail_at(ErrorCode::bad_value, 0x34, "metadata_size",
                "is " + std::to_string(metadata_size) + " but the records end at " + std::to_string(c.pos()) + " (0x38 + " +
                    std::to_string(c.pos() - 0x38) + ")");
    }
    for (std::size_t s = 0; s < b.strides.size(); ++s) {
      PathScope scope(c, "stride", static_cast<std::int64_t>(s));
      const std::size_t stride_size = b.strides[s].size();
      c.check_count(vertex_count, stride_size, "vertices");
      b.strides[s].vertices = c.bytes(std::uint64_t{vertex_count} * stride_size, "vertices");
    }
    if (vertex_count != bwm_vertex_count(b)) b.stored_vertex_count = vertex_count;
    c.check_count(n_indices, 2, "index_count");
    b.indices.resize(n_indices);
    for (std::uint32_t i = 0; i < n_indices; ++i) {
      b.indices[i] = c.u16("index");
      if (b.indices[i] >= vertex_count) {
        c.fail_at(ErrorCode::bad_value, c.pos() - 2, "index",
                  "index " + std::to_string(i) + " is " + std::to_string(b.indices[i]) + ", past the " +
                      std::to_string(vertex_count) + " vertices");
      }
    }
    if (b.version >= 6) {
      const std::uint32_t n_cleave = c.u32("cleave_count");
      read_records(c, b.cleave_points, n_cleave, 12, "cleave_point", [](Cursor& c) { return vec3(c, "xyz"); });
    }
    if (!c.at_end()) c.fail(ErrorCode::bad_value, "size", std::to_string(c.remaining()) + " bytes follow the last record");
    return b;
  });
}

}  // namespace remodel
