// Comments that are meant as suppressions but are not valid ones.
// hipify-guard: ignor[HG101]  expect: HG903
// hipify-guard: ignore HG101  expect: HG903
/* hipify-guard: ignore[HG999]  expect: HG903 */
// hipify-guard: ignore[]  expect: HG903
// hipify-guard: ignore[HG1O1]  expect: HG903
// hipify-guard: enable[HG101]  expect: HG903
// hipify-guard: disable[HG101, HG1]
// hipify-guard: enable[HG1] valid: closes the HG1 block
// A comment that only mentions hipify-guard is prose, not a suppression.
const char *text = "// hipify-guard: nonsense";
// Prose that names the tool, such as "see hipify-guard: docs", is not a suppression either.
int y;  // see hipify-guard: ignor[HG101]  expect: HG903
