// Test support for the kernel end-to-end host programs (see kt_support.h).
#include "kt_support.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <thread>

namespace kt {
namespace {

std::map<std::string, CaseFn>& Cases()
{
    static std::map<std::string, CaseFn> cases;
    return cases;
}

int g_failures = 0;
std::string g_self;

std::string ReadFile(const std::string& path)
{
    std::string out;
    FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
        return out;
    }
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
        out.append(buf, n);
    }
    std::fclose(f);
    return out;
}

}  // namespace

CaseReg::CaseReg(const char* name, CaseFn fn) { Cases()[name] = fn; }

void Fail(const char* file, int line, const std::string& msg)
{
    ++g_failures;
    const char* base = std::strrchr(file, '/');
    std::printf("[FAIL] %s:%d: %s\n", base ? base + 1 : file, line, msg.c_str());
    std::fflush(stdout);
}

int Failures() { return g_failures; }

std::string RecentErr()
{
    const char* m = aclGetRecentErrMsg();
    return m ? std::string(m) : std::string();
}

void ExpectErrMsg(const char* file, int line, const std::vector<std::string>& words)
{
    const std::string msg = RecentErr();
    if (msg.empty()) {
        Fail(file, line, "aclGetRecentErrMsg() returned no message");
        return;
    }
    for (const std::string& w : words) {
        if (msg.find(w) == std::string::npos) {
            Fail(file, line, "the recent error message does not mention \"" + w + "\": " + msg);
        }
    }
}

ChildResult RunChild(const std::string& caseName, const std::vector<std::string>& env)
{
    ChildResult r;
    char outPath[] = "/tmp/kt_child_out.XXXXXX";
    char errPath[] = "/tmp/kt_child_err.XXXXXX";
    const int outFd = mkstemp(outPath);
    const int errFd = mkstemp(errPath);
    if (outFd < 0 || errFd < 0) {
        Fail(__FILE__, __LINE__, "mkstemp failed");
        return r;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(outFd, 1);
        dup2(errFd, 2);
        for (const std::string& kv : env) {
            const size_t eq = kv.find('=');
            setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
        }
        const char* argv[] = {g_self.c_str(), caseName.c_str(), nullptr};
        execv("/proc/self/exe", const_cast<char* const*>(argv));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    close(outFd);
    close(errFd);
    r.out = ReadFile(outPath);
    r.err = ReadFile(errPath);
    unlink(outPath);
    unlink(errPath);
    return r;
}

size_t CountOf(const std::string& hay, const std::string& needle)
{
    size_t n = 0;
    for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + needle.size())) {
        ++n;
    }
    return n;
}

// ---- half

uint16_t FloatToHalfBits(float f)
{
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xffu) {  // inf / nan (nan stays quiet)
        return static_cast<uint16_t>(sign | 0x7c00u | (man != 0 ? 0x200u | (man >> 13) : 0u));
    }
    const int e = static_cast<int>(exp) - 127 + 15;
    if (e >= 31) {
        return static_cast<uint16_t>(sign | 0x7c00u);
    }
    if (e <= 0) {  // half subnormal (or zero)
        if (exp == 0) {
            return sign;  // float subnormals are far below half's smallest subnormal
        }
        man |= 0x800000u;
        const int shift = 14 - e;
        if (shift > 31) {
            return sign;
        }
        uint32_t h = man >> shift;
        const uint32_t rem = man & ((1u << shift) - 1u);
        const uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (h & 1u) != 0)) {
            ++h;
        }
        return static_cast<uint16_t>(sign | h);
    }
    uint32_t h = (static_cast<uint32_t>(e) << 10) | (man >> 13);
    const uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u) != 0)) {
        ++h;  // may carry into the exponent, up to infinity
    }
    return static_cast<uint16_t>(sign | h);
}

float HalfBitsToFloat(uint16_t h)
{
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    const uint32_t man = h & 0x3ffu;
    if (exp == 0) {
        const float v = std::ldexp(static_cast<float>(man), -24);
        return sign ? -v : v;
    }
    uint32_t bits;
    if (exp == 31) {
        bits = sign | 0x7f800000u | (man << 13);
    } else {
        bits = sign | ((exp - 15u + 127u) << 23) | (man << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// ---- runtime

Runtime::Runtime(bool createStream)
{
    KT_ACL(aclInit(nullptr));
    KT_ACL(aclrtSetDevice(0));
    if (createStream) {
        KT_ACL(aclrtCreateStream(&stream_));
    }
}

Runtime::~Runtime()
{
    if (stream_ != nullptr) {
        KT_CODE(ACL_SUCCESS, aclrtDestroyStream(stream_));
    }
    KT_CODE(ACL_SUCCESS, aclrtResetDevice(0));
    KT_CODE(ACL_SUCCESS, aclFinalize());
}

DevBuf::DevBuf(size_t bytes) : bytes_(bytes)
{
    KT_ACL(aclrtMalloc(&ptr_, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
}

DevBuf::~DevBuf()
{
    if (ptr_ != nullptr) {
        aclrtFree(ptr_);
    }
}

void DevBuf::Fill(uint8_t byte) { KT_ACL(aclrtMemset(ptr_, bytes_, byte, bytes_)); }

void DevBuf::UploadBytes(const void* src, size_t n)
{
    KT_REQUIRE(n <= bytes_);
    KT_ACL(aclrtMemcpy(ptr_, bytes_, src, n, ACL_MEMCPY_HOST_TO_DEVICE));
}

void DevBuf::DownloadBytes(void* dst, size_t n) const
{
    KT_REQUIRE(n <= bytes_);
    KT_ACL(aclrtMemcpy(dst, n, ptr_, n, ACL_MEMCPY_DEVICE_TO_HOST));
}

void StreamGate::Close(aclrtStream stream)
{
    closed_.store(1);
    KT_ACL(aclrtLaunchHostFunc(stream, &StreamGate::Wait, this));
}

void StreamGate::Release() { closed_.store(0); }

void StreamGate::Wait(void* self)
{
    auto* g = static_cast<StreamGate*>(self);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (g->closed_.load() != 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            g->timedOut_.store(1);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

std::vector<uint16_t> RandomHalves(size_t n, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::vector<uint16_t> v(n);
    for (auto& h : v) {
        do {
            h = static_cast<uint16_t>(gen());
        } while ((h & 0x7c00u) == 0x7c00u);  // no inf / nan inputs
    }
    return v;
}

std::vector<float> RandomFloats(size_t n, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::vector<float> v(n);
    for (auto& f : v) {
        uint32_t bits;
        do {
            bits = static_cast<uint32_t>(gen());
        } while ((bits & 0x7f800000u) == 0x7f800000u);
        std::memcpy(&f, &bits, 4);
    }
    return v;
}

VaddJob::VaddJob(bool isHalf, uint32_t blocks, uint32_t tile, uint32_t tilesPerBlock, uint32_t seed)
    : half_(isHalf), blocks_(blocks), tile_(tile), total_(blocks * tile * tilesPerBlock)
{
    const size_t elem = half_ ? 2 : 4;
    x_.reset(new DevBuf(total_ * elem));
    y_.reset(new DevBuf(total_ * elem));
    z_.reset(new DevBuf(total_ * elem));
    z_->Fill(0xEE);
    expected_.resize(total_);
    if (half_) {
        const std::vector<uint16_t> x = RandomHalves(total_, seed);
        const std::vector<uint16_t> y = RandomHalves(total_, seed * 7919u + 1u);
        for (uint32_t i = 0; i < total_; ++i) {
            expected_[i] = FloatToHalfBits(HalfBitsToFloat(x[i]) + HalfBitsToFloat(y[i]));
        }
        x_->Upload(x);
        y_->Upload(y);
    } else {
        const std::vector<float> x = RandomFloats(total_, seed);
        const std::vector<float> y = RandomFloats(total_, seed * 7919u + 1u);
        for (uint32_t i = 0; i < total_; ++i) {
            const float z = x[i] + y[i];
            std::memcpy(&expected_[i], &z, 4);
        }
        x_->Upload(x);
        y_->Upload(y);
    }
}

std::string VaddJob::Name() const
{
    return std::string(half_ ? "half" : "float") + " blocks=" + std::to_string(blocks_) +
           " tile=" + std::to_string(tile_) + " total=" + std::to_string(total_);
}

size_t VaddJob::Verify(const char* file, int line, const std::string& how) const
{
    size_t bad = 0;
    std::string first;
    if (half_) {
        const std::vector<uint16_t> z = z_->Download<uint16_t>(total_);
        for (uint32_t i = 0; i < total_; ++i) {
            if (z[i] != expected_[i] && bad++ == 0) {
                char b[160];
                std::snprintf(b, sizeof b, "z[%u] = 0x%04x, expected 0x%04x", i, z[i], expected_[i]);
                first = b;
            }
        }
    } else {
        const std::vector<uint32_t> z = z_->Download<uint32_t>(total_);
        for (uint32_t i = 0; i < total_; ++i) {
            if (z[i] != expected_[i] && bad++ == 0) {
                char b[160];
                std::snprintf(b, sizeof b, "z[%u] = 0x%08x, expected 0x%08x", i, z[i], expected_[i]);
                first = b;
            }
        }
    }
    if (bad != 0) {
        Fail(file, line, how + " vadd " + Name() + ": " + std::to_string(bad) + " wrong element(s), first " + first);
    }
    return bad;
}

std::string ExpectedPrintf(int blocks, int tag, float value)
{
    std::string s;
    char line[256];
    for (int b = 0; b < blocks; ++b) {
        std::snprintf(line, sizeof line, "kt_printf block %d of %d: tag=%d value=%f name=kernel\n", b, blocks, tag,
                      static_cast<double>(value));
        s += line;
        std::snprintf(line, sizeof line,
                      "kt_printf block %d: hex=%x char=%c u=3000000000 big=-1234567890123 half=1.50 pct=100%%\n", b,
                      255 + b, 'a' + b);
        s += line;
    }
    return s;
}

}  // namespace kt

int main(int argc, char** argv)
{
    kt::g_self = argv[0];
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <case> | --list\n", argv[0]);
        return 2;
    }
    const std::string name = argv[1];
    if (name == "--list") {
        for (const auto& c : kt::Cases()) {
            std::printf("%s\n", c.first.c_str());
        }
        return 0;
    }
    const auto it = kt::Cases().find(name);
    if (it == kt::Cases().end()) {
        std::fprintf(stderr, "%s: no case named %s (see --list)\n", argv[0], name.c_str());
        return 2;
    }
    try {
        it->second();
    } catch (const kt::Abort&) {
        std::printf("[FAIL] case %s ended early\n", name.c_str());
    }
    std::fflush(stdout);
    if (kt::Failures() != 0) {
        std::printf("[FAIL] %s: %d check(s) failed\n", name.c_str(), kt::Failures());
        return 1;
    }
    std::printf("[PASS] %s\n", name.c_str());
    return 0;
}
