// Nintendo J3D animations (J3D1 files: bck1 ANK1 joint keys, bca1 ANF1 joint frames, btp1 TPT1 texture
// patterns, bva1 VAF1 shape visibility, ...), as stored. Big-endian.
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
#include "model/j3d/anim_tpt1.hpp"
#include "model/j3d/anim_vaf1.hpp"
#include "model/verbatim.hpp"

namespace remodel {

// One animated component: its keys as the run of values it reads from a value table. One key is the
// value alone; more are (time, value, tangent) with tangent mode 0 ("In", the in tangent is the out
// tangent) or (time, value, in, out) with mode 1.
template <typename T>
struct J3dAnimTrack {
  std::uint16_t count = 1;
  std::uint16_t tangent_mode = 0;
  std::vector<T> values;
  // The index the file stores where it is not the one the table rule gives (verbatim).
  std::optional<std::uint16_t> stored_index;
};
using J3dFloatTrack = J3dAnimTrack<float>;
using J3dAngleTrack = J3dAnimTrack<std::int16_t>;  // 0x8000 = 180 degrees times 2^angle_scale

// Values a track reads: 1 for one key, else 3 or 4 per key by its tangent mode.
std::size_t j3d_track_length(std::uint16_t count, std::uint16_t tangent_mode);

// A value table as Nintendo's converter lays it out: each track's run, in track order, at the first
// place the table built so far holds it, else appended; a track's stored_index places it instead.
class J3dTableBuilder {
 public:
  // Where the rule puts `run` in the table built so far.
  std::size_t find(const std::vector<std::uint32_t>& run) const;
  // Puts `run` at `at` (the rule's place unless a stored index says otherwise) and returns `at`.
  std::size_t place(const std::vector<std::uint32_t>& run, std::size_t at);
  // The table; nullopt when stored places left a hole or disagreed where runs overlap.
  std::optional<std::vector<std::uint32_t>> finish() const;
  // The table's length so far: where a run the rule appends goes.
  std::size_t size() const { return table_.size(); }

 private:
  std::vector<std::uint64_t> table_;  // a value's bits, or kHole
  bool conflict_ = false;
};

// ---- ANK1 (bck): keyed joint transforms ----
struct J3dJointAnim {
  std::array<J3dFloatTrack, 3> scale;         // x, y, z
  std::array<J3dAngleTrack, 3> rotation;
  std::array<J3dFloatTrack, 3> translation;
};

struct J3dAnk1 {
  std::uint8_t loop_mode = 0;    // 0 once, 1 once and reset, 2 repeat, 3 mirror once, 4 mirror repeat
  std::uint8_t angle_scale = 0;  // rotations are in units of 180 degrees * 2^angle_scale / 0x8000
  std::uint16_t duration = 0;
  std::vector<J3dJointAnim> joints;
  // When the table rule cannot place the runs as stored: the table as stored (verbatim), indices all stored.
  Verbatim stored_scales, stored_rotations, stored_translations;
  Verbatim gap_after_header, gap_after_joints, gap_after_scales, gap_after_rotations, gap_after_translations;
};

using J3dAnimSection = std::variant<J3dAnk1, J3dAnf1, J3dTpt1, J3dVaf1>;

// Each section kind in the order of J3dAnimSection: the file type naming it and its section magic.
struct J3dAnimKind {
  const char* type;
  const char* magic;
};
inline constexpr J3dAnimKind kJ3dAnimKinds[] = {{"bck1", "ANK1"}, {"bca1", "ANF1"}, {"btp1", "TPT1"}, {"bva1", "VAF1"}};
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
