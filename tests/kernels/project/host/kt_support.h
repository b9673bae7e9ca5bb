// Test support for the kernel end-to-end host programs (kt_loader,
// kt_lib_static, kt_lib_shared): named test cases run one per process
// (`<program> <case>`; `<program> --list`), checks that record failures,
// child processes with captured stdout/stderr, our own float <-> half
// conversion for the references, device buffers and error-message helpers.
#ifndef KT_SUPPORT_H
#define KT_SUPPORT_H

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace kt {

// ---- cases
using CaseFn = void (*)();
struct CaseReg {
    CaseReg(const char* name, CaseFn fn);
};
#define KT_CASE(name)                                        \
    static void kt_case_##name();                            \
    static const ::kt::CaseReg kt_reg_##name(#name, kt_case_##name); \
    static void kt_case_##name()

// Thrown by KT_REQUIRE* to end the running case.
struct Abort {};

void Fail(const char* file, int line, const std::string& msg);
int Failures();

template <typename T>
std::string Str(const T& v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}
inline std::string Str(const std::string& v) { return "\"" + v + "\""; }
inline std::string Str(const char* v) { return v ? Str(std::string(v)) : std::string("(null)"); }
inline std::string Str(const void* v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}
inline std::string Str(int8_t v) { return Str(static_cast<int>(v)); }
inline std::string Str(uint8_t v) { return Str(static_cast<unsigned>(v)); }

#define KT_CHECK(cond)                                                              \
    do {                                                                            \
        if (!(cond)) ::kt::Fail(__FILE__, __LINE__, "check failed: " #cond);        \
    } while (0)
#define KT_REQUIRE(cond)                                                            \
    do {                                                                            \
        if (!(cond)) {                                                              \
            ::kt::Fail(__FILE__, __LINE__, "requirement failed: " #cond);           \
            throw ::kt::Abort();                                                    \
        }                                                                           \
    } while (0)
#define KT_EQ(expected, actual)                                                                            \
    do {                                                                                                   \
        const auto kt_e_ = (expected);                                                                     \
        const auto kt_a_ = (actual);                                                                       \
        if (!(kt_e_ == kt_a_))                                                                             \
            ::kt::Fail(__FILE__, __LINE__,                                                                 \
                       std::string(#actual " is ") + ::kt::Str(kt_a_) + ", expected " + ::kt::Str(kt_e_)); \
    } while (0)
// An ACL call must return exactly `code`.
#define KT_CODE(code, expr) KT_EQ(static_cast<int>(code), static_cast<int>(expr))
// An ACL call must succeed; the case ends otherwise.
#define KT_ACL(expr)                                                                                        \
    do {                                                                                                    \
        const int kt_rc_ = static_cast<int>(expr);                                                          \
        if (kt_rc_ != 0) {                                                                                  \
            ::kt::Fail(__FILE__, __LINE__, std::string(#expr " returned ") + ::kt::Str(kt_rc_) + ": " +     \
                                               ::kt::RecentErr());                                          \
            throw ::kt::Abort();                                                                            \
        }                                                                                                   \
    } while (0)

// aclGetRecentErrMsg as a string ("" when there is none); consumes the messages.
std::string RecentErr();
// The recent error message must exist and contain every word of `words`.
void ExpectErrMsg(const char* file, int line, const std::vector<std::string>& words);
#define KT_ERRMSG(...) ::kt::ExpectErrMsg(__FILE__, __LINE__, {__VA_ARGS__})

// ---- child processes: this program, run with another case name
struct ChildResult {
    int exitCode = -1;   // exit status, or -signal when killed by a signal
    std::string out;     // stdout
    std::string err;     // stderr
};
ChildResult RunChild(const std::string& caseName, const std::vector<std::string>& env = {});
size_t CountOf(const std::string& hay, const std::string& needle);

// ---- half precision, our own conversion (IEEE binary16, round to nearest even)
uint16_t FloatToHalfBits(float f);
float HalfBitsToFloat(uint16_t h);

// ---- runtime setup: aclInit, device 0, one stream; torn down in reverse
class Runtime {
public:
    explicit Runtime(bool createStream = true);
    ~Runtime();
    aclrtStream stream() const { return stream_; }

private:
    aclrtStream stream_ = nullptr;
};

// Device memory with typed host copies.
class DevBuf {
public:
    explicit DevBuf(size_t bytes);
    ~DevBuf();
    DevBuf(const DevBuf&) = delete;
    DevBuf& operator=(const DevBuf&) = delete;
    void* get() const { return ptr_; }
    size_t size() const { return bytes_; }
    template <typename T>
    void Upload(const std::vector<T>& v) { UploadBytes(v.data(), v.size() * sizeof(T)); }
    template <typename T>
    std::vector<T> Download(size_t n) const
    {
        std::vector<T> v(n);
        DownloadBytes(v.data(), n * sizeof(T));
        return v;
    }
    void Fill(uint8_t byte);
    void UploadBytes(const void* src, size_t n);
    void DownloadBytes(void* dst, size_t n) const;

private:
    void* ptr_ = nullptr;
    size_t bytes_ = 0;
};

// A host function that keeps a stream busy until Release() (or a timeout).
class StreamGate {
public:
    void Close(aclrtStream stream);  // enqueue the blocking host function
    void Release();
    bool timedOut() const { return timedOut_.load() != 0; }  // the host function gave up after 30 s
    ~StreamGate() { Release(); }

private:
    static void Wait(void* self);
    std::atomic<int> closed_{0};
    std::atomic<int> timedOut_{0};
};

// Random finite inputs (fixed seeds) and a z = x + y job checked bit for bit
// against a reference computed here (half: in float, rounded once).
std::vector<uint16_t> RandomHalves(size_t n, uint32_t seed);
std::vector<float> RandomFloats(size_t n, uint32_t seed);

class VaddJob {
public:
    VaddJob(bool isHalf, uint32_t blocks, uint32_t tile, uint32_t tilesPerBlock, uint32_t seed);
    bool isHalf() const { return half_; }
    uint32_t blocks() const { return blocks_; }
    uint32_t tile() const { return tile_; }
    uint32_t total() const { return total_; }
    void* x() const { return x_->get(); }
    void* y() const { return y_->get(); }
    void* z() const { return z_->get(); }
    std::string Name() const;
    // downloads z and compares it with the reference; returns the mismatches
    size_t Verify(const char* file, int line, const std::string& how) const;

private:
    bool half_;
    uint32_t blocks_, tile_, total_;
    std::vector<uint32_t> expected_;  // bit patterns (half in the low 16 bits)
    std::unique_ptr<DevBuf> x_, y_, z_;
};
#define KT_VERIFY(job, how) (job).Verify(__FILE__, __LINE__, how)

// Printf text expected from kt_printf(tag, value) with `blocks` blocks.
std::string ExpectedPrintf(int blocks, int tag, float value);

}  // namespace kt

#endif  // KT_SUPPORT_H
