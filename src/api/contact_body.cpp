// Contact request bodies; `metadata` is accepted on create only and kept as given.
#include <boost/json/serialize.hpp>

#include "api/body_fields.hpp"
#include "api/record_bodies.hpp"
#include "domain/field_rules.hpp"

namespace leadline::api {

using namespace body;
namespace lim = domain::limits;

Decoded<domain::NewContact> decode_contact_create(const json::object& o) {
  domain::NewContact contact;
  std::optional<domain::Tags> tag_list;
  std::optional<std::string> notes;
  Error e;
  if ((e = reject_unknown_fields(o, {"first_name", "last_name", "email", "phone", "company_name",
                                     "tags", "profile_notes", "metadata"})) ||
      (e = required_text(o, "first_name", lim::kContactFirstName, contact.first_name)) ||
      (e = optional_text(o, "last_name", lim::kContactLastName, contact.last_name)) ||
      (e = optional_email(o, "email", contact.email)) ||
      (e = optional_text(o, "phone", lim::kContactPhone, contact.phone)) ||
      (e = optional_text(o, "company_name", lim::kContactCompanyName, contact.company_name)) ||
      (e = tags(o, "tags", tag_list)) ||
      (e = optional_text(o, "profile_notes", lim::kContactProfileNotes, notes))) {
    return *e;
  }
  if (auto it = o.find("metadata"); it != o.end() && !it->value().is_null()) {
    if (!it->value().is_object()) return BadRequest{"metadata must be a JSON object"};
    contact.metadata_json = json::serialize(it->value());
  }
  if (tag_list) contact.tags = std::move(*tag_list);
  if (notes) contact.profile_notes = std::move(*notes);
  return contact;
}

Decoded<domain::ContactPatch> decode_contact_patch(const json::object& o) {
  domain::ContactPatch patch;
  if (o.contains("metadata")) {
    return BadRequest{"metadata can only be set when a contact is created"};
  }
  Error e;
  if ((e = reject_unknown_fields(o, {"first_name", "last_name", "email", "phone", "company_name",
                                     "tags", "profile_notes"})) ||
      (e = text_patch_required(o, "first_name", lim::kContactFirstName, patch.first_name)) ||
      (e = text_patch(o, "last_name", lim::kContactLastName, patch.last_name)) ||
      (e = email_patch(o, "email", patch.email)) ||
      (e = text_patch(o, "phone", lim::kContactPhone, patch.phone)) ||
      (e = text_patch(o, "company_name", lim::kContactCompanyName, patch.company_name)) ||
      (e = tags(o, "tags", patch.tags)) ||
      (e = text_patch(o, "profile_notes", lim::kContactProfileNotes, patch.profile_notes))) {
    return *e;
  }
  return patch;
}

}  // namespace leadline::api
