// Tells AddressSanitizer and ThreadSanitizer of every switch between the fiber thread's stacks:
// Boost.Context switches in assembly they cannot see, and would read a switch as a stack
// overflow or a race. In other builds every call here is empty.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define LEADLINE_FIBERS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LEADLINE_FIBERS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define LEADLINE_FIBERS_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LEADLINE_FIBERS_TSAN 1
#endif
#endif

#if defined(LEADLINE_FIBERS_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(LEADLINE_FIBERS_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace leadline::fibers {

// One per fiber, made and used on the fiber thread. The scheduler is the thread's own stack.
class SanitizerNotes {
 public:
  SanitizerNotes() {
#if defined(LEADLINE_FIBERS_TSAN)
    fiber_ = __tsan_create_fiber(0);
#endif
  }
  ~SanitizerNotes() {
#if defined(LEADLINE_FIBERS_TSAN)
    __tsan_destroy_fiber(fiber_);
#endif
  }
  SanitizerNotes(const SanitizerNotes&) = delete;
  SanitizerNotes& operator=(const SanitizerNotes&) = delete;

  void set_stack([[maybe_unused]] const void* bottom, [[maybe_unused]] std::size_t size) {
#if defined(LEADLINE_FIBERS_ASAN)
    bottom_ = bottom;
    size_ = size;
#endif
  }

  // On the scheduler, right before it resumes the fiber.
  void scheduler_leaves() {
#if defined(LEADLINE_FIBERS_ASAN)
    __sanitizer_start_switch_fiber(&scheduler().fake_stack, bottom_, size_);
#endif
#if defined(LEADLINE_FIBERS_TSAN)
    scheduler_fiber_ = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(fiber_, 0);
#endif
  }
  // On the scheduler, right after the fiber suspended or ended.
  void scheduler_returns() {
#if defined(LEADLINE_FIBERS_ASAN)
    __sanitizer_finish_switch_fiber(scheduler().fake_stack, nullptr, nullptr);
#endif
  }
  // On the fiber, first thing when it starts or is resumed.
  void fiber_enters() {
#if defined(LEADLINE_FIBERS_ASAN)
    __sanitizer_finish_switch_fiber(fake_stack_, &scheduler().bottom, &scheduler().size);
#endif
  }
  // On the fiber, right before it suspends, or returns for good (`ending`: its stack is done).
  void fiber_leaves([[maybe_unused]] bool ending) {
#if defined(LEADLINE_FIBERS_ASAN)
    __sanitizer_start_switch_fiber(ending ? nullptr : &fake_stack_, scheduler().bottom,
                                   scheduler().size);
#endif
#if defined(LEADLINE_FIBERS_TSAN)
    __tsan_switch_to_fiber(scheduler_fiber_, 0);
#endif
  }

 private:
#if defined(LEADLINE_FIBERS_ASAN)
  struct Scheduler {
    const void* bottom = nullptr;
    std::size_t size = 0;
    void* fake_stack = nullptr;
  };
  static Scheduler& scheduler() {
    thread_local Scheduler state;
    return state;
  }
  const void* bottom_ = nullptr;
  std::size_t size_ = 0;
  void* fake_stack_ = nullptr;
#endif
#if defined(LEADLINE_FIBERS_TSAN)
  void* fiber_ = nullptr;
  void* scheduler_fiber_ = nullptr;
#endif
};

}  // namespace leadline::fibers
