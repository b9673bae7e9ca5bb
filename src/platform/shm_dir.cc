// ShmDir: per-user object directory, process stems, reclaiming the dead.
#include "platform/shm_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "platform/env.h"

namespace simnpu::platform {
namespace {
void RemoveOwnAtExit() { ShmDir::Get().RemoveOwn(); }

bool EndsWith(const std::string& s, const char* suf) {
  const size_t n = std::char_traits<char>::length(suf);
  return s.size() >= n && s.compare(s.size() - n, n, suf) == 0;
}
}  // namespace

ShmDir& ShmDir::Get() {
  static ShmDir* d = new ShmDir();  // never destroyed: used by atexit and late threads
  return *d;
}

ShmDir::ShmDir() {
  auto env = GetEnv("SIMNPU_SHM_DIR");
  dir_ = env && !env->empty() ? *env : "/dev/shm/simnpu-" + std::to_string(getuid());
  if (mkdir(dir_.c_str(), 0700) != 0 && errno != EEXIST) return;
  struct stat st;
  if (lstat(dir_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return;
  // A directory someone else owns, or one others can enter, is never used.
  if (st.st_uid != getuid()) return;
  if ((st.st_mode & 0077) != 0 && chmod(dir_.c_str(), 0700) != 0) return;
  ok_ = true;
  TakeStem();
  ReclaimDead();
  std::atexit(RemoveOwnAtExit);
}

void ShmDir::TakeStem() {
  if (lock_fd_ >= 0) close(lock_fd_);  // inherited from a parent across fork
  lock_fd_ = -1;
  std::random_device rd;
  char buf[64];
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::snprintf(buf, sizeof buf, "p%d-%08x", static_cast<int>(getpid()), static_cast<unsigned>(rd()));
    const std::string lock = dir_ + "/" + buf + ".lock";
    int fd = open(lock.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) continue;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      close(fd);
      unlink(lock.c_str());
      continue;
    }
    lock_fd_ = fd;
    stem_ = buf;
    stem_pid_ = getpid();
    return;
  }
}

const std::string& ShmDir::stem() {
  if (ok_ && stem_pid_ != getpid()) TakeStem();
  return stem_;
}

int ShmDir::CreateObject(const std::string& path, size_t size) {
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return -errno;
  if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
    int e = errno;
    close(fd);
    unlink(path.c_str());
    return -e;
  }
  return fd;
}

bool ShmDir::StemAlive(const std::string& stem) const {
  if (stem.empty()) return false;
  const std::string lock = dir_ + "/" + stem + ".lock";
  int fd = open(lock.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool alive = flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close(fd);  // closing drops the probe's lock if it got one
  return alive;
}

int ShmDir::ReclaimDead() {
  if (!ok_) return 0;
  DIR* d = opendir(dir_.c_str());
  if (!d) return 0;
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) names.emplace_back(e->d_name);
  closedir(d);
  int reclaimed = 0;
  for (const std::string& n : names) {
    if (!EndsWith(n, ".lock") || n[0] != 'p') continue;
    const std::string stem = n.substr(0, n.size() - 5);
    if (stem == stem_) continue;
    const std::string lock = dir_ + "/" + n;
    int fd = open(lock.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      close(fd);
      continue;  // alive
    }
    // Dead: its objects first, the lock file last (while we hold its lock,
    // no other reclaimer decides the same stem is dead and half-removes it).
    for (const std::string& m : names)
      if (m.size() > stem.size() && m.compare(0, stem.size(), stem) == 0 && m[stem.size()] == '-')
        unlink((dir_ + "/" + m).c_str());
    unlink(lock.c_str());
    close(fd);
    ++reclaimed;
  }
  return reclaimed;
}

void ShmDir::RemoveOwn() {
  if (!ok_ || stem_.empty() || stem_pid_ != getpid()) return;
  DIR* d = opendir(dir_.c_str());
  if (!d) return;
  std::vector<std::string> mine;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n.size() > stem_.size() && n.compare(0, stem_.size(), stem_) == 0 && n[stem_.size()] == '-')
      mine.push_back(n);
  }
  closedir(d);
  for (const std::string& n : mine) unlink((dir_ + "/" + n).c_str());
  unlink((dir_ + "/" + stem_ + ".lock").c_str());
}

}  // namespace simnpu::platform
