#include "model/error.hpp"

#include <cstdio>
#include <new>
#include <stdexcept>

namespace remodel {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::truncated: return "truncated";
    case ErrorCode::bad_magic: return "bad_magic";
    case ErrorCode::bad_value: return "bad_value";
    case ErrorCode::bad_offset: return "bad_offset";
    case ErrorCode::bad_count: return "bad_count";
    case ErrorCode::unsupported: return "unsupported";
    case ErrorCode::inconsistent: return "inconsistent";
    case ErrorCode::io: return "io";
    case ErrorCode::out_of_memory: return "out_of_memory";
  }
  return "unknown";
}

Error out_of_memory_error() {
  return Error{ErrorCode::out_of_memory, std::nullopt, "", "out of memory"};
}

Error caught_allocation_failure() {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return out_of_memory_error();
  } catch (const std::length_error&) {
    return out_of_memory_error();
  }
}

std::string Error::describe() const {
  if (!offset) return field.empty() ? message : field + ": " + message;
  char where[32];
  std::snprintf(where, sizeof where, "0x%llx", static_cast<unsigned long long>(*offset));
  std::string out = field.empty() ? std::string("(file)") : field;
  out += " at ";
  out += where;
  out += ": ";
  out += message;
  return out;
}

}  // namespace remodel
