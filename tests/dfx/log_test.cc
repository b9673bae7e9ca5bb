// Tests of dfx/log: levels, module overrides, the stdout switch and its alias,
// the plog file layout and line format, rotation, fork, and that nothing is
// created while logging is disabled.
#include "dfx/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using simnpu::dfx::LogEnabled;
using simnpu::dfx::LogLevel;
using simnpu::dfx::LogModule;
using simnpu::dfx::LogReconfigureForTesting;

namespace {

const char* const kVars[] = {
    "ASCEND_GLOBAL_LOG_LEVEL",     "ASCEND_MODULE_LOG_LEVEL",  "ASCEND_GLOBAL_EVENT_ENABLE",
    "ASCEND_LOG_PRINT_TO_STDOUT",  "ASCEND_SLOG_PRINT_TO_STDOUT", "ASCEND_PROCESS_LOG_PATH",
    "ASCEND_WORK_PATH",            "ASCEND_HOST_LOG_FILE_NUM", "SIMNPU_LOG_FILE_SIZE",
};

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string l;
  while (std::getline(ss, l)) out.push_back(l);
  return out;
}

std::vector<fs::path> PlogFiles(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string AllText(const fs::path& dir) {
  std::string all;
  for (const auto& f : PlogFiles(dir)) all += ReadFile(f);
  return all;
}

class LogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_home_ = getenv("HOME") ? getenv("HOME") : "";
    for (const char* v : kVars) unsetenv(v);
    char tmpl[] = "/tmp/simnpu_log_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    tmp_ = tmpl;
    root_ = tmp_ / "logs";  // not created: the logger must create it
    setenv("ASCEND_PROCESS_LOG_PATH", root_.c_str(), 1);
    LogReconfigureForTesting();
  }
  void TearDown() override {
    for (const char* v : kVars) unsetenv(v);
    setenv("HOME", saved_home_.c_str(), 1);
    LogReconfigureForTesting();
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
  static void Set(const char* k, const char* v) {
    setenv(k, v, 1);
    LogReconfigureForTesting();
  }
  fs::path DebugDir() const { return root_ / "debug" / "plog"; }
  fs::path RunDir() const { return root_ / "run" / "plog"; }

  // Runs f with fd 1 redirected to a file; returns what reached it.
  template <typename F>
  std::string CaptureStdout(F f) {
    fs::path out = tmp_ / "stdout.txt";
    fflush(stdout);
    int saved = dup(1);
    int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 1);
    close(fd);
    f();
    simnpu::dfx::LogFlush();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    return ReadFile(out);
  }

  std::string saved_home_;
  fs::path tmp_;
  fs::path root_;
};

TEST_F(LogTest, DefaultLevelIsError) {
  EXPECT_FALSE(LogEnabled(LogModule::kRuntime, LogLevel::kDebug));
  EXPECT_FALSE(LogEnabled(LogModule::kRuntime, LogLevel::kInfo));
  EXPECT_FALSE(LogEnabled(LogModule::kRuntime, LogLevel::kWarning));
  EXPECT_TRUE(LogEnabled(LogModule::kRuntime, LogLevel::kError));
  EXPECT_TRUE(LogEnabled(LogModule::kAscendcl, LogLevel::kError));
  EXPECT_TRUE(LogEnabled(LogModule::kApp, LogLevel::kEvent));
}

TEST_F(LogTest, GlobalLevels) {
  Set("ASCEND_GLOBAL_LOG_LEVEL", "0");
  EXPECT_TRUE(LogEnabled(LogModule::kDrv, LogLevel::kDebug));
  Set("ASCEND_GLOBAL_LOG_LEVEL", "1");
  EXPECT_FALSE(LogEnabled(LogModule::kDrv, LogLevel::kDebug));
  EXPECT_TRUE(LogEnabled(LogModule::kDrv, LogLevel::kInfo));
  Set("ASCEND_GLOBAL_LOG_LEVEL", "2");
  EXPECT_FALSE(LogEnabled(LogModule::kDrv, LogLevel::kInfo));
  EXPECT_TRUE(LogEnabled(LogModule::kDrv, LogLevel::kWarning));
  Set("ASCEND_GLOBAL_LOG_LEVEL", "4");
  for (LogLevel l : {LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarning, LogLevel::kError,
                     LogLevel::kEvent})
    EXPECT_FALSE(LogEnabled(LogModule::kRuntime, l));
  // Values outside 0..4 or not numbers keep the default (ERROR).
  for (const char* bad : {"5", "-1", "abc", "2x", ""}) {
    Set("ASCEND_GLOBAL_LOG_LEVEL", bad);
    EXPECT_FALSE(LogEnabled(LogModule::kRuntime, LogLevel::kWarning)) << bad;
    EXPECT_TRUE(LogEnabled(LogModule::kRuntime, LogLevel::kError)) << bad;
  }
  Set("ASCEND_GLOBAL_LOG_LEVEL", " 1 ");
  EXPECT_TRUE(LogEnabled(LogModule::kRuntime, LogLevel::kInfo));
}

TEST_F(LogTest, ModuleOverrides) {
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1);
  Set("ASCEND_MODULE_LOG_LEVEL", "RUNTIME=0:APP=4:BOGUS=1:DRV=x:ascendcl=3");
  EXPECT_TRUE(LogEnabled(LogModule::kRuntime, LogLevel::kDebug));
  EXPECT_FALSE(LogEnabled(LogModule::kApp, LogLevel::kError));
  EXPECT_FALSE(LogEnabled(LogModule::kApp, LogLevel::kEvent));
  EXPECT_TRUE(LogEnabled(LogModule::kDrv, LogLevel::kWarning));  // bad item: global level
  EXPECT_FALSE(LogEnabled(LogModule::kDrv, LogLevel::kInfo));
  EXPECT_FALSE(LogEnabled(LogModule::kAscendcl, LogLevel::kWarning));  // case-insensitive name
  EXPECT_TRUE(LogEnabled(LogModule::kAscendcl, LogLevel::kError));
}

TEST_F(LogTest, EventSwitch) {
  EXPECT_TRUE(LogEnabled(LogModule::kRuntime, LogLevel::kEvent));
  Set("ASCEND_GLOBAL_EVENT_ENABLE", "0");
  EXPECT_FALSE(LogEnabled(LogModule::kRuntime, LogLevel::kEvent));
  EXPECT_TRUE(LogEnabled(LogModule::kRuntime, LogLevel::kError));
}

TEST_F(LogTest, ModuleNames) {
  EXPECT_STREQ(simnpu::dfx::LogModuleName(LogModule::kAscendcl), "ASCENDCL");
  EXPECT_STREQ(simnpu::dfx::LogModuleName(LogModule::kRuntime), "RUNTIME");
  EXPECT_STREQ(simnpu::dfx::LogModuleName(LogModule::kDrv), "DRV");
  EXPECT_STREQ(simnpu::dfx::LogModuleName(LogModule::kApp), "APP");
}

TEST_F(LogTest, NothingOnStdoutByDefault) {
  std::string out = CaptureStdout([] { SIMNPU_LOGE(kRuntime, "to the file %d", 1); });
  EXPECT_EQ(out, "");
  EXPECT_NE(AllText(DebugDir()).find("to the file 1"), std::string::npos);
}

TEST_F(LogTest, StdoutSwitchWritesNoFiles) {
  Set("ASCEND_LOG_PRINT_TO_STDOUT", "1");
  std::string out = CaptureStdout([] { SIMNPU_LOGE(kRuntime, "on stdout %s", "yes"); });
  EXPECT_NE(out.find("[ERROR] RUNTIME("), std::string::npos);
  EXPECT_NE(out.find("on stdout yes\n"), std::string::npos);
  EXPECT_FALSE(fs::exists(root_));
}

TEST_F(LogTest, StdoutAliasAndPrecedence) {
  Set("ASCEND_SLOG_PRINT_TO_STDOUT", "1");
  EXPECT_NE(CaptureStdout([] { SIMNPU_LOGE(kApp, "alias"); }).find("alias"), std::string::npos);
  EXPECT_FALSE(fs::exists(root_));

  // Both set: the new variable wins, whatever the order of values.
  Set("ASCEND_LOG_PRINT_TO_STDOUT", "0");
  EXPECT_EQ(CaptureStdout([] { SIMNPU_LOGE(kApp, "new wins off"); }), "");
  EXPECT_NE(AllText(DebugDir()).find("new wins off"), std::string::npos);

  setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "0", 1);
  Set("ASCEND_LOG_PRINT_TO_STDOUT", "1");
  EXPECT_NE(CaptureStdout([] { SIMNPU_LOGE(kApp, "new wins on"); }).find("new wins on"),
            std::string::npos);
}

TEST_F(LogTest, FileLayoutAndLineFormat) {
  ASSERT_FALSE(fs::exists(root_));
  SIMNPU_LOGE(kRuntime, "hello %d", 42);
  auto files = PlogFiles(DebugDir());
  ASSERT_EQ(files.size(), 1u);
  std::regex name("plog-" + std::to_string(getpid()) + "_[0-9]{17}\\.log");
  EXPECT_TRUE(std::regex_match(files[0].filename().string(), name)) << files[0];
  EXPECT_FALSE(fs::exists(root_ / "run"));

  auto lines = Lines(ReadFile(files[0]));
  ASSERT_EQ(lines.size(), 1u);
  std::regex line("\\[ERROR\\] RUNTIME\\(" + std::to_string(getpid()) + "," +
                  program_invocation_short_name +
                  "\\):[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}\\.[0-9]{3} "
                  "\\[log_test\\.cc:[0-9]+\\]hello 42");
  EXPECT_TRUE(std::regex_match(lines[0], line)) << lines[0];
}

TEST_F(LogTest, LevelNamesInLines) {
  Set("ASCEND_GLOBAL_LOG_LEVEL", "0");
  SIMNPU_LOGD(kDrv, "d");
  SIMNPU_LOGI(kAscendcl, "i");
  SIMNPU_LOGW(kApp, "w");
  SIMNPU_LOGE(kRuntime, "e\n");  // trailing newline is not doubled
  auto lines = Lines(AllText(DebugDir()));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].rfind("[DEBUG] DRV(", 0), 0u);
  EXPECT_EQ(lines[1].rfind("[INFO] ASCENDCL(", 0), 0u);
  EXPECT_EQ(lines[2].rfind("[WARNING] APP(", 0), 0u);
  EXPECT_EQ(lines[3].rfind("[ERROR] RUNTIME(", 0), 0u);
  EXPECT_EQ(lines[3].back(), 'e');
}

TEST_F(LogTest, EventLinesAlsoGoToRunDir) {
  SIMNPU_LOG(kRuntime, kEvent, "an event");
  auto run = PlogFiles(RunDir());
  ASSERT_EQ(run.size(), 1u);
  auto lines = Lines(ReadFile(run[0]));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("[EVENT] RUNTIME(", 0), 0u);
  EXPECT_NE(AllText(DebugDir()).find("an event"), std::string::npos);
}

TEST_F(LogTest, NothingCreatedWhenDisabled) {
  SIMNPU_LOGW(kRuntime, "below the default level");
  SIMNPU_LOGD(kRuntime, "below the default level");
  EXPECT_FALSE(fs::exists(root_));
  Set("ASCEND_GLOBAL_LOG_LEVEL", "4");
  SIMNPU_LOGE(kRuntime, "off");
  SIMNPU_LOG(kRuntime, kEvent, "off");
  // Direct LogWrite calls check the level too.
  simnpu::dfx::LogWrite(LogModule::kRuntime, LogLevel::kError, __FILE__, __LINE__, "off");
  EXPECT_FALSE(fs::exists(root_));
}

TEST_F(LogTest, LongMessageKept) {
  std::string big(5000, 'x');
  SIMNPU_LOGE(kApp, "[%s]", big.c_str());
  EXPECT_NE(AllText(DebugDir()).find("[" + big + "]"), std::string::npos);
}

TEST_F(LogTest, WorkPathAndHomeFallback) {
  unsetenv("ASCEND_PROCESS_LOG_PATH");
  Set("ASCEND_WORK_PATH", (tmp_ / "work").c_str());
  SIMNPU_LOGE(kApp, "work path");
  EXPECT_EQ(PlogFiles(tmp_ / "work" / "log" / "debug" / "plog").size(), 1u);

  unsetenv("ASCEND_WORK_PATH");
  Set("HOME", (tmp_ / "home").c_str());
  SIMNPU_LOGE(kApp, "home");
  EXPECT_EQ(PlogFiles(tmp_ / "home" / "ascend" / "log" / "debug" / "plog").size(), 1u);

  // ASCEND_PROCESS_LOG_PATH beats ASCEND_WORK_PATH.
  setenv("ASCEND_WORK_PATH", (tmp_ / "work2").c_str(), 1);
  Set("ASCEND_PROCESS_LOG_PATH", root_.c_str());
  SIMNPU_LOGE(kApp, "process path");
  EXPECT_EQ(PlogFiles(DebugDir()).size(), 1u);
  EXPECT_FALSE(fs::exists(tmp_ / "work2"));
}

TEST_F(LogTest, ForkedChildUsesItsOwnPid) {
  SIMNPU_LOGE(kRuntime, "parent before");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    SIMNPU_LOGE(kRuntime, "from the child");
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  SIMNPU_LOGE(kRuntime, "parent after");

  auto files = PlogFiles(DebugDir());
  ASSERT_EQ(files.size(), 2u);
  std::string mine = "plog-" + std::to_string(getpid()) + "_";
  std::string theirs = "plog-" + std::to_string(child) + "_";
  for (const auto& f : files) {
    std::string n = f.filename().string();
    std::string text = ReadFile(f);
    if (n.rfind(mine, 0) == 0) {
      EXPECT_NE(text.find("parent before"), std::string::npos);
      EXPECT_NE(text.find("parent after"), std::string::npos);
      EXPECT_EQ(text.find("from the child"), std::string::npos);
    } else {
      EXPECT_EQ(n.rfind(theirs, 0), 0u) << n;
      EXPECT_EQ(Lines(text).size(), 1u);
      EXPECT_NE(text.find("RUNTIME(" + std::to_string(child) + ","), std::string::npos);
    }
  }
}

TEST_F(LogTest, RotationKeepsFileNumAcrossProcesses) {
  Set("ASCEND_HOST_LOG_FILE_NUM", "3");
  for (int i = 0; i < 5; ++i) {
    pid_t c = fork();
    ASSERT_GE(c, 0);
    if (c == 0) {
      SIMNPU_LOGE(kApp, "child %d", i);
      _exit(0);
    }
    int st = 0;
    waitpid(c, &st, 0);
    usleep(2000);  // distinct name timestamps, so "oldest" is well defined
  }
  SIMNPU_LOGE(kApp, "parent");
  auto files = PlogFiles(DebugDir());
  EXPECT_EQ(files.size(), 3u);
  bool have_parent = false;
  for (const auto& f : files)
    have_parent |= f.filename().string().rfind("plog-" + std::to_string(getpid()) + "_", 0) == 0;
  EXPECT_TRUE(have_parent);
  std::string all = AllText(DebugDir());
  EXPECT_EQ(all.find("child 0"), std::string::npos);  // oldest ones went first
  EXPECT_NE(all.find("child 4"), std::string::npos);
}

TEST_F(LogTest, RotationBySize) {
  setenv("SIMNPU_LOG_FILE_SIZE", "2048", 1);
  Set("ASCEND_HOST_LOG_FILE_NUM", "4");
  std::string pad(60, 'p');
  for (int i = 0; i < 300; ++i) SIMNPU_LOGE(kApp, "line %04d %s", i, pad.c_str());
  auto files = PlogFiles(DebugDir());
  ASSERT_EQ(files.size(), 4u);
  for (const auto& f : files) EXPECT_LE(fs::file_size(f), 2048u) << f;
  // File names sort by time; the newest holds the last line.
  std::string newest = ReadFile(files.back());
  EXPECT_NE(newest.find("line 0299"), std::string::npos);
  EXPECT_EQ(AllText(DebugDir()).find("line 0000"), std::string::npos);
}

TEST_F(LogTest, RotationDeletesOldestForeignFilesOnly) {
  fs::create_directories(DebugDir());
  for (int i = 0; i < 12; ++i) {
    char name[64];
    snprintf(name, sizeof name, "plog-1_200001010000%05d.log", i);
    std::ofstream(DebugDir() / name) << "old\n";
  }
  std::ofstream(DebugDir() / "notes.txt") << "keep\n";
  SIMNPU_LOGE(kApp, "new");
  auto files = PlogFiles(DebugDir());
  EXPECT_EQ(files.size(), 11u);  // 10 plog files + notes.txt
  EXPECT_TRUE(fs::exists(DebugDir() / "notes.txt"));
  EXPECT_FALSE(fs::exists(DebugDir() / "plog-1_20000101000000000.log"));
  EXPECT_FALSE(fs::exists(DebugDir() / "plog-1_20000101000000002.log"));
  EXPECT_TRUE(fs::exists(DebugDir() / "plog-1_20000101000000003.log"));
}

TEST_F(LogTest, ConcurrentWritersProduceWholeLines) {
  constexpr int kThreads = 8, kPerThread = 400;
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t)
    ts.emplace_back([t] {
      for (int i = 0; i < kPerThread; ++i) SIMNPU_LOGE(kRuntime, "thread %d line %d end", t, i);
    });
  for (auto& t : ts) t.join();
  auto lines = Lines(AllText(DebugDir()));
  ASSERT_EQ(lines.size(), static_cast<size_t>(kThreads * kPerThread));
  std::regex re("\\[ERROR\\] RUNTIME\\([0-9]+,[^)]*\\):[-0-9:.]+ \\[log_test\\.cc:[0-9]+\\]"
                "thread [0-9] line [0-9]+ end");
  for (const auto& l : lines) ASSERT_TRUE(std::regex_match(l, re)) << l;
}

TEST_F(LogTest, UnwritableRootDoesNotBreakTheProgram) {
  // A regular file where the root directory should be.
  std::ofstream(tmp_ / "file") << "x";
  Set("ASCEND_PROCESS_LOG_PATH", (tmp_ / "file" / "sub").c_str());
  testing::internal::CaptureStderr();
  SIMNPU_LOGE(kApp, "lost");
  SIMNPU_LOGE(kApp, "lost again");
  std::string err = testing::internal::GetCapturedStderr();
  // One note, and no bare word a SOC-name parser could mistake for output.
  EXPECT_EQ(Lines(err).size(), 1u);
  EXPECT_NE(err.find("simnpu log"), std::string::npos);
}

}  // namespace
