// The real files' envelope (issue 31): per kind of record, the stored fields that hold one value in
// every real record, learned from the Documents' JSON as `remodel dump` prints it. A record is a file's
// own header or a record it holds whole (a PMO's TIM2, a PMP's PMOs, a PAM's animations, a PAC's
// entries, a J3D section); a field is its path with record indices generalised ("bones[].tag") and a
// vector's components apart ("bones[].rotation[3]": every real record stores it at that length).
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/document.hpp"

namespace remodel::test {

// One record of a Document's JSON: its kind and its node, without the keys held as records of their own.
struct EnvelopeRecord {
  std::string kind;
  const nlohmann::ordered_json* node = nullptr;
  std::set<std::string> nested;
};

// Every record of a Document's JSON (`to_json`), the file's own last.
std::vector<EnvelopeRecord> envelope_records(const nlohmann::ordered_json& doc);

// One stored field that differs from the envelope.
struct EnvelopeDifference {
  std::string kind, field, real, stored;
};

class Envelope {
 public:
  // Learns from the real files' JSON: a field held by at least two distinct real records, with one value.
  explicit Envelope(const std::vector<nlohmann::ordered_json>& real);
  // The learned fields of one kind: field -> the value every real record stores.
  const std::map<std::string, std::map<std::string, std::string>>& fields() const { return fields_; }
  std::size_t distinct_records(const std::string& kind) const;
  // The fields `doc` stores with another value than every real record of their kind.
  std::vector<EnvelopeDifference> differences(const nlohmann::ordered_json& doc) const;

 private:
  // Every leaf of a record: field -> values (JSON text).
  std::map<std::string, std::set<std::string>> leaves(const EnvelopeRecord& r) const;
  std::set<std::string> vectors_;  // scalar arrays of one length in every real record: walked by component
  std::map<std::string, std::map<std::string, std::string>> fields_;
  std::map<std::string, std::size_t> distinct_;
};

}  // namespace remodel::test
