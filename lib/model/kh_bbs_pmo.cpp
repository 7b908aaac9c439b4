#include "model/kh_bbs_pmo.hpp"

#include "model/psp_vertex.hpp"

namespace remodel {

std::uint8_t PmoSection::vertex_size() const {
  return stored_vertex_size.value_or(psp::VertexFormat::parse(vertex_flags & 0xFFFFFF).layout().size);
}

std::size_t PmoSection::vertex_count() const {
  const std::uint8_t size = vertex_size();
  return size == 0 ? 0 : vertices.size() / size;
}

std::size_t PmoSection::triangle_count() const {
  const std::size_t vc = vertex_count();
  switch (primitive()) {
    case 3: return vc / 3;
    case 4: {
      if (strip_lengths.empty()) return vc > 2 ? vc - 2 : 0;  // no lengths: one strip of every vertex
      std::size_t n = 0;
      for (std::uint16_t len : strip_lengths) n += len > 2 ? len - 2 : 0;
      return n;
    }
    default: return 0;
  }
}

namespace {

template <typename F>
void for_each_section(const Pmo& p, F&& f) {
  for (const auto* list : {&p.mesh0, &p.mesh1}) {
    if (!list->has_value()) continue;
    for (const PmoSection& s : (*list)->sections) f(s);
  }
}

std::size_t gaps(const std::vector<Bytes>& runs) {
  std::size_t n = 0;
  for (const Bytes& b : runs) n += b.size();
  return n;
}

}  // namespace

std::size_t Pmo::triangle_count() const {
  std::size_t n = 0;
  for_each_section(*this, [&](const PmoSection& s) { n += s.triangle_count(); });
  return n;
}

std::size_t Pmo::vertex_count() const {
  std::size_t n = 0;
  for_each_section(*this, [&](const PmoSection& s) { n += s.vertex_count(); });
  return n;
}

std::size_t verbatim_bytes(const Pmo& p) {
  std::size_t n = p.gap_before_mesh0.size() + p.gap_before_mesh1.size() + p.gap_before_skeleton.size() +
                  gaps(p.gaps_before_tim2) + (p.stored_triangle_count ? 2 : 0) + (p.stored_vertex_count ? 2 : 0);
  for (const auto* list : {&p.mesh0, &p.mesh1}) {
    if (list->has_value()) n += (*list)->end_verbatim.size();
  }
  for_each_section(p, [&](const PmoSection& s) { n += s.end_padding.size() + (s.stored_vertex_size ? 1 : 0); });
  for (const Tim2& t : p.tim2s) n += tim2_verbatim_bytes(t);
  if (p.skeleton && p.skeleton->stored_skinned_count) n += 2;
  return n;
}

std::size_t verbatim_bytes(const PmoFile& f) { return verbatim_bytes(f.pmo) + f.tail.size(); }

std::size_t verbatim_bytes(const Pmp& p) {
  std::size_t n = gaps(p.gaps_before_pmo) + p.gap_before_texture_list.size() + gaps(p.gaps_before_tim2) +
                  p.tail.size() + (p.stored_model_count ? 2 : 0);
  for (const Pmo& pmo : p.pmos) n += verbatim_bytes(pmo);
  for (const Tim2& t : p.tim2s) n += tim2_verbatim_bytes(t);
  return n;
}

std::string fixed_string(const std::uint8_t* data, std::size_t size) {
  std::size_t n = 0;
  while (n < size && data[n] != 0) ++n;
  return std::string(reinterpret_cast<const char*>(data), n);
}

}  // namespace remodel
