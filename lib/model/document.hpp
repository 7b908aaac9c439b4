// Any supported file: detection by magic, read, write and summary through one entry point.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/field_mark.hpp"
#include "model/bwm.hpp"
#include "model/j3d.hpp"
#include "model/kh_bbs_pam.hpp"
#include "model/kh_bbs_pmo.hpp"
#include "model/mhfu_pac.hpp"
#include "model/mhfu_pmo.hpp"
#include "model/mhfu_skeleton.hpp"
#include "model/tmh.hpp"
#include "model/tim2.hpp"

namespace remodel {

enum class Format { kh_bbs_pmo, kh_bbs_pmp, tim2, kh_bbs_pam, kh_bbs_pam_anim, mhfu_pmo, mhfu_skeleton, tmh, mhfu_pac, bwm, j3d };

const char* format_name(Format f);
// By magic, never by file extension; nullopt when no supported format starts this way.
std::optional<Format> detect_format(ByteSpan bytes);

// Alternatives in the order of Format.
using Document = std::variant<PmoFile, Pmp, Tim2File, Pam, PamAnimFile, MhfuPmoFile, MhfuSkeletonFile, TmhFile, Pac, Bwm, J3dFile>;

Format format_of(const Document& d);
Result<Document> read_document(ByteSpan bytes);
Result<Bytes> write_document(const Document& d, std::vector<FieldMark>* marks = nullptr);
std::size_t verbatim_bytes(const Document& d);

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

DocumentInfo document_info(const Document& d);

}  // namespace remodel
