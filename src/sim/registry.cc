// Registry: machine-wide shared table (layout and lock rules in registry.h).
#include "sim/registry.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "platform/shm_dir.h"

namespace simnpu::sim {
namespace {
constexpr uint32_t kMagic = 0x53525047;  // "GPRS"
constexpr uint32_t kVersion = 1;
constexpr size_t kTotal = sizeof(RegHeader) + 64 + sizeof(RegProc) * kMaxProcs + sizeof(RegExport) * kMaxExports;

size_t ProcOffset() { return (sizeof(RegHeader) + 63) / 64 * 64; }
size_t ExportOffset() { return ProcOffset() + sizeof(RegProc) * kMaxProcs; }

void CopyStr(char* dst, size_t cap, const std::string& s) {
  size_t n = s.size() < cap - 1 ? s.size() : cap - 1;
  std::memcpy(dst, s.data(), n);
  dst[n] = '\0';
}

// Bounded check of an export's text fields: NULL when they are sound, else
// the name of the first unterminated one.
const char* BadField(const RegExport& e) {
  if (!FieldText(e.key)) return "key";
  if (!FieldText(e.owner_stem)) return "owner_stem";
  return nullptr;
}
}  // namespace

// Takes "<registry>.lock" exclusively (creation and removal of the registry
// happen under it); retries when the lock file was replaced meanwhile.
static int LockCreation(const std::string& registry) {
  const std::string path = registry + ".lock";
  for (int attempt = 0; attempt < 64; ++attempt) {
    int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return -1;
    flock(fd, LOCK_EX);
    struct stat a, b;
    if (fstat(fd, &a) == 0 && stat(path.c_str(), &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
      return fd;
    close(fd);
  }
  return -1;
}

void ReleaseSelfAtExit() { Registry::Get().ReleaseSelf(); }

Registry& Registry::Get() {
  static Registry* r = new Registry();  // never destroyed
  return *r;
}

Registry::Registry() {
  auto& dir = platform::ShmDir::Get();
  if (!dir.ok()) {
    error_ = "no usable per-user directory " + dir.dir();
    return;
  }
  const std::string path = dir.dir() + "/registry";
  const int lfd = LockCreation(path);
  if (lfd < 0) {
    error_ = "cannot lock " + path + ".lock: " + std::strerror(errno);
    return;
  }
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    error_ = "cannot open " + path + ": " + std::strerror(errno);
    close(lfd);
    return;
  }
  struct stat st;
  fstat(fd, &st);
  bool fresh = static_cast<size_t>(st.st_size) < kTotal;
  if (fresh && ftruncate(fd, static_cast<off_t>(kTotal)) != 0) {
    error_ = "cannot size " + path + ": " + std::strerror(errno);
    close(fd);
    close(lfd);
    return;
  }
  void* m = mmap(nullptr, kTotal, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) {
    error_ = "cannot map " + path + ": " + std::strerror(errno);
    close(fd);
    close(lfd);
    return;
  }
  auto* h = static_cast<RegHeader*>(m);
  if (fresh || h->magic != kMagic) {
    std::memset(m, 0, kTotal);
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(&h->mu, &a);
    pthread_mutexattr_destroy(&a);
    h->version = kVersion;
    h->size = kTotal;
    h->next_id = 1;
    __atomic_store_n(&h->magic, kMagic, __ATOMIC_RELEASE);
  }
  // Every user holds a shared flock for its life: the last one out is the
  // one that can take it exclusively, and removes the file.
  flock(fd, LOCK_SH);
  close(lfd);
  if (h->version != kVersion || h->size != kTotal) {
    error_ = path + " has another layout (version " + std::to_string(h->version) + ")";
    munmap(m, kTotal);
    close(fd);
    return;
  }
  fd_ = fd;
  path_ = path;
  hdr_ = h;
}

RegProc* Registry::procs() {
  return reinterpret_cast<RegProc*>(reinterpret_cast<char*>(hdr_) + ProcOffset());
}
RegExport* Registry::exports() {
  return reinterpret_cast<RegExport*>(reinterpret_cast<char*>(hdr_) + ExportOffset());
}

void Registry::Lock() {
  int rc = pthread_mutex_lock(&hdr_->mu);
  if (rc == EOWNERDEAD) pthread_mutex_consistent(&hdr_->mu);  // holder died: slots are self-validating
}
void Registry::Unlock() { pthread_mutex_unlock(&hdr_->mu); }

void Registry::ReclaimDead() {
  if (!ok()) return;
  auto& dir = platform::ShmDir::Get();
  const std::string me = dir.stem();
  Lock();
  // A slot whose owner cannot be named (unterminated stem) is corrupt and
  // cleared like a dead one.
  for (int i = 0; i < kMaxProcs; ++i) {
    RegProc& p = procs()[i];
    if (!p.in_use) continue;
    const std::optional<std::string> stem = FieldText(p.stem);
    if (!stem || (*stem != me && !dir.StemAlive(*stem))) std::memset(&p, 0, sizeof p);
  }
  for (int i = 0; i < kMaxExports; ++i) {
    RegExport& e = exports()[i];
    if (!e.kind) continue;
    const std::optional<std::string> owner = FieldText(e.owner_stem);
    if (!owner || (*owner != me && !dir.StemAlive(*owner))) {
      // Wake anyone still blocked on a dead exporter's event/notify.
      e.kind = 0;
      __atomic_add_fetch(&e.signal, 1, __ATOMIC_SEQ_CST);
    }
  }
  Unlock();
}

int Registry::SelfSlot() {
  if (!ok()) return -1;
  if (self_ >= 0 && self_pid_ == getpid()) return self_;
  ReclaimDead();
  auto& dir = platform::ShmDir::Get();
  char name[32] = {0};
  if (FILE* f = std::fopen("/proc/self/comm", "r")) {
    if (std::fgets(name, sizeof name, f)) name[std::strcspn(name, "\n")] = '\0';
    std::fclose(f);
  }
  Lock();
  self_ = -1;
  for (int i = 0; i < kMaxProcs; ++i) {
    RegProc& p = procs()[i];
    if (p.in_use) continue;
    std::memset(&p, 0, sizeof p);
    p.pid = getpid();
    CopyStr(p.stem, sizeof p.stem, dir.stem());
    CopyStr(p.name, sizeof p.name, name);
    p.in_use = 1;
    self_ = i;
    break;
  }
  Unlock();
  self_pid_ = getpid();
  static bool hooked = false;
  if (!hooked) {
    hooked = true;
    std::atexit(ReleaseSelfAtExit);
  }
  return self_;
}

void Registry::NoteDeviceOpen(int phys) {
  int s = SelfSlot();
  if (s < 0 || phys < 0 || phys >= kRegDevices) return;
  __atomic_or_fetch(&procs()[s].dev_mask, 1u << phys, __ATOMIC_RELAXED);
}

uint64_t* Registry::UsageWord(int phys) {
  int s = SelfSlot();
  if (s < 0 || phys < 0 || phys >= kRegDevices) return nullptr;
  return &procs()[s].dev_bytes[phys];
}

uint64_t Registry::NextId() {
  if (!ok()) return 0;
  Lock();
  uint64_t v = hdr_->next_id++;
  Unlock();
  return v;
}

StatusOr<int> Registry::AddExport(RegExport rec, std::string* key) {
  if (!ok()) return Status(207000, "the machine-wide registry is unavailable: " + error_);
  SelfSlot();
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char buf[kKeyLen];
  auto& dir = platform::ShmDir::Get();
  CopyStr(rec.owner_stem, sizeof rec.owner_stem, dir.stem());
  rec.owner_pid = getpid();
  const uint32_t kind = rec.kind;
  Lock();
  int slot = -1;
  for (int i = 0; i < kMaxExports; ++i)
    if (exports()[i].kind == 0) {
      slot = i;
      break;
    }
  if (slot < 0) {
    Unlock();
    return Status(207001, "the registry holds " + std::to_string(kMaxExports) + " exports already");
  }
  const char* prefix = kind == 1 ? "snpm" : kind == 2 ? "snpn" : kind == 3 ? "snpe" : "snpv";
  std::snprintf(buf, sizeof buf, "%s%04x%016llx", prefix, static_cast<unsigned>(slot),
                static_cast<unsigned long long>(rng()));
  CopyStr(rec.key, sizeof rec.key, buf);
  rec.kind = 0;
  RegExport& e = exports()[slot];
  std::memcpy(&e, &rec, sizeof e);
  __atomic_store_n(&e.kind, kind, __ATOMIC_RELEASE);
  Unlock();
  *key = buf;
  return slot;
}

// Called with the lock held and found >= 0 or -1; unlocks.
std::optional<RegExport> Registry::Found(int found, const char* how, int* slot, Status* error) {
  if (found < 0) {
    Unlock();
    return std::nullopt;
  }
  RegExport rec;
  std::memcpy(&rec, &exports()[found], sizeof rec);  // one copy; checked below, not re-read
  Unlock();
  if (const char* bad = BadField(rec)) {
    if (error)
      *error = Status(kRegistryCorrupt, "the machine-wide registry's record " + std::to_string(found) + " (found by " +
                                            how + ") is corrupt: its " + bad +
                                            " field is not NUL-terminated; refusing to use it");
    return std::nullopt;
  }
  const std::string owner = *FieldText(rec.owner_stem);
  if (owner != platform::ShmDir::Get().stem() && !platform::ShmDir::Get().StemAlive(owner))
    return std::nullopt;  // stale: the exporter died
  if (slot) *slot = found;
  return rec;
}

std::optional<RegExport> Registry::FindExport(const std::string& key, ExportKind kind, int* slot, Status* error) {
  if (!ok() || key.empty() || key.size() >= kKeyLen) return std::nullopt;
  int found = -1;
  Lock();
  for (int i = 0; i < kMaxExports; ++i) {
    const RegExport& e = exports()[i];
    if (e.kind == static_cast<uint32_t>(kind) && FieldEquals(e.key, key)) {
      found = i;
      break;
    }
  }
  return Found(found, "key", slot, error);
}

std::optional<RegExport> Registry::FindByHandle(uint64_t handle, ExportKind kind, int* slot, Status* error) {
  if (!ok() || handle == 0) return std::nullopt;
  int found = -1;
  Lock();
  for (int i = 0; i < kMaxExports; ++i) {
    const RegExport& e = exports()[i];
    if (e.kind == static_cast<uint32_t>(kind) && e.handle == handle) {
      found = i;
      break;
    }
  }
  return Found(found, "handle", slot, error);
}

Status Registry::AddWhitelist(int slot, const int32_t* pids, size_t n) {
  if (!ok() || slot < 0 || slot >= kMaxExports) return Status(107000, "unknown export");
  const std::string me = platform::ShmDir::Get().stem();
  Lock();
  RegExport& e = exports()[slot];
  if (!e.kind || !FieldEquals(e.owner_stem, me)) {
    Unlock();
    return Status(107000, "the export is not owned by this process");
  }
  for (size_t i = 0; i < n; ++i) {
    bool dup = false;
    // nwl is a word of the shared file: never trusted past the array
    for (uint32_t j = 0; j < e.nwl && j < static_cast<uint32_t>(kMaxWhitelist); ++j) dup |= e.wl[j] == pids[i];
    if (dup) continue;
    if (e.nwl >= static_cast<uint32_t>(kMaxWhitelist)) {
      Unlock();
      return Status(207001, "a whitelist holds at most " + std::to_string(kMaxWhitelist) + " pids");
    }
    e.wl[e.nwl++] = pids[i];
  }
  Unlock();
  return Status::Ok();
}

void Registry::RemoveExport(int slot) {
  if (!ok() || slot < 0 || slot >= kMaxExports) return;
  const std::string me = platform::ShmDir::Get().stem();
  Lock();
  RegExport& e = exports()[slot];
  if (e.kind && FieldEquals(e.owner_stem, me)) {
    e.kind = 0;
    e.key[0] = '\0';
  }
  Unlock();
}

RegExport* Registry::Slot(int slot) {
  if (!ok() || slot < 0 || slot >= kMaxExports) return nullptr;
  return &exports()[slot];
}

RegProc* Registry::ProcSlot(int slot) {
  if (!ok() || slot < 0 || slot >= kMaxProcs) return nullptr;
  return &procs()[slot];
}

std::vector<RegProc> Registry::Processes() {
  std::vector<RegProc> v;
  if (!ok()) return v;
  ReclaimDead();
  Lock();
  for (int i = 0; i < kMaxProcs; ++i)
    if (procs()[i].in_use) v.push_back(procs()[i]);
  Unlock();
  for (RegProc& p : v) {  // checked in the copies, which nobody else writes
    if (!FieldText(p.stem)) CopyStr(p.stem, sizeof p.stem, "<corrupt>");
    if (!FieldText(p.name)) CopyStr(p.name, sizeof p.name, "<corrupt>");
  }
  return v;
}

void Registry::ReleaseSelf() {
  if (!ok() || self_ < 0 || self_pid_ != getpid()) return;
  const std::string me = platform::ShmDir::Get().stem();
  Lock();
  for (int i = 0; i < kMaxExports; ++i) {
    RegExport& e = exports()[i];
    if (e.kind && FieldEquals(e.owner_stem, me)) {
      e.kind = 0;
      __atomic_add_fetch(&e.signal, 1, __ATOMIC_SEQ_CST);
    }
  }
  std::memset(&procs()[self_], 0, sizeof(RegProc));
  Unlock();
  self_ = -1;
  LeaveIfLast();
}

void Registry::LeaveIfLast() {
  if (!ok()) return;
  // Last user out (nobody else holds the shared flock): remove the file.
  const int lfd = LockCreation(path_);
  if (lfd >= 0 && flock(fd_, LOCK_EX | LOCK_NB) == 0) {
    unlink(path_.c_str());
    unlink((path_ + ".lock").c_str());
    flock(fd_, LOCK_UN);
  }
  if (lfd >= 0) close(lfd);
}

bool MayImport(const RegExport& rec, int32_t pid, bool validation_disabled) {
  if (validation_disabled) return true;
  for (uint32_t i = 0; i < rec.nwl && i < static_cast<uint32_t>(kMaxWhitelist); ++i)
    if (rec.wl[i] == pid) return true;
  return false;
}

}  // namespace simnpu::sim
