// Runs every StoreTest on both backends; fixtures derived from it instantiate themselves.
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(Backends, StoreTest, all_backends(), backend_name);

}  // namespace
}  // namespace leadline::store::testing
