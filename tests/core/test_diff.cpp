// diff_json / diff_documents: the paths and values `remodel diff` reports, on hand-made JSON.
#include <gtest/gtest.h>

#include "model/diff.hpp"
#include "model/kh_bbs/demo.hpp"

namespace remodel {
namespace {

using Json = nlohmann::ordered_json;

TEST(Diff, ReportsLeavesMissingFieldsAndArrayTails) {
  const Json a = Json::parse(R"({"h": {"count": 3, "name": "a"}, "v": [1, 2, 3], "only_a": 1})");
  const Json b = Json::parse(R"({"h": {"count": 4, "name": "a"}, "v": [1, 5], "only_b": true})");
  std::vector<FieldDifference> out;
  EXPECT_EQ(diff_json(a, b, out), 5u);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].field, "h.count");
  EXPECT_EQ(out[0].a, 3);
  EXPECT_EQ(out[0].b, 4);
  EXPECT_EQ(out[1].field, "v[1]");
  EXPECT_EQ(out[2].field, "v[2]");
  EXPECT_TRUE(out[2].b.is_null());
  EXPECT_EQ(out[3].field, "only_a");
  EXPECT_EQ(out[4].field, "only_b");
  EXPECT_TRUE(out[4].a.is_null());
}

TEST(Diff, LimitListsFewerButCountsAll) {
  Json a = Json::array(), b = Json::array();
  for (int i = 0; i < 10; ++i) {
    a.push_back(i);
    b.push_back(-i - 1);
  }
  std::vector<FieldDifference> out;
  EXPECT_EQ(diff_json(a, b, out, 4), 10u);
  EXPECT_EQ(out.size(), 4u);
}

TEST(Diff, DocumentAgainstItselfAndAnEditedCopy) {
  const Document doc = build_demo_pmo();
  std::vector<FieldDifference> out;
  EXPECT_EQ(diff_documents(doc, doc, out), 0u);
  Document edited = doc;
  std::get<PmoFile>(edited).pmo.scale *= 2;
  EXPECT_EQ(diff_documents(doc, edited, out), 1u);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0].field.find("scale"), std::string::npos) << out[0].field;
}

}  // namespace
}  // namespace remodel
