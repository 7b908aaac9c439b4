// J3D TEX1 textures: GX images decoded and re-encoded in their own formats, and the codec that
// numbers a file's TEX1 textures for list_textures, decode_texture and replace_texture.
#include "model/j3d/texture.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <utility>

#include "model/gx/texture.hpp"
#include "model/j3d/decode.hpp"
#include "model/j3d/mdl3.hpp"
#include "model/palette.hpp"
#include "model/texture_codec.hpp"

namespace remodel {

namespace {

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

// A ref's index counts on through the TEX1 sections in file order; this is the section holding it.
const J3dTex1* tex1_holding(const J3dFile& file, std::size_t& index) {
  for (const J3dSection& s : file.sections) {
    const auto* tex1 = std::get_if<J3dTex1>(&s);
    if (tex1 == nullptr) continue;
    if (index < tex1->textures.size()) return tex1;
    index -= tex1->textures.size();
  }
  return nullptr;
}
J3dTex1* tex1_holding(J3dFile& file, std::size_t& index) { return const_cast<J3dTex1*>(tex1_holding(std::as_const(file), index)); }

void tex1_info(const J3dFile& file, std::size_t index, TextureInfo& info) {
  const J3dTexture& t = tex1_holding(file, index)->textures[index];
  info.format = gx_format_name(t.format);
  if (gx_is_indexed(t.format)) info.format += std::string("/") + gx_palette_format_name(t.palette_format);
  info.width = t.width, info.height = t.height, info.levels = std::max<unsigned>(t.mip_count, 1);
  static const char* const wraps[3] = {"clamp", "repeat", "mirror"};
  static const char* const filters[6] = {"near", "linear", "near-mip-near", "linear-mip-near", "near-mip-linear", "linear-mip-linear"};
  const auto name = [](const char* const* names, std::size_t count, std::uint8_t v) { return v < count ? std::string(names[v]) : std::to_string(v); };
  info.sampling = name(wraps, 3, t.wrap_s) + "/" + name(wraps, 3, t.wrap_t) + " " + name(filters, 6, t.min_filter) + "/" + name(filters, 6, t.mag_filter);
}

Result<RgbaImage> decode_tex1_texture(const J3dFile& file, std::size_t index) {
  const J3dTex1* tex1 = tex1_holding(file, index);
  return decode_j3d_texture(*tex1, index);
}

// A BDL's MDL3 repeats the texture's size, so it follows the replaced texture.
Result<void> replace_tex1_texture(J3dFile& file, std::size_t index, const RgbaImage& image) {
  J3dTex1& tex1 = *tex1_holding(file, index);
  const J3dTexture before = tex1.textures[index];
  if (auto replaced = replace_j3d_texture(tex1, index, image); !replaced) return replaced;
  J3dMdl3* mdl = j3d_section<J3dMdl3>(file);
  const J3dMat3* mat = j3d_section<J3dMat3>(file);
  if (mdl != nullptr && mat != nullptr) {
    if (auto followed = j3d_mdl3_follow_texture(*mdl, *mat, tex1, index, before); !followed) return followed.error();
  }
  return {};
}

// A ref's handle is the J3dFile, its index the texture's number across the file's TEX1 sections.
constexpr TextureCodec kTex1Codec = texture_codec<J3dFile, tex1_info, decode_tex1_texture, replace_tex1_texture>();

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

Result<void> replace_j3d_texture(J3dTex1& tex1, std::size_t index, const RgbaImage& image) {
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
  // An unchanged top level keeps the whole texture, the file's own lower levels included.
  if (same_size) {
    auto before = decode_j3d_texture(tex1, index);
    if (before.ok() && before.value() == image) return {};
  }
  // A resized texture whose image another entry shares, or one needing palette colours another entry
  // shares, gets its own copy, so the other entry keeps its size and texels; at its size a shared image
  // changes for every entry that shows it (one picture with two samplers).
  const auto own_block = [&](std::uint32_t block) {
    for (std::size_t j = 0; j < tex1.textures.size(); ++j) {
      const J3dTexture& o = tex1.textures[j];
      if (j != index && (o.image_block == block || (gx_is_indexed(o.format) && o.palette_block == block))) {
        tex1.blocks.push_back({tex1.blocks[block].data, {}});
        return static_cast<std::uint32_t>(tex1.blocks.size() - 1);
      }
    }
    return block;
  };
  if (!same_size) t.image_block = own_block(t.image_block);
  const auto width = static_cast<std::uint16_t>(image.width), height = static_cast<std::uint16_t>(image.height);
  // Mip levels stop at 1x1.
  const unsigned max_levels = static_cast<unsigned>(std::bit_width(std::max<unsigned>(width, height)));
  // A file's own level count stands at its own size, even past 1x1; a new size stops at 1x1.
  const unsigned levels = same_size ? std::max<unsigned>(t.mip_count, 1) : std::min<unsigned>(std::max<unsigned>(t.mip_count, 1), max_levels);
  const Bytes old = tex1.blocks[t.image_block].data;  // a copy: a palette split below appends to blocks
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
      t.palette_block = own_block(*t.palette_block);  // j3d_palette checked it exists
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
  return {};
}

void add_textures(J3dFile& file, TextureRefs& out) {
  std::size_t number = 0;
  for (const J3dSection& s : file.sections) {
    const auto* tex1 = std::get_if<J3dTex1>(&s);
    if (tex1 == nullptr) continue;
    for (std::size_t i = 0; i < tex1->textures.size(); ++i) {
      TextureRef r;
      r.name = i < tex1->names.names.size() ? tex1->names.names[i] : "texture" + std::to_string(i);
      r.where = "TEX1.texture[" + std::to_string(i) + "]";
      r.codec = &kTex1Codec;
      r.texture = &file;
      r.index = number++;
      out.push_back(std::move(r));
    }
  }
}

}  // namespace remodel
