// The one byte writer every format writer uses: endian-aware, aligns, back-patches offsets.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/field_mark.hpp"
#include "model/verbatim.hpp"
#include "reader/cursor.hpp"

namespace remodel {

// Thrown inside writers only; every public write_* function turns it into an Error.
struct WriteFailure {
  Error error;
};

// Writes in place into a buffer that grows geometrically (within `reserve` first): out_ holds the
// bytes written (len_) and a few KiB of zeroed room for small values; take() trims the room off.
// With a report, it counts every verbatim run and stored value it writes (and marks fields when asked).
class ByteWriter {
 public:
  explicit ByteWriter(Endian endian, std::size_t reserve = 0, WriteReport* report = nullptr)
      : endian_(endian), report_(report), marking_(report != nullptr && report->marks) {
    out_.reserve(reserve);
  }

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

  // Pads to the next multiple of `alignment` relative to `base` with `fill`.
  void pad(std::size_t alignment, std::size_t base, std::uint8_t fill_byte);
  // The same, or the verbatim gap the reader kept instead (counted), when the structure after it still
  // lands on the alignment.
  template <typename NameFn>
  void pad(std::size_t alignment, std::size_t base, std::uint8_t fill_byte, const Verbatim& gap, NameFn&& name) {
    if (gap.stored() && (pos() - base + gap.size()) % alignment == 0) {
      verbatim(gap, name);
    } else {
      pad(alignment, base, fill_byte);
    }
  }

  // Writes a run the reader kept, counted and named; false (nothing written) when it is none, so the
  // caller writes the canonical bytes.
  template <typename NameFn>
  bool verbatim(const Verbatim& v, NameFn&& name) {
    if (!v.stored()) return false;
    count(pos(), v.size(), name);
    bytes(v.bytes());
    return true;
  }
  // The bytes past a file's last structure, marked and counted as its `tail`.
  void tail(const Verbatim& t) {
    const auto name = [] { return std::string("tail"); };
    mark(name);
    verbatim(t, name);
  }
  // Writes the value the file stored where it disagrees with the structure (counted and named), else
  // the derived one.
  template <typename T, typename NameFn>
  void stored_or(const std::optional<T>& stored, T derived, NameFn&& name) {
    static_assert(std::is_unsigned_v<T>, "a stored count or size");
    if (stored) count(pos(), sizeof(T), name);
    store(append(sizeof(T)), stored.value_or(derived), sizeof(T));
  }

  // A u32 to be filled in once its target is written.
  std::size_t placeholder_u32() {
    std::size_t at = pos();
    u32(0);
    return at;
  }
  void patch_u32(std::size_t at, std::uint32_t v);
  void patch_u16(std::size_t at, std::uint16_t v);

  // Field marks are recorded only when asked for, so plain writes pay nothing.
  bool marking() const { return marking_; }
  template <typename NameFn>
  void mark(NameFn&& name) {
    if (marking_) report_->fields.push_back({pos(), name()});
  }
  // Where an embedded file's own writer reports to: nowhere when this writer reports nowhere.
  std::optional<WriteReport> nested_report() const {
    if (report_ == nullptr) return std::nullopt;
    return WriteReport{marking_, 0, {}, {}};
  }
  // The report of a record written elsewhere (an embedded file), moved to `base` and named under `prefix`.
  void add_report(const WriteReport& nested, std::size_t base, const std::string& prefix);

  [[noreturn]] void fail(const std::string& field, const std::string& message) const {
    throw WriteFailure{Error{ErrorCode::inconsistent, pos(), field, message}};
  }

 private:
  void grow(std::size_t n);
  void append_copy(std::span<const std::uint8_t> b);
  template <typename NameFn>
  void count(std::size_t at, std::size_t n, NameFn&& name) {
    if (report_ == nullptr) return;
    report_->verbatim_bytes += n;
    if (marking_) report_->verbatim_runs.push_back({at, n, name()});
  }

  Bytes out_;
  std::size_t len_ = 0;
  Endian endian_;
  WriteReport* report_;
  bool marking_;
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
