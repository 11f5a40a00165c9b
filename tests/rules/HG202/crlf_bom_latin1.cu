// CRLF, BOM and latin-1 (café): the finding is on the macro.
const char* name = "é";
int v() { /* ÿ */ return CUDART_VERSION; }  // expect: HG202
