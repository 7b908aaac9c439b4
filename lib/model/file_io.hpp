// Whole-file reads and crash-safe writes, for the CLI and any program using the library.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "model/bytes.hpp"
#include "model/error.hpp"

namespace remodel {

// The largest file read_file takes (1 GiB: far above any model, far below what a batch can hold).
constexpr std::uint64_t kMaxFileSize = std::uint64_t{1} << 30;

// Reads a whole regular file; directories, FIFOs, sockets and devices are refused without blocking,
// and the size comes from the file system and is checked before anything is allocated.
Result<Bytes> read_file(const std::filesystem::path& path);

// Writes data to a new uniquely named file in the target's directory, fsyncs it, gives it the
// target's owner and permissions and renames it over the target (through a symlink to the file it
// names), so a failed write leaves the original as it was and a crash leaves the old file or the new
// one. Refused: a target whose owner the process cannot keep (another user's), a symlink loop, and
// data past kMaxFileSize (remodel writes only what it reads back).
[[nodiscard]] Result<void> write_file_atomic(const std::filesystem::path& path, ByteSpan data);

}  // namespace remodel
