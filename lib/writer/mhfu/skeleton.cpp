// Writes the MHFU skeleton; the record count and every record size come from the structure.
#include <string>

#include "model/mhfu/skeleton.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

Result<Bytes> write_mhfu_skeleton_file(const MhfuSkeletonFile& f, WriteReport* report) {
  return guarded_write([&] {
    const MhfuSkeleton& s = f.skeleton;
    ByteWriter w(Endian::little, 28 + 4 * s.parameters.size() + 0x10C * s.bones.size() + f.tail.size(), report);
    w.mark([] { return std::string("header"); });
    w.u32(kMhfuSkeletonMagic);
    w.u32(static_cast<std::uint32_t>(1 + s.bones.size()));
    const std::size_t size_at = w.placeholder_u32();
    w.mark([] { return std::string("parameters"); });
    w.u32(s.parameter_tag);
    w.u32(static_cast<std::uint32_t>(s.parameters.size()));
    w.u32(static_cast<std::uint32_t>(12 + 4 * s.parameters.size()));
    for (std::uint32_t v : s.parameters) w.u32(v);
    for (std::size_t i = 0; i < s.bones.size(); ++i) {
      const MhfuBone& b = s.bones[i];
      w.mark([&] { return "bone[" + std::to_string(i) + "]"; });
      w.u32(b.tag);
      w.u32(b.unknown_0x04);
      w.u32(static_cast<std::uint32_t>(84 + (b.stored_trailing.stored() ? b.stored_trailing.size() : 184)));
      w.i32(b.index);
      w.i32(b.parent);
      w.i32(b.child);
      w.i32(b.sibling);
      for (float v : b.scale) w.f32(v);
      for (float v : b.rotation) w.f32(v);
      for (float v : b.position) w.f32(v);
      w.i32(b.link);
      w.u32(b.chain_id);
      if (!w.verbatim(b.stored_trailing, [&] { return "bone[" + std::to_string(i) + "].stored_trailing"; })) w.fill(184, 0);
    }
    w.patch_u32(size_at, static_cast<std::uint32_t>(w.pos()));
    w.tail(f.tail);
    return w.take();
  });
}

}  // namespace remodel
