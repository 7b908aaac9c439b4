// Shared by the MHFU lowers over a base (mhfu_lower*.cpp): the group-level lower (a block's vertices
// re-encoded in place, or its group rebuilt) that the scene-level one runs per group.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/matrix_palette.hpp"
#include "model/mhfu/pmo.hpp"
#include "model/psp/vertex.hpp"
#include "scene/lower.hpp"
#include "scene/scene.hpp"

namespace remodel::scene::mhfu {

// ---- one group of a PMO over its base ----

// A group the lower adds after base group `after` for triangles whose weights leave that group's
// palette (lower_palette.cpp); its block goes after the PMO's blocks.
inline constexpr std::size_t kBaseMesh = ~std::size_t{0};

// Where groups the lower adds go and how the first of them starts.
struct Placing {
  std::size_t after = 0;             // the base group they follow in the group table
  std::uint8_t material_offset = 0;  // into their mesh's run of the remap table
  std::size_t mesh = kBaseMesh;      // a new mesh's record (pmo.meshes); kBaseMesh: group `after`'s mesh
  bool fresh = false;                // nothing is known to be loaded: the first loads every slot it weighs
  bool takes_over = false;           // the first takes group `after`'s place and block (it is removed)
};

struct AddedGroup {
  std::size_t after = 0;
  std::size_t mesh = kBaseMesh;
  MhfuGroup record;  // material and bone count; bone_start and block are set when it is placed
  std::vector<MhfuPaletteEntry> entries;
  MhfuBlock block;
  // The first group drawing a base group none of whose triangles still fit its palette: it takes that
  // group's block when no other group draws it (the base group is removed).
  bool takes_over = false;
};

// Places the added groups after their base groups (in order), their entries in the bone palette and
// their blocks after the PMO's, and takes the removed groups out (with the blocks only they drew);
// the meshes' group runs follow. A base group after them loads again the slots they changed that it
// relies on, so every kept group draws with its base palette. `palettes`: the base's running palette
// after each group (mhfu_group_palettes); `removed`: per base group; `removed_meshes`: per base mesh
// (records past it are new meshes), each leaving with its run of the remap table.
Result<void> place_groups(MhfuPmo& pmo, const std::vector<GeBonePalette>& palettes, std::vector<AddedGroup> added,
                                  const std::vector<bool>& removed, const std::vector<bool>& removed_meshes);

class GroupLowerer {
 public:
  // bones: incoming skin joint -> base bone.
  GroupLowerer(const std::vector<int>& bones, std::vector<Warning>& warnings) : bones_(bones), warnings_(warnings) {}

  // Re-encodes the vertices of one group's block that the incoming primitive moved; true when any did.
  // Triangles whose weights leave the group's palette go to new groups (added).
  Result<bool> lower_group(MhfuPmo& pmo, const MhfuMesh& mesh, std::size_t g, const GeBonePalette& palette, const Primitive& bp,
                           const Primitive& incoming, const std::string& where);

  // A primitive no base group stands for: new groups placed as `placing` says, in the VTYPE of group
  // `after`'s block (the last of its mesh kept), or for a new mesh the converter's. `palette`: the
  // running palette after group `after`.
  Result<void> add_primitive(const MhfuPmo& pmo, const MhfuMesh& mesh, const GeBonePalette& palette, const Primitive& ip,
                                     const Placing& placing, const std::string& where);

  std::vector<AddedGroup> added;  // for place_groups, in group order
  std::vector<std::size_t> replaced;  // base groups whose triangles all went to added groups: removed
  void clear() { added.clear(), replaced.clear(), tails_.clear(); }

 private:
  Result<void> check_incoming(const Primitive& ip, bool weighted, const std::string& where) const;
  Result<Bytes> encode_new_vertex(const MhfuPmo& pmo, const MhfuMesh& mesh, const GeBonePalette& palette, const Primitive& bp,
                                  const Primitive& ip, std::uint32_t i, const std::vector<psp::Vertex>& stored,
                                  const psp::VertexFormat& f, const MhfuBlock& block, const std::string& where);
  Result<void> rebuild_group(MhfuPmo& pmo, const MhfuMesh& mesh, std::size_t g, const GeBonePalette& palette, const Primitive& bp,
                                     const Primitive& ip, const std::vector<psp::Vertex>& stored, const MhfuDrawList& draw,
                                     const std::string& where);
  // The incoming triangles that weigh a bone outside the palette, as new groups in `added` (none: false);
  // `kept` is the primitive drawing the others.
  Result<bool> split_off(const MhfuPmo& pmo, const MhfuMesh& mesh, std::size_t g, const GeBonePalette& palette, const Primitive& ip,
                         const psp::VertexFormat& f, const std::string& where, Primitive& kept);
  // `like`: the VTYPE to follow (weights aside); nullptr: the converter's.
  Result<void> add_groups(const MhfuPmo& pmo, const MhfuMesh& mesh, const GeBonePalette& palette, const Primitive& ip,
                                  std::vector<std::uint32_t> triangles, const psp::VertexFormat* like, const Placing& placing,
                                  const std::string& where, const std::string& note);
  Result<std::array<float, 8>> slot_weights(const Primitive& p, std::size_t v, const GeBonePalette& palette,
                                            const psp::VertexFormat& f, const std::string& where, bool incoming);

  const std::vector<int>& bones_;
  std::vector<Warning>& warnings_;
  std::size_t limited_ = 0;  // vertices of the current group whose weights were cut to the VTYPE's
  std::map<std::size_t, std::array<int, 8>> tails_;  // base group -> the running palette after the groups added after it
};

}  // namespace remodel::scene::mhfu
