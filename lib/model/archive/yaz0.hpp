// Yaz0: Nintendo's compression for GameCube and Wii files (.szs, compressed .arc), as stored: a
// 16-byte header, a stream of groups (a flag byte, then 8 literals or back-references), and whatever
// follows the stream. docs/archives.md says what was measured on the samples.
#pragma once

#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/format.hpp"
#include "model/verbatim.hpp"

namespace remodel {

struct Yaz0File {
  Bytes data;  // the decompressed bytes; the header's size is theirs
  std::uint32_t unknown_0x08 = 0;  // zero in every GameCube file seen (Wii files store an alignment)
  std::uint32_t unknown_0x0C = 0;
  // The stream as stored, kept only when yaz0_compress(data) does not give it back.
  Verbatim stream;
  // Zeros follow the stream up to a multiple of 32 bytes, as Nintendo's archives are stored.
  bool padded = false;
  Verbatim tail;  // any other bytes after the stream
};

inline constexpr std::size_t kYaz0HeaderSize = 16;
inline constexpr std::size_t kYaz0Window = 0x1000;    // the farthest a back-reference reaches
inline constexpr std::size_t kYaz0MaxMatch = 0x111;   // the longest run one back-reference copies

// The decompressed size a stream of `input` bytes may claim: the readers' budget is 16 times the
// input plus 1 MiB, and a read holds the data, the stream it re-compresses and the stored one.
inline constexpr std::uint64_t yaz0_size_limit(std::uint64_t input) { return 12 * input + (std::uint64_t{1} << 19); }

// The stream's bytes from `stream` (after the header) into `size` bytes; how many stream bytes it
// used, or an Error at the failing byte (offsets counted from `base`, the stream's place in the file).
Result<std::size_t> yaz0_decompress(ByteSpan stream, std::size_t size, Bytes& out, std::size_t base = kYaz0HeaderSize);
// Nintendo's encoder as measured: the longest match within 0x1000 bytes back (the farthest of equal
// ones), and a literal first when the match one byte on is at least 2 bytes longer.
Bytes yaz0_compress(ByteSpan data);
// Whether yaz0_compress(data) is `stream`, stopping at the first group that differs.
bool yaz0_compresses_to(ByteSpan data, ByteSpan stream);

Result<Yaz0File> read_yaz0(ByteSpan bytes);
Result<Bytes> write_yaz0(const Yaz0File& file, WriteReport* report = nullptr);

// The format's registration (format_table.cpp): its summary and its JSON.
inline void add_info(const Yaz0File&, DocumentInfo& info) { info.entries += 1; }  // the one compressed file
void add_json(const Yaz0File& doc, nlohmann::ordered_json& out);

}  // namespace remodel
