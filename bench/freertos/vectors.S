/* FreeRTOS's RISC-V port on the Ubik reference MCU: the BSP's vector table (bsp/crt0.S,
 * vectored mode, as on Ibex) jumps to weak entries, which this file replaces with the port's
 * vectored-mode handlers: exceptions (the port's yield is an ecall) to
 * freertos_risc_v_exception_handler, the machine timer to
 * freertos_risc_v_mtimer_interrupt_handler, fast lines 0..14 to
 * freertos_risc_v_interrupt_handler, which saves the task's context and calls
 * freertos_risc_v_application_interrupt_handler (tm_freertos.c) on the port's ISR stack. */
    .section .text.bsp_vector_exception, "ax"
    .globl bsp_vector_exception
bsp_vector_exception:
    j       freertos_risc_v_exception_handler

    .section .text.bsp_vector_timer, "ax"
    .globl bsp_vector_timer
bsp_vector_timer:
    j       freertos_risc_v_mtimer_interrupt_handler

    .section .text.bsp_vector_fast_irq, "ax"
    .globl bsp_vector_fast_irq
bsp_vector_fast_irq:
    j       freertos_risc_v_interrupt_handler
