// Reads KH BBS PAM containers and bare animation records (layout: ../shared/formats/kh-bbs-pam.md).
#include <algorithm>
#include <string>

#include "model/kh_bbs/pam.hpp"
#include "reader/cursor.hpp"

namespace remodel {

namespace {

constexpr std::size_t kPamHeaderSize = 16;
constexpr std::size_t kPamEntrySize = 16;
constexpr std::size_t kAnimationHeaderSize = 12;

PamChannel read_channel(Cursor& c, const PamAnimation& a) {
  PamChannel ch;
  ch.max = c.f32("max");
  ch.min = c.f32("min");
  const std::size_t count_at = c.pos();
  const std::uint32_t count = a.wide() ? c.u16("key_count") : c.u8("key_count");
  if (count == 1) {
    ch.constant = true;
    return ch;
  }
  if (count > a.frame_count) {
    c.fail_at(ErrorCode::bad_count, count_at, "key_count",
              "is " + std::to_string(count) + " but the animation has only " + std::to_string(a.frame_count) +
                  " frames");
  }
  if (count == a.frame_count) {  // a key on every frame: frame ids are implicit
    c.check_count(count, 2, "keys");
    ch.keys.resize(count);
    for (std::uint32_t k = 0; k < count; ++k) {
      ch.keys[k].frame = static_cast<std::uint16_t>(k);
      ch.keys[k].value = c.u16("value");
    }
    return ch;
  }
  c.check_count(count, a.wide() ? 4 : 3, "keys");
  ch.keys.resize(count);
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::size_t frame_at = c.pos();
    ch.keys[k].frame = a.wide() ? c.u16("frame") : c.u8("frame");
    if (ch.keys[k].frame >= a.frame_count) {
      c.fail_at(ErrorCode::bad_value, frame_at, "frame",
                "key " + std::to_string(k) + " is at frame " + std::to_string(ch.keys[k].frame) +
                    ", past the animation's " + std::to_string(a.frame_count) + " frames");
    }
    ch.keys[k].value = c.u16("value");
  }
  return ch;
}

// Reads one record at the cursor; the cursor ends right after its last channel.
PamAnimation read_animation(Cursor& c) {
  PamAnimation a;
  c.need(kAnimationHeaderSize, "header");
  a.flag = c.u16("flag");
  a.fps = c.u8("fps");
  a.interpolation_frames = c.u8("interpolation_frames");
  a.loop_from = c.u16("loop_from");
  const std::uint8_t bone_count = c.u8("bone_count");
  a.unknown_0x07 = c.u8("unknown_0x07");
  a.frame_count = c.u16("frame_count");
  a.loop_to = c.u16("loop_to");
  c.check_count(bone_count, 2, "bone_count");
  a.bones.resize(bone_count);
  std::vector<std::uint16_t> flags(bone_count);
  for (std::size_t b = 0; b < bone_count; ++b) {
    flags[b] = c.u16("channel_flags");
    if (flags[b] >> kPamChannelKinds) {
      c.fail_at(ErrorCode::bad_value, c.pos() - 2, "channel_flags",
                "bone " + std::to_string(b) + " sets bits past the nine channels; the bone count (" +
                    std::to_string(bone_count) + ") may disagree with the channel data");
    }
  }
  for (std::size_t b = 0; b < bone_count; ++b) {
    PathScope bone(c, "bone", static_cast<std::int64_t>(b));
    for (std::size_t k = 0; k < kPamChannelKinds; ++k) {
      if (!(flags[b] & (1u << k))) continue;
      PathScope channel(c, pam_channel_name(static_cast<PamChannelKind>(k)));
      a.bones[b].channels[k] = read_channel(c, a);
    }
  }
  return a;
}

// The bytes from the record's end to `end`: nothing kept when they are the canonical pad to even.
void read_padding(Cursor& c, PamAnimation& a, std::size_t start, std::size_t end) {
  if (end < c.pos()) {
    c.fail_at(ErrorCode::bad_offset, end, "padding",
              "the record runs " + std::to_string(c.pos() - end) + " bytes past the start of the next one");
  }
  const bool odd = (c.pos() - start) % 2 != 0;
  ByteSpan s = c.span(end - c.pos(), "padding");
  const bool canonical = odd ? (s.size() == 1 && s[0] == 0) : s.empty();
  if (!canonical) a.stored_padding = Verbatim(s);
}

}  // namespace

Result<Pam> read_pam(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::little);
    Pam pam;
    if (!c.has_magic(0, "PAM\0")) c.fail(ErrorCode::bad_magic, "magic", "does not start with \"PAM\\0\"");
    c.skip(4, "magic");
    const std::uint32_t count = c.u32("animation_count");
    pam.unknown_0x08 = c.array<6>("unknown_0x08");
    pam.version = c.u16("version");
    c.check_count(count, kPamEntrySize, "animation_count");
    const std::size_t table_end = kPamHeaderSize + std::size_t{count} * kPamEntrySize;
    std::vector<std::uint32_t> offsets(count);
    pam.entries.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      PathScope entry(c, "entry", i);
      offsets[i] = c.u32("offset");
      pam.entries[i].name = c.array<12>("name");
      if (offsets[i] != 0 && offsets[i] < table_end) {
        c.fail_at(ErrorCode::bad_offset, c.pos() - 16, "offset",
                  "points inside the header or entry table, which end at " + std::to_string(table_end));
      }
    }
    // Records are laid out in offset order; entries sharing an offset share a record.
    std::vector<std::uint32_t> starts;
    for (std::uint32_t o : offsets) {
      if (o != 0) starts.push_back(o);
    }
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    if (starts.size() > 0xFFFF) c.fail(ErrorCode::bad_count, "animation_count", "more than 65535 distinct records");
    for (std::uint32_t i = 0; i < count; ++i) {
      if (offsets[i] == 0) continue;
      const auto at = std::lower_bound(starts.begin(), starts.end(), offsets[i]);
      pam.entries[i].animation = static_cast<std::uint16_t>(at - starts.begin());
    }
    const std::size_t first = starts.empty() ? c.size() : starts.front();
    if (first > c.size()) c.fail_at(ErrorCode::bad_offset, first, "entry.offset", "points past the end of the file");
    ByteSpan gap = c.span(first - c.pos(), "gap_before_first");
    if (!gap.empty()) pam.gap_before_first = Verbatim(gap);
    pam.animations.reserve(starts.size());
    for (std::size_t i = 0; i < starts.size(); ++i) {
      PathScope scope(c, "animation", static_cast<std::int64_t>(i));
      c.seek(starts[i], "offset");
      PamAnimation a = read_animation(c);
      const std::size_t end = i + 1 < starts.size() ? starts[i + 1] : c.size();
      read_padding(c, a, starts[i], end);
      pam.animations.push_back(std::move(a));
    }
    return pam;
  });
}

Result<PamAnimFile> read_pam_anim_file(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::little);
    PamAnimFile f;
    f.animation = read_animation(c);
    read_padding(c, f.animation, 0, c.size());
    return f;
  });
}

}  // namespace remodel
