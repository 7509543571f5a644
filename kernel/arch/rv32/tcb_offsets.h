/* Offsets into uk_task_t for the assembly of switch.S (checked against the C layout by
 * _Static_assert in arch.c), and the constants it shares with the C kernel. */
#ifndef UBIK_TCB_OFFSETS_H
#define UBIK_TCB_OFFSETS_H

#define UK_TCB_SP 0
#define UK_TCB_STACK_BASE 76
/* From a task's delay_node (a delta list entry) to its delta. */
#define UK_DELAY_NODE_TO_DELTA 8

#define UK_ASM_STACK_CANARY 0xC0DEFACE

#endif
