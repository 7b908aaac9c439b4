// MHFU records as the game's converter writes them (records.hpp).
#include "scene/mhfu/records.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "model/image.hpp"
#include "model/psp/texture.hpp"
#include "scene/image_check.hpp"

namespace remodel::scene::mhfu {

namespace {

constexpr std::uint32_t kMaxImageSide = 512;  // the GE samples textures up to 512 a side

}  // namespace

std::optional<std::uint32_t> material_colour(const Vec4& c) {
  std::uint32_t out = 0;
  const float ch[4] = {c.x, c.y, c.z, c.w};
  for (std::size_t k = 0; k < 4; ++k) {
    if (!std::isfinite(ch[k])) return std::nullopt;
    out |= static_cast<std::uint32_t>(std::nearbyint(std::clamp(ch[k], 0.0f, 1.0f) * 255.0f)) << (8 * k);
  }
  return out;
}

Result<TmhImage> tmh_image_of(const RgbaImage& source, const std::string& where, std::vector<Warning>& warnings) {
  RgbaImage image = source;
  if (auto bad = check_image(image, where); !bad) return bad.error();
  // The GE samples power-of-two textures up to 512 a side.
  const auto side = [](std::uint32_t s) { return std::min(kMaxImageSide, std::bit_ceil(s)); };
  const std::uint32_t w = side(image.width), h = side(image.height);
  if (w != image.width || h != image.height) {
    warnings.push_back({where, "the " + std::to_string(image.width) + "x" + std::to_string(image.height) + " image is scaled to " + std::to_string(w) + "x" + std::to_string(h) +
                                   " (the GE samples power-of-two textures up to 512 a side)"});
    image = resize_image(image, w, h);
  }
  auto made = new_tmh_image(image);
  if (!made) return image_error(made.error(), where);
  return std::move(*made);
}

}  // namespace remodel::scene::mhfu
