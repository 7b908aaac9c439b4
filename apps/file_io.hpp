// File access shared by the commands: whole-file reads, atomic writes, error lines.
#pragma once

#include <filesystem>
#include <optional>

#include "model/document.hpp"

namespace remodel::cli {

Result<Bytes> read_file(const std::filesystem::path& path);
// Writes beside the target and renames over it, so a failed write never leaves a damaged file.
std::optional<Error> write_file_atomic(const std::filesystem::path& path, ByteSpan data);
void print_error(const std::filesystem::path& path, const Error& e);
Result<Document> load(const std::filesystem::path& path, Bytes& bytes);

}  // namespace remodel::cli
