#include "model/archive/members.hpp"

#include <utility>

namespace remodel {

std::vector<RarcPath> rarc_paths(const Rarc& rarc) {
  std::vector<RarcPath> out;
  if (rarc.nodes.empty()) return out;
  struct Open {
    std::uint32_t node;
    std::size_t next;
    std::string prefix;
  };
  std::vector<bool> walked(rarc.nodes.size(), false);
  walked[0] = true;
  std::vector<Open> stack{{0, 0, ""}};
  while (!stack.empty()) {
    Open& top = stack.back();
    const RarcNode& node = rarc.nodes[top.node];
    if (top.next == node.entries.size()) {
      stack.pop_back();
      continue;
    }
    const auto e = static_cast<std::uint32_t>(top.next++);
    const RarcEntry& entry = node.entries[e];
    if (entry.kind == RarcEntryKind::dot || entry.kind == RarcEntryKind::dot_dot) continue;
    RarcPath p{top.prefix + entry.name, top.node, e, entry.kind == RarcEntryKind::directory};
    out.push_back(p);
    // A node is walked once, whatever a Document built by hand links to it.
    if (p.directory && entry.node < rarc.nodes.size() && !walked[entry.node]) {
      walked[entry.node] = true;
      stack.push_back({entry.node, 0, p.path + "/"});
    }
  }
  return out;
}

RarcEntry* find_member(Rarc& rarc, std::string_view path) {
  for (const RarcPath& p : rarc_paths(rarc)) {
    if (!p.directory && p.path == path) return &rarc.nodes[p.node].entries[p.entry];
  }
  return nullptr;
}

const RarcEntry* find_member(const Rarc& rarc, std::string_view path) {
  return find_member(const_cast<Rarc&>(rarc), path);
}

Result<RarcEntry*> member_at(Rarc& rarc, std::string_view path) {
  RarcEntry* entry = find_member(rarc, path);
  if (entry == nullptr) return Error{ErrorCode::bad_value, std::nullopt, "member", "the archive holds no file " + std::string(path) + " (`remodel ls` lists them)"};
  return entry;
}

bool safe_member_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name.find_first_of(std::string_view("/\\\0", 3)) == std::string_view::npos;
}

Result<Archive> open_archive(ByteSpan bytes) try {
  Archive a;
  ByteSpan rarc = bytes;
  if (bytes.size() >= 4 && std::string_view(reinterpret_cast<const char*>(bytes.data()), 4) == "Yaz0") {
    Result<Yaz0File> y = read_yaz0(bytes);
    if (!y) return y.error();
    a.yaz0 = std::move(*y);
    rarc = a.yaz0->data;
  }
  Result<Rarc> r = read_rarc(rarc);
  if (!r) {
    Error e = r.error();
    if (a.yaz0) e.field = "yaz0.data." + e.field;  // offsets are the decompressed bytes'
    return e;
  }
  a.rarc = std::move(*r);
  if (a.yaz0) a.yaz0->data.clear();  // the RARC's bytes are written again from the Document
  return a;
} catch (...) {
  return caught_allocation_failure();
}

Result<Bytes> write_archive(const Archive& a) try {
  Result<Bytes> rarc = write_rarc(a.rarc);
  if (!rarc || !a.yaz0) return rarc;
  Yaz0File y = *a.yaz0;
  y.data = std::move(*rarc);
  return write_yaz0(y);
} catch (...) {
  return caught_allocation_failure();
}

}  // namespace remodel
