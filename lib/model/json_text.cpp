// Stored bytes as JSON text: UTF-8 as is, else Shift-JIS through iconv, else escaped; hex always kept.
#include <iconv.h>

#include <cerrno>
#include <optional>
#include <string>

#include "model/json.hpp"

namespace remodel {

namespace {

// Length of the valid UTF-8 sequence at s[i] (shortest form, no surrogates, at most U+10FFFF), or 0.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<std::uint8_t>(s[i + k]); };
  const std::uint8_t c = b(0);
  if (c < 0x80) return 1;
  std::size_t n;
  std::uint8_t low = 0x80, high = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) low = 0xA0;
    if (c == 0xED) high = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) low = 0x90;
    if (c == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (s.size() - i < n) return 0;
  if (b(1) < low || b(1) > high) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (b(k) < 0x80 || b(k) > 0xBF) return 0;
  }
  return n;
}

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0, n; i < s.size(); i += n) {
    if ((n = utf8_sequence(s, i)) == 0) return false;
  }
  return true;
}

// One whole conversion through iconv; nullopt when a byte sequence is invalid or iconv lacks the pair.
std::optional<std::string> convert(const char* to, const char* from, std::string_view in) {
  iconv_t cd = ::iconv_open(to, from);
  if (cd == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  std::string out(in.size() * 4 + 16, '\0');  // a CP932 byte pair is at most 3 bytes of UTF-8 and back
  char* src = const_cast<char*>(in.data());
  std::size_t src_left = in.size();
  char* dst = out.data();
  std::size_t dst_left = out.size();
  const std::size_t r = ::iconv(cd, &src, &src_left, &dst, &dst_left);
  // A final call flushes any shift state and reports a truncated trailing sequence.
  const bool ok = r != static_cast<std::size_t>(-1) && src_left == 0 &&
                  ::iconv(cd, nullptr, nullptr, &dst, &dst_left) != static_cast<std::size_t>(-1);
  ::iconv_close(cd);
  if (!ok) return std::nullopt;
  out.resize(out.size() - dst_left);
  return out;
}

// CP932 (Windows-31J) is what Japanese PSP and GameCube tools wrote; only a decoding that encodes back
// to the same bytes is shown, so NEC/IBM duplicate codes fall through to the escaped form.
std::optional<std::string> shift_jis(std::string_view bytes) {
  std::optional<std::string> text = convert("UTF-8", "CP932", bytes);
  if (!text || !valid_utf8(*text)) return std::nullopt;
  const std::optional<std::string> back = convert("CP932", "UTF-8", *text);
  if (!back || *back != bytes) return std::nullopt;
  return text;
}

std::string escaped(std::string_view s) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (std::size_t i = 0, n; i < s.size(); i += n) {
    n = utf8_sequence(s, i);
    if (n > 0 && s[i] != '\\') {
      out.append(s.substr(i, n));
      continue;
    }
    const auto c = static_cast<std::uint8_t>(s[i]);
    out += "\\x";
    out += digits[c >> 4];
    out += digits[c & 15];
    n = 1;
  }
  return out;
}

}  // namespace

std::string hex(ByteSpan b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  s.reserve(b.size() * 2);
  for (std::uint8_t v : b) {
    s += digits[v >> 4];
    s += digits[v & 15];
  }
  return s;
}

nlohmann::ordered_json json_text(std::string_view bytes) {
  if (valid_utf8(bytes)) return std::string(bytes);
  const ByteSpan raw(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  if (std::optional<std::string> text = shift_jis(bytes)) {
    return nlohmann::ordered_json{{"text", *text}, {"encoding", "shift_jis"}, {"bytes", hex(raw)}};
  }
  return nlohmann::ordered_json{{"text", escaped(bytes)}, {"encoding", "escaped"}, {"bytes", hex(raw)}};
}

}  // namespace remodel
