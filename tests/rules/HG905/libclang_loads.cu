// libclang loads in the test environment: no HG905 here (tests/test_version_code.py breaks it).
int get_cudart_version() {
  return CUDART_VERSION;
}

int runtime() {
  int v = 0;
  cudaRuntimeGetVersion(&v);
  return v >= 11000;
}
