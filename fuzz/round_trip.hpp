// The fuzz oracle: whatever reads must write back to the same bytes, and every decoder must
// succeed or fail cleanly on what was read.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/textures.hpp"

namespace remodel::fuzz {

[[noreturn]] inline void die(const char* what) {
  std::fprintf(stderr, "round-trip oracle failed: %s\n", what);
  std::abort();
}

template <typename Doc, typename WriteFn>
void expect_round_trip(ByteSpan input, const Doc& doc, WriteFn&& write) {
  Result<Bytes> out = write(doc);
  if (!out.ok()) die("a document that reads must write");
  if (out->size() != input.size() || !std::equal(out->begin(), out->end(), input.begin())) die("write(read(x)) != x");
}

// Every texture that decodes re-encodes, unedited, to the input's bytes. On one input in 32 the
// first small texture is replaced by its negative (quantising or compressing, which is slow) and the
// file must still write, read and decode. Inputs over 64 KiB (mutated samples) are checked one in 16,
// so the fuzzer keeps its speed on them; `one_in` thins every input further.
inline void expect_textures_round_trip(ByteSpan input, const Document& doc, std::size_t one_in = 1) {
  // Which inputs are checked follows their bytes, not their size: written files are often 32-aligned.
  std::uint64_t hash = 1469598103934665603ull ^ input.size();
  for (std::size_t i = 0, step = input.size() / 256 + 1; i < input.size(); i += step) hash = (hash ^ input[i]) * 1099511628211ull;
  if (hash % one_in != 0 || (input.size() > 65536 && hash / one_in % 16 != 0)) return;
  Document same = doc;
  bool edit = hash / 7 % 32 == 0;
  const std::vector<TextureInfo> textures = list_textures(doc);
  for (std::size_t i = 0; i < textures.size(); ++i) {
    Result<RgbaImage> image = decode_texture(doc, i);
    if (!image.ok()) {
      if (image.error().message.empty()) die("a texture decode error must say why");
      continue;
    }
    if (auto replaced = replace_texture(same, i, *image); !replaced) {
      std::fprintf(stderr, "texture %zu: %s\n", i, replaced.error().describe().c_str());
      die("a decoded texture must re-encode unedited");
    }
    if (!edit || image->width * image->height > 32 * 32) continue;
    edit = false;
    Document edited = doc;
    RgbaImage negative = *image;
    for (std::size_t k = 0; k < negative.rgba.size(); ++k) negative.rgba[k] = static_cast<std::uint8_t>(255 - negative.rgba[k]);
    if (!replace_texture(edited, i, negative)) continue;  // refused with a reason (a shared palette)
    Result<Bytes> out = write_document(edited);
    if (!out.ok()) die("a replaced texture must write");
    Result<Document> again = read_document(*out);
    if (!again.ok()) die("a file with a replaced texture must read");
    if (!decode_texture(*again, i).ok()) die("a replaced texture must decode");
  }
  Result<Bytes> out = write_document(same);
  if (!out.ok() || out->size() != input.size() || !std::equal(out->begin(), out->end(), input.begin())) {
    die("re-encoding unedited textures changed the file");
  }
}

}  // namespace remodel::fuzz
