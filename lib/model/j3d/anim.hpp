// Nintendo J3D animations (J3D1 files: bck1 ANK1 joint keys, bca1 ANF1 joint frames, btp1 TPT1 texture
// patterns, bva1 VAF1 shape visibility, btk1 TTK1 texture matrices, brk1 TRK1 TEV colours, bpk1 PAK1
// material colours), as stored. Big-endian.
// Layout facts and the value-table rule: docs/j3d-animations.md.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/format.hpp"
#include "model/j3d/anim_anf1.hpp"
#include "model/j3d/anim_colour.hpp"
#include "model/j3d/anim_key.hpp"
#include "model/j3d/anim_tpt1.hpp"
#include "model/j3d/anim_ttk1.hpp"
#include "model/j3d/anim_vaf1.hpp"
#include "model/verbatim.hpp"

namespace remodel {

// ---- ANK1 (bck): keyed joint transforms ----
struct J3dAnk1 {
  std::uint8_t loop_mode = 0;    // 0 once, 1 once and reset, 2 repeat, 3 mirror once, 4 mirror repeat
  std::uint8_t angle_scale = 0;  // rotations are in units of 180 degrees * 2^angle_scale / 0x8000
  std::uint16_t duration = 0;
  std::vector<J3dJointAnim> joints;
  // When the table rule cannot place the runs as stored: the table as stored (verbatim), indices all stored.
  Verbatim stored_scales, stored_rotations, stored_translations;
  Verbatim gap_after_header, gap_after_joints, gap_after_scales, gap_after_rotations, gap_after_translations;
};

using J3dAnimSection = std::variant<J3dAnk1, J3dAnf1, J3dTpt1, J3dVaf1, J3dTtk1, J3dTrk1, J3dPak1>;

// Each section kind in the order of J3dAnimSection: the file type naming it and its section magic.
struct J3dAnimKind {
  const char* type;
  const char* magic;
};
inline constexpr J3dAnimKind kJ3dAnimKinds[] = {{"bck1", "ANK1"}, {"bca1", "ANF1"}, {"btp1", "TPT1"}, {"bva1", "VAF1"},
                                              {"btk1", "TTK1"}, {"brk1", "TRK1"}, {"bpk1", "PAK1"}};
static_assert(std::size(kJ3dAnimKinds) == std::variant_size_v<J3dAnimSection>, "one kind per section type");

struct J3dAnimFile {
  std::array<std::uint8_t, 4> type{'b', 'c', 'k', '1'};
  // "SVR1" + FF x 12, or FF x 16 (most samples)
  std::array<std::uint8_t, 16> header_0x10{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  // The size field where it is not the file's size (Nintendo's BCAs round it up to 32): verbatim.
  std::optional<std::uint32_t> stored_size;
  // Nintendo's BCAs stop where the section's closing filler would start (its last gap stored empty),
  // yet both sizes count the filler: the writer states the section's size rounded up to 32.
  bool closing_filler_cut = false;
  J3dAnimSection section;
  // Bytes after the section (Wind Waker BCKs: a block header_0x10's last u32 points at), verbatim.
  Verbatim tail;
};

// Whether the bytes start as a J3D animation of a kind this version reads (other J3D1 kinds stay
// unknown, so an archive keeps them as member bytes).
bool looks_like_j3d_anim(ByteSpan bytes);
Result<J3dAnimFile> read_j3d_anim(ByteSpan bytes);
Result<Bytes> write_j3d_anim(const J3dAnimFile& file, WriteReport* report = nullptr);

// The format's registration (format_table.cpp): its summary and its JSON.
void add_info(const J3dAnimFile& doc, DocumentInfo& info);
void add_json(const J3dAnimFile& doc, nlohmann::ordered_json& out);

}  // namespace remodel
