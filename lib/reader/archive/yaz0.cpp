// Reads Yaz0: the header, the stream decompressed into the stated size, then what follows it.
#include <algorithm>
#include <cstring>
#include <string>

#include "model/archive/yaz0.hpp"
#include "reader/cursor.hpp"

namespace remodel {

Result<std::size_t> yaz0_decompress(ByteSpan in, std::size_t size, Bytes& out, std::size_t base) {
  out.assign(size, 0);
  std::size_t p = 0, o = 0;
  const auto fail = [&](ErrorCode code, const char* field, const std::string& message) {
    return Error{code, base + p, field, message + " (" + std::to_string(o) + " of " + std::to_string(size) + " bytes written)"};
  };
  std::uint8_t flags = 0;
  int left = 0;
  while (o < size) {
    if (left == 0) {
      if (p >= in.size()) return fail(ErrorCode::truncated, "stream.flags", "the stream ends before the stated size is reached");
      flags = in[p++];
      left = 8;
    }
    if (flags & 0x80) {
      if (p >= in.size()) return fail(ErrorCode::truncated, "stream.literal", "the stream ends inside a group");
      out[o++] = in[p++];
    } else {
      if (in.size() - p < 2) return fail(ErrorCode::truncated, "stream.reference", "the stream ends inside a back-reference");
      const std::size_t distance = (std::size_t{in[p] & 0x0Fu} << 8 | in[p + 1]) + 1;
      std::size_t length = in[p] >> 4;
      const std::size_t at = p;
      p += 2;
      if (length == 0) {
        if (p >= in.size()) return fail(ErrorCode::truncated, "stream.reference", "the stream ends inside a back-reference");
        length = std::size_t{in[p++]} + 0x12;
      } else {
        length += 2;
      }
      if (distance > o) {
        p = at;
        return fail(ErrorCode::bad_offset, "stream.reference", "reaches " + std::to_string(distance) + " bytes back, before the start of the data");
      }
      if (length > size - o) {
        p = at;
        return fail(ErrorCode::bad_value, "stream.reference", "copies " + std::to_string(length) + " bytes, past the stated size");
      }
      if (distance >= length) {
        std::memcpy(out.data() + o, out.data() + o - distance, length);
        o += length;
      } else {
        for (std::size_t k = 0; k < length; ++k, ++o) out[o] = out[o - distance];  // a run copying bytes it writes
      }
    }
    flags = static_cast<std::uint8_t>(flags << 1);
    --left;
  }
  return p;
}

Result<Yaz0File> read_yaz0(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::big);
    Yaz0File f;
    if (!c.has_magic(0, "Yaz0")) c.fail_at(ErrorCode::bad_magic, 0, "magic", "is not Yaz0");
    c.skip(4, "magic");
    const std::uint32_t size = c.u32("size");
    f.unknown_0x08 = c.u32("unknown_0x08");
    f.unknown_0x0C = c.u32("unknown_0x0C");
    if (size > yaz0_size_limit(bytes.size())) {
      c.fail_at(ErrorCode::bad_count, 4, "size", "claims " + std::to_string(size) + " decompressed bytes from a " + std::to_string(bytes.size()) +
                                                     "-byte file, more than 12 times the file plus 512 KiB that remodel decompresses");
    }
    const ByteSpan stream = bytes.subspan(kYaz0HeaderSize);
    Result<std::size_t> used = yaz0_decompress(stream, size, f.data);
    if (!used) throw ParseFailure{used.error()};
    const ByteSpan stored = c.span(*used, "stream");
    if (!yaz0_compresses_to(f.data, stored)) f.stream = Verbatim(stored);
    const std::size_t end = c.pos();
    const ByteSpan rest = bytes.subspan(end);
    f.padded = !rest.empty() && rest.size() < 32 && bytes.size() % 32 == 0 && std::all_of(rest.begin(), rest.end(), [](std::uint8_t b) { return b == 0; });
    if (f.padded) c.skip(rest.size(), "padding");
    f.tail = c.tail("tail");
    return f;
  });
}

}  // namespace remodel
