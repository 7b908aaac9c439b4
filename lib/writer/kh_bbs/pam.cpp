// Writes KH BBS PAM containers and bare animation records; offsets and key storage from the structure.
#include <string>

#include "model/kh_bbs/pam.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

namespace {

// Field names are built only for marks and failures: writing must not pay for them.
void write_channel(ByteWriter& w, const PamAnimation& a, const PamChannel& ch, const std::string& prefix,
                   std::size_t bone, std::size_t kind) {
  const auto field = [&] {
    return prefix + "bone[" + std::to_string(bone) + "]." + pam_channel_name(static_cast<PamChannelKind>(kind));
  };
  w.mark(field);
  w.f32(ch.max);
  w.f32(ch.min);
  const auto count_field = [&](std::size_t n) {
    if (a.wide()) {
      w.u16(static_cast<std::uint16_t>(n));
    } else {
      w.u8(static_cast<std::uint8_t>(n));
    }
  };
  if (ch.constant) {
    if (!ch.keys.empty()) w.fail(field(), "a constant channel stores no keys, but this one has " + std::to_string(ch.keys.size()));
    count_field(1);
    return;
  }
  const std::size_t n = ch.keys.size();
  if (n == 1) w.fail(field(), "a single key is read back as a constant; mark the channel constant instead");
  if (n > a.frame_count) {
    w.fail(field(), std::to_string(n) + " keys are more than the animation's " + std::to_string(a.frame_count) + " frames");
  }
  count_field(n);
  w.mark([&] { return field() + ".keys"; });
  if (n == a.frame_count) {  // a key on every frame: frame ids are implicit
    for (std::size_t k = 0; k < n; ++k) {
      if (ch.keys[k].frame != k) {
        w.fail(field() + ".key[" + std::to_string(k) + "]",
               "a channel with a key on every frame must hold frames 0, 1, 2... in order");
      }
      w.u16(ch.keys[k].value);
    }
    return;
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (ch.keys[k].frame >= a.frame_count) {
      w.fail(field() + ".key[" + std::to_string(k) + "]", "frame " + std::to_string(ch.keys[k].frame) +
                                                            " is past the animation's " + std::to_string(a.frame_count) +
                                                            " frames");
    }
    count_field(ch.keys[k].frame);
    w.u16(ch.keys[k].value);
  }
}

void write_animation(ByteWriter& w, const PamAnimation& a, const std::string& prefix) {
  const std::size_t start = w.pos();
  if (a.bones.size() > 255) w.fail(prefix + "bone_count", "an animation holds at most 255 bones");
  w.mark([&] { return prefix + "header"; });
  w.u16(a.flag);
  w.u8(a.fps);
  w.u8(a.interpolation_frames);
  w.u16(a.loop_from);
  w.u8(static_cast<std::uint8_t>(a.bones.size()));
  w.u8(a.unknown_0x07);
  w.u16(a.frame_count);
  w.u16(a.loop_to);
  w.mark([&] { return prefix + "channel_flags"; });
  for (const PamBone& b : a.bones) w.u16(b.flags());
  for (std::size_t b = 0; b < a.bones.size(); ++b) {
    for (std::size_t k = 0; k < kPamChannelKinds; ++k) {
      const auto& ch = a.bones[b].channels[k];
      if (!ch) continue;
      write_channel(w, a, *ch, prefix, b, k);
    }
  }
  w.mark([&] { return prefix + "padding"; });
  if (!w.verbatim(a.stored_padding, [&] { return prefix + "stored_padding"; })) w.pad(2, start, 0);
}

}  // namespace

Result<Bytes> write_pam(const Pam& pam, WriteReport* report) {
  return guarded_write([&] {
    std::size_t reserve = 16 + 16 * pam.entries.size() + pam.gap_before_first.size();
    for (const PamAnimation& a : pam.animations) reserve += pam_animation_size(a) + 2;
    ByteWriter w(Endian::little, reserve, report);
    if (pam.entries.size() > 0xFFFFFFFFu) w.fail("animation_count", "too many entries");
    std::vector<bool> referenced(pam.animations.size(), false);
    for (std::size_t i = 0; i < pam.entries.size(); ++i) {
      const auto& index = pam.entries[i].animation;
      if (!index) continue;
      if (*index >= pam.animations.size()) {
        w.fail("entry[" + std::to_string(i) + "].animation",
               "refers to animation " + std::to_string(*index) + " but there are " + std::to_string(pam.animations.size()));
      }
      referenced[*index] = true;
    }
    for (std::size_t i = 0; i < referenced.size(); ++i) {
      if (!referenced[i]) w.fail("animation[" + std::to_string(i) + "]", "no entry refers to this animation");
    }
    w.mark([] { return std::string("header"); });
    w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>("PAM\0"), 4));
    w.u32(static_cast<std::uint32_t>(pam.entries.size()));
    w.bytes(pam.unknown_0x08);
    w.u16(pam.version);
    std::vector<std::size_t> offset_at(pam.entries.size());
    for (std::size_t i = 0; i < pam.entries.size(); ++i) {
      w.mark([&] { return "entry[" + std::to_string(i) + "]"; });
      offset_at[i] = w.placeholder_u32();
      w.bytes(pam.entries[i].name);
    }
    w.verbatim(pam.gap_before_first, [] { return std::string("gap_before_first"); });
    for (std::size_t i = 0; i < pam.animations.size(); ++i) {
      const std::size_t at = w.pos();
      for (std::size_t e = 0; e < pam.entries.size(); ++e) {
        if (pam.entries[e].animation == i) w.patch_u32(offset_at[e], static_cast<std::uint32_t>(at));
      }
      write_animation(w, pam.animations[i], "animation[" + std::to_string(i) + "].");
    }
    if (w.pos() > 0xFFFFFFFFu) w.fail("animation", "the container is larger than 32-bit offsets can address");
    return w.take();
  });
}

Result<Bytes> write_pam_anim_file(const PamAnimFile& f, WriteReport* report) {
  return guarded_write([&] {
    ByteWriter w(Endian::little, pam_animation_size(f.animation) + 2, report);
    write_animation(w, f.animation, "");
    return w.take();
  });
}

}  // namespace remodel
