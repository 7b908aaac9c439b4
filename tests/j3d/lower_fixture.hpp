// The J3D lower tests' fixture (test_lower.cpp, test_lower_blender.cpp): a sample read and
// lifted, a Scene lowered over it and read back, and the checks that an edit reached only what it touches.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/diff.hpp"
#include "model/document.hpp"
#include "model/j3d/j3d.hpp"
#include "model/j3d/decode.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/math.hpp"

namespace remodel::j3d_lower_test {

struct Base {
  Bytes bytes;
  Document doc;
  scene::Scene scene;
};

// One sample read and lifted; nullopt (with a skip or failure) when absent.
inline std::optional<Base> load(const std::string& name) {
  for (const auto& path : test::sample_files("j3d")) {
    if (path.filename() != name) continue;
    Base b{test::load_file(path), {}, {}};
    auto doc = read_document(b.bytes);
    if (!doc) {
      ADD_FAILURE() << name << ": " << doc.error().describe();
      return std::nullopt;
    }
    b.doc = std::move(*doc);
    auto s = scene::lift(b.doc);
    if (!s) {
      ADD_FAILURE() << name << ": " << s.error().describe();
      return std::nullopt;
    }
    b.scene = std::move(*s);
    return b;
  }
  return std::nullopt;
}

#define LOAD_OR_SKIP(var, name)                                                                         \
  auto var##_loaded = load(name);                                                                       \
  if (!var##_loaded) {                                                                                  \
    if (test::samples_required()) FAIL() << "REMODEL_REQUIRE_SAMPLES=1 but " << name << " is missing"; \
    GTEST_SKIP() << name << " is not in the samples";                                                   \
  }                                                                                                     \
  Base& var = *var##_loaded

// The lowered file written, read back (it must round-trip byte-exactly itself) and lifted again.
struct Output {
  Bytes bytes;
  J3dFile file;
  scene::Scene scene;
  std::vector<Warning> warnings;
  bool inf1_counts_stored = false;  // whether the lowered Document (before writing) keeps an INF1 count
};

inline Output lower_and_reread(const scene::Scene& s, const Base& base) {
  Output o;
  auto lowered = scene::lower(s, base.doc);
  EXPECT_TRUE(lowered.ok()) << (lowered.ok() ? "" : lowered.error().describe());
  if (!lowered) return o;
  o.warnings = lowered->warnings;
  if (const auto* inf = j3d_section<J3dInf1>(std::get<J3dFile>(lowered->document))) {
    o.inf1_counts_stored = inf->stored_packet_count || inf->stored_vertex_count;
  }
  auto bytes = write_document(lowered->document);
  EXPECT_TRUE(bytes.ok()) << (bytes.ok() ? "" : bytes.error().describe());
  if (!bytes) return o;
  o.bytes = *bytes;
  auto doc = read_document(o.bytes);
  EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().describe());
  if (!doc) return o;
  auto again = write_document(*doc);
  EXPECT_TRUE(again.ok() && *again == o.bytes) << "the output does not round-trip through read/write";
  auto checked = j3d_check_indices(std::get<J3dFile>(*doc));
  EXPECT_TRUE(checked.ok()) << (checked.ok() ? "" : checked.error().describe());
  auto lifted = scene::lift(*doc);
  EXPECT_TRUE(lifted.ok()) << (lifted.ok() ? "" : lifted.error().describe());
  if (lifted) o.scene = std::move(*lifted);
  o.file = std::get<J3dFile>(*doc);
  return o;
}

template <typename T>
inline const T& section(const J3dFile& f) {
  for (const J3dSection& s : f.sections) {
    if (const auto* p = std::get_if<T>(&s)) return *p;
  }
  throw std::runtime_error("section missing");
}

// INF1's packet and vertex counts as written: SHP1's packets and VTX1's positions, though the lower
// set neither (the Document keeps no count); returns them.
inline std::pair<std::uint32_t, std::uint32_t> expect_inf1_counts_follow(const Output& o) {
  EXPECT_FALSE(o.inf1_counts_stored);
  std::size_t at = 0x20;  // sections follow the file header
  while (at + 0x14 <= o.bytes.size() && !std::equal(o.bytes.begin() + static_cast<std::ptrdiff_t>(at), o.bytes.begin() + static_cast<std::ptrdiff_t>(at + 4), "INF1")) {
    at += static_cast<std::size_t>(o.bytes[at + 4]) << 24 | o.bytes[at + 5] << 16 | o.bytes[at + 6] << 8 | o.bytes[at + 7];
  }
  if (at + 0x14 > o.bytes.size()) {
    ADD_FAILURE() << "no INF1 in the output";
    return {};
  }
  const auto be32 = [&](std::size_t k) { return static_cast<std::uint32_t>(o.bytes[k] << 24 | o.bytes[k + 1] << 16 | o.bytes[k + 2] << 8 | o.bytes[k + 3]); };
  const std::pair<std::uint32_t, std::uint32_t> counts{be32(at + 0x0C), be32(at + 0x10)};
  EXPECT_EQ(counts.first, section<J3dShp1>(o.file).packets.size());
  auto positions = j3d_decode_array(section<J3dVtx1>(o.file), 0);
  EXPECT_TRUE(positions.ok());
  if (positions) {
    EXPECT_EQ(counts.second, positions->count());
  }
  return counts;
}

// The sections other than those named, equal between two files.
inline void expect_other_sections_equal(const J3dFile& a, const J3dFile& b, const std::vector<std::string>& edited) {
  ASSERT_EQ(a.sections.size(), b.sections.size());
  for (std::size_t i = 0; i < a.sections.size(); ++i) {
    const std::string magic = j3d_section_magic(a.sections[i]);
    if (std::find(edited.begin(), edited.end(), magic) != edited.end()) continue;
    J3dFile x, y;
    x.sections = {a.sections[i]};
    y.sections = {b.sections[i]};
    x.type = y.type = a.type;
    x.padding = y.padding = a.padding;
    auto bx = write_j3d(x), by = write_j3d(y);
    ASSERT_TRUE(bx.ok() && by.ok());
    EXPECT_EQ(*bx, *by) << magic << " changed but the edit does not touch it";
  }
}

// The JSON path of a section in diff_documents' view.
inline std::string at(const J3dFile& f, const std::string& magic) {
  for (std::size_t i = 0; i < f.sections.size(); ++i) {
    if (j3d_section_magic(f.sections[i]) == magic) return "j3d.sections[" + std::to_string(i) + "]";
  }
  return "none";
}

// Every field diff_documents reports between base and output starts with one of `allowed`.
inline void expect_diff_only(const Document& base, const Bytes& out, const std::vector<std::string>& allowed) {
  auto doc = read_document(out);
  ASSERT_TRUE(doc.ok());
  std::vector<FieldDifference> diffs;
  const std::size_t n = diff_documents(base, *doc, diffs, 100000);
  int shown = 0;
  EXPECT_GT(n, 0u) << "the edit changed nothing";
  for (const FieldDifference& d : diffs) {
    const bool ok = std::any_of(allowed.begin(), allowed.end(), [&](const std::string& a) { return d.field.rfind(a, 0) == 0; });
    EXPECT_TRUE(ok) << d.field << " changed: " << d.a.dump().substr(0, 80) << " -> " << d.b.dump().substr(0, 80);
    if (!ok && ++shown > 12) break;
  }
}

inline float distance(scene::Vec3 a, scene::Vec3 b) { return scene::length(a - b); }

}  // namespace remodel::j3d_lower_test
