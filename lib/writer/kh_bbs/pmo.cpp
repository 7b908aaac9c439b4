// Writes Birth by Sleep PMO models (with BON skeletons and embedded TIM2s) and PMP map containers.
#include <algorithm>
#include <limits>
#include <string>

#include "model/kh_bbs/pmo.hpp"
#include "writer/byte_writer.hpp"
#include "writer/kh_bbs/tim2.hpp"

namespace remodel {

namespace {

// A texture offset to fill in once the TIM2 it names has been written.
struct TexturePatch {
  std::size_t at;
  std::uint16_t tim2;
  std::string field;
};

// A list of gaps is empty when every one is canonical.
const Verbatim& gap_or_none(const std::vector<Verbatim>& gaps, std::size_t i) {
  static const Verbatim kNone;
  return i < gaps.size() ? gaps[i] : kNone;
}

// The name of the k-th run of a list of gaps, built only for a mark.
auto gap_name(std::string prefix, const char* list, std::size_t k) {
  return [prefix = std::move(prefix), list, k] { return prefix + list + "[" + std::to_string(k) + "]"; };
}

void write_texture_info(ByteWriter& w, const PmoTextureInfo& t, const std::string& field,
                        std::vector<TexturePatch>& patches) {
  if (t.tim2) {
    patches.push_back({w.pos(), *t.tim2, field});
    w.u32(0);
  } else {
    w.u32(0);
  }
  w.bytes(t.name);
  w.f32(t.scroll_u);
  w.f32(t.scroll_v);
  w.bytes(t.unknown_0x18);
}

// `list` and `index` name the section; the name is built only for a mark or an error.
void write_section(ByteWriter& w, const PmoSection& s, std::size_t base, bool has_skeleton, const std::string& list, std::size_t index) {
  const auto name = [&] { return list + ".section[" + std::to_string(index) + "]"; };
  w.mark(name);
  const std::uint8_t vertex_size = s.vertex_size();
  if (vertex_size == 0 || s.vertices.size() % vertex_size != 0) {
    w.fail(name() + ".vertices", "holds " + std::to_string(s.vertices.size()) + " bytes, not a whole number of " +
                                    std::to_string(vertex_size) + "-byte vertices");
  }
  const std::size_t vertex_count = s.vertices.size() / vertex_size;
  if (vertex_count == 0 || vertex_count > 0xFFFF) {
    w.fail(name() + ".vertices", "a section holds 1 to 65535 vertices, not " + std::to_string(vertex_count));
  }
  if (s.strip_lengths.size() > 0xFF) w.fail(name() + ".strip_lengths", "a section holds at most 255 strips");
  if (s.joints.has_value() != has_skeleton) {
    w.fail(name() + ".joints", has_skeleton ? "is missing, but the PMO has a skeleton" : "is set, but the PMO has no skeleton");
  }
  if (s.diffuse.has_value() != ((s.vertex_flags & PmoSection::kUniformDiffuse) != 0)) {
    w.fail(name() + ".diffuse", "must be present exactly when vertex_flags bit 24 (uniform diffuse) is set");
  }
  w.u16(static_cast<std::uint16_t>(vertex_count));
  w.u8(s.texture);
  w.u8(vertex_size);
  w.u32(s.vertex_flags);
  w.u8(s.group);
  w.u8(static_cast<std::uint8_t>(s.strip_lengths.size()));
  w.u16(s.attribute);
  if (s.joints) w.bytes(*s.joints);
  if (s.diffuse) w.u32(*s.diffuse);
  for (std::uint16_t len : s.strip_lengths) w.u16(len);
  w.mark([&] { return name() + ".vertices"; });
  w.bytes(s.vertices);
  w.pad(4, base, 0, s.end_padding, [&] { return name() + ".end_padding"; });
}

void write_mesh_list(ByteWriter& w, const PmoMeshList& list, std::size_t base, bool has_skeleton,
                     const std::string& field) {
  for (std::size_t i = 0; i < list.sections.size(); ++i) {
    write_section(w, list.sections[i], base, has_skeleton, field, i);
  }
  w.mark([&] { return field + ".end"; });
  const std::size_t rel = w.pos() - base;
  if (list.end_verbatim.size() >= 12 && (rel + list.end_verbatim.size()) % 16 == 0) {
    w.verbatim(list.end_verbatim, [&] { return field + ".end_verbatim"; });
  } else {
    w.fill(12, 0);
    w.pad(16, base, 0);
  }
}

void write_bon(ByteWriter& w, const Bon& b, const std::string& field) {
  w.mark([&] { return field; });
  if (b.joints.size() > 0xFFFF) w.fail(field + ".joints", "a skeleton holds at most 65535 joints");
  w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>("BON\0"), 4));
  w.u32(b.unknown_0x04);
  w.u16(static_cast<std::uint16_t>(b.joints.size()));
  w.u16(b.unknown_0x0a);
  const auto skinned = std::count_if(b.joints.begin(), b.joints.end(), [](const BonJoint& j) { return j.skin_index != 0xFFFF; });
  w.stored_or(b.stored_skinned_count, static_cast<std::uint16_t>(skinned), [&] { return field + ".stored_skinned_count"; });
  w.u16(b.standard_bone_count);
  for (std::size_t i = 0; i < b.joints.size(); ++i) {
    const BonJoint& j = b.joints[i];
    w.mark([&] { return field + ".joint[" + std::to_string(i) + "]"; });
    w.u16(j.index);
    w.u16(j.unknown_0x02);
    w.u16(j.parent);
    w.u16(j.unknown_0x06);
    w.u16(j.skin_index);
    w.u16(j.unknown_0x0a);
    w.u32(j.unknown_0x0c);
    w.bytes(j.name);
    for (float v : j.local) w.f32(v);
    for (float v : j.inverse_bind) w.f32(v);
  }
}

void check_offset_fits(ByteWriter& w, std::size_t value, const std::string& field) {
  if (value > std::numeric_limits<std::uint32_t>::max()) w.fail(field, "lies beyond the 4 GiB a u32 offset reaches");
}

// Writes a PMO at the writer's position. Texture offsets are left for the caller in `shared` when the
// PMO sits in a PMP; a standalone PMO writes its own TIM2s and fills them in itself.
void write_pmo_into(ByteWriter& w, const Pmo& p, const std::string& prefix, std::vector<TexturePatch>* shared) {
  const std::size_t base = w.pos();
  const bool has_skeleton = p.skeleton.has_value();
  w.mark([&] { return prefix + "header"; });
  if (p.textures.size() > 0xFF) w.fail(prefix + "textures", "a PMO holds at most 255 textures");
  w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>("PMO\0"), 4));
  w.u8(p.number);
  w.u8(p.group);
  w.u8(p.version);
  w.u8(p.unknown_0x07);
  w.u8(static_cast<std::uint8_t>(p.textures.size()));
  w.u8(p.unknown_0x09);
  w.u16(p.flag);
  const std::size_t skeleton_at = w.placeholder_u32();
  const std::size_t mesh0_at = w.placeholder_u32();
  w.stored_or(p.stored_triangle_count, static_cast<std::uint16_t>(p.triangle_count()), [&] { return prefix + "stored_triangle_count"; });
  w.stored_or(p.stored_vertex_count, static_cast<std::uint16_t>(p.vertex_count()), [&] { return prefix + "stored_vertex_count"; });
  w.f32(p.scale);
  const std::size_t mesh1_at = w.placeholder_u32();
  for (const auto& corner : p.bounding_box) {
    for (float v : corner) w.f32(v);
  }

  std::vector<TexturePatch> local;
  std::vector<TexturePatch>& patches = shared != nullptr ? *shared : local;
  for (std::size_t i = 0; i < p.textures.size(); ++i) {
    std::string field = prefix + "texture[" + std::to_string(i) + "]";
    w.mark([&] { return field; });
    write_texture_info(w, p.textures[i], field, patches);
  }

  if (p.mesh0) {
    w.pad(4, base, 0, p.gap_before_mesh0, [&] { return prefix + "gap_before_mesh0"; });
    w.patch_u32(mesh0_at, static_cast<std::uint32_t>(w.pos() - base));
    write_mesh_list(w, *p.mesh0, base, has_skeleton, prefix + "mesh0");
  }
  if (p.mesh1) {
    w.pad(4, base, 0, p.gap_before_mesh1, [&] { return prefix + "gap_before_mesh1"; });
    w.patch_u32(mesh1_at, static_cast<std::uint32_t>(w.pos() - base));
    write_mesh_list(w, *p.mesh1, base, has_skeleton, prefix + "mesh1");
  }

  if (shared != nullptr && !p.tim2s.empty()) {
    w.fail(prefix + "tim2s", "a PMO inside a PMP uses the PMP's texture list and cannot embed TIM2s");
  }
  std::vector<std::size_t> tim2_at;
  for (std::size_t k = 0; k < p.tim2s.size(); ++k) {
    w.pad(16, base, 0, gap_or_none(p.gaps_before_tim2, k), gap_name(prefix, "gaps_before_tim2", k));
    tim2_at.push_back(w.pos() - base);
    write_tim2_into(w, p.tim2s[k]);
  }
  if (shared == nullptr) {
    for (const TexturePatch& patch : local) {
      if (patch.tim2 >= tim2_at.size()) w.fail(patch.field + ".tim2", "names a TIM2 the PMO does not hold");
      w.patch_u32(patch.at, static_cast<std::uint32_t>(tim2_at[patch.tim2]));
    }
  }

  if (p.skeleton) {
    w.pad(16, base, 0, p.gap_before_skeleton, [&] { return prefix + "gap_before_skeleton"; });
    check_offset_fits(w, w.pos() - base, prefix + "skeleton");
    w.patch_u32(skeleton_at, static_cast<std::uint32_t>(w.pos() - base));
    write_bon(w, *p.skeleton, prefix + "skeleton");
  }
  check_offset_fits(w, w.pos() - base, prefix + "size");
}

// An upper bound on the bytes a PMO writes, so the output is allocated once.
std::size_t size_bound(const Pmo& p) {
  std::size_t n = 0x100 + p.textures.size() * 0x20 + p.gap_before_mesh0.size() + p.gap_before_mesh1.size() +
                  p.gap_before_skeleton.size();
  for (const auto* list : {&p.mesh0, &p.mesh1}) {
    if (!list->has_value()) continue;
    n += 32 + (*list)->end_verbatim.size();
    for (const PmoSection& s : (*list)->sections) n += 32 + s.strip_lengths.size() * 2 + s.vertices.size() + s.end_padding.size();
  }
  for (std::size_t k = 0; k < p.tim2s.size(); ++k) n += 16 + tim2_size(p.tim2s[k]) + gap_or_none(p.gaps_before_tim2, k).size();
  if (p.skeleton) n += 16 + 0x10 + p.skeleton->joints.size() * 0xA0;
  return n;
}

}  // namespace

Result<Bytes> write_pmo_file(const PmoFile& f, WriteReport* report) {
  return guarded_write([&] {
    ByteWriter w(Endian::little, size_bound(f.pmo) + f.tail.size(), report);
    write_pmo_into(w, f.pmo, "", nullptr);
    w.tail(f.tail);
    return w.take();
  });
}

Result<Bytes> write_pmp(const Pmp& p, WriteReport* report) {
  return guarded_write([&] {
    std::size_t bound = 0x40 + p.objects.size() * 0x30 + p.textures.size() * 0x20 + p.tail.size();
    for (const Pmo& pmo : p.pmos) bound += 16 + size_bound(pmo);
    for (const Tim2& t : p.tim2s) bound += 16 + tim2_size(t);
    ByteWriter w(Endian::little, bound + p.gap_before_texture_list.size(), report);
    w.mark([] { return std::string("header"); });
    if (p.objects.size() > 0xFFFF || p.textures.size() > 0xFFFF || p.pmos.size() > 0xFFFF) {
      w.fail("header", "a PMP holds at most 65535 objects, PMOs and textures");
    }
    w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>("PMP\0"), 4));
    w.u16(p.version);
    w.bytes(p.unknown_0x06);
    w.u8(p.flag);
    w.u16(static_cast<std::uint16_t>(p.objects.size()));
    w.stored_or(p.stored_model_count, static_cast<std::uint16_t>(p.pmos.size()), [] { return std::string("stored_model_count"); });
    w.bytes(p.unknown_0x14);
    w.u16(static_cast<std::uint16_t>(p.textures.size()));
    const std::size_t texture_list_at = w.placeholder_u32();

    std::vector<std::pair<std::size_t, std::uint16_t>> object_patches;
    for (std::size_t i = 0; i < p.objects.size(); ++i) {
      const PmpObject& o = p.objects[i];
      w.mark([&] { return "object[" + std::to_string(i) + "]"; });
      for (float v : o.position) w.f32(v);
      for (float v : o.rotation) w.f32(v);
      for (float v : o.scale) w.f32(v);
      if (o.pmo) {
        if (*o.pmo >= p.pmos.size()) w.fail("object[" + std::to_string(i) + "].pmo", "names a PMO the PMP does not hold");
        object_patches.emplace_back(w.pos(), *o.pmo);
      }
      w.u32(0);
      w.u32(o.unknown_0x28);
      w.u16(o.flags);
      w.u16(o.id);
    }

    std::vector<TexturePatch> patches;
    std::vector<std::size_t> pmo_at;
    for (std::size_t k = 0; k < p.pmos.size(); ++k) {
      w.pad(16, 0, 0, gap_or_none(p.gaps_before_pmo, k), gap_name("", "gaps_before_pmo", k));
      pmo_at.push_back(w.pos());
      write_pmo_into(w, p.pmos[k], "pmo[" + std::to_string(k) + "].", &patches);
    }
    for (const auto& [at, index] : object_patches) w.patch_u32(at, static_cast<std::uint32_t>(pmo_at[index]));

    w.pad(16, 0, 0, p.gap_before_texture_list, [] { return std::string("gap_before_texture_list"); });
    w.patch_u32(texture_list_at, static_cast<std::uint32_t>(w.pos()));
    for (std::size_t i = 0; i < p.textures.size(); ++i) {
      std::string field = "texture_list.texture[" + std::to_string(i) + "]";
      w.mark([&] { return field; });
      write_texture_info(w, p.textures[i], field, patches);
    }
    std::vector<std::size_t> tim2_at;
    for (std::size_t k = 0; k < p.tim2s.size(); ++k) {
      w.pad(16, 0, 0, gap_or_none(p.gaps_before_tim2, k), gap_name("", "gaps_before_tim2", k));
      tim2_at.push_back(w.pos());
      write_tim2_into(w, p.tim2s[k]);
    }
    for (const TexturePatch& patch : patches) {
      if (patch.tim2 >= tim2_at.size()) w.fail(patch.field + ".tim2", "names a TIM2 the PMP does not hold");
      w.patch_u32(patch.at, static_cast<std::uint32_t>(tim2_at[patch.tim2]));
    }
    w.tail(p.tail);
    check_offset_fits(w, w.pos(), "size");
    return w.take();
  });
}

}  // namespace remodel
