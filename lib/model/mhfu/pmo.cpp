#include "model/mhfu/pmo.hpp"

#include <algorithm>
#include <string>

namespace remodel {

std::size_t MhfuListPlan::index_count() const {
  std::size_t n = 0;
  for (const Prim& p : prims) n += p.count;
  return n;
}

namespace {

Error list_error(ErrorCode code, std::size_t i, const std::string& message) {
  return Error{code, 4 * i, "command[" + std::to_string(i) + "]", message};
}

}  // namespace

Result<MhfuListPlan> plan_mhfu_list(const std::vector<psp::GeCommand>& commands) {
  MhfuListPlan plan;
  std::optional<std::uint32_t> vtype;
  bool offset_seen = false;
  bool ret_seen = false;
  // No real file lacks it: the game resolves VADDR and IADDR from the ORIGIN that opens the list.
  if (commands.empty() || commands[0].op() != psp::ge::kOrigin) {
    return list_error(ErrorCode::unsupported, 0, "the list must start with ORIGIN (0x14), which its addresses are relative to");
  }
  for (std::size_t i = 0; i < commands.size() && !ret_seen; ++i) {
    const psp::GeCommand c = commands[i];
    // A block is one list over one vertex and one index buffer beside it: Capcom's converter, the
    // only writer of the files the game loads, sets each address once from ORIGIN and never uses OFFSET.
    const auto once = [&](std::optional<std::uint32_t>& slot, const char* name) -> Result<void> {
      if (offset_seen) return list_error(ErrorCode::unsupported, i, std::string(name) + " after OFFSET moves the origin, which is not supported");
      if (slot && *slot != c.arg()) return list_error(ErrorCode::unsupported, i, std::string("a second ") + name + " with a different address is not supported");
      slot = c.arg();
      return {};
    };
    switch (c.op()) {
      case psp::ge::kVaddr:
        if (auto e = once(plan.vaddr, "VADDR"); !e) return e.error();
        break;
      case psp::ge::kIaddr:
        if (auto e = once(plan.iaddr, "IADDR"); !e) return e.error();
        break;
      case psp::ge::kVtype: {
        // One vertex buffer has one format: a second VTYPE would read the same bytes two ways.
        if (vtype && *vtype != c.arg()) return list_error(ErrorCode::unsupported, i, "a second VTYPE with a different format is not supported");
        vtype = c.arg();
        Result<psp::VertexFormat> f = psp::VertexFormat::from_vtype(c.arg());
        if (!f) return list_error(f.error().code, i, "VTYPE: " + f.error().message);
        plan.format = *f;
        break;
      }
      case psp::ge::kBase:
        // No real file sets them: they reach 16 MiB past ORIGIN, and no MHFU model is near that size.
        if (c.arg() & 0x0F0000) return list_error(ErrorCode::unsupported, i, "BASE with address high bits is not supported");
        break;
      case psp::ge::kOffset:
        offset_seen = true;
        break;
      case psp::ge::kFface:
        plan.flip = (c.arg() & 1) != 0;
        break;
      case psp::ge::kPrim: {
        if (!vtype || !plan.vaddr) return list_error(ErrorCode::bad_value, i, "PRIM before the list set VTYPE and VADDR");
        if (offset_seen) return list_error(ErrorCode::unsupported, i, "PRIM after OFFSET moves the origin, which is not supported");
        const auto type = static_cast<std::uint8_t>((c.arg() >> 16) & 7);
        if (plan.format.index != psp::NumFormat::none && !plan.iaddr) {
          return list_error(ErrorCode::bad_value, i, "an indexed PRIM before the list set IADDR");
        }
        plan.prims.push_back({type, static_cast<std::uint16_t>(c.arg() & 0xFFFF)});
        break;
      }
      case psp::ge::kRet:
        ret_seen = true;
        break;
      default:
        break;  // other state commands are kept as they are
    }
  }
  if (!ret_seen) return list_error(ErrorCode::bad_value, commands.size(), "the command list has no RET");
  if (!plan.vaddr || !vtype) return list_error(ErrorCode::bad_value, 0, "the command list sets no VADDR or no VTYPE");
  if (plan.format.layout().size == 0) return list_error(ErrorCode::bad_value, 0, "VTYPE describes a vertex with no components");
  return plan;
}

namespace {

std::uint32_t index_at(const Bytes& b, std::size_t i, std::size_t size) {
  return size == 1 ? b[i] : static_cast<std::uint32_t>(b[2 * i] | b[2 * i + 1] << 8);
}

}  // namespace

Result<MhfuDrawList> decode_mhfu_block(const MhfuBlock& block) {
  Result<MhfuListPlan> plan = plan_mhfu_list(block.commands);
  if (!plan) return plan.error();
  MhfuDrawList d;
  d.format = plan->format;
  d.stride = d.format.layout().size;
  d.flip = plan->flip;
  const std::size_t index_size = plan->index_size();
  const bool indexed = index_size != 0;
  if (indexed && block.indices.size() != plan->index_count() * index_size) {
    return Error{ErrorCode::inconsistent, std::nullopt, "indices", "the PRIMs draw " + std::to_string(plan->index_count()) +
                                                            " indices but the buffer holds " +
                                                            std::to_string(block.indices.size() / index_size)};
  }
  std::size_t next = 0;  // next index, or next vertex when unindexed
  std::uint32_t largest = 0;
  for (const MhfuListPlan::Prim& p : plan->prims) {
    MhfuPrimitive prim{p.type, {}};
    prim.indices.reserve(p.count);
    for (std::size_t k = 0; k < p.count; ++k, ++next) {
      const std::uint32_t v = indexed ? index_at(block.indices, next, index_size) : static_cast<std::uint32_t>(next);
      largest = std::max(largest, v);
      prim.indices.push_back(v);
    }
    d.primitives.push_back(std::move(prim));
  }
  d.vertex_count = indexed ? (next == 0 ? 0 : largest + 1) : next;
  if (d.stride == 0 || block.vertices.size() != d.vertex_count * d.stride) {
    return Error{ErrorCode::inconsistent, std::nullopt, "vertices", "the indices need " + std::to_string(d.vertex_count) +
                                                             " vertices of " + std::to_string(d.stride) +
                                                             " bytes but the buffer holds " +
                                                             std::to_string(block.vertices.size()) + " bytes"};
  }
  return d;
}

std::vector<Triangle> mhfu_triangles(const MhfuDrawList& d) {
  std::vector<Triangle> out;
  for (const MhfuPrimitive& p : d.primitives) {
    if (const std::optional<Topology> t = psp::ge_topology(p.type)) append_triangles(*t, p.indices, out, d.flip);
  }
  return out;
}

Result<std::vector<GeBonePalette>> mhfu_group_palettes(const MhfuPmo& pmo) {
  std::vector<GeBonePalette> out;
  GeBonePalette palette;
  for (std::size_t g = 0; g < pmo.groups.size(); ++g) {
    const MhfuGroup& group = pmo.groups[g];
    if (std::size_t{group.bone_start} + group.bone_count > pmo.bone_palette.size()) {
      return Error{ErrorCode::bad_value, std::nullopt, "group[" + std::to_string(g) + "].bone_start",
                   "the group's palette entries run past the palette's " + std::to_string(pmo.bone_palette.size())};
    }
    for (std::size_t k = 0; k < group.bone_count; ++k) {
      const MhfuPaletteEntry& e = pmo.bone_palette[group.bone_start + k];
      if (e.slot >= GeBonePalette::kSlots) {
        return Error{ErrorCode::bad_value, std::nullopt, "bone_palette[" + std::to_string(group.bone_start + k) + "].slot",
                     "slot " + std::to_string(e.slot) + " is past the GE's 8 bone matrices"};
      }
      palette.load(e.slot, e.bone);
    }
    out.push_back(palette);
  }
  return out;
}

std::array<float, 3> mhfu_position(const MhfuPmo& pmo, const psp::VertexFormat& f, const psp::Vertex& v) {
  std::array<float, 3> out;
  for (std::size_t i = 0; i < 3; ++i) out[i] = psp::signed_value(f.position, v.position[i]) * pmo.scale[i];
  return out;
}

// Counts from the decoded command lists; a block that does not decode counts nothing. The textures
// are in the TMH beside the PMO: those its materials use are counted.
void add_info(const MhfuPmoFile& f, DocumentInfo& info) {
  const MhfuPmo& p = f.pmo;
  info.models += 1;
  info.sections += p.groups.size();
  info.materials += p.materials.size();
  for (const MhfuBlock& b : p.blocks) {
    Result<MhfuDrawList> d = decode_mhfu_block(b);
    if (!d) continue;
    info.vertices += d->vertex_count;
    info.triangles += mhfu_triangles(*d).size();
  }
  std::vector<bool> seen(256, false);
  for (const MhfuMaterial& m : p.materials) {
    if (m.texture != 0xFF && !seen[m.texture]) ++info.textures;
    if (m.texture != 0xFF) seen[m.texture] = true;
  }
}

}  // namespace remodel
