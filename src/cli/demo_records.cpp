// Sample people and records for `serve --demo`: varied names (accents included), stages, tags,
// amounts and scores, so that search, filters and sorting have something to show.
#include "cli/demo_records.hpp"

#include <array>
#include <cstdint>

namespace leadline::cli {

namespace {

struct SamplePerson {
  const char* first;
  const char* last;
  const char* email;
  const char* company;
  const char* phone;
};

constexpr std::array<SamplePerson, 30> kPeople = {{
    {"Zoë", "Müller", "zoe.mueller@kraftwerk-labs.de", "Kraftwerk Labs", "+49 30 5550 1234"},
    {"José", "Álvarez", "jose.alvarez@solaria.es", "Solaria Energía", "+34 91 555 0101"},
    {"Chloé", "Dubois", "chloe.dubois@atelier-lumiere.fr", "Atelier Lumière", "+33 1 55 50 12 12"},
    {"Björn", "Lindqvist", "bjorn@nordvik.se", "Nordvik AB", "+46 8 555 010 20"},
    {"Aiko", "Tanaka", "aiko.tanaka@sakura-digital.jp", "Sakura Digital", "+81 3 5550 0199"},
    {"Łukasz", "Nowak", "lukasz.nowak@wisla-soft.pl", "Wisła Soft", "+48 22 555 01 33"},
    {"Amara", "Okeke", "amara@lagoslogistics.ng", "Lagos Logistics", "+234 1 555 0142"},
    {"Søren", "Holm", "soren.holm@fjordtech.dk", "Fjordtech", "+45 35 55 01 77"},
    {"Ana Lúcia", "Ferreira", "ana.ferreira@rioverde.com.br", "Rio Verde", "+55 21 5555 0188"},
    {"Liam", "O'Connor", "liam.oconnor@greenisle.ie", "Green Isle Foods", "+353 1 555 0165"},
    {"Priyanka", "Desai", "priyanka@mumbaimetrics.in", "Mumbai Metrics", "+91 22 5550 0111"},
    {"Mateo", "Rossi", "mateo.rossi@ferrovia.it", "Ferrovia Design", "+39 02 5550 1122"},
    {"Elif", "Yılmaz", "elif.yilmaz@bosphorus.com.tr", "Bosphorus Trade", "+90 212 555 0133"},
    {"Noah", "Williams", "noah@brightpath.io", "BrightPath", "+1 415 555 0144"},
    {"Fatima Zahra", "El Idrissi", "fatima@atlasventures.ma", "Atlas Ventures", "+212 522 555 015"},
    {"Dmitri", "Volkov", "d.volkov@taiga-systems.com", "Taiga Systems", "+7 495 555 0166"},
    {"Hannah", "Schmidt", "hannah.schmidt@bergmann-gmbh.de", "Bergmann GmbH", "+49 89 5550 177"},
    {"Kwame", "Mensah", "kwame@goldcoastagri.com", "Gold Coast Agri", "+233 30 555 0188"},
    {"Isabella", "García", "isabella@casablanca-studio.mx", "Casa Blanca Studio",
     "+52 55 5550 0199"},
    {"Oliver", "Smith", "oliver.smith@thamesworks.co.uk", "Thames Works", "+44 20 7946 0200"},
    {"Mei", "Lin", "mei.lin@jadebridge.cn", "Jade Bridge", "+86 21 5555 0211"},
    {"Renée", "Lefèvre", "renee@maison-lefevre.fr", "Maison Lefèvre", "+33 4 55 50 22 22"},
    {"Lars", "Eriksen", "lars@polarbyte.no", "Polarbyte", "+47 22 55 02 33"},
    {"Sofía", "Martínez", "sofia.martinez@andes-coffee.co", "Andes Coffee", "+57 1 555 0244"},
    {"Ethan", "Brown", "ethan@maplecloud.ca", "MapleCloud", "+1 604 555 0255"},
    {"Nadia", "Haddad", "nadia.haddad@cedarworks.lb", "Cedar Works", "+961 1 555 026"},
    {"Jürgen", "Weiß", "juergen.weiss@alpenblick.at", "Alpenblick", "+43 1 555 0277"},
    {"Grace", "Kim", "grace.kim@hanriver.kr", "Han River Labs", "+82 2 555 0288"},
    {"Tomasz", "Wójcik", "tomasz@baltic-freight.pl", "Baltic Freight", "+48 58 555 02 99"},
    {"Ingrid", "Østergaard", "ingrid@nordlys.dk", "Nordlys Design", "+45 33 55 03 00"},
}};

constexpr std::array<const char*, 8> kNeeds = {
    "Wants a demo of the reporting dashboard for a team of 12.",
    "Asked about annual pricing and a volume discount.",
    "Needs an integration with their existing helpdesk.",
    "Evaluating us against two competitors; decision next month.",
    "Interested in the WhatsApp channel for customer support.",
    "Looking for onboarding help and data migration.",
    "Budget approved; waiting on legal review of the contract.",
    "",
};

constexpr std::array<const char*, 5> kLeadSources = {"website", "referral", "linkedin", "event",
                                                     "api"};
constexpr std::array<const char*, 4> kChannels = {"widget", "whatsapp", "email", "messenger"};

// Visitor and bot lines, alternating; a conversation uses the first 2-6 of one script.
constexpr std::array<std::array<const char*, 6>, 4> kScripts = {{
    {"Hi! Do you offer a free trial?", "Hello! Yes, every plan starts with a 14-day free trial.",
     "Great. Does it include the API?", "It does: API keys are available from day one.",
     "Perfect, thanks!", "You're welcome. Anything else I can help with?"},
    {"Hello, I can't find my invoice for last month.",
     "Sorry about that! I can resend it. Which e-mail should I use?",
     "The one on my account, please.", "Done: the invoice is on its way.", "Got it, thank you.",
     "Glad to help. Have a nice day!"},
    {"Can your product import our existing contacts?",
     "Yes, contacts can be imported from a file or through the API.",
     "How long does an import of 10,000 contacts take?", "Usually under a minute.",
     "Impressive. I'll tell my team.", "Feel free to come back with any questions."},
    {"Is there a discount for non-profits?", "We offer 30% off for registered non-profits.",
     "How do we apply?", "Reply with your registration number and we'll set it up.",
     "Will do, merci !", "Thanks! An agent will confirm within a day."},
}};

constexpr std::int64_t kMinute = 60'000;
constexpr std::int64_t kDay = 24 * 60 * kMinute;

// A fixed-seed linear congruential generator: the same demo on every machine.
class Sequence {
 public:
  std::uint32_t next() {
    state_ = state_ * 1664525u + 1013904223u;
    return state_ >> 8;
  }
  // A moment between one hour and 30 days before `now`.
  domain::Timestamp within_last_30_days(domain::Timestamp now) {
    return {now.unix_ms - kDay / 24 - static_cast<std::int64_t>(next() % (29 * 24 * 60)) * kMinute};
  }

 private:
  std::uint32_t state_ = 20261101u;
};

domain::Person person(const char* first, const char* last, const char* email) {
  domain::Person p;
  p.first_name = first;
  p.last_name = last;
  p.email = email;
  return p;
}

domain::NewLead sample_lead(std::size_t i, Sequence& seq, domain::Timestamp now) {
  constexpr std::array<domain::PipelineStage, 6> kStages = {
      domain::PipelineStage::kNew,       domain::PipelineStage::kQualified,
      domain::PipelineStage::kAssigned,  domain::PipelineStage::kContacted,
      domain::PipelineStage::kConverted, domain::PipelineStage::kLost};
  const auto& p = kPeople[i];
  domain::NewLead lead;
  lead.visitor_name = std::string(p.first) + " " + p.last;
  if (i % 5 != 4) lead.visitor_email = p.email;
  if (i % 3 != 1) lead.visitor_phone = p.phone;
  if (i % 4 != 3) lead.visitor_company = p.company;
  lead.pipeline_stage = kStages[(i * 5 + i / 6) % kStages.size()];
  lead.need_summary = kNeeds[i % kNeeds.size()];
  if (i % 3 == 0) lead.tags.emplace_back("enterprise");
  if (i % 4 == 1) lead.tags.emplace_back("priority");
  if (i % 5 == 2) lead.tags.emplace_back("inbound");
  lead.source = kLeadSources[i % kLeadSources.size()];
  if (i % 4 != 3) lead.expected_billing_amount = 500.0 + static_cast<double>((i * 1373) % 400) * 50;
  if (i % 3 != 2) lead.lead_score = static_cast<double>((i * 37) % 91 + 5);
  lead.created_at = seq.within_last_30_days(now);
  return lead;
}

domain::NewContact sample_contact(std::size_t i, Sequence& seq, domain::Timestamp now) {
  const auto& p = kPeople[i];
  domain::NewContact contact;
  contact.first_name = p.first;
  contact.last_name = p.last;
  contact.email = p.email;
  if (i % 2 == 0) contact.phone = p.phone;
  contact.company_name = p.company;
  if (i % 3 == 0) contact.tags.emplace_back("customer");
  if (i % 4 == 2) contact.tags.emplace_back("newsletter");
  if (i % 7 == 0) contact.profile_notes = "Prefers e-mail; met at the spring trade fair.";
  contact.created_at = seq.within_last_30_days(now);
  return contact;
}

domain::NewConversation sample_conversation(std::size_t c, Sequence& seq, domain::Timestamp now,
                                            const std::vector<domain::AgentId>& agents,
                                            const std::vector<domain::DepartmentId>& departments) {
  constexpr std::array<domain::ConversationStatus, 4> kStatuses = {
      domain::ConversationStatus::kOpen, domain::ConversationStatus::kPending,
      domain::ConversationStatus::kActive, domain::ConversationStatus::kArchived};
  domain::NewConversation conversation;
  conversation.source = kChannels[c % kChannels.size()];
  conversation.status = kStatuses[(c + c / 4) % kStatuses.size()];
  if (c % 3 == 0) conversation.tags.emplace_back("pricing");
  if (c % 5 == 1) conversation.tags.emplace_back("vip");
  conversation.created_at = seq.within_last_30_days(now);
  if (c % 3 != 2 && !agents.empty()) conversation.agent_id = agents[c % agents.size()];
  if (c % 2 == 0 && !departments.empty()) {
    conversation.department_id = departments[(c / 2) % departments.size()];
  }

  // Most visitors are demo contacts (linked by e-mail); every tenth one stays anonymous.
  std::optional<std::string> visitor_name;
  if (c % 10 != 9) {
    const auto& p = kPeople[(c * 7) % kPeople.size()];
    domain::NewContact visitor;
    visitor.first_name = p.first;
    visitor.last_name = p.last;
    visitor.email = p.email;
    visitor.created_at = conversation.created_at;
    conversation.visitor = std::move(visitor);
    visitor_name = p.first;
  }

  const auto& script = kScripts[c % kScripts.size()];
  const std::size_t count = 2 + (c * 3) % 5;
  std::int64_t at = conversation.created_at->unix_ms;
  for (std::size_t m = 0; m < count; ++m) {
    const bool from_visitor = m % 2 == 0;
    at += 20'000 + static_cast<std::int64_t>(seq.next() % 240) * 1'000;
    domain::NewMessage message;
    message.sender_type = from_visitor ? "visitor" : "bot";
    message.content = script[m];
    message.status = "delivered";
    message.created_at = {at};
    message.sender_name = from_visitor ? visitor_name : std::nullopt;
    conversation.messages.push_back(std::move(message));
  }
  return conversation;
}

}  // namespace

std::vector<domain::Person> demo_reps() {
  return {person("Maya", "Okafor", "maya.okafor@demo.leadline.dev"),
          person("Lucas", "Bergström", "lucas@demo.leadline.dev"),
          person("Priya", "Raman", "priya.raman@demo.leadline.dev")};
}

std::vector<domain::Person> demo_agents() {
  return {person("Sam", "Rivera", "sam.rivera@demo.leadline.dev"),
          person("Hana", "Satō", "hana.sato@demo.leadline.dev"),
          person("Tomás", "Díaz", "tomas.diaz@demo.leadline.dev")};
}

std::vector<std::string> demo_departments() {
  return {"Sales", "Support"};
}

std::vector<store::ImportItem> demo_import_items(
    domain::Timestamp now, const std::vector<domain::AgentId>& agents,
    const std::vector<domain::DepartmentId>& departments) {
  Sequence seq;
  std::vector<store::ImportItem> items;
  int line = 0;
  for (std::size_t i = 0; i < kPeople.size(); ++i) {
    items.push_back({++line, sample_lead(i, seq, now)});
  }
  for (std::size_t i = 0; i < kPeople.size(); ++i) {
    items.push_back({++line, sample_contact(i, seq, now)});
  }
  for (std::size_t c = 0; c < 20; ++c) {
    items.push_back({++line, sample_conversation(c, seq, now, agents, departments)});
  }
  return items;
}

}  // namespace leadline::cli
