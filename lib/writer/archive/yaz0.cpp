// Writes Yaz0: the header, the stream (re-compressed by Nintendo's rule, or as stored), the padding.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "model/archive/yaz0.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

namespace {

constexpr std::size_t kMinMatch = 3;
constexpr std::size_t kHashBits = 15;

// Every position before `pos` that starts with the same three bytes, chained within the window: the
// candidates of a match of 3 bytes or more, walked from the farthest so the farthest longest wins.
class MatchFinder {
 public:
  explicit MatchFinder(ByteSpan data) : data_(data), head_(std::size_t{1} << kHashBits, kNone), prev_(kYaz0Window, kNone) {
    candidates_.reserve(kYaz0Window);
  }

  struct Match {
    std::size_t length = 1, from = 0;
  };

  // The match at `pos` as Nintendo's encoder picks it (length 1: a literal).
  Match longest(std::size_t pos) {
    insert_before(pos);
    Match best;
    if (data_.size() - pos < kMinMatch) return best;
    const std::size_t limit = std::min(kYaz0MaxMatch, data_.size() - pos);
    const std::size_t start = pos > kYaz0Window ? pos - kYaz0Window : 0;
    candidates_.clear();
    for (std::uint32_t i = head_[hash(pos)]; i != kNone && i >= start; i = prev_[i % kYaz0Window]) {
      candidates_.push_back(i);
    }
    for (std::size_t k = candidates_.size(); k-- > 0;) {
      const std::size_t from = candidates_[k];
      if (data_[from + best.length] != data_[pos + best.length]) continue;  // cannot be longer
      std::size_t n = 0;
      while (n < limit && data_[from + n] == data_[pos + n]) ++n;
      if (n > best.length) best = {n, from};
      if (n == limit) break;
    }
    if (best.length < kMinMatch) best.length = 1;
    return best;
  }

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;
  std::size_t hash(std::size_t p) const {
    const std::uint32_t v = std::uint32_t{data_[p]} << 16 | std::uint32_t{data_[p + 1]} << 8 | data_[p + 2];
    return (v * 2654435761u) >> (32 - kHashBits);
  }
  void insert_before(std::size_t pos) {
    for (; inserted_ < pos; ++inserted_) {
      if (data_.size() - inserted_ < kMinMatch) continue;
      const std::size_t h = hash(inserted_);
      prev_[inserted_ % kYaz0Window] = head_[h];
      head_[h] = static_cast<std::uint32_t>(inserted_);
    }
  }

  ByteSpan data_;
  std::vector<std::uint32_t> head_, prev_, candidates_;
  std::size_t inserted_ = 0;
};

// Nintendo's encoder, group by group: `group_done(out, group_start)` is called as each group of 8
// ends (and after the last), and a false return stops the encoding there.
template <typename GroupDone>
void encode(ByteSpan data, Bytes& out, GroupDone&& group_done) {
  MatchFinder finder(data);
  std::size_t pos = 0, group = 0;
  int bit = 0;
  std::optional<MatchFinder::Match> next;  // the match one byte on, taken after a literal
  while (pos < data.size()) {
    if (bit == 0) {
      if (!out.empty() && !group_done(out, group)) return;
      group = out.size();
      out.push_back(0);
      bit = 8;
    }
    MatchFinder::Match m;
    if (next) {
      m = *next;
      next.reset();
    } else {
      m = finder.longest(pos);
      if (m.length >= kMinMatch && pos + 1 < data.size()) {
        const MatchFinder::Match on = finder.longest(pos + 1);
        if (on.length >= m.length + 2) {
          next = on;
          m.length = 1;
        }
      }
    }
    --bit;
    if (m.length < kMinMatch) {
      out[group] |= static_cast<std::uint8_t>(1u << bit);
      out.push_back(data[pos++]);
      continue;
    }
    const std::size_t back = pos - m.from - 1;
    if (m.length >= 0x12) {
      out.insert(out.end(), {static_cast<std::uint8_t>(back >> 8), static_cast<std::uint8_t>(back), static_cast<std::uint8_t>(m.length - 0x12)});
    } else {
      out.insert(out.end(), {static_cast<std::uint8_t>((m.length - 2) << 4 | back >> 8), static_cast<std::uint8_t>(back)});
    }
    pos += m.length;
  }
  if (!out.empty()) group_done(out, group);
}

}  // namespace

Bytes yaz0_compress(ByteSpan data) {
  Bytes out;
  out.reserve(data.size() + data.size() / 8 + 16);
  encode(data, out, [](const Bytes&, std::size_t) { return true; });
  return out;
}

bool yaz0_compresses_to(ByteSpan data, ByteSpan stream) {
  Bytes out;
  out.reserve(stream.size() + 32);
  bool same = true;
  encode(data, out, [&](const Bytes& made, std::size_t group) {
    same = made.size() <= stream.size() && std::equal(made.begin() + static_cast<std::ptrdiff_t>(group), made.end(), stream.begin() + static_cast<std::ptrdiff_t>(group));
    return same;
  });
  return same && out.size() == stream.size();
}

Result<Bytes> write_yaz0(const Yaz0File& f, WriteReport* report) {
  return guarded_write([&] {
    if (f.data.size() > 0xFFFFFFFFu) throw WriteFailure{Error{ErrorCode::inconsistent, 4, "size", "is more than 4 GiB, past what Yaz0's u32 holds"}};
    ByteWriter w(Endian::big, kYaz0HeaderSize + f.data.size() + f.data.size() / 8 + 64, report);
    w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>("Yaz0"), 4));
    w.u32(static_cast<std::uint32_t>(f.data.size()));
    w.u32(f.unknown_0x08);
    w.u32(f.unknown_0x0C);
    w.mark([] { return std::string("stream"); });
    // A stored stream stands only while it still decompresses to the data (an edit re-compresses).
    Bytes check;
    const bool stored = f.stream.stored() && yaz0_decompress(f.stream.bytes(), f.data.size(), check).ok() && check == f.data;
    if (!stored || !w.verbatim(f.stream, [] { return std::string("stream"); })) w.bytes(yaz0_compress(f.data));
    if (f.padded) w.pad(32, 0, 0);
    w.tail(f.tail);
    return w.take();
  });
}

}  // namespace remodel
