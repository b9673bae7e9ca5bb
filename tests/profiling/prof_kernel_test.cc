// Kernels in the trace (name, block count, time per block) and dump: data
// dump read back equal to the buffers (in C++ and with the Python reader),
// argument dump, dump callbacks, exception dump, and the dump API's codes.
#include <cstring>
#include <fstream>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_prof.h"
#include "profiling/prof_test_util.h"

using namespace proftest;

namespace {

constexpr uint32_t kN = 4096;  // floats per buffer
constexpr uint32_t kBlocks = 4;

struct Kernels {
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle add = nullptr, trap = nullptr;
  Kernels() {
    EXPECT_EQ(aclrtBinaryLoadFromFile(SIMNPU_PROF_KERNELS_PATH, nullptr, &bin), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryGetFunction(bin, "prof_add", &add), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryGetFunction(bin, "prof_trap", &trap), ACL_SUCCESS);
  }
  ~Kernels() { aclrtBinaryUnLoad(bin); }
};

aclError LaunchAdd(const Kernels& k, void* x, void* y, void* z, uint32_t n, aclrtStream s) {
  aclrtArgsHandle a = nullptr;
  aclrtParamHandle p = nullptr;
  if (aclError e = aclrtKernelArgsInit(k.add, &a)) return e;
  aclrtKernelArgsAppend(a, &x, sizeof x, &p);
  aclrtKernelArgsAppend(a, &y, sizeof y, &p);
  aclrtKernelArgsAppend(a, &z, sizeof z, &p);
  aclrtKernelArgsAppend(a, &n, sizeof n, &p);
  aclrtKernelArgsFinalize(a);
  return aclrtLaunchKernelWithConfig(k.add, kBlocks, s, nullptr, a, nullptr);
}

aclError LaunchTrap(const Kernels& k, void* x, aclrtStream s) {
  aclrtArgsHandle a = nullptr;
  aclrtParamHandle p = nullptr;
  if (aclError e = aclrtKernelArgsInit(k.trap, &a)) return e;
  aclrtKernelArgsAppend(a, &x, sizeof x, &p);
  aclrtKernelArgsFinalize(a);
  return aclrtLaunchKernelWithConfig(k.trap, 2, s, nullptr, a, nullptr);
}

std::string WriteConfig(const std::string& dir, const std::string& dump_object) {
  const std::string path = dir + "/acl.json";
  std::ofstream(path) << "{\"dump\": " << dump_object << "}";
  return path;
}

// Files below dir (recursively) whose name contains `part`.
void FindFiles(const std::string& dir, const std::string& part, std::vector<std::string>* out) {
  for (auto& n : ListDir(dir)) {
    const std::string p = dir + "/" + n;
    struct stat st;
    if (stat(p.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) FindFiles(p, part, out);
    else if (n.find(part) != std::string::npos) out->push_back(p);
  }
}

// A parsed simnpu dump file (format in docs/profiling.md).
struct DumpFile {
  nlohmann::json meta;
  std::string args;
  struct T {
    uint32_t kind, arg;
    uint64_t addr;
    std::string data;
  };
  std::vector<T> tensors;
};

DumpFile ParseDump(const std::string& bytes) {
  DumpFile d;
  EXPECT_EQ(bytes.substr(0, 8), "SNPUDMP1");
  uint32_t h[6];
  std::memcpy(h, bytes.data() + 8, sizeof h);
  EXPECT_EQ(h[0], 1u);
  size_t off = h[1];
  d.meta = nlohmann::json::parse(bytes.substr(off, h[2]));
  off = (off + h[2] + 7) & ~size_t{7};
  d.args = bytes.substr(off, h[3]);
  off = (off + h[3] + 7) & ~size_t{7};
  for (uint32_t i = 0; i < h[4]; ++i) {
    DumpFile::T t;
    uint64_t size;
    std::memcpy(&t.kind, bytes.data() + off, 4);
    std::memcpy(&t.arg, bytes.data() + off + 4, 4);
    std::memcpy(&t.addr, bytes.data() + off + 8, 8);
    std::memcpy(&size, bytes.data() + off + 16, 8);
    off += 32;
    t.data = bytes.substr(off, size);
    off = (off + size + 7) & ~size_t{7};
    d.tensors.push_back(t);
  }
  return d;
}

class ProfKernel : public ::testing::Test {
 protected:
  void Open(const char* config = nullptr) {
    ASSERT_EQ(aclInit(config), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&s_), ACL_SUCCESS);
    k_ = std::make_unique<Kernels>();
    for (void** p : {&x_, &y_, &z_}) ASSERT_EQ(aclrtMalloc(p, kN * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    hx_.resize(kN);
    hy_.resize(kN);
    for (uint32_t i = 0; i < kN; ++i) {
      hx_[i] = static_cast<float>(i);
      hy_[i] = 0.5f * static_cast<float>(i);
    }
    ASSERT_EQ(aclrtMemcpy(x_, kN * 4, hx_.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(y_, kN * 4, hy_.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(z_, kN * 4, 0, kN * 4), ACL_SUCCESS);
  }
  void TearDown() override {
    if (!s_) return;
    for (void* p : {x_, y_, z_}) aclrtFree(p);
    k_.reset();
    aclrtDestroyStream(s_);
    aclrtResetDevice(0);
    aclFinalize();
  }
  std::string Bytes(const std::vector<float>& v) { return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4); }
  std::vector<float> Z() {
    std::vector<float> z(kN);
    EXPECT_EQ(aclrtMemcpy(z.data(), kN * 4, z_, kN * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return z;
  }

  aclrtStream s_ = nullptr;
  std::unique_ptr<Kernels> k_;
  void *x_ = nullptr, *y_ = nullptr, *z_ = nullptr;
  std::vector<float> hx_, hy_;
};

}  // namespace

TEST_F(ProfKernel, KernelEventHasNameBlocksAndTimePerBlock) {
  Open();
  const std::string dir = ScratchDir("prof_kernel");
  ASSERT_EQ(aclprofInit(dir.c_str(), dir.size()), ACL_SUCCESS);
  uint32_t dev = 0;
  aclprofConfig* cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME);
  ASSERT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  ASSERT_EQ(LaunchAdd(*k_, x_, y_, z_, kN, s_), ACL_SUCCESS);
  ASSERT_EQ(LaunchAdd(*k_, x_, y_, z_, kN, s_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s_), ACL_SUCCESS);
  ASSERT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
  aclprofDestroyConfig(cfg);
  const std::string session = Sessions(dir).at(0);
  nlohmann::json t = LoadTrace(session);
  auto k = Named(t, "prof_add");
  ASSERT_EQ(k.size(), 2u);
  for (auto& e : k) {
    EXPECT_EQ(e["cat"], "kernel");
    EXPECT_EQ(e["pid"], 100);
    EXPECT_EQ(e["args"]["block dim"], kBlocks);
    EXPECT_GT(e["args"]["time per block (us)"].get<double>(), 0.0);
    EXPECT_LE(e["args"]["time per block (us)"].get<double>() * kBlocks, e["dur"].get<double>() * 2 + 1);
  }
  EXPECT_TRUE(Named(t, "aclrtLaunchKernelWithConfig").empty());  // ACL_API was not asked for
  auto ops = LoadCsv(session, "op_summary_");
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[1][2], "prof_add");
  EXPECT_EQ(ops[1][6], std::to_string(kBlocks));
  auto stat = LoadCsv(session, "op_statistic_");
  ASSERT_EQ(stat.size(), 2u);
  EXPECT_EQ(stat[1][0], "prof_add");
  EXPECT_EQ(stat[1][1], "2");
  const std::vector<float> z = Z();
  EXPECT_EQ(z[kN - 1], hx_[kN - 1] + hy_[kN - 1]);
}

TEST_F(ProfKernel, DataDumpReadsBackEqualToTheBuffers) {
  const std::string dir = ScratchDir("prof_dump");
  const std::string cfg = WriteConfig(dir, "{\"dump_path\": \"" + dir + "/out\", \"dump_list\": [], "
                                           "\"dump_op_switch\": \"on\", \"dump_data\": \"tensor\"}");
  Open(cfg.c_str());
  char* p = const_cast<char*>(acldumpGetPath(DATA_DUMP));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(std::string(p), dir + "/out");
  EXPECT_EQ(acldumpGetPath(AIC_ERR_BRIEF_DUMP), nullptr);
  ASSERT_EQ(LaunchAdd(*k_, x_, y_, z_, kN, s_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s_), ACL_SUCCESS);
  const std::vector<float> z = Z();
  std::vector<std::string> files;
  FindFiles(dir + "/out", "prof_add", &files);
  ASSERT_EQ(files.size(), 1u);
  DumpFile d = ParseDump(Slurp(files[0]));
  EXPECT_EQ(d.meta["kernel"], "prof_add");
  EXPECT_EQ(d.meta["block_dim"], kBlocks);
  EXPECT_EQ(d.args.size(), 32u);  // three pointers and a uint32, 8-byte slots
  uint64_t a0;
  std::memcpy(&a0, d.args.data(), 8);
  EXPECT_EQ(a0, reinterpret_cast<uintptr_t>(x_));
  ASSERT_EQ(d.tensors.size(), 6u);  // x, y, z before; x, y, z after
  const void* ptrs[3] = {x_, y_, z_};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(d.tensors[i].kind, i < 3 ? 0u : 1u);
    EXPECT_EQ(d.tensors[i].arg, i % 3);
    EXPECT_EQ(d.tensors[i].addr, reinterpret_cast<uintptr_t>(ptrs[i % 3]));
    ASSERT_GE(d.tensors[i].data.size(), kN * 4u);
  }
  EXPECT_EQ(d.tensors[0].data.substr(0, kN * 4), Bytes(hx_));
  EXPECT_EQ(d.tensors[1].data.substr(0, kN * 4), Bytes(hy_));
  EXPECT_EQ(d.tensors[2].data.substr(0, kN * 4), std::string(kN * 4, '\0'));  // z before the kernel
  EXPECT_EQ(d.tensors[5].data.substr(0, kN * 4), Bytes(z));                   // z after
  // The Python reader gives the same arrays.
  std::ofstream(dir + "/z.bin", std::ios::binary) << Bytes(z);
  std::ofstream(dir + "/x.bin", std::ios::binary) << Bytes(hx_);
  const std::string cmd = std::string("/usr/bin/python3 ") + SIMNPU_DUMP_READER_CHECK + " " + SIMNPU_DUMP_READER +
                          " " + files[0] + " " + dir + "/x.bin " + dir + "/z.bin";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST_F(ProfKernel, ModelDumpListSelectsKernelsByName) {
  const std::string dir = ScratchDir("prof_layer");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  const std::string cfg = WriteConfig(dir, "{\"dump_path\": \"" + dir + "/out\", \"dump_mode\": \"output\", "
                                           "\"dump_list\": [{\"model_name\": \"m\", \"layer\": [\"other\"]}]}");
  ASSERT_EQ(aclmdlSetDump(cfg.c_str()), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  // aclFinalize cleared the dump state; a fresh process state for the rest.
  Open();
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetDump(cfg.c_str()), ACL_SUCCESS);
  ASSERT_EQ(LaunchAdd(*k_, x_, y_, z_, kN, s_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s_), ACL_SUCCESS);
  std::vector<std::string> files;
  FindFiles(dir + "/out", "prof_add", &files);
  EXPECT_TRUE(files.empty());  // not in the layer list
  const std::string cfg2 = WriteConfig(dir, "{\"dump_path\": \"" + dir + "/out\", \"dump_mode\": \"output\", "
                                            "\"dump_list\": [{\"layer\": [\"prof_add\"]}]}");
  ASSERT_EQ(aclmdlSetDump(cfg2.c_str()), ACL_SUCCESS);
  ASSERT_EQ(LaunchAdd(*k_, x_, y_, z_, kN, s_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s_), ACL_SUCCESS);
  FindFiles(dir + "/out", "prof_add", &files);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(files[0].find("/model/"), std::string::npos);
  DumpFile d = ParseDump(Slurp(files[0]));
  ASSERT_EQ(d.tensors.size(), 3u);  // outputs only
  for (auto& t : d.tensors) EXPECT_EQ(t.kind, 1u);
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
}

TEST_F(ProfKernel, ArgsDumpWritesOneFilePerLaunchWhileActive) {
  Open();
  const std::string dir = ScratchDir("prof_args");
  EXPECT_EQ(aclopStartDumpArgs(0, dir.c_str()), ACL_ERROR_FAILURE);
  EXPECT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, nullptr), ACL_ERROR_FAILURE);
  EXPECT_EQ(aclopStopDumpArgs(0), ACL_ERROR_FAILURE);
  ASSERT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, dir.c_str()), ACL_SUCCESS);
  ASSERT_EQ(LaunchAdd(*k_, x_, y_, z_, kN, s_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s_), ACL_SUCCESS);
  ASSERT_EQ(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_SUCCESS);
  ASSERT_EQ(LaunchAdd(*k_, x_, y_, z_, kN, s_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s_), ACL_SUCCESS);
  std::vector<std::string> files;
  FindFiles(dir, ".args.json", &files);
  ASSERT_EQ(files.size(), 1u);
  nlohmann::json j = nlohmann::json::parse(Slurp(files[0]));
  EXPECT_EQ(j["kernel"], "prof_add");
  EXPECT_EQ(j["block_dim"], kBlocks);
  EXPECT_EQ(j["args_size"], 32);
  ASSERT_EQ(j["pointer_args"].size(), 3u);
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(z_)));
  EXPECT_EQ(j["pointer_args"][2], buf);
}

namespace {
std::vector<std::vector<uint8_t>> g_chunks;
int32_t Collect(const acldumpChunk* c, int32_t len) {
  if (len != static_cast<int32_t>(sizeof(acldumpChunk) + c->bufLen)) return -1;
  std::vector<uint8_t> v(reinterpret_cast<const uint8_t*>(c), reinterpret_cast<const uint8_t*>(c) + len);
  g_chunks.push_back(v);
  return 0;
}
}  // namespace

TEST_F(ProfKernel, CallbackReceivesTheDumpInsteadOfTheDisk) {
  static_assert(sizeof(acldumpChunk) == 4120, "acldumpChunk layout");
  static_assert(offsetof(acldumpChunk, dataBuf) == 4116, "acldumpChunk layout");
  static_assert(sizeof(acldumpTensorInfo) == 456, "acldumpTensorInfo layout");
  const std::string dir = ScratchDir("prof_cb");
  const std::string cfg = WriteConfig(dir, "{\"dump_path\": \"" + dir + "/out\", \"dump_list\": [], "
                                           "\"dump_op_switch\": \"on\"}");
  Open(cfg.c_str());
  EXPECT_EQ(acldumpRegCallback(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpRegCallback(Collect, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acldumpRegCallback(Collect, 0), ACL_SUCCESS);
  ASSERT_EQ(LaunchAdd(*k_, x_, y_, z_, kN, s_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s_), ACL_SUCCESS);
  acldumpUnregCallback();
  ASSERT_FALSE(g_chunks.empty());
  std::string content;
  for (size_t i = 0; i < g_chunks.size(); ++i) {
    auto* c = reinterpret_cast<const acldumpChunk*>(g_chunks[i].data());
    EXPECT_EQ(c->isLastChunk, i + 1 == g_chunks.size() ? 1u : 0u);
    EXPECT_EQ(c->offset, static_cast<int64_t>(content.size()));
    EXPECT_NE(std::string(c->fileName).find("prof_add"), std::string::npos);
    content.append(reinterpret_cast<const char*>(c->dataBuf), c->bufLen);
  }
  DumpFile d = ParseDump(content);
  ASSERT_EQ(d.tensors.size(), 6u);
  EXPECT_EQ(d.tensors[0].data.substr(0, kN * 4), Bytes(hx_));
  std::vector<std::string> files;
  FindFiles(dir, "prof_add", &files);
  EXPECT_TRUE(files.empty());  // nothing on disk
}

TEST_F(ProfKernel, ExceptionDumpSavesArgumentsBlockAndReason) {
  const std::string dir = ScratchDir("prof_exc");
  const std::string cfg = WriteConfig(dir, "{\"dump_path\": \"" + dir + "\", \"dump_scene\": \"aic_err_brief_dump\"}");
  Open(cfg.c_str());
  char path[4096];
  EXPECT_EQ(acldumpGetExceptionInfoPath(nullptr, 10), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpGetExceptionInfoPath(path, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpGetExceptionInfoPath(path, 8), ACL_ERROR_INVALID_PARAM);  // too small
  ASSERT_EQ(acldumpGetExceptionInfoPath(path, sizeof path), ACL_SUCCESS);
  EXPECT_EQ(std::string(path), dir + "/extra-info/data-dump/0/");
  ASSERT_NE(acldumpGetPath(AIC_ERR_BRIEF_DUMP), nullptr);
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
  ASSERT_EQ(LaunchTrap(*k_, x_, s_), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(s_), ACL_SUCCESS);
  std::vector<std::string> files;
  FindFiles(path, ".exception.", &files);
  ASSERT_EQ(files.size(), 1u);
  DumpFile d = ParseDump(Slurp(files[0]));
  EXPECT_EQ(d.meta["kernel"], "prof_trap");
  EXPECT_EQ(d.meta["exception"], true);
  EXPECT_EQ(d.meta["failed_block"], 1);
  EXPECT_NE(d.meta["reason"].get<std::string>().find("Block_1"), std::string::npos) << d.meta.dump();
  EXPECT_NE(d.meta["error_code"], 0);
  ASSERT_EQ(d.tensors.size(), 1u);
  EXPECT_EQ(d.tensors[0].kind, 2u);
  EXPECT_EQ(d.tensors[0].addr, reinterpret_cast<uintptr_t>(x_));
  // acldumpSaveExceptionInfo
  acldumpTensorInfo ti;
  std::memset(&ti, 0, sizeof ti);
  ti.type = ACL_DUMP_TENSOR_INPUT;
  ti.tensorSize = 16;
  ti.tensorAddr = static_cast<int64_t*>(y_);
  ti.addrType = ACL_DUMP_ADDR_RAW;
  ti.placement = ACL_DUMP_PLACEMENT_DEVICE;
  ti.dataType = ACL_FLOAT;
  EXPECT_EQ(acldumpSaveExceptionInfo(nullptr, "t", &ti, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("", "t", &ti, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("../x", "t", &ti, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("save", "t", nullptr, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("save", "t", &ti, 0), ACL_ERROR_INVALID_PARAM);
  ti.addrType = ACL_DUMP_ADDR_PTR;
  EXPECT_EQ(acldumpSaveExceptionInfo("save", "t", &ti, 1), ACL_ERROR_INVALID_PARAM);
  ti.addrType = ACL_DUMP_ADDR_RAW;
  ASSERT_EQ(acldumpSaveExceptionInfo("save", "my tag", &ti, 1), ACL_SUCCESS);
  files.clear();
  FindFiles(path, "save.custom.", &files);
  ASSERT_EQ(files.size(), 1u);
  DumpFile c = ParseDump(Slurp(files[0]));
  EXPECT_EQ(c.meta["reason"], "my tag");
  ASSERT_EQ(c.tensors.size(), 1u);
  EXPECT_EQ(c.tensors[0].data, Bytes(hy_).substr(0, 16));
}

TEST(ProfDump, ExceptionApisFailWhenNotEnabled) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  char path[256];
  EXPECT_EQ(acldumpGetExceptionInfoPath(path, sizeof path), ACL_ERROR_FAILURE);
  acldumpTensorInfo ti;
  std::memset(&ti, 0, sizeof ti);
  ti.addrType = ACL_DUMP_ADDR_RAW;
  EXPECT_EQ(acldumpSaveExceptionInfo("f", "t", &ti, 1), ACL_ERROR_FAILURE);
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
  EXPECT_EQ(acldumpGetPath(static_cast<acldumpType>(99)), nullptr);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(ProfDump, ModelDumpCallOrderAndConfigCodes) {
  EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclmdlSetDump("x"), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_UNINITIALIZE);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  const std::string dir = ScratchDir("prof_mdl");
  EXPECT_EQ(aclmdlSetDump(WriteConfig(dir, "{\"dump_path\": \"./\", \"dump_list\": [{}]}").c_str()),
            ACL_ERROR_DUMP_NOT_RUN);
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclmdlSetDump(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDump((dir + "/missing.json").c_str()), ACL_ERROR_INVALID_FILE);
  std::ofstream(dir + "/bad.json") << "{not json";
  EXPECT_EQ(aclmdlSetDump((dir + "/bad.json").c_str()), ACL_ERROR_PARSE_FILE);
  for (const char* bad : {"{\"dump_list\": [{}]}",                                      // no dump_path
                          "{\"dump_path\": \"./\", \"dump_mode\": \"sideways\"}",       // bad mode
                          "{\"dump_path\": \"./\", \"dump_op_switch\": \"yes\"}",       // bad switch
                          "{\"dump_path\": \"./\", \"dump_scene\": \"aic_err_brief_dump\", \"dump_op_switch\": \"on\"}",
                          "{\"dump_debug\": \"on\"}",                                   // overflow needs a path
                          "{\"dump_path\": \"./\", \"dump_scene\": \"watcher\", \"dump_mode\": \"all\"}",
                          "{\"dump_path\": \"./\", \"dump_stats\": [\"Mean\"]}",
                          "{\"dump_path\": \"./\", \"dump_step\": \"1|a\"}",
                          "{\"dump_path\": \"./\", \"dump_list\": {}}"}) {
    EXPECT_EQ(aclmdlSetDump(WriteConfig(dir, bad).c_str()), ACL_ERROR_INVALID_DUMP_CONFIG) << bad;
  }
  ASSERT_EQ(aclmdlSetDump(WriteConfig(dir, "{\"dump_path\": \"" + dir + "\", \"dump_list\": [{}]}").c_str()),
            ACL_SUCCESS);
  ASSERT_NE(acldumpGetPath(DATA_DUMP), nullptr);
  EXPECT_EQ(std::string(acldumpGetPath(DATA_DUMP)), dir);
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);  // again after Finalize
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(ProfDump, InitRefusesAnInvalidDumpConfiguration) {
  const std::string dir = ScratchDir("prof_initdump");
  const std::string cfg = WriteConfig(dir, "{\"dump_list\": [], \"dump_op_switch\": \"on\"}");
  EXPECT_EQ(aclInit(cfg.c_str()), ACL_ERROR_INVALID_DUMP_CONFIG);
  const std::string ok = WriteConfig(dir, "{\"dump_path\": \"./\", \"dump_list\": [], \"dump_op_switch\": \"on\"}");
  ASSERT_EQ(aclInit(ok.c_str()), ACL_SUCCESS);
  EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN);  // the aclInit file already enabled op dump
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}
