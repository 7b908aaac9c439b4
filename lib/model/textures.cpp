// Texture access across containers: TIM2 (files, PMO, PMP), TMH (files, PAC) and J3D TEX1.
#include "model/textures.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "model/gx/texture.hpp"
#include "model/j3d/decode.hpp"
#include "model/j3d/mdl3.hpp"
#include "model/palette.hpp"
#include "model/psp/texture.hpp"

namespace remodel {

namespace {

std::vector<TextureRef> texture_refs(Document& doc) {
  TextureRefs out;
  std::visit([&](auto& d) {
    if (const FormatEntry& e = format_entry(format_of(doc)); e.textures != nullptr) e.textures(&d, out);
  }, doc);
  return out;
}

Error no_texture(std::size_t index, std::size_t count) {
  return Error{ErrorCode::bad_value, std::nullopt, "texture", "texture " + std::to_string(index) + " does not exist; the file has " + std::to_string(count)};
}

Error located(Error e, const std::string& where) {
  e.field = e.field.empty() ? where : where + "." + e.field;
  return e;
}

Result<std::vector<Rgba>> j3d_palette(const J3dTex1& tex1, const J3dTexture& t) {
  if (!gx_is_indexed(t.format)) return std::vector<Rgba>{};
  if (!t.palette_block || *t.palette_block >= tex1.blocks.size()) {
    return Error{ErrorCode::bad_value, std::nullopt, "palette_offset", "an indexed texture has no palette"};
  }
  return decode_gx_palette(tex1.blocks[*t.palette_block].data, t.palette_format, t.palette_count);
}

// Maps pixels to the nearest palette colour (mip levels below a newly quantised level 0).
std::vector<std::uint16_t> nearest_indices(const RgbaImage& image, const std::vector<Rgba>& palette) {
  std::vector<std::uint16_t> out(std::size_t{image.width} * image.height);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint8_t* p = &image.rgba[i * 4];
    int best = -1;
    std::uint16_t best_index = 0;
    for (std::size_t k = 0; k < palette.size(); ++k) {
      int d = 0;
      for (int c = 0; c < 4; ++c) d += (p[c] - palette[k][c]) * (p[c] - palette[k][c]);
      if (best < 0 || d < best) best = d, best_index = static_cast<std::uint16_t>(k);
    }
    out[i] = best_index;
  }
  return out;
}

}  // namespace

Result<RgbaImage> decode_j3d_texture(const J3dTex1& tex1, std::size_t index, unsigned level) {
  if (index >= tex1.textures.size()) return no_texture(index, tex1.textures.size());
  const J3dTexture& t = tex1.textures[index];
  if (t.image_block >= tex1.blocks.size()) return Error{ErrorCode::bad_value, std::nullopt, "image_offset", "the image block does not exist"};
  if (level >= std::max<unsigned>(t.mip_count, 1)) return Error{ErrorCode::bad_value, std::nullopt, "mip_count", "the texture has no level " + std::to_string(level)};
  // gx_level_extent never goes below 1, so a stored 0 is refused here, before it becomes 1 wide.
  if (t.width == 0 || t.height == 0) return Error{ErrorCode::bad_value, std::nullopt, "width", "a texture of 0 texels cannot be decoded"};
  auto palette = j3d_palette(tex1, t);
  if (!palette) return palette.error();
  const ByteSpan data = ByteSpan(tex1.blocks[t.image_block].data).subspan(
      std::min(tex1.blocks[t.image_block].data.size(), gx_level_offset(t.format, t.width, t.height, level)));
  return decode_gx_image(t.format, gx_level_extent(t.width, level), gx_level_extent(t.height, level), data, *palette);
}

std::optional<Error> replace_j3d_texture(J3dTex1& tex1, std::size_t index, const RgbaImage& image) {
  if (index >= tex1.textures.size()) return no_texture(index, tex1.textures.size());
  J3dTexture& t = tex1.textures[index];
  const bool same_size = image.width == t.width && image.height == t.height;
  // The limits bind a new size; a texture already in the file re-encodes at its own.
  if (!same_size && (image.width == 0 || image.height == 0 || image.width > 1024 || image.height > 1024)) {
    return Error{ErrorCode::bad_value, std::nullopt, "width",
                 "GX textures are 1 to 1024 texels a side; this image is " + std::to_string(image.width) + "x" + std::to_string(image.height)};
  }
  if (gx_tile(t.format).width == 0) return Error{ErrorCode::unsupported, std::nullopt, "format", "GX texture format " + std::to_string(t.format) + " is not known"};
  if (t.image_block >= tex1.blocks.size()) return Error{ErrorCode::bad_value, std::nullopt, "image_offset", "the image block does not exist"};
  for (std::size_t j = 0; j < tex1.textures.size(); ++j) {
    if (j != index && tex1.textures[j].image_block == t.image_block && !same_size) {
      return Error{ErrorCode::unsupported, std::nullopt, "image_offset",
                   "texture " + std::to_string(j) + " shares this image; resizing one of them is not supported"};
    }
  }
  // An unchanged top level keeps the whole texture, the file's own lower levels included.
  if (same_size) {
    auto before = decode_j3d_texture(tex1, index);
    if (before.ok() && before.value() == image) return std::nullopt;
  }
  const auto width = static_cast<std::uint16_t>(image.width), height = static_cast<std::uint16_t>(image.height);
  // Mip levels stop at 1x1.
  const unsigned max_levels = static_cast<unsigned>(std::bit_width(std::max<unsigned>(width, height)));
  // A file's own level count stands at its own size, even past 1x1; a new size stops at 1x1.
  const unsigned levels = same_size ? std::max<unsigned>(t.mip_count, 1) : std::min<unsigned>(std::max<unsigned>(t.mip_count, 1), max_levels);
  const Bytes& old = tex1.blocks[t.image_block].data;
  auto palette = j3d_palette(tex1, t);
  if (!palette) return palette.error();
  std::optional<std::vector<Rgba>> new_palette;
  Bytes data;
  RgbaImage level_image = image;
  for (unsigned level = 0; level < levels; ++level) {
    if (level > 0) level_image = downsample_half(level_image);
    const std::size_t at = gx_level_offset(t.format, width, height, level);
    const ByteSpan reference = same_size && at <= old.size() ? ByteSpan(old).subspan(at) : ByteSpan();
    if (!gx_is_indexed(t.format)) {
      const Bytes bytes = encode_gx_image(t.format, level_image, reference);
      data.insert(data.end(), bytes.begin(), bytes.end());
      continue;
    }
    const auto lw = static_cast<std::uint16_t>(level_image.width), lh = static_cast<std::uint16_t>(level_image.height);
    std::vector<std::uint16_t> before;
    if (!reference.empty()) {
      auto decoded = decode_gx_indices(t.format, lw, lh, reference);
      if (decoded) before = std::move(decoded.value());
    }
    auto indices = new_palette ? std::nullopt : fit_palette(level_image, *palette, before.empty() ? nullptr : &before);
    if (!indices && level == 0) {
      const std::size_t capacity = std::min<std::size_t>(t.palette_count, gx_palette_capacity(t.format));
      if (capacity == 0) return Error{ErrorCode::bad_value, std::nullopt, "palette_count", "the palette has no entries to encode into"};
      for (std::size_t j = 0; j < tex1.textures.size(); ++j) {
        if (j != index && tex1.textures[j].palette_block == t.palette_block) {
          return Error{ErrorCode::unsupported, std::nullopt, "palette_offset",
                       "the image needs new palette colours but texture " + std::to_string(j) + " shares this palette"};
        }
      }
      const std::uint8_t format = t.palette_format;
      auto quantized = quantize_image(level_image, std::min<std::size_t>(capacity, 256), format == gx_palette_rgb565 ? 2 : format == gx_palette_rgb5a3 ? 3 : 0,
                                      [format](Rgba c) { return gx_palette_representable(c, format); });
      if (!quantized) return quantized.error();
      new_palette = std::move(quantized->palette);
      indices = std::move(quantized->indices);
    } else if (!indices) {
      indices = nearest_indices(level_image, new_palette ? *new_palette : *palette);
    }
    const Bytes bytes = encode_gx_indices(t.format, lw, lh, *indices, new_palette ? ByteSpan() : reference);
    data.insert(data.end(), bytes.begin(), bytes.end());
  }
  if (same_size && old.size() > data.size()) data.insert(data.end(), old.begin() + static_cast<std::ptrdiff_t>(data.size()), old.end());
  if (new_palette) {
    Bytes& stored = tex1.blocks[*t.palette_block].data;
    const Bytes entries = encode_gx_palette(*new_palette, t.palette_format);
    std::fill(stored.begin(), stored.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(stored.size(), t.palette_count * std::size_t{2})), 0);
    std::copy_n(entries.begin(), std::min(entries.size(), stored.size()), stored.begin());
  }
  tex1.blocks[t.image_block].data = std::move(data);
  t.width = width;
  t.height = height;
  if (levels != std::max<unsigned>(t.mip_count, 1)) t.mip_count = static_cast<std::uint8_t>(levels);  // a stored 0 means 1: kept
  return std::nullopt;
}

std::vector<TextureInfo> list_textures(const Document& doc) {
  std::vector<TextureInfo> out;
  for (const TextureRef& r : texture_refs(const_cast<Document&>(doc))) {
    TextureInfo info;
    info.name = r.name;
    info.where = r.where;
    if (r.tim2 != nullptr) {
      info.format = tim2_format_name(*r.tim2);
      info.width = r.tim2->width, info.height = r.tim2->height, info.levels = r.tim2->mipmap_count;
    } else if (r.tmh != nullptr) {
      info.format = tmh_format_name(*r.tmh);
      info.width = r.tmh->width, info.height = r.tmh->height;
    } else {
      const J3dTexture& t = r.tex1->textures[r.tex1_index];
      info.format = gx_format_name(t.format);
      if (gx_is_indexed(t.format)) info.format += std::string("/") + gx_palette_format_name(t.palette_format);
      info.width = t.width, info.height = t.height, info.levels = std::max<unsigned>(t.mip_count, 1);
      static const char* const wraps[3] = {"clamp", "repeat", "mirror"};
      static const char* const filters[6] = {"near", "linear", "near-mip-near", "linear-mip-near", "near-mip-linear", "linear-mip-linear"};
      const auto name = [](const char* const* names, std::size_t count, std::uint8_t v) { return v < count ? std::string(names[v]) : std::to_string(v); };
      info.sampling = name(wraps, 3, t.wrap_s) + "/" + name(wraps, 3, t.wrap_t) + " " + name(filters, 6, t.min_filter) + "/" + name(filters, 6, t.mag_filter);
    }
    out.push_back(std::move(info));
  }
  return out;
}

Result<RgbaImage> decode_texture(const Document& doc, std::size_t index) {
  const std::vector<TextureRef> refs = texture_refs(const_cast<Document&>(doc));
  if (index >= refs.size()) return no_texture(index, refs.size());
  const TextureRef& r = refs[index];
  Result<RgbaImage> image = r.tim2 != nullptr ? decode_tim2_picture(*r.tim2)
                            : r.tmh != nullptr ? decode_tmh_image(*r.tmh)
                                               : decode_j3d_texture(*r.tex1, r.tex1_index);
  if (!image) return located(image.error(), r.where);
  return image;
}

std::optional<Error> replace_texture(Document& doc, std::size_t index, const RgbaImage& image) {
  const std::vector<TextureRef> refs = texture_refs(doc);
  if (index >= refs.size()) return no_texture(index, refs.size());
  const TextureRef& r = refs[index];
  const std::optional<J3dTexture> before = r.tex1 != nullptr ? std::optional(r.tex1->textures[r.tex1_index]) : std::nullopt;
  std::optional<Error> error = r.tim2 != nullptr ? encode_tim2_picture(*r.tim2, image)
                               : r.tmh != nullptr ? encode_tmh_image(*r.tmh, image)
                                                  : replace_j3d_texture(*r.tex1, r.tex1_index, image);
  if (error) return located(*error, r.where);
  if (auto* j3d = std::get_if<J3dFile>(&doc)) {  // a BDL's MDL3 repeats the texture's size
    J3dMdl3* mdl = j3d_section<J3dMdl3>(*j3d);
    const J3dMat3* mat = j3d_section<J3dMat3>(*j3d);
    if (mdl != nullptr && mat != nullptr && before) {
      if (auto e = j3d_mdl3_follow_texture(*mdl, *mat, *r.tex1, r.tex1_index, *before)) return located(*e, r.where);
    }
  }
  return std::nullopt;
}

std::optional<std::size_t> find_texture(const Document& doc, const std::string& key) {
  const std::vector<TextureInfo> list = list_textures(doc);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].name == key) return i;
  }
  if (!key.empty() && key.size() < 10 && std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const std::size_t i = std::stoul(key);
    if (i < list.size()) return i;
  }
  return std::nullopt;
}

}  // namespace remodel
