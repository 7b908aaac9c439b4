// The one byte writer every format writer uses: endian-aware, aligns, back-patches offsets.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/field_mark.hpp"
#include "reader/cursor.hpp"

namespace remodel {

// Thrown inside writers only; every public write_* function turns it into an Error.
struct WriteFailure {
  Error error;
};

// Writes in place into a buffer that grows geometrically (within `reserve` first): out_ holds the
// bytes written (len_) and a few KiB of zeroed room for small values; take() trims the room off.
class ByteWriter {
 public:
  explicit ByteWriter(Endian endian, std::size_t reserve = 0) : endian_(endian) { out_.reserve(reserve); }

  std::size_t pos() const { return len_; }
  // The bytes written so far (the room past them is trimmed).
  const Bytes& bytes() {
    out_.resize(len_);
    return out_;
  }
  Bytes take() {
    out_.resize(len_);
    len_ = 0;
    return std::move(out_);
  }

  // Appends `n` bytes to be written in place; the pointer holds until the next append.
  std::uint8_t* append(std::size_t n) {
    if (out_.size() - len_ < n) grow(n);
    std::uint8_t* p = out_.data() + len_;
    len_ += n;
    return p;
  }
  // Stores `v` at `p` in `n` bytes in the writer's byte order.
  void store(std::uint8_t* p, std::uint64_t v, std::size_t n) const {
    // Byte by byte (no memcpy for g++ 12 to misjudge) with constant shifts, which g++ merges into one store.
    if (endian_ == Endian::little) {
      for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
    } else {
      for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * (n - 1 - i)));
    }
  }

  void u8(std::uint8_t v) { *append(1) = v; }
  void i8(std::int8_t v) { u8(static_cast<std::uint8_t>(v)); }
  void u16(std::uint16_t v) { store(append(2), v, 2); }
  void i16(std::int16_t v) { u16(static_cast<std::uint16_t>(v)); }
  void u32(std::uint32_t v) { store(append(4), v, 4); }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void u64(std::uint64_t v) { store(append(8), v, 8); }
  void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
  void bytes(std::span<const std::uint8_t> b) {
    if (out_.size() - len_ >= b.size()) {
      if (!b.empty()) std::memcpy(out_.data() + len_, b.data(), b.size());
      len_ += b.size();
    } else {
      append_copy(b);
    }
  }
  void fill(std::size_t n, std::uint8_t value) {
    if (n != 0) std::memset(append(n), value, n);
  }

  // Pads to the next multiple of `alignment` relative to `base` with `fill`; or writes the verbatim gap
  // the reader kept instead, when the structure after it still lands on the alignment.
  void pad(std::size_t alignment, std::size_t base, std::uint8_t fill_byte, std::span<const std::uint8_t> verbatim = {});

  // A u32 to be filled in once its target is written.
  std::size_t placeholder_u32() {
    std::size_t at = pos();
    u32(0);
    return at;
  }
  void patch_u32(std::size_t at, std::uint32_t v);
  void patch_u16(std::size_t at, std::uint16_t v);

  // Field marks are recorded only when asked for, so plain writes pay nothing.
  void enable_marks() { marking_ = true; }
  bool marking() const { return marking_; }
  template <typename NameFn>
  void mark(NameFn&& name) {
    if (marking_) marks_.push_back({pos(), name()});
  }
  // Marks of a record written elsewhere (an embedded file), moved to `base` and named under `prefix`.
  void add_marks(const std::vector<FieldMark>& marks, std::size_t base, const std::string& prefix) {
    if (!marking_) return;
    for (const FieldMark& m : marks) marks_.push_back({base + m.offset, prefix + m.field});
  }
  const std::vector<FieldMark>& marks() const { return marks_; }
  std::vector<FieldMark> take_marks() { return std::move(marks_); }

  [[noreturn]] void fail(const std::string& field, const std::string& message) const {
    throw WriteFailure{Error{ErrorCode::inconsistent, pos(), field, message}};
  }

 private:
  void grow(std::size_t n);
  void append_copy(std::span<const std::uint8_t> b);

  Bytes out_;
  std::size_t len_ = 0;
  Endian endian_;
  bool marking_ = false;
  std::vector<FieldMark> marks_;
};

// Runs `write` and turns a WriteFailure into an Error result.
template <typename F>
auto guarded_write(F&& write) -> Result<decltype(write())> {
  try {
    return write();
  } catch (WriteFailure& failure) {
    return std::move(failure.error);
  }
}

}  // namespace remodel
