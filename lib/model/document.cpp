#include "model/document.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <type_traits>

namespace remodel {

const char* format_name(Format f) {
  switch (f) {
    case Format::kh_bbs_pmo: return "kh-bbs-pmo";
    case Format::kh_bbs_pmp: return "kh-bbs-pmp";
    case Format::tim2: return "tim2";
    case Format::kh_bbs_pam: return "kh-bbs-pam";
    case Format::kh_bbs_pam_anim: return "kh-bbs-pam-anim";
    case Format::mhfu_pmo: return "mhfu-pmo";
    case Format::mhfu_skeleton: return "mhfu-skeleton";
    case Format::tmh: return "tmh";
    case Format::mhfu_pac: return "mhfu-pac";
    case Format::bwm: return "bwm";
    case Format::j3d: return "j3d";
  }
  return "unknown";
}

std::optional<Format> detect_format(ByteSpan b) {
  if (b.size() < 4) return std::nullopt;
  if (std::memcmp(b.data(), "PMO\0", 4) == 0) return Format::kh_bbs_pmo;
  if (std::memcmp(b.data(), "PMP\0", 4) == 0) return Format::kh_bbs_pmp;
  if (std::memcmp(b.data(), "TIM2", 4) == 0) return Format::tim2;
  if (std::memcmp(b.data(), "PAM\0", 4) == 0) return Format::kh_bbs_pam;
  if (std::memcmp(b.data(), "pmo\0", 4) == 0) return Format::mhfu_pmo;
  if (b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0xC0) return Format::mhfu_skeleton;
  if (b.size() >= 8 && std::memcmp(b.data(), ".TMH0.14", 8) == 0) return Format::tmh;
  if (std::memcmp(b.data(), "J3D2", 4) == 0) return Format::j3d;
  if (looks_like_bwm(b)) return Format::bwm;
  if (looks_like_pac(b)) return Format::mhfu_pac;  // no magic: a plausible entry table
  if (looks_like_pam_anim(b)) return Format::kh_bbs_pam_anim;  // no magic: checked last
  return std::nullopt;
}

template <Format F, typename T>
constexpr bool alternative_is = std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(F), Document>, T>;
static_assert(alternative_is<Format::kh_bbs_pmo, PmoFile> && alternative_is<Format::kh_bbs_pmp, Pmp> &&
              alternative_is<Format::tim2, Tim2File> && alternative_is<Format::kh_bbs_pam, Pam> &&
              alternative_is<Format::kh_bbs_pam_anim, PamAnimFile> && alternative_is<Format::mhfu_pmo, MhfuPmoFile> &&
              alternative_is<Format::mhfu_skeleton, MhfuSkeletonFile> && alternative_is<Format::tmh, TmhFile> &&
              alternative_is<Format::mhfu_pac, Pac> && alternative_is<Format::bwm, Bwm> &&
              alternative_is<Format::j3d, J3dFile>);

Format format_of(const Document& d) {
  return static_cast<Format>(d.index());
}

namespace {

template <typename T>
Result<Document> lift(Result<T> r) {
  if (!r) return r.error();
  return Document(std::move(r).value());
}

}  // namespace

// The library boundary: an allocation that fails while reading or writing becomes an Error.
Result<Document> read_document(ByteSpan bytes) try {
  const std::optional<Format> f = detect_format(bytes);
  if (!f) return Error{ErrorCode::bad_magic, 0, "magic", "the file does not start with the magic of any supported format"};
  switch (*f) {
    case Format::kh_bbs_pmo: return lift(read_pmo_file(bytes));
    case Format::kh_bbs_pmp: return lift(read_pmp(bytes));
    case Format::tim2: return lift(read_tim2_file(bytes));
    case Format::kh_bbs_pam: return lift(read_pam(bytes));
    case Format::kh_bbs_pam_anim: return lift(read_pam_anim_file(bytes));
    case Format::mhfu_pmo: return lift(read_mhfu_pmo_file(bytes));
    case Format::mhfu_skeleton: return lift(read_mhfu_skeleton_file(bytes));
    case Format::tmh: return lift(read_tmh_file(bytes));
    case Format::mhfu_pac: return lift(read_pac(bytes));
    case Format::bwm: return lift(read_bwm(bytes));
    case Format::j3d: return lift(read_j3d(bytes));
  }
  return Error{ErrorCode::unsupported, 0, "", "unsupported format"};
} catch (const std::bad_alloc&) {
  return out_of_memory_error();
}

Result<Bytes> write_document(const Document& d, std::vector<FieldMark>* marks) try {
  if (const auto* pmo = std::get_if<PmoFile>(&d)) return write_pmo_file(*pmo, marks);
  if (const auto* pmp = std::get_if<Pmp>(&d)) return write_pmp(*pmp, marks);
  if (const auto* pam = std::get_if<Pam>(&d)) return write_pam(*pam, marks);
  if (const auto* anim = std::get_if<PamAnimFile>(&d)) return write_pam_anim_file(*anim, marks);
  if (const auto* mhfu = std::get_if<MhfuPmoFile>(&d)) return write_mhfu_pmo_file(*mhfu, marks);
  if (const auto* skel = std::get_if<MhfuSkeletonFile>(&d)) return write_mhfu_skeleton_file(*skel, marks);
  if (const auto* tmh = std::get_if<TmhFile>(&d)) return write_tmh_file(*tmh, marks);
  if (const auto* pac = std::get_if<Pac>(&d)) return write_pac(*pac, marks);
  if (const auto* bwm = std::get_if<Bwm>(&d)) return write_bwm(*bwm, marks);
  if (const auto* j3d = std::get_if<J3dFile>(&d)) return write_j3d(*j3d, marks);
  return write_tim2_file(std::get<Tim2File>(d), marks);
} catch (const std::bad_alloc&) {
  return out_of_memory_error();
}

std::size_t verbatim_bytes(const Document& d) {
  return std::visit([](const auto& doc) { return verbatim_bytes(doc); }, d);
}

namespace {

void add_pmo(DocumentInfo& info, const Pmo& p) {
  for (const auto* list : {&p.mesh0, &p.mesh1}) {
    if (list->has_value()) info.sections += (*list)->sections.size();
  }
  info.vertices += p.vertex_count();
  info.triangles += p.triangle_count();
  if (p.skeleton) info.joints += p.skeleton->joints.size();
  info.models += 1;
}

void add_animation(DocumentInfo& info, const PamAnimation& a) {
  info.animations += 1;
  info.joints = std::max(info.joints, a.bones.size());
  info.frames = std::max<std::size_t>(info.frames, a.frame_count);
}

// Counts from the decoded command lists; a block that does not decode counts nothing.
void add_mhfu_pmo(DocumentInfo& info, const MhfuPmo& p) {
  info.models += 1;
  info.sections += p.groups.size();
  info.materials = p.materials.size();
  for (const MhfuBlock& b : p.blocks) {
    Result<MhfuDrawList> d = decode_mhfu_block(b);
    if (!d) continue;
    info.vertices += d->vertex_count;
    info.triangles += mhfu_triangles(*d).size();
  }
}

}  // namespace

DocumentInfo document_info(const Document& d) {
  DocumentInfo info{format_of(d)};
  if (const auto* f = std::get_if<PmoFile>(&d)) {
    add_pmo(info, f->pmo);
    info.textures = f->pmo.textures.size();
    info.size = 0;
  } else if (const auto* p = std::get_if<Pmp>(&d)) {
    for (const Pmo& pmo : p->pmos) add_pmo(info, pmo);
    info.textures = p->textures.size();
    info.objects = p->objects.size();
  } else if (const auto* t = std::get_if<Tim2File>(&d)) {
    info.textures = t->tim2.pictures.size();
  } else if (const auto* pam = std::get_if<Pam>(&d)) {
    for (const PamAnimation& a : pam->animations) add_animation(info, a);
  } else if (const auto* anim = std::get_if<PamAnimFile>(&d)) {
    add_animation(info, anim->animation);
  } else if (const auto* mhfu = std::get_if<MhfuPmoFile>(&d)) {
    add_mhfu_pmo(info, mhfu->pmo);
    std::vector<bool> seen(256, false);  // the TMH beside it holds the textures; count those used
    for (const MhfuMaterial& m : mhfu->pmo.materials) {
      if (m.texture != 0xFF && !seen[m.texture]) ++info.textures;
      if (m.texture != 0xFF) seen[m.texture] = true;
    }
  } else if (const auto* skel = std::get_if<MhfuSkeletonFile>(&d)) {
    info.joints = skel->skeleton.bones.size();
  } else if (const auto* tmh = std::get_if<TmhFile>(&d)) {
    info.textures = tmh->tmh.images.size();
  } else if (const auto* bwm = std::get_if<Bwm>(&d)) {
    info.models = 1;
    info.sections = bwm->meshes.size();
    info.vertices = bwm->vertex_count;
    for (const BwmMesh& m : bwm->meshes) {
      for (const BwmMaterialRef& r : m.material_refs) {
        if (auto t = bwm_triangles(*bwm, r)) info.triangles += t->size();
      }
    }
    info.joints = bwm->bones.size();
    info.materials = bwm->materials.size();
  } else if (const auto* j3d = std::get_if<J3dFile>(&d)) {
    info.models = 1;
    for (const J3dSection& s : j3d->sections) {
      if (const auto* inf = std::get_if<J3dInf1>(&s)) info.vertices = inf->vertex_count;
      if (const auto* jnt = std::get_if<J3dJnt1>(&s)) info.joints = jnt->joints.size();
      if (const auto* tex = std::get_if<J3dTex1>(&s)) info.textures = tex->textures.size();
      if (const auto* mat = std::get_if<J3dMat3>(&s)) info.materials = mat->remap.size();
      if (const auto* shp = std::get_if<J3dShp1>(&s)) {
        info.sections = shp->shapes.size();
        for (const J3dPacket& p : shp->packets) {
          for (const J3dPrimitive& prim : p.primitives) info.triangles += j3d_triangles(prim).size();
        }
      }
    }
  } else {
    const Pac& pac = std::get<Pac>(d);
    info.entries = pac.entries.size();
    for (const PacEntry& e : pac.entries) {
      if (const auto* m = std::get_if<MhfuPmoFile>(&e.content)) add_mhfu_pmo(info, m->pmo);
      if (const auto* s = std::get_if<MhfuSkeletonFile>(&e.content)) info.joints += s->skeleton.bones.size();
      if (const auto* t = std::get_if<TmhFile>(&e.content)) info.textures += t->tmh.images.size();
    }
  }
  return info;
}

}  // namespace remodel
