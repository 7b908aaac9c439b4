// RARC: the GameCube and Wii archive (.arc; .szs when Yaz0-compressed), as stored: a header, an
// info block, directory nodes, file entries (with "." and ".." in every directory), a string table
// and the files' data. docs/archives.md has the layout and what was measured on the samples.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/format.hpp"
#include "model/verbatim.hpp"

namespace remodel {

// The entry's attribute byte.
namespace rarc_flag {
inline constexpr std::uint8_t file = 0x01;
inline constexpr std::uint8_t directory = 0x02;
inline constexpr std::uint8_t compressed = 0x04;
inline constexpr std::uint8_t load_to_mram = 0x10;
inline constexpr std::uint8_t load_to_aram = 0x20;
inline constexpr std::uint8_t load_from_dvd = 0x40;
inline constexpr std::uint8_t yaz0 = 0x80;
}  // namespace rarc_flag

enum class RarcEntryKind { file, directory, dot, dot_dot };

// One 20-byte file entry. A directory entry names the node it opens; "." and ".." name their own
// node and its parent, which follow from the tree.
struct RarcEntry {
  RarcEntryKind kind = RarcEntryKind::file;
  std::string name;
  std::uint16_t id = 0xFFFF;  // the file's ID (0xFFFF for directories in Nintendo's files)
  std::uint8_t flags = rarc_flag::file | rarc_flag::load_to_mram;
  std::uint8_t unknown_0x05 = 0;
  std::uint32_t node = 0;       // directory: the node it opens
  Bytes data;                   // file
  std::uint32_t unknown_0x10 = 0;  // zero on disc (the game keeps a pointer here once loaded)
  std::optional<std::uint16_t> stored_hash;         // when not the hash of the name
  std::optional<std::uint16_t> stored_name_offset;  // with a stored string table only
  std::optional<std::uint32_t> stored_size;         // directory entries: when not 0x10
  Verbatim gap_before;  // file: the bytes before its data when not zeros up to 32
};

struct RarcNode {
  std::string name;
  std::vector<RarcEntry> entries;
  std::optional<std::array<std::uint8_t, 4>> stored_type;  // when not "ROOT" or the name's first 4 letters
  std::optional<std::uint16_t> stored_hash;
  std::optional<std::uint32_t> stored_name_offset;  // with a stored string table only
};

// How the names follow "." and "..": each node's name then its files' (Nintendo), or every node's
// name then every file's in entry order (MeltyTool's golden).
enum class RarcStringOrder { by_node, nodes_then_files };

struct Rarc {
  std::vector<RarcNode> nodes;  // nodes[0] is the root
  std::uint8_t synced_ids = 1;  // file IDs are entry indices
  Verbatim info_reserved;       // the info block's last 5 bytes, when not zeros
  std::optional<std::uint16_t> stored_next_id;  // when not the entry count
  // Node indices in the order their entries are stored; empty: node order.
  std::vector<std::uint32_t> entry_blocks;
  RarcStringOrder string_order = RarcStringOrder::by_node;
  Verbatim string_table;    // the whole table as stored when neither order gives it
  Verbatim string_padding;  // the table's bytes after the names, when not zeros up to 32
  // Entry indices (in stored entry order) in the order their data is stored; empty: entry order.
  std::vector<std::uint32_t> data_order;
  std::optional<std::uint32_t> stored_mram_size, stored_aram_size, stored_dvd_size;
  Verbatim after_info, after_nodes, after_entries, after_strings, after_data;  // gaps, when not zeros to 32
  Verbatim tail;
};

inline constexpr std::size_t kRarcHeaderSize = 0x20;
inline constexpr std::size_t kRarcNodeSize = 0x10;
inline constexpr std::size_t kRarcEntrySize = 0x14;
// A path inside an archive longer than this is refused, read or written: no game's is near it, and
// listing every member's path then costs at most this much per entry.
inline constexpr std::size_t kRarcMaxPath = 1024;

// The string table the names make in `order` (without its padding), and where each name starts:
// node_offsets[node], entry_offsets[node][entry].
struct RarcStrings {
  std::string table;
  std::vector<std::uint32_t> node_offsets;
  std::vector<std::vector<std::uint32_t>> entry_offsets;
};
RarcStrings rarc_strings(const Rarc& rarc, RarcStringOrder order);
// Entry blocks in their stored order (entry_blocks, else node order).
std::vector<std::uint32_t> rarc_block_order(const Rarc& rarc);

// The 16-bit name hash RARC stores beside every name.
std::uint16_t rarc_name_hash(std::string_view name);
// "ROOT" for the root, else the name's first four letters in upper case, padded with spaces.
std::array<std::uint8_t, 4> rarc_node_type(std::string_view name, bool root);

Result<Rarc> read_rarc(ByteSpan bytes);
Result<Bytes> write_rarc(const Rarc& rarc, WriteReport* report = nullptr);

// The format's registration (format_table.cpp): its summary and its JSON.
void add_info(const Rarc& doc, DocumentInfo& info);
void add_json(const Rarc& doc, nlohmann::ordered_json& out);

}  // namespace remodel
