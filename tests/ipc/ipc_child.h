// A child process of the multi-process tests: ipc_peer (or any program)
// started with fork+exec, its stdin/stdout as pipes, lines read with a
// timeout so a broken peer fails the test instead of hanging it.
#ifndef SIMNPU_TESTS_IPC_IPC_CHILD_H_
#define SIMNPU_TESTS_IPC_IPC_CHILD_H_

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

namespace simnpu_test {

class Child {
 public:
  // keep_fd: one more descriptor the child inherits (e.g. a socket), or -1.
  explicit Child(std::vector<std::string> argv, int keep_fd = -1) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      for (int fd = 3; fd < 1024; ++fd)
        if (fd != keep_fd) close(fd);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~Child() {
    if (to_ >= 0) close(to_);
    if (from_ >= 0) close(from_);
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }
  void Send(const std::string& line) {
    std::string s = line + "\n";
    if (write(to_, s.data(), s.size()) < 0) {}
  }
  // Next line, or "<timeout>" / "<eof>".
  std::string Line(int timeout_ms = 20000) {
    for (;;) {
      size_t nl = buf_.find('\n');
      if (nl != std::string::npos) {
        std::string l = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        return l;
      }
      pollfd p{from_, POLLIN, 0};
      if (poll(&p, 1, timeout_ms) <= 0) return "<timeout>";
      char tmp[256];
      ssize_t n = read(from_, tmp, sizeof tmp);
      if (n <= 0) return "<eof>";
      buf_.append(tmp, static_cast<size_t>(n));
    }
  }
  void CloseInput() {
    if (to_ >= 0) close(to_);
    to_ = -1;
  }
  // Exit status (WEXITSTATUS) or -signal; -1000 on timeout.
  int Wait(int timeout_ms = 20000) {
    for (int waited = 0; waited < timeout_ms; waited += 10) {
      int st = 0;
      pid_t r = waitpid(pid_, &st, WNOHANG);
      if (r == pid_) {
        reaped_ = true;
        return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
      }
      usleep(10000);
    }
    return -1000;
  }
  void Kill() { kill(pid_, SIGKILL); }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  bool reaped_ = false;
  std::string buf_;
};

}  // namespace simnpu_test

#endif  // SIMNPU_TESTS_IPC_IPC_CHILD_H_
