// The example and "use instead" of the rule page.
int get_cudart_version() {
  return CUDART_VERSION;  // expect: HG202
}

int use_instead() {
#if !defined(USE_ROCM)
  return CUDART_VERSION;
#else
  return HIP_VERSION;  // and callers must know it is on HIP's scale
#endif
}
