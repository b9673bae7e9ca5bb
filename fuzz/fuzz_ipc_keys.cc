// Fuzzes the resolution of IPC keys and shareable handles: the machine-wide
// registry (sim/registry.cc) turning bytes another process handed over (an
// IPC memory or notify key, the first 8 bytes of an aclrtIpcEventHandle, a
// VMM shareable handle, plain or in a fabric handle) into an export, the pid
// whitelists, adding and removing exports, and a registry whose slots hold
// whatever bytes a crashed or buggy writer left (the file is shared by every
// process of the user).
//
// Properties checked besides "no crash, no sanitizer report": a lookup that
// succeeds returns a record of the kind asked for whose key (or handle) is
// exactly the one asked for; a whitelist never grows past kMaxWhitelist and
// a successful whitelist call makes every listed pid importable; a fresh key
// has the documented shape and names its slot until removed.
//
// The registry lives in a private directory (SIMNPU_SHM_DIR); every input
// starts from the same registry: the slots an input may touch are saved
// first and written back afterwards.
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "platform/shm_dir.h"
#include "sim/registry.h"

namespace {

using simnpu::sim::ExportKind;
using simnpu::sim::kKeyLen;
using simnpu::sim::kMaxExports;
using simnpu::sim::kMaxWhitelist;
using simnpu::sim::RegExport;
using simnpu::sim::Registry;

#define CHECK(c)                                                            \
  do {                                                                      \
    if (!(c)) {                                                             \
      std::fprintf(stderr, "fuzz_ipc_keys: %s:%d: %s\n", __FILE__, __LINE__, #c); \
      __builtin_trap();                                                     \
    }                                                                       \
  } while (0)

struct Known {
  std::string key;
  int slot;
  ExportKind kind;
  uint64_t handle;
};

std::vector<Known>* g_known;
std::string* g_dir;
constexpr int kScratch = 4;  // slots an input may overwrite with raw bytes
int g_scratch[kScratch];
constexpr int kMaxOps = 8;
constexpr int kSaved = 4 + kScratch + kMaxOps + 8;

struct Reader {
  const uint8_t* p;
  size_t n;
  uint8_t U8() { return n ? (--n, *p++) : 0; }
  uint64_t U64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | U8();
    return v;
  }
  size_t Take(void* dst, size_t want) {
    const size_t k = want < n ? want : n;
    std::memcpy(dst, p, k);
    p += k;
    n -= k;
    return k;
  }
};

ExportKind KindOf(uint8_t b) { return static_cast<ExportKind>(b % 6); }  // 0 and 5 are no kind

size_t KeyLen(const RegExport& e) { return strnlen(e.key, sizeof e.key); }

// A successful lookup names exactly what was asked for.
void CheckFoundKey(const RegExport& rec, const std::string& key, ExportKind kind) {
  CHECK(rec.kind == static_cast<uint32_t>(kind));
  CHECK(KeyLen(rec) == key.size() && std::memcmp(rec.key, key.data(), key.size()) == 0);
}

void FindKey(const std::string& key, ExportKind kind) {
  int slot = -7;
  auto rec = Registry::Get().FindExport(key, kind, &slot);
  if (!rec) return;
  CHECK(slot >= 0 && slot < kMaxExports);
  CheckFoundKey(*rec, key, kind);
}

void FindHandle(uint64_t h, ExportKind kind) {
  int slot = -7;
  auto rec = Registry::Get().FindByHandle(h, kind, &slot);
  if (!rec) return;
  CHECK(h != 0 && slot >= 0 && slot < kMaxExports);
  CHECK(rec->kind == static_cast<uint32_t>(kind) && rec->handle == h);
}

// The bytes of a caller's key buffer, read as the API layer reads a key: up
// to the first NUL, at most 65 bytes looked at.
std::string KeyFromBuffer(const char* buf, size_t len) { return std::string(buf, strnlen(buf, len < 65 ? len : 65)); }

void RemoveDir() {
  if (g_dir) rmdir(g_dir->c_str());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char tmpl[] = "/tmp/simnpu-fuzz-ipc-XXXXXX";
  if (!mkdtemp(tmpl)) __builtin_trap();
  g_dir = new std::string(tmpl);
  setenv("SIMNPU_SHM_DIR", tmpl, 1);
  // Registered before the registry's own exit handlers, so it runs after
  // they removed the files: the directory is empty by then.
  std::atexit(RemoveDir);
  Registry& r = Registry::Get();
  CHECK(r.ok());
  g_known = new std::vector<Known>();
  // One live export of every kind, as the API layer makes them.
  for (ExportKind k : {ExportKind::kMemory, ExportKind::kNotify, ExportKind::kEvent, ExportKind::kVmm}) {
    RegExport rec{};
    rec.kind = static_cast<uint32_t>(k);
    rec.flags = k == ExportKind::kMemory ? 0 : 1;
    rec.handle = k == ExportKind::kEvent || k == ExportKind::kVmm ? r.NextId() : 0;
    rec.size = 4096;
    std::string key;
    auto slot = r.AddExport(rec, &key);
    CHECK(slot.ok());
    g_known->push_back(Known{key, slot.value(), k, rec.handle});
  }
  const int32_t peer = static_cast<int32_t>(getpid()) + 1;
  CHECK(r.AddWhitelist((*g_known)[0].slot, &peer, 1).ok());
  // Scratch slots: owned by this process, overwritten by inputs.
  for (int i = 0; i < kScratch; ++i) {
    RegExport rec{};
    rec.kind = static_cast<uint32_t>(ExportKind::kMemory);
    std::string key;
    auto slot = r.AddExport(rec, &key);
    CHECK(slot.ok());
    g_scratch[i] = slot.value();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Registry& r = Registry::Get();
  // Save what this input may change (the slots in use are the lowest ones,
  // and an input adds at most kMaxOps); every input starts from the same state.
  static RegExport saved[kSaved];
  for (int i = 0; i < kSaved; ++i) saved[i] = *r.Slot(i);
  Reader in{data, size};
  std::vector<int> added;
  // A few operations per input: every lookup scans the whole table (2048
  // slots), so long op streams would cost executions, not coverage.
  int ops = 0;
  while (in.n > 0 && ops++ < kMaxOps) {
    switch (in.U8() % 9) {
      case 0: {  // a key from the bytes (embedded NULs and all)
        char buf[96];
        const size_t len = in.Take(buf, in.U8() % sizeof buf);
        const ExportKind kind = KindOf(in.U8());
        FindKey(std::string(buf, len), kind);
        FindKey(KeyFromBuffer(buf, len), kind);
        break;
      }
      case 1: {  // a near miss of a live key: edited, cut or extended
        const Known& k = (*g_known)[in.U8() % g_known->size()];
        std::string key = k.key;
        for (int edits = in.U8() % 4; edits > 0; --edits) {
          const uint8_t how = in.U8();
          const size_t pos = in.U8() % (key.size() + 1);
          if (how % 3 == 0 && pos < key.size()) key[pos] = static_cast<char>(in.U8());
          else if (how % 3 == 1) key.resize(pos);
          else key.insert(pos, 1, static_cast<char>(in.U8()));
        }
        const ExportKind kind = in.U8() & 1 ? k.kind : KindOf(in.U8());
        FindKey(key, kind);
        break;
      }
      case 2: {  // a handle value: wild, or next to a live one
        const uint8_t how = in.U8();
        uint64_t h = 0;
        if (how & 1) {
          h = in.U64();
        } else {
          h = (*g_known)[2 + (how >> 1) % 2].handle + static_cast<int8_t>(in.U8());
        }
        FindHandle(h, KindOf(in.U8()));
        break;
      }
      case 3: {  // the 64 bytes of an aclrtIpcEventHandle, a fabric handle
        aclrtIpcEventHandle eh;
        std::memset(&eh, 0, sizeof eh);
        in.Take(eh.reserved, sizeof eh.reserved);
        uint64_t h = 0;
        std::memcpy(&h, eh.reserved, sizeof h);
        FindHandle(h, ExportKind::kEvent);
        aclrtMemFabricHandle fh;
        std::memcpy(&fh, &eh, sizeof fh < sizeof eh ? sizeof fh : sizeof eh);
        std::memcpy(&h, &fh, sizeof h);
        FindHandle(h, ExportKind::kVmm);
        break;
      }
      case 4: {  // whitelists: any slot number, any pids
        const uint8_t which = in.U8();
        int slot = 0;
        if (which < 128) slot = (*g_known)[which % g_known->size()].slot;
        else if (which < 192) slot = g_scratch[which % kScratch];
        else slot = static_cast<int>(static_cast<int16_t>(in.U8() << 8 | in.U8()));
        std::vector<int32_t> pids(in.U8() % 80);
        for (int32_t& p : pids) p = static_cast<int32_t>(in.U64());
        RegExport* s = r.Slot(slot);
        const bool sane = s && s->nwl <= static_cast<uint32_t>(kMaxWhitelist);  // else a scratch slot's bytes
        const simnpu::Status st = r.AddWhitelist(slot, pids.data(), pids.size());
        CHECK(st.code() == 0 || st.code() == 107000 || st.code() == 207001);
        if (s) {
          if (sane) CHECK(s->nwl <= static_cast<uint32_t>(kMaxWhitelist));
          if (sane && st.ok())
            for (int32_t p : pids) CHECK(simnpu::sim::MayImport(*s, p, false));
          (void)simnpu::sim::MayImport(*s, static_cast<int32_t>(getpid()), s->flags & 1);
        }
        break;
      }
      case 5: {  // a scratch slot overwritten with raw bytes
        RegExport* s = r.Slot(g_scratch[in.U8() % kScratch]);
        const size_t off = in.U8() % sizeof(RegExport);
        in.Take(reinterpret_cast<char*>(s) + off, in.U8() % (sizeof(RegExport) - off + 1));
        break;
      }
      case 6: {  // a fresh export: its key has the documented shape and names its slot
        const ExportKind kind = static_cast<ExportKind>(1 + in.U8() % 4);
        RegExport rec{};
        rec.kind = static_cast<uint32_t>(kind);
        rec.flags = in.U8() & 1;
        rec.handle = in.U64();
        std::string key;
        auto slot = r.AddExport(rec, &key);
        if (!slot.ok()) {
          CHECK(slot.status().code() == 207001 || slot.status().code() == 207000);
          break;
        }
        CHECK(key.size() == 24 && key.size() < kKeyLen && key.compare(0, 3, "snp") == 0);
        CHECK(key[3] == "?mnev"[static_cast<int>(kind)]);
        CHECK(std::strtoul(key.substr(4, 4).c_str(), nullptr, 16) == static_cast<unsigned long>(slot.value()));
        int found = -1;
        auto back = r.FindExport(key, kind, &found);
        CHECK(back && found == slot.value());
        added.push_back(slot.value());
        if (in.U8() & 1) {
          r.RemoveExport(slot.value());
          CHECK(!r.FindExport(key, kind));
        }
        break;
      }
      case 7: {  // what a reader of the whole table does
        (void)r.Processes();
        r.ReclaimDead();
        break;
      }
      case 8: {  // slot numbers from outside the table
        const int slot = static_cast<int>(static_cast<int16_t>(in.U8() << 8 | in.U8()));
        RegExport* s = r.Slot(slot);
        CHECK((s != nullptr) == (slot >= 0 && slot < kMaxExports));
        r.RemoveExport(kMaxExports + (slot & 0xff));
        break;
      }
    }
  }
  for (int s : added) r.RemoveExport(s);
  for (int i = 0; i < kSaved; ++i) *r.Slot(i) = saved[i];
  return 0;
}
