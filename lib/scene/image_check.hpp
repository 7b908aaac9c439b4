// What authoring checks of a Scene texture's image before a format's encoder takes it, and where an
// encoder's error is reported: shared by the PSP formats' authoring (KH BBS TIM2, MHFU TMH).
#pragma once

#include <optional>
#include <string>

#include "model/error.hpp"
#include "model/image.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

// An error at `where`.image when the image is empty or its pixels do not fill its size.
inline Result<void> check_image(const RgbaImage& image, const std::string& where) {
  if (image.width != 0 && image.height != 0 && image.rgba.size() == std::size_t{image.width} * image.height * 4) return {};
  return at(where + ".image", "the image is empty or its pixels do not fill its " + std::to_string(image.width) + "x" +
                                  std::to_string(image.height) + " size",
            ErrorCode::inconsistent);
}

// An encoder's error moved under `where`.image, its own field kept in parentheses.
inline Error image_error(Error e, const std::string& where) {
  e.field = where + ".image" + (e.field.empty() ? "" : " (" + e.field + ")");
  return e;
}

}  // namespace remodel::scene
