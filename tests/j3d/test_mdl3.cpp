// MDL3 generated from MAT3 (model/j3d/mdl3.hpp) against every real BDL's stored MDL3, command by
// command. Expectations come from the files: the generator sees only their MAT3 and TEX1.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <variant>

#include "model/document.hpp"
#include "model/j3d/j3d.hpp"
#include "model/j3d/decode.hpp"
#include "model/j3d/mdl3.hpp"
#include "model/textures.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

std::uint8_t bp_address(const J3dGxCommand& c) { return c.opcode == 0x61 && c.args.size() == 4 ? c.args[0] : 0; }
std::uint32_t bp_value(const J3dGxCommand& c) {
  return c.opcode == 0x61 && c.args.size() == 4 ? std::uint32_t{c.args[1]} << 16 | std::uint32_t{c.args[2]} << 8 | c.args[3] : 0;
}
std::uint16_t xf_address(const J3dGxCommand& c) {
  return c.opcode == 0x10 && c.args.size() >= 4 ? static_cast<std::uint16_t>(c.args[2] << 8 | c.args[3]) : 0;
}

std::string hex(const J3dGxCommand* c) {
  if (!c) return "none";
  std::string out;
  char b[4];
  std::snprintf(b, sizeof b, "%02X", c->opcode);
  out += b;
  for (std::uint8_t v : c->args) {
    std::snprintf(b, sizeof b, " %02X", v);
    out += b;
  }
  return out;
}

// What Nintendo's converter wrote from uninitialised data or run-time state (model/j3d/mdl3.hpp): per command of the
// real packet, true when its value (and for the stale odd stage's scale writes, its address) is not compared.
struct Documented {
  std::vector<bool> value, address;
};

Documented documented_fields(const J3dMdlPacket& real, const J3dMat3& mat, std::size_t material) {
  Documented d{std::vector<bool>(real.commands.size()), std::vector<bool>(real.commands.size())};
  const J3dMaterialEntry& e = mat.entries[mat.remap[material]];
  const std::size_t stages = mat.tev_stage_counts[e.tev_stage_count];
  for (std::size_t k = 0; k < real.commands.size(); ++k) {
    const J3dGxCommand& c = real.commands[k];
    const std::uint8_t a = bp_address(c);
    if (a == 0x64) d.value[k] = true;  // TLUT source address
    if (stages % 2 == 1 && a == 0x28 + stages / 2 && k + 6 < real.commands.size()) {
      d.value[k] = true;  // the stale odd stage: its TREF half and the scale writes for it
      d.value[k + 5] = d.value[k + 6] = d.address[k + 5] = d.address[k + 6] = true;
    }
    const std::uint16_t x = xf_address(c);
    if (c.opcode == 0x10 && x >= 0x78 && x < 0xF0 && (x - 0x78) % 12 == 0) {
      const std::size_t slot = (x - 0x78u) / 12;
      const std::uint16_t m = e.tex_matrices[slot];
      if (m != 0xFFFF && m < mat.tex_matrices.size() && (mat.tex_matrices[m].info & 0x3F) != 0) d.value[k] = true;
    }
  }
  return d;
}

// XF texture matrices may differ in the last bits of a float (the converter's trigonometry).
bool xf_close(const J3dGxCommand& a, const J3dGxCommand& b) {
  if (a.opcode != 0x10 || b.opcode != 0x10 || a.args.size() != b.args.size() || xf_address(a) >= 0x1000) return false;
  for (std::size_t k = 4; k + 4 <= a.args.size(); k += 4) {
    const auto f = [](const Bytes& v, std::size_t at) {
      return std::bit_cast<float>(std::uint32_t{v[at]} << 24 | std::uint32_t{v[at + 1]} << 16 | std::uint32_t{v[at + 2]} << 8 | v[at + 3]);
    };
    if (std::fabs(f(a.args, k) - f(b.args, k)) > 1e-6f * std::max(1.0f, std::fabs(f(b.args, k)))) return false;
  }
  return true;
}

TEST(J3dMdl3FromMat3, EveryRealBdlCommandByCommand) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  std::size_t bdls = 0;
  for (const auto& path : files) {
    if (path.extension() != ".bdl") continue;
    const Bytes bytes = test::load_file(path);
    auto file = read_j3d(bytes);
    ASSERT_TRUE(file.ok()) << path;
    const J3dMdl3* real = j3d_section<J3dMdl3>(*file);
    if (!real) continue;  // RiiStudio's resave drops MDL3
    ++bdls;
    const J3dMat3* mat = j3d_section<J3dMat3>(*file);
    const J3dTex1* tex = j3d_section<J3dTex1>(*file);
    ASSERT_TRUE(mat && tex) << path;
    const std::string name = path.filename().string();
    const auto flavour = name.rfind("ww_", 0) == 0 ? J3dMdlFlavour::wind_waker : J3dMdlFlavour::galaxy;
    auto made = j3d_mdl3_from_mat3(*mat, *tex, flavour);
    ASSERT_TRUE(made.ok()) << name << ": " << made.error().describe();
    ASSERT_EQ(made->packets.size(), real->packets.size()) << name;
    std::size_t packets_exact = 0, commands = 0, exact = 0, matching = 0, subpackets = 0;
    for (std::size_t i = 0; i < real->packets.size(); ++i) {
      const J3dMdlPacket& r = real->packets[i];
      const J3dMdlPacket& m = made->packets[i];
      ASSERT_FALSE(r.raw.stored()) << name << " packet " << i;
      const Documented doc = documented_fields(r, *mat, i);
      bool all = r.commands.size() == m.commands.size();
      for (std::size_t k = 0; k < r.commands.size(); ++k) {
        ++commands;
        const J3dGxCommand* g = k < m.commands.size() ? &m.commands[k] : nullptr;
        const bool same = g && g->opcode == r.commands[k].opcode && g->args == r.commands[k].args;
        exact += same;
        all = all && same;
        bool ok = same;
        if (!ok && g && g->opcode == r.commands[k].opcode) {
          if (g->opcode == 0x61) {
            ok = (doc.address[k] || bp_address(*g) == bp_address(r.commands[k])) && (doc.value[k] || bp_value(*g) == bp_value(r.commands[k]));
          } else {
            ok = xf_address(*g) == xf_address(r.commands[k]) && g->args.size() == r.commands[k].args.size() &&
                 (doc.value[k] || xf_close(*g, r.commands[k]));
          }
        }
        matching += ok;
        if (!same && std::getenv("MDL3_SHOW")) std::printf("%s %zu %zu made %s stored %s\n", name.c_str(), i, k, hex(g).c_str(), hex(&r.commands[k]).c_str());
        EXPECT_TRUE(ok) << name << " packet " << i << " command " << k << ": made " << hex(g) << ", stored " << hex(&r.commands[k]);
      }
      EXPECT_EQ(m.commands.size(), r.commands.size()) << name << " packet " << i;
      packets_exact += all;
      subpackets += made->subpackets[i].offsets == real->subpackets[i].offsets && made->subpackets[i].unknown_0x0c == real->subpackets[i].unknown_0x0c;
      // Packet sizes follow from the commands (padded to 32), so the section's size matches too.
    }
    EXPECT_EQ(subpackets, real->packets.size()) << name;
    EXPECT_EQ(made->matrix_info, real->matrix_info) << name;
    EXPECT_EQ(made->pe_modes, real->pe_modes) << name;
    EXPECT_EQ(made->indices, real->indices) << name;
    EXPECT_EQ(made->names.names, real->names.names) << name;
    EXPECT_EQ(made->unknown_0x0a, real->unknown_0x0a) << name;
    // The file with its MDL3 generated: the same size, and how many bytes differ.
    J3dFile regenerated = *file;
    for (J3dSection& s : regenerated.sections) {
      if (std::holds_alternative<J3dMdl3>(s)) s = *made;
    }
    auto written = write_j3d(regenerated);
    ASSERT_TRUE(written.ok()) << name;
    ASSERT_EQ(written->size(), bytes.size()) << name << ": the generated MDL3 has the stored one's size";
    std::size_t differing = 0;
    for (std::size_t b = 0; b < bytes.size(); ++b) differing += (*written)[b] != bytes[b];
    std::printf("[ MDL3     ] %-44s packets %3zu/%3zu exact, commands %5zu/%5zu exact (%zu/%zu but documented fields), %zu bytes differ\n",
                name.c_str(), packets_exact, real->packets.size(), exact, commands, matching, commands, differing);
  }
  EXPECT_GT(bdls, 0u);
}

// Values no converter writes (infinite or NaN fog distances, indirect matrices past s1.10) still
// make a packet: no hang, no overflowing conversion.
TEST(J3dMdl3FromMat3, HostileValuesStillMakePackets) {
  const auto path = test::samples_root() / "j3d" / "smg_lavarotateplanet.bdl";  // fog and indirect matrices
  if (!std::filesystem::exists(path)) {
    if (test::samples_required()) FAIL() << path << " is missing";
    GTEST_SKIP() << path << " is missing";
  }
  auto file = read_j3d(test::load_file(path));
  ASSERT_TRUE(file.ok());
  J3dMat3 mat = *j3d_section<J3dMat3>(*file);
  ASSERT_FALSE(mat.fogs.empty());
  ASSERT_FALSE(mat.indirect.empty());
  for (J3dFog& f : mat.fogs) {
    f.far_z = std::numeric_limits<float>::infinity();
    f.end_z = std::nanf("");
  }
  for (J3dIndirectEntry& e : mat.indirect) {
    for (J3dIndirectMatrix& m : e.matrices) m.matrix = {1e30f, -1e30f, std::nanf(""), 3.0f, -3.0f, 0.5f};
  }
  auto made = j3d_mdl3_from_mat3(mat, *j3d_section<J3dTex1>(*file));
  ASSERT_TRUE(made.ok()) << made.error().describe();
  EXPECT_EQ(made->packets.size(), mat.remap.size());
}

// `textures replace` with another size on a BDL: MDL3's image size of the map that shows the
// texture and the texcoord scales that use it follow TEX1; no other MDL3 byte moves.
TEST(J3dMdl3FromMat3, AResizedTextureIsFollowedByItsPackets) {
  const auto path = test::samples_root() / "j3d" / "ww_letter.bdl";  // texture 2 (8x8 I4) on map 1
  if (!std::filesystem::exists(path)) {
    if (test::samples_required()) FAIL() << path << " is missing";
    GTEST_SKIP() << path << " is missing";
  }
  Document doc = test::load_document(path);
  const J3dMdl3 before = *j3d_section<J3dMdl3>(std::get<J3dFile>(doc));
  RgbaImage image(64, 16);
  ASSERT_TRUE(replace_texture(doc, 2, image).ok());
  const J3dMdl3& after = *j3d_section<J3dMdl3>(std::get<J3dFile>(doc));
  ASSERT_EQ(after.packets.size(), before.packets.size());
  const auto& was = before.packets[0].commands;
  const auto& now = after.packets[0].commands;
  ASSERT_EQ(now.size(), was.size());
  std::size_t changed = 0;
  for (std::size_t k = 0; k < was.size(); ++k) {
    if (now[k].args == was[k].args) continue;
    ++changed;
    const std::uint8_t a = bp_address(was[k]);
    ASSERT_EQ(bp_address(now[k]), a) << k;
    if (a == 0x89) {  // map 1's image: width - 1, height - 1, format I4
      EXPECT_EQ(bp_value(now[k]), 63u | 15u << 10) << k;
    } else if (a == 0x32 || a == 0x33) {  // texcoord 1's scale, which stages on map 1 write
      EXPECT_EQ(bp_value(now[k]), a == 0x32 ? 63u : 15u) << k;
    } else {
      ADD_FAILURE() << "command " << k << " (register " << int(a) << ") changed";
    }
  }
  EXPECT_EQ(changed, 5u) << "0x89 once, texcoord 1's scale pair twice";
  EXPECT_EQ(after.subpackets[0].offsets, before.subpackets[0].offsets);
}

// Found by fuzz_j3d: a texture re-encoded unchanged over a MAT3 that MDL3 cannot be generated from
// (a blend index past its table) must still write the same bytes; only a resize needs MDL3 again.
TEST(J3dMdl3FromMat3, AnUnchangedTextureNeedsNoMdl3FromABrokenMat3) {
  const auto path = test::samples_root() / "j3d" / "ww_letter.bdl";
  if (!std::filesystem::exists(path)) {
    if (test::samples_required()) FAIL() << path << " is missing";
    GTEST_SKIP() << path << " is missing";
  }
  Document doc = test::load_document(path);
  for (J3dMaterialEntry& e : j3d_section<J3dMat3>(std::get<J3dFile>(doc))->entries) e.blend = 0xFFFF;
  const Bytes broken = write_document(doc).value();
  auto image = decode_texture(doc, 2);
  ASSERT_TRUE(image.ok()) << image.error().describe();
  ASSERT_TRUE(replace_texture(doc, 2, *image).ok());
  EXPECT_EQ(write_document(doc).value(), broken);
  const auto resized = replace_texture(doc, 2, RgbaImage(64, 16));
  ASSERT_FALSE(resized.ok()) << "MDL3 cannot follow a resize without a MAT3 it can be made from";
  EXPECT_NE(resized.error().describe().find("blend"), std::string::npos) << resized.error().describe();
}

TEST(J3dMdl3FromMat3, AnIndexOutsideItsPoolIsAnErrorNamingIt) {
  J3dMat3 mat;
  mat.remap = {0};
  mat.names.names = {"m"};
  mat.entries.resize(1);
  mat.tev_stage_counts = {1};
  mat.texgen_counts = {0};
  mat.channel_counts = {1};
  auto r = j3d_mdl3_from_mat3(mat, J3dTex1{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "MAT3.material[0].texture");  // its texture 0 of an empty table
}

}  // namespace
}  // namespace remodel
