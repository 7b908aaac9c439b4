// Kingdom Hearts Birth by Sleep PAM animation container and its animation records, as stored.
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

// The nine channels a bone may animate, in the order of the channel-flag bits and of the data.
enum class PamChannelKind : std::uint8_t {
  translation_x, translation_y, translation_z,
  rotation_x, rotation_y, rotation_z,  // radians, applied X then Y then Z
  scale_x, scale_y, scale_z,
};
inline constexpr std::size_t kPamChannelKinds = 9;
const char* pam_channel_name(PamChannelKind kind);

struct PamKey {
  std::uint16_t frame = 0;  // stored only for sparse channels; implicit 0, 1, 2... when every frame has a key
  std::uint16_t value = 0;  // quantised between the channel's min and max
};

struct PamChannel {
  float max = 0.0f;  // stored before min
  float min = 0.0f;
  bool constant = false;     // key count 1: no key data, the value is min (== max)
  std::vector<PamKey> keys;  // empty when constant
};

struct PamBone {
  std::array<std::optional<PamChannel>, kPamChannelKinds> channels;  // the flag bits are which are present
  std::uint16_t flags() const;
};

// One animation record: 12-byte header, a u16 of channel flags per bone, then the channels bone by bone.
struct PamAnimation {
  std::uint16_t flag = 1;  // 0x0001 and 0x0101 seen; meaning unknown
  std::uint8_t fps = 30;
  std::uint8_t interpolation_frames = 0;
  std::uint16_t loop_from = 0;
  std::uint8_t unknown_0x07 = 0;  // padding in the spec
  std::uint16_t frame_count = 0;
  std::uint16_t loop_to = 0;
  std::vector<PamBone> bones;  // at most 255: the count is a u8
  // The bytes after the record up to the next record or the end of the file, kept only when they are
  // not the canonical single zero that pads the record to an even length (or nothing when it is even).
  Verbatim stored_padding;

  // Key counts and sparse frame ids are u16 instead of u8 past 255 frames.
  bool wide() const { return frame_count > 255; }
};

std::size_t pam_animation_size(const PamAnimation& a);  // record bytes, without the padding after it

struct PamEntry {
  std::optional<std::uint16_t> animation;  // index into Pam::animations; none = offset 0, an empty slot
  std::array<std::uint8_t, 12> name{};
};

struct Pam {
  std::array<std::uint8_t, 6> unknown_0x08{};  // always zero, never read by the game
  std::uint16_t version = 1;
  std::vector<PamEntry> entries;
  std::vector<PamAnimation> animations;  // in file order; entries may share one
  Verbatim gap_before_first;             // bytes between the entry table and the first record, when any
};

// A bare animation record with no container (the ".anim" files of modding tools).
struct PamAnimFile {
  PamAnimation animation;
};

Result<Pam> read_pam(ByteSpan bytes);
Result<Bytes> write_pam(const Pam& pam, WriteReport* report = nullptr);
Result<PamAnimFile> read_pam_anim_file(ByteSpan bytes);
Result<Bytes> write_pam_anim_file(const PamAnimFile& file, WriteReport* report = nullptr);
// Whether the bytes look like a bare animation record: there is no magic, so the header and the
// channel flags must be plausible (30 fps, zero pad byte, flags within the nine bits).
bool looks_like_pam_anim(ByteSpan bytes);

// ---- decoding to values, for export ----

struct PamDecodedChannel {
  PamChannelKind kind = PamChannelKind::translation_x;
  std::vector<std::uint16_t> frames;  // increasing
  std::vector<float> values;          // min + (max - min) * q / 65535
};

struct PamDecodedBone {
  std::vector<PamDecodedChannel> channels;  // only the channels present, in flag order
};

struct PamDecodedAnimation {
  std::uint8_t fps = 30;
  std::uint16_t frame_count = 0;
  std::vector<PamDecodedBone> bones;
};

float pam_dequantise(float min, float max, std::uint16_t q);
// Fails on a key past the last frame or frame ids that do not increase.
Result<PamDecodedAnimation> decode_pam_animation(const PamAnimation& a);
// Linear interpolation between keys; held constant before the first and after the last.
float pam_sample(const PamDecodedChannel& c, float frame);

// The format's registration (format_table.cpp): its summary, its JSON and its textures.
void add_info(const Pam& doc, DocumentInfo& info);
void add_json(const Pam& doc, nlohmann::ordered_json& out);
void add_info(const PamAnimFile& doc, DocumentInfo& info);
void add_json(const PamAnimFile& doc, nlohmann::ordered_json& out);

}  // namespace remodel
