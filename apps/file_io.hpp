// Loading an input and printing an error line, shared by the commands.
#pragma once

#include <filesystem>

#include "model/document.hpp"
#include "model/file_io.hpp"

namespace remodel::cli {

void print_error(const std::filesystem::path& path, const Error& e);
Result<Document> load(const std::filesystem::path& path, Bytes& bytes);

}  // namespace remodel::cli
