// The MHFU samples as the lower tests (test_lower_mhfu*.cpp) use them: each model with the inputs it
// lifts and lowers with, lowered and read back, and what diff_documents reports against its base.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/diff.hpp"
#include "model/document.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"

namespace remodel::test::mhfu {

using scene::Scene;

// A model with what it needs to lift and lower: a PAC alone, a bare PMO with its skeleton and bank.
struct Sample {
  std::filesystem::path path;
  Bytes bytes;
  Document doc;
  std::optional<Document> skeleton, bank;
  scene::LiftInputs lift_inputs() const {
    scene::LiftInputs in;
    if (skeleton) in.skeleton = &std::get<MhfuSkeletonFile>(*skeleton);
    if (bank) in.textures = &std::get<TmhFile>(*bank);
    return in;
  }
  scene::LowerInputs lower_inputs() const {
    scene::LowerInputs in;
    if (skeleton) in.skeleton = &*skeleton;
    return in;
  }
};

inline std::vector<Sample> models(const std::vector<std::filesystem::path>& files) {
  std::vector<Sample> out;
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    const bool pac = name.ends_with(".pac"), pmo = name.ends_with(".0.pmo");
    if (!pac && !pmo) continue;
    Sample s{path, load_file(path), load_document(path), {}, {}};
    if (pmo) {
      s.skeleton = load_document(mhfu_sibling(path, ".1.skel"));
      s.bank = load_document(mhfu_sibling(path, ".2.tmh"));
    }
    out.push_back(std::move(s));
  }
  return out;
}

inline std::vector<Sample> pacs(const std::vector<std::filesystem::path>& files) {
  std::vector<Sample> out;
  for (Sample& s : models(files)) {
    if (format_of(s.doc) == Format::mhfu_pac) out.push_back(std::move(s));
  }
  return out;
}

inline Scene lift_ok(const Sample& s) {
  Result<Scene> scene = scene::lift(s.doc, s.lift_inputs());
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().describe());
  return scene.ok() ? std::move(*scene) : Scene{};
}

// What the glTF export writes: each primitive's drawn triangles, degenerates dropped.
inline void as_exported(Scene& s) {
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) {
      p.indices = scene::drawn_triangles(p);
      p.topology = scene::Topology::triangles;
    }
  }
}

// The warning every lower over a bare PMO gives for the glTF's images, which its TMH holds.
inline bool is_bare_pmo_image_warning(const Warning& w) { return w.message.find("a bare PMO holds no pictures") != std::string::npos; }

// Lowers and writes; `warnings` gets what the lower said but the bare PMO's images warning, which
// LowerMhfu.ABarePmosEditedTextureIsNamedAsNotStored checks.
inline Result<Bytes> lower_write(const Scene& s, const Sample& sample, std::vector<Warning>* warnings = nullptr) {
  Result<scene::Lowered> low = scene::lower(s, sample.doc, sample.lower_inputs());
  if (!low) return low.error();
  if (warnings) {
    *warnings = low->warnings;
    std::erase_if(*warnings, is_bare_pmo_image_warning);
  }
  return write_document(low->document);
}

// Lowers `s` over the sample and returns the written bytes, the re-read Document (which must write
// the same bytes again) and the fields diff_documents reports against the base.
struct Edited {
  Bytes bytes;
  Document doc;
  std::vector<FieldDifference> fields;
};
inline Edited lower_diff(const Scene& s, const Sample& sample, std::vector<Warning>* warnings = nullptr) {
  Edited out;
  Result<Bytes> bytes = lower_write(s, sample, warnings);
  EXPECT_TRUE(bytes.ok()) << bytes.error().describe();
  if (!bytes.ok()) return out;
  Result<Document> back = read_document(*bytes);
  EXPECT_TRUE(back.ok());
  if (!back.ok()) return out;
  Result<Bytes> again = write_document(*back);
  EXPECT_TRUE(again.ok() && *again == *bytes) << "the output does not round-trip";
  out.bytes = std::move(*bytes);
  out.doc = std::move(*back);
  diff_documents(sample.doc, out.doc, out.fields);
  return out;
}

// The blocks a PMO's groups draw, in group order: what every kept group must still draw.
inline std::vector<const MhfuBlock*> drawn_blocks(const MhfuPmo& pmo) {
  std::vector<const MhfuBlock*> out;
  for (const MhfuGroup& g : pmo.groups) out.push_back(&pmo.blocks[g.block]);
  return out;
}
inline bool same_block(const MhfuBlock& a, const MhfuBlock& b) {
  const auto words = [](const MhfuBlock& k) {
    std::vector<std::uint32_t> out;
    for (const psp::GeCommand& c : k.commands) out.push_back(c.word);
    return out;
  };
  return words(a) == words(b) && a.vertices == b.vertices && a.indices == b.indices;
}
inline const MhfuPmo& pac_pmo(const Document& d) { return std::get<MhfuPmoFile>(std::get<Pac>(d).entries[0].content).pmo; }

}  // namespace remodel::test::mhfu
