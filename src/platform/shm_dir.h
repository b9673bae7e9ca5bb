// ShmDir: the per-user directory of machine-wide memory objects.
//
// Every object another process may map (device memory chunks, the registry)
// is a file in one directory per user: $SIMNPU_SHM_DIR, else
// /dev/shm/simnpu-<uid>. The directory is created with mode 0700 and every
// object with 0600, so another user can neither open nor map anything.
//
// Names. Each process takes a stem "p<pid>-<nonce>" (nonce: 8 random hex
// digits, so a recycled pid never names another process's objects). Its
// objects are "<stem>-<what>"; its liveness token is "<stem>.lock", held
// with flock(LOCK_EX) for the process's whole life.
//
// Cleanup. At a clean exit a process unlinks every file of its stem. The
// first use in a process reclaims the objects of dead processes: a lock file
// that can be flocked has no living holder (the kernel drops flocks at
// death, also after kill -9), so every file of that stem is unlinked. A
// mapping an importer still holds keeps its pages after the unlink.
//
// Thread safety: Get() is once-initialised; all methods are read-only after.
// A forked child that uses the runtime takes a fresh stem (Self() checks the
// pid) so it never shares its parent's identity.
#ifndef SIMNPU_PLATFORM_SHM_DIR_H_
#define SIMNPU_PLATFORM_SHM_DIR_H_

#include <sys/types.h>

#include <string>

namespace simnpu::platform {

class ShmDir {
 public:
  static ShmDir& Get();

  bool ok() const { return ok_; }
  const std::string& dir() const { return dir_; }
  // This process's stem (see above).
  const std::string& stem();
  // "<dir>/<stem>-<what>"
  std::string PathFor(const std::string& what) { return dir_ + "/" + stem() + "-" + what; }
  std::string PathOf(const std::string& stem, const std::string& what) const {
    return dir_ + "/" + stem + "-" + what;
  }
  // Creates (O_EXCL, 0600) an object of `size` bytes; fd or -errno.
  int CreateObject(const std::string& path, size_t size);
  // True when the process owning `stem` is alive (its lock file is held).
  bool StemAlive(const std::string& stem) const;
  // Unlinks every object of dead processes; returns how many stems it reclaimed.
  int ReclaimDead();
  // Unlinks every object of this process (at exit).
  void RemoveOwn();

 private:
  ShmDir();
  void TakeStem();
  bool ok_ = false;
  std::string dir_;
  std::string stem_;
  pid_t stem_pid_ = 0;
  int lock_fd_ = -1;
};

}  // namespace simnpu::platform

#endif  // SIMNPU_PLATFORM_SHM_DIR_H_
