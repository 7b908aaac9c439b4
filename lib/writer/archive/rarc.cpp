// Writes RARC: every offset, count, size, hash, type and the string table from the Document; the
// data laid out in its order, each file at the next multiple of 32 unless a stored gap stands there.
#include <string>

#include "model/archive/rarc.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

namespace {

constexpr std::uint32_t kNoParent = 0xFFFFFFFF;

std::uint64_t align32(std::uint64_t v) { return (v + 31) / 32 * 32; }

// Writes a kept gap, else zeros to the next multiple of 32 from `base`.
void gap(ByteWriter& w, const Verbatim& v, std::size_t base, const char* name) {
  if (!w.verbatim(v, [name] { return std::string(name); })) w.pad(32, base, 0);
}

}  // namespace

Result<Bytes> write_rarc(const Rarc& r, WriteReport* report) {
  return guarded_write([&]() -> Bytes {
    ByteWriter w(Endian::big, 0, report);
    const std::size_t node_count = r.nodes.size();
    if (node_count == 0) w.fail("nodes", "an archive needs its root node");
    const std::vector<std::uint32_t> blocks = rarc_block_order(r);
    if (blocks.size() != node_count) w.fail("entry_blocks", "does not list every node once");
    // Every entry's place in the stored table, and the parent of every node.
    std::vector<std::uint32_t> first(node_count, 0), parent(node_count, kNoParent);
    std::vector<const RarcEntry*> entries;
    std::vector<bool> listed(node_count, false);
    for (std::uint32_t n : blocks) {
      if (n >= node_count || listed[n]) w.fail("entry_blocks", "does not list every node once");
      listed[n] = true;
      first[n] = static_cast<std::uint32_t>(entries.size());
      for (const RarcEntry& e : r.nodes[n].entries) {
        entries.push_back(&e);
        if (e.kind != RarcEntryKind::directory) continue;
        if (e.node == 0 || e.node >= node_count || parent[e.node] != kNoParent) {
          w.fail("nodes[" + std::to_string(n) + "]." + e.name, "opens node " + std::to_string(e.node) + ", which is the root, absent or opened twice");
        }
        parent[e.node] = n;
      }
      if (r.nodes[n].entries.size() > 0xFFFF) w.fail("nodes[" + std::to_string(n) + "]", "holds more than 65535 entries");
    }
    // No path the reader refuses: each folder's path length below the root, walked from the root.
    std::vector<std::size_t> path_length(node_count, 0);
    std::vector<std::uint32_t> reach{0};
    for (std::size_t k = 0; k < reach.size(); ++k) {
      const std::uint32_t n = reach[k];
      for (const RarcEntry& e : r.nodes[n].entries) {
        const std::size_t length = path_length[n] + e.name.size() + 1;
        if (length > kRarcMaxPath) w.fail("nodes[" + std::to_string(n) + "]." + e.name.substr(0, 32), "lies at a path longer than 1024 bytes, which readers refuse");
        if (e.kind != RarcEntryKind::directory || parent[e.node] != n || path_length[e.node] != 0) continue;
        path_length[e.node] = length;
        reach.push_back(e.node);
      }
    }
    // The data's layout, relative to its start, in its order.
    std::vector<std::uint32_t> order = r.data_order;
    if (order.empty()) {
      for (std::uint32_t i = 0; i < entries.size(); ++i) {
        if (entries[i]->kind == RarcEntryKind::file) order.push_back(i);
      }
    }
    std::vector<std::uint64_t> data_offset(entries.size(), 0);
    std::uint64_t data_end = 0;
    std::array<std::uint64_t, 3> loads{};
    for (std::uint32_t i : order) {
      if (i >= entries.size() || entries[i]->kind != RarcEntryKind::file) w.fail("data_order", "names an entry that is not a file");
      const RarcEntry& e = *entries[i];
      data_end = e.gap_before.stored() ? data_end + e.gap_before.size() : align32(data_end);
      data_offset[i] = data_end;
      data_end += e.data.size();
      const std::uint64_t load = align32(e.data.size());
      if (e.flags & rarc_flag::load_to_mram) loads[0] += load;
      if (e.flags & rarc_flag::load_to_aram) loads[1] += load;
      if (e.flags & rarc_flag::load_from_dvd) loads[2] += load;
    }
    const std::uint64_t data_size = r.after_data.stored() ? data_end + r.after_data.size() : align32(data_end);
    if (data_size > 0xFFFFFFFFu) w.fail("data", "is more than 4 GiB, past what RARC's offsets hold");
    const RarcStrings strings = r.string_table.stored() ? RarcStrings{} : rarc_strings(r, r.string_order);

    const auto u32_of = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
    w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>("RARC"), 4));
    const std::size_t file_size_at = w.placeholder_u32();
    w.u32(kRarcHeaderSize);
    const std::size_t data_offset_at = w.placeholder_u32();
    w.u32(u32_of(data_size));
    w.stored_or(r.stored_mram_size, u32_of(loads[0]), [] { return std::string("mram_size"); });
    w.stored_or(r.stored_aram_size, u32_of(loads[1]), [] { return std::string("aram_size"); });
    w.stored_or(r.stored_dvd_size, u32_of(loads[2]), [] { return std::string("dvd_size"); });
    w.mark([] { return std::string("info"); });
    w.u32(u32_of(node_count));
    const std::size_t node_offset_at = w.placeholder_u32();
    w.u32(u32_of(entries.size()));
    const std::size_t entry_offset_at = w.placeholder_u32();
    const std::size_t strings_size_at = w.placeholder_u32();
    const std::size_t strings_offset_at = w.placeholder_u32();
    if (entries.size() > 0xFFFF && !r.stored_next_id) w.fail("info.next_id", "an archive of more than 65535 entries has no next ID");
    w.stored_or(r.stored_next_id, static_cast<std::uint16_t>(entries.size()), [] { return std::string("info.next_id"); });
    w.u8(r.synced_ids);
    if (!w.verbatim(r.info_reserved, [] { return std::string("info.reserved"); })) w.fill(5, 0);

    gap(w, r.after_info, 0, "after_info");
    w.patch_u32(node_offset_at, u32_of(w.pos() - kRarcHeaderSize));
    for (std::size_t n = 0; n < node_count; ++n) {
      const RarcNode& node = r.nodes[n];
      w.mark([&] { return "node[" + std::to_string(n) + "]"; });
      const std::array<std::uint8_t, 4> type = node.stored_type.value_or(rarc_node_type(node.name, n == 0));
      if (node.stored_type) w.verbatim(Verbatim(ByteSpan(type)), [&] { return "node[" + std::to_string(n) + "].type"; });
      else w.bytes(type);
      w.stored_or(node.stored_name_offset, r.string_table.stored() ? 0u : strings.node_offsets[n], [&] { return "node[" + std::to_string(n) + "].name_offset"; });
      w.stored_or(node.stored_hash, rarc_name_hash(node.name), [&] { return "node[" + std::to_string(n) + "].hash"; });
      w.u16(static_cast<std::uint16_t>(node.entries.size()));
      w.u32(first[n]);
    }
    gap(w, r.after_nodes, 0, "after_nodes");
    w.patch_u32(entry_offset_at, u32_of(w.pos() - kRarcHeaderSize));
    for (std::uint32_t n : blocks) {
      for (std::size_t k = 0; k < r.nodes[n].entries.size(); ++k) {
        const RarcEntry& e = r.nodes[n].entries[k];
        const auto name = [&] { return "node[" + std::to_string(n) + "].entry[" + std::to_string(k) + "]"; };
        w.mark(name);
        w.u16(e.id);
        w.stored_or(e.stored_hash, rarc_name_hash(e.name), [&] { return name() + ".hash"; });
        w.u8(e.flags);
        w.u8(e.unknown_0x05);
        std::uint16_t name_offset = 0;
        if (!r.string_table.stored()) {
          const std::uint32_t at = strings.entry_offsets[n][k];
          if (at > 0xFFFF) w.fail(name() + ".name_offset", "lies past the 64 KiB a name offset reaches");
          name_offset = static_cast<std::uint16_t>(at);
        }
        w.stored_or(e.stored_name_offset, name_offset, [&] { return name() + ".name_offset"; });
        switch (e.kind) {
          case RarcEntryKind::file: w.u32(u32_of(data_offset[first[n] + k])); w.u32(u32_of(e.data.size())); break;
          case RarcEntryKind::directory: w.u32(e.node); w.stored_or(e.stored_size, 0x10u, [&] { return name() + ".size"; }); break;
          case RarcEntryKind::dot: w.u32(n); w.stored_or(e.stored_size, 0x10u, [&] { return name() + ".size"; }); break;
          case RarcEntryKind::dot_dot: w.u32(parent[n]); w.stored_or(e.stored_size, 0x10u, [&] { return name() + ".size"; }); break;
        }
        w.u32(e.unknown_0x10);
      }
    }
    gap(w, r.after_entries, 0, "after_entries");
    w.patch_u32(strings_offset_at, u32_of(w.pos() - kRarcHeaderSize));
    const std::size_t strings_at = w.pos();
    w.mark([] { return std::string("string_table"); });
    if (!w.verbatim(r.string_table, [] { return std::string("string_table"); })) {
      w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>(strings.table.data()), strings.table.size()));
      gap(w, r.string_padding, strings_at, "string_padding");
    }
    w.patch_u32(strings_size_at, u32_of(w.pos() - strings_at));
    gap(w, r.after_strings, 0, "after_strings");
    w.patch_u32(data_offset_at, u32_of(w.pos() - kRarcHeaderSize));
    const std::size_t data_at = w.pos();
    for (std::uint32_t i : order) {
      const RarcEntry& e = *entries[i];
      w.mark([&] { return "data." + e.name; });
      gap(w, e.gap_before, data_at, "data.gap_before");
      w.bytes(e.data);
    }
    gap(w, r.after_data, data_at, "after_data");
    w.patch_u32(file_size_at, u32_of(w.pos()));
    w.tail(r.tail);
    return w.take();
  });
}

}  // namespace remodel
