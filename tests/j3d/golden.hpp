// J3D files written by hand from j3d-bmd-bdl.md and notes-j3d.md, for the golden tests: big-endian
// helpers, the file header, INF1, VTX1 and TEX1 sections, and a read-write-compare helper.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "j3d/big_endian.hpp"
#include "model/j3d/j3d.hpp"

namespace remodel::j3d_golden {

using test::be16;
using test::be32;
using test::be32_at;
inline void text(Bytes& b, const char* s) {
  for (; *s != '\0'; ++s) b.push_back(static_cast<std::uint8_t>(*s));
}

inline void pad_section(Bytes& section) {  // filler to 32, then the section's size
  const char* filler = "This is padding data to alignment.";
  for (std::size_t i = 0; section.size() % 32 != 0; ++i) section.push_back(static_cast<std::uint8_t>(filler[i]));
  for (int k = 0; k < 4; ++k) section[4 + k] = static_cast<std::uint8_t>(section.size() >> (24 - 8 * k));
}

inline Bytes j3d_file_of(const std::vector<Bytes>& sections) {
  Bytes file;
  text(file, "J3D2bmd3");
  std::size_t size = 0x20;
  for (const Bytes& s : sections) size += s.size();
  be32(file, static_cast<std::uint32_t>(size));
  be32(file, static_cast<std::uint32_t>(sections.size()));
  text(file, "SVR3");
  file.insert(file.end(), 12, 0xFF);
  for (const Bytes& s : sections) file.insert(file.end(), s.begin(), s.end());
  return file;
}

// INF1: flags, 0xFFFF, packet count, vertex count, hierarchy offset 0x18, the nodes, filler to 32.
inline Bytes golden_inf1(const std::vector<std::pair<std::uint16_t, std::uint16_t>>& nodes, std::uint32_t packets, std::uint32_t vertices) {
  Bytes section;
  text(section, "INF1");
  be32(section, 0);  // size, patched below
  be16(section, 1);  // flags
  be16(section, 0xFFFF);
  be32(section, packets);
  be32(section, vertices);
  be32(section, 0x18);
  for (auto [type, index] : nodes) {
    be16(section, type);
    be16(section, index);
  }
  pad_section(section);
  return section;
}

// Joint 0 { material 0 { shape 0 } }, shape 1: 9 nodes + terminator = 0x28 bytes after the
// 0x18 header, so 0x40 with 0x18 bytes of "This is padding data to" filler... up to 0x60. With no
// SHP1 or VTX1, the counts that agree with the sections are 0.
inline Bytes golden_inf1_file(const std::vector<std::pair<std::uint16_t, std::uint16_t>>& nodes, std::uint32_t packets = 0,
                       std::uint32_t vertices = 0) {
  return j3d_file_of({golden_inf1(nodes, packets, vertices)});
}

// VTX1: format list at 0x40 (POS XYZ s16, no fraction; the terminator), positions at 0x60 (6 bytes
// each), filler to 32.
inline Bytes golden_vtx1(std::size_t positions) {
  Bytes section;
  text(section, "VTX1");
  be32(section, 0);
  be32(section, 0x40);
  be32(section, 0x60);  // position array
  for (int k = 1; k < 13; ++k) be32(section, 0);
  for (std::uint32_t v : {9u, 1u, 3u}) be32(section, v);
  section.insert(section.end(), {0, 0xFF, 0xFF, 0xFF});
  for (std::uint32_t v : {0xFFu, 1u, 0u}) be32(section, v);
  section.insert(section.end(), {0, 0xFF, 0xFF, 0xFF});
  for (std::size_t p = 0; p < positions; ++p) {
    for (int c = 0; c < 3; ++c) be16(section, static_cast<std::uint16_t>(p * 3 + static_cast<std::size_t>(c)));
  }
  pad_section(section);
  return section;
}

// TEX1 with one 8x4 I8 texture (32 bytes of image, no palette) named "a", its BTI header's byte 0x19
// set to `unknown_0x19`: header, filler to 0x20, the BTI header, the image at 0x40, names at 0x60.
inline Bytes golden_tex1(std::uint8_t unknown_0x19) {
  Bytes section;
  text(section, "TEX1");
  be32(section, 0);  // size, patched by pad_section
  be16(section, 1);
  be16(section, 0xFFFF);
  be32(section, 0x20);  // headers
  be32(section, 0x60);  // names
  text(section, "This is padd");  // the filler to 0x20
  section.insert(section.end(), {1, 0});  // I8, alpha
  be16(section, 8);
  be16(section, 4);
  section.insert(section.end(), {0, 0, 0, 0});  // wrap s, t, palette enable, palette format
  be16(section, 0);  // palette count
  be32(section, 0);  // palette offset: the header itself, no palette
  section.insert(section.end(), {0, 0, 0, 0, 0, 0, 0, 0, 1, unknown_0x19});  // ... max LOD, mip count, 0x19
  be16(section, 0);     // LOD bias
  be32(section, 0x20);  // image, from the header
  for (std::uint8_t i = 0; i < 32; ++i) section.push_back(i);
  be16(section, 1);
  be16(section, 0xFFFF);
  be16(section, 97);  // hash of "a"
  be16(section, 8);
  text(section, "a");
  section.push_back(0);
  pad_section(section);
  return section;
}

// Reads `b`, writes it back (expecting the same bytes) and gives what the write counted, runs named.
inline WriteReport rewritten_report(const Bytes& b) {
  WriteReport report;
  report.marks = true;
  auto r = read_j3d(b);
  EXPECT_TRUE(r.ok()) << r.error().describe();
  if (!r.ok()) return report;
  auto w = write_j3d(*r, &report);
  EXPECT_TRUE(w.ok()) << w.error().describe();
  if (w.ok()) {
    EXPECT_EQ(*w, b);
  }
  return report;
}

}  // namespace remodel::j3d_golden
