// Writes MHFU PMO 1.0: table offsets, group list/vertex/index offsets and the VADDR/IADDR arguments
// all come from where this writer puts things.
#include <algorithm>
#include <string>

#include "model/mhfu/pmo.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

namespace {

struct BlockPlacement {
  std::uint32_t list = 0, vertex = 0, index = 0;  // relative to the geometry offset; index 0 = unindexed
};

// Pads to 16 from the file start, or writes the verbatim gap the reader kept.
template <typename NameFn>
void pad16(ByteWriter& w, const Verbatim& gap, NameFn&& name) {
  w.pad(16, 0, 0, gap, name);
}

// A field of the PMO header's, named only for a mark.
auto named(const char* field) {
  return [field] { return std::string(field); };
}

BlockPlacement write_block(ByteWriter& w, const MhfuBlock& b, std::size_t geometry, std::size_t i) {
  const auto name = [i] { return "block[" + std::to_string(i) + "]"; };  // built only for a mark or an error
  Result<MhfuListPlan> plan = plan_mhfu_list(b.commands);
  if (!plan) w.fail(name() + "." + plan.error().field, plan.error().message);
  const std::size_t index_size = plan->index_size();
  if (b.indices.size() != plan->index_count() * index_size) {
    w.fail(name() + ".indices", "the PRIMs draw " + std::to_string(plan->index_count()) + " indices but the buffer holds " +
                                  std::to_string(index_size ? b.indices.size() / index_size : b.indices.size()) + " bytes' worth");
  }
  const std::size_t start = w.pos();
  w.mark([&] { return name() + ".commands"; });
  std::vector<std::size_t> vaddr_at, iaddr_at;
  for (const psp::GeCommand& c : b.commands) {
    if (c.op() == psp::ge::kVaddr) vaddr_at.push_back(w.pos());
    if (c.op() == psp::ge::kIaddr) iaddr_at.push_back(w.pos());
    w.u32(c.word);
    if (c.op() == psp::ge::kRet) break;  // the plan guarantees one; anything after it is not part of the list
  }
  pad16(w, b.gap_after_list, [&] { return name() + ".gap_after_list"; });
  const std::size_t vertex = w.pos();
  w.mark([&] { return name() + ".vertices"; });
  w.bytes(b.vertices);
  std::size_t index = 0;
  if (index_size != 0) {
    pad16(w, b.gap_after_vertices, [&] { return name() + ".gap_after_vertices"; });
    index = w.pos();
    w.mark([&] { return name() + ".indices"; });
    w.bytes(b.indices);
  }
  const auto patch = [&](const std::vector<std::size_t>& at, std::uint8_t op, std::size_t target, const char* what) {
    const std::size_t rel = target - start;
    if (rel > 0xFFFFFF) w.fail(name() + "." + what, "the buffer is more than 16 MiB past its list");
    for (std::size_t a : at) w.patch_u32(a, psp::GeCommand::make(op, static_cast<std::uint32_t>(rel)).word);
  };
  patch(vaddr_at, psp::ge::kVaddr, vertex, "vaddr");
  if (index_size != 0) patch(iaddr_at, psp::ge::kIaddr, index, "iaddr");
  pad16(w, b.gap_after_block, [&] { return name() + ".gap_after_block"; });
  return {static_cast<std::uint32_t>(start - geometry), static_cast<std::uint32_t>(vertex - geometry),
          index_size != 0 ? static_cast<std::uint32_t>(index - geometry) : 0u};
}

void check_tables(const MhfuPmo& p, ByteWriter& w) {
  std::size_t groups = 0, remap = 0, palette = 0;
  for (const MhfuMesh& m : p.meshes) {
    groups = std::max<std::size_t>(groups, std::size_t{m.group_start} + m.group_count);
    remap = std::max<std::size_t>(remap, std::size_t{m.material_start} + m.material_count);
  }
  for (const MhfuGroup& g : p.groups) palette = std::max<std::size_t>(palette, std::size_t{g.bone_start} + g.bone_count);
  if (groups != p.groups.size()) {
    w.fail("groups", "the meshes reach " + std::to_string(groups) + " groups but the table holds " + std::to_string(p.groups.size()));
  }
  if (remap != p.remap.size()) {
    w.fail("remap", "the meshes reach " + std::to_string(remap) + " remap entries but the table holds " + std::to_string(p.remap.size()));
  }
  if (palette != p.bone_palette.size()) {
    w.fail("bone_palette", "the groups reach " + std::to_string(palette) + " palette entries but the table holds " +
                               std::to_string(p.bone_palette.size()));
  }
  if (p.meshes.size() > 0xFFFF || p.materials.size() > 0xFFFF) w.fail("header", "more than 65535 meshes or materials");
  std::vector<bool> used(p.blocks.size(), false);
  for (std::size_t i = 0; i < p.groups.size(); ++i) {
    if (p.groups[i].block >= p.blocks.size()) w.fail("group[" + std::to_string(i) + "].block", "refers to a block that does not exist");
    used[p.groups[i].block] = true;
  }
  for (std::size_t i = 0; i < used.size(); ++i) {
    if (!used[i]) w.fail("block[" + std::to_string(i) + "]", "no group draws this block");
  }
  for (std::size_t i = 0; i < p.bone_palette.size(); ++i) {
    if (p.bone_palette[i].slot >= 8) w.fail("bone_palette[" + std::to_string(i) + "].slot", "is past the GE's 8 bone matrices");
  }
}

}  // namespace

Result<Bytes> write_mhfu_pmo_file(const MhfuPmoFile& f, WriteReport* report) {
  return guarded_write([&] {
    const MhfuPmo& p = f.pmo;
    std::size_t reserve = 0x100 + f.tail.size() + p.groups.size() * 16 + p.materials.size() * 16;
    for (const MhfuBlock& b : p.blocks) reserve += b.commands.size() * 4 + b.vertices.size() + b.indices.size() + 48;
    ByteWriter w(Endian::little, reserve, report);
    check_tables(p, w);

    w.mark([] { return std::string("header"); });
    w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>("pmo\0"), 4));
    w.bytes(p.version);
    const std::size_t size_at = w.placeholder_u32();
    w.f32(p.clip_distance);
    for (float s : p.scale) w.f32(s);
    w.u16(static_cast<std::uint16_t>(p.meshes.size()));
    w.u16(static_cast<std::uint16_t>(p.materials.size()));
    std::array<std::size_t, 6> offset_at;
    for (std::size_t& a : offset_at) a = w.placeholder_u32();
    w.bytes(p.unknown_0x38);
    pad16(w, p.gap_after_header, named("gap_after_header"));

    w.patch_u32(offset_at[0], static_cast<std::uint32_t>(w.pos()));
    for (std::size_t i = 0; i < p.meshes.size(); ++i) {
      const MhfuMesh& m = p.meshes[i];
      w.mark([&] { return "mesh[" + std::to_string(i) + "]"; });
      for (float s : m.uv_scale) w.f32(s);
      w.u32(m.lighting_flags);
      w.u32(m.blend);
      w.u8(m.material_count);
      w.u8(m.unknown_0x11);
      w.u16(m.material_start);
      w.u16(m.group_count);
      w.u16(m.group_start);
    }
    pad16(w, p.gap_after_meshes, named("gap_after_meshes"));

    w.patch_u32(offset_at[1], static_cast<std::uint32_t>(w.pos()));
    std::vector<std::size_t> group_at(p.groups.size());
    for (std::size_t i = 0; i < p.groups.size(); ++i) {
      const MhfuGroup& g = p.groups[i];
      w.mark([&] { return "group[" + std::to_string(i) + "]"; });
      w.u8(g.material_offset);
      w.u8(g.bone_count);
      w.u16(g.bone_start);
      group_at[i] = w.pos();
      w.fill(12, 0);  // list, vertex and index offsets, patched once the blocks are placed
    }
    pad16(w, p.gap_after_groups, named("gap_after_groups"));

    w.patch_u32(offset_at[2], static_cast<std::uint32_t>(w.pos()));
    w.mark([] { return std::string("remap"); });
    w.bytes(p.remap);
    pad16(w, p.gap_after_remap, named("gap_after_remap"));

    w.patch_u32(offset_at[3], static_cast<std::uint32_t>(w.pos()));
    w.mark([] { return std::string("bone_palette"); });
    for (const MhfuPaletteEntry& e : p.bone_palette) {
      w.u8(e.slot);
      w.u8(e.bone);
    }
    pad16(w, p.gap_after_palette, named("gap_after_palette"));

    w.patch_u32(offset_at[4], static_cast<std::uint32_t>(w.pos()));
    for (std::size_t i = 0; i < p.materials.size(); ++i) {
      const MhfuMaterial& m = p.materials[i];
      w.mark([&] { return "material[" + std::to_string(i) + "]"; });
      w.u32(m.color);
      w.u32(m.shadow);
      w.u8(m.texture);
      w.bytes(m.unknown_0x09);
      w.u32(m.reserved);
    }
    pad16(w, p.gap_after_materials, named("gap_after_materials"));

    const std::size_t geometry = w.pos();
    w.patch_u32(offset_at[5], static_cast<std::uint32_t>(geometry));
    w.verbatim(p.gap_before_blocks, named("gap_before_blocks"));
    std::vector<BlockPlacement> placed;
    placed.reserve(p.blocks.size());
    for (std::size_t i = 0; i < p.blocks.size(); ++i) placed.push_back(write_block(w, p.blocks[i], geometry, i));
    for (std::size_t i = 0; i < p.groups.size(); ++i) {
      const BlockPlacement& b = placed[p.groups[i].block];
      w.patch_u32(group_at[i], b.list);
      w.patch_u32(group_at[i] + 4, b.vertex);
      w.patch_u32(group_at[i] + 8, b.index);
    }
    if (w.pos() > 0xFFFFFFFFu) w.fail("size", "the model is larger than 32-bit offsets can address");
    w.patch_u32(size_at, static_cast<std::uint32_t>(w.pos()));
    w.tail(f.tail);
    return w.take();
  });
}

}  // namespace remodel
