// Unit tests for domain/uuid: canonical parsing and UUIDv7 generation.
#include "domain/uuid.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace leadline::domain {
namespace {

TEST(ParseUuid, CanonicalisesToLowercase) {
  EXPECT_EQ(parse_uuid("0190A2B4-C5D6-7E8F-9A0B-1C2D3E4F5A6B"),
            "0190a2b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b");
  EXPECT_EQ(parse_uuid("0190a2b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b"),
            "0190a2b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b");
  EXPECT_EQ(parse_uuid("00000000-0000-0000-0000-000000000000"),
            "00000000-0000-0000-0000-000000000000");
}

TEST(ParseUuid, RejectsOtherShapes) {
  for (const char* text :
       {"", "0190a2b4-c5d6-7e8f-9a0b-1c2d3e4f5a6", "0190a2b4-c5d6-7e8f-9a0b-1c2d3e4f5a6bb",
        "0190a2b4c5d67e8f9a0b1c2d3e4f5a6b", "{0190a2b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b}",
        "urn:uuid:0190a2b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b", "0190a2b4c-5d6-7e8f-9a0b-1c2d3e4f5a6b",
        "0190a2b4-c5d6-7e8f-9a0b_1c2d3e4f5a6b", "0190a2b4-c5d6-7e8f-9a0b-1c2d3e4f5a6g",
        " 0190a2b4-c5d6-7e8f-9a0b-1c2d3e4f5a6", "0190a2b4-c5d6-7e8f-9a0b-1c2d3e4f5a6 ",
        "not-a-uuid"}) {
    EXPECT_FALSE(parse_uuid(text)) << text;
  }
}

TEST(NewUuidV7, HasVersionAndVariantBits) {
  for (int i = 0; i < 200; ++i) {
    const std::string id = new_uuid_v7(1'700'000'000'123);
    ASSERT_EQ(id.size(), 36u);
    EXPECT_EQ(id[14], '7') << id;
    EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos) << id;
    EXPECT_EQ(parse_uuid(id), id) << "must already be canonical";
  }
}

TEST(NewUuidV7, StartsWithTheMillisecondTimestamp) {
  // 0x0190A2B4C5D6 milliseconds.
  EXPECT_EQ(new_uuid_v7(0x0190A2B4C5D6).substr(0, 13), "0190a2b4-c5d6");
  EXPECT_EQ(new_uuid_v7(0).substr(0, 13), "00000000-0000");
}

TEST(NewUuidV7, SortsByTime) {
  EXPECT_LT(new_uuid_v7(1'700'000'000'000), new_uuid_v7(1'700'000'000'001));
  EXPECT_LT(new_uuid_v7(1'700'000'000'999), new_uuid_v7(1'700'000'001'000));
}

TEST(NewUuidV7, IsRandomWithinAMillisecond) {
  std::set<std::string> ids;
  for (int i = 0; i < 1000; ++i) ids.insert(new_uuid_v7(1'700'000'000'000));
  EXPECT_EQ(ids.size(), 1000u);
}

// Records created in one millisecond list newest first under `created_at:desc, id:desc` only
// when their ids follow the order they were drawn in, across threads too.
// The counter orders the newest millisecond drawn, so each run takes one later than any other
// test's and than its own last run's (--gtest_repeat).
TEST(NewUuidV7, IdsDrawnInOneMillisecondFollowTheOrderTheyWereDrawnIn) {
  static std::int64_t later = 8'000'000'000'000;
  const std::int64_t ms = later += 10;
  std::vector<std::string> drawn;
  for (int i = 0; i < 20'000; ++i) drawn.push_back(new_uuid_v7(ms));
  std::thread([&drawn, ms] {
    for (int i = 0; i < 100; ++i) drawn.push_back(new_uuid_v7(ms));
  }).join();
  for (std::size_t i = 1; i < drawn.size(); ++i) {
    ASSERT_LT(drawn[i - 1], drawn[i]) << "id " << i;
  }
  // A later millisecond still sorts after, an earlier one before.
  EXPECT_LT(drawn.back(), new_uuid_v7(ms + 1));
  EXPECT_LT(new_uuid_v7(ms - 1), drawn.front());
}

// Each thread draws its random bytes from a buffer of its own, refilled every 96 to 120 ids:
// threads drawing in the same millisecond, past several refills, still never meet.
TEST(NewUuidV7, ThreadsDrawingInTheSameMillisecondNeverMeet) {
  constexpr int kThreads = 4;
  constexpr int kEach = 500;
  std::vector<std::vector<std::string>> drawn(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&drawn, t] {
      for (int i = 0; i < kEach; ++i) drawn[t].push_back(new_uuid_v7(1'700'000'000'000));
    });
  }
  for (auto& thread : threads) thread.join();
  std::set<std::string> ids;
  for (const auto& mine : drawn) ids.insert(mine.begin(), mine.end());
  EXPECT_EQ(ids.size(), static_cast<std::size_t>(kThreads * kEach));
}

TEST(NewUuidV7, DefaultUsesTheCurrentTime) {
  using namespace std::chrono;
  const auto before = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  const std::string id = new_uuid_v7();
  const auto after = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  const std::string hex = id.substr(0, 8) + id.substr(9, 4);
  const auto ms = static_cast<std::int64_t>(std::stoull(hex, nullptr, 16));
  EXPECT_GE(ms, before);
  EXPECT_LE(ms, after);
}

}  // namespace
}  // namespace leadline::domain
