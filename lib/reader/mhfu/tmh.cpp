// Reads TMH texture banks: ".TMH0.14", then per image a 16-byte header, a pixel block and an
// optional CLUT block, each block led by [size, kind, mode, ...].
#include <string>

#include "model/mhfu/tmh.hpp"
#include "reader/cursor.hpp"

namespace remodel {

namespace {

constexpr std::size_t kBlockHeaderSize = 16;

TmhImage read_image(Cursor& c) {
  TmhImage img;
  const std::size_t start = c.pos();
  const std::uint32_t entry_size = c.u32("entry_size");
  img.unknown_0x04 = c.u32("unknown_0x04");
  img.unknown_0x08 = c.u32("unknown_0x08");
  const std::uint32_t has_clut = c.u32("has_clut");
  if (has_clut > 1) c.fail_at(ErrorCode::bad_value, start + 12, "has_clut", "is " + std::to_string(has_clut) + ", not 0 or 1");
  const std::size_t pixels_at = c.pos();
  const std::uint32_t pixel_size = c.u32("pixels.size");
  img.pixel_kind = c.u32("pixels.kind");
  img.mode = c.u32("pixels.mode");
  img.width = c.u16("pixels.width");
  img.height = c.u16("pixels.height");
  if (pixel_size < kBlockHeaderSize) c.fail_at(ErrorCode::bad_value, pixels_at, "pixels.size", "is smaller than its 16-byte header");
  img.pixels = c.bytes(pixel_size - kBlockHeaderSize, "pixels");
  std::uint64_t clut_size = 0;
  if (has_clut == 1) {
    const std::size_t clut_at = c.pos();
    TmhClut clut;
    clut_size = c.u32("clut.size");
    clut.kind = c.u32("clut.kind");
    clut.mode = c.u32("clut.mode");
    clut.entry_count = c.u32("clut.entry_count");
    if (clut_size < kBlockHeaderSize) c.fail_at(ErrorCode::bad_value, clut_at, "clut.size", "is smaller than its 16-byte header");
    clut.data = c.bytes(clut_size - kBlockHeaderSize, "clut");
    img.clut = std::move(clut);
  }
  if (entry_size != kBlockHeaderSize + std::uint64_t{pixel_size} + clut_size) {
    c.fail_at(ErrorCode::bad_value, start, "entry_size",
              "is " + std::to_string(entry_size) + " but the header, pixels and CLUT make " +
                  std::to_string(kBlockHeaderSize + std::uint64_t{pixel_size} + clut_size));
  }
  return img;
}

}  // namespace

Result<TmhFile> read_tmh_file(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::little);
    TmhFile f;
    if (c.size() < 8 || std::memcmp(bytes.data(), ".TMH0.14", 8) != 0) {
      c.fail(ErrorCode::bad_magic, "magic", "does not start with \".TMH0.14\"");
    }
    c.skip(8, "magic");
    const std::uint32_t count = c.u32("image_count");
    f.tmh.unknown_0x0c = c.u32("unknown_0x0c");
    c.check_count(count, 2 * kBlockHeaderSize, "image_count");
    f.tmh.images.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      PathScope scope(c, "image", i);
      f.tmh.images.push_back(read_image(c));
    }
    f.tail = c.tail("tail");
    return f;
  });
}

}  // namespace remodel
