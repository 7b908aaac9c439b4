#include "reader/cursor.hpp"

#include <algorithm>

namespace remodel {

std::uint16_t Cursor::peek_u16(std::size_t at, const char* field) const {
  if (at > data_.size() || data_.size() - at < 2) fail_at(ErrorCode::truncated, at, field, "the file ends inside this field");
  const std::uint8_t* p = data_.data() + at;
  return endian_ == Endian::little ? static_cast<std::uint16_t>(p[0] | p[1] << 8)
                                   : static_cast<std::uint16_t>(p[1] | p[0] << 8);
}

std::uint32_t Cursor::peek_u32(std::size_t at, const char* field) const {
  if (at > data_.size() || data_.size() - at < 4) fail_at(ErrorCode::truncated, at, field, "the file ends inside this field");
  const std::uint8_t* p = data_.data() + at;
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | p[endian_ == Endian::little ? 3 - i : i];
  return v;
}

void Cursor::check_count(std::uint64_t count, std::uint64_t record_size, const char* field) const {
  if (record_size != 0 && count > remaining() / record_size) {
    fail(ErrorCode::bad_count, field,
         "claims " + std::to_string(count) + " records of " + std::to_string(record_size) + " bytes but only " +
             std::to_string(remaining()) + " bytes are left");
  }
}

Verbatim Cursor::gap(std::uint64_t target, std::size_t alignment, std::size_t base, std::uint8_t fill, const char* field) {
  if (target < pos_) fail_at(ErrorCode::bad_offset, target, field, "points back inside the structure before it");
  if (target > data_.size()) fail_at(ErrorCode::bad_offset, target, field, "points past the end of the file");
  if ((target - std::min<std::uint64_t>(base, target)) % alignment != 0) {
    fail_at(ErrorCode::bad_offset, target, field, "is not aligned to " + std::to_string(alignment) + " bytes");
  }
  const std::size_t canonical = aligned(alignment, base);
  ByteSpan s = span(target - pos_, field);
  if (target == canonical && std::all_of(s.begin(), s.end(), [fill](std::uint8_t b) { return b == fill; })) return {};
  return Verbatim(s);
}

std::string Cursor::path(const char* field) const {
  std::string out;
  for (const Segment& s : path_) {
    if (!out.empty()) out += '.';
    out += s.name;
    if (s.index >= 0) {
      out += '[';
      out += std::to_string(s.index);
      out += ']';
    }
  }
  if (field != nullptr && *field != '\0') {
    if (!out.empty()) out += '.';
    out += field;
  }
  return out;
}

void Cursor::fail_at(ErrorCode code, std::uint64_t offset, const char* field, const std::string& message) const {
  throw ParseFailure{Error{code, offset, path(field), message}};
}

void Cursor::fail_truncated(std::uint64_t n, const char* field) const {
  fail(ErrorCode::truncated, field,
       "needs " + std::to_string(n) + " bytes but the file ends after " + std::to_string(remaining()));
}

}  // namespace remodel
