// CRLF line ends, a BOM, latin-1 bytes: offsets still land on the comparison.
int f() {
  /* café */ int v = 0;
  cudaRuntimeGetVersion(&v);
  const char* s = "été";
  if (v >= 11000) return 1;  // expect: HG201
  return v / 1000;  // expect: HG201
}
