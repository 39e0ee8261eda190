// The one point every store operation passes through: it times the operation for the metrics,
// hands it to the engine with the access it needs, and carries its result back. The stores
// (lead_store.hpp, ...) say only what an operation does.
#pragma once

#include <chrono>
#include <optional>
#include <type_traits>
#include <utility>

#include "domain/clock.hpp"
#include "store/carried_check.hpp"
#include "store/delivery_signal.hpp"
#include "store/engine.hpp"
#include "store/operation.hpp"
#include "store/records/event_outbox.hpp"

namespace leadline::store {

class OperationRunner {
 public:
  // `metrics` may be null (commands that keep none).
  OperationRunner(Engine& engine, const domain::Clock& clock, OperationMetrics* metrics)
      : engine_(engine), clock_(clock), metrics_(metrics) {}

  // The time a write stamps on what it changes.
  domain::Timestamp now() const { return clock_.now(); }

  // Notified after a committed write during which deliveries were recorded.
  DeliverySignal& delivery_signal() { return delivery_signal_; }

  // `f(sql::Connection&)`'s result, run as one statement, one snapshot or one durable write.
  template <class F>
  auto read(const Operation& op, F&& f) {
    return run(op, Access::kRead, f, keep_always);
  }
  template <class F>
  auto snapshot(const Operation& op, F&& f) {
    return run(op, Access::kSnapshot, f, keep_always);
  }
  template <class F>
  auto write(const Operation& op, F&& f) {
    return run(op, Access::kWrite, f, keep_always);
  }
  // A write that undoes its changes when `keep(result)` is false (an import with a bad line).
  template <class F, class Keep>
  auto write_if(const Operation& op, F&& f, Keep keep) {
    return run(op, Access::kWrite, f, keep);
  }
  // A write_if that every operation of this runner called from `f`, on this thread, joins: what
  // they change commits or is undone together with what `f` writes itself. An idempotent
  // request's operation and its stored answer are one transaction this way (docs/api.md,
  // "Idempotent requests"). The joined operations run on `f`'s connection, reads included.
  template <class F, class Keep>
  auto write_together(const Operation& op, F&& f, Keep keep) {
    auto joined = [&](sql::Connection& c) {
      const Join join(this, c);
      return f(c);
    };
    return run(op, Access::kWrite, joined, keep);
  }

 private:
  static constexpr auto keep_always = [](const auto&) { return true; };

  // Observes on destruction, so an operation that throws is timed too.
  class Timer {
   public:
    Timer(OperationMetrics* metrics, const Operation& op)
        : metrics_(metrics), op_(op), start_(std::chrono::steady_clock::now()) {}
    ~Timer() {
      if (metrics_ == nullptr) return;
      const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
      metrics_->observe(op_, elapsed.count());
    }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;

   private:
    OperationMetrics* metrics_;
    const Operation& op_;
    std::chrono::steady_clock::time_point start_;
  };

  // Notifies on destruction when deliveries were recorded since construction: after the
  // engine returned, i.e. once the write is durable (or undone, which wakes the workers for
  // nothing).
  class WakeAfterCommit {
   public:
    explicit WakeAfterCommit(DeliverySignal* signal)
        : signal_(signal), before_(signal ? deliveries_recorded() : 0) {}
    ~WakeAfterCommit() {
      if (signal_ != nullptr && deliveries_recorded() != before_) signal_->notify();
    }
    WakeAfterCommit(const WakeAfterCommit&) = delete;
    WakeAfterCommit& operator=(const WakeAfterCommit&) = delete;

   private:
    DeliverySignal* signal_;
    std::uint64_t before_;
  };

  // The write_together under way on this thread, if any (zero-initialized: none).
  struct Joined {
    const OperationRunner* runner;
    sql::Connection* conn;
  };
  static inline thread_local Joined joined_;

  class Join {
   public:
    Join(const OperationRunner* runner, sql::Connection& conn) : outer_(joined_) {
      joined_ = {runner, &conn};
    }
    ~Join() { joined_ = outer_; }
    Join(const Join&) = delete;
    Join& operator=(const Join&) = delete;

   private:
    Joined outer_;
  };

  // An operation inside a write_together: on its connection, in its transaction, undoing only
  // its own changes when it keeps nothing. The joint write wakes the delivery workers after its
  // commit; an exception undoes the joint write as a whole.
  template <class F, class Keep>
  auto run_joined(const Operation& op, F& f, Keep& keep) {
    const Timer timer(metrics_, op);
    sql::Connection& c = *joined_.conn;
    if constexpr (std::is_same_v<std::remove_cvref_t<Keep>,
                                 std::remove_cvref_t<decltype(keep_always)>>) {
      return f(c);
    } else {
      c.execute("SAVEPOINT joined_operation");
      auto result = f(c);
      if (!keep(result)) c.execute("ROLLBACK TO joined_operation");
      c.execute("RELEASE joined_operation");
      return result;
    }
  }

  template <class F, class Keep>
  auto run(const Operation& op, Access access, F& f, Keep& keep) {
    using Result = std::invoke_result_t<F&, sql::Connection&>;
    if (joined_.runner == this) return run_joined(op, f, keep);
    const Timer timer(metrics_, op);
    // A write may run on the engine's writer thread, so the counter, not the thread, tells
    // whether deliveries were recorded meanwhile (by this write or one committed with it).
    const WakeAfterCommit wake(access == Access::kWrite ? &delivery_signal_ : nullptr);
    // Read here: the work may run on another thread (a writer's).
    CarriedCheck* const check = CarriedCheck::waiting();
    if constexpr (std::is_void_v<Result>) {
      engine_.run(access, [&](sql::Connection& c) {
        const Carry carry(check, c);
        f(c);
        return true;
      });
    } else {
      // Re-emplaced when the engine runs the work again after an aborted transaction.
      std::optional<Result> result;
      engine_.run(access, [&](sql::Connection& c) {
        const Carry carry(check, c);
        result.emplace(f(c));
        return static_cast<bool>(keep(*result));
      });
      return std::move(*result);
    }
  }

  // Hands the waiting check to the connection for the work's first statement; afterwards,
  // takes back one that no statement carried, so that it does not ride with someone else's.
  class Carry {
   public:
    Carry(CarriedCheck* check, sql::Connection& conn) : check_(check), conn_(conn) {
      if (check_ != nullptr) conn_.check_with_next(check_->sql(), check_->params());
    }
    ~Carry() {
      if (check_ != nullptr && !conn_.drop_unsent_check()) check_->mark_ran();
    }
    Carry(const Carry&) = delete;
    Carry& operator=(const Carry&) = delete;

   private:
    CarriedCheck* check_;
    sql::Connection& conn_;
  };

  Engine& engine_;
  const domain::Clock& clock_;
  OperationMetrics* metrics_;
  DeliverySignal delivery_signal_;
};

}  // namespace leadline::store
