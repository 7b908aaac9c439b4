// The format table: every format registers here once, in detection order. A format's own files supply
// its reader and writer and the overloads add_info, add_json (and add_textures when it holds
// textures); the entry erases them to the table's untyped signatures. There is no verbatim sum to
// register: a writer counts the runs it writes through ByteWriter (verbatim_bytes, document.cpp).
#include <array>

#include <nlohmann/json.hpp>

#include "model/document.hpp"

namespace remodel {

namespace {

template <typename T, Result<T> (*Read)(ByteSpan), Result<Bytes> (*Write)(const T&, WriteReport*),
          void (*Textures)(T&, TextureRefs&) = nullptr>
constexpr FormatEntry entry(Format format, const char* name, std::string_view magic, bool (*detect)(ByteSpan) = nullptr) {
  FormatEntry e{format, name, magic, detect, nullptr, nullptr, nullptr, nullptr, nullptr};
  e.read = [](ByteSpan b) -> Result<Document> {
    Result<T> r = Read(b);
    if (!r) return r.error();
    return Document(std::in_place_type<T>, std::move(r).value());
  };
  e.write = [](const void* d, WriteReport* report) { return Write(*static_cast<const T*>(d), report); };
  e.info = [](const void* d, DocumentInfo& info) { add_info(*static_cast<const T*>(d), info); };
  e.json = [](const void* d, nlohmann::ordered_json& out) { add_json(*static_cast<const T*>(d), out); };
  if constexpr (Textures != nullptr) e.textures = [](void* d, TextureRefs& out) { Textures(*static_cast<T*>(d), out); };
  return e;
}

constexpr std::array kFormats = {
    entry<PmoFile, read_pmo_file, write_pmo_file, add_textures>(Format::kh_bbs_pmo, "kh-bbs-pmo", {"PMO\0", 4}),
    entry<Pmp, read_pmp, write_pmp, add_textures>(Format::kh_bbs_pmp, "kh-bbs-pmp", {"PMP\0", 4}),
    entry<Tim2File, read_tim2_file, write_tim2_file, add_textures>(Format::tim2, "tim2", "TIM2"),
    entry<Pam, read_pam, write_pam>(Format::kh_bbs_pam, "kh-bbs-pam", {"PAM\0", 4}),
    entry<MhfuPmoFile, read_mhfu_pmo_file, write_mhfu_pmo_file>(Format::mhfu_pmo, "mhfu-pmo", {"pmo\0", 4}),
    entry<MhfuSkeletonFile, read_mhfu_skeleton_file, write_mhfu_skeleton_file>(Format::mhfu_skeleton, "mhfu-skeleton", {"\0\0\0\xC0", 4}),
    entry<TmhFile, read_tmh_file, write_tmh_file, add_textures>(Format::tmh, "tmh", ".TMH0.14"),
    entry<J3dFile, read_j3d, write_j3d, add_textures>(Format::j3d, "j3d", "J3D2"),
    entry<Bwm, read_bwm, write_bwm>(Format::bwm, "bwm", {}, looks_like_bwm),
    entry<Rarc, read_rarc, write_rarc>(Format::rarc, "rarc", "RARC"),
    entry<Yaz0File, read_yaz0, write_yaz0>(Format::yaz0, "yaz0", "Yaz0"),
    entry<Pac, read_pac, write_pac, add_textures>(Format::mhfu_pac, "mhfu-pac", {}, looks_like_pac),
    entry<PamAnimFile, read_pam_anim_file, write_pam_anim_file>(Format::kh_bbs_pam_anim, "kh-bbs-pam-anim", {}, looks_like_pam_anim),
    entry<J3dAnimFile, read_j3d_anim, write_j3d_anim>(Format::j3d_anim, "j3d-anim", "J3D1", looks_like_j3d_anim),  // J3D1 and a kind it reads: other J3D1 files stay unknown (an archive keeps them as bytes)
};

constexpr bool in_format_order() {
  for (std::size_t i = 0; i < kFormats.size(); ++i) {
    if (static_cast<std::size_t>(kFormats[i].format) != i) return false;
  }
  return kFormats.size() == std::variant_size_v<Document>;
}
static_assert(in_format_order(), "one entry per Document alternative, in the order of Format");

}  // namespace

std::span<const FormatEntry> format_table() {
  return kFormats;
}

}  // namespace remodel
