// gen_dataset: writes the deterministic benchmark dataset as `leadline import` JSON Lines files,
// split into chunks (contacts first, then leads, then conversations, which link contacts by
// e-mail).
//
//   gen_dataset --out DIR [--leads N] [--contacts N] [--conversations N] [--messages N]
//               [--chunk LINES] [--seed S]
//
// Writes DIR/01-contacts-0000.jsonl, DIR/02-leads-0000.jsonl, DIR/03-conversations-0000.jsonl, ...
// so that importing the files in name order is correct. Same arguments -> same bytes.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

namespace {

// splitmix64: tiny, fast and fully specified, unlike the std:: distributions whose output
// differs between standard libraries.
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  template <typename T, std::size_t N>
  const T& pick(const std::array<T, N>& items) {
    return items[below(N)];
  }
};

// None of these contain "zephyr": only the ~1% of leads given the marker below match the search.
constexpr std::array<std::string_view, 32> kFirstNames = {
    "Ada",       "Grace", "Alan",   "Edsger", "Barbara", "Donald",  "Frances", "John",
    "Margaret",  "Ken",   "Dennis", "Radia",  "Leslie",  "Niklaus", "Tony",    "Hedy",
    "Katherine", "Linus", "Guido",  "Bjarne", "Sophie",  "Jürgen",  "Zoë",     "Émile",
    "Müge",      "Olga",  "Pedro",  "Aiko",   "Chidi",   "Ingrid",  "Mateo",   "Priya"};
constexpr std::array<std::string_view, 32> kLastNames = {
    "Lovelace", "Hopper",   "Turing",     "Dijkstra",   "Liskov",  "Knuth",    "Allen",  "McCarthy",
    "Hamilton", "Thompson", "Ritchie",    "Perlman",    "Lamport", "Wirth",    "Hoare",  "Lamarr",
    "Johnson",  "Torvalds", "van Rossum", "Stroustrup", "Wilson",  "Müller",   "Okafor", "Nakamura",
    "García",   "Kowalski", "Öztürk",     "Petrova",    "Silva",   "Andersen", "Dubois", "Sharma"};
constexpr std::array<std::string_view, 24> kCompanies = {"Analytical Engines",
                                                         "Acme Corp",
                                                         "Globex",
                                                         "Initech",
                                                         "Umbrella Labs",
                                                         "Stark Industries",
                                                         "Wayne Enterprises",
                                                         "Hooli",
                                                         "Vandelay Imports",
                                                         "Soylent",
                                                         "Tyrell",
                                                         "Cyberdyne",
                                                         "Aperture Science",
                                                         "Black Mesa",
                                                         "Massive Dynamic",
                                                         "Oscorp",
                                                         "Wonka Industries",
                                                         "Gringotts",
                                                         "Nakatomi Trading",
                                                         "Dunder Mifflin",
                                                         "Pied Piper",
                                                         "Monsters Inc",
                                                         "Blue Sun",
                                                         "Weyland Corp"};
constexpr std::array<std::string_view, 12> kNeeds = {
    "Wants a demo next week",          "Asked about pricing for 50 seats",
    "Evaluating against a competitor", "Needs SSO and audit logs",
    "Budget approved for Q1",          "Interested in the API",
    "Migrating from spreadsheets",     "Wants an on-premise option",
    "Asked for a security review",     "",
    "Call back after the holidays",    "Needs invoices in EUR"};
constexpr std::array<std::string_view, 8> kTags = {"vip",     "trial",      "enterprise", "smb",
                                                   "partner", "churn-risk", "inbound",    "event"};
constexpr std::array<std::string_view, 5> kSources = {"widget", "api", "import", "email", "form"};
constexpr std::array<std::string_view, 4> kStatuses = {"open", "pending", "active", "archived"};
constexpr std::array<std::string_view, 10> kMessages = {
    "Hi, I have a question about your plans.",
    "Hello! How can I help you today?",
    "Do you offer a discount for non-profits?",
    "Yes, we offer 30% off for registered charities.",
    "Great. Can I pay yearly?",
    "Of course, yearly billing saves two months.",
    "How long does onboarding take?",
    "Most teams are set up within a day.",
    "Thanks, that helps a lot.",
    "You're welcome! Anything else?"};

// Pipeline stages, weighted like a real funnel (most leads are new or contacted).
constexpr std::array<std::string_view, 6> kStages = {"new",       "qualified", "assigned",
                                                     "contacted", "converted", "lost"};
constexpr std::array<unsigned, 6> kStageWeights = {35, 15, 10, 20, 8, 12};

std::string_view pick_stage(Rng& rng) {
  unsigned roll = static_cast<unsigned>(rng.below(100));
  for (std::size_t i = 0; i < kStages.size(); ++i) {
    if (roll < kStageWeights[i]) return kStages[i];
    roll -= kStageWeights[i];
  }
  return kStages.back();
}

// Days since 1970-01-01 -> civil date (Howard Hinnant's algorithm).
void civil_from_days(std::int64_t z, int& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<int>(yoe + era * 400 + (m <= 2 ? 1 : 0));
}

std::string iso8601(std::int64_t ms) {
  const std::int64_t secs = ms / 1000;
  int y;
  unsigned mo, d;
  civil_from_days(secs / 86400, y, mo, d);
  const auto sod = static_cast<unsigned>(secs % 86400);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02u:%02u:%02u.%03uZ", y, mo, d, sod / 3600,
                sod / 60 % 60, sod % 60, static_cast<unsigned>(ms % 1000));
  return buf;
}

// Records are spread over the two years before 2026-11-01T00:00:00Z.
constexpr std::int64_t kEndMs = 1793491200000LL;
constexpr std::int64_t kSpanMs = 2LL * 365 * 86400 * 1000;

std::int64_t spread_time(Rng& rng, std::uint64_t i, std::uint64_t n) {
  const std::int64_t step = kSpanMs / static_cast<std::int64_t>(n == 0 ? 1 : n);
  const std::int64_t jitter = step > 1 ? static_cast<std::int64_t>(rng.below(step)) : 0;
  return kEndMs - kSpanMs + static_cast<std::int64_t>(i) * step + jitter;
}

std::string email_local(std::string_view first, std::string_view last, std::uint64_t i) {
  std::string out;
  for (std::string_view part : {first, last}) {
    if (!out.empty()) out += '.';
    for (unsigned char c : part) {
      if (c >= 'A' && c <= 'Z')
        out += static_cast<char>(c - 'A' + 'a');
      else if ((c >= 'a' && c <= 'z'))
        out += static_cast<char>(c);
      // non-ASCII letters and spaces are dropped: the local part stays plain ASCII
    }
  }
  return out + "." + std::to_string(i);
}

// Carried by exactly every tenth contact and conversation (i % 10 == 0), besides the random
// tags: the tag filter scenarios match a known 10 %.
constexpr std::string_view kMarkedTag = "key-account";

// Up to two random tags of kTags, then kMarkedTag when `marked`.
std::string tags_json(Rng& rng, bool marked = false) {
  const auto count = rng.below(3);
  std::string out = "[";
  std::uint64_t used = 0;
  for (std::uint64_t t = 0; t < count; ++t) {
    const auto k = rng.below(kTags.size());
    if (used & (1ULL << k)) continue;  // no duplicate tags
    used |= 1ULL << k;
    if (out.size() > 1) out += ',';
    out += '"';
    out += kTags[k];
    out += '"';
  }
  if (marked) {
    if (out.size() > 1) out += ',';
    out += '"';
    out += kMarkedTag;
    out += '"';
  }
  return out + "]";
}

// Writes numbered chunk files of at most `chunk` lines each.
class ChunkWriter {
 public:
  ChunkWriter(std::filesystem::path dir, std::string prefix, std::uint64_t chunk)
      : dir_(std::move(dir)), prefix_(std::move(prefix)), chunk_(chunk) {}
  void line(const std::string& text) {
    if (!out_.is_open() || lines_ == chunk_) open_next();
    out_ << text << '\n';
    ++lines_;
  }
  void close() {
    if (out_.is_open()) out_.close();
    if (!out_) {
      std::cerr << "gen_dataset: writing " << prefix_ << " failed\n";
      std::exit(1);
    }
  }

 private:
  void open_next() {
    close();
    char name[64];
    std::snprintf(name, sizeof name, "%s-%04u.jsonl", prefix_.c_str(), index_++);
    out_.open(dir_ / name, std::ios::binary | std::ios::trunc);
    if (!out_) {
      std::cerr << "gen_dataset: cannot write " << (dir_ / name) << "\n";
      std::exit(1);
    }
    lines_ = 0;
  }
  std::filesystem::path dir_;
  std::string prefix_;
  std::uint64_t chunk_;
  std::uint64_t lines_ = 0;
  unsigned index_ = 0;
  std::ofstream out_;
};

struct Options {
  std::filesystem::path out;
  std::uint64_t leads = 100000, contacts = 100000, conversations = 20000, messages = 10;
  std::uint64_t chunk = 100000, seed = 20261126;
};

std::uint64_t number(const char* flag, const char* text) {
  char* end = nullptr;
  const auto v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') {
    std::cerr << "gen_dataset: " << flag << " needs a number, got '" << text << "'\n";
    std::exit(2);
  }
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) {
      std::cerr << "gen_dataset: " << flag << " needs a value\n";
      std::exit(2);
    }
    const char* value = argv[++i];
    if (flag == "--out")
      o.out = value;
    else if (flag == "--leads")
      o.leads = number(argv[i - 1], value);
    else if (flag == "--contacts")
      o.contacts = number(argv[i - 1], value);
    else if (flag == "--conversations")
      o.conversations = number(argv[i - 1], value);
    else if (flag == "--messages")
      o.messages = number(argv[i - 1], value);
    else if (flag == "--chunk")
      o.chunk = number(argv[i - 1], value);
    else if (flag == "--seed")
      o.seed = number(argv[i - 1], value);
    else {
      std::cerr << "gen_dataset: unknown option " << flag << "\n";
      std::exit(2);
    }
  }
  if (o.out.empty() || o.chunk == 0 || (o.conversations > 0 && o.contacts == 0)) {
    std::cerr << "usage: gen_dataset --out DIR [--leads N] [--contacts N] [--conversations N]"
                 " [--messages N] [--chunk LINES] [--seed S]\n"
                 "(conversations need at least one contact)\n";
    std::exit(2);
  }
  return o;
}

struct Person {
  std::string_view first, last;
};

// The name of contact i, recomputable by the conversations that link it (sequenced picks: the
// order of evaluation of function arguments is unspecified).
Person contact_person(std::uint64_t i) {
  Rng rng{0x5eedULL * 1000003ULL + i};
  const auto first = rng.pick(kFirstNames);
  const auto last = rng.pick(kLastNames);
  return {first, last};
}

std::string contact_email(std::uint64_t i) {
  const Person p = contact_person(i);
  return email_local(p.first, p.last, i) + "@example" + std::to_string(i % 97) + ".com";
}

void write_contacts(const Options& o) {
  ChunkWriter w(o.out, "01-contacts", o.chunk);
  Rng rng{o.seed ^ 0xc0ffeeULL};
  for (std::uint64_t i = 0; i < o.contacts; ++i) {
    const auto [first, last] = contact_person(i);
    std::string line = R"({"type":"contact","first_name":")" + std::string(first) +
                       R"(","last_name":")" + std::string(last) + R"(","email":")" +
                       contact_email(i) + '"';
    if (rng.below(3) != 0) line += R"(,"phone":"+1 555 )" + std::to_string(1000000 + i) + '"';
    if (rng.below(2) == 0) line += R"(,"company_name":")" + std::string(rng.pick(kCompanies)) + '"';
    line += R"(,"tags":)" + tags_json(rng, i % 10 == 0);
    line += R"(,"created_at":")" + iso8601(spread_time(rng, i, o.contacts)) + "\"}";
    w.line(line);
  }
  w.close();
}

void write_leads(const Options& o) {
  ChunkWriter w(o.out, "02-leads", o.chunk);
  Rng rng{o.seed ^ 0x1eadULL};
  for (std::uint64_t i = 0; i < o.leads; ++i) {
    const auto first = rng.pick(kFirstNames);
    const auto last = rng.pick(kLastNames);
    std::string company(rng.pick(kCompanies));
    // Exactly one lead in a hundred carries the search marker, in its company or its name.
    const bool marked = (i % 100) == 37;
    std::string name = std::string(first) + " " + std::string(last);
    if (marked && (i / 100) % 2 == 0) company = "Zephyr " + company;
    if (marked && (i / 100) % 2 == 1) name = std::string(first) + " Zephyrson";
    std::string line = R"({"type":"lead","visitor_name":")" + name + '"';
    if (rng.below(10) != 0) {
      line += R"(,"visitor_email":")" + email_local(first, last, i) + "@lead" +
              std::to_string(i % 89) + ".example.org\"";
    }
    if (rng.below(2) == 0)
      line += R"(,"visitor_phone":"+44 20 )" + std::to_string(10000000 + i) + '"';
    if (marked || rng.below(4) != 0) line += R"(,"visitor_company":")" + company + '"';
    line += R"(,"pipeline_stage":")" + std::string(pick_stage(rng)) + '"';
    line += R"(,"need_summary":")" + std::string(rng.pick(kNeeds)) + '"';
    line += R"(,"tags":)" + tags_json(rng);
    line += R"(,"source":")" + std::string(rng.pick(kSources)) + '"';
    if (rng.below(5) != 0) {
      line += R"(,"expected_billing_amount":)" + std::to_string(100 * (1 + rng.below(500)));
    }
    // Most leads are scored (0.0 .. 100.0); about one in eight is not.
    if (rng.below(8) != 0) {
      const auto tenths = rng.below(1001);
      line += R"(,"lead_score":)" + std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
    }
    line += R"(,"created_at":")" + iso8601(spread_time(rng, i, o.leads)) + "\"}";
    w.line(line);
  }
  w.close();
}

void write_conversations(const Options& o) {
  ChunkWriter w(o.out, "03-conversations", o.chunk);
  Rng rng{o.seed ^ 0xc4a7ULL};
  for (std::uint64_t i = 0; i < o.conversations; ++i) {
    // Visitors are existing contacts, spread over all of them (matched by e-mail on import).
    const std::uint64_t c = (i * 7919) % o.contacts;
    const auto [first, last] = contact_person(c);
    // One draw per statement: the operands of one + chain may be evaluated in any order.
    std::int64_t at = spread_time(rng, i, o.conversations);
    const std::string_view source = rng.pick(kSources);
    const std::string_view status = rng.pick(kStatuses);
    const std::string tags = tags_json(rng, i % 10 == 0);
    std::string line = R"({"type":"conversation","source":")" + std::string(source) +
                       R"(","status":")" + std::string(status) + R"(","tags":)" + tags +
                       R"(,"created_at":")" + iso8601(at) + R"(","visitor":{"first_name":")" +
                       std::string(first) + R"(","last_name":")" + std::string(last) +
                       R"(","email":")" + contact_email(c) + R"("},"messages":[)";
    for (std::uint64_t m = 0; m < o.messages; ++m) {
      at += 1000 * static_cast<std::int64_t>(5 + rng.below(120));
      const bool visitor = m % 2 == 0;
      if (m > 0) line += ',';
      line += R"({"sender_type":")" + std::string(visitor ? "visitor" : "bot") +
              R"(","content":")" + std::string(kMessages[m % kMessages.size()]) +
              R"(","created_at":")" + iso8601(at) + R"(","sender_name":")" +
              std::string(visitor ? first : "Bot") + "\"}";
    }
    w.line(line + "]}");
  }
  w.close();
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  std::error_code ec;
  std::filesystem::create_directories(o.out, ec);
  if (ec) {
    std::cerr << "gen_dataset: cannot create " << o.out << ": " << ec.message() << "\n";
    return 1;
  }
  if (o.contacts > 0) write_contacts(o);
  if (o.leads > 0) write_leads(o);
  if (o.conversations > 0) write_conversations(o);
  return 0;
}
