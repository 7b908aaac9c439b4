// Edited weights that leave a group's GE palette (lower.hpp): the group keeps its palette and the
// triangles that still fit it; the others go to new groups after it, each loading the bones its
// triangles need, as the game's converter lays groups out (groups.hpp).
#include <algorithm>
#include <string>

#include "scene/match.hpp"
#include "scene/mhfu/groups.hpp"
#include "scene/mhfu/lower.hpp"

namespace remodel::scene::mhfu {

namespace {

void load(GeBonePalette& palette, const std::vector<MhfuPaletteEntry>& entries) {
  for (const MhfuPaletteEntry& e : entries) palette.load(e.slot, e.bone);
}

// The removed meshes' records go, with the entries of the remap table only their runs held (an entry
// a kept mesh's run also holds stays); the kept runs move down over them.
Result<void> remove_meshes(MhfuPmo& pmo, const std::vector<bool>& removed_meshes) {
  if (std::find(removed_meshes.begin(), removed_meshes.end(), true) == removed_meshes.end()) return {};
  const auto gone = [&](std::size_t m) { return m < removed_meshes.size() && removed_meshes[m]; };
  std::vector<std::uint8_t> held(pmo.remap.size(), 0);  // bit 0: a removed mesh's run holds it, bit 1: a kept one's
  for (std::size_t m = 0; m < pmo.meshes.size(); ++m) {
    const std::size_t start = pmo.meshes[m].material_start;
    for (std::size_t e = start; e < start + pmo.meshes[m].material_count && e < held.size(); ++e) held[e] |= gone(m) ? 1 : 2;
  }
  std::vector<std::size_t> dropped_before(held.size() + 1, 0);
  Bytes remap;
  for (std::size_t e = 0; e < held.size(); ++e) {
    dropped_before[e + 1] = dropped_before[e] + (held[e] == 1 ? 1 : 0);
    if (held[e] != 1) remap.push_back(pmo.remap[e]);
  }
  std::vector<MhfuMesh> meshes;
  for (std::size_t m = 0; m < pmo.meshes.size(); ++m) {
    if (gone(m)) continue;
    MhfuMesh mesh = pmo.meshes[m];
    mesh.material_start = static_cast<std::uint16_t>(mesh.material_start - dropped_before[std::min<std::size_t>(mesh.material_start, held.size())]);
    meshes.push_back(mesh);
  }
  if (meshes.empty()) return at("meshes", "every mesh of the PMO is removed: a PMO draws at least one", ErrorCode::unsupported);
  pmo.meshes = std::move(meshes);
  pmo.remap = std::move(remap);
  return {};
}

}  // namespace

// The triangles' vertices with their strongest 8 bones, as author.cpp prepares a part, in runs on
// at most 8 bones, each a new group after `after` loading its bones into the running palette there.
Result<void> GroupLowerer::add_groups(const MhfuPmo& pmo, const MhfuMesh& mesh, const GeBonePalette& palette, const Primitive& ip,
                                              std::vector<std::uint32_t> triangles, const psp::VertexFormat* like, const Placing& placing,
                                              const std::string& where, const std::string& note) {
  const std::size_t after = placing.after;
  Part part;
  part.prim = &ip;
  part.where = where;
  part.positions = ip.positions;
  part.normals = ip.normals;
  part.influences.assign(ip.vertex_count(), {});
  part.triangles = std::move(triangles);
  // The converter's meshes are lit: a primitive without normals gets smooth ones, as authoring gives it.
  if (part.normals.empty()) part.normals = smooth_normals(part.positions, part.triangles);
  for (Vec3& n : part.normals) n = normalize(n);
  std::vector<bool> seen(ip.vertex_count(), false);
  std::size_t cut = 0;
  float lost = 0;  // the most weight a cut vertex lost, of its total
  for (std::uint32_t v : part.triangles) {
    if (seen[v]) continue;
    seen[v] = true;
    bool lim = false;
    auto strongest = strongest_joints(ip, v, bones_.size(), kSlots, where, lim);
    if (!strongest) return strongest.error();
    if (lim) {
      auto all = strongest_joints(ip, v, bones_.size(), ip.influences, where, lim);
      if (!all) return all.error();
      float left = 0;
      for (std::size_t k = kSlots; k < all->size(); ++k) left += (*all)[k].first;
      lost = std::max(lost, left);
      ++cut;
    }
    PaletteInfluences& inf = part.influences[v];
    for (const auto& [w, j] : *strongest) {
      const int bone = bones_[static_cast<std::size_t>(j)];
      if (bone < 0 || bone > 0xFF) return at(where + ".joints", "vertex " + std::to_string(v) + " weighs joint " + std::to_string(j) + ", which names no bone a palette entry can hold", ErrorCode::unsupported);
      inf.joint[inf.count] = bone;
      inf.weight[inf.count++] = w;
    }
  }
  const std::size_t narrowed = narrow_triangles(part.influences, part.triangles);
  auto groups = group_triangles(part);
  if (!groups) return groups.error();

  // The running palette where the groups go: after `after`, or after the groups already added there.
  auto [tail, fresh] = tails_.try_emplace(after);
  std::array<int, kSlots>& current = tail->second;
  if (fresh) {
    for (std::size_t s = 0; s < kSlots; ++s) current[s] = palette[s] ? int{*palette[s]} : -1;
  }
  if (placing.fresh) current.fill(-1);
  Encoding enc;
  enc.scale = pmo.scale;
  enc.uv_scale = mesh.uv_scale;
  enc.like = like;
  for (Group& group : *groups) {
    AddedGroup a;
    a.after = after;
    a.mesh = placing.mesh;
    a.record.material_offset = placing.material_offset;
    a.entries = load_palette(current, group.bones, false);
    a.record.bone_count = static_cast<std::uint8_t>(a.entries.size());
    auto block = encode_block(part, group, enc, warnings_);
    if (!block) return block.error();
    a.block = std::move(*block);
    a.takes_over = placing.takes_over && &group == &groups->front();
    added.push_back(std::move(a));
  }
  std::string message = note + ": drawn by " + std::to_string(groups->size()) + " new groups after group " + std::to_string(after) + ", each loading the bones its triangles need";
  if (cut != 0) {
    message += "; " + std::to_string(cut) + " of their vertices weigh more than 8 bones (the GE's limit): the strongest 8 are kept and renormalised, losing up to " +
               std::to_string(lost) + " of a vertex's weight";
  }
  if (narrowed != 0) message += "; " + std::to_string(narrowed) + " triangles lean on more than 8 bones: the weakest leave their vertices";
  warnings_.push_back({where, message});
  return {};
}

Result<void> GroupLowerer::add_primitive(const MhfuPmo& pmo, const MhfuMesh& mesh, const GeBonePalette& palette, const Primitive& ip,
                                                 const Placing& placing, const std::string& where) {
  if (bones_.empty()) return at(where, "the base's groups weigh no skin joints here (a bare PMO needs its skeleton): a group cannot be added", ErrorCode::unsupported);
  if (ip.influences == 0) return at(where + ".joints", "the primitive weighs no joint: a new MHFU group draws its vertices on bones", ErrorCode::unsupported);
  if (ip.topology != Topology::triangles && ip.topology != Topology::triangle_strip && ip.topology != Topology::triangle_fan) {
    return at(where + ".mode", "points and lines cannot be drawn by an MHFU PMO (triangles only)", ErrorCode::unsupported);
  }
  if (auto e = check_incoming(ip, true, where); !e) return e.error();
  const std::vector<std::uint32_t> triangles = drawn_triangles(ip);
  if (triangles.empty()) return at(where, "the primitive draws no triangle: it adds no group", ErrorCode::unsupported);
  std::optional<psp::VertexFormat> like;  // a new mesh's groups take the converter's format
  if (placing.mesh == kBaseMesh) {
    Result<MhfuDrawList> draw = decode_mhfu_block(pmo.blocks[pmo.groups[placing.after].block]);
    if (!draw) return draw.error();
    like = draw->format;
  }
  return add_groups(pmo, mesh, palette, ip, triangles, like ? &*like : nullptr, placing, where,
                    "a primitive no base group stands for (" + std::to_string(triangles.size() / 3) + " triangles)");
}

Result<bool> GroupLowerer::split_off(const MhfuPmo& pmo, const MhfuMesh& mesh, std::size_t g, const GeBonePalette& palette, const Primitive& ip,
                                     const psp::VertexFormat& f, const std::string& where, Primitive& kept) {
  const std::vector<std::uint32_t> triangles = drawn_triangles(ip);
  // A vertex fits when its strongest bones (as many as the VTYPE stores) sit in the slots it weighs.
  const std::size_t limited = limited_;
  std::vector<std::int8_t> fits(ip.vertex_count(), -1);
  std::vector<std::uint32_t> fitting, leaving;
  for (std::size_t t = 0; t < triangles.size(); t += 3) {
    bool all = true;
    for (std::size_t k = 0; k < 3; ++k) {
      std::int8_t& fv = fits[triangles[t + k]];
      if (fv < 0) fv = slot_weights(ip, triangles[t + k], palette, f, where, true).ok() ? 1 : 0;
      all = all && fv == 1;
    }
    std::vector<std::uint32_t>& to = all ? fitting : leaving;
    to.insert(to.end(), triangles.begin() + static_cast<std::ptrdiff_t>(t), triangles.begin() + static_cast<std::ptrdiff_t>(t + 3));
  }
  limited_ = limited;
  if (leaving.empty()) return false;
  // No triangle fits: the group would draw nothing, so the new groups take its place, block and material.
  const bool none_fit = fitting.empty();
  const std::string note = none_fit ? "every triangle of group " + std::to_string(g) + " weighs a bone outside its GE palette: the group is replaced"
                                    : std::to_string(leaving.size() / 3) + " triangles weigh bones outside group " + std::to_string(g) + "'s GE palette";
  Placing placing;
  placing.after = g;
  placing.material_offset = pmo.groups[g].material_offset;
  placing.fresh = placing.takes_over = none_fit;
  if (auto e = add_groups(pmo, mesh, palette, ip, leaving, &f, placing, where, note); !e) return e.error();
  if (none_fit) replaced.push_back(g);
  kept = ip;
  kept.topology = Topology::triangles;
  kept.indices = std::move(fitting);
  return true;
}

Result<void> place_groups(MhfuPmo& pmo, const std::vector<GeBonePalette>& palettes, std::vector<AddedGroup> added,
                                  const std::vector<bool>& removed, const std::vector<bool>& removed_meshes) {
  if (added.empty() && std::find(removed.begin(), removed.end(), true) == removed.end()) return {};
  // The entries are rebuilt group after group, as the converter lays them out; a base laid out
  // otherwise would change where nothing was edited.
  std::size_t next = 0;
  for (std::size_t g = 0; g < pmo.groups.size(); ++g) {
    if (pmo.groups[g].bone_start != next) {
      return at("groups[" + std::to_string(g) + "].bone_start", "the base's palette entries are not stored group after group: groups cannot be added", ErrorCode::unsupported);
    }
    next += pmo.groups[g].bone_count;
  }
  if (next != pmo.bone_palette.size() || palettes.size() != pmo.groups.size()) {
    return at("bone_palette", "the base's palette holds entries no group loads: groups cannot be added", ErrorCode::unsupported);
  }
  std::vector<std::vector<AddedGroup>> after(pmo.groups.size());
  for (AddedGroup& a : added) after[a.after].push_back(std::move(a));
  // Each base group's mesh; an added group is its base group's.
  std::vector<std::size_t> mesh_of(pmo.groups.size(), pmo.meshes.size());
  for (std::size_t m = 0; m < pmo.meshes.size(); ++m) {
    const std::size_t start = pmo.meshes[m].group_start, count = pmo.meshes[m].group_count;
    if (start + count > pmo.groups.size()) return at("meshes[" + std::to_string(m) + "]", "the mesh's groups run past the group table", ErrorCode::unsupported);
    for (std::size_t g = start; g < start + count; ++g) mesh_of[g] = m;
  }
  std::vector<MhfuGroup> groups;
  std::vector<std::size_t> group_mesh;
  std::vector<MhfuPaletteEntry> entries;
  GeBonePalette running;
  for (std::size_t g = 0; g < pmo.groups.size(); ++g) {
    if (!removed[g]) {
      MhfuGroup record = pmo.groups[g];
      const auto first = pmo.bone_palette.begin() + record.bone_start;
      std::vector<MhfuPaletteEntry> own(first, first + record.bone_count);
      // Slots the groups added or removed before it changed and it does not load itself: loaded again as
      // it found them.
      if (g > 0 && running != palettes[g - 1]) {
        std::vector<MhfuPaletteEntry> again;
        for (std::size_t s = 0; s < GeBonePalette::kSlots; ++s) {
          const auto& was = palettes[g - 1][s];
          const bool loads = std::any_of(own.begin(), own.end(), [&](const MhfuPaletteEntry& e) { return e.slot == s; });
          if (was && running[s] != was && !loads) again.push_back({static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(*was)});
        }
        own.insert(own.begin(), again.begin(), again.end());
      }
      if (own.size() > 0xFF) return at("groups[" + std::to_string(g) + "].bone_count", "the group would load " + std::to_string(own.size()) + " palette entries (a byte counts them)", ErrorCode::unsupported);
      record.bone_start = static_cast<std::uint16_t>(entries.size());
      record.bone_count = static_cast<std::uint8_t>(own.size());
      entries.insert(entries.end(), own.begin(), own.end());
      load(running, own);
      groups.push_back(record);
      group_mesh.push_back(mesh_of[g]);
    }
    for (AddedGroup& a : after[g]) {
      MhfuGroup r = a.record;
      r.bone_start = static_cast<std::uint16_t>(entries.size());
      entries.insert(entries.end(), a.entries.begin(), a.entries.end());
      load(running, a.entries);
      const std::uint32_t own = pmo.groups[g].block;
      bool shared = false;  // another kept group draws the block: it stays, and the new one goes after the PMO's
      for (std::size_t o = 0; o < pmo.groups.size(); ++o) shared = shared || (o != g && !removed[o] && pmo.groups[o].block == own);
      if (a.takes_over && removed[g] && !shared) {
        r.block = own;
        pmo.blocks[own] = std::move(a.block);
      } else {
        r.block = static_cast<std::uint32_t>(pmo.blocks.size());
        pmo.blocks.push_back(std::move(a.block));
      }
      groups.push_back(r);
      group_mesh.push_back(a.mesh != kBaseMesh ? a.mesh : mesh_of[g]);
    }
    if (groups.size() > 0xFFFF || entries.size() > 0xFFFF) {
      return at("groups", "more than 65535 groups or bone palette entries: the PMO counts them in 16 bits", ErrorCode::unsupported);
    }
  }
  // Each mesh's run: where its groups now start, and how many.
  for (std::size_t m = 0; m < pmo.meshes.size(); ++m) {
    MhfuMesh& mesh = pmo.meshes[m];
    const auto first = std::find(group_mesh.begin(), group_mesh.end(), m);
    const auto count = static_cast<std::size_t>(std::count(group_mesh.begin(), group_mesh.end(), m));
    const bool gone = m < removed_meshes.size() && removed_meshes[m];
    if (count == 0 && !gone && (mesh.group_count > 0 || m >= removed_meshes.size())) {
      return at("meshes[" + std::to_string(m) + "]", "every group of the mesh is removed: a mesh is removed by leaving out the node that draws it", ErrorCode::unsupported);
    }
    if (count == 0) continue;
    mesh.group_start = static_cast<std::uint16_t>(first - group_mesh.begin());
    mesh.group_count = static_cast<std::uint16_t>(count);
  }
  // Blocks only removed groups drew go; the others keep their order.
  std::vector<bool> drawn(pmo.blocks.size(), false), dropped(pmo.blocks.size(), false);
  for (const MhfuGroup& r : groups) drawn[r.block] = true;
  for (std::size_t g = 0; g < removed.size(); ++g) {
    if (removed[g] && !drawn[pmo.groups[g].block]) dropped[pmo.groups[g].block] = true;
  }
  std::vector<std::uint32_t> index(pmo.blocks.size(), 0);
  std::vector<MhfuBlock> blocks;
  for (std::size_t b = 0; b < pmo.blocks.size(); ++b) {
    index[b] = static_cast<std::uint32_t>(blocks.size());
    if (!dropped[b]) blocks.push_back(std::move(pmo.blocks[b]));
  }
  for (MhfuGroup& r : groups) r.block = index[r.block];
  pmo.blocks = std::move(blocks);
  pmo.groups = std::move(groups);
  pmo.bone_palette = std::move(entries);
  return remove_meshes(pmo, removed_meshes);
}

}  // namespace remodel::scene::mhfu
