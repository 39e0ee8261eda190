// Shared set-up for the store unit tests: a fresh SQLite database in its own temporary
// directory, two workspaces, and builders for the records the tests create.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "domain/records.hpp"
#include "domain/timestamp.hpp"
#include "store/store.hpp"

namespace leadline::store::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "leadline-store-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline domain::Timestamp ts(const char* iso) {
  const auto t = domain::parse_iso8601(iso);
  if (!t) throw std::invalid_argument(std::string("bad timestamp in test: ") + iso);
  return *t;
}

inline domain::NewLead lead_named(std::string name) {
  domain::NewLead l;
  l.visitor_name = std::move(name);
  return l;
}

inline domain::NewContact contact_named(std::string first,
                                        std::optional<std::string> email = std::nullopt) {
  domain::NewContact c;
  c.first_name = std::move(first);
  c.email = std::move(email);
  return c;
}

inline domain::Person person(std::string first, std::string last, std::string email) {
  domain::Person p;
  p.first_name = std::move(first);
  p.last_name = std::move(last);
  p.email = std::move(email);
  return p;
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = open_store(url());
    ws_ = store_->create_workspace("Workspace A").id;
    other_ws_ = store_->create_workspace("Workspace B").id;
  }

  // A nested, not yet existing directory: open_store must create it.
  std::string url() const { return "sqlite:" + (dir_.path() / "data" / "leadline.db").string(); }

  // Imports one item and expects success.
  ImportCounts import_ok(const std::vector<ImportItem>& items) {
    auto result = store_->import_batch(ws_, items);
    if (auto* failure = std::get_if<ImportFailure>(&result)) {
      ADD_FAILURE() << "import failed at line " << failure->line << ": " << failure->message;
      return {};
    }
    return std::get<ImportCounts>(result);
  }

  TempDir dir_;
  std::unique_ptr<Store> store_;
  domain::WorkspaceId ws_;
  domain::WorkspaceId other_ws_;
};

}  // namespace leadline::store::testing
