// Reads MHFU PMO 1.0 (layout: ../shared/formats/notes-mhfu.md): tables padded to 16, then per block
// a GE command list, its vertex buffer and its index buffer, each at a 16-byte boundary.
#include <algorithm>
#include <string>

#include "model/mhfu/pmo.hpp"
#include "reader/cursor.hpp"

namespace remodel {

namespace {

constexpr std::size_t kHeaderSize = 0x40;
constexpr std::size_t kMeshSize = 0x18;
constexpr std::size_t kGroupSize = 0x10;
constexpr std::size_t kMaterialSize = 0x10;

struct StoredGroupOffsets {
  std::uint32_t list = 0, vertex = 0, index = 0;
};

std::size_t max_end(std::size_t a, std::size_t start, std::size_t count) { return std::max(a, start + count); }

MhfuBlock read_block(Cursor& c, std::size_t start, std::size_t end, MhfuListPlan& plan) {
  MhfuBlock b;
  for (;;) {  // every turn consumes 4 bytes, so a list without RET ends at the end of the file
    const psp::GeCommand cmd{c.u32("command")};
    b.commands.push_back(cmd);
    if (cmd.op() == psp::ge::kRet) break;
  }
  Result<MhfuListPlan> planned = plan_mhfu_list(b.commands);
  if (!planned) {
    const Error& e = planned.error();
    c.fail_at(e.code, start + e.offset.value_or(0), e.field.c_str(), e.message);
  }
  plan = std::move(*planned);
  const std::size_t stride = plan.format.layout().size;
  const std::size_t vertex_at = start + *plan.vaddr;
  b.gap_after_list = c.gap(vertex_at, 16, 0, 0, "vaddr");
  const std::size_t index_size = plan.index_size();
  const std::size_t index_count = plan.index_count();
  std::size_t vertex_count = index_count;
  std::size_t index_at = 0;
  if (index_size != 0) {
    index_at = start + *plan.iaddr;
    // The vertex count is the largest index + 1, so the indices are read first.
    const std::size_t resume = c.pos();
    c.seek(index_at, "iaddr");
    c.check_count(index_count, index_size, "prim.count");
    std::uint32_t largest = 0;
    for (std::size_t i = 0; i < index_count; ++i) {
      largest = std::max<std::uint32_t>(largest, index_size == 1 ? c.u8("index") : c.u16("index"));
    }
    c.seek(resume, "vaddr");
    vertex_count = index_count == 0 ? 0 : std::size_t{largest} + 1;
    if (index_at < vertex_at || (index_at - vertex_at) / stride < vertex_count) {
      c.fail_at(ErrorCode::bad_value, index_at, "indices",
                "index " + std::to_string(largest) + " needs " + std::to_string(vertex_count) + " vertices of " +
                    std::to_string(stride) + " bytes, more than fit between VADDR and IADDR");
    }
  }
  c.check_count(vertex_count, stride, "vertices");
  b.vertices = c.bytes(vertex_count * stride, "vertices");
  if (index_size != 0) {
    b.gap_after_vertices = c.gap(index_at, 16, 0, 0, "iaddr");
    b.indices = c.bytes(index_count * index_size, "indices");
  }
  b.gap_after_block = c.gap(end, 16, 0, 0, "block_end");
  return b;
}

}  // namespace

Result<MhfuPmoFile> read_mhfu_pmo_file(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::little);
    MhfuPmoFile f;
    MhfuPmo& p = f.pmo;
    if (!c.has_magic(0, "pmo\0")) c.fail(ErrorCode::bad_magic, "magic", "does not start with \"pmo\\0\"");
    c.need(kHeaderSize, "header");
    c.skip(4, "magic");
    p.version = c.array<4>("version");
    const std::uint32_t size = c.u32("size");
    p.clip_distance = c.f32("clip_distance");
    for (float& s : p.scale) s = c.f32("scale");
    const std::uint16_t mesh_count = c.u16("mesh_count");
    const std::uint16_t material_count = c.u16("material_count");
    std::array<std::uint32_t, 6> offsets;
    static const char* const offset_names[6] = {"mesh_offset", "group_offset", "remap_offset",
                                                "palette_offset", "material_offset", "geometry_offset"};
    for (std::uint32_t& o : offsets) o = c.u32("offset");
    p.unknown_0x38 = c.array<8>("unknown_0x38");
    if (size > c.size()) c.fail_at(ErrorCode::bad_offset, 8, "size", "is past the end of the file");

    p.gap_after_header = c.gap(offsets[0], 16, 0, 0, offset_names[0]);
    c.check_count(mesh_count, kMeshSize, "mesh_count");
    p.meshes.resize(mesh_count);
    std::size_t group_total = 0, remap_total = 0;
    for (std::size_t i = 0; i < mesh_count; ++i) {
      PathScope scope(c, "mesh", static_cast<std::int64_t>(i));
      MhfuMesh& m = p.meshes[i];
      for (float& s : m.uv_scale) s = c.f32("uv_scale");
      m.lighting_flags = c.u32("lighting_flags");
      m.blend = c.u32("blend");
      m.material_count = c.u8("material_count");
      m.unknown_0x11 = c.u8("unknown_0x11");
      m.material_start = c.u16("material_start");
      m.group_count = c.u16("group_count");
      m.group_start = c.u16("group_start");
      group_total = max_end(group_total, m.group_start, m.group_count);
      remap_total = max_end(remap_total, m.material_start, m.material_count);
    }

    p.gap_after_meshes = c.gap(offsets[1], 16, 0, 0, offset_names[1]);
    c.check_count(group_total, kGroupSize, "mesh.group_count");
    p.groups.resize(group_total);
    std::vector<StoredGroupOffsets> stored(group_total);
    std::size_t palette_total = 0;
    for (std::size_t i = 0; i < group_total; ++i) {
      PathScope scope(c, "group", static_cast<std::int64_t>(i));
      MhfuGroup& g = p.groups[i];
      g.material_offset = c.u8("material_offset");
      g.bone_count = c.u8("bone_count");
      g.bone_start = c.u16("bone_start");
      stored[i] = {c.u32("list_offset"), c.u32("vertex_offset"), c.u32("index_offset")};
      palette_total = max_end(palette_total, g.bone_start, g.bone_count);
    }

    p.gap_after_groups = c.gap(offsets[2], 16, 0, 0, offset_names[2]);
    p.remap = c.bytes(remap_total, "remap");
    p.gap_after_remap = c.gap(offsets[3], 16, 0, 0, offset_names[3]);
    c.check_count(palette_total, 2, "group.bone_count");
    p.bone_palette.resize(palette_total);
    for (std::size_t i = 0; i < palette_total; ++i) {
      PathScope scope(c, "bone_palette", static_cast<std::int64_t>(i));
      p.bone_palette[i].slot = c.u8("slot");
      p.bone_palette[i].bone = c.u8("bone");
      if (p.bone_palette[i].slot >= 8) {
        c.fail_at(ErrorCode::bad_value, c.pos() - 2, "slot",
                  "is " + std::to_string(p.bone_palette[i].slot) + ", past the GE's 8 bone matrices");
      }
    }

    p.gap_after_palette = c.gap(offsets[4], 16, 0, 0, offset_names[4]);
    c.check_count(material_count, kMaterialSize, "material_count");
    p.materials.resize(material_count);
    for (std::size_t i = 0; i < material_count; ++i) {
      PathScope scope(c, "material", static_cast<std::int64_t>(i));
      MhfuMaterial& m = p.materials[i];
      m.color = c.u32("color");
      m.shadow = c.u32("shadow");
      m.texture = c.u8("texture");
      m.unknown_0x09 = c.array<3>("unknown_0x09");
      m.reserved = c.u32("reserved");
    }
    p.gap_after_materials = c.gap(offsets[5], 16, 0, 0, offset_names[5]);

    // Blocks in list-offset order; groups that share a list share a block.
    const std::size_t geometry = offsets[5];
    std::vector<std::uint32_t> lists;
    for (const StoredGroupOffsets& s : stored) lists.push_back(s.list);
    std::sort(lists.begin(), lists.end());
    lists.erase(std::unique(lists.begin(), lists.end()), lists.end());
    const std::size_t first = lists.empty() ? size : geometry + std::size_t{lists.front()};
    p.gap_before_blocks = c.gap(first, 1, 0, 0, "group.list_offset");
    std::vector<MhfuListPlan> plans(lists.size());
    p.blocks.reserve(lists.size());
    for (std::size_t i = 0; i < lists.size(); ++i) {
      PathScope scope(c, "block", static_cast<std::int64_t>(i));
      const std::size_t start = geometry + std::size_t{lists[i]};
      const std::size_t end = i + 1 < lists.size() ? geometry + std::size_t{lists[i + 1]} : size;
      if (start % 16 != 0) c.fail_at(ErrorCode::bad_offset, start, "list_offset", "is not on a 16-byte boundary");
      p.blocks.push_back(read_block(c, start, end, plans[i]));
    }
    if (c.pos() != size) c.fail(ErrorCode::bad_offset, "size", "the geometry ends at " + std::to_string(c.pos()) + ", not at the declared size");

    for (std::size_t i = 0; i < group_total; ++i) {
      const auto at = std::lower_bound(lists.begin(), lists.end(), stored[i].list);
      const std::size_t block = static_cast<std::size_t>(at - lists.begin());
      p.groups[i].block = static_cast<std::uint32_t>(block);
      const MhfuListPlan& plan = plans[block];
      const std::uint32_t vertex = stored[i].list + *plan.vaddr;
      const std::uint32_t index = plan.index_size() != 0 ? stored[i].list + *plan.iaddr : 0;
      const std::size_t record = offsets[1] + i * kGroupSize;
      if (stored[i].vertex != vertex) {
        c.fail_at(ErrorCode::bad_offset, record + 8, "group.vertex_offset",
                  "disagrees with its command list's VADDR (" + std::to_string(vertex) + ")");
      }
      if (stored[i].index != index) {
        c.fail_at(ErrorCode::bad_offset, record + 12, "group.index_offset",
                  "disagrees with its command list's IADDR (" + std::to_string(index) + ")");
      }
    }
    f.tail = c.tail("tail");
    return f;
  });
}

}  // namespace remodel
