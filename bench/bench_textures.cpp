// Texture codec throughput in megapixels per second: decode, encode of a new image (quantising or
// compressing where the format needs it) and re-encode of an unedited one, for every format, on a
// 256x256 image in memory, beside a memcpy of the same RGBA pixels.
#include <benchmark/benchmark.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "model/gx/texture.hpp"
#include "model/j3d/texture.hpp"
#include "model/psp/texture.hpp"

namespace {

using namespace remodel;

constexpr std::uint32_t kSide = 256;

// Colour ramps with a little hash noise: every format has something to quantise or compress.
RgbaImage test_image(bool inverted) {
  RgbaImage image(kSide, kSide);
  for (std::uint32_t y = 0; y < kSide; ++y) {
    for (std::uint32_t x = 0; x < kSide; ++x) {
      const std::uint32_t noise = (x * 2654435761u ^ y * 40503u) >> 28;
      std::uint8_t* p = image.at(x, y);
      p[0] = static_cast<std::uint8_t>(x + noise), p[1] = static_cast<std::uint8_t>(y), p[2] = static_cast<std::uint8_t>((x + y) / 2);
      p[3] = static_cast<std::uint8_t>(x < kSide / 2 ? 255 : y);
      if (inverted) {
        for (int c = 0; c < 3; ++c) p[c] = static_cast<std::uint8_t>(255 - p[c]);
      }
    }
  }
  return image;
}

// One texture of a format in its container, with decode and replace bound to it.
struct Codec {
  std::string name;
  std::function<Result<RgbaImage>()> decode;
  std::function<Result<void>(const RgbaImage&)> replace;  // on a copy of the texture
};

void register_codec(const Codec& codec) {
  const auto pixels = static_cast<std::int64_t>(kSide) * kSide;
  static const RgbaImage fresh = test_image(true);
  const RgbaImage unedited = codec.decode().value();
  const std::string& n = codec.name;
  benchmark::RegisterBenchmark(("texture-memcpy/" + n).c_str(), [pixels](benchmark::State& state) {
    const RgbaImage source = test_image(false);
    RgbaImage out = source;
    for (auto _ : state) {
      std::memcpy(out.rgba.data(), source.rgba.data(), source.rgba.size());
      benchmark::DoNotOptimize(out.rgba.data());
      benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * pixels);
  });
  benchmark::RegisterBenchmark(("decode/" + n).c_str(), [codec, pixels](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(codec.decode());
    state.SetItemsProcessed(state.iterations() * pixels);
  });
  benchmark::RegisterBenchmark(("encode-new/" + n).c_str(), [codec, pixels](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(codec.replace(fresh));
    state.SetItemsProcessed(state.iterations() * pixels);
  });
  benchmark::RegisterBenchmark(("encode-unedited/" + n).c_str(), [codec, unedited, pixels](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(codec.replace(unedited));
    state.SetItemsProcessed(state.iterations() * pixels);
  });
}

void register_gx(std::uint8_t format, std::uint8_t palette_format = 0) {
  auto tex1 = std::make_shared<J3dTex1>();
  J3dTexture t;
  t.format = format;
  t.width = t.height = kSide;
  tex1->blocks.push_back({Bytes(gx_image_size(format, kSide, kSide, 1), 0), {}});
  if (gx_is_indexed(format)) {
    t.palette_format = palette_format;
    t.palette_count = static_cast<std::uint16_t>(std::min<std::size_t>(gx_palette_capacity(format), 256));
    t.palette_block = 1;
    tex1->blocks.push_back({Bytes(t.palette_count * std::size_t{2}, 0), {}});
  }
  tex1->textures.push_back(t);
  if (!replace_j3d_texture(*tex1, 0, test_image(false))) std::abort();
  std::string name = std::string("gx-") + gx_format_name(format);
  if (gx_is_indexed(format)) name += std::string("-") + gx_palette_format_name(palette_format);
  register_codec({name, [tex1] { return decode_j3d_texture(*tex1, 0); },
                  [tex1](const RgbaImage& image) {
                    J3dTex1 copy = *tex1;
                    return replace_j3d_texture(copy, 0, image);
                  }});
}

void register_tim2(std::uint8_t image_type) {
  auto p = std::make_shared<Tim2Picture>();
  p->image_type = image_type;
  p->clut_type = image_type >= 4 ? 3 : 0;
  p->width = p->height = kSide;
  const unsigned bits = image_type == 1 ? 16 : image_type == 2 ? 24 : image_type == 3 ? 32 : image_type == 4 ? 4 : 8;
  p->image.assign(std::size_t{kSide} * kSide * bits / 8, 0);
  p->clut_colors = static_cast<std::uint16_t>(image_type == 4 ? 16 : image_type == 5 ? 256 : 0);
  p->clut.assign(p->clut_colors * std::size_t{4}, 0);
  if (!encode_tim2_picture(*p, test_image(false))) std::abort();
  register_codec({"tim2-" + tim2_format_name(*p), [p] { return decode_tim2_picture(*p); },
                  [p](const RgbaImage& image) {
                    Tim2Picture copy = *p;
                    return encode_tim2_picture(copy, image);
                  }});
}

void register_tmh(std::uint32_t mode) {
  auto t = std::make_shared<TmhImage>();
  t->mode = mode;
  t->width = t->height = kSide;
  const unsigned bits = mode == 3 ? 32 : mode <= 2 ? 16 : mode == 4 ? 4 : 8;
  t->pixels.assign(std::size_t{kSide} * kSide * bits / 8, 0);
  if (mode >= 4) t->clut = TmhClut{2, 1, mode == 4 ? 16u : 256u, Bytes((mode == 4 ? 16 : 256) * 2, 0)};
  if (!encode_tmh_image(*t, test_image(false))) std::abort();
  register_codec({"tmh-" + tmh_format_name(*t), [t] { return decode_tmh_image(*t); },
                  [t](const RgbaImage& image) {
                    TmhImage copy = *t;
                    return encode_tmh_image(copy, image);
                  }});
}

}  // namespace

int main(int argc, char** argv) {
  for (std::uint8_t f : {gx_i4, gx_i8, gx_ia4, gx_ia8, gx_rgb565, gx_rgb5a3, gx_rgba8, gx_cmpr}) register_gx(f);
  register_gx(gx_c4, gx_palette_rgb5a3);
  register_gx(gx_c8, gx_palette_rgb565);
  register_gx(gx_c14x2, gx_palette_ia8);
  for (std::uint8_t type = 1; type <= 5; ++type) register_tim2(type);
  for (std::uint32_t mode = 0; mode <= 5; ++mode) register_tmh(mode);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
