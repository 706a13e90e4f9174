// Times Google's robots.txt parser (google/robotstxt, ParseRobotsTxt) over a directory of
// files, for the parse row of bench/robots.bench.ts. Built by `npm run bench:build-google`
// into bench/real/google/ (ignored: the library is fetched, never committed).
//
//   parse-driver DIR RUNS   prints one JSON line: {"files":N,"bytes":B,"ms":[...],"cpuMs":[...]}
//
// `ms` is each run's wall time, `cpuMs` this process's CPU time, as the bench times heed. The
// bench runs it once a round with RUNS 2 (one run to warm the caches, one timed), between
// heed's rows of the same round, so that both meet the same load.
//
// Each run parses every file once with a handler that only counts what it is told, so the
// work is the parser's own: results dropped at once, as the bench's row measures heed.
#include <dirent.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "robots.h"

namespace {

class CountingHandler : public googlebot::RobotsParseHandler {
 public:
  long seen = 0;
  void HandleRobotsStart() override {}
  void HandleRobotsEnd() override {}
  void HandleUserAgent(int, absl::string_view v) override { seen += v.size(); }
  void HandleAllow(int, absl::string_view v) override { seen += v.size(); }
  void HandleDisallow(int, absl::string_view v) override { seen += v.size(); }
  void HandleSitemap(int, absl::string_view v) override { seen += v.size(); }
  void HandleUnknownAction(int, absl::string_view, absl::string_view v) override {
    seen += v.size();
  }
};

std::vector<std::string> ReadDir(const std::string& dir) {
  std::vector<std::string> bodies;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return bodies;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::ifstream in(dir + "/" + name, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    bodies.push_back(buffer.str());
  }
  closedir(d);
  return bodies;
}

double CpuMs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: parse-driver DIR RUNS\n");
    return 2;
  }
  const std::vector<std::string> bodies = ReadDir(argv[1]);
  const int runs = std::atoi(argv[2]);
  long bytes = 0;
  for (const std::string& b : bodies) bytes += static_cast<long>(b.size());
  long sink = 0;
  std::vector<double> wall;
  std::vector<double> cpu;
  for (int r = 0; r < runs; r++) {
    const auto start = std::chrono::steady_clock::now();
    const double cpuStart = CpuMs();
    for (const std::string& b : bodies) {
      CountingHandler handler;
      googlebot::ParseRobotsTxt(b, &handler);
      sink += handler.seen;
    }
    const std::chrono::duration<double, std::milli> took =
        std::chrono::steady_clock::now() - start;
    wall.push_back(took.count());
    cpu.push_back(CpuMs() - cpuStart);
  }
  std::printf("{\"files\":%zu,\"bytes\":%ld,\"sink\":%ld,\"ms\":[", bodies.size(), bytes, sink);
  for (size_t r = 0; r < wall.size(); r++) std::printf("%s%.3f", r == 0 ? "" : ",", wall[r]);
  std::printf("],\"cpuMs\":[");
  for (size_t r = 0; r < cpu.size(); r++) std::printf("%s%.3f", r == 0 ? "" : ",", cpu[r]);
  std::printf("]}\n");
  return 0;
}
