// Fibers on one thread: the thread runs an io_context whose handlers start fibers and resume
// suspended ones; a fiber runs until it ends or suspends, then the thread takes the next handler.
// A fiber never changes threads, so thread-local state (caches, leased connections) stays safe
// across a suspension.
#include "fibers/fiber_thread.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>
#include <new>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "fibers/sanitizer_notes.hpp"
#include "fibers/suspension.hpp"

namespace leadline::fibers {

namespace asio = boost::asio;
namespace ctx = boost::context;

namespace {

// A request's handler with Boost.JSON and a few SQLite reads uses a few tens of KiB (more under
// AddressSanitizer); the mapping costs memory only where it is touched.
constexpr std::size_t kStackBytes = 512 * 1024;
// Enough for every request waiting at once on a busy server (the benchmark's 64 connections).
constexpr std::size_t kStacksKept = 128;

std::size_t page_bytes() {
  static const std::size_t bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

// Stacks are mapped once and kept: a fiber per request would otherwise cost an mmap, an
// mprotect and a munmap each. Used only on the fiber thread.
class StackStore {
 public:
  StackStore() = default;
  StackStore(const StackStore&) = delete;
  StackStore& operator=(const StackStore&) = delete;
  ~StackStore() {
    for (void* base : free_) munmap(base, kStackBytes);
  }

  ctx::stack_context take() {
    void* base = nullptr;
    if (!free_.empty()) {
      base = free_.back();
      free_.pop_back();
    } else {
      base = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED) throw std::bad_alloc();
      // The lowest page guards the stack: an overflow faults instead of writing over memory.
      if (mprotect(base, page_bytes(), PROT_NONE) != 0) {
        munmap(base, kStackBytes);
        throw std::bad_alloc();
      }
    }
    ctx::stack_context stack;
    stack.size = kStackBytes;
    stack.sp = static_cast<char*>(base) + kStackBytes;
    return stack;
  }

  void give_back(ctx::stack_context& stack) noexcept {
    void* base = static_cast<char*>(stack.sp) - stack.size;
    if (free_.size() < kStacksKept) {
      free_.push_back(base);
    } else {
      munmap(base, stack.size);
    }
  }

 private:
  std::vector<void*> free_;
};

// What each fiber keeps to allocate and free its stack: a handle on its thread's store, and the
// fiber's sanitizer notes, which learn where its stack is.
struct StackAllocator {
  StackStore* store;
  SanitizerNotes* notes;
  ctx::stack_context allocate() {
    ctx::stack_context stack = store->take();
    notes->set_stack(static_cast<char*>(stack.sp) - stack.size, stack.size);
    return stack;
  }
  void deallocate(ctx::stack_context& stack) noexcept { store->give_back(stack); }
};

using TrackedExecutor = std::decay_t<decltype(asio::prefer(
    std::declval<asio::io_context::executor_type>(), asio::execution::outstanding_work.tracked))>;

}  // namespace

struct Resume::Target : std::enable_shared_from_this<Resume::Target> {
  asio::io_context* ioc = nullptr;
  std::function<void()> body;
  ctx::fiber fiber;      // resuming it continues the task
  ctx::fiber scheduler;  // inside the task: suspending returns there
  // Set while suspended: the thread keeps running until the task is resumed.
  std::optional<TrackedExecutor> keep_running;
  SanitizerNotes notes;
};

namespace {

// The task running on this thread now, if any.
thread_local Resume::Target* current_task = nullptr;

void run_until_suspended(const std::shared_ptr<Resume::Target>& task) {
  current_task = task.get();
  task->notes.scheduler_leaves();
  task->fiber = std::move(task->fiber).resume();
  task->notes.scheduler_returns();
  current_task = nullptr;
}

}  // namespace

void Resume::operator()() {
  const std::shared_ptr<Target> task = std::move(target_);
  TrackedExecutor executor = std::move(*task->keep_running);
  task->keep_running.reset();
  asio::post(executor, [task] { run_until_suspended(task); });
}

bool on_fiber() {
  return current_task != nullptr;
}

void suspend(const std::function<void(Resume)>& arm) {
  Resume::Target* task = current_task;
  task->keep_running.emplace(
      asio::prefer(task->ioc->get_executor(), asio::execution::outstanding_work.tracked));
  try {
    arm(Resume(task->shared_from_this()));
  } catch (...) {
    // Not suspended after all: nothing will resume the fiber, so nothing may keep the thread.
    task->keep_running.reset();
    throw;
  }
  task->notes.fiber_leaves(false);
  task->scheduler = std::move(task->scheduler).resume();
  task->notes.fiber_enters();
}

struct FiberThread::Impl {
  explicit Impl(const std::string& name)
      : guard(asio::make_work_guard(ioc)), thread([this, name] {
          pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
          ioc.run();
        }) {}

  asio::io_context ioc{1};
  StackStore stacks;  // outlives the fibers: they all end before ioc.run() returns
  asio::executor_work_guard<asio::io_context::executor_type> guard;
  std::thread thread;  // last: started once everything it uses exists
};

FiberThread::FiberThread(const std::string& name) : impl_(std::make_unique<Impl>(name)) {}

FiberThread::~FiberThread() {
  impl_->guard.reset();
  impl_->thread.join();
}

void FiberThread::spawn(std::function<void()> body) {
  auto task = std::make_shared<Resume::Target>();
  task->ioc = &impl_->ioc;
  task->body = std::move(body);
  asio::post(impl_->ioc, [task, stacks = &impl_->stacks] {
    Resume::Target* raw = task.get();
    raw->fiber = ctx::fiber(std::allocator_arg, StackAllocator{stacks, &raw->notes},
                            [raw](ctx::fiber&& scheduler) {
                              raw->notes.fiber_enters();
                              raw->scheduler = std::move(scheduler);
                              raw->body();
                              raw->body = nullptr;  // what it holds goes now, on this stack
                              raw->notes.fiber_leaves(true);
                              return std::move(raw->scheduler);
                            });
    run_until_suspended(task);
  });
}

}  // namespace leadline::fibers
