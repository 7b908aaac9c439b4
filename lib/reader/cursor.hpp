// The one bounds-checked, endian-aware gate through which every reader reads bytes.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/verbatim.hpp"

namespace remodel {

// Thrown inside readers only; every public read_* function turns it into an Error.
struct ParseFailure {
  Error error;
};

class Cursor {
 public:
  Cursor(ByteSpan data, Endian endian) : data_(data), endian_(endian) {}

  std::size_t pos() const { return pos_; }
  std::size_t size() const { return data_.size(); }
  std::size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  ByteSpan data() const { return data_; }

  void seek(std::uint64_t pos, const char* field) {
    if (pos > data_.size()) fail_at(ErrorCode::bad_offset, pos, field, "offset points past the end of the file");
    pos_ = static_cast<std::size_t>(pos);
  }
  void skip(std::uint64_t n, const char* field) { need(n, field); pos_ += static_cast<std::size_t>(n); }

  std::uint8_t u8(const char* field) { need(1, field); return data_[pos_++]; }
  std::int8_t i8(const char* field) { return static_cast<std::int8_t>(u8(field)); }
  std::uint16_t u16(const char* field) { return static_cast<std::uint16_t>(read_uint(2, field)); }
  std::int16_t i16(const char* field) { return static_cast<std::int16_t>(u16(field)); }
  std::uint32_t u32(const char* field) { return static_cast<std::uint32_t>(read_uint(4, field)); }
  std::int32_t i32(const char* field) { return static_cast<std::int32_t>(u32(field)); }
  std::uint64_t u64(const char* field) { return read_uint(8, field); }
  float f32(const char* field) { return std::bit_cast<float>(u32(field)); }

  std::uint16_t peek_u16(std::size_t at, const char* field) const;
  std::uint32_t peek_u32(std::size_t at, const char* field) const;
  bool has_magic(std::size_t at, const char* magic) const {  // compares 4 bytes
    return at <= data_.size() && data_.size() - at >= 4 && std::memcmp(data_.data() + at, magic, 4) == 0;
  }

  ByteSpan span(std::uint64_t n, const char* field) {
    need(n, field);
    ByteSpan s = data_.subspan(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return s;
  }
  Bytes bytes(std::uint64_t n, const char* field) {
    ByteSpan s = span(n, field);
    return Bytes(s.begin(), s.end());
  }
  // The bytes past the last structure: none when the file ends here.
  Verbatim tail(const char* field) { return at_end() ? Verbatim() : Verbatim(span(remaining(), field)); }
  template <std::size_t N>
  std::array<std::uint8_t, N> array(const char* field) {
    std::array<std::uint8_t, N> out;
    ByteSpan s = span(N, field);
    std::memcpy(out.data(), s.data(), N);
    return out;
  }

  // Fails unless `count` records of `record_size` bytes fit in what is left; call before allocating.
  void check_count(std::uint64_t count, std::uint64_t record_size, const char* field) const;
  void need(std::uint64_t n, const char* field) const {
    if (n > remaining()) fail_truncated(n, field);
  }

  // The bytes from here to `target`, where canonical layout puts `fill` up to the next multiple of
  // `alignment` (relative to `base`): none when they are exactly that, otherwise the bytes themselves.
  // Fails when `target` lies behind the cursor or past the end.
  Verbatim gap(std::uint64_t target, std::size_t alignment, std::size_t base, std::uint8_t fill, const char* field);
  // The gap up to the next multiple of `alignment`.
  Verbatim padding(std::size_t alignment, std::size_t base, std::uint8_t fill, const char* field) {
    return gap(aligned(alignment, base), alignment, base, fill, field);
  }
  std::size_t aligned(std::size_t alignment, std::size_t base) const {
    std::size_t rel = pos_ - base;
    return pos_ + (alignment - rel % alignment) % alignment;
  }

  // Field path of the record being read, for error messages: "mesh0.section[3]".
  void push(const char* name, std::int64_t index = -1) { path_.push_back({name, index}); }
  void pop() { path_.pop_back(); }
  std::string path(const char* field) const;

  [[noreturn]] void fail(ErrorCode code, const char* field, const std::string& message) const {
    fail_at(code, pos_, field, message);
  }
  [[noreturn]] void fail_at(ErrorCode code, std::uint64_t offset, const char* field, const std::string& message) const;

 private:
  struct Segment {
    const char* name;
    std::int64_t index;
  };
  std::uint64_t read_uint(std::size_t n, const char* field) {
    need(n, field);
    const std::uint8_t* p = data_.data() + pos_;
    pos_ += n;
    std::uint64_t v = 0;
    if (endian_ == Endian::little) {
      for (std::size_t i = n; i-- > 0;) v = (v << 8) | p[i];
    } else {
      for (std::size_t i = 0; i < n; ++i) v = (v << 8) | p[i];
    }
    return v;
  }
  [[noreturn]] void fail_truncated(std::uint64_t n, const char* field) const;

  ByteSpan data_;
  std::size_t pos_ = 0;
  Endian endian_;
  std::vector<Segment> path_;
};

// RAII helper: names the record being read for the duration of a scope.
class PathScope {
 public:
  PathScope(Cursor& c, const char* name, std::int64_t index = -1) : c_(c) { c_.push(name, index); }
  ~PathScope() { c_.pop(); }
  PathScope(const PathScope&) = delete;
  PathScope& operator=(const PathScope&) = delete;

 private:
  Cursor& c_;
};

// Runs `parse` and turns a ParseFailure into an Error result.
template <typename F>
auto guarded(F&& parse) -> Result<decltype(parse())> {
  try {
    return parse();
  } catch (ParseFailure& failure) {
    return std::move(failure.error);
  }
}

}  // namespace remodel
