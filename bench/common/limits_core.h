// The two latency limits the runtime is held against, as reusable pieces:
// the bare userfaultfd fault round trip and the thread hand-off round trip.
// Used by simnpu_bench_limits and, interleaved with the runtime's own
// measurements, by bench_acl (same process, same moment, same conditions).
#ifndef SIMNPU_BENCH_LIMITS_CORE_H_
#define SIMNPU_BENCH_LIMITS_CORE_H_

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include <condition_variable>
#include <deque>
#include <mutex>

#include "bench_common.h"

namespace simnpu_bench {

// ---------------------------------------------------------------- userfaultfd

inline int OpenUffd() {
  int fd = static_cast<int>(syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK));
  if (fd < 0) fd = -errno;
  if (fd < 0) {
    int dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
    if (dev >= 0) {
      // USERFAULTFD_IOC_NEW = _IO(0xAA, 0x00)
      fd = ioctl(dev, _IO(0xAA, 0x00), O_CLOEXEC | O_NONBLOCK);
      close(dev);
    }
  }
  if (fd < 0) return -1;
  uffdio_api api;
  std::memset(&api, 0, sizeof api);
  api.api = UFFD_API;
  if (ioctl(fd, UFFDIO_API, &api) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

struct UffdHandler {
  int uffd = -1;
  int stop_fd = -1;
  bool spin = false;
  const char* src = nullptr;  // 2 MiB of source pages
  std::atomic<uint64_t> served{0};

  void Loop() {
    for (;;) {
      uffd_msg msg;
      ssize_t r = read(uffd, &msg, sizeof msg);
      if (r == static_cast<ssize_t>(sizeof msg)) {
        if (msg.event != UFFD_EVENT_PAGEFAULT) continue;
        uintptr_t addr = msg.arg.pagefault.address & ~(uintptr_t{4095});
        uffdio_copy c;
        c.dst = addr;
        c.src = reinterpret_cast<uintptr_t>(src) + ((addr >> 12) & 511) * 4096;
        c.len = 4096;
        c.mode = 0;
        c.copy = 0;
        if (ioctl(uffd, UFFDIO_COPY, &c) != 0 && errno != EEXIST) Die("UFFDIO_COPY");
        served.fetch_add(1, std::memory_order_relaxed);
        continue;
      }
      if (r < 0 && errno != EAGAIN && errno != EINTR) Die("read(userfaultfd)");
      if (spin) {
        // Check for stop without a system call most of the time.
        static thread_local unsigned n = 0;
        if ((++n & 1023) == 0) {
          pollfd p = {stop_fd, POLLIN, 0};
          if (poll(&p, 1, 0) > 0) return;
        }
        CpuRelax();
        continue;
      }
      pollfd p[2] = {{uffd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
      poll(p, 2, -1);
      if (p[1].revents) return;
    }
  }
};


// A region of `pages` 4 KiB pages registered for MISSING faults, served by a
// handler thread with UFFDIO_COPY (spinning or sleeping in poll()). Sample()
// makes every page missing again and reads one byte of each, timing each fault.
class BareUffd {
 public:
  BareUffd(size_t pages, bool spin) : pages_(pages), src_(kHuge) {
    fd_ = OpenUffd();
    if (fd_ < 0) return;
    for (size_t i = 0; i < kHuge; ++i) src_.data()[i] = static_cast<char>(i * 7);
    len_ = pages * kPage;
    region_ = static_cast<char*>(mmap(nullptr, len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (region_ == MAP_FAILED) Die("mmap");
    madvise(region_, len_, MADV_NOHUGEPAGE);
    uffdio_register reg;
    std::memset(&reg, 0, sizeof reg);
    reg.range.start = reinterpret_cast<uintptr_t>(region_);
    reg.range.len = len_;
    reg.mode = UFFDIO_REGISTER_MODE_MISSING;
    if (ioctl(fd_, UFFDIO_REGISTER, &reg) != 0) Die("UFFDIO_REGISTER");
    h_.uffd = fd_;
    h_.stop_fd = eventfd(0, EFD_CLOEXEC);
    h_.spin = spin;
    h_.src = src_.data();
    thread_ = std::thread([this] { h_.Loop(); });
  }
  ~BareUffd() {
    if (fd_ < 0) return;
    uint64_t one = 1;
    if (write(h_.stop_fd, &one, sizeof one) != sizeof one) Die("eventfd write");
    thread_.join();
    close(h_.stop_fd);
    munmap(region_, len_);
    close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  uint64_t served() const { return h_.served.load(); }
  // Times one fault per page; fills each[i] in us; returns the total in us.
  double Sample(std::vector<double>* each) {
    madvise(region_, len_, MADV_DONTNEED);  // every page missing again
    if (!h_.spin) usleep(2000);             // let the handler fall asleep
    each->resize(pages_);
    uint64_t sum = 0;
    uint64_t start = NowNs();
    for (size_t i = 0; i < pages_; ++i) {
      uint64_t t0 = NowNs();
      sum += static_cast<unsigned char>(*static_cast<volatile char*>(region_ + i * kPage));
      (*each)[i] = static_cast<double>(NowNs() - t0) / 1000.0;
    }
    Keep(sum);
    return static_cast<double>(NowNs() - start) / 1000.0;
  }

 private:
  size_t pages_;
  HugeBuffer src_;
  int fd_ = -1;
  size_t len_ = 0;
  char* region_ = nullptr;
  UffdHandler h_;
  std::thread thread_;
};

// ---------------------------------------------------------------- hand-off

// The stream worker protocol of src/core/stream.cc (Submit, WorkerMain,
// Complete, WaitFor), reduced to its synchronisation and built from the same
// primitives (platform::SpinUntil, platform::LockSpinning): submit = lock
// (spinning briefly first) + publish a sequence number + notify if the worker
// sleeps; the worker polls up to `spin_ns` for work (yielding every 256
// polls), then sleeps on a condition variable; completion = publish + notify
// if someone waits; the waiter polls up to `spin_ns` the same way, then sleeps.
class Handoff {
 public:
  explicit Handoff(uint64_t spin_ns) : spin_ns_(spin_ns), worker_([this] { Work(); }) {}
  ~Handoff() {
    {
      std::lock_guard<std::mutex> g(mu_);
      stop_ = true;
    }
    work_cv_.notify_all();
    worker_.join();
  }
  // `trips` timed round trips; each[i] in us; returns the total in us.
  double Sample(int trips, std::vector<double>* each) {
    each->resize(static_cast<size_t>(trips));
    uint64_t start = NowNs();
    for (int i = 0; i < trips; ++i) {
      uint64_t t0 = NowNs();
      RoundTrip();
      (*each)[static_cast<size_t>(i)] = static_cast<double>(NowNs() - t0) / 1000.0;
    }
    return static_cast<double>(NowNs() - start) / 1000.0;
  }
  // One round trip: submit task seq+1 and wait for its completion.
  void RoundTrip() {
    uint64_t seq;
    {
      ::simnpu::platform::LockSpinning(mu_);
      std::unique_lock<std::mutex> lk(mu_, std::adopt_lock);
      seq = submitted_.load(std::memory_order_relaxed) + 1;
      queue_.push_back(seq);
      submitted_.store(seq, std::memory_order_seq_cst);
      if (worker_sleeping_.load()) work_cv_.notify_one();
    }
    if (::simnpu::platform::SpinUntil([&] { return completed_.load(std::memory_order_acquire) >= seq; }, spin_ns_))
      return;
    waiters_.fetch_add(1, std::memory_order_seq_cst);
    {
      std::unique_lock<std::mutex> lk(mu_);
      done_cv_.wait(lk, [&] { return completed_.load(std::memory_order_seq_cst) >= seq; });
    }
    waiters_.fetch_sub(1);
  }

 private:
  void Work() {
    uint64_t seq = 0;
    for (;;) {
      ::simnpu::platform::SpinUntil([&] { return submitted_.load(std::memory_order_acquire) != seq; }, spin_ns_);
      {
        ::simnpu::platform::LockSpinning(mu_);  // the submitter that woke us may still hold it
        std::unique_lock<std::mutex> lk(mu_, std::adopt_lock);
        while (queue_.empty() && !stop_) {
          worker_sleeping_.store(true);
          work_cv_.wait(lk);
          worker_sleeping_.store(false);
        }
        if (queue_.empty()) return;
        queue_.pop_front();
      }
      ++seq;
      completed_.store(seq, std::memory_order_seq_cst);
      if (waiters_.load(std::memory_order_seq_cst) > 0) {
        std::lock_guard<std::mutex> g(mu_);
        done_cv_.notify_all();
      }
    }
  }

  const uint64_t spin_ns_;
  std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  std::deque<uint64_t> queue_;
  bool stop_ = false;
  std::atomic<bool> worker_sleeping_{false};
  std::atomic<int> waiters_{0};
  std::atomic<uint64_t> submitted_{0}, completed_{0};
  std::thread worker_;
};


// The spin budget the runtime's stream uses (SIMNPU_SPIN_US, default 50 us).
inline uint64_t StreamSpinUs() {
  const char* env = std::getenv("SIMNPU_SPIN_US");
  return env ? static_cast<uint64_t>(std::atol(env)) : 50;
}

}  // namespace simnpu_bench

#endif  // SIMNPU_BENCH_LIMITS_CORE_H_
