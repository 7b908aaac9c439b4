// Issue 31: every file the project writes stores what every real file stores. The envelope
// (tests/envelope.hpp) is learned from the samples; files authored from the shared glTFs, the demos
// and the fuzz seeds must hold it, or differ in a field listed below with the reason the difference
// is right.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "envelope.hpp"
#include "gltf_samples.hpp"
#include "model/json.hpp"
#include "model/kh_bbs/demo.hpp"
#include "model/mhfu/demo.hpp"
#include "samples.hpp"
#include "scene/demo.hpp"
#include "scene/lower.hpp"

namespace remodel::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

// Where a written file may differ from every real file, and why that is right.
struct Exception {
  const char* kind;
  const char* field;
  const char* why;
};
constexpr Exception kExceptions[] = {
    {"kh-bbs model tim2", ".pictures[].clut_type", "a TIM2 of more than 256 colours is direct colour: no CLUT, so no CLUT type (every real one is indexed)"},
    {"j3d TEX1", ".textures[].mag_filter", "a texture magnifies as its glTF sampler says: NEAREST is 0 (every real texture is linear)"},
    {"j3d JNT1", ".joints[].scale[1]", "a joint's scale is its glTF node's (real joints sampled are unscaled in Y and Z)"},
    {"j3d JNT1", ".joints[].scale[2]", "a joint's scale is its glTF node's"},
    {"mhfu-skeleton", ".bones[].scale[0]", "a bone's scale is its glTF joint's (both real skeletons are unscaled)"},
    {"mhfu-skeleton", ".bones[].scale[1]", "a bone's scale is its glTF joint's"},
    {"mhfu-skeleton", ".bones[].scale[2]", "a bone's scale is its glTF joint's"},
    {"mhfu-skeleton", ".bones[].rotation[1]", "a bone's turn is its glTF joint's (the two real skeletons turn no bone about Y)"},
    {"mhfu-skeleton", ".bones[].sibling", "a skeleton that branches links siblings (both real skeletons are one chain)"},
    {"mhfu-pmo", ".materials[].color", "a material's colour is its glTF base colour (both real models are white)"},
    {"mhfu-pmo", ".materials[].texture", "an untextured material names texture 0xFF (both real models are textured)"},
    {"tmh", ".images[].width", "an image's size is the glTF image's (both real TMHs hold 64x64 images)"},
    {"tmh", ".images[].height", "an image's size is the glTF image's"},
    {"tmh", ".images[].mode", "CLUT4 holds an image of at most 16 colours (both real TMHs are CLUT8)"},
    {"tmh", ".images[].clut.entry_count", "a CLUT4 image's palette has 16 entries (both real TMHs are CLUT8)"},
    {"tmh", ".images[].clut.mode", "a palette is RGBA8888 when a colour does not survive RGBA5551 (both real palettes do)"},
    {"kh-bbs-pam", ".entries[].animation", "an entry names its animation (the one real PAM, under two names, holds one)"},
};

const Exception* exception_for(const EnvelopeDifference& d) {
  for (const Exception& e : kExceptions) {
    if (d.kind == e.kind && d.field == e.field) return &e;
  }
  return nullptr;
}

// The real files: every sample of a family with real files that reads (j3d-anim's animations do not).
const Envelope& real_envelope() {
  static const Envelope envelope = [] {
    std::vector<ordered_json> real;
    for (const char* folder : {"kh-bbs", "mhfu", "j3d", "j3d-layouts", "j3d-anim"}) {
      for (const fs::path& path : sample_files(folder)) {
        const Bytes bytes = load_file(path);
        if (auto doc = read_document(bytes)) real.push_back(to_json(*doc));
      }
    }
    return Envelope(real);
  }();
  return envelope;
}

// `doc` written and read back (the envelope is of the bytes), checked against the envelope.
void expect_in_envelope(const std::string& what, const Document& doc) {
  Result<Bytes> bytes = write_document(doc);
  ASSERT_TRUE(bytes) << what << ": " << bytes.error().describe();
  Result<Document> read = read_document(*bytes);
  ASSERT_TRUE(read) << what << ": " << read.error().describe();
  for (const EnvelopeDifference& d : real_envelope().differences(to_json(*read))) {
    if (exception_for(d) == nullptr) {
      ADD_FAILURE() << what << ": " << d.kind << " " << d.field << " stores " << d.stored << " where every real file stores " << d.real;
    }
  }
}

#define REMODEL_ENVELOPE_OR_SKIP()                                                      \
  REMODEL_SAMPLES_OR_SKIP(kh_bbs_files, "kh-bbs");                                      \
  if (sample_files("mhfu").empty() || sample_files("j3d").empty()) GTEST_SKIP() << "MHFU or J3D samples absent"

TEST(Envelope, LearnsWhatEveryRealFileStores) {
  REMODEL_ENVELOPE_OR_SKIP();
  const Envelope& e = real_envelope();
  std::size_t total = 0;
  for (const auto& [kind, fields] : e.fields()) {
    std::cout << "  " << kind << ": " << fields.size() << " fields learned from " << e.distinct_records(kind) << " distinct real records\n";
    total += fields.size();
  }
  std::cout << "  " << total << " fields in all\n";
  // The findings are among them: MHFU bones' rotation w is 1, the KH BBS models' TIM2s store
  // GsTex1 0x260, J3D's unused indirect scales are 0x0000FFFF.
  EXPECT_EQ(e.fields().at("mhfu-skeleton").at(".bones[].rotation[3]"), "1.0");
  EXPECT_EQ(e.fields().at("kh-bbs model tim2").at(".pictures[].gs_tex1"), "608");
  for (const char* scale : {".indirect[].scales[0]", ".indirect[].scales[3]"}) EXPECT_EQ(e.fields().at("j3d MAT3").at(scale), "\"0000ffff\"");
}

TEST(Envelope, ExceptionsAreDifferencesFromLearnedFields) {
  REMODEL_ENVELOPE_OR_SKIP();
  for (const Exception& x : kExceptions) {
    auto kind = real_envelope().fields().find(x.kind);
    EXPECT_TRUE(kind != real_envelope().fields().end() && kind->second.contains(x.field)) << x.kind << " " << x.field << ": not learned, so no exception is needed";
  }
}

TEST(Envelope, DemosStoreIt) {
  REMODEL_ENVELOPE_OR_SKIP();
  expect_in_envelope("demo PMO", build_demo_pmo());
  expect_in_envelope("demo PAM", build_demo_pam());
  expect_in_envelope("demo PAC", build_demo_mhfu_pac());
}

TEST(Envelope, FuzzSeedsStoreIt) {
  REMODEL_ENVELOPE_OR_SKIP();
  std::size_t seeds = 0;
  for (const auto& entry : fs::recursive_directory_iterator(REMODEL_CORPUS)) {
    if (!entry.is_regular_file()) continue;
    const Bytes bytes = load_file(entry.path());
    if (auto doc = read_document(bytes)) {
      expect_in_envelope(entry.path().lexically_relative(REMODEL_CORPUS).string(), *doc);
      ++seeds;
    }
  }
  EXPECT_GE(seeds, 20u);
}

// One format a new file is authored in, as `remodel import X.glb -o out.<ext>` authors it.
struct Authored {
  const char* name;
  Format format;
  bool bdl = false;
  bool on_own_pmo = false;  // a PAM: on the BON of the PMO authored from the same glTF (--skeleton)
};
const Authored kAuthored[] = {
    {"kh_bbs_pmo", Format::kh_bbs_pmo}, {"kh_bbs_pam", Format::kh_bbs_pam, false, true}, {"mhfu_pac", Format::mhfu_pac},
    {"mhfu_pmo", Format::mhfu_pmo},     {"j3d_bmd", Format::j3d},                        {"j3d_bdl", Format::j3d, true},
};

class EnvelopeAuthored : public ::testing::TestWithParam<Authored> {};

TEST_P(EnvelopeAuthored, FilesAuthoredFromTheSharedGltfsStoreIt) {
  REMODEL_ENVELOPE_OR_SKIP();
  REMODEL_SAMPLES_OR_SKIP(gltf_files, "gltf");
  scene::LowerInputs inputs;
  inputs.j3d_bdl = GetParam().bdl;
  std::vector<std::pair<std::string, scene::Scene>> scenes;
  scenes.emplace_back("the demo glTF Scene", scene::demo_grid(16, 16));
  // The shared glTFs at the top of gltf/ (its folders hold variants of the same models).
  std::erase_if(gltf_files, [](const fs::path& f) { return f.parent_path() != samples_root() / "gltf"; });
  for (auto& [name, read] : readable_gltf_samples(gltf_files)) scenes.emplace_back(name, std::move(read.scene));
  std::size_t authored = 0;
  for (const auto& [name, s] : scenes) {
    std::optional<Document> pmo;
    if (GetParam().on_own_pmo) {
      Result<scene::Lowered> own = scene::author(s, Format::kh_bbs_pmo);
      if (!own) continue;
      pmo = std::move(own->document);
      inputs.skeleton = &*pmo;
    }
    Result<scene::Lowered> made = scene::author(s, GetParam().format, inputs);
    if (!made) continue;  // the format's limits; its authoring tests check every refusal
    expect_in_envelope(name + " as " + GetParam().name, made->document);
    ++authored;
  }
  // A PAM needs animations on a skin: the demo Scene and two shared glTFs author one.
  EXPECT_GE(authored, GetParam().on_own_pmo ? 3 : scenes.size() * 3 / 4) << "authoring refused more of the shared glTFs than it did";
}

INSTANTIATE_TEST_SUITE_P(Formats, EnvelopeAuthored, ::testing::ValuesIn(kAuthored), [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace remodel::test
