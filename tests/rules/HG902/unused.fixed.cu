// Unused suppressions. The fixture runs HG902 alone and only codes that ran are judged,
// so these name HG9 rules or ALL; tests/test_suppressions.py covers the other rules.
#if CUDA_VERSION >= 11000
#endif
int x;  int y;
#define A 1
// note for readers;
int z;
#define B 2 /* hipify-guard: ignore[HG903] expect: HG902 */
// hipify-guard: ignore[HG101] not judged: HG101 did not run
const char *text = "// hipify-guard: ignore[ALL]";
