// The family table: every format registers here once, in the order of Format. A format's own files in
// lib/scene/<family>/ supply its typed lift, lower and author; the entry erases the Document to them.
#include "scene/family_table.hpp"

#include <algorithm>
#include <array>

namespace remodel::scene {

namespace {

template <typename T, Result<Scene> (*Lift)(const T&, const LiftInputs&) = nullptr,
          Result<Lowered> (*Lower)(const Scene&, const T&, const LowerInputs&) = nullptr>
constexpr FamilyEntry entry(const char* family, std::span<const FileKind> files, bool by_extension, const char* instead,
                            Result<Lowered> (*author)(const Scene&, const LowerInputs&) = nullptr) {
  FamilyEntry e{format_of_type<T>(), family, files, by_extension, instead, nullptr, nullptr, author};
  if constexpr (Lift != nullptr) e.lift = [](const Document& d, const LiftInputs& in) { return Lift(std::get<T>(d), in); };
  if constexpr (Lower != nullptr) {
    e.lower = [](const Scene& scene, const Document& base, const LowerInputs& in) { return Lower(scene, std::get<T>(base), in); };
  }
  return e;
}

// What a file holding no model stands beside, for every such format today.
constexpr const char* kPassTheModel =
    "a PAM with --anim beside its PMO; an MHFU skeleton or TMH with --skeleton/--textures beside the PMO, or the whole PAC; "
    "a BCK or BCA with --anim beside its BMD/BDL";

// An archive holds no model itself: its members do.
constexpr const char* kPassAMember = "a model inside it: `remodel extract` its members (or `remodel ls` them) and pass the model";

constexpr FileKind kKhBbsPmo[] = {{".pmo", "KH BBS PMO"}};
constexpr FileKind kKhBbsPmp[] = {{".pmp", "KH BBS PMP map"}};
constexpr FileKind kTim2[] = {{".tm2", "TIM2 texture"}};
constexpr FileKind kKhBbsPam[] = {{".pam", "KH BBS PAM animations"}};
constexpr FileKind kMhfuPmo[] = {{".pmo", "MHFU PMO without skeleton"}};
constexpr FileKind kMhfuSkeleton[] = {{".skel", "MHFU skeleton"}};
constexpr FileKind kTmh[] = {{".tmh", "MHFU TMH texture bank"}};
constexpr FileKind kJ3d[] = {{".bmd", "J3D BMD", "j3d-bmd"}, {".bdl", "J3D BDL", "j3d-bdl"}};
constexpr FileKind kBwm[] = {{".bwm", "Black & White 2 BWM"}};
constexpr FileKind kRarc[] = {{".arc", "GameCube/Wii RARC archive"}, {".rarc", "GameCube/Wii RARC archive"}};
constexpr FileKind kYaz0[] = {{".szs", "Yaz0-compressed file"}, {".yaz0", "Yaz0-compressed file"}};
constexpr FileKind kMhfuPac[] = {{".pac", "MHFU PAC"}};
constexpr FileKind kKhBbsPamAnim[] = {{".anim", "KH BBS PAM animation record"}};
constexpr FileKind kJ3dAnim[] = {{".bck", "J3D joint animation (ANK1)"},
                                 {".bca", "J3D full-frame joint animation (ANF1)", "j3d-bca"},
                                 {".btp", "J3D texture pattern animation (TPT1)", nullptr, false},
                                 {".bva", "J3D shape visibility animation (VAF1)", nullptr, false},
                                 {".btk", "J3D texture-matrix animation (TTK1)", nullptr, false},
                                 {".brk", "J3D TEV colour animation (TRK1)", nullptr, false},
                                 {".bpk", "J3D material colour animation (PAK1)", nullptr, false}};

constexpr std::array kFamilies = {
    entry<PmoFile, lift_kh_bbs_pmo, lower_kh_bbs_pmo>("kh-bbs", kKhBbsPmo, true, nullptr, author_kh_bbs_pmo),
    entry<Pmp, lift_kh_bbs_pmp, lower_kh_bbs_pmp>("kh-bbs", kKhBbsPmp, true, nullptr),
    entry<Tim2File>("kh-bbs", kTim2, true, kPassTheModel),
    entry<Pam, nullptr, lower_kh_bbs_pam>("kh-bbs", kKhBbsPam, true, kPassTheModel, author_kh_bbs_pam),
    entry<MhfuPmoFile, lift_mhfu_pmo, lower_mhfu_pmo>("mhfu", kMhfuPmo, false, nullptr, author_mhfu_pmo),
    entry<MhfuSkeletonFile>("mhfu", kMhfuSkeleton, true, kPassTheModel),
    entry<TmhFile>("mhfu", kTmh, true, kPassTheModel),
    entry<J3dFile, lift_j3d, lower_j3d>("j3d", kJ3d, true, nullptr, author_j3d),
    entry<Bwm, lift_bwm, lower_bwm>("bwm", kBwm, true, nullptr, author_bwm),
    entry<Rarc>("archive", kRarc, true, kPassAMember),
    entry<Yaz0File>("archive", kYaz0, true, kPassAMember),
    entry<Pac, lift_mhfu_pac, lower_mhfu_pac>("mhfu", kMhfuPac, true, nullptr, author_mhfu_pac),
    entry<PamAnimFile, nullptr, lower_kh_bbs_pam_anim>("kh-bbs", kKhBbsPamAnim, true, kPassTheModel),
    entry<J3dAnimFile, nullptr, lower_j3d_anim>("j3d", kJ3dAnim, true, kPassTheModel, author_j3d_anim),
};

constexpr bool in_format_order() {
  for (std::size_t i = 0; i < kFamilies.size(); ++i) {
    if (static_cast<std::size_t>(kFamilies[i].format) != i) return false;
  }
  return kFamilies.size() == std::variant_size_v<Document>;
}
static_assert(in_format_order(), "one entry per Format (and Document alternative), in the order of Format");

constexpr bool lift_or_instead() {
  return std::all_of(kFamilies.begin(), kFamilies.end(), [](const FamilyEntry& e) { return (e.lift == nullptr) != (e.instead == nullptr); });
}
static_assert(lift_or_instead(), "a format either lifts a model or says what to export instead");

}  // namespace

std::span<const FamilyEntry> family_table() {
  return kFamilies;
}

const FamilyEntry& family_entry(Format f) {
  return kFamilies[static_cast<std::size_t>(f)];
}

std::vector<const FamilyEntry*> entries_by_family() {
  std::vector<const FamilyEntry*> out;
  for (const FamilyEntry& first : kFamilies) {
    if (std::any_of(out.begin(), out.end(), [&](const FamilyEntry* e) { return std::string_view(e->family) == first.family; })) continue;
    for (const FamilyEntry& e : kFamilies) {
      if (std::string_view(e.family) == first.family) out.push_back(&e);
    }
  }
  return out;
}

}  // namespace remodel::scene
