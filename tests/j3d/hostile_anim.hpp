// J3D animations whose every track reads one long run of its value table (issue 32), written from
// docs/j3d-animations.md: a few KB of records ask a reader that copies each track's run for values far
// past 16 x the file's size. fuzz/regressions/j3d_anim/ keeps the two the tests build.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>

#include "j3d/big_endian.hpp"

namespace remodel::test {

// A table of `count` values of `size` bytes (value k is k), then the filler to 32.
inline void shared_run_table(Bytes& f, std::size_t count, std::size_t size) {
  for (std::size_t k = 0; k < count; ++k) size == 4 ? be32(f, static_cast<std::uint32_t>(k)) : be16(f, static_cast<std::uint16_t>(k));
  pad_j3d(f, 0x20);
}

// The header's table offsets after `records` bytes of records at 0x40, each table `count` values long.
inline void shared_run_offsets(Bytes& f, std::size_t records, std::size_t count) {
  auto up = [](std::size_t n) { return (n + 31) / 32 * 32; };
  const std::size_t scales = up(0x40 + records), rotations = up(scales + 4 * count), translations = up(rotations + 2 * count);
  for (std::size_t at : {std::size_t{0x40}, scales, rotations, translations}) be32(f, static_cast<std::uint32_t>(at));
}

// `records` copies of `record` after the header's filler, the scale, rotation and translation tables of
// `run` values, and the sizes patched.
inline Bytes shared_run_rest(Bytes f, std::size_t records, std::initializer_list<std::uint16_t> record, std::size_t run) {
  pad_j3d(f, 0x20);
  for (std::size_t r = 0; r < records; ++r) {
    for (std::uint16_t v : record) be16(f, v);
  }
  pad_j3d(f, 0x20);
  shared_run_table(f, run, 4);
  shared_run_table(f, run, 2);
  shared_run_table(f, run, 4);
  patch_j3d_anim_sizes(f);
  return f;
}

// A BCA of `joints` joints whose 9 x `joints` records all read frames 0..run-1 of tables of `run` values.
inline Bytes shared_run_bca(std::uint16_t joints, std::uint16_t run) {
  Bytes f;
  j3d_anim_header(f, "bca1", "ANF1");
  f.push_back(0);     // loop mode
  f.push_back(0xFF);  // unknown_0x09, as Nintendo's
  be16(f, run);       // duration
  be16(f, joints);
  for (int k = 0; k < 3; ++k) be16(f, run);  // scales, rotations, translations
  shared_run_offsets(f, std::size_t{joints} * 36, run);
  return shared_run_rest(std::move(f), std::size_t{joints} * 9, {run, 0}, run);  // (count, index)
}

// A BCK of `joints` joints whose 9 x `joints` tracks all read the same `keys` keys (tangent mode 0:
// time, value, tangent), tables of 3 x `keys` values.
inline Bytes shared_run_bck(std::uint16_t joints, std::uint16_t keys) {
  const std::size_t run = std::size_t{keys} * 3;
  Bytes f;
  j3d_anim_header(f, "bck1", "ANK1");
  f.push_back(0);  // loop mode
  f.push_back(0);  // angle scale
  be16(f, keys);   // duration
  be16(f, joints);
  for (int k = 0; k < 3; ++k) be16(f, static_cast<std::uint16_t>(run));
  shared_run_offsets(f, std::size_t{joints} * 54, run);
  return shared_run_rest(std::move(f), std::size_t{joints} * 9, {keys, 0, 0}, run);  // (count, index, tangent mode)
}

}  // namespace remodel::test
