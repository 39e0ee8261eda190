// Fuzzes contact request bodies: bytes -> strict JSON parse -> the contact create and patch
// decoders, checking that whatever they accept obeys the contact field rules.
#include "api/record_bodies.hpp"
#include "body_checks.hpp"

using namespace leadline;
namespace lim = domain::limits;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto body = fuzz::parse_body(fuzz::as_text(data, size));
  if (!body) return 0;

  fuzz::check_decoded(api::decode_contact_create(*body), [](const domain::NewContact& contact) {
    fuzz::check_required(contact.first_name, lim::kContactFirstName);
    fuzz::check_optional_text(contact.last_name, lim::kContactLastName);
    fuzz::check_optional_email(contact.email);
    fuzz::check_optional_text(contact.phone, lim::kContactPhone);
    fuzz::check_optional_text(contact.company_name, lim::kContactCompanyName);
    fuzz::check_tags(contact.tags);
    fuzz::check_text(contact.profile_notes, lim::kContactProfileNotes);
    FUZZ_CHECK(!contact.created_at, "the API set the import-only created_at");
    if (contact.metadata_json) {
      // Stored as given and written back raw into responses: it must be a JSON object.
      boost::json::error_code ec;
      const auto metadata = boost::json::parse(*contact.metadata_json, ec);
      FUZZ_CHECK(!ec && metadata.is_object(), "stored metadata is not a JSON object");
    }
  });

  fuzz::check_decoded(api::decode_contact_patch(*body), [](const domain::ContactPatch& patch) {
    if (patch.first_name) fuzz::check_required(*patch.first_name, lim::kContactFirstName);
    fuzz::check_update(patch.last_name,
                       [](const auto& s) { fuzz::check_text(s, lim::kContactLastName); });
    fuzz::check_update(patch.email, [](const auto& s) { fuzz::check_email(s); });
    fuzz::check_update(patch.phone, [](const auto& s) { fuzz::check_text(s, lim::kContactPhone); });
    fuzz::check_update(patch.company_name,
                       [](const auto& s) { fuzz::check_text(s, lim::kContactCompanyName); });
    if (patch.tags) fuzz::check_tags(*patch.tags);
    fuzz::check_update(patch.profile_notes,
                       [](const auto& s) { fuzz::check_text(s, lim::kContactProfileNotes); });
  });
  return 0;
}
