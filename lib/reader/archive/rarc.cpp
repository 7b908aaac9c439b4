// Reads RARC: header, info block, nodes, entries, string table, data, each section after the last.
// The directory tree is checked without recursion: every node but the root is opened by exactly one
// directory entry of a node reached from the root, so cycles and shared nodes are refused.
#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

#include "model/archive/rarc.hpp"
#include "reader/cursor.hpp"

namespace remodel {

namespace {

constexpr std::uint32_t kNoParent = 0xFFFFFFFF;
constexpr std::uint32_t kDirectorySize = 0x10;

struct StoredEntry {
  std::size_t at = 0;
  std::uint16_t hash = 0, name_offset = 0;
  std::uint32_t data = 0, size = 0;
};

// The bytes up to `target`: none when they are zeros to the next multiple of 32 from `base`,
// otherwise kept (an empty run too, where the structure would have padded).
Verbatim gap_to(Cursor& c, std::uint64_t target, std::size_t base, const char* field) {
  if (target < c.pos()) c.fail_at(ErrorCode::bad_offset, target, field, "points back inside the section before it");
  if ((target - base) % 32 == 0) return c.gap(target, 32, base, 0, field);
  return Verbatim(c.span(target - c.pos(), field));
}

// The names read, each its own string: their total stays within twice the table and "." and ".." of
// every node (a directory shares its node's name), so names pointing at one long string are refused.
class Names {
 public:
  Names(const Cursor& c, ByteSpan strings, std::size_t at, std::size_t nodes)
      : c_(c), strings_(strings), at_(at), budget_(2 * std::uint64_t{strings.size()} + 3 * std::uint64_t{nodes}) {}

  std::string at(std::uint32_t offset, std::size_t field_at) {
    if (offset >= strings_.size()) c_.fail_at(ErrorCode::bad_offset, field_at, "name_offset", "points past the string table");
    const auto* begin = strings_.data() + offset;
    const auto* end = std::find(begin, strings_.data() + strings_.size(), 0);
    if (end == strings_.data() + strings_.size()) c_.fail_at(ErrorCode::bad_value, at_ + offset, "name", "runs past the string table without a terminator");
    const auto length = static_cast<std::uint64_t>(end - begin);
    if (length > budget_) c_.fail_at(ErrorCode::bad_value, field_at, "name_offset", "names the table's strings over and over, more than its nodes and files can");
    budget_ -= length;
    return std::string(begin, end);
  }

 private:
  const Cursor& c_;
  ByteSpan strings_;
  std::size_t at_;
  std::uint64_t budget_;
};

}  // namespace

Result<Rarc> read_rarc(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::big);
    Rarc r;
    if (!c.has_magic(0, "RARC")) c.fail_at(ErrorCode::bad_magic, 0, "magic", "is not RARC");
    c.skip(4, "magic");
    const std::uint32_t file_size = c.u32("file_size");
    if (c.u32("header_size") != kRarcHeaderSize) c.fail_at(ErrorCode::unsupported, 8, "header_size", "is not 0x20, the only header RARC has");
    const std::uint64_t data_at = kRarcHeaderSize + std::uint64_t{c.u32("data_offset")};
    const std::uint32_t data_size = c.u32("data_size");
    const std::uint32_t mram = c.u32("mram_size"), aram = c.u32("aram_size"), dvd = c.u32("dvd_size");
    const std::uint32_t node_count = c.u32("info.node_count");
    const std::uint64_t nodes_at = kRarcHeaderSize + std::uint64_t{c.u32("info.node_offset")};
    const std::uint32_t entry_count = c.u32("info.entry_count");
    const std::uint64_t entries_at = kRarcHeaderSize + std::uint64_t{c.u32("info.entry_offset")};
    const std::uint32_t strings_size = c.u32("info.string_table_size");
    const std::uint64_t strings_at = kRarcHeaderSize + std::uint64_t{c.u32("info.string_table_offset")};
    const std::uint16_t next_id = c.u16("info.next_id");
    r.synced_ids = c.u8("info.synced_ids");
    if (ByteSpan reserved = c.span(5, "info.reserved"); std::any_of(reserved.begin(), reserved.end(), [](std::uint8_t b) { return b != 0; })) {
      r.info_reserved = Verbatim(reserved);
    }
    if (node_count == 0) c.fail_at(ErrorCode::bad_count, 0x20, "info.node_count", "is 0, but an archive has its root node");
    c.check_count(node_count, kRarcNodeSize, "info.node_count");
    c.check_count(entry_count, kRarcEntrySize, "info.entry_count");

    r.after_info = gap_to(c, nodes_at, 0, "info.node_offset");
    struct StoredNode {
      std::size_t at;
      std::array<std::uint8_t, 4> type;
      std::uint32_t name_offset;
      std::uint16_t hash, count;
      std::uint32_t first;
    };
    std::vector<StoredNode> nodes(node_count);
    for (std::uint32_t i = 0; i < node_count; ++i) {
      PathScope scope(c, "node", i);
      StoredNode& n = nodes[i];
      n.at = c.pos();
      n.type = c.array<4>("type");
      n.name_offset = c.u32("name_offset");
      n.hash = c.u16("hash");
      n.count = c.u16("entry_count");
      n.first = c.u32("first_entry");
      if (std::uint64_t{n.first} + n.count > entry_count) {
        c.fail_at(ErrorCode::bad_offset, n.at + 12, "first_entry", "with its " + std::to_string(n.count) + " entries runs past the " + std::to_string(entry_count) + " entries");
      }
    }
    // Entry blocks tile the entry table, in an order of their own.
    std::vector<std::uint32_t> blocks(node_count);
    std::iota(blocks.begin(), blocks.end(), 0u);
    // Ties broken by index (std::sort: stable_sort's buffer would hide an allocation failure).
    std::sort(blocks.begin(), blocks.end(), [&](std::uint32_t a, std::uint32_t b) { return std::pair(nodes[a].first, a) < std::pair(nodes[b].first, b); });
    std::uint64_t next = 0;
    for (std::uint32_t n : blocks) {
      if (nodes[n].first != next) c.fail_at(ErrorCode::bad_offset, nodes[n].at + 12, "first_entry", "leaves a gap in or overlaps another node's entries");
      next += nodes[n].count;
    }
    if (next != entry_count) c.fail_at(ErrorCode::bad_count, 0x28, "info.entry_count", "is not the sum of the nodes' entry counts");
    if (!std::is_sorted(blocks.begin(), blocks.end())) r.entry_blocks = blocks;

    r.after_nodes = gap_to(c, entries_at, 0, "info.entry_offset");
    std::vector<StoredEntry> stored(entry_count);
    r.nodes.resize(node_count);
    std::vector<RarcEntry*> by_index(entry_count);
    for (std::uint32_t n : blocks) {
      r.nodes[n].entries.resize(nodes[n].count);
      for (std::uint32_t k = 0; k < nodes[n].count; ++k) by_index[nodes[n].first + k] = &r.nodes[n].entries[k];
    }
    for (std::uint32_t i = 0; i < entry_count; ++i) {
      PathScope scope(c, "entry", i);
      StoredEntry& s = stored[i];
      RarcEntry& e = *by_index[i];
      s.at = c.pos();
      e.id = c.u16("id");
      s.hash = c.u16("hash");
      e.flags = c.u8("flags");
      e.unknown_0x05 = c.u8("unknown_0x05");
      s.name_offset = c.u16("name_offset");
      s.data = c.u32("data_offset");
      s.size = c.u32("data_size");
      e.unknown_0x10 = c.u32("unknown_0x10");
    }

    r.after_entries = gap_to(c, strings_at, 0, "info.string_table_offset");
    const std::size_t strings_pos = c.pos();
    const ByteSpan strings = c.span(strings_size, "string_table");
    Names names(c, strings, strings_pos, node_count);
    for (std::uint32_t i = 0; i < node_count; ++i) {
      RarcNode& node = r.nodes[i];
      node.name = names.at(nodes[i].name_offset, nodes[i].at + 4);
      if (nodes[i].type != rarc_node_type(node.name, i == 0)) node.stored_type = nodes[i].type;
      if (nodes[i].hash != rarc_name_hash(node.name)) node.stored_hash = nodes[i].hash;
    }

    // Kinds, names and the tree: each node opened once, from a node the root reaches.
    std::vector<std::uint32_t> parent(node_count, kNoParent);
    std::vector<bool> opened(node_count, false);
    for (std::uint32_t i = 0; i < entry_count; ++i) {
      const StoredEntry& s = stored[i];
      RarcEntry& e = *by_index[i];
      e.name = names.at(s.name_offset, s.at + 6);
      if (s.hash != rarc_name_hash(e.name)) e.stored_hash = s.hash;
      if (!(e.flags & rarc_flag::directory)) continue;
      e.kind = e.name == "." ? RarcEntryKind::dot : e.name == ".." ? RarcEntryKind::dot_dot : RarcEntryKind::directory;
      if (s.size != kDirectorySize) e.stored_size = s.size;
      if (e.kind != RarcEntryKind::directory) continue;
      if (s.data == 0 || s.data >= node_count) c.fail_at(ErrorCode::bad_value, s.at + 8, "entry.data_offset", "names node " + std::to_string(s.data) + ", which no directory can open");
      if (opened[s.data]) c.fail_at(ErrorCode::bad_value, s.at + 8, "entry.data_offset", "opens node " + std::to_string(s.data) + ", which another directory opens too");
      opened[s.data] = true;
      e.node = s.data;
    }
    std::vector<std::uint32_t> reach{0};
    std::vector<bool> reached(node_count, false);
    std::vector<std::size_t> path_length(node_count, 0);  // of the folder's path below the root
    reached[0] = true;
    for (std::size_t k = 0; k < reach.size(); ++k) {
      const std::uint32_t n = reach[k];
      for (const RarcEntry& e : r.nodes[n].entries) {
        const std::size_t length = path_length[n] + e.name.size() + 1;
        if (length > kRarcMaxPath) c.fail_at(ErrorCode::bad_value, nodes[n].at, "node", "holds \"" + e.name.substr(0, 32) + "\" at a path longer than 1024 bytes");
        if (e.kind != RarcEntryKind::directory || reached[e.node]) continue;
        reached[e.node] = true;
        parent[e.node] = n;
        path_length[e.node] = length;
        reach.push_back(e.node);
      }
    }
    for (std::uint32_t i = 0; i < node_count; ++i) {
      if (!reached[i]) c.fail_at(ErrorCode::bad_value, nodes[i].at, "node", "node " + std::to_string(i) + " is not inside the root's tree (a directory cycle, or no directory opens it)");
    }
    for (std::uint32_t n : blocks) {
      for (std::uint32_t k = 0; k < nodes[n].count; ++k) {
        const StoredEntry& s = stored[nodes[n].first + k];
        const RarcEntry& e = r.nodes[n].entries[k];
        const std::uint32_t want = e.kind == RarcEntryKind::dot ? n : parent[n];
        if ((e.kind == RarcEntryKind::dot || e.kind == RarcEntryKind::dot_dot) && s.data != want) {
          c.fail_at(ErrorCode::bad_value, s.at + 8, "entry.data_offset", "of \"" + e.name + "\" is " + std::to_string(s.data) + " but the tree gives " + std::to_string(want));
        }
      }
    }

    // The string table: one of the two orders, else kept as stored with every offset.
    bool canonical = false;
    for (RarcStringOrder order : {RarcStringOrder::by_node, RarcStringOrder::nodes_then_files}) {
      const RarcStrings made = rarc_strings(r, order);
      if (made.table.size() > strings.size() || !std::equal(made.table.begin(), made.table.end(), strings.begin())) continue;
      bool same = true;
      for (std::uint32_t n = 0; n < node_count && same; ++n) {
        same = made.node_offsets[n] == nodes[n].name_offset;
        for (std::uint32_t k = 0; k < nodes[n].count && same; ++k) same = made.entry_offsets[n][k] == stored[nodes[n].first + k].name_offset;
      }
      if (!same) continue;
      canonical = true;
      r.string_order = order;
      const ByteSpan rest = strings.subspan(made.table.size());
      const bool zeros = std::all_of(rest.begin(), rest.end(), [](std::uint8_t b) { return b == 0; });
      if (!zeros || strings.size() != (made.table.size() + 31) / 32 * 32) r.string_padding = Verbatim(rest);
      break;
    }
    if (!canonical) {
      r.string_table = Verbatim(strings);
      for (std::uint32_t n = 0; n < node_count; ++n) {
        r.nodes[n].stored_name_offset = nodes[n].name_offset;
        for (std::uint32_t k = 0; k < nodes[n].count; ++k) r.nodes[n].entries[k].stored_name_offset = stored[nodes[n].first + k].name_offset;
      }
    }

    // The data: files in the order of their offsets, each after its gap.
    r.after_strings = gap_to(c, data_at, 0, "data_offset");
    const std::size_t data_pos = c.pos();
    c.need(data_size, "data_size");
    std::vector<std::uint32_t> files;
    for (std::uint32_t i = 0; i < entry_count; ++i) {
      if (by_index[i]->kind != RarcEntryKind::file) continue;
      if (std::uint64_t{stored[i].data} + stored[i].size > data_size) {
        c.fail_at(ErrorCode::bad_offset, stored[i].at + 8, "entry.data_offset", "with its size runs past the data's " + std::to_string(data_size) + " bytes");
      }
      files.push_back(i);
    }
    std::sort(files.begin(), files.end(), [&](std::uint32_t a, std::uint32_t b) { return std::pair(stored[a].data, a) < std::pair(stored[b].data, b); });
    if (!std::is_sorted(files.begin(), files.end())) r.data_order = files;
    std::array<std::uint64_t, 3> loads{};  // MRAM, ARAM, DVD: each file's data to the next 32
    for (std::uint32_t i : files) {
      PathScope scope(c, "entry", i);
      RarcEntry& e = *by_index[i];
      e.gap_before = gap_to(c, data_pos + std::uint64_t{stored[i].data}, data_pos, "data_offset");
      e.data = c.bytes(stored[i].size, "data");
      const std::uint64_t load = (std::uint64_t{stored[i].size} + 31) / 32 * 32;
      if (e.flags & rarc_flag::load_to_mram) loads[0] += load;
      if (e.flags & rarc_flag::load_to_aram) loads[1] += load;
      if (e.flags & rarc_flag::load_from_dvd) loads[2] += load;
    }
    r.after_data = gap_to(c, data_pos + std::uint64_t{data_size}, data_pos, "data_size");
    if (loads[0] != mram) r.stored_mram_size = mram;
    if (loads[1] != aram) r.stored_aram_size = aram;
    if (loads[2] != dvd) r.stored_dvd_size = dvd;
    if (next_id != entry_count) r.stored_next_id = next_id;
    if (file_size != c.pos()) c.fail_at(ErrorCode::bad_value, 4, "file_size", "is " + std::to_string(file_size) + " but the data ends at " + std::to_string(c.pos()));
    r.tail = c.tail("tail");
    return r;
  });
}

}  // namespace remodel
