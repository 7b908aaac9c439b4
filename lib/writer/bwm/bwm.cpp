// Writes BWM models and skins; size, metadataSize, every count (the vertex count from the strides) and
// the stride tails' lengths come from the structure.
#include <algorithm>
#include <string>

#include "model/bwm/bwm.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

namespace {

void vec3(ByteWriter& w, const BwmVec3& v) {
  for (float f : v) w.f32(f);
}

void transform(ByteWriter& w, const BwmBone& b) {
  vec3(w, b.zaxis);
  vec3(w, b.xaxis);
  vec3(w, b.yaxis);
  vec3(w, b.position);
}

void check(const Bwm& b, std::uint32_t vertex_count, ByteWriter& w) {
  if (b.version != 5 && b.version != 6) w.fail("version", "must be 5 or 6");
  if (b.version == 5 && !b.cleave_points.empty()) w.fail("cleave_points", "version 5 files have no cleave points");
  for (std::size_t s = 0; s < b.strides.size(); ++s) {
    const BwmStride& st = b.strides[s];
    const std::string name = "stride[" + std::to_string(s) + "]";
    if (st.attributes.size() > 16) w.fail(name + ".count", "a stride record holds at most 16 attributes");
    if (st.tail.stored() && st.tail.size() != 0x84 - 8 * st.attributes.size()) {
      w.fail(name + ".tail", "must be " + std::to_string(0x84 - 8 * st.attributes.size()) + " bytes to fill the 136-byte record");
    }
    for (const BwmAttribute& a : st.attributes) {
      if (static_cast<std::uint32_t>(a.format) > 4) w.fail(name + ".format", "outside 0-4");
    }
    if (st.vertices.size() != std::size_t{vertex_count} * st.size()) {
      w.fail(name + ".vertices", "holds " + std::to_string(st.vertices.size()) + " bytes, not " + std::to_string(vertex_count) +
                                     " vertices (" + (b.stored_vertex_count ? "the stored count" : "the first stride's") + ") x " +
                                     std::to_string(st.size()));
    }
  }
  std::uint16_t largest = 0;  // a max the compiler vectorises; the index that fails is looked for only then
  for (std::uint16_t v : b.indices) largest = std::max(largest, v);
  if (!b.indices.empty() && largest >= vertex_count) {
    for (std::size_t i = 0; i < b.indices.size(); ++i) {
      if (b.indices[i] >= vertex_count) w.fail("index[" + std::to_string(i) + "]", "is past the vertex count");
    }
  }
}

}  // namespace

Result<Bytes> write_bwm(const Bwm& b, WriteReport* report) {
  return guarded_write([&] {
    std::size_t refs = 0;
    for (const BwmMesh& m : b.meshes) refs += m.material_refs.size();
    const std::size_t metadata = 0x80 + 0x1C0 * b.materials.size() + 0xDC * b.meshes.size() + 0x20 * refs +
                                 0x30 * b.bones.size() + 0x130 * b.entities.size() +
                                 0xC * (b.unknown_points.size() + b.collision_points.size()) + 0x88 * b.strides.size();
    std::size_t vertex_bytes = 0;
    for (const BwmStride& s : b.strides) vertex_bytes += s.vertices.size();
    const std::size_t total = 0x38 + metadata + vertex_bytes + 2 * b.indices.size() +
                              (b.version >= 6 ? 4 + 12 * b.cleave_points.size() : 0);
    const bool too_big = total > 0xFFFFFFFFu;
    ByteWriter w(Endian::little, too_big ? 0 : total, report);
    if (too_big) w.fail("size", "the model is larger than its 32-bit size field can describe");
    const std::uint32_t vertex_count = bwm_vertex_count(b);
    check(b, vertex_count, w);

    w.mark([] { return std::string("header"); });
    w.bytes(b.identifier);
    w.u32(static_cast<std::uint32_t>(total - 0x2C));
    w.u32(kBwmMagic);
    w.u32(b.version);
    w.u32(static_cast<std::uint32_t>(metadata));
    w.f32(b.unknown_0x38);
    vec3(w, b.pnt);
    vec3(w, b.box1);
    vec3(w, b.box2);
    vec3(w, b.center);
    w.f32(b.height);
    w.f32(b.radius);
    w.u32(b.unknown_0x74);
    w.f32(b.volume);
    w.mark([] { return std::string("counts"); });
    for (std::size_t n : {b.materials.size(), b.meshes.size(), b.bones.size(), b.entities.size(), b.unknown_points.size(),
                          b.collision_points.size()}) {
      w.u32(static_cast<std::uint32_t>(n));
    }
    w.bytes(b.unknown_0x94);
    w.stored_or(b.stored_vertex_count, vertex_count, [] { return std::string("vertex_count"); });
    w.u32(static_cast<std::uint32_t>(b.strides.size()));
    w.u32(b.type);
    w.u32(static_cast<std::uint32_t>(b.indices.size()));

    for (std::size_t i = 0; i < b.materials.size(); ++i) {
      const BwmMaterial& m = b.materials[i];
      w.mark([&] { return "material[" + std::to_string(i) + "]"; });
      for (const BwmName64* name : {&m.diffuse, &m.light, &m.growth, &m.specular, &m.animated, &m.normal, &m.type}) w.bytes(*name);
    }
    for (std::size_t i = 0; i < b.meshes.size(); ++i) {
      const BwmMesh& m = b.meshes[i];
      w.mark([&] { return "mesh[" + std::to_string(i) + "]"; });
      w.u32(m.faces_count);
      w.u32(m.indices_offset);
      w.u32(m.indices_size);
      w.u32(m.vertex_offset);
      w.u32(m.vertex_size);
      vec3(w, m.zaxis);
      vec3(w, m.xaxis);
      vec3(w, m.yaxis);
      vec3(w, m.position);
      vec3(w, m.center);
      w.f32(m.radius);
      vec3(w, m.box1);
      vec3(w, m.box2);
      vec3(w, m.unknown_0x6c);
      w.f32(m.height);
      w.f32(m.unknown_0x7c);
      w.u32(m.unknown_0x80);
      w.f32(m.volume);
      w.u32(static_cast<std::uint32_t>(m.material_refs.size()));
      w.u32(m.unknown_0x8c);
      w.u32(m.lod_level);
      w.bytes(m.name);
      w.u32(m.unknown_0xd4[0]);
      w.u32(m.unknown_0xd4[1]);
    }
    for (std::size_t i = 0; i < b.meshes.size(); ++i) {
      for (std::size_t k = 0; k < b.meshes[i].material_refs.size(); ++k) {
        const BwmMaterialRef& r = b.meshes[i].material_refs[k];
        w.mark([&] { return "mesh[" + std::to_string(i) + "].material_ref[" + std::to_string(k) + "]"; });
        for (std::uint32_t v : {r.material, r.indices_offset, r.indices_size, r.vertex_offset, r.vertex_size, r.faces_offset,
                                r.faces_size, r.unknown_0x1c}) {
          w.u32(v);
        }
      }
    }
    w.mark([] { return std::string("bones"); });
    for (const BwmBone& bone : b.bones) transform(w, bone);
    for (std::size_t i = 0; i < b.entities.size(); ++i) {
      w.mark([&] { return "entity[" + std::to_string(i) + "]"; });
      transform(w, b.entities[i].transform);
      w.bytes(b.entities[i].name);
    }
    w.mark([] { return std::string("points"); });
    for (const BwmVec3& p : b.unknown_points) vec3(w, p);
    for (const BwmVec3& p : b.collision_points) vec3(w, p);
    for (std::size_t i = 0; i < b.strides.size(); ++i) {
      const BwmStride& s = b.strides[i];
      w.mark([&] { return "stride[" + std::to_string(i) + "]"; });
      w.u32(static_cast<std::uint32_t>(s.attributes.size()));
      for (const BwmAttribute& a : s.attributes) {
        w.u32(a.id);
        w.u32(static_cast<std::uint32_t>(a.format));
      }
      if (!w.verbatim(s.tail, [&] { return "stride[" + std::to_string(i) + "].tail"; })) w.fill(0x84 - 8 * s.attributes.size(), 0);
    }
    for (std::size_t i = 0; i < b.strides.size(); ++i) {
      w.mark([&] { return "stride[" + std::to_string(i) + "].vertices"; });
      w.bytes(b.strides[i].vertices);
    }
    w.mark([] { return std::string("indices"); });
    for (std::uint16_t v : b.indices) w.u16(v);
    if (b.version >= 6) {
      w.mark([] { return std::string("cleave"); });
      w.u32(static_cast<std::uint32_t>(b.cleave_points.size()));
      for (const BwmVec3& p : b.cleave_points) vec3(w, p);
    }
    return w.take();
  });
}

}  // namespace remodel
