/* The BSP of a guest of the hypervisor (hv/, built with -DBSP_GUEST): the virtual CPU page,
 * registered with the hypervisor before main (crt0.S). On the machine this file is empty. */
#ifdef BSP_GUEST
#include "bsp/bsp.h"
#include "hv/abi.h"

/* The kernel's guest port (kernel/arch/rv32-guest) and the hypervisor share it. */
struct hv_vcpu hv_vcpu __attribute__((aligned(64)));

extern char __vectors[];

void bsp_guest_init(void)
{
    if (hv_call(HV_VCPU, (long)(uintptr_t)&hv_vcpu, (long)(uintptr_t)__vectors, 0, 0) < 0)
        hv_call(HV_EXIT, 70, 0, 0, 0);
}
#else
typedef int bsp_guest_unused; /* ISO C: a translation unit is not empty */
#endif
