// J3D animation keys: a keyed component as the run of values it reads from a value table, and the
// rule Nintendo's converter lays those tables out by (docs/j3d-animations.md). Big-endian.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

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

// The nine tracks of an SRT record: scale, rotation, translation on x, y, z (a joint's in ANK1, a
// texture matrix's S, T, Q in TTK1).
struct J3dJointAnim {
  std::array<J3dFloatTrack, 3> scale;         // x, y, z
  std::array<J3dAngleTrack, 3> rotation;
  std::array<J3dFloatTrack, 3> translation;
};

}  // namespace remodel
