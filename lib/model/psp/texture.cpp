// TIM2 and TMH pixel layouts, shared by the texture decoder and encoder.
#include "model/psp/texture.hpp"

namespace remodel {

namespace {

Error unsupported(const char* field, const std::string& what) { return Error{ErrorCode::unsupported, std::nullopt, field, what}; }

}  // namespace

Result<PspLayout> tim2_layout(const Tim2Picture& p, std::uint16_t width, std::uint16_t height) {
  PspLayout l;
  switch (p.image_type) {
    case 1: l.colour = PspColour::c5551, l.bits = 16; break;
    case 2: l.colour = PspColour::c888, l.bits = 24; break;
    case 3: l.colour = PspColour::c8888, l.bits = 32; break;
    case 4: l.indexed = true, l.bits = 4; break;
    case 5: l.indexed = true, l.bits = 8; break;
    default: return unsupported("image_type", "TIM2 image type " + std::to_string(p.image_type) + " is not 16/24/32-bit colour or 4/8-bit indexed");
  }
  if (l.indexed) {
    switch (p.clut_type & 0x3F) {
      case 1: l.clut_colour = PspColour::c5551; break;
      case 2: l.clut_colour = PspColour::c888; break;
      case 3: l.clut_colour = PspColour::c8888; break;
      default: return unsupported("clut_type", "TIM2 CLUT type " + std::to_string(p.clut_type) + " is not 16, 24 or 32-bit");
    }
    l.csm1 = l.bits == 8 && (p.clut_type & 0x80) == 0;
    l.clut_entries = p.clut_colors;
  }
  l.stride = (std::size_t{width} * l.bits + 7) / 8;
  l.rows = height;
  return l;
}

Result<PspLayout> tmh_layout(const TmhImage& t, std::uint16_t width, std::uint16_t height) {
  PspLayout l;
  l.swizzled = true;
  if (t.mode <= 3) {
    l.colour = static_cast<PspColour>(t.mode);
    l.bits = t.mode == 3 ? 32 : 16;
  } else if (t.mode == 4 || t.mode == 5) {
    l.indexed = true;
    l.bits = t.mode == 4 ? 4 : 8;
    if (!t.clut) return Error{ErrorCode::bad_value, std::nullopt, "clut", "a CLUT" + std::to_string(l.bits) + " image has no palette"};
    if (t.clut->mode > 3) return unsupported("clut.mode", "TMH palette mode " + std::to_string(t.clut->mode) + " is not 5650, 5551, 4444 or 8888");
    l.clut_colour = static_cast<PspColour>(t.clut->mode);
    l.clut_entries = t.clut->entry_count;
  } else {
    return unsupported("mode", "TMH pixel mode " + std::to_string(t.mode) + " is not 5650, 5551, 4444, 8888, CLUT4 or CLUT8");
  }
  // The GE swizzles in blocks of 16 bytes by 8 rows; narrower or shorter images are padded to them.
  l.stride = ((std::size_t{width} * l.bits + 7) / 8 + 15) / 16 * 16;
  l.rows = (std::size_t{height} + 7) / 8 * 8;
  return l;
}

std::string tim2_format_name(const Tim2Picture& p) {
  static const char* const names[6] = {"?", "RGBA5551", "RGB888", "RGBA8888", "CLUT4", "CLUT8"};
  std::string name = p.image_type < 6 ? names[p.image_type] : "unknown";
  if (p.image_type >= 4) name += (p.clut_type & 0x3F) == 1 ? "/RGBA5551" : (p.clut_type & 0x3F) == 2 ? "/RGB888" : "/RGBA8888";
  return name;
}

std::string tmh_format_name(const TmhImage& t) {
  static const char* const colours[4] = {"RGB5650", "RGBA5551", "RGBA4444", "RGBA8888"};
  if (t.mode <= 3) return colours[t.mode];
  std::string name = t.mode == 4 ? "CLUT4" : t.mode == 5 ? "CLUT8" : "unknown";
  if (t.clut && t.clut->mode <= 3) name += std::string("/") + colours[t.clut->mode];
  return name;
}

}  // namespace remodel
