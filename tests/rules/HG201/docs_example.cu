// The example and "use instead" of the rule page.
void use_graphs();

void example() {
  int version = 0;
  cudaRuntimeGetVersion(&version);
  if (version >= 11000) {  // expect: HG201
    use_graphs();
  }
}

bool use_instead() {
  int version = 0;
#if !defined(USE_ROCM)
  cudaRuntimeGetVersion(&version);
  const bool has_graphs = version >= 11000;
#else
  hipRuntimeGetVersion(&version);
  const bool has_graphs = version >= 50300000;  // HIP 5.3
#endif
  return has_graphs;
}
