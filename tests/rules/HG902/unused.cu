// Unused suppressions. The fixture runs HG902 alone and only codes that ran are judged,
// so these name HG9 rules or ALL; tests/test_suppressions.py covers the other rules.
#if CUDA_VERSION >= 11000  // hipify-guard: ignore[ALL] expect: HG902
#endif
int x;  /* hipify-guard: ignore[HG902] expect: HG902 */  int y;
// hipify-guard: ignore[HG9] expect: HG902
#define A 1
// note for readers; hipify-guard: ignore[ALL] expect: HG902
// hipify-guard: disable[HG902] expect: HG902
int z;
// hipify-guard: enable[HG902]
#define B 2 /* hipify-guard: ignore[HG902, HG903] expect: HG902 */
// hipify-guard: ignore[HG101] not judged: HG101 did not run
const char *text = "// hipify-guard: ignore[ALL]";
