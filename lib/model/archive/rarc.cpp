// What RARC's reader and writer share: names' hashes, node types, the string table's layout.
#include "model/archive/rarc.hpp"

#include <numeric>

namespace remodel {

std::uint16_t rarc_name_hash(std::string_view name) {
  std::uint16_t h = 0;
  for (char ch : name) h = static_cast<std::uint16_t>(h * 3 + static_cast<std::uint8_t>(ch));
  return h;
}

std::array<std::uint8_t, 4> rarc_node_type(std::string_view name, bool root) {
  if (root) return {'R', 'O', 'O', 'T'};
  std::array<std::uint8_t, 4> t{' ', ' ', ' ', ' '};
  for (std::size_t i = 0; i < 4 && i < name.size(); ++i) {
    const auto ch = static_cast<std::uint8_t>(name[i]);
    t[i] = ch >= 'a' && ch <= 'z' ? static_cast<std::uint8_t>(ch - 'a' + 'A') : ch;
  }
  return t;
}

std::vector<std::uint32_t> rarc_block_order(const Rarc& rarc) {
  if (!rarc.entry_blocks.empty()) return rarc.entry_blocks;
  std::vector<std::uint32_t> order(rarc.nodes.size());
  std::iota(order.begin(), order.end(), 0u);
  return order;
}

RarcStrings rarc_strings(const Rarc& rarc, RarcStringOrder order) {
  RarcStrings s;
  s.table.assign(".\0..\0", 5);
  s.node_offsets.assign(rarc.nodes.size(), 0);
  s.entry_offsets.resize(rarc.nodes.size());
  const auto add = [&](const std::string& name) {
    const auto at = static_cast<std::uint32_t>(s.table.size());
    s.table += name;
    s.table += '\0';
    return at;
  };
  const auto add_files = [&](std::size_t n) {
    const RarcNode& node = rarc.nodes[n];
    s.entry_offsets[n].assign(node.entries.size(), 0);
    for (std::size_t e = 0; e < node.entries.size(); ++e) {
      if (node.entries[e].kind == RarcEntryKind::file) s.entry_offsets[n][e] = add(node.entries[e].name);
    }
  };
  for (std::size_t n = 0; n < rarc.nodes.size(); ++n) {
    s.node_offsets[n] = add(rarc.nodes[n].name);
    if (order == RarcStringOrder::by_node) add_files(n);
  }
  if (order == RarcStringOrder::nodes_then_files) {
    for (std::uint32_t n : rarc_block_order(rarc)) {
      if (n < rarc.nodes.size()) add_files(n);
    }
  }
  // Directories share their node's name; "." and ".." the table's first two.
  for (std::size_t n = 0; n < rarc.nodes.size(); ++n) {
    for (std::size_t e = 0; e < rarc.nodes[n].entries.size(); ++e) {
      const RarcEntry& entry = rarc.nodes[n].entries[e];
      if (entry.kind == RarcEntryKind::dot) s.entry_offsets[n][e] = 0;
      if (entry.kind == RarcEntryKind::dot_dot) s.entry_offsets[n][e] = 2;
      if (entry.kind == RarcEntryKind::directory && entry.node < rarc.nodes.size()) s.entry_offsets[n][e] = s.node_offsets[entry.node];
    }
  }
  return s;
}

void add_info(const Rarc& doc, DocumentInfo& info) {
  for (const RarcNode& n : doc.nodes) {
    for (const RarcEntry& e : n.entries) info.entries += e.kind == RarcEntryKind::file;
  }
  info.sections += doc.nodes.size();
}

}  // namespace remodel
