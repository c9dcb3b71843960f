#!/bin/sh
# The real recording the small-recordings bench (bench/browser/small.ts) cuts its inputs from:
# g++ compiling a short C++ file that pulls in <regex>, <map> and iostreams, recorded with DWARF
# call graphs (inline frames included), then `perf script`. Needs root (or perf_event_paranoid
# <= 1), perf and g++. Writes bench/data/gxx.perf-script.txt (~25 MB at 4 kHz, gitignored); the bench
# takes its first 100 kB, 1.6 MB and 16 MB, each cut at a sample boundary.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="${FLAMEVIEW_BENCH_DATA:-$here/data}"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/prog.cpp" <<'EOF'
#include <algorithm>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>
int main() {
  std::map<std::string, int> m;
  std::vector<std::string> v;
  for (int i = 0; i < 100; i++) { std::ostringstream o; o << i; v.push_back(o.str()); }
  std::sort(v.begin(), v.end());
  std::regex r("a+b");
  return std::regex_match(v[0], r);
}
EOF
perf record -F 4000 --call-graph dwarf -o "$work/perf.data" -- g++ -O2 -c "$work/prog.cpp" -o "$work/prog.o"
perf script -i "$work/perf.data" > "$out/gxx.perf-script.txt.tmp"
mv "$out/gxx.perf-script.txt.tmp" "$out/gxx.perf-script.txt"
ls -l "$out/gxx.perf-script.txt"
