// A condition without operators is spelled as the file spells them: DeepEP's symmetric.hpp writes
// `and`/`or`/`not` in its code and never `&&`/`||`.
inline bool fabric_supported(int device, bool wanted) {
    int supported = 0;
#if CUDART_VERSION >= 13000 and not defined(USE_ROCM)  // expect: HG101
    cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, device);
#endif
    return wanted and supported != 0 and not (device < 0);
}
