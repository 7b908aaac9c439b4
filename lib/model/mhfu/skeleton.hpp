// Monster Hunter Freedom Unite skeleton (PAC entry 1, magic 0xC0000000), as stored.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/verbatim.hpp"
#include "model/format.hpp"

namespace remodel {

// Bone record: 84 bytes of fields, then zeros up to its size (0x10C in every file seen).
struct MhfuBone {
  std::uint32_t tag = 0x40000001;  // 0x40000000 | kind (1-3)
  std::uint32_t unknown_0x04 = 1;
  std::int32_t index = 0;
  std::int32_t parent = -1;
  std::int32_t child = -1;
  std::int32_t sibling = -1;
  std::array<float, 4> scale{1.0f, 1.0f, 1.0f, 1.0f};
  // Each vector's w is 1 in every real skeleton (MHFU ModKit refuses a bone whose w is not 1).
  std::array<float, 4> rotation{0.0f, 0.0f, 0.0f, 1.0f};  // Euler angles, radians
  std::array<float, 4> position{0.0f, 0.0f, 0.0f, 1.0f};  // offset from the parent
  std::int32_t link = -1;
  std::uint32_t chain_id = 0;
  // The bytes after the fields, kept only when they are not the canonical 184 zeros.
  Verbatim stored_trailing;
};

struct MhfuSkeleton {
  std::uint32_t parameter_tag = 0;          // the parameter block's record tag
  std::vector<std::uint32_t> parameters;    // its values
  std::vector<MhfuBone> bones;
};

struct MhfuSkeletonFile {
  MhfuSkeleton skeleton;
  Verbatim tail;  // bytes past the declared size
};

inline constexpr std::uint32_t kMhfuSkeletonMagic = 0xC0000000;

Result<MhfuSkeletonFile> read_mhfu_skeleton_file(ByteSpan bytes);
Result<Bytes> write_mhfu_skeleton_file(const MhfuSkeletonFile& file, WriteReport* report = nullptr);

// The format's registration (format_table.cpp): its summary, its JSON and its textures.
inline void add_info(const MhfuSkeletonFile& doc, DocumentInfo& info) { info.joints += doc.skeleton.bones.size(); }
void add_json(const MhfuSkeletonFile& doc, nlohmann::ordered_json& out);

}  // namespace remodel
