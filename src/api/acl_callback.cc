// Host functions, report callbacks (aclrtSubscribeReport / aclrtProcessReport),
// host-function subscription, and exception information.
//
// A subscribed thread owns a ReportQueue. Callback tasks post work items to
// the queue of the thread subscribed to their stream; ACL_CALLBACK_BLOCK
// makes the stream wait (on a condition variable) until the item has run.
// When the thread's last subscription goes, its queue is closed: what was
// queued is released, and a callback task that looked the queue up just
// before does not queue into it (nobody would ever run the item); a thread
// waiting in aclrtProcessReport on it returns ACL_ERROR_RT_THREAD_SUBSCRIBE.
//
// Host-function subscription (aclrtSubscribeHostFunc / ProcessHostFunc /
// UnSubscribeHostFunc) works on every SOC: the real C library that programs
// link forwards these calls to the runtime whatever the chip, and a program
// that subscribes a thread must be able to unsubscribe it again.
//
// Lock order: Subscriptions::mu_ -> ReportQueue::mu (Unsubscribe never holds
// both; no path takes them in the other order).
#include <pthread.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>

#include "dfx/trace/trace.h"
#include "api/api_common.h"
#include "core/basic_tasks.h"
#include "core/exception_info.h"
#include "core/runtime.h"

using namespace simnpu;

namespace {

struct WorkItem {
  std::function<void()> fn;
  std::shared_ptr<std::pair<std::mutex, std::condition_variable>> done_sync;
  std::shared_ptr<bool> done;
};

struct ReportQueue {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<WorkItem> items;  // GUARDED_BY(mu)
  bool closed = false;         // the thread has no subscription left. GUARDED_BY(mu)
  int streams = 0;             // streams subscribed to this thread. GUARDED_BY(Subscriptions::mu_)
};

void MarkDone(WorkItem& w) {
  if (!w.done) return;
  std::lock_guard<std::mutex> g(w.done_sync->first);
  *w.done = true;
  w.done_sync->second.notify_all();
}

// One registry for report callbacks, one for host functions. Streams are
// keyed by their id, which is never reused: a destroyed stream's entry can
// then never be inherited by a new stream that happens to get its address.
class Subscriptions {
 public:
  int Subscribe(uint64_t tid, int32_t s) {
    std::lock_guard<std::mutex> g(mu_);
    if (owner_.count(s)) return ACL_ERROR_RT_STREAM_SUBSCRIBE;
    auto& q = threads_[tid];
    if (!q) q = std::make_shared<ReportQueue>();
    ++q->streams;
    owner_[s] = tid;
    return 0;
  }
  int Unsubscribe(uint64_t tid, int32_t s) {
    std::shared_ptr<ReportQueue> q;  // set when this was the thread's last subscription
    {
      std::lock_guard<std::mutex> g(mu_);
      auto it = owner_.find(s);
      if (it == owner_.end() || it->second != tid) return ACL_ERROR_RT_STREAM_SUBSCRIBE;
      owner_.erase(it);
      auto t = threads_.find(tid);  // present: owner_ named tid
      if (t != threads_.end() && --t->second->streams == 0) {
        q = std::move(t->second);
        threads_.erase(t);
      }
    }
    if (q) {  // close the queue and release anything still queued on it
      std::deque<WorkItem> dropped;
      {
        std::lock_guard<std::mutex> g(q->mu);
        q->closed = true;
        dropped.swap(q->items);
        q->cv.notify_all();  // a thread blocked in Process returns
      }
      for (auto& w : dropped) MarkDone(w);
    }
    return 0;
  }
  std::shared_ptr<ReportQueue> QueueForStream(int32_t s) {
    std::lock_guard<std::mutex> g(mu_);
    auto it = owner_.find(s);
    if (it == owner_.end()) return nullptr;
    auto t = threads_.find(it->second);
    return t == threads_.end() ? nullptr : t->second;
  }
  std::shared_ptr<ReportQueue> QueueForThread(uint64_t tid) {
    std::lock_guard<std::mutex> g(mu_);
    auto t = threads_.find(tid);
    return t == threads_.end() ? nullptr : t->second;
  }

 private:
  std::mutex mu_;
  std::map<uint64_t, std::shared_ptr<ReportQueue>> threads_;  // GUARDED_BY(mu_)
  std::map<int32_t, uint64_t> owner_;                          // stream id -> thread. GUARDED_BY(mu_)
};

Subscriptions& Reports() {
  static auto* s = new Subscriptions();
  return *s;
}
Subscriptions& HostFuncs() {
  static auto* s = new Subscriptions();
  return *s;
}

// Posts fn to the queue subscribed to stream; blocks until it ran if `block`.
class PostTask : public core::Task {
 public:
  PostTask(Subscriptions* subs, int32_t stream, std::function<void()> fn, bool block)
      : subs_(subs), stream_(stream), fn_(std::move(fn)), block_(block) {}
  int Run(core::ExecContext&) override {
    auto q = subs_->QueueForStream(stream_);
    if (!q) return 0;  // unsubscribed meanwhile: dropped
    WorkItem w{fn_, nullptr, nullptr};
    if (block_) {
      w.done_sync = std::make_shared<std::pair<std::mutex, std::condition_variable>>();
      w.done = std::make_shared<bool>(false);
    }
    auto sync = w.done_sync;
    auto done = w.done;
    {
      std::lock_guard<std::mutex> g(q->mu);
      // Unsubscribed since the lookup: the queue is no longer processed, so
      // the item is dropped (and not waited for) like one queued before.
      if (q->closed) return 0;
      q->items.push_back(std::move(w));
      q->cv.notify_all();
    }
    if (block_) {
      std::unique_lock<std::mutex> lk(sync->first);
      sync->second.wait(lk, [&] { return *done; });
    }
    return 0;
  }
  const char* name() const override { return "callback"; }

 private:
  Subscriptions* subs_;
  int32_t stream_;  // id
  std::function<void()> fn_;
  bool block_;
};

// Runs the queued items of the calling thread. ACL codes as documented.
aclError Process(const char* func, Subscriptions& subs, int32_t timeout) {
  if (timeout == 0 || timeout < -1)
    return api::BadParam(func, "timeout", std::to_string(timeout), "-1 (forever) or a positive number of ms");
  auto q = subs.QueueForThread(static_cast<uint64_t>(pthread_self()));
  if (!q) return api::RtFail(func, ACL_ERROR_RT_THREAD_SUBSCRIBE, "the calling thread is not subscribed to any stream");
  std::deque<WorkItem> batch;
  {
    std::unique_lock<std::mutex> lk(q->mu);
    auto ready = [&] { return !q->items.empty() || q->closed; };
    if (timeout < 0)
      q->cv.wait(lk, ready);
    else if (!q->cv.wait_for(lk, std::chrono::milliseconds(timeout), ready))
      return api::RtFail(func, ACL_ERROR_RT_REPORT_TIMEOUT, "no callback arrived within " + std::to_string(timeout) + " ms");
    if (q->closed)  // its last subscription went while it waited: nothing will ever arrive
      return api::RtFail(func, ACL_ERROR_RT_THREAD_SUBSCRIBE,
                         "the calling thread's last stream subscription was removed while it waited");
    batch.swap(q->items);
  }
  for (auto& w : batch) {
    w.fn();
    MarkDone(w);
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(fn);
  ACL_RESOLVE_STREAM(s, stream);
  if (HostFuncs().QueueForStream(s->id())) {
    s->Submit(std::make_unique<PostTask>(&HostFuncs(), s->id(), [fn, args] { fn(args); }, true));
  } else {
    s->Submit(std::make_unique<core::HostFuncTask>(
        [fn, args](core::ExecContext&) {
          fn(args);
          return 0;
        },
        "host_func", false));
  }
  return ACL_SUCCESS;
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  if (threadId == 0) return api::RtBadParam(__func__, "threadId", "0", "a thread id (pthread_t) of a live thread");
  ACL_RESOLVE_STREAM(s, stream);
  int rc = Reports().Subscribe(threadId, s->id());
  if (rc) return api::RtFail(__func__, rc, "the stream is already subscribed by a thread");
  return ACL_SUCCESS;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  ACL_RESOLVE_STREAM(s, stream);
  int rc = Reports().Unsubscribe(threadId, s->id());
  if (rc) return api::RtFail(__func__, rc, "the stream is not subscribed by this thread id");
  return ACL_SUCCESS;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(fn);
  const int block = api::RawEnum(blockType);
  if (block != ACL_CALLBACK_NO_BLOCK && block != ACL_CALLBACK_BLOCK)
    return api::BadParam(__func__, "blockType", std::to_string(block), "ACL_CALLBACK_NO_BLOCK or ACL_CALLBACK_BLOCK");
  ACL_RESOLVE_STREAM(s, stream);
  if (!Reports().QueueForStream(s->id()))
    return api::RtFail(__func__, ACL_ERROR_RT_STREAM_NO_CB_REG,
                       "no thread is subscribed to this stream (aclrtSubscribeReport)");
  s->Submit(std::make_unique<PostTask>(&Reports(), s->id(), [fn, userData] { fn(userData); },
                                       block == ACL_CALLBACK_BLOCK));
  return ACL_SUCCESS;
}

aclError aclrtProcessReport(int32_t timeout) { return Process(__func__, Reports(), timeout); }

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  SIMNPU_TRACE_API();
  if (hostFuncThreadId == 0)
    return api::RtBadParam(__func__, "hostFuncThreadId", "0", "a thread id (pthread_t) of a live thread");
  ACL_RESOLVE_STREAM(s, exeStream);
  int rc = HostFuncs().Subscribe(hostFuncThreadId, s->id());
  if (rc) return api::RtFail(__func__, rc, "the stream is already subscribed by a thread");
  return ACL_SUCCESS;
}

aclError aclrtProcessHostFunc(int32_t timeout) {
  return Process(__func__, HostFuncs(), timeout);
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  ACL_RESOLVE_STREAM(s, exeStream);
  int rc = HostFuncs().Unsubscribe(hostFuncThreadId, s->id());
  if (rc) return api::RtFail(__func__, rc, "the stream is not subscribed by this thread id");
  return ACL_SUCCESS;
}

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  core::SetExceptionCallback(reinterpret_cast<core::ExceptionCallback>(callback));
  return ACL_SUCCESS;
}

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) { return info ? info->taskid : 0xFFFFFFFFu; }
uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) { return info ? info->streamid : 0xFFFFFFFFu; }
uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) { return info ? info->tid : 0xFFFFFFFFu; }
uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) { return info ? info->deviceid : 0xFFFFFFFFu; }
uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) { return info ? info->retcode : 0xFFFFFFFFu; }

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info, void** devArgsPtr, uint32_t* devArgsLen) {
  if (!info) return static_cast<aclError>(0xFFFFFFFFu);
  ACL_REQUIRE_NOT_NULL(devArgsPtr);
  ACL_REQUIRE_NOT_NULL(devArgsLen);
  if (!info->args) return static_cast<aclError>(0xFFFFFFFFu);
  *devArgsPtr = info->args;
  *devArgsLen = info->args_len;
  return ACL_SUCCESS;
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info, aclrtFuncHandle* func) {
  if (!info) return static_cast<aclError>(0xFFFFFFFFu);
  ACL_REQUIRE_NOT_NULL(func);
  if (!info->func_handle) return static_cast<aclError>(0xFFFFFFFFu);
  *func = info->func_handle;
  return ACL_SUCCESS;
}

}  // extern "C"
