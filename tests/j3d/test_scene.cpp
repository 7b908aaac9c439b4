// The J3D lift on every BMD/BDL sample: bind pose, skin weights, indices, triangle counts, finite
// floats, EVP1 against JNT1, and textures equal to `textures extract`'s decoders.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "model/document.hpp"
#include "model/j3d/j3d.hpp"
#include "model/textures.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"

namespace remodel {
namespace {

struct Lifted {
  std::filesystem::path path;
  Document doc;
  scene::Scene scene;
};

const std::vector<Lifted>& lifted_samples() {
  static const std::vector<Lifted> all = [] {
    std::vector<Lifted> out;
    for (const auto& path : test::sample_files("j3d")) {
      auto doc = read_document(test::load_file(path));
      if (!doc.ok()) {
        ADD_FAILURE() << path << ": " << doc.error().describe();
        continue;
      }
      auto s = scene::lift(*doc);
      if (!s.ok()) {
        ADD_FAILURE() << path << ": lift failed: " << s.error().describe();
        continue;
      }
      out.push_back({path, std::move(*doc), std::move(*s)});
    }
    return out;
  }();
  return all;
}

const J3dShp1& shp1(const Document& doc) {
  for (const J3dSection& s : std::get<J3dFile>(doc).sections) {
    if (const auto* shp = std::get_if<J3dShp1>(&s)) return *shp;
  }
  throw std::runtime_error("no SHP1");
}

TEST(SceneJ3d, BindPoseIsIdentity) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  ASSERT_EQ(lifted_samples().size(), files.size());
  for (const Lifted& l : lifted_samples()) {
    ASSERT_EQ(l.scene.skins.size(), 1u) << l.path;
    const scene::Skin& skin = l.scene.skins[0];
    const auto world = scene::world_matrices(l.scene);
    // Vertices weighted to each joint: a joint scaled to 0 at rest has no inverse and must have none.
    std::vector<std::size_t> weighted(skin.joints.size(), 0);
    for (const auto& m : l.scene.meshes) {
      for (const auto& p : m.primitives) {
        for (std::size_t i = 0; i < p.joints.size(); ++i) {
          if (p.weights[i] > 0 && p.joints[i] < weighted.size()) ++weighted[p.joints[i]];
        }
      }
    }
    // The product in double; the translation column within 1e-4 of the joint's distance from the
    // origin (float32 spacing at 3725, ww_jb's antenna tip, is 2.4e-4).
    double worst = 0;
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
      const scene::Mat4& w = world[static_cast<std::size_t>(skin.joints[j])];
      bool invertible = true;
      (void)scene::inverse(w, &invertible);
      if (!invertible) {
        EXPECT_EQ(weighted[j], 0u) << l.path << " joint " << j;
        for (float f : skin.inverse_bind_matrices[j].m) EXPECT_TRUE(std::isfinite(f)) << l.path << " joint " << j;
        continue;
      }
      const scene::Mat4& ibm = skin.inverse_bind_matrices[j];
      for (float f : ibm.m) EXPECT_TRUE(std::isfinite(f)) << l.path << " joint " << j;
      const double reach = std::max({1.0, std::fabs(double{w.at(0, 3)}), std::fabs(double{w.at(1, 3)}), std::fabs(double{w.at(2, 3)})});
      for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
          double v = 0;
          for (int k = 0; k < 4; ++k) v += double{w.at(r, k)} * double{ibm.at(k, c)};
          const double off = std::fabs(v - (r == c ? 1.0 : 0.0)) / (c == 3 ? reach : 1.0);
          worst = std::max(worst, off);
        }
      }
    }
    EXPECT_LT(worst, 1e-4) << l.path.filename();
    std::size_t triangles = 0;
    for (const auto& m : l.scene.meshes) {
      for (const auto& p : m.primitives) triangles += p.indices.size() / 3;
    }
    std::cout << "[figures] " << l.path.filename().string() << ": nodes " << l.scene.nodes.size() << ", joints " << skin.joints.size()
              << ", meshes " << l.scene.meshes.size() << ", triangles " << triangles << ", materials " << l.scene.materials.size()
              << ", textures " << l.scene.textures.size() << ", max |world*IBM - I| " << worst << " (translation relative)"  << "\n";
  }
}

TEST(SceneJ3d, EveryJointNodeIsInTheSkinAndEveryShapeIsPlaced) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const Lifted& l : lifted_samples()) {
    for (const J3dSection& s : std::get<J3dFile>(l.doc).sections) {
      if (const auto* jnt = std::get_if<J3dJnt1>(&s)) {
        EXPECT_EQ(l.scene.skins[0].joints.size(), jnt->joints.size()) << l.path;
      }
    }
    std::vector<int> drawn(l.scene.meshes.size(), 0);
    for (const auto& n : l.scene.nodes) {
      if (n.mesh < 0) continue;
      ASSERT_LT(static_cast<std::size_t>(n.mesh), l.scene.meshes.size()) << l.path;
      EXPECT_EQ(n.skin, 0) << l.path;
      ++drawn[static_cast<std::size_t>(n.mesh)];
    }
    for (std::size_t m = 0; m < drawn.size(); ++m) EXPECT_GE(drawn[m], 1) << l.path << " mesh " << m;
    EXPECT_EQ(l.scene.meshes.size(), shp1(l.doc).shapes.size()) << l.path;
  }
}

TEST(SceneJ3d, WeightsIndicesAndFloats) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const Lifted& l : lifted_samples()) {
    const std::size_t joint_count = l.scene.skins[0].joints.size();
    for (const auto& mesh : l.scene.meshes) {
      for (const auto& p : mesh.primitives) {
        const std::size_t n = p.vertex_count();
        ASSERT_GT(n, 0u) << l.path << " " << mesh.name;
        ASSERT_EQ(p.influences % 4, 0u) << l.path;
        ASSERT_GT(p.influences, 0u) << l.path;
        ASSERT_EQ(p.joints.size(), n * p.influences) << l.path;
        ASSERT_EQ(p.weights.size(), n * p.influences) << l.path;
        ASSERT_TRUE(p.normals.empty() || p.normals.size() == n) << l.path;
        ASSERT_TRUE(p.colors.empty() || p.colors.size() == n) << l.path;
        for (const auto& uv : p.uvs) ASSERT_EQ(uv.size(), n) << l.path;
        std::size_t bad_sum = 0, bad_joint = 0, bad_float = 0, bad_index = 0;
        for (std::size_t v = 0; v < n; ++v) {
          float sum = 0;
          for (std::size_t i = 0; i < p.influences; ++i) {
            sum += p.weights[v * p.influences + i];
            bad_joint += p.joints[v * p.influences + i] >= joint_count;
          }
          bad_sum += std::fabs(sum - 1.0f) > 1e-3f;
          const auto finite = [](std::initializer_list<float> fs) {
            for (float f : fs) {
              if (!std::isfinite(f)) return false;
            }
            return true;
          };
          bad_float += !finite({p.positions[v].x, p.positions[v].y, p.positions[v].z});
          if (!p.normals.empty()) {
            bad_float += !finite({p.normals[v].x, p.normals[v].y, p.normals[v].z});
            bad_float += std::fabs(scene::length(p.normals[v]) - 1.0f) > 1e-3f;
          }
          if (!p.colors.empty()) bad_float += !finite({p.colors[v].x, p.colors[v].y, p.colors[v].z, p.colors[v].w});
          for (const auto& uv : p.uvs) bad_float += !finite({uv[v].x, uv[v].y});
        }
        ASSERT_EQ(p.indices.size() % 3, 0u) << l.path;
        for (std::size_t i = 0; i < p.indices.size(); i += 3) {
          for (int k = 0; k < 3; ++k) bad_index += p.indices[i + k] >= n;
          bad_index += p.indices[i] == p.indices[i + 1] || p.indices[i + 1] == p.indices[i + 2] || p.indices[i] == p.indices[i + 2];
        }
        EXPECT_EQ(bad_sum, 0u) << l.path << " " << mesh.name << ": vertices whose weights do not sum to 1";
        EXPECT_EQ(bad_joint, 0u) << l.path << " " << mesh.name << ": joints past the skin";
        EXPECT_EQ(bad_float, 0u) << l.path << " " << mesh.name << ": non-finite floats or non-unit normals";
        EXPECT_EQ(bad_index, 0u) << l.path << " " << mesh.name << ": indices past the vertices or degenerate triangles";
        if (p.material >= 0) {
          ASSERT_LT(static_cast<std::size_t>(p.material), l.scene.materials.size()) << l.path;
          const scene::Material& material = l.scene.materials[static_cast<std::size_t>(p.material)];
          if (material.texture >= 0) {
            EXPECT_LT(static_cast<std::size_t>(material.uv_set), p.uvs.size()) << l.path << " " << mesh.name;
          }
        }
        if (p.extras.contains("uvs_added")) std::cout << "[figures] " << l.path.filename().string() << " " << mesh.name << ": UV sets added " << p.extras["uvs_added"] << "\n";
      }
    }
  }
}

// document_info counts every triangle the display lists draw; the lift drops the degenerate ones
// (two corners on the same vertex) and says how many in each primitive's extras. Both counts are
// checked: the sum against document_info, the dropped ones against an independent count here.
TEST(SceneJ3d, TrianglesEqualDocumentInfo) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const Lifted& l : lifted_samples()) {
    const J3dShp1& shp = shp1(l.doc);
    std::size_t kept = 0, dropped = 0;
    for (std::size_t m = 0; m < l.scene.meshes.size(); ++m) {
      for (const auto& p : l.scene.meshes[m].primitives) {
        kept += p.indices.size() / 3;
        dropped += p.extras.at("degenerate_triangles").get<std::size_t>();
      }
    }
    EXPECT_EQ(kept + dropped, document_info(l.doc).triangles) << l.path;
    // Degenerate: two corners with the same display-list values and the same loaded matrix.
    std::size_t degenerate = 0;
    for (std::size_t s = 0; s < shp.shapes.size(); ++s) {
      const J3dShape& shape = shp.shapes[s];
      std::size_t present = 0;
      for (const auto& d : shp.descriptor_lists[shape.descriptors]) present += d.type != 0;
      for (std::size_t k = 0; k < shape.packet_count; ++k) {
        for (const J3dPrimitive& prim : shp.packets[shape.first_packet + k].primitives) {
          const auto same = [&](std::uint32_t a, std::uint32_t b) {
            return std::equal(prim.values.begin() + a * present, prim.values.begin() + (a + 1) * present, prim.values.begin() + b * present);
          };
          const std::size_t n = j3d_dl_vertex_count(prim, shp.descriptor_lists[shape.descriptors]).value_or(0);
          for (const auto& t : j3d_triangles(prim.opcode, n)) degenerate += same(t[0], t[1]) || same(t[1], t[2]) || same(t[0], t[2]);
        }
      }
    }
    EXPECT_EQ(dropped, degenerate) << l.path;
  }
}

// EVP1's inverse binds were computed from exact angles, JNT1 stores them rounded to s16: they agree
// to that rounding (rotation within 1e-3, translation within 5e-4 of the model's size; ww_ka: 1.8e-4).
TEST(SceneJ3d, Evp1InverseBindsAgreeWithJnt1) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const Lifted& l : lifted_samples()) {
    const scene::Skin& skin = l.scene.skins[0];
    const auto& stored = skin.extras.at("evp1_inverse_binds");
    if (stored.empty()) continue;
    ASSERT_EQ(stored.size(), skin.joints.size()) << l.path;
    const auto world = scene::world_matrices(l.scene);
    float size = 1, rotation = 0, translation = 0;
    for (const auto& w : world) size = std::max({size, std::fabs(w.at(0, 3)), std::fabs(w.at(1, 3)), std::fabs(w.at(2, 3))});
    std::vector<bool> enveloped(skin.joints.size(), false);  // other joints' EVP1 matrices are not used (Mario's PartsControl: 0)
    for (const J3dSection& s : std::get<J3dFile>(l.doc).sections) {
      if (const auto* evp = std::get_if<J3dEvp1>(&s)) {
        for (const auto& e : evp->envelopes) {
          for (std::uint16_t j : e.joints) enveloped.at(j) = true;
        }
      }
    }
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
      if (!enveloped[j]) continue;
      const auto rows = stored[j].get<std::array<float, 12>>();
      const scene::Mat4 bind = scene::inverse(scene::Mat4::from_3x4_rows(rows.data()));
      const scene::Mat4& w = world[static_cast<std::size_t>(skin.joints[j])];
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) rotation = std::max(rotation, std::fabs(bind.at(r, c) - w.at(r, c)));
        translation = std::max(translation, std::fabs(bind.at(r, 3) - w.at(r, 3)));
      }
    }
    std::cout << "[figures] " << l.path.filename().string() << ": EVP1 vs JNT1 bind: rotation " << rotation << ", translation "
              << translation << " of " << size << "\n";
    EXPECT_LT(rotation, 1e-3f) << l.path;
    EXPECT_LT(translation, 5e-4f * size) << l.path;
  }
}

// GX front faces wind clockwise, glTF's counter-clockwise: after the lift, most triangles' faces
// point the way their vertex normals do (a few folds and flat-shaded seams do not).
TEST(SceneJ3d, WindingAgreesWithNormals) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  std::size_t with_normals = 0;
  for (const Lifted& l : lifted_samples()) {
    std::size_t agree = 0, total = 0;
    for (const auto& m : l.scene.meshes) {
      for (const auto& p : m.primitives) {
        if (p.normals.empty()) continue;
        for (std::size_t i = 0; i + 2 < p.indices.size(); i += 3) {
          const std::uint32_t a = p.indices[i], b = p.indices[i + 1], c = p.indices[i + 2];
          const scene::Vec3 face = scene::cross(p.positions[b] - p.positions[a], p.positions[c] - p.positions[a]);
          if (scene::length(face) < 1e-6f) continue;
          ++total;
          agree += scene::dot(face, p.normals[a] + p.normals[b] + p.normals[c]) > 0;
        }
      }
    }
    if (total == 0) continue;
    ++with_normals;
    std::cout << "[figures] " << l.path.filename().string() << ": " << agree << " of " << total << " faces agree with their normals\n";
    EXPECT_GT(agree, total * 9 / 10) << l.path;
  }
  EXPECT_GT(with_normals, 0u);
}

TEST(SceneJ3d, TexturesEqualTheDecoders) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const Lifted& l : lifted_samples()) {
    ASSERT_EQ(l.scene.textures.size(), list_textures(l.doc).size()) << l.path;
    for (std::size_t t = 0; t < l.scene.textures.size(); ++t) {
      auto image = decode_texture(l.doc, t);
      ASSERT_TRUE(image.ok()) << l.path;
      EXPECT_TRUE(l.scene.textures[t].image == *image) << l.path << " texture " << t;
      EXPECT_EQ(l.scene.textures[t].name, list_textures(l.doc)[t].name) << l.path;
    }
    for (const auto& m : l.scene.materials) {
      EXPECT_LT(m.texture, static_cast<int>(l.scene.textures.size())) << l.path;
    }
  }
}

}  // namespace
}  // namespace remodel

namespace remodel {
namespace {

// A material that samples a UV set its shape does not draw (every texgen edited to read TEX3) gets
// that set added as zeros, so the export never names a missing TEXCOORD_n.
TEST(SceneJ3d, MissingUvSetsAreAdded) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  std::size_t added = 0;
  for (const auto& path : files) {
    auto doc = read_document(test::load_file(path));
    ASSERT_TRUE(doc.ok()) << path;
    for (J3dSection& s : std::get<J3dFile>(*doc).sections) {
      if (auto* mat = std::get_if<J3dMat3>(&s)) {
        for (J3dTexGen& g : mat->texgens) g.source = 7;  // GX texgen source TEX3
      }
    }
    auto lifted = scene::lift(*doc);
    ASSERT_TRUE(lifted.ok()) << path << ": " << lifted.error().describe();
    for (const auto& mesh : lifted->meshes) {
      for (const auto& p : mesh.primitives) {
        if (p.material < 0 || lifted->materials[static_cast<std::size_t>(p.material)].texture < 0) continue;
        EXPECT_EQ(lifted->materials[static_cast<std::size_t>(p.material)].uv_set, 3) << path;
        ASSERT_EQ(p.uvs.size(), 4u) << path << " " << mesh.name;
        for (const auto& uv : p.uvs[3]) EXPECT_EQ(uv, (scene::Vec2{0, 0}));
        added += p.extras.contains("uvs_added");
      }
    }
  }
  EXPECT_GT(added, 0u);
}

}  // namespace
}  // namespace remodel
