// The program that owns a precompiled header for the suites (tests/CMakeLists.txt). It only
// exists so the header is compiled once with the suites' exact flags; it is never run.
int main() {
    return 0;
}
