// One error type for every format: what failed, where in the file, in which field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace remodel {

enum class ErrorCode {
  truncated,       // a read ran past the end of the bytes
  bad_magic,       // the file does not start with the format's magic
  bad_value,       // a field holds a value the format does not allow
  bad_offset,      // an offset points outside the file or at the wrong structure
  bad_count,       // a count claims more records than the bytes can hold
  unsupported,     // a valid feature this version does not handle
  inconsistent,    // a Document whose parts disagree cannot be written
  io,              // the operating system refused a file operation
  out_of_memory,   // an allocation failed (std::bad_alloc), caught at the library boundary
};

const char* error_code_name(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::bad_value;
  // The byte offset in the input (or output, for write errors); none for an error with no file
  // position: I/O, the CLI, a Scene, values of a Document already read.
  std::optional<std::uint64_t> offset;
  std::string field;    // e.g. "mesh0.section[3].vertices", or a glTF location "meshes[2].primitives[0]"
  std::string message;  // a sentence a modder understands

  // "field at 0x1234: message"; "field: message" without an offset; the message alone without either.
  std::string describe() const;
};

// What a call did that the caller may want to know but that is no failure: a value lower or author
// transformed the way modders expect (weights limited to the strongest N, a mesh split), something
// the glTF reader left out (morph targets, weights channels).
struct Warning {
  std::string where;  // e.g. "meshes[2].primitives[0]", "section[3]", "animations[0].channels[3]"
  std::string message;
};

// What every public call returns when an allocation throws std::bad_alloc. Its strings are short
// enough not to allocate, so it can be built when no memory is left.
Error out_of_memory_error();

// The `catch (...)` of every public call (`Result<T> f(...) try { ... } catch (...) { return
// caught_allocation_failure(); }`): std::bad_alloc, and std::length_error (a size past what a
// container can hold), become out_of_memory_error(); any other exception goes on unchanged.
Error caught_allocation_failure();

// A value or an Error; used instead of exceptions across the library API.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// Success with nothing to return, or an Error: what every call that only checks or changes returns.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

}  // namespace remodel
