// What every format shares before its Document exists: its id, the summary `info` prints and the
// texture handles a container lists. The registrations themselves are in format_table.cpp.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace remodel {

// One per registered format, in detection order (formats without a magic come last); the Document
// variant lists its alternatives in the same order.
enum class Format { kh_bbs_pmo, kh_bbs_pmp, tim2, kh_bbs_pam, mhfu_pmo, mhfu_skeleton, tmh, j3d, bwm, rarc, yaz0, mhfu_pac, kh_bbs_pam_anim, j3d_anim };

struct DocumentInfo {
  Format format;
  std::size_t size = 0;  // bytes the writer produces
  std::size_t sections = 0;
  std::size_t vertices = 0;
  std::size_t triangles = 0;
  std::size_t joints = 0;  // skeleton joints, or the bones an animation drives
  std::size_t textures = 0;
  std::size_t materials = 0;
  std::size_t models = 0;   // PMOs in a PMP, 1 for a model
  std::size_t objects = 0;  // PMP objects
  std::size_t entries = 0;  // container entries (PAC)
  std::size_t animations = 0;
  std::size_t frames = 0;  // the longest animation's frame count
};

struct TextureCodec;

// One texture of a Document, whatever holds it: its kind's codec (texture_codec.hpp) and the handle
// that codec reads, a pointer into the Document and an index the kind gives meaning to.
struct TextureRef {
  std::string name, where;
  const TextureCodec* codec = nullptr;
  void* texture = nullptr;
  std::size_t index = 0;
};
using TextureRefs = std::vector<TextureRef>;

}  // namespace remodel
