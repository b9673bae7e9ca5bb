// Profiler: profiling sessions and their output directories, for the
// aclprof* API (acl/acl_prof.h), msprof and SIMNPU_PROFILE.
//
// A session records trace events (dfx/trace) and, when it ends, writes
// under its base path:
//   PROF_<6-digit index>_<YYYYMMDDhhmmssmmm>_<pid, 8 digits><8 letters A-R>/
//     host/, device_<id>/          (as msprof lays them out; empty here)
//     mindstudio_profiler_output/
//       msprof_<ts>.json           Chrome trace (Perfetto, chrome://tracing)
//       op_summary_<ts>.csv, op_statistic_<ts>.csv, task_time_<ts>.csv,
//       api_statistic_<ts>.csv, uvm_summary_<ts>.csv
//       README.txt
// Two owners may start one: the aclprof API (aclprofInit/Start/Stop/Finalize)
// or the command line (SIMNPU_PROFILE, which msprof sets: started by aclInit,
// ended by aclFinalize or process exit). While the command line owns
// profiling, aclprofInit returns ACL_ERROR_PROF_ALREADY_RUN.
//
// msproftx: stamps (CreateStamp...), thread ranges (Push/Pop), process ranges
// (RangeStart/Stop) and step markers are recorded here too.
//
// Locking: Profiler::mu_ guards all state; writing a session's files happens
// under it (sessions end rarely). It is taken before the trace recorder's lock.
#ifndef SIMNPU_DFX_PROF_PROFILER_H_
#define SIMNPU_DFX_PROF_PROFILER_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace simnpu::dfx::prof {

// ACL codes this module returns (acl-api-ext.md §1.3).
constexpr int kOk = 0;
constexpr int kInvalidParam = 100000;
constexpr int kRepeatInit = 100002;
constexpr int kInvalidFile = 100003;
constexpr int kProfAlreadyRun = 100042;
constexpr int kProfNotRun = 100043;
constexpr int kFeatureUnsupported = 200006;
constexpr int kModulesUnsupported = 200007;
constexpr int kProfilingFailure = 500005;

// acl_prof.h dataTypeConfig bits.
constexpr uint64_t kProfAclApi = 0x1, kProfTaskTime = 0x2, kProfMsproftx = 0x80, kProfRuntimeApi = 0x100,
                   kProfTaskTimeL0 = 0x800, kProfTaskMemory = 0x1000, kProfTaskTimeL2 = 0x2000,
                   kProfOpAttr = 0x4000, kProfTaskTimeL3 = 0x8000, kProfApiStats = 0x400000000ULL;
// Every documented bit (others are rejected with 200007).
constexpr uint64_t kProfKnownBits = 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | 0x40 | 0x80 | 0x100 | 0x200 | 0x800 |
                                    0x1000 | 0x2000 | 0x4000 | 0x8000 | 0x01000000ULL | 0x400000000ULL |
                                    0x800000000ULL;
// Trace categories for a dataTypeConfig mask (0 if it records nothing we model).
uint32_t CategoriesForMask(uint64_t mask);
// Trace categories from a comma list ("api,task,uvm,tx" / "all"); unknown words are ignored.
uint32_t CategoriesFromList(const std::string& list);

struct SessionFiles {
  std::string dir;   // the PROF_* directory
  std::string json;  // the Chrome trace
  std::string csv_dir;
};

class Profiler {
 public:
  static Profiler& Get();

  // ---- aclprof API state machine (arguments already checked by the shim)
  int Init(const std::string& path);   // kOk / kRepeatInit / kProfAlreadyRun / kInvalidFile / kProfilingFailure
  int Start(const void* config, uint64_t mask);  // kOk / kProfAlreadyRun / kProfilingFailure
  int Stop(const void* config);        // kOk / kProfNotRun
  int Finalize();                      // always kOk
  bool api_initialized();
  // aclprofSetConfig values, kept for the session (written to its info file).
  void SetConfigValue(int type, const std::string& value);

  // ---- command-line sessions (SIMNPU_PROFILE)
  // Starts one if SIMNPU_PROFILE is set and none runs (aclInit).
  void StartFromEnvironment();
  // Ends it and writes its files (aclFinalize, process exit).
  void FinishEnvironmentSession();
  bool command_line_active();

  // The files of the last finished session (tests, msprof's summary line).
  SessionFiles last_session();
  // Last error text of a failed session write (empty if none).
  std::string last_error();

 private:
  Profiler();
  static void AtForkChild();
  int BeginLocked(const std::string& base, uint32_t cats);  // REQUIRES(mu_)
  void EndLocked();                                         // REQUIRES(mu_)

  std::mutex mu_;
  bool api_init_ = false;             // GUARDED_BY(mu_)
  std::string api_path_;              // GUARDED_BY(mu_)
  const void* api_config_ = nullptr;  // the config of the running API session. GUARDED_BY(mu_)
  bool cmdline_ = false;              // a SIMNPU_PROFILE session runs. GUARDED_BY(mu_)
  bool running_ = false;              // GUARDED_BY(mu_)
  std::string session_dir_;           // GUARDED_BY(mu_)
  uint64_t session_mask_ = 0;         // GUARDED_BY(mu_)
  unsigned index_ = 0;                // sessions started by this process. GUARDED_BY(mu_)
  std::map<int, std::string> config_values_;  // GUARDED_BY(mu_)
  SessionFiles last_;                 // GUARDED_BY(mu_)
  std::string last_error_;            // GUARDED_BY(mu_)
};

// Creates `path` and its missing parents (mode 0750); false on failure.
bool MakeDirs(const std::string& path);

}  // namespace simnpu::dfx::prof

#endif  // SIMNPU_DFX_PROF_PROFILER_H_
