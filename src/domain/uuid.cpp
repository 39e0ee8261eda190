// UUIDv7 ids keep records roughly time-ordered, which keeps B-tree inserts at the right edge.
#include "domain/uuid.hpp"

#include <openssl/rand.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <stdexcept>

namespace leadline::domain {

namespace {
constexpr char kHex[] = "0123456789abcdef";

// The random bytes of each id (8, and 2 more for a new millisecond's counter) come from a
// per-thread buffer that one RAND_bytes call fills for 96 to 120 ids: a call per id (lock, DRBG
// step, fork check) was 7 % of the SQLite writer thread's CPU when it drew two ids per created lead
// (BENCHMARKS.md, "Round 8"). Ids are not secrets; the bytes are the same CSPRNG's either way.
class RandomBytes {
 public:
  const unsigned char* take(std::size_t n) {
    if (next_ + n > buffer_.size()) {
      if (RAND_bytes(buffer_.data(), static_cast<int>(buffer_.size())) != 1) {
        throw std::runtime_error("RAND_bytes failed");
      }
      next_ = 0;
    }
    const unsigned char* out = buffer_.data() + next_;
    next_ += n;
    return out;
  }

 private:
  std::array<unsigned char, 960> buffer_{};
  std::size_t next_ = buffer_.size();  // empty: the first take fills it
};

thread_local RandomBytes random_bytes;

// RFC 9562 section 6.2, method 1: a 16-bit counter after the timestamp (rand_a's 12 bits and
// rand_b's first 4) makes the ids one process draws in the same millisecond increase in the
// order they are drawn, so records created in one millisecond still list newest first under the
// default `created_at:desc, id:desc` order (docs/api.md, "Lists"). A new millisecond restarts the
// counter at a random value below 2^15, leaving at least 32,768 ordered ids per millisecond;
// past that, or for a millisecond older than the last one drawn, the counter bits are random
// as before. One atomic word (timestamp << 16 | counter) holds the state: no lock.
std::atomic<std::uint64_t> last_drawn{0};

std::uint16_t next_counter(std::uint64_t ms) {
  std::uint64_t seen = last_drawn.load(std::memory_order_relaxed);
  for (;;) {
    const std::uint64_t seen_ms = seen >> 16;
    std::uint64_t next = 0;
    if (ms == seen_ms && (seen & 0xFFFF) != 0xFFFF) {
      next = seen + 1;
    } else if (ms > seen_ms) {
      const unsigned char* r = random_bytes.take(2);
      next = (ms << 16) | ((static_cast<std::uint64_t>(r[0] & 0x7F) << 8) | r[1]);
    } else {
      const unsigned char* r = random_bytes.take(2);
      return static_cast<std::uint16_t>((r[0] << 8) | r[1]);
    }
    if (last_drawn.compare_exchange_weak(seen, next, std::memory_order_relaxed)) {
      return static_cast<std::uint16_t>(next & 0xFFFF);
    }
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::optional<std::string> parse_uuid(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  std::string out(36, '-');
  for (std::size_t i = 0; i < 36; ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash) {
      if (text[i] != '-') return std::nullopt;
      continue;
    }
    const int v = hex_value(text[i]);
    if (v < 0) return std::nullopt;
    out[i] = kHex[v];
  }
  return out;
}

std::string new_uuid_v7(std::int64_t unix_ms) {
  std::array<unsigned char, 16> b{};
  const auto ms = static_cast<std::uint64_t>(unix_ms) & 0xFFFF'FFFF'FFFF;
  const std::uint16_t counter = next_counter(ms);
  std::memcpy(b.data() + 8, random_bytes.take(8), 8);
  for (int i = 0; i < 6; ++i) b[i] = static_cast<unsigned char>(ms >> (40 - 8 * i));
  b[6] = static_cast<unsigned char>(0x70 | (counter >> 12));
  b[7] = static_cast<unsigned char>(counter >> 4);
  b[8] = static_cast<unsigned char>(0x80 | ((counter & 0x0F) << 2) | (b[8] & 0x03));
  std::string out;
  out.reserve(36);
  for (std::size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[b[i] >> 4]);
    out.push_back(kHex[b[i] & 0x0F]);
  }
  return out;
}

std::string new_uuid_v7() {
  using namespace std::chrono;
  return new_uuid_v7(duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count());
}

}  // namespace leadline::domain
