// Files inside an archive, addressed by their path below the root ("bdl/cl.bdl"), and an archive
// opened whole: a RARC, or a Yaz0 file holding one, written back compressed as it came.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/archive/rarc.hpp"
#include "model/archive/yaz0.hpp"

namespace remodel {

struct RarcPath {
  std::string path;  // below the root, '/' between names
  std::uint32_t node = 0, entry = 0;
  bool directory = false;
};

// Every file and directory below the root, depth first in stored entry order (walked with a stack,
// never deeper than the nodes there are).
std::vector<RarcPath> rarc_paths(const Rarc& rarc);
// The file at `path`; nullptr when none.
const RarcEntry* find_member(const Rarc& rarc, std::string_view path);
RarcEntry* find_member(Rarc& rarc, std::string_view path);
// The file at `path`, or an Error naming it (field "member").
Result<RarcEntry*> member_at(Rarc& rarc, std::string_view path);
// A name a folder on disk can hold: not empty, ".", "..", nor holding '/', '\\' or NUL.
bool safe_member_name(std::string_view name);

struct Archive {
  Rarc rarc;
  std::optional<Yaz0File> yaz0;  // the compression around it, kept to compress again
};

// Reads a RARC, or a Yaz0 file whose content is one.
Result<Archive> open_archive(ByteSpan bytes);
// The RARC's bytes, in Yaz0 again when it came so (an unchanged archive gives the same bytes back).
Result<Bytes> write_archive(const Archive& archive);

}  // namespace remodel
