// Every texture in the samples: decodes, re-encodes unedited to its own bytes, and takes a new image.
#include <gtest/gtest.h>

#include <cstdlib>

#include "model/document.hpp"
#include "model/field_mark.hpp"
#include "model/gx/texture.hpp"
#include "model/j3d/texture.hpp"
#include "model/palette.hpp"
#include "model/psp/texture.hpp"
#include "model/textures.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

struct Loaded {
  std::filesystem::path path;
  Bytes bytes;
  Document doc;
};

// Sample files of `subdir` that hold at least one texture.
std::vector<Loaded> textured(const std::vector<std::filesystem::path>& files) {
  std::vector<Loaded> out;
  for (const auto& path : files) {
    Bytes b = test::load_file(path);
    auto doc = read_document(b);
    if (!doc.ok() || list_textures(*doc).empty()) continue;
    out.push_back({path, std::move(b), std::move(doc.value())});
  }
  return out;
}

// A test image no palette or block holds: a colour gradient with an alpha ramp and a hard edge.
RgbaImage gradient(std::uint32_t w, std::uint32_t h) {
  RgbaImage image(w, h);
  for (std::uint32_t y = 0; y < h; ++y) {
    for (std::uint32_t x = 0; x < w; ++x) {
      std::uint8_t* p = image.at(x, y);
      p[0] = static_cast<std::uint8_t>(x * 255 / std::max<std::uint32_t>(w - 1, 1));
      p[1] = static_cast<std::uint8_t>(y * 255 / std::max<std::uint32_t>(h - 1, 1));
      p[2] = x < w / 2 ? 40 : 220;
      p[3] = 255;
    }
  }
  return image;
}

double mean_error(const RgbaImage& a, const RgbaImage& b, bool grey, bool with_alpha) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4) {
    for (int c = 0; c < (with_alpha ? 4 : 3); ++c) {
      int want = a.rgba[i + c];
      if (grey) want = (a.rgba[i] * 299 + a.rgba[i + 1] * 587 + a.rgba[i + 2] * 114 + 500) / 1000;
      sum += std::abs(want - b.rgba[i + c]);
      ++n;
    }
  }
  return n == 0 ? 0 : sum / static_cast<double>(n);
}

void all_texture_checks(const std::string& subdir, std::size_t& textures) {
  for (Loaded& f : textured(test::sample_files(subdir))) {
    SCOPED_TRACE(f.path.string());
    const std::vector<TextureInfo> list = list_textures(f.doc);
    Document edited = f.doc;
    for (std::size_t i = 0; i < list.size(); ++i) {
      SCOPED_TRACE(list[i].name);
      auto image = decode_texture(f.doc, i);
      ASSERT_TRUE(image.ok()) << image.error().describe();
      EXPECT_EQ(image->width, list[i].width);
      EXPECT_EQ(image->height, list[i].height);
      auto replaced = replace_texture(edited, i, *image);
      ASSERT_TRUE(replaced.ok()) << replaced.error().describe();
      ++textures;
    }
    auto out = write_document(edited);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    EXPECT_TRUE(*out == f.bytes) << "re-encoding every unedited texture changed the file";
  }
}

TEST(TextureSamples, KhBbsEveryTextureDecodesAndReencodesToItsBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs");
  std::size_t textures = 0;
  all_texture_checks("kh-bbs", textures);
  EXPECT_GE(textures, 82u);  // the samples hold 82
}

TEST(TextureSamples, MhfuEveryTextureDecodesAndReencodesToItsBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  std::size_t textures = 0;
  all_texture_checks("mhfu", textures);
  EXPECT_GE(textures, 4u);  // two TMH files and the same two images inside their PACs
}

TEST(TextureSamples, J3dEveryTextureDecodesAndReencodesToItsBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  std::size_t textures = 0;
  all_texture_checks("j3d", textures);
  EXPECT_GE(textures, 231u);  // the 20 samples hold 231
}

// Without the original as reference, lossless formats must still give their own bytes back: the
// encoder is tested here, not the keep-unchanged-tiles rule.
TEST(TextureSamples, LosslessGxFormatsEncodeFreshToTheirBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  std::size_t checked = 0, indexed = 0;
  for (Loaded& f : textured(files)) {
    for (const J3dSection& s : std::get<J3dFile>(f.doc).sections) {
      const auto* tex1 = std::get_if<J3dTex1>(&s);
      if (tex1 == nullptr) continue;
      for (std::size_t i = 0; i < tex1->textures.size(); ++i) {
        const J3dTexture& t = tex1->textures[i];
        SCOPED_TRACE(f.path.string() + " texture " + std::to_string(i));
        const ByteSpan stored = ByteSpan(tex1->blocks[t.image_block].data).first(gx_image_size(t.format, t.width, t.height, 1));
        auto image = decode_j3d_texture(*tex1, i);
        ASSERT_TRUE(image.ok());
        if (gx_is_indexed(t.format)) {
          // Exact palette fit without the reference indices gives the same pixels back.
          auto palette = decode_gx_palette(tex1->blocks[*t.palette_block].data, t.palette_format, t.palette_count);
          ASSERT_TRUE(palette.ok());
          auto indices = fit_palette(*image, *palette);
          ASSERT_TRUE(indices.has_value());
          const Bytes bytes = encode_gx_indices(t.format, t.width, t.height, *indices);
          auto again = decode_gx_image(t.format, t.width, t.height, bytes, *palette);
          ASSERT_TRUE(again.ok());
          EXPECT_TRUE(again.value() == *image);
          ++indexed;
          continue;
        }
        if (t.format == gx_cmpr || t.format == gx_rgb5a3) continue;  // lossy to re-derive (CMPR) or two encodings of a pixel (RGB5A3)
        if (t.width % gx_tile(t.format).width != 0 || t.height % gx_tile(t.format).height != 0) continue;  // padding texels are free
        EXPECT_TRUE(encode_gx_image(t.format, *image) == Bytes(stored.begin(), stored.end())) << gx_format_name(t.format);
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 50u);
  EXPECT_GE(indexed, 5u);
}

// Which writer field each byte that changed belongs to: only the replaced texture's data may move.
bool only_texture_bytes_changed(const Bytes& before, const Bytes& after, const std::vector<FieldMark>& marks, std::string& first_bad) {
  if (before.size() != after.size()) return false;
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (before[i] == after[i]) continue;
    const std::string field = field_at(marks, i);
    const bool texture = field.find(".image") != std::string::npos || field.find(".clut") != std::string::npos ||
                         field.find("pixels") != std::string::npos || field.find("TEX1.block[") != std::string::npos;
    if (!texture) {
      first_bad = field + " at " + std::to_string(i);
      return false;
    }
  }
  return true;
}

void replace_and_read_back(const std::string& subdir, std::size_t& replaced) {
  for (Loaded& f : textured(test::sample_files(subdir))) {
    SCOPED_TRACE(f.path.string());
    const std::vector<TextureInfo> list = list_textures(f.doc);
    // The first texture of each format in the file.
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (std::find(seen.begin(), seen.end(), list[i].format) != seen.end()) continue;
      seen.push_back(list[i].format);
      SCOPED_TRACE(list[i].name + " " + list[i].format);
      Document edited = f.doc;
      const RgbaImage image = gradient(list[i].width, list[i].height);
      auto result = replace_texture(edited, i, image);
      if (!result && result.error().code == ErrorCode::unsupported) continue;  // a shared palette: refused, and said so
      ASSERT_TRUE(result.ok()) << result.error().describe();
      WriteReport report;
      report.marks = true;
      auto out = write_document(edited, &report);
      ASSERT_TRUE(out.ok()) << out.error().describe();
      std::string bad;
      EXPECT_TRUE(only_texture_bytes_changed(f.bytes, *out, report.fields, bad)) << "changed outside the texture: " << bad;
      auto again = read_document(*out);
      ASSERT_TRUE(again.ok()) << again.error().describe();
      auto decoded = decode_texture(*again, i);
      ASSERT_TRUE(decoded.ok()) << decoded.error().describe();
      const std::string& format = list[i].format;
      const bool grey = format.rfind("I", 0) == 0 || format.find("/IA8") != std::string::npos;
      const bool lossy = format.find("C") == 0 || format.find("CMPR") != std::string::npos || format.find("CLUT") == 0;
      const double error_mean = mean_error(image, *decoded, grey, !grey);
      // Direct colour loses at most the low bits; palettes and CMPR average a few levels more.
      EXPECT_LT(error_mean, lossy ? 12.0 : 9.0) << "mean channel error " << error_mean;
      ++replaced;
    }
  }
}

TEST(TextureSamples, ReplacedTexturesReadBackWithTheNewPixels) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  std::size_t replaced = 0;
  replace_and_read_back("j3d", replaced);
  replace_and_read_back("kh-bbs", replaced);
  replace_and_read_back("mhfu", replaced);
  EXPECT_GE(replaced, 40u);
}

}  // namespace
}  // namespace remodel
