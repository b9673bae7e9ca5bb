// Every aclnn operator against numpy golden data (gen_golden.py, run at build
// time): one test per case of manifest.jsonl. A case names the operator, its
// tensors (type, view shape, strides, offset, storage file), scalars and
// parameters, the output storage the operator must leave and the tolerance.
// The test uploads the storages to device memory, runs the two phases on a
// stream, synchronizes and compares the whole output storage (so elements
// outside a non-contiguous view must be left alone).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sub.h"

using nlohmann::json;

namespace nlohmann {
// gtest prints a case by its name only
inline void PrintTo(const json& j, std::ostream* os) { *os << j.value("name", std::string("?")); }
}  // namespace nlohmann

namespace {

const std::string kDir = SIMNPU_ACLNN_GOLDEN_DIR;

aclDataType TypeOf(const std::string& n) {
  static const std::map<std::string, aclDataType> m = {
      {"FLOAT", ACL_FLOAT}, {"FLOAT16", ACL_FLOAT16}, {"BFLOAT16", ACL_BF16}, {"INT8", ACL_INT8},
      {"UINT8", ACL_UINT8}, {"INT16", ACL_INT16},     {"INT32", ACL_INT32},   {"INT64", ACL_INT64},
      {"BOOL", ACL_BOOL}};
  return m.at(n);
}
size_t SizeOf(aclDataType t) {
  switch (t) {
    case ACL_FLOAT: case ACL_INT32: return 4;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: return 2;
    case ACL_INT64: return 8;
    default: return 1;
  }
}

std::vector<unsigned char> ReadFile(const std::string& name) {
  std::ifstream f(kDir + "/" + name, std::ios::binary);
  return std::vector<unsigned char>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::vector<json> LoadCases() {
  std::vector<json> out;
  std::ifstream f(kDir + "/manifest.jsonl");
  std::string line;
  while (std::getline(f, line)) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

// A scalar of the manifest ({"dtype", "value"}), kept alive by the holder.
struct ScalarBox {
  double f = 0;
  int64_t i = 0;
  uint8_t b = 0;
  aclScalar* s = nullptr;
  ScalarBox(const json& j) {  // NOLINT
    const aclDataType t = TypeOf(j.at("dtype"));
    if (t == ACL_FLOAT) {
      float v = j.at("value").get<float>();
      s = aclCreateScalar(&v, ACL_FLOAT);
    } else if (t == ACL_BOOL) {
      b = j.at("value").get<int>() != 0;
      s = aclCreateScalar(&b, ACL_BOOL);
    } else {
      i = j.at("value").get<int64_t>();
      s = aclCreateScalar(&i, ACL_INT64);
    }
  }
  ~ScalarBox() { aclDestroyScalar(s); }
};

struct DeviceTensor {
  void* dev = nullptr;
  aclTensor* t = nullptr;
  aclDataType dtype = ACL_FLOAT;
  size_t bytes = 0;
  void Make(const json& spec, const std::string& fileKey) {
    dtype = TypeOf(spec.at("dtype"));
    std::vector<int64_t> shape = spec.at("shape").get<std::vector<int64_t>>();
    std::vector<int64_t> strides = spec.at("strides").get<std::vector<int64_t>>();
    const int64_t storage = spec.at("storage").get<int64_t>();
    std::vector<unsigned char> data = ReadFile(spec.at(fileKey).get<std::string>());
    bytes = static_cast<size_t>(storage) * SizeOf(dtype);
    ASSERT_EQ(data.size(), bytes) << fileKey;
    ASSERT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(dev, bytes, data.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    const int64_t sdims[1] = {storage};
    t = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), spec.at("offset").get<int64_t>(),
                        ACL_FORMAT_ND, sdims, 1, dev);
    ASSERT_NE(t, nullptr);
  }
  std::vector<unsigned char> Download() const {
    std::vector<unsigned char> h(bytes);
    EXPECT_EQ(aclrtMemcpy(h.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return h;
  }
  ~DeviceTensor() {
    if (t != nullptr) aclDestroyTensor(t);
    if (dev != nullptr) aclrtFree(dev);
  }
};

double Decode(const unsigned char* p, aclDataType t) {
  switch (t) {
    case ACL_FLOAT: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case ACL_FLOAT16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
      double v = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(m + 1024, e - 25);
      return (h & 0x8000) ? -v : v;
    }
    case ACL_BF16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      uint32_t b = static_cast<uint32_t>(h) << 16;
      float f;
      std::memcpy(&f, &b, 4);
      return f;
    }
    default: return 0;
  }
}

// Distance in units in the last place between two values of type t (sign-
// magnitude bit patterns mapped to a monotonic integer line).
int64_t UlpDistance(const unsigned char* a, const unsigned char* b, aclDataType t) {
  auto line = [t](const unsigned char* p) -> int64_t {
    if (t == ACL_FLOAT) {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v < 0 ? static_cast<int64_t>(INT32_MIN) - v : v;
    }
    int16_t v;
    std::memcpy(&v, p, 2);
    return v < 0 ? static_cast<int64_t>(INT16_MIN) - v : v;
  };
  const int64_t d = line(a) - line(b);
  return d < 0 ? -d : d;
}

void Compare(const std::vector<unsigned char>& got, const std::vector<unsigned char>& want, aclDataType t,
             const std::string& tol) {
  ASSERT_EQ(got.size(), want.size());
  const size_t es = SizeOf(t);
  const size_t n = got.size() / es;
  int reported = 0;
  for (size_t i = 0; i < n && reported < 8; ++i) {
    const unsigned char* g = got.data() + i * es;
    const unsigned char* w = want.data() + i * es;
    if (std::memcmp(g, w, es) == 0) continue;
    bool ok = false;
    const bool fl = t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16;
    if (fl && std::isnan(Decode(g, t)) && std::isnan(Decode(w, t))) ok = true;
    if (!ok && fl && tol.rfind("ulp:", 0) == 0) ok = UlpDistance(g, w, t) <= std::stoll(tol.substr(4));
    if (!ok && fl && tol.rfind("rel:", 0) == 0) {
      const size_t c = tol.find(':', 4);
      const double r = std::stod(tol.substr(4, c - 4));
      const double a = std::stod(tol.substr(c + 1));
      ok = std::fabs(Decode(g, t) - Decode(w, t)) <= a + r * std::fabs(Decode(w, t));
    }
    if (!ok) {
      ++reported;
      std::ostringstream os;
      os << "element " << i << ": got bytes";
      for (size_t k = 0; k < es; ++k) os << ' ' << std::hex << static_cast<int>(g[es - 1 - k]);
      os << ", want";
      for (size_t k = 0; k < es; ++k) os << ' ' << std::hex << static_cast<int>(w[es - 1 - k]);
      if (fl) os << std::dec << " (" << Decode(g, t) << " vs " << Decode(w, t) << ", tolerance " << tol << ")";
      ADD_FAILURE() << os.str();
    }
  }
}

class Env : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  void TearDown() override {
    aclrtResetDevice(0);
    aclFinalize();
  }
};
::testing::Environment* const kEnv = ::testing::AddGlobalTestEnvironment(new Env);

class Golden : public ::testing::TestWithParam<json> {};

TEST_P(Golden, MatchesNumpy) {
  const json& c = GetParam();
  const std::string op = c.at("op");
  const bool inplace = c.value("inplace", false);
  std::vector<DeviceTensor> in(c.at("inputs").size());
  for (size_t i = 0; i < in.size(); ++i) {
    in[i].Make(c["inputs"][i], "file");
    if (HasFatalFailure()) return;
  }
  DeviceTensor out;
  if (!inplace) {
    out.Make(c.at("out"), "file");
    if (HasFatalFailure()) return;
  }
  std::unique_ptr<ScalarBox> alpha, other;
  if (c.contains("alpha")) alpha = std::make_unique<ScalarBox>(c["alpha"]);
  if (c.contains("other_scalar")) other = std::make_unique<ScalarBox>(c["other_scalar"]);
  const json params = c.value("params", json::object());
  aclTensor* self = in[0].t;
  aclTensor* o = inplace ? nullptr : out.t;
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st = -1;
  aclnnStatus (*run)(void*, uint64_t, aclOpExecutor*, aclrtStream) = nullptr;
  aclIntArray* dims = nullptr;
#define BIN(Name, ...)               \
  if (op == #Name) {                 \
    st = aclnn##Name##GetWorkspaceSize(__VA_ARGS__, &ws, &ex); \
    run = aclnn##Name;               \
  }
  BIN(Add, self, in[1].t, alpha->s, o)
  BIN(Sub, self, in[1].t, alpha->s, o)
  BIN(Mul, self, in[1].t, o)
  BIN(Div, self, in[1].t, o)
  BIN(Adds, self, other->s, alpha->s, o)
  BIN(Subs, self, other->s, alpha->s, o)
  BIN(Muls, self, other->s, o)
  BIN(Divs, self, other->s, o)
  BIN(InplaceAdd, self, in[1].t, alpha->s)
  BIN(InplaceSub, self, in[1].t, alpha->s)
  BIN(InplaceMul, self, in[1].t)
  BIN(InplaceDiv, self, in[1].t)
  BIN(InplaceAdds, self, other->s, alpha->s)
  BIN(InplaceSubs, self, other->s, alpha->s)
  BIN(InplaceMuls, self, other->s)
  BIN(InplaceDivs, self, other->s)
  BIN(Abs, self, o)
  BIN(Neg, self, o)
  BIN(Exp, self, o)
  BIN(Relu, self, o)
  BIN(Sigmoid, self, o)
  if (op == "InplaceNeg" || op == "InplaceExp" || op == "InplaceRelu" || op == "InplaceSigmoid") {
    if (op == "InplaceNeg") { st = aclnnInplaceNegGetWorkspaceSize(self, &ws, &ex); run = aclnnInplaceNeg; }
    if (op == "InplaceExp") { st = aclnnInplaceExpGetWorkspaceSize(self, &ws, &ex); run = aclnnInplaceExp; }
    if (op == "InplaceRelu") { st = aclnnInplaceReluGetWorkspaceSize(self, &ws, &ex); run = aclnnInplaceRelu; }
    if (op == "InplaceSigmoid") {
      st = aclnnInplaceSigmoidGetWorkspaceSize(self, &ws, &ex);
      run = aclnnInplaceSigmoid;
    }
  }
  BIN(Cast, self, TypeOf(params.at("dtype")), o)
  BIN(Softmax, self, params.value("dim", int64_t{0}), o)
  BIN(Matmul, self, in[1].t, o, static_cast<int8_t>(params.value("cubeMathType", 0)))
  if (op == "ReduceSum") {
    std::vector<int64_t> d = params.at("dims").get<std::vector<int64_t>>();
    dims = aclCreateIntArray(d.data(), d.size());
    st = aclnnReduceSumGetWorkspaceSize(self, dims, params.at("keepDims").get<bool>(), TypeOf(params.at("dtype")), o,
                                        &ws, &ex);
    run = aclnnReduceSum;
  }
#undef BIN
  ASSERT_NE(run, nullptr) << "unknown op " << op;
  const char* msg = aclGetRecentErrMsg();
  ASSERT_EQ(st, ACLNN_SUCCESS) << (msg ? msg : "");
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void* wsp = nullptr;
  if (ws > 0) ASSERT_EQ(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  st = run(wsp, ws, ex, stream);
  msg = aclGetRecentErrMsg();
  EXPECT_EQ(st, ACLNN_SUCCESS) << (msg ? msg : "");
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  if (wsp != nullptr) aclrtFree(wsp);
  aclrtDestroyStream(stream);
  if (dims != nullptr) aclDestroyIntArray(dims);
  const json& spec = inplace ? c["inputs"][0] : c.at("out");
  const DeviceTensor& res = inplace ? in[0] : out;
  Compare(res.Download(), ReadFile(spec.at("expected").get<std::string>()), res.dtype, c.at("tol"));
}

INSTANTIATE_TEST_SUITE_P(Aclnn, Golden, ::testing::ValuesIn(LoadCases()),
                         [](const ::testing::TestParamInfo<json>& info) {
                           return info.param.at("name").get<std::string>();
                         });

}  // namespace
