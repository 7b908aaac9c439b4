// Shared by the KH BBS lowers (kh_bbs_lower*.cpp): the base's encodings of incoming values, and the
// section-level steps the PMO and PMP lowers both run.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/error.hpp"
#include "model/kh_bbs/pmo.hpp"
#include "model/psp/vertex.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene/scene.hpp"

namespace remodel::scene::kh_bbs {

const char* range_of(psp::NumFormat f, bool is_signed);

// A vertex colour as the PMO stores it: RGB 1.0 is 0x80 (the game doubles vertex colours), alpha
// 1.0 is 0xFF; the lift's scaling reversed.
Rgba colour_bytes(const Vec4& c);

// The lifted sections' colours by place: an incoming colour within Blender's noise of the colour a
// lifted vertex within noise of its position holds is taken as that colour, so a rebuilt section
// stores the base's bytes where nobody painted (Blender keeps colours as sRGB bytes: some come back a
// /128 step off).
class LiftedColours {
 public:
  explicit LiftedColours(const std::vector<Primitive>& lifted);
  void keep(Primitive& in) const;

 private:
  std::vector<Vec4> colours_;
  NoiseCells cells_;
};

// scene::check_primitive, and weights PSP can store (0 to 1).
Result<void> check_primitive(const Primitive& p, const std::string& where);

struct SectionEdit {
  const PmoSection& base;
  const Primitive& lifted;    // the base section as the lift gives it
  const Primitive& incoming;
  float scale;                // the PMO's model scale
  const std::vector<int>* bon_of;  // incoming skin joint -> BON joint (-1: none); nullptr without a skeleton
  std::string where;          // the incoming primitive, e.g. "meshes[0].primitives[3]"
  std::string field;          // the section, e.g. "pmo.mesh0.sections[3]"
  bool allow_lists = false;   // authoring: a triangle list where it is smaller than the strips
};

// Writes the incoming values into `out` (a copy of the base section) in place; false when the
// topology or the joints changed, so the section must be rebuilt instead.
Result<bool> lower_section_in_place(const SectionEdit& e, PmoSection& out);

// One section's vertex values as it would store them, to find its vertices among an incoming
// primitive's that merges several sections (e.incoming): integer components (s8/s16 positions and
// normals, u8/u16 UVs and weights, colour bytes) must encode the same; f32 components agree within
// 2^-17 of their magnitude (at least 1), a quarter of the s16 step, below which the GE's own integer
// formats see no change. Missing incoming normals, UVs or colours match anything; a vertex the
// section cannot store (out of range, a joint outside its slots) matches nothing.
class SectionValues {
 public:
  static Result<SectionValues> make(const SectionEdit& e);
  bool same(std::uint32_t base_vertex, std::uint32_t incoming_vertex) const;

 private:
  struct Key {
    psp::Vertex v;
    Rgba colour{};
    bool ok = false, normal = false, uv = false, has_colour = false;
  };
  SectionValues(const SectionEdit& e, psp::VertexFormat f) : e_(&e), format_(f) {}
  Key key(const Primitive& p, std::uint32_t v, const std::vector<int>* bon_of) const;

  const SectionEdit* e_;
  psp::VertexFormat format_;
  Vec2 uv_scale_{1, 1};
  std::vector<Key> base_;
};

// The incoming primitive as new sections in the base section's format and state (texture, group,
// attribute, diffuse): triangle strips (or lists, see allow_lists), at most 8 joints each
// (lower_strips.cpp).
Result<std::vector<PmoSection>> rebuild_section(const SectionEdit& e, std::vector<Warning>& warnings);

// `name` cut to `size` bytes at a UTF-8 character boundary; a warning says so.
std::string fitted_name(const std::string& name, std::size_t size, const std::string& where, std::vector<Warning>& warnings);

// Where new texture infos and their TIM2s go: a PMO's own lists, or inside a PMP the PMO's infos and
// the PMP's shared TIM2s.
struct TextureLists {
  std::vector<PmoTextureInfo>& infos;
  std::vector<Tim2>& tim2s;
  std::vector<Verbatim>& gaps_before_tim2;  // empty, or one per TIM2 (a new TIM2 then adds one)
};

// The texture infos made for Scene textures, each on first use (new_texture_info).
struct NewTextures {
  std::vector<int> info_of;           // per Scene texture: its texture info, -1 until one is made
  std::vector<std::pair<int, Vec2>> uv_scale;  // per texture info made: GE size (next power of two) over image size
  Vec2 uv_scale_of(int info) const;
};

// A section as authoring makes one for a primitive drawn with `material` (-1: none), before the
// rebuild fills it: texture info and TIM2 made for the material's texture (encoded by
// new_tim2_picture), pass and attribute from its alpha mode, the vertex format the data needs (UVs
// u8/u16/f32, colours 8888 when they vary or one uniform diffuse, weights when skinned).
struct NewSection {
  PmoSection base;
  Primitive lifted;  // what the rebuild reads of "the base as lifted": the NPOT UV scale
  int list = 0;      // 0 = mesh0, 1 = mesh1 (the translucent pass)
};
Result<NewSection> new_section(const Scene& scene, const Primitive& prim, int material, bool skinned, NewTextures& made,
                               TextureLists lists, std::vector<Warning>& warnings);

// The BON of skin `skin_index` (authoring, and a PAM over its original without --skeleton): joints
// parents first, each local relative to its nearest ancestor joint, inverse binds as the skin gives them.
Result<Bon> author_bon(const Scene& scene, int skin_index, const std::vector<Mat4>& world, std::vector<int>& bon_of,
                       std::vector<Warning>& warnings);

}  // namespace remodel::scene::kh_bbs
