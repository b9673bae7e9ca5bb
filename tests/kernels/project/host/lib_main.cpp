// kt_lib_static / kt_lib_shared: the launch paths of ascendc_library
// (STATIC / SHARED) kernel libraries. Kernels are launched
//   - by host wrappers compiled into the library (host/wrappers.cpp) that use
//     kernel<<<numBlocks, nullptr, stream>>>(...) and return its value, and
//   - by ACLRT_LAUNCH_KERNEL(kernel)(numBlocks, stream, args...) from the
//     generated aclrtlaunch_<kernel>.h headers.
// This program links only the kernel library, which carries the runtime.
//
// Codes asserted (acl-api.md §2.4, §4.7, §9; ascendc-kernel.md §2b): the
// value of a launch is the launch error code - 0 = enqueued, 100000
// ACL_ERROR_INVALID_PARAM for numBlocks 0 (aclrtLaunchKernelWithHostArgs'
// check), 507008 ACL_ERROR_RT_SOC_VERSION when the library's kernels were
// built for another NPU architecture than the device's (simnpu's choice);
// 507035 ACL_ERROR_RT_VECTOR_CORE_EXCEPTION at synchronize after a trap in an
// AIV kernel (S26 README). Stop mode discards the tasks after a failing
// kernel, also those launched after the failure happened (trap_stop_late).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "aclrtlaunch_kt_incr.h"
#include "aclrtlaunch_kt_printf.h"
#include "aclrtlaunch_kt_scalars.h"
#include "aclrtlaunch_kt_trap.h"
#include "aclrtlaunch_kt_vadd_float.h"
#include "aclrtlaunch_kt_vadd_half.h"
#include "aclrtlaunch_kt_wide.h"
#include "kt_support.h"
#include "kt_types.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // aclrtSetExceptionInfoCallback

// host/wrappers.cpp (in the kernel library)
uint32_t KtVaddHalfDo(uint32_t blocks, void* stream, void* x, void* y, void* z, uint32_t total, uint32_t tile);
uint32_t KtVaddFloatDo(uint32_t blocks, void* stream, float* x, float* y, float* z, uint32_t total, uint32_t tile);
int32_t KtScalarsDo(uint32_t blocks, void* stream, void* out, void* echo, void* in, double alpha, int beta,
                    uint64_t big, int small, const KtParams& p, uint32_t n);
uint32_t KtPrintfDo(uint32_t blocks, void* stream, int32_t tag, float value);
uint32_t KtTrapDo(uint32_t blocks, void* stream, void* out, int32_t trapBlock);
uint32_t KtIncrDo(uint32_t blocks, void* stream, uint32_t* x);
uint32_t KtIncrDefaultStreamDo(uint32_t blocks, uint32_t* x);

namespace {

using kt::DevBuf;
using kt::Runtime;
using kt::VaddJob;

std::string WithoutHostLines(const std::string& out)
{
    std::string s;
    size_t at = 0;
    while (at < out.size()) {
        size_t nl = out.find('\n', at);
        nl = nl == std::string::npos ? out.size() : nl + 1;
        const std::string line = out.substr(at, nl - at);
        if (line.rfind("host: ", 0) != 0 && line.rfind("[PASS] ", 0) != 0) {
            s += line;
        }
        at = nl;
    }
    return s;
}

}  // namespace

// ---- vector add through both launch paths, several shapes, one synchronize
KT_CASE(vadd)
{
    Runtime rt;
    struct Shape {
        bool half;
        bool chevron;  // <<<>>> wrapper, else ACLRT_LAUNCH_KERNEL
        uint32_t blocks, tile, tiles;
    };
    const Shape shapes[] = {
        {true, true, 1, 128, 3},    {true, false, 8, 2048, 2},  {true, true, 48, 8192, 1},
        {true, false, 100, 256, 3}, {false, true, 8, 128, 5},   {false, false, 1, 8192, 2},
        {false, true, 100, 4096, 1}, {false, false, 48, 1024, 2},
    };
    std::vector<std::unique_ptr<VaddJob>> jobs;
    uint32_t seed = 21;
    for (const Shape& s : shapes) {
        jobs.emplace_back(new VaddJob(s.half, s.blocks, s.tile, s.tiles, seed++));
        const VaddJob& j = *jobs.back();
        uint32_t rc;
        if (s.chevron) {
            rc = s.half ? KtVaddHalfDo(j.blocks(), rt.stream(), j.x(), j.y(), j.z(), j.total(), j.tile())
                        : KtVaddFloatDo(j.blocks(), rt.stream(), static_cast<float*>(j.x()), static_cast<float*>(j.y()),
                                        static_cast<float*>(j.z()), j.total(), j.tile());
        } else {
            rc = s.half ? ACLRT_LAUNCH_KERNEL(kt_vadd_half)(j.blocks(), rt.stream(), j.x(), j.y(), j.z(), j.total(),
                                                            j.tile())
                        : ACLRT_LAUNCH_KERNEL(kt_vadd_float)(j.blocks(), rt.stream(), j.x(), j.y(), j.z(), j.total(),
                                                             j.tile());
        }
        KT_EQ(0u, rc);
    }
    KT_ACL(aclrtSynchronizeStream(rt.stream()));
    for (size_t k = 0; k < jobs.size(); ++k) {
        KT_VERIFY(*jobs[k], shapes[k].chevron ? "<<<>>>" : "ACLRT_LAUNCH_KERNEL");
    }
}

// ---- scalars and a struct: by value through <<<>>> (with conversions from
// double/int arguments), by pointer through aclrtlaunch_kt_scalars
KT_CASE(scalars)
{
    Runtime rt;
    const uint32_t n = 12;
    std::vector<float> in(n);
    for (uint32_t i = 0; i < n; ++i) {
        in[i] = 1.0f + 0.5f * static_cast<float>(i);
    }
    DevBuf dIn(n * 4), dOut(n * 4), dOut2(n * 4), dEcho(sizeof(KtEcho)), dEcho2(sizeof(KtEcho));
    dIn.Upload(in);
    dEcho.Fill(0);
    dEcho2.Fill(0);
    KtParams p;
    std::memset(&p, 0, sizeof p);
    p.a = -0.5f;
    p.b = 6;
    p.c = 1024.0;
    p.d = 32767;
    p.e[0] = 9;
    p.e[1] = 8;
    p.e[2] = 7;
    p.f = ~0ull - 5;
    KT_EQ(0, KtScalarsDo(n, rt.stream(), dOut.get(), dEcho.get(), dIn.get(), 0.75, -20, 1ull << 40, -128, p, n));
    KtParams q = p;
    q.a = 2.0f;
    q.f = 77;
    KT_EQ(0u, ACLRT_LAUNCH_KERNEL(kt_scalars)(n, rt.stream(), dOut2.get(), dEcho2.get(), dIn.get(), 3.0f, 5, 99ull,
                                              static_cast<int8_t>(127), &q, n));
    KT_ACL(aclrtSynchronizeStream(rt.stream()));
    KtEcho e, e2;
    dEcho.DownloadBytes(&e, sizeof e);
    dEcho2.DownloadBytes(&e2, sizeof e2);
    KT_EQ(0.75f, e.alpha);
    KT_EQ(-20, e.beta);
    KT_EQ(1ull << 40, e.big);
    KT_EQ(static_cast<int8_t>(-128), e.small);
    KT_EQ(n, e.n);
    KT_EQ(int64_t{n}, e.blockNum);
    KT_EQ(0, std::memcmp(&p.a, &e.p.a, 8));
    KT_EQ(p.c, e.p.c);
    KT_EQ(p.d, e.p.d);
    KT_EQ(0, std::memcmp(p.e, e.p.e, 3));
    KT_EQ(p.f, e.p.f);
    KT_EQ(3.0f, e2.alpha);
    KT_EQ(5, e2.beta);
    KT_EQ(99ull, e2.big);
    KT_EQ(static_cast<int8_t>(127), e2.small);
    KT_EQ(q.a, e2.p.a);
    KT_EQ(q.f, e2.p.f);
    KT_EQ(q.d, e2.p.d);
    const std::vector<float> out = dOut.Download<float>(n);
    const std::vector<float> out2 = dOut2.Download<float>(n);
    for (uint32_t i = 0; i < n; ++i) {
        KT_EQ(0.75f * in[i] - 20.0f - 128.0f + p.a * static_cast<float>(p.b) + static_cast<float>(p.c), out[i]);
        KT_EQ(3.0f * in[i] + 5.0f + 127.0f + q.a * static_cast<float>(q.b) + static_cast<float>(q.c), out2[i]);
    }
}

// ---- a 16-byte-aligned vector parameter (by pointer in aclrtlaunch_kt_wide)
KT_CASE(aligned_param)
{
    Runtime rt;
    DevBuf out(4 * 4 * 4);
    const KtWide w = {2.0f, -0.25f, 8.0f, -1e-3f};
    KT_EQ(0u, ACLRT_LAUNCH_KERNEL(kt_wide)(4, rt.stream(), out.get(), const_cast<KtWide*>(&w), 0.5f));
    KT_ACL(aclrtSynchronizeStream(rt.stream()));
    const std::vector<float> o = out.Download<float>(16);
    for (int i = 0; i < 16; ++i) {
        KT_EQ(w[i % 4] * 0.5f, o[i]);
    }
}

// ---- a null stream is the default stream (<<<..., nullptr>>>, a null
// variable, and ACLRT_LAUNCH_KERNEL with nullptr)
KT_CASE(default_stream)
{
    Runtime rt(false);
    DevBuf x(16 * 4);
    x.Fill(0);
    auto* p = static_cast<uint32_t*>(x.get());
    KT_EQ(0u, KtIncrDo(16, nullptr, p));
    KT_EQ(0u, KtIncrDefaultStreamDo(8, p));
    KT_EQ(0u, ACLRT_LAUNCH_KERNEL(kt_incr)(4, nullptr, p));
    KT_ACL(aclrtSynchronizeDevice());
    const std::vector<uint32_t> v = x.Download<uint32_t>(16);
    for (uint32_t i = 0; i < 16; ++i) {
        KT_EQ(1u + (i < 8 ? 1u : 0u) + (i < 4 ? 1u : 0u), v[i]);
    }
}

// ---- the value of a launch is the launch error
KT_CASE(launch_value)
{
    Runtime rt;
    DevBuf x(64);
    x.Fill(0);
    auto* p = static_cast<uint32_t*>(x.get());
    KT_EQ(static_cast<uint32_t>(ACL_ERROR_INVALID_PARAM), KtIncrDo(0, rt.stream(), p));
    KT_ERRMSG("numBlocks");
    KT_EQ(static_cast<uint32_t>(ACL_ERROR_INVALID_PARAM), ACLRT_LAUNCH_KERNEL(kt_incr)(0, rt.stream(), p));
    KT_EQ(static_cast<uint32_t>(ACL_ERROR_INVALID_PARAM), KtVaddFloatDo(0, rt.stream(), nullptr, nullptr, nullptr, 0, 0));
    KT_ACL(aclrtSynchronizeStream(rt.stream()));
    KT_EQ(0u, x.Download<uint32_t>(1)[0]);
}

// ---- device printf through the library path
KT_CASE(child_printf)
{
    Runtime rt;
    KT_EQ(0u, KtPrintfDo(4, rt.stream(), 7, 2.5f));
    KT_ACL(aclrtSynchronizeStream(rt.stream()));
    std::printf("host: synchronized\n");
    std::fflush(stdout);
}

KT_CASE(child_printf_teardown)
{
    KT_ACL(aclInit(nullptr));
    KT_ACL(aclrtSetDevice(0));
    aclrtStream s = nullptr;
    KT_ACL(aclrtCreateStream(&s));
    KT_EQ(0u, ACLRT_LAUNCH_KERNEL(kt_printf)(3, s, -1, 0.5f));
    KT_ACL(aclrtDestroyStreamForce(s));
    KT_ACL(aclrtResetDeviceForce(0));
    KT_ACL(aclFinalize());
}

KT_CASE(child_printf_exit)
{
    KT_ACL(aclInit(nullptr));
    KT_ACL(aclrtSetDevice(0));
    aclrtStream s = nullptr;
    KT_ACL(aclrtCreateStream(&s));
    KT_EQ(0u, KtPrintfDo(2, s, 3, -1.25f));
}

KT_CASE(printf)
{
    const kt::ChildResult r = kt::RunChild("child_printf");
    KT_EQ(0, r.exitCode);
    const std::string expect = kt::ExpectedPrintf(4, 7, 2.5f);
    KT_EQ(expect, WithoutHostLines(r.out));
    KT_CHECK(r.out.find(expect) != std::string::npos && r.out.find(expect) < r.out.find("host: synchronized"));
}

KT_CASE(printf_nosync)
{
    const kt::ChildResult t = kt::RunChild("child_printf_teardown");
    KT_EQ(0, t.exitCode);
    KT_EQ(kt::ExpectedPrintf(3, -1, 0.5f), WithoutHostLines(t.out));
    const kt::ChildResult e = kt::RunChild("child_printf_exit");
    KT_EQ(0, e.exitCode);
    KT_EQ(kt::ExpectedPrintf(2, 3, -1.25f), WithoutHostLines(e.out));
}

// ---- trap through the library path, stop / continue modes (S26 pattern);
// `late` as in kt_loader: the next launch only after the trap has happened
namespace {
void TrapThenIncr(bool stop, bool late)
{
    Runtime rt;
    if (stop) {
        KT_ACL(aclrtSetStreamFailureMode(rt.stream(), ACL_STOP_ON_FAILURE));
    }
    DevBuf flags(64), counter(64);
    flags.Fill(0);
    counter.Fill(0);
    auto* c = static_cast<uint32_t*>(counter.get());
    KT_EQ(0u, KtIncrDo(1, rt.stream(), c));
    KT_ACL(aclrtSynchronizeStream(rt.stream()));
    kt::StreamGate gate;
    if (!late) {
        gate.Close(rt.stream());
    }
    KT_EQ(0u, KtTrapDo(1, rt.stream(), flags.get(), 0));
    if (late) {
        aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
        for (int i = 0; i < 20000 && st != ACL_STREAM_STATUS_COMPLETE; ++i) {
            KT_ACL(aclrtStreamQuery(rt.stream(), &st));
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
        KT_REQUIRE(st == ACL_STREAM_STATUS_COMPLETE);
    }
    KT_EQ(0u, KtIncrDo(1, rt.stream(), c));
    gate.Release();
    KT_CODE(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, aclrtSynchronizeStream(rt.stream()));
    KT_EQ(stop ? 1u : 2u, counter.Download<uint32_t>(1)[0]);
}

std::mutex g_mu;
int g_calls = 0;
uint32_t g_code = 0;
bool g_hasFunc = false;
std::vector<uint8_t> g_args;

void OnException(aclrtExceptionInfo* info)
{
    std::lock_guard<std::mutex> lock(g_mu);
    ++g_calls;
    g_code = aclrtGetErrorCodeFromExceptionInfo(info);
    aclrtFuncHandle f = nullptr;
    g_hasFunc = aclrtGetFuncHandleFromExceptionInfo(info, &f) == ACL_SUCCESS && f != nullptr;
    void* a = nullptr;
    uint32_t len = 0;
    if (aclrtGetArgsFromExceptionInfo(info, &a, &len) == ACL_SUCCESS && a != nullptr) {
        g_args.assign(static_cast<const uint8_t*>(a), static_cast<const uint8_t*>(a) + len);
    }
}
}  // namespace

KT_CASE(trap_stop) { TrapThenIncr(true, false); }
KT_CASE(trap_stop_late) { TrapThenIncr(true, true); }
KT_CASE(trap_continue) { TrapThenIncr(false, false); }

KT_CASE(exception_callback)
{
    Runtime rt;
    KT_ACL(aclrtSetExceptionInfoCallback(OnException));
    DevBuf flags(64);
    KT_EQ(0u, ACLRT_LAUNCH_KERNEL(kt_trap)(2, rt.stream(), flags.get(), 1));
    KT_CODE(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, aclrtSynchronizeStream(rt.stream()));
    std::lock_guard<std::mutex> lock(g_mu);
    KT_EQ(1, g_calls);
    KT_EQ(507035u, g_code);
    KT_CHECK(g_hasFunc);
    KT_REQUIRE(g_args.size() >= 12);
    void* p0 = nullptr;
    int32_t p1 = -1;
    std::memcpy(&p0, g_args.data(), 8);
    std::memcpy(&p1, g_args.data() + 8, 4);
    KT_EQ(flags.get(), p0);
    KT_EQ(1, p1);
    KT_ACL(aclrtSetExceptionInfoCallback(nullptr));
}

// ---- x[block] += 1 on managed memory, launched with <<<>>>
KT_CASE(managed_direct)
{
    Runtime rt;
    const uint32_t n = 48;
    uint32_t* u = nullptr;
    KT_ACL(aclrtMemAllocManaged(reinterpret_cast<void**>(&u), n * 4, ACL_RT_MEM_ATTACH_GLOBAL));
    for (uint32_t i = 0; i < n; ++i) {
        u[i] = 3 * i;
    }
    KT_EQ(0u, KtIncrDo(n, rt.stream(), u));
    KT_EQ(0u, ACLRT_LAUNCH_KERNEL(kt_incr)(n / 2, rt.stream(), u));
    KT_ACL(aclrtSynchronizeStream(rt.stream()));
    for (uint32_t i = 0; i < n; ++i) {
        KT_EQ(3 * i + 1 + (i < n / 2 ? 1u : 0u), u[i]);
    }
    KT_ACL(aclrtFree(u));
}

// ---- aclFinalize and a second aclInit in one process: <<<>>> launches work
// again (the library's cached handles of the first runtime session are stale)
KT_CASE(reinit)
{
    for (int round = 0; round < 2; ++round) {
        Runtime rt;
        DevBuf x(64);
        x.Fill(0);
        auto* p = static_cast<uint32_t*>(x.get());
        KT_EQ(0u, KtIncrDo(4, rt.stream(), p));
        KT_EQ(0u, ACLRT_LAUNCH_KERNEL(kt_incr)(2, rt.stream(), p));
        KT_ACL(aclrtSynchronizeStream(rt.stream()));
        const std::vector<uint32_t> v = x.Download<uint32_t>(4);
        KT_EQ(2u, v[0]);
        KT_EQ(1u, v[3]);
    }
}

// ---- <<<>>> and ACLRT_LAUNCH_KERNEL from several host threads at once, each
// on its own stream: the image's kernel table and the cached handles are
// shared by all launches (first launches race to resolve the same kernel)
KT_CASE(concurrent_launch)
{
    Runtime rt;
    constexpr int kThreads = 4;
    constexpr uint32_t kBlocks = 8;
    constexpr uint32_t kLaunches = 100;
    DevBuf x(kThreads * kBlocks * 4);
    x.Fill(0);
    auto* base = static_cast<uint32_t*>(x.get());
    std::vector<uint32_t> launchErr(kThreads, 0);
    std::vector<int> aclErr(kThreads, 0);
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            int rc = aclrtSetDevice(0);
            aclrtStream s = nullptr;
            if (rc == 0) rc = aclrtCreateStream(&s);
            ready.fetch_add(1);
            while (ready.load() < kThreads) {
                std::this_thread::yield();
            }
            uint32_t* p = base + t * kBlocks;
            for (uint32_t i = 0; rc == 0 && i < kLaunches; ++i) {
                const uint32_t lrc = (i % 2 == 0) ? KtIncrDo(kBlocks, s, p) : ACLRT_LAUNCH_KERNEL(kt_incr)(kBlocks, s, p);
                if (lrc != 0 && launchErr[t] == 0) launchErr[t] = lrc;
            }
            if (rc == 0) rc = aclrtSynchronizeStream(s);
            if (s != nullptr && aclrtDestroyStream(s) != 0 && rc == 0) rc = -1;
            if (aclrtResetDevice(0) != 0 && rc == 0) rc = -2;
            aclErr[t] = rc;
        });
    }
    for (auto& th : threads) {
        th.join();
    }
    for (int t = 0; t < kThreads; ++t) {
        KT_EQ(0, aclErr[t]);
        KT_EQ(0u, launchErr[t]);
    }
    const std::vector<uint32_t> v = x.Download<uint32_t>(kThreads * kBlocks);
    for (uint32_t i = 0; i < kThreads * kBlocks; ++i) {
        KT_EQ(kLaunches, v[i]);
    }
}

// ---- an in-process image built for Ascend910B1 on a device of another architecture
KT_CASE(child_soc_mismatch)
{
    Runtime rt;
    DevBuf x(64);
    const uint32_t rc = KtIncrDo(1, rt.stream(), static_cast<uint32_t*>(x.get()));
    std::printf("host: launch %u\n", rc);
}

KT_CASE(soc_mismatch)
{
    const kt::ChildResult r = kt::RunChild("child_soc_mismatch", {"SIMNPU_SOC=Ascend310P3"});
    KT_EQ(0, r.exitCode);
    KT_CHECK(r.out.find("host: launch 507008") != std::string::npos);  // ACL_ERROR_RT_SOC_VERSION
    if (r.out.find("host: launch 507008") == std::string::npos) {
        std::printf("child:\n%s%s\n", r.out.c_str(), r.err.c_str());
    }
}
