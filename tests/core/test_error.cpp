// Error::describe: a file position when the error has one, none for errors that have no place in a
// file (I/O, the CLI, a Scene, a Document's values).
#include <gtest/gtest.h>

#include <optional>

#include "model/document.hpp"
#include "model/error.hpp"
#include "model/file_io.hpp"

namespace remodel {
namespace {

TEST(Error, DescribeWithOffset) {
  EXPECT_EQ((Error{ErrorCode::bad_value, 0x1234, "mesh0.section[3].vertices", "is odd"}).describe(),
            "mesh0.section[3].vertices at 0x1234: is odd");
  // Offset 0 is a position like any other (a magic at the start of the file).
  EXPECT_EQ((Error{ErrorCode::bad_magic, 0, "magic", "not a supported format"}).describe(),
            "magic at 0x0: not a supported format");
  EXPECT_EQ((Error{ErrorCode::truncated, 16, "", "the file ends"}).describe(), "(file) at 0x10: the file ends");
}

TEST(Error, DescribeWithoutOffset) {
  EXPECT_EQ((Error{ErrorCode::bad_value, std::nullopt, "meshes[2].primitives[0]", "has no positions"}).describe(),
            "meshes[2].primitives[0]: has no positions");
  EXPECT_EQ((Error{ErrorCode::io, std::nullopt, "", "cannot open x.pmo: No such file or directory"}).describe(),
            "cannot open x.pmo: No such file or directory");
  EXPECT_EQ(out_of_memory_error().describe(), "out of memory");
  EXPECT_FALSE(Error{}.offset.has_value());
}

TEST(Error, NoFilePositionNoOffset) {
  // An I/O error has no position in any file.
  const Result<Bytes> missing = read_file("/nonexistent/remodel-test-no-such-file.pmo");
  ASSERT_FALSE(missing);
  EXPECT_FALSE(missing.error().offset.has_value());
  EXPECT_EQ(missing.error().describe().find(" at 0x"), std::string::npos) << missing.error().describe();
  // A parse error keeps its position.
  const Bytes bytes = {'P', 'M', 'O', 0, 1, 2};
  const Result<Document> doc = read_document(bytes);
  ASSERT_FALSE(doc);
  EXPECT_TRUE(doc.error().offset.has_value());
  EXPECT_NE(doc.error().describe().find(" at 0x"), std::string::npos) << doc.error().describe();
}

}  // namespace
}  // namespace remodel
