// J3D texture SRTs as KHR_texture_transform and back.
#include "scene/j3d/texture_srt.hpp"

#include <cmath>

namespace remodel::scene {

std::string khr_texture_transform_pointer(int material) {
  return "/materials/" + std::to_string(material) + "/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/";
}

TextureTransform khr_texture_transform(const J3dTexSrt& srt, std::array<float, 2> centre, bool maya) {
  const std::array<float, 6> m = j3d_texture_matrix(srt, centre, maya);
  return {{m[2], m[5]}, maya ? srt.rotation : -srt.rotation, {srt.scale_s, srt.scale_t}};
}

bool khr_exact(const J3dTexSrt& srt, bool maya) { return maya || srt.scale_s == srt.scale_t || std::sin(srt.rotation) == 0; }

J3dTexSrt j3d_texture_srt_of(const TextureTransform& t, std::array<float, 2> centre, bool maya) {
  J3dTexSrt srt{t.scale.x, t.scale.y, maya ? t.rotation : -t.rotation, 0, 0};
  const float s = std::sin(srt.rotation), c = std::cos(srt.rotation);
  if (maya) {
    // offset - 0.5 = [[c, -s], [-s, -c]] (translation_s - 0.5, translation_t - 0.5 + scale_t); that matrix is its own inverse.
    const float u = t.offset.x - 0.5f, w = t.offset.y - 0.5f;
    srt.translation_s = c * u - s * w + 0.5f;
    srt.translation_t = -s * u - c * w - srt.scale_t + 0.5f;
  } else {
    const float cx = srt.scale_s * c, sx = srt.scale_s * s, sy = srt.scale_t * s, cy = srt.scale_t * c;
    srt.translation_s = t.offset.x + cx * centre[0] - sx * centre[1] - centre[0];
    srt.translation_t = t.offset.y + sy * centre[0] + cy * centre[1] - centre[1];
  }
  return srt;
}

}  // namespace remodel::scene
