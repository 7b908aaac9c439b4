// glTF's accessor component types and buffer view targets, by their GL codes: what the reader and
// the writer share. Internal to lib/gltf.
#pragma once

namespace remodel::gltf::detail {

constexpr int kByte = 5120, kUnsignedByte = 5121, kShort = 5122, kUnsignedShort = 5123, kUnsignedInt = 5125, kFloat = 5126;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;

}  // namespace remodel::gltf::detail
