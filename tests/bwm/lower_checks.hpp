// The BWM lower tests' checks (test_lower.cpp, test_lower_meshes.cpp): lowering a Scene over a
// golden file, reading the output back, and what the diff library may name.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bwm_golden.hpp"
#include "model/diff.hpp"
#include "model/document.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene_compare.hpp"

namespace remodel::bwm_lower_test {

using scene::Scene;

inline Document read_ok(const Bytes& bytes) {
  Result<Document> doc = read_document(bytes);
  EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().describe());
  return doc.ok() ? std::move(*doc) : Document{};
}

inline Scene lift_ok(const Document& doc) {
  Result<Scene> s = scene::lift(doc);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().describe());
  return s.ok() ? std::move(*s) : Scene{};
}

inline Result<Bytes> lower_write(const Scene& s, const Document& base, std::vector<Warning>* warnings = nullptr) {
  Result<scene::Lowered> low = scene::lower(s, base);
  if (!low) return low.error();
  if (warnings) *warnings = low->warnings;
  return write_document(low->document);
}

inline std::vector<std::size_t> differing(const Bytes& a, const Bytes& b) {
  std::vector<std::size_t> out;
  EXPECT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) out.push_back(i);
  }
  return out;
}

// The output reads back, writes back to itself, and lifts.
inline Scene reread(const Bytes& out) {
  const Document back = read_ok(out);
  Result<Bytes> again = write_document(back);
  EXPECT_TRUE(again.ok() && *again == out);
  return lift_ok(back);
}

// An edit lowered with no warning: its bytes, which read back, write back to themselves and lift.
struct Output {
  Bytes bytes;
  Document written;
  Scene back;
};
inline std::optional<Output> lower_clean(const Scene& s, const Document& base) {
  std::vector<Warning> warnings;
  Result<Bytes> out = lower_write(s, base, &warnings);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().describe());
  if (!out) return std::nullopt;
  EXPECT_TRUE(warnings.empty());
  Scene back = reread(*out);
  return Output{*out, read_ok(*out), std::move(back)};
}

// Mesh `m` of `back` draws each primitive of `lifted`'s as before, but primitive `skip`.
inline void expect_drawn_as_before(const Scene& back, const Scene& lifted, std::size_t m, std::size_t skip = SIZE_MAX) {
  ASSERT_LT(m, back.meshes.size());
  ASSERT_GE(back.meshes[m].primitives.size(), lifted.meshes[m].primitives.size());
  for (std::size_t q = 0; q < lifted.meshes[m].primitives.size(); ++q) {
    if (q == skip) continue;
    EXPECT_EQ(test::primitive_surface(back.meshes[m].primitives[q]), test::primitive_surface(lifted.meshes[m].primitives[q])) << "mesh " << m << " primitive " << q;
  }
}

// The diff library reports the edit and nothing outside it: every changed field (under the document's
// "bwm") starts with one of `allowed`.
inline void expect_diff_within(const Document& before, const Document& after, const std::vector<std::string>& allowed) {
  std::vector<FieldDifference> fields;
  diff_documents(before, after, fields, 10000);
  EXPECT_FALSE(fields.empty());
  for (const FieldDifference& f : fields) {
    const bool ok = std::any_of(allowed.begin(), allowed.end(), [&](const std::string& a) { return f.field.rfind("bwm." + a, 0) == 0; });
    EXPECT_TRUE(ok) << f.field << " changed";
  }
}

// The fields an extent fills in the header ("") and in the named meshes ("meshes[0]." ...), with `more`.
inline std::vector<std::string> with_extents(std::vector<std::string> more, const std::vector<std::string>& owners) {
  for (const std::string& o : owners) {
    for (const char* f : {"box1", "box2", "center", "radius", "height", "volume"}) more.push_back(o + f);
  }
  return more;
}

// The v6 golden with its LOD-1 mesh drawing its own copy of the four vertices (4-7) through indices of
// its own (12-17) and faces after LOD 0's (4-5): a mesh that is not the last in the vertex array.
inline Document meshes_apart() {
  Bwm b = std::get<Bwm>(read_ok(golden::bwm_v6_model()));
  for (BwmStride& s : b.strides) {
    const Bytes first = s.vertices;
    s.vertices.insert(s.vertices.end(), first.begin(), first.end());
  }
  BwmMesh& lod1 = b.meshes[1];
  lod1.indices_offset = 12;
  lod1.vertex_offset = 4;
  for (BwmMaterialRef& r : lod1.material_refs) r.indices_offset += 12, r.vertex_offset = 4, r.faces_offset += 4;
  for (std::size_t k = 0; k < 6; ++k) b.indices.push_back(static_cast<std::uint16_t>(b.indices[k] + 4));
  Result<Bytes> bytes = write_document(Document{b});
  EXPECT_TRUE(bytes.ok());
  return read_ok(bytes.ok() ? *bytes : Bytes{});
}

}  // namespace remodel::bwm_lower_test
