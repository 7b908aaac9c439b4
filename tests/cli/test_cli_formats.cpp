// `remodel formats`: every format of the two tables, with what remodel does with it, read back from the
// CLI and checked against the tables themselves (and against what `import --format` accepts).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>
#include <string>

#include "cli/cli.hpp"
#include "model/document.hpp"
#include "scene/family_table.hpp"

namespace remodel {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

Json formats_json() {
  const test::CliRun r = test::run_cli("formats --json", false);
  EXPECT_EQ(r.status, 0);
  return Json::parse(r.out, nullptr, false);
}

const Json* find(const Json& all, const std::string& name) {
  for (const Json& f : all) {
    if (f.at("name") == name) return &f;
  }
  return nullptr;
}

// A JSON magic back to its bytes: each code point (U+0000-U+00FF, one or two bytes of UTF-8) a byte.
std::string magic_bytes(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80 || i + 1 == text.size()) {
      out += static_cast<char>(c);
    } else {
      out += static_cast<char>(((c & 0x1F) << 6) | (static_cast<unsigned char>(text[++i]) & 0x3F));
    }
  }
  return out;
}

TEST(CliFormats, JsonListsEveryFormatWithItsOperations) {
  const Json all = formats_json();
  ASSERT_TRUE(all.is_array()) << all;
  EXPECT_EQ(all.size(), format_table().size());
  for (const FormatEntry& model : format_table()) {
    SCOPED_TRACE(model.name);
    const Json* f = find(all, model.name);
    ASSERT_NE(f, nullptr);
    const scene::FamilyEntry& family = scene::family_entry(model.format);
    EXPECT_EQ(f->at("read"), true);
    EXPECT_EQ(f->at("write"), true);
    EXPECT_EQ(f->at("textures"), model.textures != nullptr);
    EXPECT_EQ(f->at("lift"), family.lift != nullptr);
    EXPECT_EQ(f->at("lower"), family.lower != nullptr);
    EXPECT_EQ(f->at("author"), family.author != nullptr);
    EXPECT_EQ(f->at("holds_model"), family.holds_model());
    EXPECT_EQ(f->at("family"), family.family);
    ASSERT_EQ(f->at("extensions").size(), family.files.size());
    for (std::size_t i = 0; i < family.files.size(); ++i) {
      EXPECT_EQ(f->at("extensions")[i], family.files[i].extension);
      EXPECT_EQ(f->at("files")[i].at("name"), family.option(family.files[i]));
    }
    if (model.magic.empty()) {
      EXPECT_TRUE(f->at("magic").is_null());
    } else {
      EXPECT_EQ(magic_bytes(f->at("magic").get<std::string>()), model.magic);
    }
  }
  // A few facts a user knows, so the table itself is checked too.
  const Json* j3d = find(all, "j3d");
  ASSERT_NE(j3d, nullptr);
  EXPECT_EQ(j3d->at("author"), true);
  EXPECT_EQ(j3d->at("extensions"), Json::array({".bmd", ".bdl"}));
  const Json* tim2 = find(all, "tim2");
  ASSERT_NE(tim2, nullptr);
  EXPECT_EQ(tim2->at("lift"), false);
  EXPECT_EQ(tim2->at("textures"), true);
  EXPECT_EQ(tim2->at("magic"), "TIM2");
  const Json* bwm = find(all, "bwm");
  ASSERT_NE(bwm, nullptr);
  EXPECT_TRUE(bwm->at("magic").is_null());
  EXPECT_EQ(bwm->at("lower"), true);
}

TEST(CliFormats, MagicBytesAreEscapedInJsonAndText) {
  const test::CliRun json = test::run_cli("formats --json", false);
  EXPECT_NE(json.out.find("\"PMO\\u0000\""), std::string::npos) << json.out;
  const test::CliRun text = test::run_cli("formats", false);
  EXPECT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("\"PMO\\x00\""), std::string::npos) << text.out;
}

TEST(CliFormats, TextHasOneLinePerFormat) {
  const test::CliRun r = test::run_cli("formats", false);
  EXPECT_EQ(r.status, 0);
  std::istringstream lines(r.out);
  std::size_t n = 0;
  for (std::string line; std::getline(lines, line); ++n) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    bool known = false;
    for (const FormatEntry& model : format_table()) known = known || name == model.name;
    EXPECT_TRUE(known) << line;
  }
  EXPECT_EQ(n, format_table().size());
  EXPECT_EQ(test::run_cli("formats extra").status, 2);
}

// Every kind of file the table says a format is authored as is one `import --format` takes: the CLI's
// names come from the table, not a list of their own.
TEST(CliFormats, EveryAuthoredKindIsAnImportFormat) {
  const fs::path dir = test::cli_temp_dir("formats");
  const fs::path glb = dir / "grid.glb";
  ASSERT_EQ(test::run_cli("demo " + test::quoted(glb)).status, 0);
  for (const scene::FamilyEntry& family : scene::family_table()) {
    for (const scene::FileKind& kind : family.files) {
      const fs::path out = dir / (std::string(family.option(kind)) + kind.extension);
      const test::CliRun r = test::run_cli("import " + test::quoted(glb) + " --format " + family.option(kind) + " -o " + test::quoted(out));
      if (family.author != nullptr) {
        EXPECT_NE(r.status, 2) << family.option(kind) << ": " << r.out;
      } else {
        EXPECT_EQ(r.status, 2) << family.option(kind) << ": " << r.out;
        EXPECT_NE(r.out.find("is not one a glTF can be authored into"), std::string::npos) << r.out;
      }
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace remodel
