#pragma once
#ifdef __cplusplus
extern "C" {
#endif
/// 42, from a C file one folder down (the IDE builds those too).
int greeting_number(void);
#ifdef __cplusplus
}
#endif
