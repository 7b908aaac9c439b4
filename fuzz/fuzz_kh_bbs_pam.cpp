// libFuzzer target: KH BBS PAM containers and bare animation records, with the round-trip oracle
// and the value decoder run on whatever parses.
#include <cstddef>
#include <cstdint>

#include "model/kh_bbs/pam.hpp"
#include "round_trip.hpp"

namespace {

void decode_all(const remodel::PamAnimation& a) {
  remodel::Result<remodel::PamDecodedAnimation> d = remodel::decode_pam_animation(a);
  if (!d.ok() && d.error().message.empty()) remodel::fuzz::die("a decode error must say why");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  if (Result<Pam> pam = read_pam(input); pam.ok()) {
    fuzz::expect_round_trip(input, *pam, [](const Pam& p) { return write_pam(p); });
    for (const PamAnimation& a : pam->animations) decode_all(a);
  }
  // Any bytes may be a bare record: there is no magic to rule it out.
  if (Result<PamAnimFile> anim = read_pam_anim_file(input); anim.ok()) {
    fuzz::expect_round_trip(input, *anim, [](const PamAnimFile& f) { return write_pam_anim_file(f); });
    decode_all(anim->animation);
  }
  return 0;
}
