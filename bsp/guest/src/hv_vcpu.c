/* The hypervisor guest board's virtual CPU page, registered with the hypervisor before main
 * (bsp/guest/include/bsp/board_reset.h, from bsp/crt0.S). */
#include "bsp/bsp.h"

/* The kernel's guest port (kernel/arch/rv32-guest) and the hypervisor share it. */
struct hv_vcpu hv_vcpu __attribute__((aligned(64)));

extern char __vectors[];

void bsp_guest_init(void)
{
    if (hv_call(HV_VCPU, (long)(uintptr_t)&hv_vcpu, (long)(uintptr_t)__vectors, 0, 0) < 0)
        hv_call(HV_EXIT, 70, 0, 0, 0);
}
