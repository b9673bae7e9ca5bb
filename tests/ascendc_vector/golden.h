// Reads the golden cases written by gen_golden.py (manifest + input/output files).
#ifndef SIMNPU_TESTS_ASCENDC_VECTOR_GOLDEN_H_
#define SIMNPU_TESTS_ASCENDC_VECTOR_GOLDEN_H_

#include <cstdint>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace simnpu_test {

struct GoldenCase {
  std::string name;
  uint32_t op = 0, n = 0, p[4] = {0, 0, 0, 0}, in_bytes = 0, out_bytes = 0;
  double tol = 0;
};

inline void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.name; }

inline std::vector<GoldenCase> LoadManifest(const std::string& dir) {
  std::vector<GoldenCase> out;
  std::ifstream f(dir + "/manifest.txt");
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    std::istringstream s(line);
    GoldenCase c;
    s >> c.name >> c.op >> c.n >> c.p[0] >> c.p[1] >> c.p[2] >> c.p[3] >> c.in_bytes >> c.out_bytes >> c.tol;
    out.push_back(c);
  }
  return out;
}

inline std::vector<uint8_t> LoadBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

}  // namespace simnpu_test

#endif  // SIMNPU_TESTS_ASCENDC_VECTOR_GOLDEN_H_
