// Registry: the machine-wide table of simulated NPU users and shared objects.
//
// One file, "<shm dir>/registry" (platform/shm_dir.h, mode 0600), mapped
// MAP_SHARED by every process of the user that opens a device. It says
//   - which processes hold which devices and how much device memory each
//     uses (simnpu-smi reads it);
//   - every exported object: IPC memory keys, IPC notify keys, IPC event
//     handles and VMM shareable handles, with owner, pid whitelist and, for
//     events and notifies, the signal words other processes record into.
//
// Layout (fixed; version in the header; a different version is refused):
//   Header   magic, version, total size, the lock, an id counter
//   Proc     kMaxProcs slots: pid, stem (its liveness token), name, in_use,
//            device mask and bytes in use per device
//   Export   kMaxExports slots: kind, key, owner, device, what it names
//            (chunk span or VMM handle id), whitelist, signal words
//
// Lock rules: Header::mu is a process-shared ROBUST pthread mutex guarding
// every slot's allocation and every field except the ones marked "owner
// writes, atomics": a process that dies holding it leaves it EOWNERDEAD, the
// next locker marks it consistent and goes on (slots are written so that a
// half-written slot has in_use/kind 0 until its last store). Nothing else is
// locked while it is held, and it is never held across a wait. Dead
// processes are found by their stem's lock (ShmDir::StemAlive), never by pid
// alone, so a recycled pid is not mistaken for the dead owner.
//
// Signal words (events, notifies) are 32-bit futex words in the mapping:
// recorders increment and FUTEX_WAKE, waiters FUTEX_WAIT (shared futexes)
// without the lock: no polling.
//
// Text fields (stem, name, key, owner_stem) live in a file every process of
// the user can write, so no reader trusts them to be terminated: every
// compare and copy is bounded by the field's array (FieldText, FieldEquals).
// A record whose field has no NUL inside it is corrupt: a lookup that
// matches it fails with ACL_ERROR_RT_DRV_INTERNAL_ERROR (507899) and a
// message naming the slot and the field, and ReclaimDead clears it.
//
// Creation: under flock(LOCK_EX) of "registry.lock" the first process
// creates, sizes and initialises the file (magic last); others take the same
// lock before reading the header, so nobody sees a half-made registry. Every
// user then holds flock(LOCK_SH) on the registry for its life; at a clean
// exit a process takes registry.lock and, when it can also get LOCK_EX on the
// registry (no other user), unlinks both (lockers check after locking that
// the lock path still names their inode, else they retry).
#ifndef SIMNPU_SIM_REGISTRY_H_
#define SIMNPU_SIM_REGISTRY_H_

#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/status.h"

namespace simnpu::sim {

constexpr int kMaxProcs = 128;
constexpr int kMaxExports = 2048;
constexpr int kMaxWhitelist = 64;
constexpr int kRegDevices = 16;
constexpr size_t kKeyLen = 72;  // keys are at most 64 characters + NUL

enum class ExportKind : uint32_t { kNone = 0, kMemory = 1, kNotify = 2, kEvent = 3, kVmm = 4 };

struct RegProc {
  uint32_t in_use;
  int32_t pid;
  char stem[32];
  char name[32];
  uint32_t dev_mask;                 // devices opened
  uint64_t dev_bytes[kRegDevices];   // owner writes, atomics: bytes in use
};

struct RegExport {
  uint32_t kind;  // ExportKind; 0 = free slot (written last when filling)
  uint32_t flags; // export flags as given
  char key[kKeyLen];
  char owner_stem[32];
  int32_t owner_pid;
  int32_t device;                    // owner's physical device
  uint32_t first_chunk, chunks;      // memory / vmm: the chunk span
  uint64_t offset, size;
  uint64_t handle;                   // vmm shareable handle value; event/notify id
  uint32_t nwl;
  int32_t wl[kMaxWhitelist];
  uint32_t signal;                   // futex word (events, notifies): completed records
  uint32_t waiters;                  // processes blocked on signal (wake only when > 0)
  uint32_t recorded;                 // events: records submitted
  uint32_t pad;
};

struct RegHeader {
  uint32_t magic;
  uint32_t version;
  uint64_t size;
  pthread_mutex_t mu;
  uint64_t next_id;
};

class Registry {
 public:
  static Registry& Get();
  bool ok() const { return hdr_ != nullptr; }
  const std::string& error() const { return error_; }

  // This process's slot (taken on first call); -1 when the registry is unusable.
  int SelfSlot();
  // Marks a device opened by this process.
  void NoteDeviceOpen(int phys);
  // The word this process publishes its use of device phys in (nullptr if none).
  uint64_t* UsageWord(int phys);

  // Adds an export; fills *key with a fresh key. Returns the slot or a Status.
  StatusOr<int> AddExport(RegExport rec, std::string* key);
  // A copy of the live export named key of `kind` (owner alive) or nullopt.
  // When the matching record is corrupt (a text field not terminated inside
  // its array) the result is nullopt and *error (if given) says why.
  std::optional<RegExport> FindExport(const std::string& key, ExportKind kind, int* slot = nullptr,
                                      Status* error = nullptr);
  // Finds by handle value (VMM, events) instead of key; errors as FindExport.
  std::optional<RegExport> FindByHandle(uint64_t handle, ExportKind kind, int* slot = nullptr,
                                        Status* error = nullptr);
  // Adds pids to the whitelist of an export this process owns.
  Status AddWhitelist(int slot, const int32_t* pids, size_t n);
  // Removes an export this process owns.
  void RemoveExport(int slot);
  // Direct access to a slot's signal words (events, notifies).
  RegExport* Slot(int slot);
  // Direct access to a process slot (tests: this process's SelfSlot()).
  RegProc* ProcSlot(int slot);
  uint64_t NextId();

  // Snapshot for simnpu-smi (a stem or name not terminated inside its
  // field reads as "<corrupt>" in the copy).
  std::vector<RegProc> Processes();
  // Clears this process's slot and exports (clean exit).
  void ReleaseSelf();
  // Removes the registry when no other process uses it (clean exit; readers).
  void LeaveIfLast();
  // Clears the slots of dead processes.
  void ReclaimDead();

 private:
  Registry();
  void Lock();
  void Unlock();
  RegProc* procs();
  RegExport* exports();
  // Shared tail of the lookups: the slot found (under the lock) -> result.
  std::optional<RegExport> Found(int found, const char* how, int* slot, Status* error);
  RegHeader* hdr_ = nullptr;
  std::string error_;
  int self_ = -1;
  int self_pid_ = 0;
  int fd_ = -1;        // holds flock(LOCK_SH) while this process uses the registry
  std::string path_;
};

// The text of a fixed-size field, or nullopt when no NUL lies inside it.
template <size_t N>
std::optional<std::string> FieldText(const char (&field)[N]) {
  for (size_t i = 0; i < N; ++i)
    if (field[i] == '\0') return std::string(field, i);
  return std::nullopt;
}

// True when the field's text is exactly s (reads at most N bytes; an
// unterminated field equals nothing, nor does an s with a NUL inside).
template <size_t N>
bool FieldEquals(const char (&field)[N], const std::string& s) {
  if (s.size() >= N) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\0' || field[i] != s[i]) return false;
  return field[s.size()] == '\0';
}

// The code of a corrupt registry record (ACL_ERROR_RT_DRV_INTERNAL_ERROR).
constexpr int kRegistryCorrupt = 507899;

// Whitelist check: true when pid may import rec.
bool MayImport(const RegExport& rec, int32_t pid, bool validation_disabled);

}  // namespace simnpu::sim

#endif  // SIMNPU_SIM_REGISTRY_H_
