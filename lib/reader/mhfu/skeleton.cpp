// Reads the MHFU skeleton: a 12-byte header, a parameter record, then one 0x10C-byte record per bone.
#include <algorithm>
#include <string>

#include "model/mhfu/skeleton.hpp"
#include "reader/cursor.hpp"

namespace remodel {

namespace {

constexpr std::size_t kBoneFieldsSize = 84;
constexpr std::size_t kBoneRecordSize = 0x10C;

MhfuBone read_bone(Cursor& c) {
  MhfuBone b;
  const std::size_t start = c.pos();
  b.tag = c.u32("tag");
  if ((b.tag & 0xF0000000) != 0x40000000) {
    c.fail_at(ErrorCode::bad_value, start, "tag", "is not a bone record tag (0x4000000n)");
  }
  b.unknown_0x04 = c.u32("unknown_0x04");
  const std::uint32_t size = c.u32("size");
  if (size < kBoneFieldsSize) {
    c.fail_at(ErrorCode::bad_value, start + 8, "size", "is " + std::to_string(size) + ", less than a bone's 84 bytes of fields");
  }
  b.index = c.i32("index");
  b.parent = c.i32("parent");
  b.child = c.i32("child");
  b.sibling = c.i32("sibling");
  for (float& v : b.scale) v = c.f32("scale");
  for (float& v : b.rotation) v = c.f32("rotation");
  for (float& v : b.position) v = c.f32("position");
  b.link = c.i32("link");
  b.chain_id = c.u32("chain_id");
  ByteSpan rest = c.span(size - kBoneFieldsSize, "reserved");
  const bool canonical = size == kBoneRecordSize && std::all_of(rest.begin(), rest.end(), [](std::uint8_t v) { return v == 0; });
  if (!canonical) b.stored_trailing = Verbatim(rest);
  return b;
}

}  // namespace

Result<MhfuSkeletonFile> read_mhfu_skeleton_file(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::little);
    MhfuSkeletonFile f;
    if (c.u32("magic") != kMhfuSkeletonMagic) c.fail_at(ErrorCode::bad_magic, 0, "magic", "is not 0xC0000000");
    const std::uint32_t count = c.u32("count");
    const std::uint32_t size = c.u32("size");
    if (count == 0) c.fail_at(ErrorCode::bad_value, 4, "count", "is 0, but the parameter record is always there");
    c.check_count(count - 1, kBoneFieldsSize, "count");
    {
      PathScope scope(c, "parameters");
      f.skeleton.parameter_tag = c.u32("tag");
      const std::uint32_t n = c.u32("count");
      const std::uint32_t record_size = c.u32("size");
      if (std::uint64_t{record_size} != 12 + 4 * std::uint64_t{n}) {
        c.fail_at(ErrorCode::bad_value, c.pos() - 4, "size", "is " + std::to_string(record_size) + " but " +
                                                                  std::to_string(n) + " values make " +
                                                                  std::to_string(12 + 4 * std::uint64_t{n}));
      }
      c.check_count(n, 4, "count");
      f.skeleton.parameters.resize(n);
      for (std::uint32_t& v : f.skeleton.parameters) v = c.u32("value");
    }
    f.skeleton.bones.reserve(count - 1);
    for (std::uint32_t i = 0; i + 1 < count; ++i) {
      PathScope scope(c, "bone", i);
      f.skeleton.bones.push_back(read_bone(c));
    }
    if (size != c.pos()) {
      c.fail_at(ErrorCode::bad_value, 8, "size", "is " + std::to_string(size) + " but the records end at " + std::to_string(c.pos()));
    }
    f.tail = c.tail("tail");
    return f;
  });
}

}  // namespace remodel
