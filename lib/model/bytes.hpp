// Byte buffers shared by every layer.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace remodel {

using Bytes = std::vector<std::uint8_t>;
using ByteSpan = std::span<const std::uint8_t>;

enum class Endian { little, big };

}  // namespace remodel
