// The archives' JSON views (dump): Yaz0's header and sizes, RARC's tree with every entry; file data
// shows as its size and format, not its bytes.
#include <nlohmann/json.hpp>

#include "model/archive/rarc.hpp"
#include "model/archive/yaz0.hpp"
#include "model/document.hpp"
#include "model/json_fields.hpp"

namespace remodel {

using json_fields::Json;
using json_fields::optional_field;
using json_fields::verbatim;

void add_json(const Yaz0File& f, Json& out) {
  out["size"] = f.data.size();
  out["unknown_0x08"] = f.unknown_0x08;
  out["unknown_0x0C"] = f.unknown_0x0C;
  const std::optional<Format> inside = detect_format(f.data);
  out["content"] = inside ? format_name(*inside) : "unknown";
  out["stream"] = f.stream.stored() ? "stored (" + std::to_string(f.stream.size()) + " bytes): the encoder does not give it back" : "re-compressed";
  out["padded"] = f.padded;
  verbatim(out, "tail", f.tail);
}

namespace {

const char* kind_name(RarcEntryKind k) {
  switch (k) {
    case RarcEntryKind::file: return "file";
    case RarcEntryKind::directory: return "directory";
    case RarcEntryKind::dot: return ".";
    case RarcEntryKind::dot_dot: return "..";
  }
  return "file";
}

Json entry_json(const RarcEntry& e) {
  Json j{{"kind", kind_name(e.kind)}, {"name", json_text(e.name)}, {"id", e.id}, {"flags", e.flags}};
  if (e.unknown_0x05 != 0) j["unknown_0x05"] = e.unknown_0x05;
  if (e.kind == RarcEntryKind::directory) j["node"] = e.node;
  if (e.kind == RarcEntryKind::file) {
    j["size"] = e.data.size();
    const std::optional<Format> f = detect_format(e.data);
    j["format"] = f ? format_name(*f) : "unknown";
  }
  if (e.unknown_0x10 != 0) j["unknown_0x10"] = e.unknown_0x10;
  optional_field(j, "stored_hash", e.stored_hash);
  optional_field(j, "stored_name_offset", e.stored_name_offset);
  optional_field(j, "stored_size", e.stored_size);
  verbatim(j, "gap_before", e.gap_before);
  return j;
}

}  // namespace

void add_json(const Rarc& r, Json& out) {
  Json nodes = Json::array();
  for (const RarcNode& n : r.nodes) {
    Json j{{"name", json_text(n.name)}};
    if (n.stored_type) j["stored_type"] = hex(*n.stored_type);
    optional_field(j, "stored_hash", n.stored_hash);
    optional_field(j, "stored_name_offset", n.stored_name_offset);
    Json entries = Json::array();
    for (const RarcEntry& e : n.entries) entries.push_back(entry_json(e));
    j["entries"] = std::move(entries);
    nodes.push_back(std::move(j));
  }
  out["synced_ids"] = r.synced_ids;
  optional_field(out, "stored_next_id", r.stored_next_id);
  out["string_order"] = r.string_order == RarcStringOrder::by_node ? "by_node" : "nodes_then_files";
  if (!r.entry_blocks.empty()) out["entry_blocks"] = r.entry_blocks;
  if (!r.data_order.empty()) out["data_order"] = r.data_order;
  optional_field(out, "stored_mram_size", r.stored_mram_size);
  optional_field(out, "stored_aram_size", r.stored_aram_size);
  optional_field(out, "stored_dvd_size", r.stored_dvd_size);
  out["nodes"] = std::move(nodes);
  verbatim(out, "info_reserved", r.info_reserved);
  verbatim(out, "string_table", r.string_table);
  verbatim(out, "string_padding", r.string_padding);
  for (const auto& [key, v] : {std::pair{"after_info", &r.after_info}, {"after_nodes", &r.after_nodes}, {"after_entries", &r.after_entries},
                               {"after_strings", &r.after_strings}, {"after_data", &r.after_data}, {"tail", &r.tail}}) {
    verbatim(out, key, *v);
  }
}

}  // namespace remodel
