#include "writer/byte_writer.hpp"

#include <algorithm>

namespace remodel {

void ByteWriter::pad(std::size_t alignment, std::size_t base, std::uint8_t fill_byte) {
  const std::size_t rel = pos() - base;
  fill((alignment - rel % alignment) % alignment, fill_byte);
}

void ByteWriter::add_report(const WriteReport& nested, std::size_t base, const std::string& prefix) {
  if (report_ == nullptr) return;
  report_->verbatim_bytes += nested.verbatim_bytes;
  if (!marking_) return;
  for (const FieldMark& m : nested.fields) report_->fields.push_back({base + m.offset, prefix + m.field});
  for (const VerbatimRun& r : nested.verbatim_runs) report_->verbatim_runs.push_back({base + r.offset, r.size, prefix + r.field});
}

// Room for small values comes in chunks of at most 4 KiB, so only what they write is zero-filled
// first; the vector's own growth (doubling) keeps reallocation amortised.
void ByteWriter::grow(std::size_t n) {
  std::size_t size = len_ + std::max(n, std::clamp<std::size_t>(out_.size(), 256, 4096));
  if (size > out_.capacity() && len_ + n <= out_.capacity()) size = out_.capacity();  // the reserve first
  out_.resize(size);
}

// A copy larger than the room appends to the trimmed vector, which copies without zero-filling first.
void ByteWriter::append_copy(std::span<const std::uint8_t> b) {
  out_.resize(len_);
  out_.insert(out_.end(), b.begin(), b.end());
  len_ = out_.size();
}

void ByteWriter::patch_u32(std::size_t at, std::uint32_t v) { store(out_.data() + at, v, 4); }

void ByteWriter::patch_u16(std::size_t at, std::uint16_t v) { store(out_.data() + at, v, 2); }

}  // namespace remodel
