#!/usr/bin/env bash
# The kernel's core names no wait-queue back end and no board: kernel/src and the ports
# (kernel/arch) hold no preprocessor conditional on the RTM (UK_POLICY_RTM, ...), no RTM
# register (bsp/mmio.h's RTM_*) and include nothing of bsp/ but through the ports
# (kernel/arch/*/arch_impl.h). The RTM is a leaf: kernel/sched/rtm.c and kernel/waitq/rtm/
# (docs/kernel.md, "Wait queues and delays"). Prints each offending line; exit 1 if any.
# Usage: tests/kernel/layering.sh [ROOT]      (run by tests/kernel/run.sh)
set -uo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$root" || exit 2
bad=0
report() { # WHAT, then grep's FILE:LINE:TEXT lines on stdin
    local what=$1 line
    while IFS= read -r line; do
        echo "kernel layering: $line"
        echo "    $what"
        bad=1
    done
}
core=(kernel/src kernel/arch)
report "a conditional on the RTM: ask a property of the back end (kernel/src/kernel_waitq.h)" < <(
    grep -rniE --include='*.[chS]' --include='*.inc' '^[[:space:]]*#[[:space:]]*(if|ifdef|ifndef|elif).*rtm' "${core[@]}")
report "an RTM register: only the RTM back end touches the RTM (kernel/waitq/rtm, kernel/sched/rtm.c)" < <(
    grep -rnE --include='*.[chS]' --include='*.inc' '\bRTM_[A-Z_]+' "${core[@]}")
report "a BSP header in the core: reach the board through the arch interface (kernel/arch/arch.h)" < <(
    grep -rnE --include='*.[chS]' '#[[:space:]]*include[[:space:]]*"bsp/' kernel/src)
[[ $bad -eq 0 ]] && echo "kernel layering: kernel/src and kernel/arch name no RTM and no BSP header"
exit $bad
