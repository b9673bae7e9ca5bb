// Helpers for the profiling tests: find a session's files, load its trace
// JSON and CSVs.
#ifndef SIMNPU_TESTS_PROFILING_PROF_TEST_UTIL_H_
#define SIMNPU_TESTS_PROFILING_PROF_TEST_UTIL_H_

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace proftest {

inline std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") out.push_back(n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A fresh scratch directory under the test's working directory.
inline std::string ScratchDir(const std::string& name) {
  char tmpl[256];
  std::snprintf(tmpl, sizeof tmpl, "/tmp/simnpu_%s_XXXXXX", name.c_str());
  char* d = mkdtemp(tmpl);
  EXPECT_NE(d, nullptr);
  return d ? d : "/tmp";
}

// The PROF_* directories under base.
inline std::vector<std::string> Sessions(const std::string& base) {
  std::vector<std::string> out;
  for (auto& n : ListDir(base))
    if (n.rfind("PROF_", 0) == 0) out.push_back(base + "/" + n);
  return out;
}

// The file of `dir` whose name starts with prefix (first match).
inline std::string FileWithPrefix(const std::string& dir, const std::string& prefix) {
  for (auto& n : ListDir(dir))
    if (n.rfind(prefix, 0) == 0) return dir + "/" + n;
  return "";
}

inline nlohmann::json LoadTrace(const std::string& session) {
  const std::string f = FileWithPrefix(session + "/mindstudio_profiler_output", "msprof_");
  EXPECT_FALSE(f.empty()) << "no msprof_*.json in " << session;
  return nlohmann::json::parse(Slurp(f));
}

// Rows of a CSV (first row = header), split on commas (no quoted commas in our data).
inline std::vector<std::vector<std::string>> LoadCsv(const std::string& session, const std::string& prefix) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(Slurp(FileWithPrefix(session + "/mindstudio_profiler_output", prefix)));
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ls(line);
    std::string c;
    while (std::getline(ls, c, ',')) cells.push_back(c);
    rows.push_back(cells);
  }
  return rows;
}

// uvm_summary as a map.
inline std::map<std::string, uint64_t> UvmSummary(const std::string& session) {
  std::map<std::string, uint64_t> m;
  auto rows = LoadCsv(session, "uvm_summary_");
  for (size_t i = 1; i < rows.size(); ++i)
    if (rows[i].size() == 2) m[rows[i][0]] = std::stoull(rows[i][1]);
  return m;
}

// Events of the trace with the given name (ph other than "M").
inline std::vector<nlohmann::json> Named(const nlohmann::json& trace, const std::string& name) {
  std::vector<nlohmann::json> out;
  for (auto& e : trace["traceEvents"])
    if (e.value("name", "") == name && e.value("ph", "") != "M") out.push_back(e);
  return out;
}

}  // namespace proftest

#endif  // SIMNPU_TESTS_PROFILING_PROF_TEST_UTIL_H_
